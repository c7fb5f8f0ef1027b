/* totp.h: the second factor: TOTP (RFC 6238) over HOTP (RFC 4226), base32 and otpauth URIs. */
#ifndef CONSENT_TOTP_H
#define CONSENT_TOTP_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* ADMIN.md 2: HMAC-SHA-1, a 20-byte secret (RFC 4226 4's recommended
 * length), 6 digits, 30-second steps from the Unix epoch, one step of
 * clock drift either way. */
#define TOTP_SECRET_LEN 20
#define TOTP_DIGITS 6
#define TOTP_PERIOD 30
#define TOTP_WINDOW 1

/* Characters of the base32 of len bytes with its padding (RFC 4648 6). */
#define TOTP_B32_LEN(len) (((len) + 4) / 5 * 8)

/* Room for any URI totp_uri() writes, with its NUL. */
#define TOTP_URI_MAX 512

enum totp_err {
	TOTP_OK = 0,
	TOTP_WRONG,	/* no code, a malformed code, or none of the window's */
	TOTP_REPLAYED,	/* the code of a step already used: a wrong code to the user */
	TOTP_FAILED	/* HMAC failed (reported) */
};

/* A new secret of TOTP_SECRET_LEN bytes from RAND_bytes: 0, or -1. */
int totp_secret_new(unsigned char secret[TOTP_SECRET_LEN]);

/* RFC 4648 6 base32 of len bytes at in into out (TOTP_B32_LEN(len) + 1
 * bytes): upper case, padded with '=', NUL-terminated; returns its length. */
size_t totp_base32_encode(const unsigned char *in, size_t len, char *out);

/* The base32 text in (upper case, padded to a multiple of 8 or not padded
 * at all, the unused low bits zero) into out (room for cap bytes): the
 * bytes written, or -1 when in is no such text or does not fit. */
long totp_base32_decode(const char *in, unsigned char *out, size_t cap);

/* The time step of now (RFC 6238 4: floor(now / 30)), or -1 before 1970. */
int64_t totp_step(time_t now);

/*
 * The HOTP value of key at counter (RFC 4226 5.3: HMAC-SHA-1, dynamic
 * truncation, modulo 10^digits) as digits decimal digits with leading
 * zeros into out.  digits is 6 to 8: the dashboard's codes have 6, the
 * RFCs' test vectors 6 (RFC 4226 D) and 8 (RFC 6238 B).  0, or -1.
 */
int totp_hotp(const unsigned char *key, size_t keylen, uint64_t counter, int digits, char out[9]);

/*
 * Check the code a user typed against key at time now (RFC 6238 5.2):
 * exactly TOTP_DIGITS ASCII digits (NULL, empty or anything else is
 * TOTP_WRONG), equal to the code of now's step or one step either side,
 * compared in constant time.  A step at or before last_step (the step
 * accepted last for this key; -1 when none) is never accepted again: a
 * code of such a step only is TOTP_REPLAYED.  On TOTP_OK *accepted is the
 * step accepted (the earliest that matched), which the caller stores as
 * the next last_step; otherwise *accepted is left alone.
 */
enum totp_err totp_verify(const unsigned char key[TOTP_SECRET_LEN], const char *code, time_t now,
                          int64_t last_step, int64_t *accepted);

/*
 * The key URI an authenticator app reads (the QR code's text):
 * otpauth://totp/ISSUER:ACCOUNT?secret=BASE32&issuer=ISSUER&algorithm=SHA1&digits=6&period=30
 * with ISSUER and ACCOUNT percent-encoded (RFC 3986: every byte but
 * A-Z a-z 0-9 - . _ ~, so ':' '@' '&' '=' '?' '/' and spaces cannot break
 * the label or the query) and the secret unpadded.  Writes out (outsz
 * bytes): 0, or -1 when it does not fit or issuer or account is NULL or
 * empty (out empty).
 */
int totp_uri(const char *issuer, const char *account, const unsigned char secret[TOTP_SECRET_LEN],
             char *out, size_t outsz);

#endif
