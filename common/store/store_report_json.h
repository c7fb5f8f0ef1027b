/* store_report_json.h: private to the store: the report's figures as JSON, from either backend's rows. */
#ifndef CONSENT_STORE_REPORT_JSON_H
#define CONSENT_STORE_REPORT_JSON_H

/*
 * store_report() reads its figures with SQL of each backend's own
 * (sqlite_report.c: SQLite, pg_report.c: PostgreSQL) but for a few
 * standard clauses both run as they are; the rows' descriptions and what
 * the rows become are here, once, so that both give the same document.
 * Only those two files include this header.
 */

#include <stdint.h>

#include <cjson/cJSON.h>

#include "store/store.h"

/* A decision is an entry other than an impression.  The decisions by
 * action: ACTIONS, the counts of an aggregate over entries, are members of
 * the totals, the daily rows and the splits. */
#define DECISION " AND event_type <> 'impression'"
#define ACTIONS \
	" count(*) FILTER (WHERE event_type <> 'impression' AND event_action = 'opt_in') AS opt_in," \
	" count(*) FILTER (WHERE event_type <> 'impression' AND event_action = 'opt_out') AS opt_out," \
	" count(*) FILTER (WHERE event_type <> 'impression' AND event_action = 'partial') AS partial," \
	" count(*) FILTER (WHERE event_type <> 'impression' AND event_action = 'acknowledge')" \
	" AS acknowledge"
#define ACTION_NAMES "opt_in", "opt_out", "partial", "acknowledge"
#define NACTION_NAMES 4
#define ACTION_COLUMN_LIST \
	{"opt_in", ST_INT, 0}, {"opt_out", ST_INT, 0}, {"partial", ST_INT, 0}, \
	{"acknowledge", ST_INT, 0}

/*
 * Time to action of the decisions that sent it, counted in the totals
 * (and taken out of them by report_json_add_tta): how many, and how many
 * fall below each bound of report_json_tta_bounds but the first, from
 * which the buckets (milliseconds: bucket i holds [bound i, bound i + 1),
 * the last one everything from its bound on) are the differences.
 */
#define TTA_NBOUNDS 7
extern const int report_json_tta_bounds[TTA_NBOUNDS];
#define TTA_NAMES \
	"tta_count", "tta_below_1", "tta_below_2", "tta_below_3", "tta_below_4", \
	"tta_below_5", "tta_below_6"
#define TTA_COLUMN_LIST \
	{"tta_count", ST_INT, 0}, {"tta_below_1", ST_INT, 0}, {"tta_below_2", ST_INT, 0}, \
	{"tta_below_3", ST_INT, 0}, {"tta_below_4", ST_INT, 0}, {"tta_below_5", ST_INT, 0}, \
	{"tta_below_6", ST_INT, 0}

/* The splits by the banner's resolved language: the impressions too. */
#define LANGUAGE_COLUMN_LIST \
	{"key", ST_TEXT, 0}, {"impressions", ST_INT, 0}, {"decisions", ST_INT, 0}, \
	ACTION_COLUMN_LIST

/*
 * What became of each visitor of the period, from its row of the
 * visitors' aggregate (last: the id of its last decision, shown: how many
 * times it was shown the banner, an impression that is not a returning
 * visitor's monthly one, SDK.md 6) joined to that decision (e): the
 * decision's action ("decided" for one without), else "no_decision" when
 * it was shown the banner, else "returning" (it had decided before).
 */
#define SHOWN \
	" count(*) FILTER (WHERE event_type = 'impression'" \
	" AND coalesce(interaction, '') <> 'returning_visitor') AS shown"
#define OUTCOME \
	" CASE WHEN last.id IS NOT NULL THEN coalesce(e.event_action, 'decided')" \
	" WHEN last.shown > 0 THEN 'no_decision' ELSE 'returning' END"

/* categories: first rows with category null count the visitors by
 * outcome (report_json_visitors), then one row per category id (outcome
 * null). */
#define CATEGORY_COLUMN_LIST \
	{"category", ST_TEXT, 0}, {"outcome", ST_TEXT, 0}, {"visitors", ST_INT, 0}, \
	{"allowed", ST_INT, 0}
/* mau: the monthly visitors of the months the period touches. */
#define MAU_COLUMN_LIST {"month", ST_TEXT, 0}, {"visitors", ST_INT, 0}
/* scripts: the script records seen in the period. */
#define SEEN_SCRIPT_COLUMN_LIST \
	{"domain", ST_TEXT, 0}, {"category", ST_TEXT, 0}, {"blocked", ST_BOOL, 0}, \
	{"first_seen", ST_TEXT, 0}, {"last_seen", ST_TEXT, 0}, \
	{"seen_count", ST_INT, 0}, {"last_page_url", ST_TEXT, 0}

/* store_row_fn: a copy of each row appended to the array arg. */
int report_json_collect(const cJSON *row, void *arg);

/* totals.visitors and outcomes ({visitors, decided, ACTION_NAMES,
 * no_decision, returning}: visitors by what became of them, OUTCOME) from
 * the rows of out's categories whose category is null, which it takes out
 * of them: STORE_OK or STORE_ERROR (reported). */
int report_json_visitors(cJSON *out);

/*
 * Where the median of the times to action is: the mean of the take (one
 * or two) middle values, after skip others, among the values in
 * [from, to) (-1: no bound), the buckets that hold the middle ones, in
 * descending order (down) or ascending, whichever skips fewer: a query
 * that orders with a LIMIT sorts part of one bucket, not every value.
 */
struct report_json_median {
	int64_t take, skip;
	int down;
	int from, to;
};

/* Read the median as m says into *ms, *none 1 when the query found no
 * value: STORE_OK, or STORE_ERROR (reported).  arg is the backend's. */
typedef int (*report_json_median_fn)(struct store *st, const void *arg,
                                     const struct report_json_median *m, double *ms,
                                     int *none);

/*
 * time_to_action into out: {count, median_ms, buckets: [{from_ms, to_ms
 * (null for the last), count}]}, every bucket, empty ones with 0, from the
 * counts out's totals carry (TTA_NAMES), which it takes out of them; the
 * median (null for no time) read by median.  STORE_OK or STORE_ERROR
 * (reported).
 */
int report_json_add_tta(struct store *st, cJSON *out, report_json_median_fn median,
                        const void *arg);

#endif
