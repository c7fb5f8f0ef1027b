/* test_tracker.c: tracker_category() on chosen domains; --coverage FILE measures the list against a labelled sample. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracker.h"
#include "tracker_data.h"
#include "unit.h"

struct tracker_case {
	const char *domain, *category, *what;
};

static const struct tracker_case cases[] = {
	/* CONTRACT 7's examples and one of each category. */
	{"google-analytics.com", "analytics", "exact: google-analytics.com"},
	{"facebook.net", "marketing", "exact: facebook.net"},
	{"googletagmanager.com", "functional", "exact: googletagmanager.com"},
	{"cookiebot.com", "necessary", "exact: cookiebot.com"},
	/* Parents. */
	{"www.google-analytics.com", "analytics", "parent: www.google-analytics.com"},
	{"ssl.google-analytics.com", "analytics", "parent: ssl.google-analytics.com"},
	{"a.b.c.doubleclick.net", "marketing", "parent: a.b.c.doubleclick.net"},
	{"connect.facebook.net", "marketing", "parent: connect.facebook.net"},
	/* The most specific entry wins. */
	{"quantcast.com", "marketing", "quantcast.com is marketing"},
	{"cmp.quantcast.com", "necessary", "cmp.quantcast.com is necessary"},
	{"x.cmp.quantcast.com", "necessary", "below cmp.quantcast.com: necessary"},
	{"mc.yandex.ru", "analytics", "subdomain entry under an unlisted parent"},
	{"yandex.ru", NULL, "unlisted parent of a listed subdomain"},
	/* Look-alikes. */
	{"notgoogle-analytics.com", NULL, "look-alike: notgoogle-analytics.com"},
	{"oogle-analytics.com", NULL, "look-alike: oogle-analytics.com"},
	{"google-analytics.co", NULL, "look-alike: google-analytics.co"},
	{"google-analytics.comx", NULL, "look-alike: google-analytics.comx"},
	{"google-analytics.com.evil.net", NULL, "look-alike: google-analytics.com.evil.net"},
	{"google-analytics", NULL, "look-alike: google-analytics without TLD"},
	{"xdoubleclick.net", NULL, "look-alike: xdoubleclick.net"},
	{"doubleclick.net.example.com", NULL, "look-alike: doubleclick.net.example.com"},
	/* Bare TLDs and degenerate names. */
	{"com", NULL, "TLD only: com"},
	{"net", NULL, "TLD only: net"},
	{"com.", NULL, "TLD only with a trailing dot"},
	{"google", NULL, "TLD only: google (adtrafficquality.google is listed)"},
	{"", NULL, "empty string"},
	{".", NULL, "a lone dot"},
	{"..", NULL, "two dots"},
	/* Dots. */
	{"google-analytics.com.", "analytics", "trailing dot: google-analytics.com."},
	{"www.doubleclick.net.", "marketing", "trailing dot: www.doubleclick.net."},
	{"google-analytics.com..", NULL, "two trailing dots"},
	{".google-analytics.com", NULL, "leading dot"},
	{"a..google-analytics.com", NULL, "empty label"},
	/* The caller lower-cases. */
	{"Google-Analytics.com", NULL, "upper case not matched: Google-Analytics.com"},
	{"WWW.GOOGLE-ANALYTICS.COM", NULL, "upper case not matched: WWW.GOOGLE-ANALYTICS.COM"},
};

static void unit_checks(void)
{
	static char longname[10 * 1024];
	size_t i, bad;
	char what[128];

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		CHECK_STR(tracker_category(cases[i].domain), cases[i].category,
		    cases[i].what);
	CHECK(tracker_category(NULL) == NULL, "NULL domain");

	snprintf(what, sizeof(what), "tracker_count() %zu >= 300", tracker_count());
	CHECK(tracker_count() >= 300, what);
	CHECK(tracker_count() == tracker_table_len, "tracker_count() is the table's length");

	/* Every entry is found under its own category: the table is sorted. */
	for (i = 0, bad = 0; i < tracker_table_len; i++) {
		const char *got = tracker_category(tracker_table[i].domain);

		if (got == NULL || strcmp(got, tracker_table[i].category) != 0) {
			printf("# %s: got %s, want %s\n", tracker_table[i].domain,
			    got ? got : "(null)", tracker_table[i].category);
			bad++;
		}
	}
	CHECK(bad == 0, "every entry finds its own category");
	for (i = 1, bad = 0; i < tracker_table_len; i++)
		if (strcmp(tracker_table[i - 1].domain, tracker_table[i].domain) >= 0)
			bad++;
	CHECK(bad == 0, "table sorted, domains unique");

	/* A 10 KiB name: many labels, then a listed domain. */
	for (i = 0; i + 1 < sizeof(longname); i += 2)
		memcpy(longname + i, "a.", 2);
	memcpy(longname + sizeof(longname) - 1 - strlen("doubleclick.net"),
	    "doubleclick.net", strlen("doubleclick.net") + 1);
	CHECK_STR(tracker_category(longname), "marketing", "10 KiB of labels, then doubleclick.net");
}

