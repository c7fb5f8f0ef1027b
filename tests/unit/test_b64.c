/* test_b64.c: unpadded base64 in both alphabets, decoded strictly (b64.c, RFC 4648). */
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "admin/b64.h"

static const char *
enc(enum b64_alphabet a, const char *bytes, size_t len)
{
	static char out[64];

	b64_encode(a, (const unsigned char *)bytes, len, out);
	return out;
}

/* The decoded text, or "(refused)". */
static const char *
dec(enum b64_alphabet a, const char *in, size_t cap)
{
	static char out[64];
	long n = b64_decode(a, in, strlen(in), (unsigned char *)out, cap);

	if (n < 0)
		return "(refused)";
	out[n] = '\0';
	return out;
}

int
main(void)
{
	/* RFC 4648 10, without the padding. */
	static const char *const v[][2] = {
		{ "", "" }, { "f", "Zg" }, { "fo", "Zm8" }, { "foo", "Zm9v" },
		{ "foob", "Zm9vYg" }, { "fooba", "Zm9vYmE" }, { "foobar", "Zm9vYmFy" },
	};
	char what[64];
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		snprintf(what, sizeof(what), "RFC 4648 10: BASE64(\"%s\") unpadded", v[i][0]);
		CHECK_STR(enc(B64_STD, v[i][0], strlen(v[i][0])), v[i][1], what);
		snprintf(what, sizeof(what), "decode %s", v[i][1]);
		CHECK_STR(dec(B64_STD, v[i][1], 63), v[i][0], what);
	}
	CHECK(B64_LEN(16) == 22 && B64_LEN(32) == 43 && B64_LEN(3) == 4 && B64_LEN(0) == 0, "B64_LEN");
	CHECK_STR(enc(B64_STD, "\xfb\xff", 2), "+/8", "standard alphabet: + and /");
	CHECK_STR(enc(B64_URL, "\xfb\xff", 2), "-_8", "URL alphabet: - and _");
	CHECK_STR(dec(B64_URL, "-_8", 63), "\xfb\xff", "URL decode");
	CHECK_STR(dec(B64_STD, "-_8", 63), "(refused)", "- and _ are not standard base64");
	CHECK_STR(dec(B64_URL, "+/8", 63), "(refused)", "+ and / are not base64url");
	CHECK_STR(dec(B64_STD, "Zg==", 63), "(refused)", "padding refused");
	CHECK_STR(dec(B64_STD, "Zm9vY", 63), "(refused)", "a length of 1 mod 4 refused");
	CHECK_STR(dec(B64_STD, "Zh", 63), "(refused)", "unused bits set: refused (one text per value)");
	CHECK_STR(dec(B64_STD, "Zm9", 63), "(refused)", "Zm9: unused bits set");
	CHECK_STR(dec(B64_STD, "Zm 9v", 63), "(refused)", "a space refused");
	CHECK_STR(dec(B64_STD, "Zm9v\n", 63), "(refused)", "a newline refused");
	CHECK_STR(dec(B64_STD, "Zm9vYmFy", 5), "(refused)", "too small a buffer: refused");
	CHECK_STR(dec(B64_STD, "Zm9vYmFy", 6), "foobar", "an exact buffer is enough");
	UNIT_DONE();
}
