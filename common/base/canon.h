/* canon.h: the canonical line encoding that record digests are taken over (consent-log(5)). */
#ifndef CONSENT_CANON_H
#define CONSENT_CANON_H

/*
 * A record is encoded as a magic line, then one line per field:
 * name "=" value LF, the value "-" for none, "s" LENGTH ":" BYTES for text
 * (LENGTH in bytes, decimal), "n" and printf's "%.17g" for a number (a
 * boolean is the number 1 or 0; -0 is 0).  Its digest is the SHA-256 of
 * those bytes.  The consent log's entries (proof/proof.c) and the audit
 * trail's records (store/store_audit.c) are digested this way.
 */

#include <stddef.h>

/* The encoding being built; err is set once memory ran out, and every
 * later call then does nothing.  Start from { 0 }. */
struct canon {
	char *p;
	size_t len, cap;
	int err;
};

/* Append the bytes of s as they are (a magic line, a seal's lines). */
void canon_str(struct canon *b, const char *s);
/* One field: none, text (NULL: none), a number. */
void canon_null(struct canon *b, const char *name);
void canon_text(struct canon *b, const char *name, const char *text);
void canon_number(struct canon *b, const char *name, double v);

/* The SHA-256 of the bytes as hex into out, freeing them: 0, or -1
 * (reported: memory ran out, or the hash failed). */
int canon_sha256(struct canon *b, char out[65]);

#endif
