/* report.h: consentctl report: the period, the report document and its HTML page. */
#ifndef CONSENT_REPORT_H
#define CONSENT_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "store/store_admin.h"

/* A period of whole UTC days, both ends included. */
struct report_period {
	char since[11], until[11];  /* "YYYY-MM-DD" */
	char from[32], to[32];      /* [from, to) in the log's stored form */
	int days;
};

/*
 * The period from --since and --until (each "YYYY-MM-DD", a real date from
 * 1970 to 9999, or NULL) and today's UTC date (YYYY-MM-DD): without
 * --until it ends today, without --since it starts REPORT_DAYS_DEFAULT - 1
 * days before its end.  Returns 0, or -1 with a message naming the
 * problem in err: a malformed or impossible date, --since after --until,
 * more than REPORT_DAYS_MAX days.
 */
int report_period(const char *since, const char *until, const char *today,
                  struct report_period *p, char *err, size_t errsz);

/*
 * The report document (docs/consentctl.md "The report" gives its shape) from
 * the store's figures (store_report(), consumed whatever happens), the
 * site, the cap in force for a free site, the config whose scriptRules
 * decide which script domains a rule covers (the published document, else
 * the built-in defaults; its category order orders the categories), and
 * the time it was made.  Shares are percentages with one decimal, null
 * where the whole is 0.  NULL when memory runs out (reported).
 */
cJSON *report_document(cJSON *figures, const struct report_period *p,
                       const struct site *site, int64_t cap, const cJSON *config,
                       const char *generated_at);

/*
 * The HTML page: the template tmpl with its one REPORT_MARKER replaced by
 * doc as JSON in which '<', '>', '&', U+2028 and U+2029 are written as
 * \\u escapes, so that no data can end the <script type="application/json">
 * element around the marker.  Returns a new string (caller frees), or NULL
 * when the template has no marker or memory runs out (reported).
 */
#define REPORT_MARKER "@REPORT_JSON@"
char *report_html(const char *tmpl, const cJSON *doc);

/* Today's UTC date and the time now in the stored form. */
void report_now(char today[11], char iso[32]);

/*
 * The report document of site key over period p, made at at: its
 * config (the published one, else the built-in skeleton), store_report()'s
 * figures, and the cap in force (valid_cap_in_force() of the site's own
 * and cap_env, CONSENT_MAU_CAP's value; *cap_malformed when a free site's
 * cap came from a malformed one).  STORE_OK with *doc (caller owns);
 * STORE_NOTFOUND for an unknown site; STORE_ERROR with why in err ("" when
 * reported).
 */
int report_site(struct store *st, const char *key, const struct report_period *p,
                const char *cap_env, const char *at, cJSON **doc, int *cap_malformed,
                char *err, size_t errsz);

#endif