/*
 * Coverage over the labelled sample (../shared/data/trackers/README.md).
 * Its `category` column is already in our four ids: the sample maps Third
 * Party Web's ad, social, marketing -> marketing; analytics -> analytics;
 * tag-manager, video, customer-success -> functional; consent-provider ->
 * necessary; and Open Cookie Database's Marketing -> marketing, Analytics ->
 * analytics, Functional and Personalization -> functional, Security and
 * Necessary -> necessary.  map_label() applies the same mapping to the raw
 * labels of source_conflicts.tsv.
 */

#define MAXCOL 16
#define NCAT 4
#define NMISSING 20 /* uncovered sample rows listed, most used first */

static const char *const cat_name[NCAT] = {"analytics", "marketing", "functional", "necessary"};

static int cat_index(const char *s)
{
	int i;

	for (i = 0; s != NULL && i < NCAT; i++)
		if (strcmp(cat_name[i], s) == 0)
			return i;
	return -1;
}

/* Our id for a raw Third Party Web or Open Cookie Database label, or NULL. */
static const char *map_label(const char *raw)
{
	static const char *const map[][2] = {
		{"ad", "marketing"}, {"social", "marketing"}, {"marketing", "marketing"},
		{"analytics", "analytics"}, {"tag-manager", "functional"},
		{"video", "functional"}, {"customer-success", "functional"},
		{"consent-provider", "necessary"}, {"functional", "functional"},
		{"personalization", "functional"}, {"security", "necessary"},
		{"necessary", "necessary"},
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strcmp(map[i][0], raw) == 0)
			return map[i][1];
	return NULL;
}

/* Split line at tabs, in place, into at most MAXCOL fields; the count. */
static int split_tabs(char *line, char *field[MAXCOL])
{
	int n = 0;

	line[strcspn(line, "\r\n")] = '\0';
	while (n < MAXCOL) {
		field[n++] = line;
		line += strcspn(line, "\t");
		if (*line != '\t')
			break;
		*line++ = '\0';
	}
	return n;
}

/* Index of the column called name in the header, or -1. */
static int column(char *const head[], int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(head[i], name) == 0)
			return i;
	return -1;
}

static double pct(double part, double whole)
{
	return whole > 0 ? 100.0 * part / whole : 0.0;
}

static int coverage(const char *path)
{
	long n = 0, covered = 0, agree = 0, missing = 0;
	long cat_n[NCAT] = {0}, cat_cov[NCAT] = {0}, cat_agree[NCAT] = {0};
	double pages = 0, pages_cov = 0;
	int c_dom = -1, c_cat = -1, c_pages = -1, nf, i;
	FILE *f = fopen(path, "r");
	char *line = NULL, *field[MAXCOL];
	size_t cap = 0;

	if (f == NULL) {
		perror(path);
		return 2;
	}
	while (getline(&line, &cap, f) != -1) {
		const char *ours;
		int want;
		double p;

		nf = split_tabs(line, field);
		if (c_dom < 0) {
			c_dom = column(field, nf, "domain");
			c_cat = column(field, nf, "category");
			c_pages = column(field, nf, "script_pages");
			if (c_dom < 0 || c_cat < 0 || c_pages < 0) {
				fprintf(stderr, "%s: no domain, category and script_pages columns\n", path);
				goto fail;
			}
			continue;
		}
		if (nf <= c_dom || nf <= c_cat || (want = cat_index(field[c_cat])) < 0)
			continue; /* not one of our ids: not scored */
		p = nf > c_pages ? strtod(field[c_pages], NULL) : 0;
		ours = tracker_category(field[c_dom]);
		n++;
		cat_n[want]++;
		pages += p;
		if (ours == NULL) {
			if (missing++ < NMISSING)
				printf("# missing: %s %s %s\n", field[c_dom], field[c_cat],
				    nf > c_pages && *field[c_pages] ? field[c_pages] : "-");
			continue;
		}
		covered++;
		cat_cov[want]++;
		pages_cov += p;
		if (strcmp(ours, field[c_cat]) == 0) {
			agree++;
			cat_agree[want]++;
		} else {
			printf("# differs: %s sample %s, ours %s\n", field[c_dom],
			    field[c_cat], ours);
		}
	}
	for (i = 0; i < NCAT; i++)
		printf("# sample %s: %ld/%ld covered, %ld agree\n", cat_name[i],
		    cat_cov[i], cat_n[i], cat_agree[i]);
	printf("coverage %.1f %ld %ld\n", pct((double)covered, (double)n), covered, n);
	printf("coverage-weighted %.1f\n", pct(pages_cov, pages));
	printf("agreement %.1f %ld %ld\n", pct((double)agree, (double)covered), agree, covered);
	free(line);
	fclose(f);
	return 0;
fail:
	free(line);
	fclose(f);
	return 2;
}

