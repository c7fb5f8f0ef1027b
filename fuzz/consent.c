/* consent.c: the consent endpoint's body, through the code cgi-bin/consent
 * uses (CONTRACT 7): valid_parse_body, the site_key check, consent_req_check
 * against the built-in config, then the entry record() builds.
 *
 * Input: the request body, all of it (NUL bytes included).
 */
#include <string.h>

#include "endpoint/consent_req.h"
#include "fuzz.h"
#include "base/hash.h"
#include "endpoint/request.h"
#include "config/resolve.h"
#include "input/valid.h"

static cJSON *doc;  /* the built-in defaults, as for an unpublished site */

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_body(data, size), *err, *cats;
	const cJSON *key;
	cJSON *body;
	struct consent_entry e;
	char hash[65];
	int rc;

	if (doc == NULL && (doc = resolve_document(NULL)) == NULL)
		abort();
	body = valid_parse_body(buf, size);
	if (body == NULL) {
		free(buf);
		return 0;
	}
	FUZZ_CHECK(cJSON_IsObject(body));
	/* request_body_key: a string, well-formed; the rest only then */
	key = valid_get(body, "site_key");
	if (!cJSON_IsString(key) || !valid_site_key(key->valuestring))
		goto out;
	if ((err = malloc(CONSENT_ERR_MAX)) == NULL)
		abort();
	rc = consent_req_check(body, doc, err, CONSENT_ERR_MAX);
	FUZZ_CHECK(rc == 0 || rc == -1);
	if (rc == -1) {
		FUZZ_CHECK(strnlen(err, CONSENT_ERR_MAX) < CONSENT_ERR_MAX && err[0] != '\0');
	} else {
		const char *anon = valid_get(body, "anon_id")->valuestring;

		memset(&e, 0, sizeof(e));
		consent_req_entry(body, &e);
		FUZZ_CHECK(e.event_type != NULL);
		FUZZ_CHECK(hash_sha256_hex(anon, strlen(anon), hash) == 0);
		FUZZ_CHECK(strlen(hash) == 64);
		if ((cats = cJSON_PrintUnformatted(valid_get(body, "categories"))) == NULL)
			abort();
		cJSON_free(cats);
	}
	free(err);
out:
	cJSON_Delete(body);
	free(buf);
	return 0;
}
