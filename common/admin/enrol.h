/* enrol.h: a new second factor for an account: TOTP secret, otpauth URI, recovery codes (ADMIN.md 2). */
#ifndef CONSENT_ENROL_H
#define CONSENT_ENROL_H

#include <cjson/cJSON.h>

#include "admin/token.h"
#include "admin/totp.h"

/* The issuer an authenticator app shows beside the account's name. */
#define ENROL_ISSUER "Consent"

/* A new factor: what the store keeps (secret, hash[]) and what the
 * account's holder is shown once (uri, secret, codes). */
struct enrol {
	char secret[TOTP_B32_LEN(TOTP_SECRET_LEN) + 1];   /* base32 */
	char uri[TOTP_URI_MAX];                           /* otpauth://totp/... */
	char codes[TOKEN_RECOVERY_COUNT][TOKEN_RECOVERY_LEN + 1];
	char hashes[TOKEN_RECOVERY_COUNT][65];
	const char *hash[TOKEN_RECOVERY_COUNT];           /* into hashes, for the store */
};

/* A new factor for the account into e: a secret from RAND_bytes, its URI,
 * ten recovery codes and their hashes.  0, or -1 (reported).  Clear e with
 * explicit_bzero() once shown and stored. */
int enrol_new(const char *account, struct enrol *e);

/* Add "otpauth", "secret" and "recovery_codes" (the answer that shows them
 * once) to out: 0, or -1 (out of memory). */
int enrol_json(cJSON *out, const struct enrol *e);

#endif
