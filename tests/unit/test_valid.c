/* test_valid.c: the declared-input walker, UTF-8 counting and body parsing. */
#include <string.h>

#include "base/nitems.h"
#include "input/valid.h"
#include "unit.h"

static const char *const colours[] = { "red", "green", NULL };

static const struct vfield fields[] = {
	{ "name",   V_STRING,      1, 1, 5, 0, 0, NULL },
	{ "colour", V_STRING,      0, 1, 0, 0, 0, colours },
	{ "n",      V_INTEGER,     0, 0, 0, 0, 10, NULL },
	{ "x",      V_NUMBER,      0, 0, 0, -1, 1, NULL },
	{ "flag",   V_BOOL,        0, 0, 0, 0, 0, NULL },
	{ "map",    V_OBJECT,      0, 0, 2, 0, 0, NULL },
	{ "list",   V_ARRAY,       0, 1, 2, 0, 0, NULL },
	{ "guess",  V_STRING_NULL, 0, 0, 3, 0, 0, NULL },
};

/* The message for body, or "" when it passes. */
static const char *
check(const char *body)
{
	static char err[256];
	cJSON *o = cJSON_Parse(body);

	err[0] = '\0';
	if (valid_object(o, fields, nitems(fields), "", err, sizeof(err)) == 0)
		err[0] = '\0';
	cJSON_Delete(o);
	return err;
}

static int
parses(const char *body)
{
	cJSON *o = valid_parse_body(body, strlen(body));
	int ok = o != NULL;

	cJSON_Delete(o);
	return ok;
}

