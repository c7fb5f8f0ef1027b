/* geo.c: the country and subdivision headers a client (or an edge in
 * front) sends, through geo_detect (CONTRACT 6) with the default list of
 * trusted headers and no MaxMind database.
 *
 * Input: one line per CGI variable, in this order ("~" or missing: unset):
 * HTTP_CF_IPCOUNTRY, HTTP_CF_REGION_CODE, HTTP_CLOUDFRONT_VIEWER_COUNTRY,
 * HTTP_CLOUDFRONT_VIEWER_COUNTRY_REGION, HTTP_X_VERCEL_IP_COUNTRY,
 * HTTP_X_VERCEL_IP_COUNTRY_REGION, HTTP_X_COUNTRY_CODE, GEOIP_COUNTRY_CODE.
 */
#include "fuzz.h"
#include "input/geo.h"

static const char *const vars[FUZZ_LINES_MAX] = {
	"HTTP_CF_IPCOUNTRY", "HTTP_CF_REGION_CODE",
	"HTTP_CLOUDFRONT_VIEWER_COUNTRY", "HTTP_CLOUDFRONT_VIEWER_COUNTRY_REGION",
	"HTTP_X_VERCEL_IP_COUNTRY", "HTTP_X_VERCEL_IP_COUNTRY_REGION",
	"HTTP_X_COUNTRY_CODE", "GEOIP_COUNTRY_CODE",
};

static int
upper_alnum(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_lines l;
	struct geo g;
	size_t i, n;

	unsetenv("CONSENT_COUNTRY_HEADER");
	unsetenv("CONSENT_GEOIP_DB");
	unsetenv("MM_COUNTRY_CODE");
	fuzz_split(data, size, FUZZ_LINES_MAX, &l);
	for (i = 0; i < FUZZ_LINES_MAX; i++) {
		if (l.s[i] != NULL)
			setenv(vars[i], l.s[i], 1);
		else
			unsetenv(vars[i]);
	}
	memset(&g, 0x5a, sizeof(g));
	geo_detect(&g);
	n = strnlen(g.country, sizeof(g.country));
	FUZZ_CHECK(n == 0 || (n == 2 && g.country[0] >= 'A' && g.country[0] <= 'Z' &&
	    g.country[1] >= 'A' && g.country[1] <= 'Z' &&
	    !(g.country[0] == 'X' && g.country[1] == 'X')));
	n = strnlen(g.subdivision, sizeof(g.subdivision));
	FUZZ_CHECK(n <= 3 && (n == 0 || g.country[0] != '\0'));
	for (i = 0; i < n; i++)
		FUZZ_CHECK(upper_alnum(g.subdivision[i]));
	for (i = 0; i < FUZZ_LINES_MAX; i++)
		unsetenv(vars[i]);
	fuzz_lines_free(&l);
	return 0;
}
