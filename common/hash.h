/* hash.h: the visitor id digest (spec 2.4: SHA-256 before storage). */
#ifndef CONSENT_HASH_H
#define CONSENT_HASH_H

#include <stddef.h>

/* Lower-case hex SHA-256 of len bytes at data into out (64 hex + NUL).
 * Returns 0, or -1 with the cause on stderr. */
int hash_sha256_hex(const void *data, size_t len, char out[65]);

#endif
