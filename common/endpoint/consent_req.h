/* consent_req.h: the consent request body (spec 4.2): declared, checked, turned into an entry. */
#ifndef CONSENT_CONSENT_REQ_H
#define CONSENT_CONSENT_REQ_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "store/store.h"

/* Room for any message consent_req_check() writes, the longest being
 * "Invalid category ids: " with CATEGORIES_MAX ids of CATEGORY_ID_MAX
 * characters (4 bytes each in UTF-8) and their separators. */
#define CONSENT_ERR_MAX (32 + CATEGORIES_MAX * (CATEGORY_ID_MAX * 4 + 2))

/*
 * Check every field of the body against its declaration, then the
 * categories map: every value a boolean, every key 1-50 characters; unless
 * event_type is impression, every key a category of doc (spec 4.2 rules 1
 * and 2), all unknown ids listed in request order ("Invalid category ids:
 * foo, bar").  Returns 0, or -1 with the message in err.
 */
int consent_req_check(const cJSON *body, const cJSON *doc, char *err, size_t errsz);

/*
 * Fill e from a checked body: every optional field as sent (absent: NULL).
 * The pointers in e point into body, which must outlive e.  The caller
 * sets the enrichment (site, hash, categories text, UA, country).
 */
void consent_req_entry(const cJSON *body, struct consent_entry *e);

#endif
