/* hash.c: SHA-256 through OpenSSL: its low-level SHA256_* functions, or EVP. */

/*
 * SHA256_Init, _Update and _Final are deprecated since OpenSSL 3.0 but
 * still built, unless OpenSSL was configured without the 3.0 deprecations
 * (OPENSSL_NO_DEPRECATED_3_0); this one file uses them, so it alone turns
 * the deprecation warnings off.  HASH_EVP (make HASH_EVP=1) forces the EVP
 * path, which a build against an OpenSSL without them takes by itself.
 */
#ifndef HASH_EVP
#define OPENSSL_SUPPRESS_DEPRECATED
#endif
#include <openssl/opensslconf.h>
#if !defined(HASH_EVP) && defined(OPENSSL_NO_DEPRECATED_3_0)
#define HASH_EVP
#endif

#include <string.h>
#ifndef HASH_EVP
#include <openssl/sha.h>
#else
#include <openssl/crypto.h>
#include <openssl/evp.h>
#endif

#include "base/hash.h"
#include "base/log.h"

#ifndef HASH_EVP
/*
 * The low-level functions compute the digest in the library's own code
 * (with the CPU's SHA extensions where present), without the provider
 * machinery: no OpenSSL initialisation, no provider load, no algorithm
 * fetch.  That start costs every CGI process 0.2 to 0.4 ms and about 50
 * page faults for what is then a few microseconds of hashing
 * (docs/performance.md).
 */
int
hash_sha256(const void *data, size_t len, unsigned char out[32])
{
	SHA256_CTX c;

	if (!SHA256_Init(&c) || !SHA256_Update(&c, data, len) || !SHA256_Final(out, &c)) {
		log_error("SHA-256 failed");
		return -1;
	}
	return 0;
}

const char *
hash_backend(void)
{
	return "SHA256_Init";
}
#else
/*
 * EVP_Digest with the default provider's SHA-256.  OpenSSL is initialised
 * with only what one digest needs, because each CGI process pays for its
 * initialisation once per request: no openssl.cnf (no engine or provider
 * configuration to read), none of the legacy name tables of every cipher
 * and digest (OPENSSL_INIT_NO_ADD_ALL_*), which EVP does not use to fetch
 * SHA-256 from the provider, and no OPENSSL_cleanup() at exit, which would
 * free, one by one, what the exiting process gives back anyway.  Together
 * about 0.8 ms per process (docs/performance.md).
 */
int
hash_sha256(const void *data, size_t len, unsigned char out[32])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;

	if (!OPENSSL_init_crypto(OPENSSL_INIT_NO_LOAD_CONFIG | OPENSSL_INIT_NO_ADD_ALL_CIPHERS |
	    OPENSSL_INIT_NO_ADD_ALL_DIGESTS | OPENSSL_INIT_NO_ATEXIT, NULL) ||
	    !EVP_Digest(data, len, md, &mdlen, EVP_sha256(), NULL) || mdlen != 32) {
		log_error("SHA-256 failed");
		return -1;
	}
	memcpy(out, md, 32);
	return 0;
}

const char *
hash_backend(void)
{
	return "EVP";
}
#endif

void
hash_hex(const unsigned char md[32], char out[65])
{
	static const char hex[] = "0123456789abcdef";

	for (unsigned int i = 0; i < 32; i++) {
		out[2 * i] = hex[md[i] >> 4];
		out[2 * i + 1] = hex[md[i] & 0x0f];
	}
	out[64] = '\0';
}

int
hash_unhex(const char *hex, unsigned char md[32])
{
	for (unsigned int i = 0; i < 64; i++) {
		char ch = hex[i];
		int v = ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;

		if (v < 0)
			return -1;
		if (i % 2 == 0)
			md[i / 2] = (unsigned char)(v << 4);
		else
			md[i / 2] |= (unsigned char)v;
	}
	return hex[64] == '\0' ? 0 : -1;
}

int
hash_hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int
hash_sha256_hex(const void *data, size_t len, char out[65])
{
	unsigned char md[32];

	if (hash_sha256(data, len, md) != 0)
		return -1;
	hash_hex(md, out);
	return 0;
}
