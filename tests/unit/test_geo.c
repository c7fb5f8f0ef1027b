/* test_geo.c: geo_detect() from the CGI environment (CONTRACT 6).
 *
 *   test_geo                       every rule; the database cases run when
 *                                  TEST_GEO_MMDB_COUNTRY / TEST_GEO_MMDB_CITY
 *                                  name the tests/fixtures/make-mmdb.pl files
 *   test_geo --lookups TSV DB      rows of an expected_lookups.tsv (see
 *                                  shared/data/geoip/README.md) against DB: a
 *                                  .mmdb file (rows naming its file name) or
 *                                  a directory (every row, DB/<db column>)
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/nitems.h"
#include "input/geo.h"
#include "unit.h"

/* Every variable geo_detect() reads, cleared before each case. */
static const char *const vars[] = {
	"CONSENT_COUNTRY_HEADER", "CONSENT_GEOIP_DB", "REMOTE_ADDR",
	"HTTP_CF_IPCOUNTRY", "HTTP_CF_REGION_CODE",
	"HTTP_CLOUDFRONT_VIEWER_COUNTRY", "HTTP_CLOUDFRONT_VIEWER_COUNTRY_REGION",
	"HTTP_X_VERCEL_IP_COUNTRY", "HTTP_X_VERCEL_IP_COUNTRY_REGION",
	"HTTP_X_COUNTRY_CODE", "GEOIP_COUNTRY_CODE", "MM_COUNTRY_CODE",
	"HTTP_X_REAL_COUNTRY", "HTTP_X_REAL_COUNTRY_REGION",
};

/* A valid CONSENT_COUNTRY_HEADER of exactly 64 characters, and one of 65. */
#define NAME64 "HTTP_X_LONG_0123456789012345678901234567890123456789012345678901"
#define NAME65 NAME64 "2"

/* Start a case: clear every variable, then set NAME, VALUE pairs (NULL ends). */
static void
given(const char *name, ...)
{
	va_list ap;
	const char *value;
	size_t i;

	for (i = 0; i < nitems(vars); i++)
		unsetenv(vars[i]);
	unsetenv(NAME64);
	va_start(ap, name);
	while (name != NULL) {
		value = va_arg(ap, const char *);
		setenv(name, value, 1);
		name = va_arg(ap, const char *);
	}
	va_end(ap);
}

/* Run geo_detect() with stderr captured; *lines is how many lines it wrote. */
static void
detect(struct geo *g, int *lines)
{
	FILE *tmp = tmpfile();
	int saved, c;

	*lines = 0;
	fflush(stderr);
	saved = dup(2);
	if (tmp == NULL || saved < 0 || dup2(fileno(tmp), 2) < 0) {
		geo_detect(g);
		*lines = -1;
	} else {
		geo_detect(g);
		fflush(stderr);
		dup2(saved, 2);
		rewind(tmp);
		while ((c = fgetc(tmp)) != EOF)
			if (c == '\n')
				(*lines)++;
	}
	if (saved >= 0)
		close(saved);
	if (tmp != NULL)
		fclose(tmp);
}

/* One check: the location is want ("CC/SUB", "DE/", "/" for unknown) and
 * geo_detect() wrote want_lines lines to stderr. */
static void
expect_logged(const char *what, const char *want, int want_lines)
{
	struct geo g;
	char got[64];
	int lines;

	memset(&g, 0x55, sizeof(g));   /* garbage in: every field must be set */
	detect(&g, &lines);
	if (memchr(g.country, '\0', sizeof(g.country)) == NULL ||
	    memchr(g.subdivision, '\0', sizeof(g.subdivision)) == NULL)
		snprintf(got, sizeof(got), "(unterminated)");
	else if (lines != want_lines)
		snprintf(got, sizeof(got), "%s/%s, %d stderr lines", g.country,
		    g.subdivision, lines);
	else
		snprintf(got, sizeof(got), "%s/%s", g.country, g.subdivision);
	CHECK_STR(got, want, what);
}

static void
expect(const char *what, const char *want)
{
	expect_logged(what, want, 0);
}

