/* pg_report.c: the PostgreSQL store's aggregates of one period of a site (consentctl report). */
#include <stdlib.h>

#include "base/log.h"
#include "base/nitems.h"
#include "store/pg/pg_store.h"
#include "store/store_report_json.h"

/*
 * The figures of sqlite_report.c, by the same aggregates, read in one
 * snapshot (REPEATABLE READ READ ONLY): every statement sees the same log.
 * Every statement reads one site ($1) and one period, created_at in
 * [$2, $3): times compare as text, byte-wise (the schema's COLLATE "C"),
 * as in SQLite.  SQLite's choice between two walks of the rows (the index,
 * or the span of ids) is not needed: PostgreSQL's planner makes it.
 */
#define PERIOD " FROM consent_log WHERE site_id = $1::bigint AND created_at >= $2 AND created_at < $3"

/* Time to action (TTA_NAMES, store_report_json.h), as sqlite_report.c
 * counts it: how many decisions sent it, and how many fall below each
 * bound but the first ($4 to $9). */
#define TTA \
	" count(time_to_action_ms) FILTER (WHERE event_type <> 'impression') AS tta_count," \
	" count(*) FILTER (WHERE event_type <> 'impression' AND time_to_action_ms < $4::integer)" \
	" AS tta_below_1," \
	" count(*) FILTER (WHERE event_type <> 'impression' AND time_to_action_ms < $5::integer)" \
	" AS tta_below_2," \
	" count(*) FILTER (WHERE event_type <> 'impression' AND time_to_action_ms < $6::integer)" \
	" AS tta_below_3," \
	" count(*) FILTER (WHERE event_type <> 'impression' AND time_to_action_ms < $7::integer)" \
	" AS tta_below_4," \
	" count(*) FILTER (WHERE event_type <> 'impression' AND time_to_action_ms < $8::integer)" \
	" AS tta_below_5," \
	" count(*) FILTER (WHERE event_type <> 'impression' AND time_to_action_ms < $9::integer)" \
	" AS tta_below_6"

/* The parameters of figures_sql: the site, the period, the bounds. */
#define NPARAMS (3 + TTA_NBOUNDS - 1)

/*
 * The totals, the daily rows and the five splits in one statement, one
 * read of the period's entries: grouped by day, region, device, browser,
 * banner position and resolved language into g (what SQLite keeps in a TEMP table, which
 * pgbouncer's transaction pooling rules out: here a CTE made once and
 * read by each figure), then each figure a sum over those groups, its
 * rows marked with its part (the index in parts[]), in the figure's own
 * order: the days oldest first, the splits largest first, then by key
 * with NULL (not sent, not known: a group of its own) first, as SQLite
 * sorts it.  sum() of a bigint is numeric: cast back to an integer.
 */
#define SUM(col) " coalesce(sum(" col "), 0)::bigint AS " col
#define SUMS \
	SUM("entries") "," SUM("impressions") "," SUM("decisions") "," SUM("opt_in") "," \
	SUM("opt_out") "," SUM("partial") "," SUM("acknowledge") "," SUM("gpc_sent") "," \
	SUM("gpc_not_sent") "," SUM("gpc_not_recorded") "," SUM("tta_count") "," \
	SUM("tta_below_1") "," SUM("tta_below_2") "," SUM("tta_below_3") "," \
	SUM("tta_below_4") "," SUM("tta_below_5") "," SUM("tta_below_6")
#define PART(n, col, having) \
	" UNION ALL SELECT " #n " AS part, " col " AS key," SUMS " FROM g GROUP BY " col having
#define SPLIT " HAVING sum(decisions) > 0"
static const char figures_sql[] =
    "WITH g AS MATERIALIZED (SELECT substr(created_at, 1, 10) AS day, region, device_type,"
    " browser, banner_position, resolved_language, count(*) AS entries,"
    " count(*) FILTER (WHERE event_type = 'impression') AS impressions,"
    " count(*) FILTER (WHERE event_type <> 'impression') AS decisions," ACTIONS ","
    " count(*) FILTER (WHERE gpc = 1) AS gpc_sent,"
    " count(*) FILTER (WHERE gpc = 0) AS gpc_not_sent,"
    " count(*) FILTER (WHERE gpc IS NULL) AS gpc_not_recorded," TTA
    PERIOD " GROUP BY 1, 2, 3, 4, 5, 6)"
    " SELECT * FROM (SELECT 0 AS part, NULL::text COLLATE \"C\" AS key," SUMS " FROM g"
    PART(1, "day", "")
    PART(2, "region", SPLIT)
    PART(3, "device_type", SPLIT)
    PART(4, "browser", SPLIT)
    PART(5, "banner_position", SPLIT)
    PART(6, "resolved_language", "")
    ") AS f ORDER BY part, CASE part WHEN 1 THEN 0 ELSE decisions END DESC,"
    " key COLLATE \"C\" NULLS FIRST";
