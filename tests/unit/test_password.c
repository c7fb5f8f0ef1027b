/* test_password.c: the password policy's refusals and Argon2id PHC strings (password.c, ADMIN.md 2). */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <argon2.h>

#include "unit.h"
#include "admin/password.h"
#include "admin/password_list.h"

/* n copies of the UTF-8 character ch, in buf. */
static const char *
rep(char *buf, const char *ch, int n)
{
	int i;

	buf[0] = '\0';
	for (i = 0; i < n; i++)
		strcat(buf, ch);
	return buf;
}

static void
test_lengths(void)
{
	static char b[1024];

	CHECK(password_check(rep(b, "x", 11)) == PASSWORD_TOO_SHORT, "11 ASCII characters: too short");
	CHECK(password_check(rep(b, "x", 12)) == PASSWORD_OK, "12 ASCII characters: accepted");
	CHECK(password_check(rep(b, "x", 128)) == PASSWORD_OK, "128 ASCII characters: accepted");
	CHECK(password_check(rep(b, "x", 129)) == PASSWORD_TOO_LONG, "129 ASCII characters: too long");
	CHECK(password_check("") == PASSWORD_TOO_SHORT, "empty: too short");
	/* Code points, not bytes. */
	CHECK(password_check(rep(b, "\xc3\xa9", 11)) == PASSWORD_TOO_SHORT,
	    "11 two-byte characters (22 bytes): too short");
	CHECK(password_check(rep(b, "\xc3\xa9", 12)) == PASSWORD_OK, "12 two-byte characters: accepted");
	CHECK(password_check(rep(b, "\xe2\x82\xac", 128)) == PASSWORD_OK,
	    "128 three-byte characters (384 bytes): accepted");
	CHECK(password_check(rep(b, "\xe2\x82\xac", 129)) == PASSWORD_TOO_LONG,
	    "129 three-byte characters: too long");
	CHECK(password_check(rep(b, "\xf0\x9f\x94\x91", 12)) == PASSWORD_OK, "12 four-byte characters: accepted");
	CHECK(password_check(rep(b, "\xf0\x9f\x94\x91", 11)) == PASSWORD_TOO_SHORT,
	    "11 four-byte characters (44 bytes): too short");
	CHECK(password_check("no digits no CAPS needed") == PASSWORD_OK, "no composition rules");
}

static void
test_utf8(void)
{
	CHECK(password_check(NULL) == PASSWORD_NOT_UTF8, "NULL refused");
	CHECK(password_check("abcdefghijkl\xff") == PASSWORD_NOT_UTF8, "byte 0xff refused");
	CHECK(password_check("abcdefghijkl\xc0\xaf") == PASSWORD_NOT_UTF8, "overlong '/' refused");
	CHECK(password_check("abcdefghijkl\xe0\x80\xaf") == PASSWORD_NOT_UTF8, "three-byte overlong refused");
	CHECK(password_check("abcdefghijkl\xed\xa0\x80") == PASSWORD_NOT_UTF8, "UTF-16 surrogate refused");
	CHECK(password_check("abcdefghijkl\xf4\x90\x80\x80") == PASSWORD_NOT_UTF8, "above U+10FFFF refused");
	CHECK(password_check("abcdefghijkl\xe2\x82") == PASSWORD_NOT_UTF8, "truncated sequence refused");
	CHECK(password_check("abcdefghijkl\x80") == PASSWORD_NOT_UTF8, "lone continuation byte refused");
	CHECK(password_check("abc\xe2\x82" "defghijklmn") == PASSWORD_NOT_UTF8,
	    "sequence cut by an ASCII byte refused");
	CHECK(password_check("\xc3\xa9" "abc") == PASSWORD_TOO_SHORT, "valid but short: too short, not UTF-8 error");
}

static void
test_common(void)
{
	size_t i;
	int sorted = 1, bounded = 1;

	CHECK(password_common_len >= 200, "the common list holds its 12+ character entries");
	for (i = 0; i < password_common_len; i++) {
		if (i > 0 && strcmp(password_common[i - 1], password_common[i]) >= 0)
			sorted = 0;
		if (password_check(password_common[i]) != PASSWORD_COMMON)
			bounded = 0;
	}
	CHECK(sorted, "the list is sorted and unique (binary search)");
	CHECK(bounded, "every entry is refused as common");
	CHECK(password_check("qwerty123456") == PASSWORD_COMMON, "qwerty123456 is common");
	CHECK(password_check("QwErTy123456") == PASSWORD_COMMON, "case ignored");
	CHECK(password_check("1qaz2wsx3edc") == PASSWORD_COMMON, "keyboard walk is common");
	CHECK(password_check("leavemealone") == PASSWORD_COMMON, "leavemealone is common");
	CHECK(password_check("qwerty1234567") == PASSWORD_OK, "one character more: not in the list");
	CHECK(password_check("correct horse battery staple") == PASSWORD_OK, "a passphrase is accepted");
	CHECK(password_check("qwerty") == PASSWORD_TOO_SHORT, "short and common: too short first");
}

