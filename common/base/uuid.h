/* uuid.h: random UUIDs for tracker syncs and the canonical form of one (RFC 9562). */
#ifndef CONSENT_UUID_H
#define CONSENT_UUID_H

/* Length of the canonical text form 8-4-4-4-12, without the NUL. */
#define UUID_LEN 36

/*
 * Write a new random (version 4, RFC 9562 5.4) UUID into out in lower-case
 * canonical form.  The 122 random bits come from OpenSSL's RAND_bytes.
 * Returns 0, or -1 (out set to "") when the generator fails.
 */
int uuid_v4(char out[UUID_LEN + 1]);

/*
 * Check that in is exactly a UUID in the 8-4-4-4-12 hex form, in either case
 * and of any version, and write it lower-cased into out.  Braces, a
 * "urn:uuid:" prefix, missing hyphens, short forms and surrounding
 * whitespace are refused.  Returns 0, or -1 (out set to "").
 */
int uuid_canonical(const char *in, char out[UUID_LEN + 1]);

#endif
