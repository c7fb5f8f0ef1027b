/* test_totp.c: HOTP and TOTP against the RFCs' vectors, replay refusal, base32 and the otpauth URI (totp.c). */
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "admin/totp.h"

/* The RFCs' 20-byte ASCII secret (RFC 4226 D, RFC 6238 B for SHA-1). */
static const unsigned char rfc_key[TOTP_SECRET_LEN] = "12345678901234567890";

static const char *
hotp(uint64_t counter, int digits)
{
	static char out[9];

	if (totp_hotp(rfc_key, sizeof(rfc_key), counter, digits, out) != 0)
		return "(failed)";
	return out;
}

static void
test_hotp(void)
{
	/* RFC 4226 Appendix D. */
	static const char *const want[] = {
		"755224", "287082", "359152", "969429", "338314",
		"254676", "287922", "162583", "399871", "520489",
	};
	char what[64];
	char out[9];
	uint64_t i;

	for (i = 0; i < 10; i++) {
		snprintf(what, sizeof(what), "RFC 4226 D: HOTP count %d", (int)i);
		CHECK_STR(hotp(i, 6), want[i], what);
	}
	CHECK(totp_hotp(rfc_key, sizeof(rfc_key), 0, 5, out) == -1 && out[0] == '\0', "5 digits refused");
	CHECK(totp_hotp(rfc_key, sizeof(rfc_key), 0, 9, out) == -1, "9 digits refused");
}

static void
test_totp_vectors(void)
{
	/* RFC 6238 Appendix B, SHA-1, 8 digits: T is floor(time / 30). */
	static const struct {
		long long time;
		const char *code;
	} v[] = {
		{ 59LL, "94287082" },
		{ 1111111109LL, "07081804" },
		{ 1111111111LL, "14050471" },
		{ 1234567890LL, "89005924" },
		{ 2000000000LL, "69279037" },
		{ 20000000000LL, "65353130" },
	};
	char what[64];
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		snprintf(what, sizeof(what), "RFC 6238 B: SHA-1 at %lld", v[i].time);
		CHECK_STR(hotp((uint64_t)totp_step((time_t)v[i].time), 8), v[i].code, what);
	}
	CHECK(totp_step(59) == 1 && totp_step(60) == 2 && totp_step(0) == 0, "steps of 30 s from the epoch");
	CHECK(totp_step(-1) == -1, "no step before 1970");
}

/* The 6-digit code of the RFC key at time t. */
static const char *
code_at(long long t)
{
	return hotp((uint64_t)totp_step((time_t)t), 6);
}

static void
test_verify(void)
{
	const time_t now = 1111111111;	/* step 37037037 */
	const int64_t s = 37037037;
	int64_t got = -7;
	char c[9];

	CHECK(totp_step(now) == s, "the step of the test time");
	strcpy(c, code_at(now));
	CHECK(totp_verify(rfc_key, c, now, -1, &got) == TOTP_OK && got == s, "the current code: accepted, its step returned");
	got = -7;
	CHECK(totp_verify(rfc_key, c, now, s, &got) == TOTP_REPLAYED && got == -7, "the same code again: replay");
	CHECK(totp_verify(rfc_key, c, now, s + 1, &got) == TOTP_REPLAYED, "after a later step: replay");
	CHECK(totp_verify(rfc_key, c, now, s - 1, &got) == TOTP_OK && got == s, "after the step before: accepted");

	strcpy(c, code_at(now - 30));
	CHECK(totp_verify(rfc_key, c, now, -1, &got) == TOTP_OK && got == s - 1, "one step behind: accepted");
	CHECK(totp_verify(rfc_key, c, now, s, &got) == TOTP_REPLAYED, "one step behind, after the current: replay");
	strcpy(c, code_at(now + 30));
	CHECK(totp_verify(rfc_key, c, now, -1, &got) == TOTP_OK && got == s + 1, "one step ahead: accepted");
	CHECK(totp_verify(rfc_key, c, now, s, &got) == TOTP_OK && got == s + 1,
	    "one step ahead, after the current: accepted");
	CHECK(totp_verify(rfc_key, c, now, s + 1, &got) == TOTP_REPLAYED, "one step ahead, used: replay");
	strcpy(c, code_at(now - 60));
	CHECK(totp_verify(rfc_key, c, now, -1, &got) == TOTP_WRONG, "two steps behind: wrong");
	strcpy(c, code_at(now + 60));
	CHECK(totp_verify(rfc_key, c, now, -1, &got) == TOTP_WRONG, "two steps ahead: wrong");

	strcpy(c, code_at(now));
	c[5] = c[5] == '9' ? '0' : (char)(c[5] + 1);
	CHECK(totp_verify(rfc_key, c, now, -1, &got) == TOTP_WRONG, "last digit changed: wrong");
	CHECK(totp_verify(rfc_key, NULL, now, -1, &got) == TOTP_WRONG, "no code: wrong");
	CHECK(totp_verify(rfc_key, "", now, -1, &got) == TOTP_WRONG, "empty code: wrong");
	strcpy(c, code_at(now));
	c[5] = '\0';
	CHECK(totp_verify(rfc_key, c, now, -1, &got) == TOTP_WRONG, "five digits: wrong");
	strcpy(c, code_at(now));
	strcat(c, "0");
	CHECK(totp_verify(rfc_key, c, now, -1, &got) == TOTP_WRONG, "seven digits: wrong");
	strcpy(c, " ");
	strcat(c, code_at(now));
	CHECK(totp_verify(rfc_key, c, now, -1, &got) == TOTP_WRONG, "a leading space: wrong");
	CHECK(totp_verify(rfc_key, "12345a", now, -1, &got) == TOTP_WRONG, "a letter: wrong");
	CHECK(totp_verify(rfc_key, "+12345", now, -1, &got) == TOTP_WRONG, "a sign: wrong");
	CHECK(totp_verify(rfc_key, code_at(59), -1, -1, &got) == TOTP_WRONG, "a time before 1970: wrong");
}

