/* token.h: the dashboard's session cookie, CSRF token and recovery codes (ADMIN.md 2 and 4). */
#ifndef CONSENT_TOKEN_H
#define CONSENT_TOKEN_H

#include "admin/b64.h"

/* A token: 32 bytes from OpenSSL's CSPRNG as unpadded base64url (RFC 4648 5). */
#define TOKEN_BYTES 32
#define TOKEN_LEN B64_LEN(TOKEN_BYTES)	/* 43 characters */

/* The session cookie's name (ADMIN.md 4): __Host- makes the browser take
 * it only with Secure, Path=/ and no Domain. */
#define TOKEN_COOKIE_NAME "__Host-consent_admin"
/* The longest Cookie header token_cookie_find() reads. */
#define TOKEN_COOKIE_HEADER_MAX 8192

/* Recovery codes: ten, each twelve characters of an alphabet without
 * look-alikes, read aloud in three groups: xxxx-xxxx-xxxx. */
#define TOKEN_RECOVERY_COUNT 10
#define TOKEN_RECOVERY_LEN 14

/*
 * A new token into out: 32 bytes from RAND_bytes, base64url without
 * padding, NUL-terminated.  0, or -1 (reported) with out empty.
 *
 * Two per session.  The session token is the cookie's value, never stored:
 * the store keeps token_hash() of it, so a copy of the database opens no
 * session.  The CSRF token (ADMIN.md 4's "csrf", sent back as
 * X-CSRF-Token) is a second token_new() stored with the session in clear,
 * rather than an HMAC of the session under a server secret: there is then
 * no key to create, keep out of the web root on an FTP-only host, and
 * rotate; it ends with its session; it shares nothing with the cookie's
 * value; and alone, without the cookie, it opens nothing.
 */
int token_new(char out[TOKEN_LEN + 1]);

/* Lower-case hex SHA-256 of the token's text into hex: the form the store
 * keeps of session tokens.  0, or -1. */
int token_hash(const char *token, char hex[65]);

/* Whether a and b are the same string, compared in constant time for
 * their length (CRYPTO_memcmp); the lengths themselves are not secret.
 * NULL equals nothing.  1 or 0. */
int token_equal(const char *a, const char *b);

/* Ten new recovery codes xxxx-xxxx-xxxx (about 59 bits each) into codes:
 * show them once, store token_recovery_hash() of each.  0, or -1. */
int token_recovery_new(char codes[TOKEN_RECOVERY_COUNT][TOKEN_RECOVERY_LEN + 1]);

/*
 * A recovery code as a person types it into its one canonical form:
 * ASCII case ignored, hyphens and spaces anywhere dropped, then exactly
 * twelve characters of the alphabet, written xxxx-xxxx-xxxx into out.
 * 0, or -1 (out empty) for anything else, or more than 64 bytes.
 */
int token_recovery_canonical(const char *typed, char out[TOKEN_RECOVERY_LEN + 1]);

/* Lower-case hex SHA-256 of the canonical form of typed into hex: what the
 * store keeps and looks up.  0, or -1 when typed is no recovery code. */
int token_recovery_hash(const char *typed, char hex[65]);

enum token_cookie {
	TOKEN_COOKIE_FOUND = 0,
	TOKEN_COOKIE_ABSENT,	/* no header, or no cookie of that name */
	TOKEN_COOKIE_MALFORMED	/* header too long, the cookie twice, or its value not a token */
};

/*
 * Find the session cookie in a Cookie request header (RFC 6265 5.4:
 * "name=value" pairs joined by "; ").  The name must be TOKEN_COOKIE_NAME
 * exactly (case and all); its value exactly TOKEN_LEN characters of
 * base64url, unquoted; other cookies are passed over unread.  On
 * TOKEN_COOKIE_FOUND the value is in out; otherwise out is empty.
 */
enum token_cookie token_cookie_find(const char *header, char out[TOKEN_LEN + 1]);

#endif
