/* store_log.c: the SQLite store reads the consent log (consentctl consent export, stats). */
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "store_sql.h"

/*
 * The export's columns: those CONTRACT 3 names are always present, the
 * optional request fields only when the client sent them.
 */
const struct store_column store_export_columns[] = {
	{"created_at", ST_TEXT, 0}, {"anon_id_hash", ST_TEXT, 0},
	{"categories", ST_JSON, 0}, {"event_type", ST_TEXT, 0},
	{"event_action", ST_TEXT, 0}, {"config_version", ST_INT, 0},
	{"published_version", ST_INT, 0}, {"region", ST_TEXT, 0},
	{"consent_model", ST_TEXT, 0}, {"browser", ST_TEXT, 0}, {"os", ST_TEXT, 0},
	{"device_type", ST_TEXT, 0}, {"country", ST_TEXT, 0},
	{"regulation", ST_TEXT, 1}, {"time_to_action_ms", ST_NUMBER, 1},
	{"interaction", ST_TEXT, 1}, {"preferences_opened", ST_BOOL, 1},
	{"banner_load_time_ms", ST_NUMBER, 1}, {"banner_position", ST_TEXT, 1},
	{"page_url", ST_TEXT, 1}, {"sdk_version", ST_TEXT, 1},
	{"language", ST_TEXT, 1}, {"resolved_language", ST_TEXT, 1},
	/* added in schema version 3: true, false, or null for an entry stored
	 * before it was recorded; last, so that a reader of the older CSV
	 * layout finds its columns where they were */
	{"gpc", ST_BOOL, 0},
};
const size_t store_export_ncolumns = SQL_NCOLS(store_export_columns);

int
store_consent_export(struct store *st, const char *key, const char *since,
                     store_row_fn fn, void *arg)
{
	static const char sql[] =
	    "SELECT created_at AS created_at, anon_id_hash AS anon_id_hash,"
	    " categories AS categories, event_type AS event_type,"
	    " event_action AS event_action, config_version AS config_version,"
	    " published_version AS published_version, region AS region,"
	    " consent_model AS consent_model, browser AS browser, os AS os,"
	    " device_type AS device_type, country AS country,"
	    " regulation AS regulation, time_to_action_ms AS time_to_action_ms,"
	    " interaction AS interaction, preferences_opened AS preferences_opened,"
	    " banner_load_time_ms AS banner_load_time_ms,"
	    " banner_position AS banner_position, page_url AS page_url,"
	    " sdk_version AS sdk_version, language AS language,"
	    " resolved_language AS resolved_language, gpc AS gpc"
	    " FROM consent_log WHERE site_id = ?1"
	    " AND (?2 IS NULL OR created_at >= ?2)"
	    " ORDER BY created_at, id";

	return sql_site_rows(st, key, sql, since, store_export_columns,
	    store_export_ncolumns, fn, arg, "consent export");
}

static const struct store_column stats_columns[] = {
	{"mau", ST_INT, 0}, {"entries", ST_INT, 0},
	{"by_event_type", ST_JSON, 0}, {"by_event_action", ST_JSON, 0},
	{"by_gpc", ST_JSON, 0}, {"gpc_percent", ST_NUMBER, 0},
};

/* Counts by every event_type and event_action the consent endpoint accepts
 * (spec 4.2), zeros included, so scripts can rely on the keys; by Global
 * Privacy Control signal (sent, not_sent, not_recorded: entries from before
 * schema version 3), and gpc_percent, the share of entries with the signal
 * among those where it was recorded (one decimal; null when none was). */
int
store_stats(struct store *st, const char *key, cJSON **out)
{
	static const char sql[] =
	    "SELECT coalesce((SELECT visitors FROM mau_counts"
	    "  WHERE site_id = ?1 AND month = ?2), 0) AS mau,"
	    " count(*) AS entries,"
	    " json_object("
	    "  'initial', count(*) FILTER (WHERE event_type = 'initial'),"
	    "  'update', count(*) FILTER (WHERE event_type = 'update'),"
	    "  'impression', count(*) FILTER (WHERE event_type = 'impression'))"
	    " AS by_event_type,"
	    " json_object("
	    "  'opt_in', count(*) FILTER (WHERE event_action = 'opt_in'),"
	    "  'opt_out', count(*) FILTER (WHERE event_action = 'opt_out'),"
	    "  'partial', count(*) FILTER (WHERE event_action = 'partial'),"
	    "  'acknowledge', count(*) FILTER (WHERE event_action = 'acknowledge'))"
	    " AS by_event_action,"
	    " json_object("
	    "  'sent', count(*) FILTER (WHERE gpc = 1),"
	    "  'not_sent', count(*) FILTER (WHERE gpc = 0),"
	    "  'not_recorded', count(*) FILTER (WHERE gpc IS NULL))"
	    " AS by_gpc,"
	    " round(100.0 * count(*) FILTER (WHERE gpc = 1) / nullif(count(gpc), 0), 1)"
	    " AS gpc_percent"
	    " FROM consent_log WHERE site_id = ?1";
	sqlite3_stmt *q = NULL;
	char now[32], month[8];
	int64_t id;
	int rc;

	*out = NULL;
	db_now(now, month);
	if ((rc = sql_site_id(st, key, &id)) != STORE_OK)
		return rc;
	if (db_prepare(st->db, sql, &q) != 0)
		return STORE_ERROR;
	sqlite3_bind_int64(q, 1, id);
	db_bind_text(q, 2, month);
	rc = sql_one_row(st, q, stats_columns, SQL_NCOLS(stats_columns), out, "stats");
	if (rc == STORE_NOTFOUND)  /* an aggregate always has a row */
		rc = STORE_ERROR;
	sqlite3_finalize(q);
	return rc;
}
