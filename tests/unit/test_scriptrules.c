/* test_scriptrules.c: scriptrules_match() (SDK.md 5) and tracker_match(), which scripts rules builds on. */
#include <stdio.h>
#include <string.h>

#include "admin/scriptrules.h"
#include "base/nitems.h"
#include "input/tracker.h"
#include "unit.h"

static const struct {
	const char *host, *pattern;
	int want;
	const char *what;
} cases[] = {
	{"google-analytics.com", "google-analytics.com", 1, "equal"},
	{"www.google-analytics.com", "google-analytics.com", 1, "subdomain"},
	{"a.b.google-analytics.com", "google-analytics.com", 1, "deep subdomain"},
	{"notgoogle-analytics.com", "google-analytics.com", 0, "look-alike prefix"},
	{"google-analytics.com.evil.net", "google-analytics.com", 0, "look-alike suffix"},
	{"google-analytics.com", "www.google-analytics.com", 0, "pattern below the host"},
	{"www.hotjar.com", "*.hotjar.com", 1, "leading *. ignored"},
	{"hotjar.com", "*.hotjar.com", 1, "leading *. ignored: the domain itself"},
	{"www.hotjar.com", "*hotjar.com", 0, "a * without the dot is no wildcard"},
	{"www.hotjar.com", "HotJar.COM", 1, "ASCII case ignored"},
	{"hotjar.com", "", 0, "empty pattern matches nothing"},
	{"hotjar.com", "*.", 0, "a bare *. matches nothing"},
	{"com", "hotjar.com", 0, "pattern longer than the host"},
	{"xhotjar.com", "hotjar.com", 0, "no dot before the pattern"},
	{"1.2.3.4", "2.3.4", 0, "an IP address is no subdomain"},
};

int
main(void)
{
	const char *entry = "untouched";
	size_t i;

	for (i = 0; i < nitems(cases); i++)
		CHECK(scriptrules_match(cases[i].host, cases[i].pattern) == cases[i].want,
		    cases[i].what);

	CHECK_STR(tracker_match("ssl.google-analytics.com", &entry), "analytics",
	    "tracker_match: category of a subdomain");
	CHECK_STR(entry, "google-analytics.com", "tracker_match: the parent entry that matched");
	CHECK_STR(tracker_match("x.cmp.quantcast.com", &entry), "necessary",
	    "tracker_match: the most specific entry");
	CHECK_STR(entry, "cmp.quantcast.com", "tracker_match: names the most specific entry");
	entry = "untouched";
	CHECK_STR(tracker_match("example.org", &entry), NULL, "tracker_match: unknown domain");
	CHECK_STR(entry, "untouched", "tracker_match: *entry left alone when nothing matches");
	CHECK_STR(tracker_match("mc.yandex.ru", NULL), "analytics", "tracker_match: entry may be NULL");
	UNIT_DONE();
}
