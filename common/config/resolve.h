/* resolve.h: a published config resolved for one visitor (CONTRACT 5). */
#ifndef CONSENT_RESOLVE_H
#define CONSENT_RESOLVE_H

#include <stdint.h>

#include <cjson/cJSON.h>

#include "input/geo.h"

struct visitor {
	const char *region;     /* the region query parameter, or NULL */
	const char *lang;       /* the lang query parameter, or NULL */
	const char *accept;     /* Accept-Language, or NULL */
	struct geo geo;         /* country and subdivision, "" when unknown */
};

struct site_facts {
	const char *name;
	int free_tier;
	int64_t version;        /* 0: unpublished */
	int doc_is_builtin;     /* doc is the built-in document (English and the
	                           language it answers in at least): no second copy */
};

/*
 * The config endpoint's 200 body (spec 4.1) for doc, the published document
 * or the built-in defaults, which the result references (the caller keeps
 * doc alive until the result is deleted, then deletes both).  Returns a new
 * object or NULL when out of memory.  doc was validated at publish time, but
 * every lookup here is checked again: a missing or mistyped member is
 * skipped, never dereferenced.
 */
cJSON *resolve_config(const cJSON *doc, const struct visitor *v,
                      const struct site_facts *site);

/*
 * resolve_config() over the given built-in document (a whole one, as
 * defaults_config() or defaults_from_pieces() give it) instead of the
 * compiled one: what an entry stored by another build was shown
 * (consentctl consent receipt).  builtin NULL is resolve_config(); with
 * site->doc_is_builtin, doc is the built-in document and builtin unused.
 */
cJSON *resolve_config_over(const cJSON *doc, const cJSON *builtin, const struct visitor *v,
                           const struct site_facts *site);

/*
 * The version of what the resolver answers: bumped whenever a change to
 * resolve.c or lang.c changes an answer for some document and visitor, so
 * that answers prepared by an older build are ignored (prepare.c stamps
 * them with it and the built-in defaults' hash).
 */
#define RESOLVE_VERSION 4   /* 2: resolvedDirection, regional variants (lang.c);
                               3: scriptRules by googleConsentModeAdvanced;
                               4: scriptRules the document's array again */

/*
 * The members resolve_pick() and resolve_has_category() read, as paths:
 * "a.b" a member of a member, "a[].b" that member of every element of the
 * array a, "a.*" every member name of the object a with whether its value
 * is an object.  NULL-terminated.  A skeleton holding exactly these gives
 * the same picks as the whole document.
 */
extern const char *const resolve_reads[];

/*
 * The part of the 200 body that depends only on the region (may be NULL)
 * and the language: sdkCategories, resolvedRegion, resolvedLanguage,
 * resolvedDirection (an addition to spec 4.1: "rtl" or "ltr", lang.c),
 * resolvedContent and resolvedUi, in that order, resolved from doc over
 * builtin (the defaults).  New object or NULL when out of memory.
 */
cJSON *resolve_part(const cJSON *doc, const cJSON *builtin, const cJSON *region,
                    const char *lang);

/*
 * CONTRACT 5.1 and 5.3 on a skeleton (or a whole document): the id of the
 * region ("" for none) and the language, both owned by skeleton.  -1 when
 * the region picked has no id (the document was not prepared).
 */
int resolve_pick(const cJSON *skeleton, const struct visitor *v, const char **region,
                 const char **lang);

/*
 * The same 200 body as resolve_config() from what was prepared, byte for
 * byte: the stored document, the members of the stored answer (printed by
 * cJSON when prepared) and scriptRules copied as they are around the site's
 * facts.  New raw item (caller owns), or NULL when the answer is not a JSON
 * object (reported) or memory runs out.
 */
cJSON *resolve_stored(const char *document, const char *script_rules,
                      const char *answer, const struct site_facts *site);

/* The region CONTRACT 5.1 picks, or NULL: exported for tests and consent. */
const cJSON *resolve_region(const cJSON *doc, const struct visitor *v);

/*
 * The document a site serves: the published JSON text parsed, or the
 * built-in defaults when published is NULL.  New tree (caller owns), or NULL
 * when it does not parse (reported on stderr) or memory runs out.
 */
cJSON *resolve_document(const char *published);

/* Whether the document (or its skeleton) declares a category with this id: 1 or 0. */
int resolve_has_category(const cJSON *doc, const char *id);

#endif
