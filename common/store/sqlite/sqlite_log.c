/* sqlite_log.c: the SQLite store reads the consent log (consentctl consent export, stats). */
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/log.h"
#include "base/nitems.h"
#include "store/sqlite/sqlite_store.h"

int
sqlite_store_consent_export(struct store *st, const char *key, const char *since,
                            store_row_fn fn, void *arg)
{
	static const char sql[] =
	    "SELECT " LOG_FIELDS " FROM " LOG_FROM " WHERE l.site_id = ?1"
	    " AND (?2 IS NULL OR l.created_at >= ?2)"
	    " ORDER BY l.created_at, l.id";

	return sqlite_site_rows(st, key, sql, since, store_export_columns,
	    store_export_ncolumns, fn, arg, "consent export");
}

static const struct store_column stats_columns[] = { STATS_COLUMN_LIST };

/* Counts by every event_type and event_action the consent endpoint accepts
 * (spec 4.2), zeros included, so scripts can rely on the keys; by Global
 * Privacy Control signal (sent, not_sent, not_recorded: entries from before
 * schema version 3), and gpc_percent, the share of entries with the signal
 * among those where it was recorded (one decimal; null when none was). */
int
sqlite_store_stats(struct store *st, const char *key, cJSON **out)
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
	clock_now(now, month);
	if ((rc = sqlite_site_id(st, key, &id)) != STORE_OK)
		return rc;
	if (sqlite_db_prepare(st->db, sql, &q) != 0)
		return STORE_ERROR;
	sqlite3_bind_int64(q, 1, id);
	sqlite_db_bind_text(q, 2, month);
	rc = sqlite_one_row(st, q, stats_columns, nitems(stats_columns), out, "stats");
	if (rc == STORE_NOTFOUND)  /* an aggregate always has a row */
		rc = STORE_ERROR;
	sqlite3_finalize(q);
	return rc;
}
