/* password.c: the password policy (common passwords: zxcvbn's list from Debian's python3-zxcvbn, tools/gen-passwords.sh) and Argon2id PHC strings (libargon2). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <argon2.h>
#include <openssl/crypto.h>
#include <openssl/rand.h>

#include "admin/b64.h"
#include "admin/password.h"
#include "admin/password_list.h"
#include "base/log.h"

/* What password_verify accepts from a stored string: enough room to raise
 * the parameters for years, not so much that a tampered row takes the
 * machine's memory. */
#define M_KIB_MAX (1024UL * 1024UL)
#define T_MAX 64UL
#define P_MAX 16UL
#define SALT_MIN 8
#define SALT_MAX 64
#define HASH_MIN 16
#define HASH_MAX 64

/* The parts of a PHC string. */
struct phc {
	unsigned long m, t, p;
	unsigned char salt[SALT_MAX], hash[HASH_MAX];
	size_t salt_len, hash_len;
};

const char *
password_message(enum password_err err)
{
	switch (err) {
	case PASSWORD_OK: return "OK";
	case PASSWORD_TOO_SHORT: return "Password too short: at least 12 characters";
	case PASSWORD_TOO_LONG: return "Password too long: at most 128 characters";
	case PASSWORD_NOT_UTF8: return "Password is not valid UTF-8";
	case PASSWORD_COMMON: return "Password is too common";
	case PASSWORD_MISMATCH: return "Wrong password";
	case PASSWORD_MALFORMED: return "Stored password hash is malformed";
	case PASSWORD_FAILED: return "Password hashing failed";
	}
	return "Unknown password error";
}

/* The code points of the NUL-terminated s if it is valid UTF-8 (RFC 3629:
 * no overlong forms, no surrogates, nothing above U+10FFFF), else -1.
 * Stops counting past limit + 1. */
static long
utf8_count(const char *s, long limit)
{
	const unsigned char *p = (const unsigned char *)s;
	long n = 0;

	while (*p != '\0' && n <= limit) {
		unsigned long cp;
		int more, i;

		if (*p < 0x80) {
			p++;
			n++;
			continue;
		} else if ((*p & 0xe0) == 0xc0) {
			cp = *p & 0x1f, more = 1;
		} else if ((*p & 0xf0) == 0xe0) {
			cp = *p & 0x0f, more = 2;
		} else if ((*p & 0xf8) == 0xf0) {
			cp = *p & 0x07, more = 3;
		} else {
			return -1;
		}
		for (i = 1; i <= more; i++) {
			if ((p[i] & 0xc0) != 0x80)
				return -1;
			cp = cp << 6 | (p[i] & 0x3f);
		}
		if ((more == 1 && cp < 0x80) || (more == 2 && cp < 0x800) ||
		    (more == 3 && cp < 0x10000) || cp > 0x10ffff ||
		    (cp >= 0xd800 && cp <= 0xdfff))
			return -1;
		p += more + 1;
		n++;
	}
	return n;
}

static int
cmp_entry(const void *key, const void *entry)
{
	return strcmp(key, *(const char *const *)entry);
}

/* Whether pw, ASCII case ignored, is in the common-password list. */
static int
is_common(const char *pw)
{
	char low[PASSWORD_MAX + 1];
	size_t i, len = strlen(pw);
	int found;

	if (len > PASSWORD_MAX)
		return 0;	/* more bytes than code points: not ASCII, so in no entry */
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)pw[i];

		if (c >= 0x80)
			return 0;
		low[i] = (char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
	}
	low[len] = '\0';
	found = bsearch(low, password_common, password_common_len,
	    sizeof(password_common[0]), cmp_entry) != NULL;
	OPENSSL_cleanse(low, sizeof(low));
	return found;
}

enum password_err
password_check(const char *pw)
{
	long n;

	if (pw == NULL || (n = utf8_count(pw, PASSWORD_MAX)) < 0)
		return PASSWORD_NOT_UTF8;
	if (n < PASSWORD_MIN)
		return PASSWORD_TOO_SHORT;
	if (n > PASSWORD_MAX)
		return PASSWORD_TOO_LONG;
	if (is_common(pw))
		return PASSWORD_COMMON;
	return PASSWORD_OK;
}

/* Argon2id of pw at the given parameters into hash: 0, or -1 (reported). */
static int
argon2id(const char *pw, unsigned long m, unsigned long t, unsigned long p,
         const unsigned char *salt, size_t salt_len, unsigned char *hash, size_t hash_len)
{
	int rc = argon2id_hash_raw((uint32_t)t, (uint32_t)m, (uint32_t)p, pw, strlen(pw),
	    salt, salt_len, hash, hash_len);

	if (rc != ARGON2_OK) {
		log_error("argon2id: %s", argon2_error_message(rc));
		return -1;
	}
	return 0;
}