static const struct store_column figure_columns[] = {
	{"part", ST_INT, 0}, {"key", ST_TEXT, 0},
	{"entries", ST_INT, 0}, {"impressions", ST_INT, 0}, {"decisions", ST_INT, 0},
	ACTION_COLUMN_LIST,
	{"gpc_sent", ST_INT, 0}, {"gpc_not_sent", ST_INT, 0}, {"gpc_not_recorded", ST_INT, 0},
	TTA_COLUMN_LIST,
};

/* What each part of figures_sql becomes in the report, with the members
 * sqlite_report.c gives it, in its order. */
static const char *const totals_members[] = {
	"entries", "impressions", "decisions", ACTION_NAMES,
	"gpc_sent", "gpc_not_sent", "gpc_not_recorded", TTA_NAMES, NULL,
};
static const char *const daily_members[] = {"impressions", "decisions", ACTION_NAMES, NULL};
static const char *const split_members[] = {"decisions", ACTION_NAMES, NULL};
static const char *const language_members[] = {"impressions", "decisions", ACTION_NAMES, NULL};
static const struct part {
	const char *name;              /* its member of the report */
	const char *key;               /* the name of its key; NULL: one object, no key */
	const char *const *members;    /* NULL-terminated */
} parts[] = {
	{"totals", NULL, totals_members},
	{"daily", "day", daily_members},
	{"by_region", "key", split_members},
	{"by_device", "key", split_members},
	{"by_browser", "key", split_members},
	{"by_position", "key", split_members},
	{"by_language", "key", language_members},
};
#define NPARTS (nitems(parts))

/*
 * Each visitor of the period (hashed id) with the id of its last
 * decision, the one stored last (identity values grow in the order the
 * entries are inserted, as SQLite's rowid; migrate keeps them), and
 * whether it was shown the banner, then those decisions counted by their
 * categories object and action, as sqlite_report.c does: first rows with
 * category NULL count the visitors by outcome (OUTCOME); then, per category id
 * (ordered byte-wise), the visitors whose last decision names it and how
 * many of them it allows (its value is the literal true: SQLite's type
 * 'true').  json, not jsonb: json_each gives the members as written,
 * repeats included, as SQLite's json_each does.  A stored text that is a
 * JSON value but not an object names no category (the endpoint stores
 * only objects); one that is not JSON at all fails the report, where
 * SQLite counts it as '{}': PostgreSQL before 16 has no json_valid.
 */
static const struct store_column category_columns[] = { CATEGORY_COLUMN_LIST };
static const char categories_sql[] =
    "WITH last AS (SELECT max(id) FILTER (WHERE event_type <> 'impression') AS id," SHOWN
    PERIOD " GROUP BY anon_id_hash),"
    " objects AS (SELECT e.categories AS object," OUTCOME " AS outcome, count(*) AS n"
    " FROM last LEFT JOIN consent_log AS e ON e.id = last.id GROUP BY 1, 2)"
    " SELECT NULL::text COLLATE \"C\" AS category, outcome::text AS outcome,"
    " sum(n)::bigint AS visitors, 0::bigint AS allowed FROM objects GROUP BY outcome"
    " UNION ALL"
    " SELECT c.key COLLATE \"C\" AS category, NULL::text AS outcome, sum(n)::bigint AS visitors,"
    " coalesce(sum(n) FILTER (WHERE c.value::text = 'true'), 0)::bigint AS allowed"
    " FROM objects,"
    " json_each(CASE WHEN json_typeof(object::json) = 'object' THEN object::json"
    " ELSE '{}'::json END) AS c"
    " WHERE object IS NOT NULL GROUP BY 1 ORDER BY 1 NULLS FIRST, 2";

/*
 * The median (struct report_json_median): the mean of the middle one or
 * two values, $4 of them after $5, among the values in [$6, $7) (NULL: no
 * bound), in ascending or descending order: ORDER BY with LIMIT keeps only
 * the rows it skips and takes (a bounded sort), and avg() of doubles is
 * their sum divided by their count, as SQLite's.
 */
