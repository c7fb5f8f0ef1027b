/* test_hash.c: SHA-256 as the library hashes (hash.c): NIST vectors, long
 * inputs, and the same digests as OpenSSL's other interface.  The EVP path
 * is tested in the same way by test_hash_evp.c. */
#include "hash_check.h"

int
main(void)
{
#if defined(HASH_EVP) || defined(OPENSSL_NO_DEPRECATED_3_0)
	hash_check("EVP");
#else
	hash_check("SHA256_Init");
#endif
	UNIT_DONE();
}
