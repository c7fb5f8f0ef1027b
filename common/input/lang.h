/* lang.h: language negotiation (CONTRACT 5.3, RFC 9110 12.5.4 Accept-Language). */
#ifndef CONSENT_LANG_H
#define CONSENT_LANG_H

#include <stddef.h>

/*
 * Choose the content language.  avail holds the n available language keys
 * (the keys of content.translations).  Candidates are tried in order: lang
 * (the query parameter, may be NULL), each tag of accept (the Accept-Language
 * header, may be NULL) by descending q (q=0 never; equal q keep header
 * order), region_default, content_default, then "en" (each may be NULL).  A
 * candidate matches an available key case-insensitively, else a key its
 * regional variant names (zh-HK -> zh-TW, zh -> zh-CN, es-MX -> es-419,
 * no -> nb: lang.c), else by its primary subtag (de-AT -> de, pt-PT -> pt),
 * else any key of the same primary subtag.  Returns the index in avail of the first match, or -1
 * when nothing matches.  Malformed tags and q-values are skipped, never fatal.
 */
int lang_negotiate(const char *const *avail, size_t n, const char *lang,
                   const char *accept, const char *region_default,
                   const char *content_default);

/*
 * The writing direction of a language tag, "rtl" or "ltr" (static): its
 * script subtag when it has one (ar-Latn is ltr, pa-Arab rtl), else its
 * primary language (ar fa he ur and the others written in Arabic or Hebrew
 * script are rtl).  "ltr" for NULL or a malformed tag.
 */
const char *lang_direction(const char *tag);

#endif