#define MEDIAN_SQL(order) \
	"SELECT avg(ms) AS median_ms FROM (SELECT time_to_action_ms AS ms" PERIOD DECISION \
	" AND time_to_action_ms IS NOT NULL" \
	" AND ($6::integer IS NULL OR time_to_action_ms >= $6::integer)" \
	" AND ($7::integer IS NULL OR time_to_action_ms < $7::integer)" \
	" ORDER BY 1 " order " LIMIT $4::bigint OFFSET $5::bigint) AS t"
static const char *const median_sql[2] = {MEDIAN_SQL("ASC"), MEDIAN_SQL("DESC")};

/* Monthly visitors of the months the period touches (from the month of
 * $2): each month's count is the sum of its slots (schema_pg.sql). */
static const struct store_column mau_columns[] = { MAU_COLUMN_LIST };
static const char mau_sql[] =
    "SELECT month AS month, sum(visitors)::bigint AS visitors FROM mau_counts"
    " WHERE site_id = $1::bigint AND month >= left($2, 7)"
    " AND month || '-01T00:00:00.000Z' < $3"
    " GROUP BY month ORDER BY month";

/* The script records seen in the period (first seen before its end, last
 * seen after its start). */
static const struct store_column script_columns[] = { SEEN_SCRIPT_COLUMN_LIST };
static const char scripts_sql[] =
    "SELECT domain AS domain, category AS category, blocked AS blocked,"
    " first_seen AS first_seen, last_seen AS last_seen, seen_count AS seen_count,"
    " last_page_url AS last_page_url FROM scripts"
    " WHERE site_id = $1::bigint AND first_seen < $3 AND last_seen >= $2 ORDER BY domain";

/* The rows of sql (parameters: the site and the period) as the array
 * member name of out. */
static int
add_rows(struct store *st, cJSON *out, const char *name, const char *sql,
         const struct store_column *cols, size_t n, const char *const *params)
{
	cJSON *arr = cJSON_AddArrayToObject(out, name);

	if (arr == NULL) {
		log_error("out of memory");
		return STORE_ERROR;
	}
	return pg_rows(st, sql, 3, params, cols, n, report_json_collect, arr, name);
}

/* Move member from of row into o as member to: 0, or -1 (absent, or out
 * of memory). */
static int
move_member(cJSON *row, const char *from, cJSON *o, const char *to)
{
	cJSON *v = cJSON_DetachItemFromObjectCaseSensitive(row, from);

	if (v == NULL || !cJSON_AddItemToObject(o, to, v)) {
		cJSON_Delete(v);
		return -1;
	}
	return 0;
}

/* Part p's members of a row of figures_sql (figure_columns), as a new
 * object, which takes them out of row; NULL on failure (reported). */
static cJSON *
pick(cJSON *row, const struct part *p)
{
	cJSON *o = cJSON_CreateObject();
	const char *const *m;

	if (o == NULL || (p->key != NULL && move_member(row, "key", o, p->key) != 0))
		goto fail;
	for (m = p->members; *m != NULL; m++)
		if (move_member(row, *m, o, *m) != 0)
			goto fail;
	return o;
fail:
	log_error("report %s: out of memory", p->name);
	cJSON_Delete(o);
	return NULL;
}

/* totals, daily, by_region, by_device, by_browser, by_position and
 * by_language into
 * out from the rows of figures_sql, which come by part, in order. */
static int
add_figures(struct store *st, cJSON *out, const char *const *params)
{
	PGresult *res = NULL;
	cJSON *arr, *row, *o;
	int rc = STORE_ERROR, r = 0, rows;
	size_t i;

	if (pg_run(st, figures_sql, (int)NPARAMS, params, &res, "report") != STORE_OK)
		return STORE_ERROR;
	rows = PQntuples(res);
	for (i = 0; i < NPARTS; i++) {
		arr = NULL;
		if (parts[i].key != NULL && (arr = cJSON_AddArrayToObject(out, parts[i].name)) == NULL) {
			log_error("out of memory");
			goto out;
		}
		for (; r < rows && strtoll(PQgetvalue(res, r, 0), NULL, 10) == (long long)i; r++) {
			if ((row = pg_row(res, r, figure_columns, nitems(figure_columns))) == NULL)
				goto out;
			o = pick(row, &parts[i]);
			cJSON_Delete(row);
			if (o == NULL)
				goto out;
			if (!(arr != NULL ? cJSON_AddItemToArray(arr, o)
			                  : cJSON_AddItemToObject(out, parts[i].name, o))) {
				cJSON_Delete(o);
				log_error("out of memory");
				goto out;
			}
		}
	}
	/* An aggregate without GROUP BY always has its row. */
	if (r != rows || cJSON_GetObjectItemCaseSensitive(out, "totals") == NULL) {
		log_error("report: the figures came in an unexpected order");
		goto out;
	}
	rc = STORE_OK;
out:
	PQclear(res);
	return rc;
}

