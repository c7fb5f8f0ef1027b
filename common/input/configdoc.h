/* configdoc.h: publish-time validation of a site's config document (CONTRACT 4). */
#ifndef CONSENT_CONFIGDOC_H
#define CONSENT_CONFIGDOC_H

#include <stddef.h>

#include <cjson/cJSON.h>

/*
 * Check a config document before it is published.  Returns 0 when it is
 * valid; otherwise -1, with err (errsz bytes, always NUL-terminated) naming
 * the first problem found and its path, e.g.
 *   "categories[2].id must be 1-50 characters of a-z0-9_-"
 *   "duplicate category id: analytics"
 *   "scriptRules[0].category names no category: foo"
 *   "consentRules.googleConsentMode names no category: ads, stats"
 * Problems are looked for in this order: the document itself, every string
 * and member name (UTF-8 text without control characters), categories,
 * regions, content, scriptRules, appearance, consentRules (honorGpc,
 * expiryDays, googleConsentMode, googleConsentModeAdvanced); within an
 * array, element by element.
 * Keys the contract does not name are kept and not
 * checked.  The document is not modified.
 */
int configdoc_validate(const cJSON *doc, char *err, size_t errsz);

#endif
