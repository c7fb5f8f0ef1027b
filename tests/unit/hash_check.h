/* hash_check.h: the checks of hash_sha256() that test_hash.c (the library's
 * path) and test_hash_evp.c (the EVP path, forced) both run. */
#ifndef CONSENT_HASH_CHECK_H
#define CONSENT_HASH_CHECK_H

/* The reference of the EVP path is SHA256_Init and friends (deprecated). */
#ifndef OPENSSL_SUPPRESS_DEPRECATED
#define OPENSSL_SUPPRESS_DEPRECATED
#endif
#include <openssl/opensslconf.h>
#include <openssl/evp.h>
#include <openssl/sha.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "unit.h"

/* The other interface than the one hash_sha256() uses, as the reference:
 * EVP for the low-level path, SHA256_Init/Update/Final for the EVP path
 * (or EVP again when this OpenSSL has no low-level functions; the one-shot
 * SHA256() is EVP inside since OpenSSL 3.0). */
static int
ref_sha256(const unsigned char *data, size_t len, unsigned char out[32])
{
#if defined(HASH_EVP) && !defined(OPENSSL_NO_DEPRECATED_3_0)
	SHA256_CTX c;

	return SHA256_Init(&c) && SHA256_Update(&c, data, len) && SHA256_Final(out, &c) ? 0 : -1;
#else
	unsigned int n = 0;

	return EVP_Digest(data, len, out, &n, EVP_sha256(), NULL) && n == 32 ? 0 : -1;
#endif
}

/* hex of hash_sha256 over len bytes at data ("(failed)" on failure). */
static const char *
hex_of(const void *data, size_t len)
{
	static char out[65];
	unsigned char md[32];

	if (hash_sha256(data, len, md) != 0)
		return "(failed)";
	hash_hex(md, out);
	return out;
}

/* NIST FIPS 180-2 examples and CAVS short messages, a million 'a', then
 * every length from 0 to 2100 bytes (every padding case, many blocks) and
 * a few large ones against the reference interface. */
static void
hash_check(const char *want_backend)
{
	size_t big = 3u * 1024 * 1024 + 17, i, bad = 0;
	unsigned char *buf = malloc(big), a[32], b[32];
	char hex[65];

	CHECK_STR(hash_backend(), want_backend, "the SHA-256 path is the one this build chose");
	CHECK_STR(hex_of("", 0),
	    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "SHA-256 of \"\"");
	CHECK_STR(hex_of("abc", 3),
	    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", "SHA-256 of \"abc\"");
	CHECK_STR(hex_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56),
	    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
	    "SHA-256 of the 448-bit NIST message");
	CHECK_STR(hex_of("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
	    "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu", 112),
	    "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1",
	    "SHA-256 of the 896-bit NIST message");
	CHECK(buf != NULL, "3 MiB for the long inputs");
	if (buf == NULL)
		return;
	memset(buf, 'a', 1000000);
	CHECK_STR(hex_of(buf, 1000000),
	    "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
	    "SHA-256 of a million 'a'");
	for (i = 0; i < big; i++)
		buf[i] = (unsigned char)((i * 2654435761u) >> 13);
	for (i = 0; i <= 2100; i++) {
		if (hash_sha256(buf, i, a) != 0 || ref_sha256(buf, i, b) != 0 ||
		    memcmp(a, b, 32) != 0)
			bad++;
	}
	CHECK(bad == 0, "every length from 0 to 2100 bytes: the same digest as the other interface");
	bad = 0;
	for (i = big - 3; i <= big; i++) {
		if (hash_sha256(buf, i, a) != 0 || ref_sha256(buf, i, b) != 0 ||
		    memcmp(a, b, 32) != 0)
			bad++;
	}
	CHECK(bad == 0, "3 MiB inputs: the same digest as the other interface");
	CHECK(hash_sha256_hex("abc", 3, hex) == 0 && strcmp(hex,
	    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad") == 0,
	    "hash_sha256_hex gives the lower-case hex");
	free(buf);
}

#endif
