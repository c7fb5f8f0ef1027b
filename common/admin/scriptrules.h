/* scriptrules.h: the scriptRules a site's recorded script domains call for (consentctl scripts rules). */
#ifndef CONSENT_SCRIPTRULES_H
#define CONSENT_SCRIPTRULES_H

#include <stddef.h>

#include <cjson/cJSON.h>

/*
 * The rules that the script domains recorded for a site call for and that
 * the site's config document lacks.
 *
 * records is an array of objects with a "domain" string (the scripts table
 * as `scripts list --json` shows it); doc is the published document or the
 * built-in defaults.  Only domains the built-in tracker database knows
 * count, with its category (a client's guess is no ground for blocking).
 * A domain already matched by a rule of doc (SDK.md 5: the host equals the
 * pattern or ends with "." + pattern, a leading "*." ignored, ASCII case
 * ignored) calls for nothing.  The others are grouped by the database entry
 * that matched them, and each group gives one rule whose pattern is that
 * entry (google-analytics.com for www. and ssl.google-analytics.com) unless
 * a recorded domain or a rule of doc below the entry has another category
 * (cmp.quantcast.com, necessary, below quantcast.com, marketing): then each
 * recorded domain of the group is its own pattern, so that no new rule
 * reaches a host of another category.
 *
 * On success returns 0 with two new arrays of {"pattern", "category"}
 * objects, each sorted by pattern: *add the rules whose category is a
 * category of doc, *unknown those whose category is not (they cannot be
 * published).  The caller owns both (cJSON_Delete).  Returns -1 when memory
 * runs out (reported), with *add and *unknown NULL.
 */
int scriptrules_suggest(const cJSON *doc, const cJSON *records, cJSON **add,
                        cJSON **unknown);

/* Whether host is matched by the scriptRules pattern as the SDK matches
 * (SDK.md 5, as above): 1 or 0. */
int scriptrules_match(const char *host, const char *pattern);

/*
 * What scripts rules works on for site key: *doc its config (the published
 * document, else the built-in defaults), *records its script records
 * (store_scripts_list), and scriptrules_suggest()'s *add and *unknown over
 * them; the caller frees all four whatever is returned.  STORE_OK;
 * STORE_NOTFOUND for an unknown site; STORE_ERROR with why in err ("" when
 * the store reported it).
 */
struct store;
int scriptrules_site(struct store *st, const char *key, cJSON **doc, cJSON **records,
                     cJSON **add, cJSON **unknown, char *err, size_t errsz);
/* The rules of add moved to the end of doc's scriptRules (made when
 * absent): 0, or -1 with why in err. */
int scriptrules_append(cJSON *doc, cJSON *add, char *err, size_t errsz);

#endif
