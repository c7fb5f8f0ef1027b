/* hash.c: SHA-256 through OpenSSL's EVP interface. */
#include <openssl/crypto.h>
#include <openssl/evp.h>

#include "hash.h"
#include "log.h"

/*
 * EVP_Digest with the default provider's SHA-256.  OpenSSL is initialised
 * without reading openssl.cnf (OPENSSL_INIT_NO_LOAD_CONFIG): a CGI process
 * needs no engine or provider configuration, and parsing the file is start-up
 * cost on every request.
 */
int
hash_sha256_hex(const void *data, size_t len, char out[65])
{
	static const char hex[] = "0123456789abcdef";
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;

	if (!OPENSSL_init_crypto(OPENSSL_INIT_NO_LOAD_CONFIG, NULL) ||
	    !EVP_Digest(data, len, md, &mdlen, EVP_sha256(), NULL) || mdlen != 32) {
		log_error("SHA-256 failed");
		return -1;
	}
	for (unsigned int i = 0; i < mdlen; i++) {
		out[2 * i] = hex[md[i] >> 4];
		out[2 * i + 1] = hex[md[i] & 0x0f];
	}
	out[64] = '\0';
	return 0;
}
