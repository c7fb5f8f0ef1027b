/* query.c: http_query_param() over a fuzzed QUERY_STRING (CONTRACT 7).
 *
 * Input: line 1 the query string, line 2 (optional) one more parameter name
 * to look up besides the ones the endpoints use.  Every look-up is made with
 * output buffers of several sizes, each allocated to exactly that size.
 */
#include "fuzz.h"
#include "http/http.h"
#include "base/limits.h"
#include "base/nitems.h"

static const char *const names[] = { "site_key", "region", "lang", "sync_id", "" };
static const size_t sizes[] = {
	1, 2, 37, 64, SITE_KEY_MAX + 1, TOKEN_MAX + 1, LANG_TAG_MAX + 1, QUERY_MAX + 1
};


static void
lookup(const char *q, const char *name)
{
	for (size_t i = 0; i < nitems(sizes); i++) {
		char *out = malloc(sizes[i]);
		enum http_param rc;

		if (out == NULL)
			abort();
		memset(out, 'X', sizes[i]);
		rc = http_query_param(q, name, out, sizes[i]);
		FUZZ_CHECK(rc == HTTP_PARAM_FOUND || rc == HTTP_PARAM_ABSENT || rc == HTTP_PARAM_BAD);
		if (rc == HTTP_PARAM_FOUND) {
			/* written, terminated, no control byte (http.h) */
			size_t n = strnlen(out, sizes[i]);
			FUZZ_CHECK(n < sizes[i]);
			for (size_t k = 0; k < n; k++)
				FUZZ_CHECK((unsigned char)out[k] >= 0x20 && out[k] != 0x7f);
		}
		free(out);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_lines l;

	fuzz_split(data, size, 2, &l);
	if (l.s[0] != NULL) {
		for (size_t i = 0; i < nitems(names); i++)
			lookup(l.s[0], names[i]);
		if (l.s[1] != NULL)
			lookup(l.s[0], l.s[1]);
	}
	fuzz_lines_free(&l);
	return 0;
}
