/* test_report.c: report_period() (the report's days, UTC) and report_html() (the figures safe inside <script>). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "admin/report.h"
#include "unit.h"

static struct report_period p;
static char err[200];

/* "since until days from to" of the period, or "error: MESSAGE". */
static const char *
period(const char *since, const char *until, const char *today)
{
	static char out[300];

	if (report_period(since, until, today, &p, err, sizeof(err)) != 0)
		snprintf(out, sizeof(out), "error: %s", err);
	else
		snprintf(out, sizeof(out), "%s %s %d %s %s", p.since, p.until, p.days, p.from, p.to);
	return out;
}

static void
test_period(void)
{
	CHECK_STR(period(NULL, NULL, "2026-11-24"),
	    "2026-10-26 2026-11-24 30 2026-10-26T00:00:00.000Z 2026-11-25T00:00:00.000Z",
	    "default: the last 30 days, today included; the end is the next midnight, excluded");
	CHECK_STR(period("2026-11-24", NULL, "2026-11-24"),
	    "2026-11-24 2026-11-24 1 2026-11-24T00:00:00.000Z 2026-11-25T00:00:00.000Z", "one day");
	CHECK_STR(period(NULL, "2024-03-01", "2026-11-24"),
	    "2024-02-01 2024-03-01 30 2024-02-01T00:00:00.000Z 2024-03-02T00:00:00.000Z",
	    "--until alone: 29 days before it, across a leap February");
	CHECK_STR(period("2026-12-31", "2026-12-31", "2027-01-05"),
	    "2026-12-31 2026-12-31 1 2026-12-31T00:00:00.000Z 2027-01-01T00:00:00.000Z", "the end crosses the year");
	CHECK_STR(period("1970-01-01", "1970-01-02", "2026-01-01"),
	    "1970-01-01 1970-01-02 2 1970-01-01T00:00:00.000Z 1970-01-03T00:00:00.000Z", "1970 is the first year");
	CHECK_STR(period("2016-01-01", "2026-01-07", "2026-01-07"),
	    "2016-01-01 2026-01-07 3660 2016-01-01T00:00:00.000Z 2026-01-08T00:00:00.000Z", "3660 days, the longest");
	CHECK_STR(period("2016-01-01", "2026-01-08", "2026-01-08"),
	    "error: the period has 3661 days; a report covers at most 3660", "3661 days are refused");
	CHECK_STR(period("9999-12-31", NULL, "2026-01-01"),
	    "error: --since 9999-12-31 is after --until 2026-01-01", "--since after today");
	CHECK_STR(period("2026-02-29", NULL, "2026-03-01"),
	    "error: invalid --since '2026-02-29': a date YYYY-MM-DD (UTC) from 1970 on", "no 29 February in 2026");
	CHECK_STR(period(NULL, "2026-04-31", "2026-03-01"),
	    "error: invalid --until '2026-04-31': a date YYYY-MM-DD (UTC) from 1970 on", "no 31 April");
	CHECK_STR(period("2026-01-01T00:00:00Z", NULL, "2026-03-01"),
	    "error: invalid --since '2026-01-01T00:00:00Z': a date YYYY-MM-DD (UTC) from 1970 on", "a time is not a date");
	CHECK_STR(period("0001-01-01", NULL, "2026-03-01"),
	    "error: invalid --since '0001-01-01': a date YYYY-MM-DD (UTC) from 1970 on", "before 1970");
}

/* The page report_html() makes of tmpl and the JSON text json, or NULL. */
static char *
page(const char *tmpl, const char *json)
{
	cJSON *doc = cJSON_Parse(json);
	char *out = doc != NULL ? report_html(tmpl, doc) : NULL;

	cJSON_Delete(doc);
	return out;
}

static void
test_html(void)
{
	char *out;

	out = page("<a>" REPORT_MARKER "</a>", "{\"n\":\"</script><b>&amp;\"}");
	CHECK_STR(out, "<a>{\"n\":\"\\u003c/script\\u003e\\u003cb\\u003e\\u0026amp;\"}</a>",
	    "<, > and & become \\u escapes; the template around the marker stays");
	free(out);
	out = page("[" REPORT_MARKER "]", "{\"n\":\"a\xe2\x80\xa8" "b\xe2\x80\xa9" "c\xe2\x80\xaa" "d\xf0\x9f\x98\x80\"}");
	CHECK_STR(out, "[{\"n\":\"a\\u2028b\\u2029c\xe2\x80\xaa" "d\xf0\x9f\x98\x80\"}]",
	    "U+2028 and U+2029 become escapes, other UTF-8 stays as it is");
	free(out);
	out = page(REPORT_MARKER REPORT_MARKER, "[1]");
	CHECK_STR(out, "[1]" REPORT_MARKER, "only the first marker is replaced");
	free(out);
	out = page("no marker", "[1]");
	CHECK(out == NULL, "a template without the marker is refused");
	free(out);
	out = page(REPORT_MARKER, "\"<<<<>>>>&&&&\"");
	CHECK(out != NULL && strlen(out) == 2 + 12 * 6, "the worst case, every byte escaped, fits");
	free(out);
}

int
main(void)
{
	test_period();
	test_html();
	UNIT_DONE();
}
