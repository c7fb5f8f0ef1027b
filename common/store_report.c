/* store_report.c: the SQLite store's aggregates of one period of a site (consentctl report). */
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "store_sql.h"

/*
 * Every statement reads one site (?1) and one period, created_at in
 * [?2, ?3): the index consent_log(site_id, created_at) gives exactly those
 * rows, and every figure is an aggregate over them.  The SQL is standard
 * (FILTER, window functions, LIMIT) but for json_each, the one way to
 * look into the stored categories object (PostgreSQL: jsonb_each).
 */
#define PERIOD " FROM consent_log WHERE site_id = ?1 AND created_at >= ?2 AND created_at < ?3"
#define DECISION " AND event_type <> 'impression'"
#define ACTIONS \
	" count(*) FILTER (WHERE event_type <> 'impression' AND event_action = 'opt_in') AS opt_in," \
	" count(*) FILTER (WHERE event_type <> 'impression' AND event_action = 'opt_out') AS opt_out," \
	" count(*) FILTER (WHERE event_type <> 'impression' AND event_action = 'partial') AS partial," \
	" count(*) FILTER (WHERE event_type <> 'impression' AND event_action = 'acknowledge')" \
	" AS acknowledge"
#define ACTION_COLUMNS \
	{"opt_in", ST_INT, 0}, {"opt_out", ST_INT, 0}, {"partial", ST_INT, 0}, \
	{"acknowledge", ST_INT, 0}

static const struct store_column totals_columns[] = {
	{"entries", ST_INT, 0}, {"impressions", ST_INT, 0}, {"decisions", ST_INT, 0},
	{"visitors", ST_INT, 0}, ACTION_COLUMNS,
	{"gpc_sent", ST_INT, 0}, {"gpc_not_sent", ST_INT, 0}, {"gpc_not_recorded", ST_INT, 0},
};
static const char totals_sql[] =
    "SELECT count(*) AS entries,"
    " count(*) FILTER (WHERE event_type = 'impression') AS impressions,"
    " count(*) FILTER (WHERE event_type <> 'impression') AS decisions,"
    " count(DISTINCT anon_id_hash) AS visitors," ACTIONS ","
    " count(*) FILTER (WHERE gpc = 1) AS gpc_sent,"
    " count(*) FILTER (WHERE gpc = 0) AS gpc_not_sent,"
    " count(*) FILTER (WHERE gpc IS NULL) AS gpc_not_recorded" PERIOD;

static const struct store_column daily_columns[] = {
	{"day", ST_TEXT, 0}, {"impressions", ST_INT, 0}, {"decisions", ST_INT, 0},
	ACTION_COLUMNS,
};
static const char daily_sql[] =
    "SELECT substr(created_at, 1, 10) AS day,"
    " count(*) FILTER (WHERE event_type = 'impression') AS impressions,"
    " count(*) FILTER (WHERE event_type <> 'impression') AS decisions," ACTIONS
    PERIOD " GROUP BY substr(created_at, 1, 10) ORDER BY 1";

/* The decisions split by one column of the entry, the largest group first;
 * NULL (not sent, not known) is a group of its own. */
static const struct store_column split_columns[] = {
	{"key", ST_TEXT, 0}, {"decisions", ST_INT, 0}, ACTION_COLUMNS,
};
#define SPLIT_SQL(col) \
	"SELECT " col " AS key, count(*) AS decisions," ACTIONS PERIOD DECISION \
	" GROUP BY " col " ORDER BY 2 DESC, 1"
static const struct split {
	const char *name;
	const char *sql;
} splits[] = {
	{"by_region", SPLIT_SQL("region")},
	{"by_device", SPLIT_SQL("device_type")},
	{"by_browser", SPLIT_SQL("browser")},
	{"by_position", SPLIT_SQL("banner_position")},
};

/* Per category id, the visitors whose last decision of the period names it,
 * and how many of them it allows. */
static const struct store_column category_columns[] = {
	{"category", ST_TEXT, 0}, {"visitors", ST_INT, 0}, {"allowed", ST_INT, 0},
};
static const char categories_sql[] =
    "WITH last AS (SELECT categories, row_number() OVER"
    "  (PARTITION BY anon_id_hash ORDER BY created_at DESC, id DESC) AS n"
    PERIOD DECISION " AND json_valid(categories))"
    " SELECT c.key AS category, count(*) AS visitors,"
    " count(*) FILTER (WHERE c.type = 'true') AS allowed"
    " FROM last, json_each(last.categories) AS c"
    " WHERE last.n = 1 GROUP BY c.key ORDER BY c.key";