static void
test_headers(void)
{
	given(NULL);
	expect("nothing set: unknown", "/");

	given("HTTP_CF_IPCOUNTRY", "DE", NULL);
	expect("CF-IPCountry", "DE/");
	given("HTTP_CLOUDFRONT_VIEWER_COUNTRY", "FR", NULL);
	expect("CloudFront-Viewer-Country", "FR/");
	given("HTTP_X_VERCEL_IP_COUNTRY", "NL", NULL);
	expect("X-Vercel-IP-Country", "NL/");
	given("HTTP_X_COUNTRY_CODE", "PL", NULL);
	expect("X-Country-Code", "PL/");

	given("HTTP_CF_IPCOUNTRY", "DE", "HTTP_CLOUDFRONT_VIEWER_COUNTRY", "FR",
	    "HTTP_X_VERCEL_IP_COUNTRY", "NL", "HTTP_X_COUNTRY_CODE", "PL", NULL);
	expect("order: CF-IPCountry first", "DE/");
	given("HTTP_CLOUDFRONT_VIEWER_COUNTRY", "FR", "HTTP_X_VERCEL_IP_COUNTRY", "NL",
	    "HTTP_X_COUNTRY_CODE", "PL", NULL);
	expect("order: CloudFront before Vercel", "FR/");
	given("HTTP_X_VERCEL_IP_COUNTRY", "NL", "HTTP_X_COUNTRY_CODE", "PL", NULL);
	expect("order: Vercel before X-Country-Code", "NL/");
	given("HTTP_CF_IPCOUNTRY", "", "HTTP_X_COUNTRY_CODE", "PL", NULL);
	expect("empty header counts as absent", "PL/");
	given("HTTP_CF_IPCOUNTRY", "XX", "HTTP_X_COUNTRY_CODE", "PL", NULL);
	expect("only the first present header is read (no client override of XX)", "/");
	given("HTTP_CF_IPCOUNTRY", "DEU", "HTTP_X_COUNTRY_CODE", "PL", NULL);
	expect("only the first present header is read (malformed)", "/");

	given("HTTP_CF_IPCOUNTRY", "de", NULL);
	expect("lower case upper-cased", "DE/");
	given("HTTP_CF_IPCOUNTRY", "gB", NULL);
	expect("mixed case upper-cased", "GB/");
	given("HTTP_CF_IPCOUNTRY", "DEU", NULL);
	expect("three letters refused", "/");
	given("HTTP_CF_IPCOUNTRY", "D", NULL);
	expect("one letter refused", "/");
	given("HTTP_CF_IPCOUNTRY", "D1", NULL);
	expect("letter and digit refused", "/");
	given("HTTP_CF_IPCOUNTRY", "12", NULL);
	expect("digits refused", "/");
	given("HTTP_CF_IPCOUNTRY", " DE", NULL);
	expect("leading space refused", "/");
	given("HTTP_CF_IPCOUNTRY", "DE ", NULL);
	expect("trailing space refused", "/");
	given("HTTP_CF_IPCOUNTRY", "D-", NULL);
	expect("punctuation refused", "/");
	given("HTTP_CF_IPCOUNTRY", "\xc3\x9c" "S", NULL);
	expect("non-ASCII refused", "/");
	given("HTTP_CF_IPCOUNTRY", "XX", NULL);
	expect("XX is unknown", "/");
	given("HTTP_CF_IPCOUNTRY", "xx", NULL);
	expect("xx is unknown", "/");
	given("HTTP_CF_IPCOUNTRY", "T1", NULL);
	expect("T1 (Tor) is unknown", "/");
}

