/* test_tracker.c: tracker_category() on chosen domains; --coverage FILE measures the list against a labelled sample. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/nitems.h"
#include "input/tracker.h"
#include "input/tracker_data.h"
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

	for (i = 0; i < nitems(cases); i++)
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

	for (i = 0; i < nitems(map); i++)
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

typedef void row_fn(char *const col[], void *ctx);

/*
 * Call row() for each data line of the TSV at path with the fields of the
 * columns named in names[0..ncols), found by the header line; a line with
 * fewer fields is skipped.  0, or 2 after a message when the file cannot be
 * read or lacks a column.
 */
static int read_tsv(const char *path, const char *const names[], int ncols,
    row_fn *row, void *ctx)
{
	int idx[MAXCOL], nf, i, rc = 0, header = 1;
	char *line = NULL, *field[MAXCOL], *col[MAXCOL];
	size_t cap = 0;
	FILE *f = fopen(path, "r");

	if (f == NULL) {
		perror(path);
		return 2;
	}
	while (getline(&line, &cap, f) != -1) {
		nf = split_tabs(line, field);
		for (i = 0; i < ncols; i++) {
			if (header) {
				for (idx[i] = 0; idx[i] < nf; idx[i]++)
					if (strcmp(field[idx[i]], names[i]) == 0)
						break;
				if (idx[i] == nf) {
					fprintf(stderr, "%s: no column %s\n", path, names[i]);
					rc = 2;
					goto out;
				}
			} else if (idx[i] < nf) {
				col[i] = field[idx[i]];
			} else {
				break;
			}
		}
		if (!header && i == ncols)
			row(col, ctx);
		header = 0;
	}
out:
	free(line);
	fclose(f);
	return rc;
}

static double pct(double part, double whole)
{
	return whole > 0 ? 100.0 * part / whole : 0.0;
}

struct coverage {
	long n, covered, agree, missing;
	long cat_n[NCAT], cat_cov[NCAT], cat_agree[NCAT];
	double pages, pages_cov;
};

/* One row of tracker_domains.tsv: domain, category, script_pages. */
static void coverage_row(char *const col[], void *ctx)
{
	struct coverage *c = ctx;
	int want = cat_index(col[1]);
	double pages = strtod(col[2], NULL);
	const char *ours;

	if (want < 0)
		return; /* not one of our ids: not scored */
	ours = tracker_category(col[0]);
	c->n++;
	c->cat_n[want]++;
	c->pages += pages;
	if (ours == NULL) {
		if (c->missing++ < NMISSING)
			printf("# missing: %s %s %s\n", col[0], col[1], *col[2] ? col[2] : "-");
		return;
	}
	c->covered++;
	c->cat_cov[want]++;
	c->pages_cov += pages;
	if (strcmp(ours, col[1]) == 0) {
		c->agree++;
		c->cat_agree[want]++;
	} else {
		printf("# differs: %s sample %s, ours %s\n", col[0], col[1], ours);
	}
}

/* Prints "coverage PCT N TOTAL", "coverage-weighted PCT", "agreement PCT N COVERED". */
static int coverage(const char *path)
{
	static const char *const names[] = {"domain", "category", "script_pages"};
	struct coverage c;
	int i, rc;

	memset(&c, 0, sizeof(c));
	if ((rc = read_tsv(path, names, 3, coverage_row, &c)) != 0)
		return rc;
	for (i = 0; i < NCAT; i++)
		printf("# sample %s: %ld/%ld covered, %ld agree\n", cat_name[i],
		    c.cat_cov[i], c.cat_n[i], c.cat_agree[i]);
	printf("coverage %.1f %ld %ld\n", pct((double)c.covered, (double)c.n),
	    c.covered, c.n);
	printf("coverage-weighted %.1f\n", pct(c.pages_cov, c.pages));
	printf("agreement %.1f %ld %ld\n", pct((double)c.agree, (double)c.covered),
	    c.agree, c.covered);
	return 0;
}

struct conflicts {
	long n, unknown, with_tpw, with_ocd, neither;
};

/* One row of source_conflicts.tsv: domain, tpw_category, ocd_votes. */
static void conflicts_row(char *const col[], void *ctx)
{
	struct conflicts *c = ctx;
	const char *ours, *tpw, *ocd = NULL;
	char *v, *best = NULL;
	long most = -1, votes;

	/* ocd_votes is "label:count;label:count"; the largest count wins. */
	for (v = strtok(col[2], ";"); v != NULL; v = strtok(NULL, ";")) {
		char *colon = strchr(v, ':');

		if (colon == NULL)
			continue;
		*colon = '\0';
		if ((votes = strtol(colon + 1, NULL, 10)) > most) {
			most = votes;
			best = v;
		}
	}
	if (best != NULL)
		ocd = map_label(best);
	tpw = map_label(col[1]);
	ours = tracker_category(col[0]);
	c->n++;
	printf("# conflict: %s third-party-web %s, open-cookie-database %s, ours %s\n",
	    col[0], tpw ? tpw : "-", ocd ? ocd : "-", ours ? ours : "-");
	if (ours == NULL)
		c->unknown++;
	else if (tpw != NULL && strcmp(ours, tpw) == 0)
		c->with_tpw++;
	else if (ocd != NULL && strcmp(ours, ocd) == 0)
		c->with_ocd++;
	else
		c->neither++;
}

/*
 * source_conflicts.tsv: domains the two sources label differently, left out
 * of the sample, so they count for neither coverage nor agreement.  Prints
 * which source our category sides with, if either.
 */
static int conflicts(const char *path)
{
	static const char *const names[] = {"domain", "tpw_category", "ocd_votes"};
	struct conflicts c;
	int rc;

	memset(&c, 0, sizeof(c));
	if ((rc = read_tsv(path, names, 3, conflicts_row, &c)) != 0)
		return rc;
	printf("conflicts %ld listed: %ld as third-party-web, %ld as "
	    "open-cookie-database, %ld neither, %ld unknown\n",
	    c.n, c.with_tpw, c.with_ocd, c.neither, c.unknown);
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