int
main(void)
{
	CHECK(valid_utf8_chars("") == 0, "empty: 0 characters");
	CHECK(valid_utf8_chars("abc") == 3, "ASCII");
	CHECK(valid_utf8_chars("\xc3\xa9t\xc3\xa9") == 3, "two-byte characters count once");
	CHECK(valid_utf8_chars("\xe2\x82\xac") == 1, "three-byte character");
	CHECK(valid_utf8_chars("\xf0\x9f\x98\x80") == 1, "four-byte character");
	CHECK(valid_utf8_chars("\xc3") == -1, "truncated sequence");
	CHECK(valid_utf8_chars("\xc0\xaf") == -1, "overlong two-byte form");
	CHECK(valid_utf8_chars("\xe0\x80\xaf") == -1, "overlong three-byte form");
	CHECK(valid_utf8_chars("\xed\xa0\x80") == -1, "UTF-16 surrogate");
	CHECK(valid_utf8_chars("\xf4\x90\x80\x80") == -1, "beyond U+10FFFF");
	CHECK(valid_utf8_chars("\xff") == -1, "0xFF byte");
	CHECK(valid_utf8_chars("a\x80") == -1, "lone continuation byte");

	CHECK_STR(check("{\"name\":\"ab\"}"), "", "minimal valid object");
	CHECK_STR(check("{}"), "name is required", "required field missing");
	CHECK_STR(check("{\"name\":null}"), "name is required", "null required field");
	CHECK_STR(check("{\"name\":1}"), "name must be a string", "wrong type is not coerced");
	CHECK_STR(check("{\"name\":\"\"}"), "name must not be empty", "minimum length");
	CHECK_STR(check("{\"name\":\"abcde\"}"), "", "at the maximum");
	CHECK_STR(check("{\"name\":\"abcdef\"}"), "name must be at most 5 characters", "over the maximum");
	CHECK_STR(check("{\"name\":\"\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\"}"), "", "five two-byte characters fit 5");
	CHECK_STR(check("{\"name\":\"a\\tb\"}"), "", "tab allowed");
	CHECK_STR(check("{\"name\":\"a\\u0001b\"}"), "name must not contain control characters", "control character");
	CHECK_STR(check("{\"name\":\"a\\u007fb\"}"), "name must not contain control characters", "DEL");
	/* Issue 10, defect 5: C1 controls, raw or escaped, under the one rule. */
	CHECK_STR(check("{\"name\":\"a\xc2\x85" "b\"}"), "name must not contain control characters", "C1 control U+0085 (NEL)");
	CHECK_STR(check("{\"name\":\"a\\u0080\"}"), "name must not contain control characters", "C1 control U+0080, escaped");
	CHECK_STR(check("{\"name\":\"a\\u009f\"}"), "name must not contain control characters", "C1 control U+009F, escaped");
	CHECK_STR(check("{\"name\":\"a\xc2\xa0" "b\"}"), "", "U+00A0 (no-break space) is text");
	CHECK(valid_text_chars("a\xc2\x85", VALID_TEXT_SPACE) == VALID_TEXT_CONTROL, "valid_text_chars: C1 is a control");
	CHECK(valid_text_chars("a\tb", VALID_TEXT_SPACE) == 3, "valid_text_chars: tab is text with VALID_TEXT_SPACE");
	CHECK(valid_text_chars("a\tb", 0) == VALID_TEXT_CONTROL, "valid_text_chars: tab is a control without it");
	CHECK(valid_text_chars("\xc0\xaf", 0) == VALID_TEXT_UTF8, "valid_text_chars: overlong form");
	CHECK(valid_site_key("Ab_9-") && !valid_site_key("") && !valid_site_key("a b"), "valid_site_key");
	{
		int free_tier = -1;
		int64_t cap = 0;
		char t[32];

		CHECK(valid_tier("paid", &free_tier) && free_tier == 0 && !valid_tier("Free", &free_tier), "valid_tier");
		CHECK(valid_mau_cap("none", &cap) && cap == -1 && valid_mau_cap("1000000000", &cap) &&
		    !valid_mau_cap("1000000001", &cap) && !valid_mau_cap("-1", &cap) && !valid_mau_cap("1e3", &cap),
		    "valid_mau_cap");
		CHECK(valid_utc_time("2024-02-29", t) && strcmp(t, "2024-02-29T00:00:00.000Z") == 0 &&
		    !valid_utc_time("2023-02-29", t) && valid_utc_time("2026-11-22T10:00:00.5Z", t) &&
		    strcmp(t, "2026-11-22T10:00:00.500Z") == 0 && !valid_utc_time("2026-11-22T10:00:00", t),
		    "valid_utc_time");
		CHECK(valid_site_name("Caf\xc3\xa9") && !valid_site_name("") && !valid_site_name("a\tb") &&
		    !valid_site_name("a\xc2\x9f"), "valid_site_name: the one rule, C1 included");
	}
	CHECK_STR(check("{\"name\":\"ab\",\"colour\":\"blue\"}"), "colour must be one of: red, green", "not one of the values");
	CHECK_STR(check("{\"name\":\"ab\",\"colour\":\"green\"}"), "", "one of the values");
	CHECK_STR(check("{\"name\":\"ab\",\"colour\":null}"), "", "optional null is absent");
	CHECK_STR(check("{\"name\":\"ab\",\"n\":10}"), "", "integer at the top of the range");
	CHECK_STR(check("{\"name\":\"ab\",\"n\":11}"), "n must be an integer from 0 to 10", "integer over the range");
	CHECK_STR(check("{\"name\":\"ab\",\"n\":2.5}"), "n must be an integer from 0 to 10", "fraction is not an integer");
	CHECK_STR(check("{\"name\":\"ab\",\"n\":\"2\"}"), "n must be an integer from 0 to 10", "string is not a number");
	CHECK_STR(check("{\"name\":\"ab\",\"n\":1e999}"), "n must be an integer from 0 to 10", "infinity refused");
	CHECK_STR(check("{\"name\":\"ab\",\"x\":-0.5}"), "", "number in range");
	CHECK_STR(check("{\"name\":\"ab\",\"x\":-1.5}"), "x must be a number from -1 to 1", "number under the range");
	CHECK_STR(check("{\"name\":\"ab\",\"flag\":0}"), "flag must be a boolean", "0 is not a boolean");
	CHECK_STR(check("{\"name\":\"ab\",\"map\":{\"a\":1,\"b\":2}}"), "", "object at its entry limit");
	CHECK_STR(check("{\"name\":\"ab\",\"map\":{\"a\":1,\"b\":2,\"c\":3}}"), "map must have at most 2 entries", "object over its limit");
	CHECK_STR(check("{\"name\":\"ab\",\"map\":{\"a\":1,\"a\":2}}"), "map has a duplicate key: a", "duplicate key inside an object");
	CHECK_STR(check("{\"name\":\"ab\",\"map\":[]}"), "map must be an object", "array is not an object");
	CHECK_STR(check("{\"name\":\"ab\",\"list\":[]}"), "list must have at least 1 entry", "array under its minimum");
	CHECK_STR(check("{\"name\":\"ab\",\"list\":[1,2,3]}"), "list must have at most 2 entries", "array over its limit");
	CHECK_STR(check("{\"name\":\"ab\",\"guess\":null}"), "", "string-or-null accepts null");
	CHECK_STR(check("{\"name\":\"ab\",\"guess\":\"abcd\"}"), "guess must be at most 3 characters", "string-or-null string checked");
	CHECK_STR(check("{\"name\":\"ab\",\"name\":\"cd\"}"), "name is given twice", "duplicate member");
	CHECK_STR(check("{\"name\":\"ab\",\"other\":[1,{}]}"), "", "undeclared members ignored");
	CHECK_STR(check("[1]"), "body must be an object", "not an object");

	CHECK(parses("{}"), "empty object parses");
	CHECK(parses("  {\"a\":1}  \n"), "white space around the value");
	CHECK(!parses(""), "empty body");
	CHECK(!parses("[]"), "array is not an object");
	CHECK(!parses("{} {}"), "two values");
	CHECK(!parses("{\"a\":1} x"), "trailing garbage");
	CHECK(!parses("{\"a\":\"\\u0000\"}"), "escaped NUL");
	CHECK(parses("{\"a\":\"\\\\u0000\"}"), "an escaped backslash before u0000 is text");
	{
		static const char nul[] = "{\"a\":\"b\"}\0";
		cJSON *o = valid_parse_body(nul, sizeof(nul) - 1);
		CHECK(o == NULL, "NUL byte inside the body length");
		cJSON_Delete(o);
	}
	CHECK(!parses("{\"a\":"), "truncated");
	UNIT_DONE();
}
