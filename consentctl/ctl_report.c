/* ctl_report.c: consentctl report: one period of a site as a self-contained HTML page, or as JSON. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ctl.h"
#include "config/defaults.h"
#include "admin/report.h"
#include "input/valid.h"

/* The page template (report/, assembled by make with esbuild and uPlot):
 * "" when the build had no node_modules or no esbuild (Makefile). */
extern const char report_template[];

/* Today's UTC date and the time now in the stored form. */
static void
now(char today[11], char iso[32])
{
	struct timespec ts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(today, 11, "%Y-%m-%d", &tm);
	strftime(iso, 32, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(iso + 19, 13, ".%03dZ", (int)(ts.tv_nsec / 1000000L) % 1000);
}

/*
 * The figures of one period (default: the last REPORT_DAYS_DEFAULT days,
 * today included) as JSON with --json, else as the HTML page on stdout.
 * Usage errors (exit 2): the key, the dates.  Failures (exit 1): a build
 * without the template (HTML only), an unknown site, a period without
 * consent entries, the database.
 */
int
cmd_report(struct ctl *c)
{
	const char *key = c->operands[0];
	int json = (c->given & OPT_JSON) != 0, malformed, rc;
	char today[11], at[32], err[200], *html;
	struct report_period p;
	cJSON *config = NULL, *fig = NULL, *doc = NULL;
	struct site site;
	int64_t cap;

	if (ctl_check_key(key) != 0)
		return EXIT_USAGE;
	now(today, at);
	if (report_period(c->since, c->until, today, &p, err, sizeof(err)) != 0)
		return ctl_say(EXIT_USAGE, "%s", err);
	if (!json && report_template[0] == '\0')
		return ctl_say(EXIT_FAIL, "this consentctl was built without the report template "
		    "(no node_modules or esbuild at build time: run npm ci, then make); "
		    "report --json works");
	if (ctl_store(c) == NULL)
		return EXIT_FAIL;
	if ((rc = store_site_get(c->st, key, &site)) != STORE_OK)
		return ctl_store_failed(rc, key);
	rc = EXIT_FAIL;
	/* The built-in document without its texts is enough: the report reads
	 * its categories and scriptRules. */
	if ((config = site.document != NULL ? cJSON_Parse(site.document) : defaults_skeleton()) == NULL) {
		ctl_say(EXIT_FAIL, "the stored config of %s is not valid JSON", key);
		goto out;
	}
	if ((rc = store_report(c->st, key, p.from, p.to, &fig)) != STORE_OK) {
		rc = ctl_store_failed(rc, key);
		goto out;
	}
	rc = EXIT_FAIL;
	cap = valid_cap_in_force(site.mau_cap, getenv("CONSENT_MAU_CAP"), &malformed);
	if (malformed && site.free_tier)
		ctl_say(0, "CONSENT_MAU_CAP is not a non-negative integer; the cap shown is %d",
		    MAU_CAP_DEFAULT);
	if ((doc = report_document(fig, &p, &site, cap, config, at)) == NULL)
		goto out;
	if (cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(doc, "totals"), "entries")) == 0) {
		ctl_say(EXIT_FAIL, "no consent entries for %s from %s to %s (UTC): nothing to report",
		    key, p.since, p.until);
		goto out;
	}
	if (json) {
		rc = ctl_print_json(doc);
		goto out;
	}
	if ((html = report_html(report_template, doc)) == NULL)
		goto out;
	fputs(html, stdout);
	free(html);
	rc = EXIT_OK;
out:
	cJSON_Delete(doc);
	cJSON_Delete(config);
	store_site_clear(&site);
	return rc;
}
