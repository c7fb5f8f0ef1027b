/* test_hash_evp.c: hash.c compiled with its EVP path forced (HASH_EVP, as
 * `make HASH_EVP=1` or an OpenSSL without the low-level SHA-256 functions
 * builds it) passes the same checks as the library's path (test_hash.c).
 * This program holds its own copy of hash.c, so the linker takes none of
 * libcommon.a's hash.o. */
#define HASH_EVP 1
#define OPENSSL_SUPPRESS_DEPRECATED   /* the reference: hash_check.h */
#include "base/hash.c"
#include "hash_check.h"

int
main(void)
{
	hash_check("EVP");
	UNIT_DONE();
}
