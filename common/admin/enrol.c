/* enrol.c: a new second factor, made and shown alike by the dashboard and consentctl. */
#include <string.h>

#include "admin/enrol.h"
#include "base/log.h"

int
enrol_new(const char *account, struct enrol *e)
{
	unsigned char key[TOTP_SECRET_LEN];
	size_t i;
	int rc = -1;

	memset(e, 0, sizeof(*e));
	if (totp_secret_new(key) != 0 || token_recovery_new(e->codes) != 0)
		goto out;
	totp_base32_encode(key, sizeof(key), e->secret);
	e->secret[strcspn(e->secret, "=")] = '\0';
	if (totp_uri(ENROL_ISSUER, account, key, e->uri, sizeof(e->uri)) != 0)
		goto out;
	for (i = 0; i < TOKEN_RECOVERY_COUNT; i++) {
		if (token_recovery_hash(e->codes[i], e->hashes[i]) != 0)
			goto out;
		e->hash[i] = e->hashes[i];
	}
	rc = 0;
out:
	explicit_bzero(key, sizeof(key));
	if (rc != 0)
		log_error("cannot make a second factor");
	return rc;
}

int
enrol_json(cJSON *out, const struct enrol *e)
{
	cJSON *codes;
	size_t i;

	if (cJSON_AddStringToObject(out, "otpauth", e->uri) == NULL ||
	    cJSON_AddStringToObject(out, "secret", e->secret) == NULL ||
	    (codes = cJSON_AddArrayToObject(out, "recovery_codes")) == NULL)
		return -1;
	for (i = 0; i < TOKEN_RECOVERY_COUNT; i++) {
		cJSON *s = cJSON_CreateString(e->codes[i]);

		if (s == NULL || !cJSON_AddItemToArray(codes, s)) {
			cJSON_Delete(s);
			return -1;
		}
	}
	return 0;
}