static void
test_country_header_setting(void)
{
	given("CONSENT_COUNTRY_HEADER", "HTTP_X_REAL_COUNTRY",
	    "HTTP_X_REAL_COUNTRY", "AT", "HTTP_CF_IPCOUNTRY", "DE", NULL);
	expect("CONSENT_COUNTRY_HEADER: the named header wins", "AT/");
	given("CONSENT_COUNTRY_HEADER", "HTTP_X_REAL_COUNTRY",
	    "HTTP_CF_IPCOUNTRY", "DE", NULL);
	expect("CONSENT_COUNTRY_HEADER: default headers no longer trusted", "/");
	given("CONSENT_COUNTRY_HEADER", "HTTP_X_REAL_COUNTRY",
	    "HTTP_X_REAL_COUNTRY", "at", NULL);
	expect("CONSENT_COUNTRY_HEADER: value upper-cased", "AT/");
	given("CONSENT_COUNTRY_HEADER", "HTTP_X_REAL_COUNTRY",
	    "HTTP_X_REAL_COUNTRY", "AUT", NULL);
	expect("CONSENT_COUNTRY_HEADER: value still validated", "/");
	given("CONSENT_COUNTRY_HEADER", "HTTP_X_COUNTRY_CODE",
	    "HTTP_X_COUNTRY_CODE", "PL", "HTTP_CF_IPCOUNTRY", "DE", NULL);
	expect("CONSENT_COUNTRY_HEADER: a default-list name alone", "PL/");
	given("CONSENT_COUNTRY_HEADER", "HTTP_X_REAL_COUNTRY",
	    "HTTP_X_REAL_COUNTRY", "US", "HTTP_X_REAL_COUNTRY_REGION", "CA", NULL);
	expect("CONSENT_COUNTRY_HEADER: custom header has no region header", "US/");
	given("CONSENT_COUNTRY_HEADER", "HTTP_X_REAL_COUNTRY",
	    "GEOIP_COUNTRY_CODE", "IT", NULL);
	expect("CONSENT_COUNTRY_HEADER: absent header falls to server variable", "IT/");
	given("CONSENT_COUNTRY_HEADER", "", "HTTP_CF_IPCOUNTRY", "DE", NULL);
	expect("CONSENT_COUNTRY_HEADER empty: default list, silently", "DE/");

	given("CONSENT_COUNTRY_HEADER", "none", "HTTP_CF_IPCOUNTRY", "DE",
	    "HTTP_X_COUNTRY_CODE", "PL", NULL);
	expect("CONSENT_COUNTRY_HEADER=none trusts no header", "/");
	given("CONSENT_COUNTRY_HEADER", "NONE", "HTTP_CF_IPCOUNTRY", "DE", NULL);
	expect("CONSENT_COUNTRY_HEADER=NONE trusts no header", "/");
	given("CONSENT_COUNTRY_HEADER", "none", "HTTP_CF_IPCOUNTRY", "DE",
	    "GEOIP_COUNTRY_CODE", "ES", NULL);
	expect("CONSENT_COUNTRY_HEADER=none: server variable still used", "ES/");

	given("CONSENT_COUNTRY_HEADER", "HTTP_cf_ipcountry", "HTTP_CF_IPCOUNTRY", "DE", NULL);
	expect_logged("CONSENT_COUNTRY_HEADER lower case: default list, one stderr line", "DE/", 1);
	given("CONSENT_COUNTRY_HEADER", "HTTP-CF-IPCOUNTRY", "HTTP_X_COUNTRY_CODE", "PL", NULL);
	expect_logged("CONSENT_COUNTRY_HEADER with '-': default list, one stderr line", "PL/", 1);
	given("CONSENT_COUNTRY_HEADER", "HTTP_X\nEVIL", "HTTP_CF_IPCOUNTRY", "DE", NULL);
	expect_logged("CONSENT_COUNTRY_HEADER with newline: default list, one stderr line", "DE/", 1);
	given("CONSENT_COUNTRY_HEADER", NAME64, NAME64, "CH", "HTTP_CF_IPCOUNTRY", "DE", NULL);
	expect("CONSENT_COUNTRY_HEADER of 64 characters accepted", "CH/");
	given("CONSENT_COUNTRY_HEADER", NAME65, "HTTP_CF_IPCOUNTRY", "DE", NULL);
	expect_logged("CONSENT_COUNTRY_HEADER of 65 characters: default list", "DE/", 1);
}

