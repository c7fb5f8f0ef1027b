/* b64.c: base64 without padding, either alphabet, decoded strictly (RFC 4648). */
#include <stddef.h>

#include "admin/b64.h"

static const char std_chars[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
static const char url_chars[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/* The value of c in alphabet a, or -1. */
static int
b64_value(enum b64_alphabet a, char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == (a == B64_URL ? '-' : '+'))
		return 62;
	if (c == (a == B64_URL ? '_' : '/'))
		return 63;
	return -1;
}

size_t
b64_encode(enum b64_alphabet a, const unsigned char *in, size_t len, char *out)
{
	const char *chars = a == B64_URL ? url_chars : std_chars;
	size_t i, n = 0;

	for (i = 0; i + 2 < len; i += 3) {
		unsigned long v = (unsigned long)in[i] << 16 | (unsigned long)in[i + 1] << 8 | in[i + 2];

		out[n++] = chars[v >> 18 & 63];
		out[n++] = chars[v >> 12 & 63];
		out[n++] = chars[v >> 6 & 63];
		out[n++] = chars[v & 63];
	}
	if (len - i == 1) {
		out[n++] = chars[in[i] >> 2];
		out[n++] = chars[(in[i] & 3) << 4];
	} else if (len - i == 2) {
		out[n++] = chars[in[i] >> 2];
		out[n++] = chars[(in[i] & 3) << 4 | in[i + 1] >> 4];
		out[n++] = chars[(in[i + 1] & 15) << 2];
	}
	out[n] = '\0';
	return n;
}

long
b64_decode(enum b64_alphabet a, const char *in, size_t len, unsigned char *out, size_t cap)
{
	unsigned long acc = 0;
	size_t i, n = 0;
	int bits = 0;

	if (len % 4 == 1 || len / 4 * 3 + (len % 4 ? len % 4 - 1 : 0) > cap)
		return -1;
	for (i = 0; i < len; i++) {
		int v = b64_value(a, in[i]);

		if (v < 0)
			return -1;
		acc = (acc << 6 | (unsigned long)v) & 0xffffff;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			out[n++] = (unsigned char)(acc >> bits);
		}
	}
	if (bits > 0 && (acc & ((1UL << bits) - 1)) != 0)
		return -1;
	return (long)n;
}