/* report_json_median_fn: the median as m says, over the period arg (the
 * site and the period as parameters). */
static int
median(struct store *st, const void *arg, const struct report_json_median *m, double *ms,
       int *none)
{
	const char *const *period = arg;
	char take[24], skip[24], from[24], to[24];
	const char *params[7];
	PGresult *res = NULL;

	params[0] = period[0];
	params[1] = period[1];
	params[2] = period[2];
	params[3] = pg_int_text(take, m->take);
	params[4] = pg_int_text(skip, m->skip);
	params[5] = m->from >= 0 ? pg_int_text(from, m->from) : NULL;
	params[6] = m->to >= 0 ? pg_int_text(to, m->to) : NULL;
	if (pg_run(st, median_sql[m->down], PG_NPARAMS(params), params, &res,
	    "report median") != STORE_OK)
		return STORE_ERROR;
	if (PQntuples(res) != 1) {
		log_error("report median: no row");
		PQclear(res);
		return STORE_ERROR;
	}
	*none = PQgetisnull(res, 0, 0);
	*ms = *none ? 0 : strtod(PQgetvalue(res, 0, 0), NULL);
	PQclear(res);
	return STORE_OK;
}

/* categories, and totals.visitors and outcomes from its rows whose
 * category is null. */
static int
add_categories(struct store *st, cJSON *out, const char *const *period)
{
	int rc;

	if ((rc = add_rows(st, out, "categories", categories_sql, category_columns,
	    nitems(category_columns), period)) != STORE_OK)
		return rc;
	return report_json_visitors(out);
}

int
pg_store_report(struct store *st, const char *key, const char *from, const char *to,
                cJSON **out)
{
	char id[24], bound[TTA_NBOUNDS][24];
	const char *params[NPARAMS];
	cJSON *r = NULL;
	int64_t site;
	size_t i;
	int rc;

	*out = NULL;
	/* One snapshot for every figure.  No JIT for its statements: the
	 * planner cannot know how few groups the entries make, expects as
	 * many as rows, and compiles the aggregates for a cost they never
	 * reach (over 1M entries the report took 5.8 to 6.6 s with it, 4.2 to
	 * 5.1 s without).  SET LOCAL ends with the transaction. */
	if (pg_begin(st, "ISOLATION LEVEL REPEATABLE READ READ ONLY") != 0)
		return STORE_ERROR;
	if (pg_run(st, "SET LOCAL jit = off", 0, NULL, NULL, "report") != STORE_OK) {
		rc = STORE_ERROR;
		goto out;
	}
	if ((rc = pg_site_id(st, key, 0, &site)) != STORE_OK)
		goto out;
	params[0] = pg_int_text(id, site);
	params[1] = from;
	params[2] = to;
	for (i = 1; i < TTA_NBOUNDS; i++)
		params[i + 2] = pg_int_text(bound[i], report_json_tta_bounds[i]);
	rc = STORE_ERROR;
	if ((r = cJSON_CreateObject()) == NULL) {
		log_error("out of memory");
		goto out;
	}
	if ((rc = add_figures(st, r, params)) != STORE_OK ||
	    (rc = add_categories(st, r, params)) != STORE_OK ||
	    (rc = report_json_add_tta(st, r, median, params)) != STORE_OK ||
	    (rc = add_rows(st, r, "mau", mau_sql, mau_columns,
	    nitems(mau_columns), params)) != STORE_OK ||
	    (rc = add_rows(st, r, "scripts", scripts_sql, script_columns,
	    nitems(script_columns), params)) != STORE_OK)
		goto out;
	if (pg_commit(st) != 0) {
		rc = STORE_ERROR;
		goto out;
	}
	*out = r;
	r = NULL;
out:
	pg_rollback(st);   /* nothing once committed */
	cJSON_Delete(r);
	return rc;
}