static void
test_server_vars(void)
{
	given("GEOIP_COUNTRY_CODE", "SE", NULL);
	expect("GEOIP_COUNTRY_CODE (lighttpd)", "SE/");
	given("MM_COUNTRY_CODE", "no", NULL);
	expect("MM_COUNTRY_CODE (Apache), upper-cased", "NO/");
	given("GEOIP_COUNTRY_CODE", "SE", "MM_COUNTRY_CODE", "NO", NULL);
	expect("GEOIP_COUNTRY_CODE before MM_COUNTRY_CODE", "SE/");
	given("GEOIP_COUNTRY_CODE", "XX", "MM_COUNTRY_CODE", "NO", NULL);
	expect("GEOIP_COUNTRY_CODE XX: MM_COUNTRY_CODE", "NO/");
	given("GEOIP_COUNTRY_CODE", "SWE", NULL);
	expect("server variable validated", "/");
	given("HTTP_CF_IPCOUNTRY", "DE", "GEOIP_COUNTRY_CODE", "SE", NULL);
	expect("header before server variable", "DE/");
	given("HTTP_CF_IPCOUNTRY", "XX", "GEOIP_COUNTRY_CODE", "SE", NULL);
	expect("header XX: server variable asked", "SE/");
	given("HTTP_CF_IPCOUNTRY", "T1", "MM_COUNTRY_CODE", "NO", NULL);
	expect("header T1: server variable asked", "NO/");
	given("HTTP_CF_IPCOUNTRY", "D", "MM_COUNTRY_CODE", "NO", NULL);
	expect("header malformed: server variable asked", "NO/");
}

static void
test_region_headers(void)
{
	given("HTTP_CF_IPCOUNTRY", "US", "HTTP_CF_REGION_CODE", "CA", NULL);
	expect("CF-Region-Code", "US/CA");
	given("HTTP_CLOUDFRONT_VIEWER_COUNTRY", "US",
	    "HTTP_CLOUDFRONT_VIEWER_COUNTRY_REGION", "tx", NULL);
	expect("CloudFront-Viewer-Country-Region, upper-cased", "US/TX");
	given("HTTP_X_VERCEL_IP_COUNTRY", "GB", "HTTP_X_VERCEL_IP_COUNTRY_REGION", "ENG", NULL);
	expect("X-Vercel-IP-Country-Region, three letters", "GB/ENG");
	given("HTTP_CF_IPCOUNTRY", "CN", "HTTP_CF_REGION_CODE", "22", NULL);
	expect("numeric subdivision", "CN/22");
	given("HTTP_CF_IPCOUNTRY", "SE", "HTTP_CF_REGION_CODE", "E", NULL);
	expect("one-character subdivision", "SE/E");
	given("HTTP_CF_IPCOUNTRY", "US", "HTTP_CF_REGION_CODE", "US-CA", NULL);
	expect("US-CA form: prefix stripped", "US/CA");
	given("HTTP_CF_IPCOUNTRY", "us", "HTTP_CF_REGION_CODE", "us-ny", NULL);
	expect("us-ny form: prefix stripped, upper-cased", "US/NY");
	given("HTTP_CF_IPCOUNTRY", "US", "HTTP_CF_REGION_CODE", "GB-ENG", NULL);
	expect("prefix of another country refused", "US/");
	given("HTTP_CF_IPCOUNTRY", "US", "HTTP_CF_REGION_CODE", "US-", NULL);
	expect("bare prefix refused", "US/");
	given("HTTP_CF_IPCOUNTRY", "US", "HTTP_CF_REGION_CODE", "CALI", NULL);
	expect("four characters refused", "US/");
	given("HTTP_CF_IPCOUNTRY", "US", "HTTP_CF_REGION_CODE", "C-", NULL);
	expect("punctuation refused", "US/");
	given("HTTP_CF_IPCOUNTRY", "US", "HTTP_CF_REGION_CODE", "C\xc3\xa1", NULL);
	expect("non-ASCII refused", "US/");
	given("HTTP_CF_IPCOUNTRY", "US", "HTTP_CF_REGION_CODE", "", NULL);
	expect("empty region header", "US/");
	given("HTTP_CF_IPCOUNTRY", "US", "HTTP_X_VERCEL_IP_COUNTRY_REGION", "CA", NULL);
	expect("another edge's region header ignored", "US/");
	given("HTTP_X_COUNTRY_CODE", "US", "HTTP_CF_REGION_CODE", "CA", NULL);
	expect("X-Country-Code has no region header", "US/");
	given("HTTP_CF_IPCOUNTRY", "XX", "HTTP_CF_REGION_CODE", "CA", NULL);
	expect("no country: no subdivision", "/");
	given("GEOIP_COUNTRY_CODE", "US", "HTTP_CF_REGION_CODE", "CA", NULL);
	expect("country from server variable: no region header", "US/");
	given("CONSENT_COUNTRY_HEADER", "HTTP_CF_IPCOUNTRY",
	    "HTTP_CF_IPCOUNTRY", "US", "HTTP_CF_REGION_CODE", "WA", NULL);
	expect("CONSENT_COUNTRY_HEADER naming an edge header keeps its region header", "US/WA");
	given("CONSENT_COUNTRY_HEADER", "HTTP_X_VERCEL_IP_COUNTRY",
	    "HTTP_X_VERCEL_IP_COUNTRY", "US", "HTTP_X_VERCEL_IP_COUNTRY_REGION", "OR",
	    "HTTP_CF_REGION_CODE", "WA", NULL);
	expect("CONSENT_COUNTRY_HEADER: only its own region header", "US/OR");
}