static void
test_messages(void)
{
	CHECK_STR(password_message(PASSWORD_TOO_SHORT), "Password too short: at least 12 characters", "too short");
	CHECK_STR(password_message(PASSWORD_TOO_LONG), "Password too long: at most 128 characters", "too long");
	CHECK_STR(password_message(PASSWORD_COMMON), "Password is too common", "common");
	CHECK_STR(password_message(PASSWORD_NOT_UTF8), "Password is not valid UTF-8", "not UTF-8");
}

/* phc with the character at position i replaced by c. */
static const char *
tamper(char *buf, const char *phc, size_t i, char c)
{
	strcpy(buf, phc);
	buf[i] = c;
	return buf;
}

/* The least processor time of three password_verify(phc, pw) calls. */
static double
verify_cpu(const char *phc, const char *pw)
{
	double best = -1;
	int i;

	for (i = 0; i < 3; i++) {
		clock_t t0 = clock();
		double d;

		(void)password_verify(phc, pw);
		d = (double)(clock() - t0) / CLOCKS_PER_SEC;
		if (best < 0 || d < best)
			best = d;
	}
	return best;
}

static void
test_hash(void)
{
	const char *pw = "correct horse battery staple";
	char a[PASSWORD_PHC_MAX], b[PASSWORD_PHC_MAX], t[PASSWORD_PHC_MAX + 8];
	const char *hash;
	size_t n;

	CHECK(password_hash(pw, a) == PASSWORD_OK, "hash succeeds");
	CHECK(strncmp(a, "$argon2id$v=19$m=19456,t=2,p=1$", 31) == 0, "PHC string with the current parameters");
	CHECK(strlen(a) == 31 + 22 + 1 + 43, "16-byte salt and 32-byte hash, unpadded base64");
	CHECK(password_hash(pw, b) == PASSWORD_OK && strcmp(a, b) != 0, "a new salt every time");
	CHECK(password_verify(a, pw) == PASSWORD_OK, "the right password verifies");
	CHECK(password_verify(b, pw) == PASSWORD_OK, "so does the second hash");
	CHECK(password_verify(a, "correct horse battery stapl") == PASSWORD_MISMATCH, "a wrong password");
	CHECK(password_verify(a, "Correct horse battery staple") == PASSWORD_MISMATCH, "case matters");
	CHECK(password_verify(a, "") == PASSWORD_MISMATCH, "empty password");
	CHECK(password_verify(a, NULL) == PASSWORD_MISMATCH, "NULL password");
	CHECK(password_verify(NULL, pw) == PASSWORD_MISMATCH, "no account: mismatch after the same work");
	{
		/* ADMIN.md 2: an unknown user costs what a known one does
		 * (processor time, the work itself: a loaded machine slows both). */
		double known = verify_cpu(a, "a wrong password here"), none = verify_cpu(NULL, pw);

		CHECK(none >= known / 2 && none <= known * 2,
		    "no account costs the Argon2id work of one (within 2x)");
		if (!(none >= known / 2 && none <= known * 2))
			printf("# known %.4f s, none %.4f s\n", known, none);
	}
	CHECK(password_needs_rehash(a) == 0, "current parameters need no rehash");
	CHECK(argon2id_verify(a, pw, strlen(pw)) == ARGON2_OK, "libargon2's own verify reads the string");

	/* Tampered strings. */
	hash = strrchr(a, '$') + 1;
	n = (size_t)(hash - a);
	CHECK(password_verify(tamper(t, a, n, hash[0] == 'A' ? 'B' : 'A'), pw) == PASSWORD_MISMATCH,
	    "a changed hash does not verify");
	CHECK(password_verify(tamper(t, a, 32, a[32] == 'A' ? 'B' : 'A'), pw) == PASSWORD_MISMATCH,
	    "a changed salt does not verify");
	CHECK(password_verify(tamper(t, a, 21, '5'), pw) == PASSWORD_MISMATCH, "m=19455: other work, mismatch");
	CHECK(password_verify(tamper(t, a, 25, '3'), pw) == PASSWORD_MISMATCH, "t=3: other work, mismatch");
	CHECK(password_verify(tamper(t, a, 7, 'd'), pw) == PASSWORD_MALFORMED, "argon2id changed: malformed");
	CHECK(password_verify(tamper(t, a, 13, '6'), pw) == PASSWORD_MALFORMED, "v=16: malformed");
	CHECK(password_verify(tamper(t, a, 27, '0'), pw) == PASSWORD_MALFORMED, "p=0: malformed");
	strcpy(t, a);
	t[strlen(t) - 1] = t[strlen(t) - 1] == 'A' ? 'B' : 'A';
	CHECK(password_verify(t, pw) == PASSWORD_MISMATCH || password_verify(t, pw) == PASSWORD_MALFORMED,
	    "a changed last character never verifies");
	strcpy(t, a);
	strcat(t, "=");
	CHECK(password_verify(t, pw) == PASSWORD_MALFORMED, "padding: malformed");
	strcpy(t, a);
	strcat(t, "$x");
	CHECK(password_verify(t, pw) == PASSWORD_MALFORMED, "a sixth field: malformed");
	strcpy(t, a);
	t[strlen(t) - 30] = '\0';
	CHECK(password_verify(t, pw) == PASSWORD_MALFORMED, "a 10-byte hash: malformed");
	CHECK(password_verify("", pw) == PASSWORD_MALFORMED, "empty string: malformed");
	CHECK(password_verify("$argon2id$v=19$m=019456,t=2,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA", pw)
	    == PASSWORD_MALFORMED, "leading zero: malformed");
	CHECK(password_verify("$argon2id$v=19$m=4194304,t=2,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA", pw)
	    == PASSWORD_MALFORMED, "m of 4 GiB: refused before any allocation");
	CHECK(password_verify("$argon2id$v=19$m=19456,t=99999999999,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA", pw)
	    == PASSWORD_MALFORMED, "t out of range: malformed");
	CHECK(password_verify("$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaGhhc2hoYXNoaGFzaA", pw)
	    == PASSWORD_MALFORMED, "4-byte salt: malformed");
	CHECK(password_needs_rehash("$argon2i$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA") == 1,
	    "malformed needs a rehash");
}

