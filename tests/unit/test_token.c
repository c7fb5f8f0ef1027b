/* test_token.c: session and CSRF tokens, their hashes, recovery codes and the cookie parser (token.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "admin/token.h"

static const char url_chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

static void
test_new(void)
{
	char a[TOKEN_LEN + 1], b[TOKEN_LEN + 1], c[TOKEN_LEN + 1];
	int i, shape = 1, tail = 1;

	CHECK(token_new(a) == 0 && token_new(b) == 0, "token_new succeeds");
	CHECK(strlen(a) == 43, "43 characters: 32 bytes unpadded");
	CHECK(strcmp(a, b) != 0, "two tokens differ");
	for (i = 0; i < 1000; i++) {
		if (token_new(c) != 0 || strlen(c) != TOKEN_LEN || strspn(c, url_chars) != TOKEN_LEN)
			shape = 0;
		/* 256 bits in 43 characters: the last one holds 4 bits, then two zeros. */
		if (strchr("AEIMQUYcgkosw048", c[TOKEN_LEN - 1]) == NULL)
			tail = 0;
	}
	CHECK(shape, "1000 tokens: base64url only, no padding");
	CHECK(tail, "the last character carries the last 4 bits");
}

static void
test_hash_equal(void)
{
	char hex[65];

	CHECK(token_hash("abc", hex) == 0, "token_hash succeeds");
	CHECK_STR(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
	    "SHA-256 hex of the token's text (FIPS 180-2 abc)");
	CHECK(token_hash(NULL, hex) == -1 && hex[0] == '\0', "NULL refused");
	CHECK(token_equal("same-token", "same-token") == 1, "equal");
	CHECK(token_equal("same-token", "same-tokeN") == 0, "last character differs");
	CHECK(token_equal("Same-token", "same-token") == 0, "first character differs");
	CHECK(token_equal("same-token", "same-token-") == 0, "a prefix is not equal");
	CHECK(token_equal("", "") == 1, "two empty strings");
	CHECK(token_equal(NULL, "x") == 0 && token_equal("x", NULL) == 0 && token_equal(NULL, NULL) == 0,
	    "NULL equals nothing");
}

static void
test_recovery(void)
{
	static const char alphabet[] = "23456789abcdefghjkmnpqrstuvwxyz";
	char codes[TOKEN_RECOVERY_COUNT][TOKEN_RECOVERY_LEN + 1];
	char canon[TOKEN_RECOVERY_LEN + 1], h1[65], h2[65];
	int seen[256] = {0};
	int i, j, r, shape = 1, distinct = 1, all = 1;

	CHECK(token_recovery_new(codes) == 0, "ten codes made");
	for (i = 0; i < TOKEN_RECOVERY_COUNT; i++) {
		if (strlen(codes[i]) != 14 || codes[i][4] != '-' || codes[i][9] != '-')
			shape = 0;
		for (j = 0; j < 14; j++)
			if (j != 4 && j != 9 && strchr(alphabet, codes[i][j]) == NULL)
				shape = 0;
		for (j = 0; j < i; j++)
			if (strcmp(codes[i], codes[j]) == 0)
				distinct = 0;
		if (token_recovery_canonical(codes[i], canon) != 0 || strcmp(canon, codes[i]) != 0)
			shape = 0;
	}
	CHECK(shape, "each xxxx-xxxx-xxxx of the alphabet, already canonical");
	CHECK(distinct, "ten different codes");
	for (r = 0; r < 100; r++) {
		if (token_recovery_new(codes) != 0)
			all = 0;
		for (i = 0; i < TOKEN_RECOVERY_COUNT; i++)
			for (j = 0; j < 14; j++)
				seen[(unsigned char)codes[i][j]]++;
	}
	for (i = 0; alphabet[i] != '\0'; i++)
		if (seen[(unsigned char)alphabet[i]] < 200)
			all = 0;	/* 12000 characters: about 387 each */
	CHECK(all, "every character of the alphabet is drawn");
	CHECK(seen['0'] + seen['1'] + seen['o'] + seen['l'] + seen['i'] == 0, "no look-alikes");

	CHECK(token_recovery_canonical("ABCD-EFGH-JKMN", canon) == 0, "upper case accepted");
	CHECK_STR(canon, "abcd-efgh-jkmn", "lower-cased");
	CHECK(token_recovery_canonical("abcd efgh jkmn", canon) == 0 && strcmp(canon, "abcd-efgh-jkmn") == 0,
	    "spaces for hyphens");
	CHECK(token_recovery_canonical("abcdefghjkmn", canon) == 0 && strcmp(canon, "abcd-efgh-jkmn") == 0,
	    "no separators");
	CHECK(token_recovery_canonical(" ab-cd efghj kmn- ", canon) == 0 && strcmp(canon, "abcd-efgh-jkmn") == 0,
	    "separators anywhere");
	CHECK(token_recovery_canonical("abcd-efgh-jkm", canon) == -1 && canon[0] == '\0', "eleven characters refused");
	CHECK(token_recovery_canonical("abcd-efgh-jkmnp", canon) == -1, "thirteen characters refused");
	CHECK(token_recovery_canonical("abcd-efgh-jkm0", canon) == -1, "zero refused");
	CHECK(token_recovery_canonical("abcd-efgh-jkmo", canon) == -1, "o refused");
	CHECK(token_recovery_canonical("abcd-efgh-jkml", canon) == -1, "l refused");
	CHECK(token_recovery_canonical("abcd_efgh_jkmn", canon) == -1, "underscore refused");
	CHECK(token_recovery_canonical("abcd-efgh-jkmn\n", canon) == -1, "newline refused");
	CHECK(token_recovery_canonical("", canon) == -1 && token_recovery_canonical(NULL, canon) == -1,
	    "empty and NULL refused");
	CHECK(token_recovery_canonical("abcd-efgh-jkmn                                                   ", canon)
	    == -1, "more than 64 bytes refused");
	CHECK(token_recovery_hash("ABCD EFGH JKMN", h1) == 0 && token_hash("abcd-efgh-jkmn", h2) == 0 &&
	    strcmp(h1, h2) == 0, "hash of the canonical form, whatever was typed");
	CHECK(token_recovery_hash("abcd-efgh-jkmp", h2) == 0 && strcmp(h1, h2) != 0, "another code, another hash");
	CHECK(token_recovery_hash("abcd-efgh-jkm", h1) == -1 && h1[0] == '\0', "no hash of a malformed code");
}