/* Database cases that need no fixture: a missing or non-MaxMind file. */
static void
test_bad_database(const char *self)
{
	given("CONSENT_GEOIP_DB", "/nonexistent/geo.mmdb", "REMOTE_ADDR", "192.0.2.1", NULL);
	expect_logged("missing database: unknown, one stderr line", "/", 1);
	given("CONSENT_GEOIP_DB", self, "REMOTE_ADDR", "192.0.2.1", NULL);
	expect_logged("not a MaxMind database: unknown, one stderr line", "/", 1);
	given("CONSENT_GEOIP_DB", "/nonexistent/geo.mmdb", "REMOTE_ADDR", "192.0.2.1",
	    "HTTP_CF_IPCOUNTRY", "DE", NULL);
	expect("database not opened when a header gave the country", "DE/");
	given("CONSENT_GEOIP_DB", "/nonexistent/geo.mmdb", "REMOTE_ADDR", "192.0.2.1",
	    "MM_COUNTRY_CODE", "DE", NULL);
	expect("database not opened when a server variable gave the country", "DE/");
	given("CONSENT_GEOIP_DB", "/nonexistent/geo.mmdb", NULL);
	expect("no REMOTE_ADDR: database not opened", "/");
	given("CONSENT_GEOIP_DB", "", "REMOTE_ADDR", "192.0.2.1", NULL);
	expect("empty CONSENT_GEOIP_DB: no lookup", "/");
}

