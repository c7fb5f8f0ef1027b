/* sqlite_log.c: the SQLite store reads the consent log (consentctl consent export, stats). */
#include <stdio.h>
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

/*
 * The dashboard's page of the log.  The ends are row values (created_at,
 * id): the upper one the cursor's, else the period's end (to, 0), else
 * one after every stored time; the lower one the window's last entry
 * (found first by an index-only walk of window entries), else (from, 0).
 * So the walk of consent_log_site_time (whose rowid is the id) goes
 * backwards between them; the other filters are tested on the rows it
 * reaches.
 */
int
sqlite_store_consent_page(struct store *st, const char *key, const struct store_log_filter *f,
                          store_row_fn fn, void *arg, struct store_page_end *end)
{
	static const char window_sql[] =
	    "SELECT created_at, id FROM consent_log"
	    " WHERE site_id = ?1 AND created_at >= ?2 AND (created_at, id) < (?3, ?4)"
	    " ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET ?5";
	static const char sql[] =
	    "SELECT l.id AS id, " LOG_FIELDS " FROM " LOG_FROM
	    " WHERE l.site_id = ?1 AND (l.created_at, l.id) >= (?2, ?12)"
	    " AND (l.created_at, l.id) < (?3, ?4)"
	    " AND (?5 IS NULL OR l.event_type = ?5)"
	    " AND (?6 IS NULL OR l.event_action = ?6)"
	    " AND (?7 IS NULL OR l.region = ?7)"
	    " AND (?8 IS NULL OR l.country = ?8)"
	    " AND (?9 IS NULL OR (?9 = 2 AND l.gpc IS NULL) OR l.gpc = ?9)"
	    " AND (?10 IS NULL OR l.published_version = ?10)"
	    " ORDER BY l.created_at DESC, l.id DESC LIMIT ?11";
	sqlite3_stmt *q = NULL;
	const char *upto, *from = f->from != NULL ? f->from : "";
	int64_t id, upto_id, from_id = 0;
	int rc;

	memset(end, 0, sizeof(*end));
	store_page_upper(f, &upto, &upto_id);
	if ((rc = sqlite_site_id(st, key, &id)) != STORE_OK)
		return rc;
	if (f->window > 0) {
		if (sqlite_db_prepare(st->db, window_sql, &q) != 0)
			return STORE_ERROR;
		sqlite3_bind_int64(q, 1, id);
		sqlite_db_bind_text(q, 2, from);
		sqlite_db_bind_text(q, 3, upto);
		sqlite3_bind_int64(q, 4, upto_id);
		sqlite3_bind_int64(q, 5, f->window - 1);
		switch (sqlite3_step(q)) {
		case SQLITE_ROW:
			snprintf(end->at, sizeof(end->at), "%s", (const char *)sqlite3_column_text(q, 0));
			end->id = sqlite3_column_int64(q, 1);
			end->walked = 1;
			from = end->at;
			from_id = end->id;
			break;
		case SQLITE_DONE:
			break;
		default:
			sqlite_db_log(st->db, "consent page");
			sqlite3_finalize(q);
			return STORE_ERROR;
		}
		sqlite3_finalize(q);
		q = NULL;
	}
	if (sqlite_db_prepare(st->db, sql, &q) != 0)
		return STORE_ERROR;
	sqlite3_bind_int64(q, 1, id);
	sqlite_db_bind_text(q, 2, from);
	sqlite_db_bind_text(q, 3, upto);
	sqlite3_bind_int64(q, 4, upto_id);
	sqlite_db_bind_text(q, 5, f->event_type);
	sqlite_db_bind_text(q, 6, f->event_action);
	sqlite_db_bind_text(q, 7, f->region);
	sqlite_db_bind_text(q, 8, f->country);
	if (f->gpc >= 0)
		sqlite3_bind_int(q, 9, f->gpc);
	if (f->version >= 0)
		sqlite3_bind_int64(q, 10, f->version);
	sqlite3_bind_int(q, 11, f->limit);
	sqlite3_bind_int64(q, 12, from_id);
	rc = sqlite_walk(st, q, store_page_columns, store_page_ncolumns, fn, arg, "consent page");
	sqlite3_finalize(q);
	return rc;
}
