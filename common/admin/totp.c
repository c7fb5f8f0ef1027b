/* totp.c: HOTP and TOTP through OpenSSL's HMAC-SHA-1, base32 and the otpauth key URI (RFC 4226, 6238, 4648). */
#include <stdio.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include "admin/totp.h"
#include "base/log.h"

static const char b32_chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/* totp_uri() names these parameters in its text. */
_Static_assert(TOTP_DIGITS == 6 && TOTP_PERIOD == 30, "otpauth URI: digits=6&period=30");

int
totp_secret_new(unsigned char secret[TOTP_SECRET_LEN])
{
	if (RAND_bytes(secret, TOTP_SECRET_LEN) != 1) {
		log_error("totp_secret_new: no randomness");
		return -1;
	}
	return 0;
}

size_t
totp_base32_encode(const unsigned char *in, size_t len, char *out)
{
	size_t i, n = 0, total = TOTP_B32_LEN(len);
	unsigned long acc = 0;
	int bits = 0;

	for (i = 0; i < len; i++) {
		acc = (acc << 8 | in[i]) & 0xffff;
		bits += 8;
		while (bits >= 5) {
			bits -= 5;
			out[n++] = b32_chars[acc >> bits & 31];
		}
	}
	if (bits > 0)
		out[n++] = b32_chars[acc << (5 - bits) & 31];
	while (n < total)
		out[n++] = '=';
	out[n] = '\0';
	return n;
}

long
totp_base32_decode(const char *in, unsigned char *out, size_t cap)
{
	size_t i, len, chars, n = 0;
	unsigned long acc = 0;
	int bits = 0;

	if (in == NULL)
		return -1;
	len = strlen(in);
	for (chars = len; chars > 0 && in[chars - 1] == '='; chars--)
		;
	/* Padded: to a multiple of 8.  Either way, only the lengths that a
	 * whole number of bytes gives (RFC 4648 6: 2, 4, 5 or 7 in the last
	 * group). */
	if ((chars < len && len % 8 != 0) || chars % 8 == 1 || chars % 8 == 3 || chars % 8 == 6)
		return -1;
	if (chars < len && len - chars > 6)
		return -1;
	for (i = 0; i < chars; i++) {
		const char *p = strchr(b32_chars, in[i]);

		if (in[i] == '\0' || p == NULL)
			return -1;
		acc = (acc << 5 | (unsigned long)(p - b32_chars)) & 0xffff;
		bits += 5;
		if (bits >= 8) {
			bits -= 8;
			if (n == cap)
				return -1;
			out[n++] = (unsigned char)(acc >> bits);
		}
	}
	if (bits > 0 && (acc & ((1UL << bits) - 1)) != 0)
		return -1;
	return (long)n;
}

int64_t
totp_step(time_t now)
{
	return now < 0 ? -1 : (int64_t)(now / TOTP_PERIOD);
}

int
totp_hotp(const unsigned char *key, size_t keylen, uint64_t counter, int digits, char out[9])
{
	static const uint32_t mod[] = { 1000000, 10000000, 100000000 };
	unsigned char msg[8], md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0, off;
	uint32_t bin;
	int i;

	out[0] = '\0';
	if (digits < 6 || digits > 8 || keylen > 64)
		return -1;
	for (i = 7; i >= 0; i--, counter >>= 8)
		msg[i] = (unsigned char)(counter & 0xff);
	if (HMAC(EVP_sha1(), key, (int)keylen, msg, sizeof(msg), md, &mdlen) == NULL || mdlen != 20) {
		log_error("totp: HMAC-SHA-1 failed");
		return -1;
	}
	off = md[19] & 0x0f;
	bin = (uint32_t)(md[off] & 0x7f) << 24 | (uint32_t)md[off + 1] << 16 |
	    (uint32_t)md[off + 2] << 8 | md[off + 3];
	bin %= mod[digits - 6];
	for (i = digits - 1; i >= 0; i--, bin /= 10)
		out[i] = (char)('0' + bin % 10);
	out[digits] = '\0';
	OPENSSL_cleanse(md, sizeof(md));
	return 0;
}