/* Time to action of the decisions that sent it: how many, and the median
 * (the mean of the two middle values for an even count; NULL for none). */
static const struct store_column tta_columns[] = {
	{"count", ST_INT, 0}, {"median_ms", ST_NUMBER, 0},
};
static const char tta_sql[] =
    "SELECT count(*) AS count, avg(ms) FILTER (WHERE r IN ((n + 1) / 2, (n + 2) / 2))"
    " AS median_ms FROM (SELECT time_to_action_ms AS ms,"
    "  row_number() OVER (ORDER BY time_to_action_ms) AS r, count(*) OVER () AS n"
    PERIOD DECISION " AND time_to_action_ms IS NOT NULL) AS t";

/* The distribution over these bounds (milliseconds): bucket i holds
 * [bound i, bound i + 1), the last one everything from its bound on. */
static const int tta_bounds[] = {0, 1000, 2000, 5000, 10000, 30000, 60000};
#define NBOUNDS (sizeof(tta_bounds) / sizeof(tta_bounds[0]))
static const char tta_buckets_sql[] =
    "SELECT CASE WHEN time_to_action_ms < ?5 THEN 0 WHEN time_to_action_ms < ?6 THEN 1"
    " WHEN time_to_action_ms < ?7 THEN 2 WHEN time_to_action_ms < ?8 THEN 3"
    " WHEN time_to_action_ms < ?9 THEN 4 WHEN time_to_action_ms < ?10 THEN 5"
    " ELSE 6 END AS bucket, count(*) AS n"
    PERIOD DECISION " AND time_to_action_ms IS NOT NULL GROUP BY 1";

/* Monthly visitors of the months the period touches (?4: its first month). */
static const struct store_column mau_columns[] = {
	{"month", ST_TEXT, 0}, {"visitors", ST_INT, 0},
};
static const char mau_sql[] =
    "SELECT month AS month, visitors AS visitors FROM mau_counts"
    " WHERE site_id = ?1 AND month >= ?4 AND month || '-01T00:00:00.000Z' < ?3"
    " ORDER BY month";

/* The script records seen in the period (first seen before its end, last
 * seen after its start). */
static const struct store_column script_columns[] = {
	{"domain", ST_TEXT, 0}, {"category", ST_TEXT, 0}, {"blocked", ST_BOOL, 0},
	{"first_seen", ST_TEXT, 0}, {"last_seen", ST_TEXT, 0},
	{"seen_count", ST_INT, 0}, {"last_page_url", ST_TEXT, 0},
};
static const char scripts_sql[] =
    "SELECT domain AS domain, category AS category, blocked AS blocked,"
    " first_seen AS first_seen, last_seen AS last_seen, seen_count AS seen_count,"
    " last_page_url AS last_page_url FROM scripts"
    " WHERE site_id = ?1 AND first_seen < ?3 AND last_seen >= ?2 ORDER BY domain";

/* A statement of the report with its period bound: ?1 the site, ?2 and ?3
 * the period, ?4 its first month. */
static sqlite3_stmt *
prepare(struct store *st, const char *sql, int64_t id, const char *from, const char *to)
{
	sqlite3_stmt *q = NULL;

	if (db_prepare(st->db, sql, &q) != 0)
		return NULL;
	sqlite3_bind_int64(q, 1, id);
	db_bind_text(q, 2, from);
	db_bind_text(q, 3, to);
	if (sqlite3_bind_parameter_count(q) >= 4)  /* "YYYY-MM", copied */
		sqlite3_bind_text(q, 4, from, 7, SQLITE_TRANSIENT);
	return q;
}

/* store_row_fn: a copy of each row appended to the array arg. */
static int
collect(const cJSON *row, void *arg)
{
	cJSON *copy = cJSON_Duplicate(row, 1);

	if (copy == NULL || !cJSON_AddItemToArray(arg, copy)) {
		cJSON_Delete(copy);
		log_error("out of memory");
		return STORE_ERROR;
	}
	return 0;
}

/* Run sql and add its one row (rows == 0) or its rows as an array
 * (rows == 1) to out as member name. */
