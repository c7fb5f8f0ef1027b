/* defaults.h: the built-in config served to sites with nothing published. */
#ifndef CONSENT_DEFAULTS_H
#define CONSENT_DEFAULTS_H

#include <stddef.h>

#include <cjson/cJSON.h>

/*
 * The built-in document (CONTRACT 5.6) is kept in pieces: the document
 * without its texts (common/config/defaults.json) and one translation per
 * language (common/config/i18n/CODE.json), embedded apart by the build.  A
 * request parses the pieces it needs: the document, then the one language
 * it answers in and English (defaults_texts()), whatever the number of
 * languages.  Every tree returned is new, owned by the caller
 * (cJSON_Delete); NULL means out of memory or an embedded piece that does
 * not parse (a build error the unit tests catch).
 */

/* The whole document, every language in content.translations ("en" first,
 * then by code): for publish time, consentctl and the tests. */
cJSON *defaults_config(void);

/*
 * The document with content.translations holding every built-in language
 * as an empty object: enough to pick a region and a language
 * (resolve_pick()) and to know the categories, before any text is parsed.
 */
cJSON *defaults_skeleton(void);

/*
 * Make doc's content.translations hold exactly the texts of "en" and of
 * the built-in language lang matches as a visitor's language would
 * (CONTRACT 5.3 and lang.c: "de" is de, "sv-SE" sv, "zh-HK" zh-TW; none:
 * en alone).  lang may point into doc.  0, or -1 when out of memory (doc
 * then holds no translations).
 */
int defaults_texts(cJSON *doc, const char *lang);

/* The code of the i-th built-in language (0 is "en"), or NULL past the
 * last. */
const char *defaults_language(size_t i);

/* The SHA-256 of the pieces, 64 lower-case hex digits (static), taken at
 * build time: what prepared answers are stamped with. */
const char *defaults_hash(void);

/*
 * The bytes whose SHA-256 is defaults_hash(), rebuilt from what is embedded
 * (tools/embed-texts.sh --hash): for each piece, the document then each
 * language in table order, its file name ("defaults.json", "CODE.json"), a
 * line feed and the file's bytes.  A new buffer of *len bytes plus a NUL
 * (caller frees it with free()), or NULL when out of memory.
 */
char *defaults_pieces(size_t *len);

/*
 * The whole built-in document (as defaults_config()) of pieces as
 * defaults_pieces() gives them, perhaps of another build: the built-in
 * texts an older entry was shown.  New tree (caller owns), or NULL when
 * they do not parse or memory runs out.
 */
cJSON *defaults_from_pieces(const char *pieces, size_t len);

#endif