/* A hash at lower parameters, written by libargon2 itself: verified, and
 * due for a rehash. */
static void
test_older(void)
{
	const char *pw = "an older password here";
	const unsigned char salt[16] = "0123456789abcdef";
	char enc[PASSWORD_PHC_MAX];

	CHECK(argon2id_hash_encoded(1, 4096, 1, pw, strlen(pw), salt, sizeof(salt), 32, enc, sizeof(enc))
	    == ARGON2_OK, "libargon2 writes a hash at m=4096, t=1");
	CHECK(password_verify(enc, pw) == PASSWORD_OK, "verified at its own parameters");
	CHECK(password_verify(enc, "an older password herE") == PASSWORD_MISMATCH, "wrong password: mismatch");
	CHECK(password_needs_rehash(enc) == 1, "m and t below the current: needs a rehash");
	CHECK(argon2id_hash_encoded(2, 8192, 1, pw, strlen(pw), salt, sizeof(salt), 32, enc, sizeof(enc))
	    == ARGON2_OK && password_needs_rehash(enc) == 1, "m alone below the current: needs a rehash");
	CHECK(argon2id_hash_encoded(1, 19456, 1, pw, strlen(pw), salt, sizeof(salt), 32, enc, sizeof(enc))
	    == ARGON2_OK && password_needs_rehash(enc) == 1, "t alone below the current: needs a rehash");
	CHECK(argon2id_hash_encoded(2, 19456, 1, pw, strlen(pw), salt, sizeof(salt), 16, enc, sizeof(enc))
	    == ARGON2_OK && password_needs_rehash(enc) == 1 && password_verify(enc, pw) == PASSWORD_OK,
	    "a 16-byte hash: verified, needs a rehash");
	CHECK(argon2id_hash_encoded(2, 19456, 1, pw, strlen(pw), salt, sizeof(salt), 32, enc, sizeof(enc))
	    == ARGON2_OK && password_needs_rehash(enc) == 0, "the current parameters: no rehash");
	CHECK(argon2id_hash_encoded(3, 65536, 1, pw, strlen(pw), salt, sizeof(salt), 32, enc, sizeof(enc))
	    == ARGON2_OK && password_needs_rehash(enc) == 0 && password_verify(enc, pw) == PASSWORD_OK,
	    "higher parameters: verified, no rehash");
	CHECK(argon2id_hash_encoded(2, 19456, 1, pw, strlen(pw), salt, 8, 32, enc, sizeof(enc))
	    == ARGON2_OK && password_needs_rehash(enc) == 1, "an 8-byte salt: needs a rehash");
	CHECK(argon2i_hash_encoded(2, 19456, 1, pw, strlen(pw), salt, sizeof(salt), 32, enc, sizeof(enc))
	    == ARGON2_OK && password_verify(enc, pw) == PASSWORD_MALFORMED, "Argon2i: not accepted");
}

int
main(void)
{
	test_lengths();
	test_utf8();
	test_common();
	test_messages();
	test_hash();
	test_older();
	UNIT_DONE();
}