/*
 * source_conflicts.tsv: domains the two sources label differently, left out
 * of the sample.  Prints which source our category sides with, if either.
 */
static int conflicts(const char *path)
{
	long n = 0, unknown = 0, with_tpw = 0, with_ocd = 0, neither = 0;
	int c_dom = -1, c_tpw = -1, c_votes = -1, nf;
	FILE *f = fopen(path, "r");
	char *line = NULL, *field[MAXCOL];
	size_t cap = 0;

	if (f == NULL) {
		perror(path);
		return 2;
	}
	while (getline(&line, &cap, f) != -1) {
		const char *ours, *tpw, *ocd = NULL;
		char *v, *best = NULL;
		long most = -1;

		nf = split_tabs(line, field);
		if (c_dom < 0) {
			c_dom = column(field, nf, "domain");
			c_tpw = column(field, nf, "tpw_category");
			c_votes = column(field, nf, "ocd_votes");
			if (c_dom < 0 || c_tpw < 0 || c_votes < 0) {
				fprintf(stderr, "%s: no domain, tpw_category and ocd_votes columns\n", path);
				free(line);
				fclose(f);
				return 2;
			}
			continue;
		}
		if (nf <= c_dom || nf <= c_tpw || nf <= c_votes)
			continue;
		/* ocd_votes is "label:count;label:count", largest count wins. */
		for (v = strtok(field[c_votes], ";"); v != NULL; v = strtok(NULL, ";")) {
			char *colon = strchr(v, ':');

			if (colon == NULL)
				continue;
			*colon = '\0';
			if (strtol(colon + 1, NULL, 10) > most) {
				most = strtol(colon + 1, NULL, 10);
				best = v;
			}
		}
		if (best != NULL)
			ocd = map_label(best);
		tpw = map_label(field[c_tpw]);
		ours = tracker_category(field[c_dom]);
		n++;
		printf("# conflict: %s third-party-web %s, open-cookie-database %s, ours %s\n",
		    field[c_dom], tpw ? tpw : "-", ocd ? ocd : "-", ours ? ours : "-");
		if (ours == NULL)
			unknown++;
		else if (tpw != NULL && strcmp(ours, tpw) == 0)
			with_tpw++;
		else if (ocd != NULL && strcmp(ours, ocd) == 0)
			with_ocd++;
		else
			neither++;
	}
	printf("conflicts %ld listed: %ld as third-party-web, %ld as open-cookie-database, "
	    "%ld neither, %ld unknown\n", n, with_tpw, with_ocd, neither, unknown);
	free(line);
	fclose(f);
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: test_tracker [--coverage FILE [--conflicts FILE]]\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *cov = NULL, *conf = NULL;
	int i, rc;

	if (argc == 1) {
		unit_checks();
		UNIT_DONE();
	}
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--coverage") == 0 && i + 1 < argc)
			cov = argv[++i];
		else if (strcmp(argv[i], "--conflicts") == 0 && i + 1 < argc)
			conf = argv[++i];
		else
			return usage();
	}
	if (cov == NULL)
		return usage();
	rc = coverage(cov);
	if (rc == 0 && conf != NULL)
		rc = conflicts(conf);
	return rc;
}