/* What token_cookie_find() makes of header: the value, "(absent)" or "(malformed)". */
static const char *
cookie(const char *header)
{
	static char out[TOKEN_LEN + 1];

	switch (token_cookie_find(header, out)) {
	case TOKEN_COOKIE_FOUND:
		return out;
	case TOKEN_COOKIE_ABSENT:
		return out[0] == '\0' ? "(absent)" : "(absent, out not cleared)";
	case TOKEN_COOKIE_MALFORMED:
		return out[0] == '\0' ? "(malformed)" : "(malformed, out not cleared)";
	}
	return "(?)";
}

#define T "Zm9vYmFyYmF6cXV4LXRoaXJ0eS10d28tYnl0ZXMhISE"	/* 32 bytes, base64url */

static void
test_cookie(void)
{
	char h[TOKEN_COOKIE_HEADER_MAX + 200];

	CHECK(strlen(T) == TOKEN_LEN, "the test token has 43 characters");
	CHECK_STR(cookie("__Host-consent_admin=" T), T, "alone");
	CHECK_STR(cookie("a=b; __Host-consent_admin=" T "; c=d"), T, "among others");
	CHECK_STR(cookie("a=b;__Host-consent_admin=" T), T, "no space after the semicolon");
	CHECK_STR(cookie("__Host-consent_admin=" T " ; theme=dark"), T, "space before the semicolon");
	CHECK_STR(cookie("x=\"quoted; value\"; __Host-consent_admin=" T), T, "other cookies not parsed");
	CHECK_STR(cookie(NULL), "(absent)", "no header");
	CHECK_STR(cookie(""), "(absent)", "empty header");
	CHECK_STR(cookie("a=b; c=d"), "(absent)", "other cookies only");
	CHECK_STR(cookie("__host-consent_admin=" T), "(absent)", "name case differs");
	CHECK_STR(cookie("consent_admin=" T), "(absent)", "without the __Host- prefix");
	CHECK_STR(cookie("__Host-consent_admin2=" T), "(absent)", "a longer name");
	CHECK_STR(cookie("x__Host-consent_admin=" T), "(absent)", "a name ending in it");
	CHECK_STR(cookie("__Host-consent_admin =" T), "(absent)", "a space before =");
	CHECK_STR(cookie("__Host-consent_admin"), "(absent)", "the name without =");
	CHECK_STR(cookie("__Host-consent_admin=" T "; __Host-consent_admin=" T), "(malformed)", "twice");
	CHECK_STR(cookie("__Host-consent_admin="), "(malformed)", "empty value");
	CHECK_STR(cookie("__Host-consent_admin=Zm9vYmFyYmF6cXV4LXRoaXJ0eS10d28tYnl0ZXMhIS"), "(malformed)",
	    "42 characters");
	CHECK_STR(cookie("__Host-consent_admin=" T "Q"), "(malformed)", "44 characters");
	CHECK_STR(cookie("__Host-consent_admin=" T "="), "(malformed)", "padding");
	CHECK_STR(cookie("__Host-consent_admin=\"" T "\""), "(malformed)", "quoted");
	CHECK_STR(cookie("__Host-consent_admin=Zm9vYmFyYmF6cXV4LXRoaXJ0eS10d28tYnl0ZXMhISF"), "(malformed)",
	    "unused bits set: not a token's text");
	CHECK_STR(cookie("__Host-consent_admin=Zm9vYmFyYmF6cXV4+XRoaXJ0eS10d28tYnl0ZXMhISE"), "(malformed)",
	    "standard base64's +");
	CHECK_STR(cookie("__Host-consent_admin=Zm9vYmFyYmF6cXV4 XRoaXJ0eS10d28tYnl0ZXMhISE"), "(malformed)",
	    "a space inside");
	CHECK_STR(cookie("__Host-consent_admin=Zm9vYmFyYmF6cXV4%2DXRoaXJ0eS10d28tYnl0ZXMh"), "(malformed)",
	    "percent-encoding");
	snprintf(h, sizeof(h), "__Host-consent_admin=%s; pad=", T);
	memset(h + strlen(h), 'x', TOKEN_COOKIE_HEADER_MAX - strlen(h));
	h[TOKEN_COOKIE_HEADER_MAX] = '\0';
	CHECK_STR(cookie(h), T, "a header of 8192 bytes is read");
	strcat(h, "x");
	CHECK_STR(cookie(h), "(malformed)", "8193 bytes refused");
}

int
main(void)
{
	test_new();
	test_hash_equal();
	test_recovery();
	test_cookie();
	UNIT_DONE();
}
