/* defaults.c: the built-in config served to sites with nothing published (CONTRACT 5.6). */
#include <cjson/cJSON.h>

#include "defaults.h"

/* common/defaults.json, embedded by tools/embed.sh (gen/defaults_data.c),
 * and its SHA-256 in hex, taken by the Makefile (gen/defaults_hash.c). */
extern const char defaults_data[];
extern const char defaults_sha256[];

const char *
defaults_hash(void)
{
	return defaults_sha256;
}

const char *
defaults_json(void)
{
	return defaults_data;
}

cJSON *
defaults_config(void)
{
	return cJSON_Parse(defaults_data);
}