static int
add_query(struct store *st, cJSON *out, const char *name, const char *sql, int rows,
          const struct store_column *cols, size_t n, int64_t id, const char *from,
          const char *to)
{
	sqlite3_stmt *q = prepare(st, sql, id, from, to);
	cJSON *v = NULL;
	int rc;

	if (q == NULL)
		return STORE_ERROR;
	if (rows) {
		if ((v = cJSON_CreateArray()) == NULL)
			rc = STORE_ERROR;
		else
			rc = sql_walk(st, q, cols, n, collect, v, name);
	} else {
		rc = sql_one_row(st, q, cols, n, &v, name);
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

/* time_to_action.buckets: [{from_ms, to_ms (null for the last), count}],
 * every bucket, empty ones with 0. */
static int
add_buckets(struct store *st, cJSON *tta, int64_t id, const char *from, const char *to)
{
	sqlite3_stmt *q = prepare(st, tta_buckets_sql, id, from, to);
	int64_t count[NBOUNDS] = {0};
	cJSON *arr, *b;
	size_t i;
	int rc;

	if (q == NULL)
		return STORE_ERROR;
	for (i = 1; i < NBOUNDS; i++)
		sqlite3_bind_int(q, (int)i + 4, tta_bounds[i]);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		int k = sqlite3_column_int(q, 0);

		if (k >= 0 && (size_t)k < NBOUNDS)
			count[k] = sqlite3_column_int64(q, 1);
	}
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE) {
		db_log(st->db, "report time to action");
		return STORE_ERROR;
	}
	if ((arr = cJSON_AddArrayToObject(tta, "buckets")) == NULL)
		goto oom;
	for (i = 0; i < NBOUNDS; i++) {
		if ((b = cJSON_CreateObject()) == NULL || !cJSON_AddItemToArray(arr, b)) {
			cJSON_Delete(b);
			goto oom;
		}
		if (cJSON_AddNumberToObject(b, "from_ms", tta_bounds[i]) == NULL ||
		    (i + 1 < NBOUNDS ? cJSON_AddNumberToObject(b, "to_ms", tta_bounds[i + 1])
		                     : cJSON_AddNullToObject(b, "to_ms")) == NULL ||
		    cJSON_AddNumberToObject(b, "count", (double)count[i]) == NULL)
			goto oom;
	}
	return STORE_OK;
oom:
	log_error("out of memory");
	return STORE_ERROR;
}

int
store_report(struct store *st, const char *key, const char *from, const char *to,
             cJSON **out)
{
	cJSON *r = NULL;
	int64_t id;
	size_t i;
	int rc;

	*out = NULL;
	if ((rc = sql_site_id(st, key, &id)) != STORE_OK)
		return rc;
	/* One read transaction: every figure sees the same log. */
	if (sqlite3_exec(st->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK) {
		db_log(st->db, "report");
		return STORE_ERROR;
	}
	rc = STORE_ERROR;
	if ((r = cJSON_CreateObject()) == NULL) {
		log_error("out of memory");
		goto out;
	}
	if ((rc = add_query(st, r, "totals", totals_sql, 0, totals_columns,
	    SQL_NCOLS(totals_columns), id, from, to)) != STORE_OK ||
	    (rc = add_query(st, r, "daily", daily_sql, 1, daily_columns,
	    SQL_NCOLS(daily_columns), id, from, to)) != STORE_OK)
		goto out;
	for (i = 0; i < sizeof(splits) / sizeof(splits[0]); i++)
		if ((rc = add_query(st, r, splits[i].name, splits[i].sql, 1, split_columns,
		    SQL_NCOLS(split_columns), id, from, to)) != STORE_OK)
			goto out;
	if ((rc = add_query(st, r, "categories", categories_sql, 1, category_columns,
	    SQL_NCOLS(category_columns), id, from, to)) != STORE_OK ||
	    (rc = add_query(st, r, "time_to_action", tta_sql, 0, tta_columns,
	    SQL_NCOLS(tta_columns), id, from, to)) != STORE_OK ||
	    (rc = add_buckets(st, cJSON_GetObjectItemCaseSensitive(r, "time_to_action"),
	    id, from, to)) != STORE_OK ||
	    (rc = add_query(st, r, "mau", mau_sql, 1, mau_columns,
	    SQL_NCOLS(mau_columns), id, from, to)) != STORE_OK ||
	    (rc = add_query(st, r, "scripts", scripts_sql, 1, script_columns,
	    SQL_NCOLS(script_columns), id, from, to)) != STORE_OK)
		goto out;
	*out = r;
	r = NULL;
out:
	sqlite3_exec(st->db, "COMMIT", NULL, NULL, NULL);
	cJSON_Delete(r);
	return rc;
}
