/* sqlite_report.c: the SQLite store's aggregates of one period of a site (consentctl report). */
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/nitems.h"
#include "store/store_report_json.h"
#include "store/sqlite/sqlite_store.h"

/*
 * Every statement reads one site (?1) and one period, created_at in
 * [?2, ?3), and every figure is an aggregate over those rows.  The SQL is
 * standard (FILTER, window functions) but for json_each, the one way to
 * look into the stored categories object (PostgreSQL: jsonb_each).
 *
 * Each statement comes in two forms, as the period's rows are best found:
 * BY_INDEX walks the index consent_log(site_id, created_at), one table
 * lookup per row; BY_ROWID walks the table itself between the smallest
 * and largest id of those rows (?11, ?12; the index gives both without a
 * lookup), the unary plus keeping SQLite off the index.  Entries are
 * stored in time order, so when the site's rows are at least half of that
 * span (a site with most of the log) the walk reads mostly its own rows,
 * in order, three to five times faster than the lookups (docs/performance.md
 * has the measurement).
 */
#define BY_INDEX " FROM consent_log WHERE site_id = ?1 AND created_at >= ?2 AND created_at < ?3"
#define BY_ROWID " FROM consent_log WHERE id BETWEEN ?11 AND ?12" \
	" AND +site_id = ?1 AND +created_at >= ?2 AND +created_at < ?3"
#define BOTH(sql) {sql(BY_INDEX), sql(BY_ROWID)}

/* Time to action (TTA_NAMES, store_report_json.h): how many decisions
 * sent it, and how many fall below each bound but the first (?5 to ?10):
 * one comparison per bound and row. */
#define TTA \
	" count(time_to_action_ms) FILTER (WHERE event_type <> 'impression') AS tta_count," \
	" count(*) FILTER (WHERE event_type <> 'impression' AND time_to_action_ms < ?5) AS tta_below_1," \
	" count(*) FILTER (WHERE event_type <> 'impression' AND time_to_action_ms < ?6) AS tta_below_2," \
	" count(*) FILTER (WHERE event_type <> 'impression' AND time_to_action_ms < ?7) AS tta_below_3," \
	" count(*) FILTER (WHERE event_type <> 'impression' AND time_to_action_ms < ?8) AS tta_below_4," \
	" count(*) FILTER (WHERE event_type <> 'impression' AND time_to_action_ms < ?9) AS tta_below_5," \
	" count(*) FILTER (WHERE event_type <> 'impression' AND time_to_action_ms < ?10) AS tta_below_6"

/* The median (struct report_json_median): the mean of the middle one or
 * two values, ?13 of them after ?14, among the values in [?15, ?16) (NULL:
 * no bound), in ascending or descending order: SQLite's ORDER BY with
 * LIMIT keeps only the rows it skips and takes, so the sort is of part of
 * one bucket, not of every value. */
#define MEDIAN_SQL(period, order) \
	"SELECT avg(ms) FROM (SELECT time_to_action_ms AS ms" period DECISION \
	" AND time_to_action_ms IS NOT NULL" \
	" AND (?15 IS NULL OR time_to_action_ms >= ?15)" \
	" AND (?16 IS NULL OR time_to_action_ms < ?16)" \
	" ORDER BY 1 " order " LIMIT ?13 OFFSET ?14) AS t"
static const char *const median_sql[2][2] = {
	{MEDIAN_SQL(BY_INDEX, "ASC"), MEDIAN_SQL(BY_INDEX, "DESC")},
	{MEDIAN_SQL(BY_ROWID, "ASC"), MEDIAN_SQL(BY_ROWID, "DESC")},
};

/* How many rows, and the span of their ids, from the index alone. */
static const char span_sql[] = "SELECT count(*), min(id), max(id)" BY_INDEX;

/*
 * The period's entries grouped by day, region, device, browser, banner
 * position and the banner's resolved language, each group's counts beside it, into a table of this
 * connection (TEMP, in memory; dropped at the end of the report): one
 * sort of the period's rows (SQLite groups by sorting) for the totals,
 * the daily rows and the five splits, which then sum its few thousand
 * groups, cheaper than a sort each.  NULL (not sent, not known) is a group
 * of its own.
 */
#define GROUPS_SQL(period) \
	"CREATE TEMP TABLE report_groups AS" \
	" SELECT substr(created_at, 1, 10) AS day, region, device_type, browser," \
	" banner_position, resolved_language, count(*) AS entries," \
	" count(*) FILTER (WHERE event_type = 'impression') AS impressions," \
	" count(*) FILTER (WHERE event_type <> 'impression') AS decisions," ACTIONS "," \
	" count(*) FILTER (WHERE gpc = 1) AS gpc_sent," \
	" count(*) FILTER (WHERE gpc = 0) AS gpc_not_sent," \
	" count(*) FILTER (WHERE gpc IS NULL) AS gpc_not_recorded," TTA \
	period " GROUP BY 1, 2, 3, 4, 5, 6"
