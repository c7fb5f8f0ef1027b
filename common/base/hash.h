/* hash.h: SHA-256: the visitor id digest (spec 2.4) and the proof of the log. */
#ifndef CONSENT_HASH_H
#define CONSENT_HASH_H

#include <stddef.h>

/* Lower-case hex SHA-256 of len bytes at data into out (64 hex + NUL).
 * Returns 0, or -1 with the cause on stderr. */
int hash_sha256_hex(const void *data, size_t len, char out[65]);

/* The 32 bytes of the SHA-256 of len bytes at data: 0, or -1 (reported). */
int hash_sha256(const void *data, size_t len, unsigned char out[32]);
/* Which OpenSSL interface hash_sha256() uses: "SHA256_Init" (the
 * low-level functions) or "EVP" (HASH_EVP, or an OpenSSL without them). */
const char *hash_backend(void);
/* 32 bytes as 64 lower-case hex digits and a NUL. */
void hash_hex(const unsigned char md[32], char out[65]);
/* 64 lower-case hex digits (then the end of the string) as 32 bytes: 0 or -1. */
int hash_unhex(const char *hex, unsigned char md[32]);
/* The value of one hex digit, either case, or -1 for any other character. */
int hash_hex_digit(char c);

#endif