static const char *
b32(const char *s)
{
	static char out[64];

	totp_base32_encode((const unsigned char *)s, strlen(s), out);
	return out;
}

/* Decode in and compare with want ("(refused)" when it must be refused). */
static const char *
unb32(const char *in)
{
	static char out[64];
	long n = totp_base32_decode(in, (unsigned char *)out, sizeof(out) - 1);

	if (n < 0)
		return "(refused)";
	out[n] = '\0';
	return out;
}

static void
test_base32(void)
{
	/* RFC 4648 10. */
	static const char *const v[][2] = {
		{ "", "" }, { "f", "MY======" }, { "fo", "MZXQ====" }, { "foo", "MZXW6===" },
		{ "foob", "MZXW6YQ=" }, { "fooba", "MZXW6YTB" }, { "foobar", "MZXW6YTBOI======" },
	};
	unsigned char k[TOTP_SECRET_LEN], back[TOTP_SECRET_LEN];
	char text[TOTP_B32_LEN(TOTP_SECRET_LEN) + 1], what[64];
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		snprintf(what, sizeof(what), "RFC 4648 10: BASE32(\"%s\")", v[i][0]);
		CHECK_STR(b32(v[i][0]), v[i][1], what);
		snprintf(what, sizeof(what), "decode %s", v[i][1]);
		CHECK_STR(unb32(v[i][1]), v[i][0], what);
	}
	CHECK_STR(b32("12345678901234567890"), "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", "the RFC key, 32 characters");
	CHECK_STR(unb32("MZXW6YTBOI"), "foobar", "unpadded accepted");
	CHECK_STR(unb32("mzxw6ytboi======"), "(refused)", "lower case refused");
	CHECK_STR(unb32("MZXW6YTBOI===="), "(refused)", "short padding refused");
	CHECK_STR(unb32("MZXW6YTBO"), "(refused)", "impossible length refused");
	CHECK_STR(unb32("MZXW6YTBOJ======"), "(refused)", "non-zero unused bits refused");
	CHECK_STR(unb32("MZ=W6YTB"), "(refused)", "padding inside refused");
	CHECK_STR(unb32("MZXW1YTB"), "(refused)", "digit 1 refused");
	CHECK_STR(unb32("MZXW6YTB========"), "(refused)", "a whole group of padding refused");
	CHECK(totp_secret_new(k) == 0, "a new secret");
	CHECK(totp_base32_encode(k, sizeof(k), text) == 32 && strchr(text, '=') == NULL, "20 bytes: 32 characters, no padding");
	CHECK(totp_base32_decode(text, back, sizeof(back)) == TOTP_SECRET_LEN && memcmp(k, back, sizeof(k)) == 0,
	    "round trip of the secret");
	CHECK(totp_base32_decode(text, back, sizeof(back) - 1) == -1, "too small a buffer refused");
}

static void
test_uri(void)
{
	char out[TOTP_URI_MAX];

	CHECK(totp_uri("Consent", "alice", rfc_key, out, sizeof(out)) == 0, "URI written");
	CHECK_STR(out, "otpauth://totp/Consent:alice?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
	    "&issuer=Consent&algorithm=SHA1&digits=6&period=30", "the key URI");
	CHECK(totp_uri("Consent banner (example.com)", "ops@example.com", rfc_key, out, sizeof(out)) == 0,
	    "URI with spaces and @");
	CHECK_STR(out, "otpauth://totp/Consent%20banner%20%28example.com%29:ops%40example.com"
	    "?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Consent%20banner%20%28example.com%29"
	    "&algorithm=SHA1&digits=6&period=30", "label and issuer percent-encoded");
	CHECK(totp_uri("a:b&c=d?e/f#g", "x%y", rfc_key, out, sizeof(out)) == 0 &&
	    strstr(out, "/a%3Ab%26c%3Dd%3Fe%2Ff%23g:x%25y?") != NULL &&
	    strstr(out, "&issuer=a%3Ab%26c%3Dd%3Fe%2Ff%23g&") != NULL, "reserved characters cannot break the URI");
	CHECK(totp_uri("\xc3\xa9t\xc3\xa9", "bob", rfc_key, out, sizeof(out)) == 0 &&
	    strstr(out, "/%C3%A9t%C3%A9:bob?") != NULL, "UTF-8 issuer as its bytes");
	CHECK(totp_uri("Consent", "alice", rfc_key, out, 100) == -1 && out[0] == '\0', "too small: refused, empty");
	CHECK(totp_uri("", "alice", rfc_key, out, sizeof(out)) == -1, "empty issuer refused");
	CHECK(totp_uri("Consent", NULL, rfc_key, out, sizeof(out)) == -1, "no account refused");
}

int
main(void)
{
	test_hotp();
	test_totp_vectors();
	test_verify();
	test_base32();
	test_uri();
	UNIT_DONE();
}