static const char *const groups_sql[2] = BOTH(GROUPS_SQL);
#define SUM(col) " coalesce(sum(" col "), 0) AS " col
#define SUM_ACTIONS SUM("opt_in") "," SUM("opt_out") "," SUM("partial") "," SUM("acknowledge")

static const struct store_column totals_columns[] = {
	{"entries", ST_INT, 0}, {"impressions", ST_INT, 0}, {"decisions", ST_INT, 0},
	ACTION_COLUMN_LIST,
	{"gpc_sent", ST_INT, 0}, {"gpc_not_sent", ST_INT, 0}, {"gpc_not_recorded", ST_INT, 0},
	TTA_COLUMN_LIST,
};
static const char totals_sql[] =
    "SELECT" SUM("entries") "," SUM("impressions") "," SUM("decisions") "," SUM_ACTIONS ","
    SUM("gpc_sent") "," SUM("gpc_not_sent") "," SUM("gpc_not_recorded") ","
    SUM("tta_count") "," SUM("tta_below_1") "," SUM("tta_below_2") "," SUM("tta_below_3") ","
    SUM("tta_below_4") "," SUM("tta_below_5") "," SUM("tta_below_6")
    " FROM temp.report_groups";

static const struct store_column daily_columns[] = {
	{"day", ST_TEXT, 0}, {"impressions", ST_INT, 0}, {"decisions", ST_INT, 0},
	ACTION_COLUMN_LIST,
};
static const char daily_sql[] =
    "SELECT day AS day," SUM("impressions") "," SUM("decisions") "," SUM_ACTIONS
    " FROM temp.report_groups GROUP BY day ORDER BY 1";

/* The decisions split by one column of the entry, the largest group first:
 * the groups with a decision summed by that column.  By language, the
 * impressions too, and every language shown or decided in. */
static const struct store_column split_columns[] = {
	{"key", ST_TEXT, 0}, {"decisions", ST_INT, 0}, ACTION_COLUMN_LIST,
};
static const struct store_column language_columns[] = { LANGUAGE_COLUMN_LIST };
#define SPLIT_SQL(col) \
	"SELECT " col " AS key," SUM("decisions") "," SUM_ACTIONS \
	" FROM temp.report_groups GROUP BY " col " HAVING sum(decisions) > 0 ORDER BY 2 DESC, 1"
static const char language_sql[] =
    "SELECT resolved_language AS key," SUM("impressions") "," SUM("decisions") "," SUM_ACTIONS
    " FROM temp.report_groups GROUP BY resolved_language ORDER BY 3 DESC, 1";
static const struct split {
	const char *name;
	const char *sql;
	const struct store_column *cols;
	size_t ncols;
} splits[] = {
	{"by_region", SPLIT_SQL("region"), split_columns, nitems(split_columns)},
	{"by_device", SPLIT_SQL("device_type"), split_columns, nitems(split_columns)},
	{"by_browser", SPLIT_SQL("browser"), split_columns, nitems(split_columns)},
	{"by_position", SPLIT_SQL("banner_position"), split_columns, nitems(split_columns)},
	{"by_language", language_sql, language_columns, nitems(language_columns)},
};

/* Each visitor of the period (hashed id) with the id of its last decision,
 * the one stored last (ids grow in storage order), and whether it was
 * shown the banner (an impression but a returning visitor's), then those
 * decisions counted by their categories object and action (NULL: the
 * visitors who did not decide), so that each distinct object is read
 * once: first rows with category NULL count the visitors by outcome
 * (OUTCOME); then, per category id, the visitors whose last decision
 * names it and how many of them it allows.  One sort by visitor, one
 * lookup per visitor who decided, one sort by object. */
static const struct store_column category_columns[] = { CATEGORY_COLUMN_LIST };
#define CATEGORIES_SQL(period) \
	"WITH last AS (SELECT max(id) FILTER (WHERE event_type <> 'impression') AS id," SHOWN \
	period " GROUP BY anon_id_hash)," \
	" objects AS (SELECT e.categories AS object," OUTCOME " AS outcome, count(*) AS n" \
	" FROM last LEFT JOIN consent_log AS e ON e.id = last.id GROUP BY 1, 2)" \
	" SELECT NULL AS category, outcome, sum(n) AS visitors, 0 AS allowed" \
	" FROM objects GROUP BY outcome" \
	" UNION ALL" \
	" SELECT c.key AS category, NULL AS outcome, sum(n) AS visitors," \
	" coalesce(sum(n) FILTER (WHERE c.type = 'true'), 0) AS allowed" \
	" FROM objects," \
	" json_each(CASE WHEN json_valid(object) THEN object ELSE '{}' END) AS c" \
	" WHERE object IS NOT NULL GROUP BY c.key ORDER BY 1, 2"
