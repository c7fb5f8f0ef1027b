/* publish.h: publishing a config document, the one path of consentctl and the dashboard. */
#ifndef CONSENT_PUBLISH_H
#define CONSENT_PUBLISH_H

/*
 * ADMIN.md 1: `consentctl config publish`, `scripts rules --publish` and
 * the dashboard's POST sites/{key}/configs publish through these
 * functions, so that they validate (configdoc_validate(), CONTRACT 4),
 * prepare (prepare_document()), record the built-in texts and store alike.
 * The front ends only word the results.
 */

#include <stdint.h>

#include <cjson/cJSON.h>

#include "base/limits.h"
#include "config/prepare.h"
#include "store/store_admin.h"

enum publish_result {
	PUBLISH_OK = 0,
	PUBLISH_INVALID,   /* the document breaks CONTRACT 4: see struct publish_check */
	PUBLISH_NOMEM,     /* memory ran out */
	PUBLISH_BUILD,     /* this build's built-in texts are not what their hash
	                    * (defaults_hash()) was taken of: a build error */
	PUBLISH_NOSITE,    /* no site of that key */
	PUBLISH_FAILED     /* the store or the hash failed (reported) */
};

/* Why a document is invalid: configdoc_validate()'s message, and the path
 * of the member it names ("categories[2].id", "content.translations.de"),
 * or "" when the message names none ("duplicate category id: ads"). */
struct publish_check {
	char message[CONFIG_ERR_MAX];
	char path[CONFIG_PATH_MAX];
};

/* Check doc as publishing does: 0, or -1 with why filled.  The dashboard's
 * preview checks its draft with it. */
int publish_check(const cJSON *doc, struct publish_check *why);

/* A document ready to store: its text as stored and what was prepared
 * from it, owned here. */
struct publish {
	char *text;
	struct prepared prep;
};

/*
 * Check doc (PUBLISH_INVALID, why filled), print it and prepare its
 * answers (PUBLISH_NOMEM): PUBLISH_OK with p filled.  Needs no store, so
 * that an invalid document is refused before a database is opened.
 * Release p with publish_free() in every case.
 */
enum publish_result publish_prepare(const cJSON *doc, struct publish *p,
                                    struct publish_check *why);
void publish_free(struct publish *p);

/*
 * Record this build's built-in texts, then store p as the next version of
 * site key, published by publisher (store_config_publish()): PUBLISH_OK
 * with *version, or PUBLISH_NOMEM, PUBLISH_BUILD, PUBLISH_NOSITE,
 * PUBLISH_FAILED.
 */
enum publish_result publish_store(struct store *st, const char *key, const struct publish *p,
                                  const char *publisher, int64_t *version);

/*
 * Record this build's built-in texts (builtin_texts, INSERT OR IGNORE,
 * docs/proof.md), checked against their hash first: what consentctl init
 * and migrate do, and every publish.  PUBLISH_OK, PUBLISH_NOMEM,
 * PUBLISH_BUILD or PUBLISH_FAILED.
 */
enum publish_result publish_record_builtin(struct store *st);

#endif
