/* canon.c: the canonical line encoding of a record, and its SHA-256. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/canon.h"
#include "base/hash.h"
#include "base/log.h"

static void
add(struct canon *b, const char *s, size_t n)
{
	if (b->err)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = (b->len + n + 1) * 2;
		char *p = realloc(b->p, cap);

		if (p == NULL) {
			b->err = 1;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
}

void
canon_str(struct canon *b, const char *s)
{
	add(b, s, strlen(s));
}

void
canon_null(struct canon *b, const char *name)
{
	canon_str(b, name);
	canon_str(b, "=-\n");
}

void
canon_text(struct canon *b, const char *name, const char *text)
{
	char len[32];

	if (text == NULL) {
		canon_null(b, name);
		return;
	}
	snprintf(len, sizeof(len), "=s%zu:", strlen(text));
	canon_str(b, name);
	canon_str(b, len);
	canon_str(b, text);
	canon_str(b, "\n");
}

void
canon_number(struct canon *b, const char *name, double v)
{
	char num[48];

	snprintf(num, sizeof(num), "=n%.17g\n", v + 0.0);
	canon_str(b, name);
	canon_str(b, num);
}

int
canon_sha256(struct canon *b, char out[65])
{
	int rc = -1;

	if (b->err)
		log_error("out of memory");
	else
		rc = hash_sha256_hex(b->p != NULL ? b->p : "", b->len, out);
	free(b->p);
	memset(b, 0, sizeof(*b));
	return rc;
}
