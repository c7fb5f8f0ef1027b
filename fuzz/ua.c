/* ua.c: ua_parse() over a fuzzed User-Agent (CONTRACT 7): never a read
 * past the NUL, always one of the contract's names.
 *
 * Input: the User-Agent header, all of it (cut at a NUL byte, as getenv
 * would; an empty input is the absent header).
 */
#include "fuzz.h"
#include "input/ua.h"

static const char *const browsers[] = {
	"Chrome", "Firefox", "Safari", "Edge", "Opera", "Samsung Internet", "IE", "Other", NULL
};
static const char *const systems[] = {
	"Windows", "macOS", "iOS", "iPadOS", "Android", "Linux", "ChromeOS", "Other", NULL
};
static const char *const devices[] = { "desktop", "mobile", "tablet", NULL };

static int
one_of(const char *s, const char *const *set)
{
	for (; *set != NULL; set++)
		if (strcmp(s, *set) == 0)
			return 1;
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *ua = fuzz_strndup(data, size);
	struct ua_info info;

	ua_parse(size > 0 ? ua : NULL, &info);
	FUZZ_CHECK(info.device != NULL && one_of(info.device, devices));
	if (ua[0] == '\0') {
		FUZZ_CHECK(info.browser == NULL && info.os == NULL);
	} else {
		FUZZ_CHECK(info.browser != NULL && one_of(info.browser, browsers));
		FUZZ_CHECK(info.os != NULL && one_of(info.os, systems));
	}
	free(ua);
	return 0;
}
