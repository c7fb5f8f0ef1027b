/* consent.c: the consent endpoint's body, through the code cgi-bin/consent
 * uses (CONTRACT 7): valid_parse_body, the site_key check, consent_req_check
 * against the built-in config, then the entry record() builds.
 *
 * Input: the request body, all of it (NUL bytes included).  The same
 * bytes, as a string cut at the first NUL, also go through the validators
 * of what an operator types (consentctl and the dashboard's routes: site
 * name, tier, MAU cap, retention, anon_id, CONSENT_MAU_CAP, UTC time), so
 * that all of valid.c is fuzzed by one harness.
 */
#include <string.h>

#include "endpoint/consent_req.h"
#include "fuzz.h"
#include "base/hash.h"
#include "endpoint/request.h"
#include "config/resolve.h"
#include "input/valid.h"

static cJSON *doc;  /* the built-in defaults, as for an unpublished site */

/* valid.h's promises about what each validator writes. */
static void
operator_values(const char *s)
{
	int free_tier = -1, malformed = -1;
	int64_t n = -2, cap;
	char t[32];

	FUZZ_CHECK(valid_utf8_chars(s) >= -1);
	(void)valid_site_name(s);
	(void)valid_anon_id(s);
	if (valid_tier(s, &free_tier))
		FUZZ_CHECK(free_tier == 0 || free_tier == 1);
	if (valid_mau_cap(s, &n))
		FUZZ_CHECK(n >= -1);
	n = -2;
	if (valid_retention_days(s, &n))
		FUZZ_CHECK(n == -1 || n >= 1);
	cap = valid_cap_in_force(-1, s, &malformed);
	FUZZ_CHECK(cap >= 0 && (malformed == 0 || malformed == 1));
	FUZZ_CHECK(valid_cap_in_force(5, s, &malformed) == 5);
	memset(t, 'X', sizeof(t));
	if (valid_utc_time(s, t)) {
		/* the stored form, which compares as text */
		FUZZ_CHECK(strlen(t) == 24 && t[4] == '-' && t[10] == 'T' && t[19] == '.' &&
		    t[23] == 'Z');
		FUZZ_CHECK(valid_utc_time(t, t));
	}
}

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
	operator_values(buf);
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