/* The cases common to both fixture databases (make-mmdb.pl's header). */
static void
test_fixture_common(const char *db, const char *kind)
{
	char what[128];
	static const struct {
		const char *addr, *want, *why;
	} rows[] = {
		{ "192.0.2.1", "DE/", "IPv4" },
		{ "192.0.2.254", "DE/", "IPv4, end of network" },
		{ "::ffff:192.0.2.1", "DE/", "IPv4-mapped IPv6" },
		{ "2001:db8:1::1", "FR/", "IPv6" },
		{ "2001:DB8:1:ffff::1", "FR/", "IPv6, upper case, end of network" },
		{ "203.0.113.5", "/", "registered_country only: unknown" },
		{ "127.0.0.1", "/", "address not in the database" },
		{ "192.0.3.1", "/", "address next to a network" },
		{ "2001:db8:3::1", "/", "IPv6 address not in the database" },
		{ "::1", "/", "IPv6 loopback" },
		{ "not-an-address", "/", "malformed address" },
		{ "localhost", "/", "host name: never resolved" },
		{ "192.0.2.1 ", "/", "trailing space" },
		{ "192.0.2.1/24", "/", "network, not an address" },
		{ "1111111111111111111111111111111111111111111111111111111111111111111", "/",
		    "overlong address" },
	};
	size_t i;

	for (i = 0; i < nitems(rows); i++) {
		snprintf(what, sizeof(what), "%s database: %s (%s)", kind, rows[i].addr,
		    rows[i].why);
		given("CONSENT_GEOIP_DB", db, "REMOTE_ADDR", rows[i].addr, NULL);
		expect(what, rows[i].want);
	}
	snprintf(what, sizeof(what), "%s database: header XX lets the database answer", kind);
	given("CONSENT_GEOIP_DB", db, "REMOTE_ADDR", "192.0.2.1", "HTTP_CF_IPCOUNTRY", "XX", NULL);
	expect(what, "DE/");
	snprintf(what, sizeof(what), "%s database: header T1 lets the database answer", kind);
	given("CONSENT_GEOIP_DB", db, "REMOTE_ADDR", "2001:db8:1::1",
	    "HTTP_CF_IPCOUNTRY", "T1", NULL);
	expect(what, "FR/");
	snprintf(what, sizeof(what), "%s database: a valid header wins", kind);
	given("CONSENT_GEOIP_DB", db, "REMOTE_ADDR", "192.0.2.1", "HTTP_CF_IPCOUNTRY", "IT", NULL);
	expect(what, "IT/");
	snprintf(what, sizeof(what), "%s database: CONSENT_COUNTRY_HEADER=none, lookup", kind);
	given("CONSENT_GEOIP_DB", db, "REMOTE_ADDR", "192.0.2.1",
	    "CONSENT_COUNTRY_HEADER", "none", "HTTP_CF_IPCOUNTRY", "IT", NULL);
	expect(what, "DE/");
	snprintf(what, sizeof(what), "%s database: no CONSENT_GEOIP_DB, no lookup", kind);
	given("REMOTE_ADDR", "192.0.2.1", NULL);
	expect(what, "/");
}

static void
test_fixtures(void)
{
	const char *country = getenv("TEST_GEO_MMDB_COUNTRY");
	const char *city = getenv("TEST_GEO_MMDB_CITY");

	if (country == NULL || country[0] == '\0') {
		printf("skip - country database lookups: TEST_GEO_MMDB_COUNTRY not set\n");
	} else {
		test_fixture_common(country, "country");
		given("CONSENT_GEOIP_DB", country, "REMOTE_ADDR", "198.51.100.7", NULL);
		expect("country database: US, no subdivision", "US/");
		given("CONSENT_GEOIP_DB", country, "REMOTE_ADDR", "2001:db8:2::1", NULL);
		expect("country database: IPv6 US, no subdivision", "US/");
	}
	if (city == NULL || city[0] == '\0') {
		printf("skip - city database lookups: TEST_GEO_MMDB_CITY not set\n");
		return;
	}
	test_fixture_common(city, "city");
	given("CONSENT_GEOIP_DB", city, "REMOTE_ADDR", "198.51.100.7", NULL);
	expect("city database: US with subdivision CA", "US/CA");
	given("CONSENT_GEOIP_DB", city, "REMOTE_ADDR", "::ffff:198.51.100.7", NULL);
	expect("city database: IPv4-mapped US with subdivision CA", "US/CA");
	given("CONSENT_GEOIP_DB", city, "REMOTE_ADDR", "2001:db8:2::1", NULL);
	expect("city database: IPv6 US with subdivision NY", "US/NY");
	given("CONSENT_GEOIP_DB", city, "REMOTE_ADDR", "198.51.100.7",
	    "HTTP_CF_IPCOUNTRY", "US", NULL);
	expect("city database: not asked for a subdivision when a header gave the country",
	    "US/");
	given("CONSENT_GEOIP_DB", city, "REMOTE_ADDR", "198.51.100.7",
	    "GEOIP_COUNTRY_CODE", "US", NULL);
	expect("city database: not asked when a server variable gave the country", "US/");
}

/* Split line (tabs, trailing newline removed) into at most max fields. */
static size_t
split_tabs(char *line, char **f, size_t max)
{
	size_t n = 0;
	char *p = line;

	line[strcspn(line, "\r\n")] = '\0';
	while (n < max) {
		f[n++] = p;
		if ((p = strchr(p, '\t')) == NULL)
			break;
		*p++ = '\0';
	}
	return n;
}

