/* uuid.c: random version 4 UUIDs and the canonical text form (RFC 9562). */
#include <stddef.h>

#include <openssl/rand.h>

#include "base/uuid.h"

static const char hex[] = "0123456789abcdef";

/* Whether position i of the canonical form holds a hyphen. */
static int
is_hyphen_pos(size_t i)
{
	return i == 8 || i == 13 || i == 18 || i == 23;
}

int
uuid_v4(char out[UUID_LEN + 1])
{
	unsigned char b[16];
	size_t i, j;

	out[0] = '\0';
	if (RAND_bytes(b, (int)sizeof(b)) != 1)
		return -1;
	b[6] = (unsigned char)((b[6] & 0x0f) | 0x40);  /* version 4 */
	b[8] = (unsigned char)((b[8] & 0x3f) | 0x80);  /* variant 10x (RFC 9562) */
	for (i = 0, j = 0; i < UUID_LEN; i++) {
		if (is_hyphen_pos(i)) {
			out[i] = '-';
			continue;
		}
		out[i] = hex[(j % 2 == 0) ? b[j / 2] >> 4 : b[j / 2] & 0x0f];
		j++;
	}
	out[UUID_LEN] = '\0';
	return 0;
}

int
uuid_canonical(const char *in, char out[UUID_LEN + 1])
{
	size_t i;

	out[0] = '\0';
	if (in == NULL)
		return -1;
	for (i = 0; i < UUID_LEN; i++) {
		unsigned char c = (unsigned char)in[i];

		if (c == '\0')
			goto bad;
		if (is_hyphen_pos(i)) {
			if (c != '-')
				goto bad;
			out[i] = '-';
		} else if (c >= '0' && c <= '9') {
			out[i] = (char)c;
		} else if (c >= 'a' && c <= 'f') {
			out[i] = (char)c;
		} else if (c >= 'A' && c <= 'F') {
			out[i] = (char)(c - 'A' + 'a');
		} else {
			goto bad;
		}
	}
	if (in[UUID_LEN] != '\0')
		goto bad;
	out[UUID_LEN] = '\0';
	return 0;
bad:
	out[0] = '\0';
	return -1;
}