/* Whether code is exactly TOTP_DIGITS ASCII digits. */
static int
code_wellformed(const char *code)
{
	int i;

	if (code == NULL)
		return 0;
	for (i = 0; i < TOTP_DIGITS; i++)
		if (code[i] < '0' || code[i] > '9')
			return 0;
	return code[TOTP_DIGITS] == '\0';
}

enum totp_err
totp_verify(const unsigned char key[TOTP_SECRET_LEN], const char *code, time_t now,
            int64_t last_step, int64_t *accepted)
{
	int64_t step = totp_step(now), s, hit = -1;
	int replayed = 0;
	char want[9];

	if (!code_wellformed(code) || step < 0)
		return TOTP_WRONG;
	/* Every step of the window is computed and compared, whatever
	 * matched before it, so the time taken says nothing of which did. */
	for (s = step - TOTP_WINDOW; s <= step + TOTP_WINDOW; s++) {
		int same;

		if (s < 0)
			continue;
		if (totp_hotp(key, TOTP_SECRET_LEN, (uint64_t)s, TOTP_DIGITS, want) != 0)
			return TOTP_FAILED;
		same = CRYPTO_memcmp(want, code, TOTP_DIGITS) == 0;
		if (same && s <= last_step)
			replayed = 1;
		else if (same && hit < 0)
			hit = s;
	}
	OPENSSL_cleanse(want, sizeof(want));
	if (hit >= 0) {
		*accepted = hit;
		return TOTP_OK;
	}
	return replayed ? TOTP_REPLAYED : TOTP_WRONG;
}

/* Append s percent-encoded (RFC 3986 2.1, unreserved left as they are)
 * at out + *n, within outsz: 0, or -1 when it does not fit. */
static int
put_encoded(char *out, size_t outsz, size_t *n, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";

	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;
		int plain = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
		    (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' || c == '~';

		if (*n + (plain ? 1 : 3) >= outsz)
			return -1;
		if (plain) {
			out[(*n)++] = (char)c;
		} else {
			out[(*n)++] = '%';
			out[(*n)++] = hex[c >> 4];
			out[(*n)++] = hex[c & 15];
		}
	}
	out[*n] = '\0';
	return 0;
}

/* Append the plain text s at out + *n, within outsz: 0, or -1. */
static int
put_plain(char *out, size_t outsz, size_t *n, const char *s)
{
	size_t len = strlen(s);

	if (*n + len >= outsz)
		return -1;
	memcpy(out + *n, s, len + 1);
	*n += len;
	return 0;
}

int
totp_uri(const char *issuer, const char *account, const unsigned char secret[TOTP_SECRET_LEN],
         char *out, size_t outsz)
{
	char b32[TOTP_B32_LEN(TOTP_SECRET_LEN) + 1], *pad;
	size_t n = 0;

	if (outsz == 0)
		return -1;
	out[0] = '\0';
	if (issuer == NULL || account == NULL || *issuer == '\0' || *account == '\0')
		return -1;
	totp_base32_encode(secret, TOTP_SECRET_LEN, b32);
	if ((pad = strchr(b32, '=')) != NULL)
		*pad = '\0';
	if (put_plain(out, outsz, &n, "otpauth://totp/") != 0 ||
	    put_encoded(out, outsz, &n, issuer) != 0 ||
	    put_plain(out, outsz, &n, ":") != 0 ||
	    put_encoded(out, outsz, &n, account) != 0 ||
	    put_plain(out, outsz, &n, "?secret=") != 0 ||
	    put_plain(out, outsz, &n, b32) != 0 ||
	    put_plain(out, outsz, &n, "&issuer=") != 0 ||
	    put_encoded(out, outsz, &n, issuer) != 0 ||
	    put_plain(out, outsz, &n, "&algorithm=SHA1&digits=6&period=30") != 0) {
		OPENSSL_cleanse(b32, sizeof(b32));
		out[0] = '\0';
		return -1;
	}
	OPENSSL_cleanse(b32, sizeof(b32));
	return 0;
}
