/* defaults.h: the built-in config served to sites with nothing published. */
#ifndef CONSENT_DEFAULTS_H
#define CONSENT_DEFAULTS_H

#include <cjson/cJSON.h>

/*
 * A new cJSON tree of the built-in default config document (CONTRACT 5.6),
 * owned by the caller (cJSON_Delete), or NULL on allocation failure.
 */
cJSON *defaults_config(void);

/* The same document as JSON text (static, NUL-terminated). */
const char *defaults_json(void);

/* The SHA-256 of that text, 64 lower-case hex digits (static), taken at
 * build time: what prepared answers are stamped with. */
const char *defaults_hash(void);

#endif
