/* geo.c: the country and subdivision headers a client (or an edge in
 * front) sends and the address it comes from, through geo_detect
 * (CONTRACT 6): the trusted headers (the default list, or the one
 * CONSENT_COUNTRY_HEADER names), the server's GeoIP variables, and a
 * MaxMind database looked up by REMOTE_ADDR.
 *
 * Input: one line per variable, in this order ("~" or missing: unset):
 * HTTP_CF_IPCOUNTRY, HTTP_CF_REGION_CODE, HTTP_CLOUDFRONT_VIEWER_COUNTRY,
 * HTTP_CLOUDFRONT_VIEWER_COUNTRY_REGION, HTTP_X_VERCEL_IP_COUNTRY,
 * HTTP_X_VERCEL_IP_COUNTRY_REGION, HTTP_X_COUNTRY_CODE, GEOIP_COUNTRY_CODE,
 * CONSENT_COUNTRY_HEADER, REMOTE_ADDR, then the database CONSENT_GEOIP_DB
 * names: "country" or "city" (fuzz/geo-country.mmdb, fuzz/geo-city.mmdb,
 * written by tests/fixtures/make-mmdb.pl: 192.0.2.0/24 DE, 198.51.100.0/24
 * US (city: US-CA), 203.0.113.0/24 registered country only, 2001:db8:1::/48
 * FR, 2001:db8:2::/48 US (city: US-NY)), "bad" (a file that is no
 * database), "bad-tree", "bad-country", "bad-subdivision" (the city
 * database with one byte changed, 0xff at offset 0, 1472 and 1451: its
 * search tree, the record's country, its subdivision unreadable), anything
 * else none; a last line "fcgi" looks up twice as a FastCGI process does,
 * keeping the database open (io_attach; the process stays in that mode,
 * which changes how the database is opened, not what is found).  Then
 * geo_set() gets lines 1 and 2.
 */
#include <stdio.h>

#include "base/io.h"
#include "base/nitems.h"

#include "fuzz.h"
#include "input/geo.h"

#define NVARS 10
static const char *const vars[NVARS] = {
	"HTTP_CF_IPCOUNTRY", "HTTP_CF_REGION_CODE",
	"HTTP_CLOUDFRONT_VIEWER_COUNTRY", "HTTP_CLOUDFRONT_VIEWER_COUNTRY_REGION",
	"HTTP_X_VERCEL_IP_COUNTRY", "HTTP_X_VERCEL_IP_COUNTRY_REGION",
	"HTTP_X_COUNTRY_CODE", "GEOIP_COUNTRY_CODE", "CONSENT_COUNTRY_HEADER",
	"REMOTE_ADDR",
};

/* fuzz/NAME beside this source (an absolute path when the harness was
 * compiled from one, else relative to the checkout, where fuzz/run.sh,
 * coverage.sh and t0900 run). */
static void
beside(char *out, size_t size, const char *name)
{
	const char *slash = strrchr(__FILE__, '/');
	int dir = slash ? (int)(slash - __FILE__) : 0;

	if (slash)
		snprintf(out, size, "%.*s/%s", dir, __FILE__, name);
	else
		snprintf(out, size, "%s", name);
}

/* The databases line 11 names, each a file beside this source. */
static const struct { const char *name, *file; } dbs[] = {
	{ "country", "geo-country.mmdb" }, { "city", "geo-city.mmdb" },
	{ "bad", "fuzz.h" }, { "bad-tree", "geo-bad-tree.mmdb" },
	{ "bad-country", "geo-bad-country.mmdb" },
	{ "bad-subdivision", "geo-bad-subdivision.mmdb" },
};

/* A FastCGI request's variables: the process environment the harness set. */
static const char *
env_param(void *arg, const char *name)
{
	(void)arg;
	return getenv(name);
}

static ssize_t
no_read(void *arg, char *buf, size_t n)
{
	(void)arg;
	(void)buf;
	(void)n;
	return 0;
}

static int
upper_alnum(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct io_source fcgi = { env_param, no_read, fuzz_no_write, NULL };
	struct fuzz_lines l;
	struct geo g, again;
	char db[4096];
	size_t i, n;

	unsetenv("MM_COUNTRY_CODE");
	fuzz_split(data, size, NVARS + 2, &l);
	unsetenv("CONSENT_GEOIP_DB");
	for (i = 0; l.s[NVARS] != NULL && i < nitems(dbs); i++) {
		if (strcmp(l.s[NVARS], dbs[i].name) == 0) {
			beside(db, sizeof(db), dbs[i].file);
			setenv("CONSENT_GEOIP_DB", db, 1);
		}
	}
	for (i = 0; i < NVARS; i++) {
		if (l.s[i] != NULL)
			setenv(vars[i], l.s[i], 1);
		else
			unsetenv(vars[i]);
	}
	if (l.s[NVARS + 1] != NULL && strcmp(l.s[NVARS + 1], "fcgi") == 0)
		io_attach(&fcgi);
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
	/* The same request again: the same answer (a kept database included). */
	memset(&again, 0x5a, sizeof(again));
	geo_detect(&again);
	FUZZ_CHECK(strcmp(g.country, again.country) == 0 &&
	    strcmp(g.subdivision, again.subdivision) == 0);
	io_attach(NULL);
	geo_forget();
	/* What an operator or a test gives as a country and a subdivision. */
	if (l.s[0] != NULL) {
		memset(&g, 0x5a, sizeof(g));
		if (geo_set(&g, l.s[0], l.s[1]))
			FUZZ_CHECK(strlen(g.country) == 2 && strlen(g.subdivision) <= 3);
		else
			FUZZ_CHECK(g.country[0] == '\0');
	}
	for (i = 0; i < NVARS; i++)
		unsetenv(vars[i]);
	unsetenv("CONSENT_GEOIP_DB");
	fuzz_lines_free(&l);
	return 0;
}
