/* password.h: the dashboard's password policy and Argon2id hashes (ADMIN.md 2). */
#ifndef CONSENT_PASSWORD_H
#define CONSENT_PASSWORD_H

/* The policy, in Unicode code points of valid UTF-8 (ADMIN.md 2). */
#define PASSWORD_MIN 12
#define PASSWORD_MAX 128

/*
 * The current Argon2id parameters: m in KiB (19 MiB), t passes, p lanes,
 * salt and hash in bytes.  A stored hash below any of them needs a rehash
 * (password_needs_rehash); raise them here, never lower them.
 */
#define PASSWORD_M_KIB 19456
#define PASSWORD_T 2
#define PASSWORD_P 1
#define PASSWORD_SALT_LEN 16
#define PASSWORD_HASH_LEN 32

/* Room for any PHC string password_hash() writes or password_verify()
 * accepts, with its NUL. */
#define PASSWORD_PHC_MAX 256

enum password_err {
	PASSWORD_OK = 0,
	PASSWORD_TOO_SHORT,	/* fewer than PASSWORD_MIN code points */
	PASSWORD_TOO_LONG,	/* more than PASSWORD_MAX code points */
	PASSWORD_NOT_UTF8,	/* not valid UTF-8 (or NULL) */
	PASSWORD_COMMON,	/* in the common-password list */
	PASSWORD_MISMATCH,	/* password_verify: not the stored password */
	PASSWORD_MALFORMED,	/* the stored string is no Argon2id PHC string this accepts */
	PASSWORD_FAILED		/* no randomness or memory for hashing (reported) */
};

/* A short English sentence for err, for an API's {"error"} (static). */
const char *password_message(enum password_err err);

/*
 * The policy for a new password pw (NUL-terminated): PASSWORD_OK, or
 * PASSWORD_NOT_UTF8, _TOO_SHORT, _TOO_LONG or _COMMON, in that order.  No
 * composition rules.  Common means equal, ASCII case ignored, to an entry
 * of the list password_list.h declares; the list is ASCII, so a password
 * with any other character is never common.  No normalisation: the code
 * points are compared as typed.
 */
enum password_err password_check(const char *pw);

/*
 * Hash pw with Argon2id at the current parameters and a new 16-byte salt
 * from RAND_bytes into out, as the PHC string
 * $argon2id$v=19$m=19456,t=2,p=1$SALT$HASH (unpadded standard base64).
 * Applies no policy (password_check does).  PASSWORD_OK, or
 * PASSWORD_FAILED (reported) with out empty.
 */
enum password_err password_hash(const char *pw, char out[PASSWORD_PHC_MAX]);

/*
 * Whether pw is the password whose PHC string is phc: PASSWORD_OK,
 * PASSWORD_MISMATCH, PASSWORD_MALFORMED (phc is not argon2id, v=19, with
 * m up to 1 GiB, t up to 64, p up to 16, salt 8-64 and hash 16-64 bytes,
 * canonically written), or PASSWORD_FAILED.  The work is Argon2id at phc's
 * own parameters, the comparison constant-time (CRYPTO_memcmp).  A phc of
 * NULL (no such account) does the same work at the current parameters and
 * answers PASSWORD_MISMATCH, so that a wrong user name costs the time of a
 * wrong password.
 */
enum password_err password_verify(const char *phc, const char *pw);

/* 1 when phc is below the current parameters (m, t, p, salt or hash
 * length) or malformed, else 0: rehash the password after a successful
 * password_verify. */
int password_needs_rehash(const char *phc);

#endif