static const char *const categories_sql[2] = BOTH(CATEGORIES_SQL);

/* Monthly visitors of the months the period touches (?4: its first month). */
static const struct store_column mau_columns[] = { MAU_COLUMN_LIST };
static const char mau_sql[] =
    "SELECT month AS month, visitors AS visitors FROM mau_counts"
    " WHERE site_id = ?1 AND month >= ?4 AND month || '-01T00:00:00.000Z' < ?3"
    " ORDER BY month";

/* The script records seen in the period (first seen before its end, last
 * seen after its start). */
static const struct store_column script_columns[] = { SEEN_SCRIPT_COLUMN_LIST };
static const char scripts_sql[] =
    "SELECT domain AS domain, category AS category, blocked AS blocked,"
    " first_seen AS first_seen, last_seen AS last_seen, seen_count AS seen_count,"
    " last_page_url AS last_page_url FROM scripts"
    " WHERE site_id = ?1 AND first_seen < ?3 AND last_seen >= ?2 ORDER BY domain";

/* One report's site, period and the way to its rows. */
struct period {
	int64_t id;
	const char *from, *to;
	int by_rowid;        /* 1: BY_ROWID between lo and hi */
	int64_t lo, hi;
};

/* A statement of the report with its period bound: ?1 the site, ?2 and ?3
 * the period, ?4 its first month, ?5 to ?10 the bounds of time to action,
 * ?11 and ?12 the span of ids (the caller binds the others). */
static sqlite3_stmt *
prepare(struct store *st, const char *sql, const struct period *p)
{
	sqlite3_stmt *q = NULL;
	int n, i;

	if (sqlite_db_prepare(st->db, sql, &q) != 0)
		return NULL;
	if ((n = sqlite3_bind_parameter_count(q)) >= 3) {  /* none over temp tables */
		sqlite3_bind_int64(q, 1, p->id);
		sqlite_db_bind_text(q, 2, p->from);
		sqlite_db_bind_text(q, 3, p->to);
	}
	if (n >= 4)  /* "YYYY-MM", copied */
		sqlite3_bind_text(q, 4, p->from, 7, SQLITE_TRANSIENT);
	if (n >= 10)  /* the bounds of time to action but the first */
		for (i = 1; i < TTA_NBOUNDS; i++)
			sqlite3_bind_int(q, i + 4, report_json_tta_bounds[i]);
	if (n >= 12) {
		sqlite3_bind_int64(q, 11, p->lo);
		sqlite3_bind_int64(q, 12, p->hi);
	}
	return q;
}

/* Run sql and add its one row (rows == 0) or its rows as an array
 * (rows == 1) to out as member name. */
static int
add_query(struct store *st, cJSON *out, const char *name, const char *sql, int rows,
          const struct store_column *cols, size_t n, const struct period *p)
{
	sqlite3_stmt *q = prepare(st, sql, p);
	cJSON *v = NULL;
	int rc;

	if (q == NULL)
		return STORE_ERROR;
	if (rows) {
		if ((v = cJSON_CreateArray()) == NULL)
			rc = STORE_ERROR;
		else
			rc = sqlite_walk(st, q, cols, n, report_json_collect, v, name);
	} else {
		rc = sqlite_one_row(st, q, cols, n, &v, name);
		if (rc == STORE_NOTFOUND)  /* an aggregate always has a row */
			rc = STORE_ERROR;
	}
	sqlite3_finalize(q);
	if (rc == STORE_OK && !cJSON_AddItemToObject(out, name, v)) {
		log_error("out of memory");
		rc = STORE_ERROR;
	}
	if (rc != STORE_OK)
		cJSON_Delete(v);
	return rc;
}

/* How to reach the period's rows (struct period): by the ids' span when
 * the site's rows are at least half of it. */
static int
choose_walk(struct store *st, struct period *p)
{
	sqlite3_stmt *q = prepare(st, span_sql, p);
	int64_t n;
	int rc;

	if (q == NULL)
		return STORE_ERROR;
	if ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		n = sqlite3_column_int64(q, 0);
		p->lo = sqlite3_column_int64(q, 1);
		p->hi = sqlite3_column_int64(q, 2);
		p->by_rowid = n > 0 && 2 * n >= p->hi - p->lo + 1;
	}
	sqlite3_finalize(q);
	if (rc != SQLITE_ROW) {
		sqlite_db_log(st->db, "report");
		return STORE_ERROR;
	}
	return STORE_OK;
}

