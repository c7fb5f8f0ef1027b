/* ctl_report.c: consentctl report: one period of a site as a self-contained HTML page, or as JSON. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ctl.h"
#include "base/io.h"
#include "config/defaults.h"
#include "admin/report.h"
#include "input/valid.h"

/* The page template (report/, assembled by make with esbuild and uPlot):
 * "" when the build had no node_modules or no esbuild (Makefile). */
extern const char report_template[];

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
	cJSON *doc = NULL;

	if (ctl_check_key(key) != 0)
		return EXIT_USAGE;
	report_now(today, at);
	if (report_period(c->since, c->until, today, &p, err, sizeof(err)) != 0)
		return ctl_say(EXIT_USAGE, "%s", err);
	if (!json && report_template[0] == '\0')
		return ctl_say(EXIT_FAIL, "this consentctl was built without the report template "
		    "(no node_modules or esbuild at build time: run npm ci, then make); "
		    "report --json works");
	if (ctl_store(c) == NULL)
		return EXIT_FAIL;
	rc = report_site(c->st, key, &p, io_env("CONSENT_MAU_CAP"), at, &doc, &malformed, err,
	    sizeof(err));
	if (malformed)
		ctl_say(0, "CONSENT_MAU_CAP is not a non-negative integer; the cap shown is %d",
		    MAU_CAP_DEFAULT);
	if (rc != STORE_OK) {
		rc = err[0] != '\0' ? ctl_say(EXIT_FAIL, "%s", err) : ctl_store_failed(rc, key);
		goto out;
	}
	rc = EXIT_FAIL;
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
	return rc;
}
