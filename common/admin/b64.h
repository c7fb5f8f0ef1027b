/* b64.h: base64 without padding (RFC 4648 4 and 5): PHC strings and session tokens. */
#ifndef CONSENT_B64_H
#define CONSENT_B64_H

#include <stddef.h>

/* The two alphabets: standard (+/, the PHC string form) and URL-safe (-_). */
enum b64_alphabet {
	B64_STD,
	B64_URL
};

/* Characters that len bytes take, without padding (the NUL not counted). */
#define B64_LEN(len) (((len) * 4 + 2) / 3)

/*
 * Encode len bytes at in into out, which holds B64_LEN(len) + 1 bytes:
 * no padding, NUL-terminated.  Returns the characters written.
 */
size_t b64_encode(enum b64_alphabet a, const unsigned char *in, size_t len, char *out);

/*
 * Decode the len characters at in, unpadded, into out (room for cap
 * bytes).  Strict: only the alphabet's characters, no padding, whitespace
 * or line breaks, no length of 1 mod 4, and the unused low bits of the
 * last character zero (one text per value).  Returns the bytes written,
 * or -1 when in is not such a text or does not fit.
 */
long b64_decode(enum b64_alphabet a, const char *in, size_t len, unsigned char *out, size_t cap);

#endif