/* report_json_median_fn: the median as m says, over the period arg. */
static int
median(struct store *st, const void *arg, const struct report_json_median *m, double *ms,
       int *none)
{
	const struct period *p = arg;
	sqlite3_stmt *q;

	if ((q = prepare(st, median_sql[p->by_rowid][m->down], p)) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(q, 13, m->take);
	sqlite3_bind_int64(q, 14, m->skip);
	if (m->from >= 0)
		sqlite3_bind_int(q, 15, m->from);
	if (m->to >= 0)
		sqlite3_bind_int(q, 16, m->to);
	if (sqlite3_step(q) != SQLITE_ROW) {
		sqlite_db_log(st->db, "report median");
		sqlite3_finalize(q);
		return STORE_ERROR;
	}
	*none = sqlite3_column_type(q, 0) == SQLITE_NULL;
	*ms = sqlite3_column_double(q, 0);
	sqlite3_finalize(q);
	return STORE_OK;
}

/* temp.report_groups (GROUPS_SQL) for the period. */
static int
group_entries(struct store *st, const struct period *p)
{
	sqlite3_stmt *q = prepare(st, groups_sql[p->by_rowid], p);
	int rc;

	if (q == NULL)
		return STORE_ERROR;
	rc = sqlite3_step(q);
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE) {
		sqlite_db_log(st->db, "report groups");
		return STORE_ERROR;
	}
	return STORE_OK;
}

/* categories, and totals.visitors and outcomes from its rows whose
 * category is null. */
static int
add_categories(struct store *st, cJSON *out, const struct period *p)
{
	int rc;

	if ((rc = add_query(st, out, "categories", categories_sql[p->by_rowid], 1,
	    category_columns, nitems(category_columns), p)) != STORE_OK)
		return rc;
	return report_json_visitors(out);
}

int
sqlite_store_report(struct store *st, const char *key, const char *from, const char *to,
                    cJSON **out)
{
	struct period p = {0, from, to, 0, 0, 0};
	cJSON *r = NULL;
	size_t i;
	int rc;

	*out = NULL;
	if ((rc = sqlite_site_id(st, key, &p.id)) != STORE_OK)
		return rc;
	/* Sorts (GROUP BY) and the TEMP table in memory, and the file read
	 * through mmap, so that the rows each statement reads again cost no
	 * copy (sys time over 1M entries 1.2 s -> 0.2 s; a larger cache_size
	 * for the sorts measured no faster).  Then one read transaction: every
	 * figure sees the same log. */
	if (sqlite3_exec(st->db, "PRAGMA temp_store = MEMORY; PRAGMA mmap_size = 4294967296;"
	    " BEGIN", NULL, NULL, NULL) != SQLITE_OK) {
		sqlite_db_log(st->db, "report");
		return STORE_ERROR;
	}
	if ((rc = choose_walk(st, &p)) != STORE_OK)
		goto out;
	rc = STORE_ERROR;
	if ((r = cJSON_CreateObject()) == NULL) {
		log_error("out of memory");
		goto out;
	}
	if ((rc = group_entries(st, &p)) != STORE_OK ||
	    (rc = add_query(st, r, "totals", totals_sql, 0, totals_columns,
	    nitems(totals_columns), &p)) != STORE_OK ||
	    (rc = add_query(st, r, "daily", daily_sql, 1, daily_columns,
	    nitems(daily_columns), &p)) != STORE_OK)
		goto out;
	for (i = 0; i < nitems(splits); i++)
		if ((rc = add_query(st, r, splits[i].name, splits[i].sql, 1,
		    splits[i].cols, splits[i].ncols, &p)) != STORE_OK)
			goto out;
	if ((rc = add_categories(st, r, &p)) != STORE_OK ||
	    (rc = report_json_add_tta(st, r, median, &p)) != STORE_OK ||
	    (rc = add_query(st, r, "mau", mau_sql, 1, mau_columns,
	    nitems(mau_columns), &p)) != STORE_OK ||
	    (rc = add_query(st, r, "scripts", scripts_sql, 1, script_columns,
	    nitems(script_columns), &p)) != STORE_OK)
		goto out;
	*out = r;
	r = NULL;
out:
	sqlite3_exec(st->db, "DROP TABLE IF EXISTS temp.report_groups", NULL, NULL, NULL);
	sqlite3_exec(st->db, "COMMIT", NULL, NULL, NULL);
	cJSON_Delete(r);
	return rc;
}