enum password_err
password_hash(const char *pw, char out[PASSWORD_PHC_MAX])
{
	unsigned char salt[PASSWORD_SALT_LEN], hash[PASSWORD_HASH_LEN];
	char salt64[B64_LEN(PASSWORD_SALT_LEN) + 1], hash64[B64_LEN(PASSWORD_HASH_LEN) + 1];
	enum password_err err = PASSWORD_FAILED;
	int n;

	out[0] = '\0';
	if (pw == NULL)
		return PASSWORD_FAILED;
	if (RAND_bytes(salt, (int)sizeof(salt)) != 1) {
		log_error("password_hash: no randomness for the salt");
		return PASSWORD_FAILED;
	}
	if (argon2id(pw, PASSWORD_M_KIB, PASSWORD_T, PASSWORD_P, salt, sizeof(salt),
	    hash, sizeof(hash)) != 0)
		goto out;
	b64_encode(B64_STD, salt, sizeof(salt), salt64);
	b64_encode(B64_STD, hash, sizeof(hash), hash64);
	n = snprintf(out, PASSWORD_PHC_MAX, "$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s",
	    ARGON2_VERSION_13, PASSWORD_M_KIB, PASSWORD_T, PASSWORD_P, salt64, hash64);
	if (n < 0 || n >= PASSWORD_PHC_MAX) {
		out[0] = '\0';
		goto out;
	}
	err = PASSWORD_OK;
out:
	OPENSSL_cleanse(hash, sizeof(hash));
	return err;
}

/* The decimal at *s (no sign, no leading zero, at most max) into *v,
 * *s moved past it: 0, or -1. */
static int
parse_num(const char **s, unsigned long max, unsigned long *v)
{
	const char *p = *s;
	unsigned long n = 0;

	if (*p < '1' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		n = n * 10 + (unsigned long)(*p - '0');
		if (n > max)
			return -1;
	}
	*v = n;
	*s = p;
	return 0;
}

/* Whether s starts with lit; if so, *s moved past it. */
static int
skip(const char **s, const char *lit)
{
	size_t n = strlen(lit);

	if (strncmp(*s, lit, n) != 0)
		return 0;
	*s += n;
	return 1;
}

/* Parse the PHC string s into *ph: 0, or -1 when it is not an Argon2id
 * string within the bounds above, written as password_hash writes. */
static int
phc_parse(const char *s, struct phc *ph)
{
	const char *salt, *hash;
	long n;

	if (strlen(s) >= PASSWORD_PHC_MAX || !skip(&s, "$argon2id$v=19$m=") ||
	    parse_num(&s, M_KIB_MAX, &ph->m) != 0 || !skip(&s, ",t=") ||
	    parse_num(&s, T_MAX, &ph->t) != 0 || !skip(&s, ",p=") ||
	    parse_num(&s, P_MAX, &ph->p) != 0 || !skip(&s, "$"))
		return -1;
	if (ph->m < 8 * ph->p)
		return -1;	/* Argon2's least memory: 8 KiB per lane */
	salt = s;
	if ((hash = strchr(salt, '$')) == NULL)
		return -1;
	n = b64_decode(B64_STD, salt, (size_t)(hash - salt), ph->salt, sizeof(ph->salt));
	if (n < SALT_MIN)
		return -1;
	ph->salt_len = (size_t)n;
	hash++;
	n = b64_decode(B64_STD, hash, strlen(hash), ph->hash, sizeof(ph->hash));
	if (n < HASH_MIN)
		return -1;
	ph->hash_len = (size_t)n;
	return 0;
}

enum password_err
password_verify(const char *phc, const char *pw)
{
	static const unsigned char dummy_salt[PASSWORD_SALT_LEN];
	unsigned char got[HASH_MAX];
	enum password_err err = PASSWORD_FAILED;
	struct phc ph;

	if (pw == NULL)
		return PASSWORD_MISMATCH;
	if (phc == NULL) {
		if (argon2id(pw, PASSWORD_M_KIB, PASSWORD_T, PASSWORD_P, dummy_salt,
		    sizeof(dummy_salt), got, PASSWORD_HASH_LEN) != 0)
			return PASSWORD_FAILED;
		OPENSSL_cleanse(got, sizeof(got));
		return PASSWORD_MISMATCH;
	}
	if (phc_parse(phc, &ph) != 0)
		return PASSWORD_MALFORMED;
	if (argon2id(pw, ph.m, ph.t, ph.p, ph.salt, ph.salt_len, got, ph.hash_len) != 0)
		goto out;
	err = CRYPTO_memcmp(got, ph.hash, ph.hash_len) == 0 ? PASSWORD_OK : PASSWORD_MISMATCH;
out:
	OPENSSL_cleanse(got, sizeof(got));
	return err;
}

int
password_needs_rehash(const char *phc)
{
	struct phc ph;

	if (phc == NULL || phc_parse(phc, &ph) != 0)
		return 1;
	return ph.m < PASSWORD_M_KIB || ph.t < PASSWORD_T || ph.p < PASSWORD_P ||
	    ph.salt_len < PASSWORD_SALT_LEN || ph.hash_len < PASSWORD_HASH_LEN;
}
