/* token.c: random tokens, their SHA-256, recovery codes and the session cookie's parser. */
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/rand.h>

#include "admin/b64.h"
#include "admin/token.h"
#include "base/hash.h"
#include "base/log.h"

/* The recovery codes' alphabet: digits and lower-case letters without
 * 0 o 1 l i, which are read, heard or typed for one another (31). */
static const char recovery_chars[] = "23456789abcdefghjkmnpqrstuvwxyz";
#define RECOVERY_CHARS (sizeof(recovery_chars) - 1)
#define RECOVERY_TYPED_MAX 64

int
token_new(char out[TOKEN_LEN + 1])
{
	unsigned char b[TOKEN_BYTES];

	out[0] = '\0';
	if (RAND_bytes(b, (int)sizeof(b)) != 1) {
		log_error("token_new: no randomness");
		return -1;
	}
	b64_encode(B64_URL, b, sizeof(b), out);
	OPENSSL_cleanse(b, sizeof(b));
	return 0;
}

int
token_hash(const char *token, char hex[65])
{
	hex[0] = '\0';
	if (token == NULL)
		return -1;
	return hash_sha256_hex(token, strlen(token), hex);
}

int
token_equal(const char *a, const char *b)
{
	size_t n;

	if (a == NULL || b == NULL || (n = strlen(a)) != strlen(b))
		return 0;
	return CRYPTO_memcmp(a, b, n) == 0;
}

int
token_recovery_new(char codes[TOKEN_RECOVERY_COUNT][TOKEN_RECOVERY_LEN + 1])
{
	unsigned char r[64];
	size_t used = sizeof(r);
	int i, j;

	for (i = 0; i < TOKEN_RECOVERY_COUNT; i++) {
		for (j = 0; j < TOKEN_RECOVERY_LEN; j++) {
			if (j == 4 || j == 9) {
				codes[i][j] = '-';
				continue;
			}
			/* Bytes of 248 and above are skipped: 248 is 8 x 31, so
			 * every character is equally likely. */
			do {
				if (used == sizeof(r)) {
					if (RAND_bytes(r, (int)sizeof(r)) != 1) {
						log_error("token_recovery_new: no randomness");
						OPENSSL_cleanse(codes, sizeof(codes[0]) * TOKEN_RECOVERY_COUNT);
						return -1;
					}
					used = 0;
				}
			} while (r[used++] >= 256 / RECOVERY_CHARS * RECOVERY_CHARS);
			codes[i][j] = recovery_chars[r[used - 1] % RECOVERY_CHARS];
		}
		codes[i][TOKEN_RECOVERY_LEN] = '\0';
	}
	OPENSSL_cleanse(r, sizeof(r));
	return 0;
}

int
token_recovery_canonical(const char *typed, char out[TOKEN_RECOVERY_LEN + 1])
{
	size_t i, n = 0;

	out[0] = '\0';
	if (typed == NULL || strlen(typed) > RECOVERY_TYPED_MAX)
		return -1;
	for (i = 0; typed[i] != '\0'; i++) {
		char c = typed[i];

		if (c == '-' || c == ' ')
			continue;
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (strchr(recovery_chars, c) == NULL || n == TOKEN_RECOVERY_LEN)
			goto bad;
		if (n == 4 || n == 9)
			out[n++] = '-';
		out[n++] = c;
	}
	if (n != TOKEN_RECOVERY_LEN)
		goto bad;
	out[n] = '\0';
	return 0;
bad:
	OPENSSL_cleanse(out, TOKEN_RECOVERY_LEN + 1);
	out[0] = '\0';
	return -1;
}

int
token_recovery_hash(const char *typed, char hex[65])
{
	char canon[TOKEN_RECOVERY_LEN + 1];
	int rc;

	hex[0] = '\0';
	if (token_recovery_canonical(typed, canon) != 0)
		return -1;
	rc = hash_sha256_hex(canon, strlen(canon), hex);
	OPENSSL_cleanse(canon, sizeof(canon));
	return rc;
}

/* Whether the n characters at s are a token's: TOKEN_LEN of base64url,
 * the last one's unused low bits zero (one text per 32 bytes). */
static int
is_token(const char *s, size_t n)
{
	unsigned char b[TOKEN_BYTES];
	long got;

	if (n != TOKEN_LEN)
		return 0;
	got = b64_decode(B64_URL, s, n, b, sizeof(b));
	OPENSSL_cleanse(b, sizeof(b));
	return got == TOKEN_BYTES;
}

enum token_cookie
token_cookie_find(const char *header, char out[TOKEN_LEN + 1])
{
	static const char name[] = TOKEN_COOKIE_NAME;
	const size_t name_len = sizeof(name) - 1;
	const char *p, *value = NULL;
	size_t value_len = 0;

	out[0] = '\0';
	if (header == NULL)
		return TOKEN_COOKIE_ABSENT;
	if (strnlen(header, TOKEN_COOKIE_HEADER_MAX + 1) > TOKEN_COOKIE_HEADER_MAX)
		return TOKEN_COOKIE_MALFORMED;
	for (p = header; *p != '\0';) {
		const char *end = strchr(p, ';'), *v;
		size_t len;

		if (end == NULL)
			end = p + strlen(p);
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if ((size_t)(end - p) > name_len && strncmp(p, name, name_len) == 0 && p[name_len] == '=') {
			if (value != NULL)
				return TOKEN_COOKIE_MALFORMED;	/* twice: which one? */
			v = p + name_len + 1;
			len = (size_t)(end - v);
			while (len > 0 && (v[len - 1] == ' ' || v[len - 1] == '\t'))
				len--;
			value = v;
			value_len = len;
		}
		p = *end == ';' ? end + 1 : end;
	}
	if (value == NULL)
		return TOKEN_COOKIE_ABSENT;
	if (!is_token(value, value_len))
		return TOKEN_COOKIE_MALFORMED;
	memcpy(out, value, TOKEN_LEN);
	out[TOKEN_LEN] = '\0';
	return TOKEN_COOKIE_FOUND;
}