/*
 * --lookups TSV DB: every row of TSV for DB (a file: rows whose db column is
 * its file name; a directory: every row, DB/<db>) must resolve to the row's
 * country and subdivision when found is yes, and to unknown when it is no.
 */
static int
lookups(const char *tsv, const char *db)
{
	enum { C_DB, C_IP, C_FOUND, C_COUNTRY, C_SUB, C_ISO, NCOLS };
	static const char *const names[NCOLS] = {
		"db", "ip", "found", "country", "subdivision", "subdivision_iso3166_2",
	};
	int col[NCOLS], lines;
	char *line = NULL, *f[32], path[4096], want[64], got[64], what[300];
	const char *base = strrchr(db, '/') ? strrchr(db, '/') + 1 : db;
	size_t cap = 0, n, i, j, rows = 0;
	FILE *fp;
	int isdir = base[0] == '\0';
	struct geo g;

	if ((fp = fopen(tsv, "r")) == NULL) {
		printf("not ok - cannot open %s\n", tsv);
		return 1;
	}
	if (!isdir) {
		snprintf(path, sizeof(path), "%s/.", db);
		isdir = access(path, F_OK) == 0;
	}
	if (getline(&line, &cap, fp) < 0) {
		printf("not ok - %s: no header line\n", tsv);
		unit_failed = 1;
		goto out;
	}
	n = split_tabs(line, f, 32);
	for (j = 0; j < NCOLS; j++) {
		col[j] = -1;
		for (i = 0; i < n; i++)
			if (strcmp(f[i], names[j]) == 0)
				col[j] = (int)i;
		if (col[j] < 0) {
			printf("not ok - %s: no column %s\n", tsv, names[j]);
			unit_failed = 1;
			goto out;
		}
	}
	while (getline(&line, &cap, fp) >= 0) {
		n = split_tabs(line, f, 32);
		for (j = 0; j < NCOLS; j++)
			if ((size_t)col[j] >= n)
				break;
		if (j < NCOLS)
			continue;
		if (isdir)
			snprintf(path, sizeof(path), "%s/%s", db, f[col[C_DB]]);
		else if (strcmp(f[col[C_DB]], base) == 0)
			snprintf(path, sizeof(path), "%s", db);
		else
			continue;
		rows++;
		if (strcmp(f[col[C_FOUND]], "yes") == 0)
			snprintf(want, sizeof(want), "%.3s/%.8s %.12s", f[col[C_COUNTRY]],
			    f[col[C_SUB]], f[col[C_ISO]]);
		else
			snprintf(want, sizeof(want), "/ ");
		given("CONSENT_GEOIP_DB", path, "REMOTE_ADDR", f[col[C_IP]], NULL);
		detect(&g, &lines);
		if (g.subdivision[0] != '\0')
			snprintf(got, sizeof(got), "%s/%s %s-%s", g.country, g.subdivision,
			    g.country, g.subdivision);
		else
			snprintf(got, sizeof(got), "%s/ ", g.country);
		if (lines != 0)
			snprintf(got + strlen(got), sizeof(got) - strlen(got),
			    " (%d stderr lines)", lines);
		snprintf(what, sizeof(what), "lookup %.100s %.60s", f[col[C_DB]], f[col[C_IP]]);
		CHECK_STR(got, want, what);
	}
	if (rows == 0) {
		printf("not ok - %s: no rows for %s\n", tsv, db);
		unit_failed = 1;
	}
out:
	free(line);
	fclose(fp);
	UNIT_DONE();
}

int
main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "--lookups") == 0)
		return lookups(argv[2], argv[3]);
	if (argc != 1) {
		fprintf(stderr, "usage: test_geo [--lookups TSV DB]\n");
		return 2;
	}
	test_headers();
	test_country_header_setting();
	test_server_vars();
	test_region_headers();
	test_bad_database(argv[0]);
	test_fixtures();
	given(NULL);
	UNIT_DONE();
}
