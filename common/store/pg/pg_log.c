/* pg_log.c: the PostgreSQL store reads the consent log (consentctl consent export, stats). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/nitems.h"
#include "store/pg/pg_store.h"

/* How many entries each FETCH of the export brings: what is in memory at
 * once, whatever the size of the site's log. */
#define EXPORT_BATCH 1000
#define TEXT_OF(x) #x
#define NUMBER_TEXT(x) TEXT_OF(x)

/*
 * Oldest first, ties by id as SQLite's ORDER BY; since NULL: every entry.
 * SQLite's statement hands each row on as it steps; here a cursor does, a
 * batch at a time, inside one read-only transaction, so that the export is
 * one snapshot as SQLite's statement reads one (an entry stored or erased
 * meanwhile is in it or not, never half), and a large log never sits whole
 * in memory.  The cursor ends with the transaction (pgbouncer's
 * transaction pooling keeps the server connection until then).
 */
int
pg_store_consent_export(struct store *st, const char *key, const char *since,
                        store_row_fn fn, void *arg)
{
	static const char declare_sql[] =
	    "DECLARE export_rows NO SCROLL CURSOR FOR"
	    " SELECT " LOG_FIELDS " FROM " LOG_FROM
	    " WHERE l.site_id = $1::bigint AND ($2::text IS NULL OR l.created_at >= $2::text)"
	    " ORDER BY l.created_at, l.id";
	static const char fetch_sql[] = "FETCH " NUMBER_TEXT(EXPORT_BATCH) " FROM export_rows";
	char idt[24];
	const char *const p[] = {idt, since};
	PGresult *r = NULL;
	int64_t id;
	int rc, n;

	if (pg_begin(st, "ISOLATION LEVEL REPEATABLE READ READ ONLY") != 0)
		return STORE_ERROR;
	if ((rc = pg_site_id(st, key, 0, &id)) != STORE_OK)
		goto out;
	pg_int_text(idt, id);
	if ((rc = pg_run(st, declare_sql, PG_NPARAMS(p), p, NULL, "consent export")) != STORE_OK)
		goto out;
	do {
		if ((rc = pg_run(st, fetch_sql, 0, NULL, &r, "consent export")) != STORE_OK)
			goto out;
		n = PQntuples(r);
		rc = pg_walk(r, store_export_columns, store_export_ncolumns, fn, arg);
		PQclear(r);
		r = NULL;
	} while (rc == STORE_OK && n == EXPORT_BATCH);
out:
	if (rc == STORE_OK)
		return pg_commit(st) == 0 ? STORE_OK : STORE_ERROR;
	pg_rollback(st);
	return rc;
}

static const struct store_column stats_columns[] = { STATS_COLUMN_LIST };

/*
 * As SQLite's (sqlite_log.c), in one statement by the site's key (no row:
 * no such site).  The month's visitors are the sum of its 16 slots
 * (schema_pg.sql).  json_build_object, not jsonb's, which would sort the
 * keys: the objects keep SQLite's order.  gpc_percent is numeric, rounded
 * half away from zero as SQLite's round() does.
 */
int
pg_store_stats(struct store *st, const char *key, cJSON **out)
{
	static const char sql[] =
	    "SELECT coalesce((SELECT sum(m.visitors) FROM mau_counts m"
	    "  WHERE m.site_id = s.id AND m.month = $2), 0)::bigint AS mau,"
	    " count(l.id) AS entries,"
	    " json_build_object("
	    "  'initial', count(*) FILTER (WHERE l.event_type = 'initial'),"
	    "  'update', count(*) FILTER (WHERE l.event_type = 'update'),"
	    "  'impression', count(*) FILTER (WHERE l.event_type = 'impression'))"
	    " AS by_event_type,"
	    " json_build_object("
	    "  'opt_in', count(*) FILTER (WHERE l.event_action = 'opt_in'),"
	    "  'opt_out', count(*) FILTER (WHERE l.event_action = 'opt_out'),"
	    "  'partial', count(*) FILTER (WHERE l.event_action = 'partial'),"
	    "  'acknowledge', count(*) FILTER (WHERE l.event_action = 'acknowledge'))"
	    " AS by_event_action,"
	    " json_build_object("
	    "  'sent', count(*) FILTER (WHERE l.gpc = 1),"
	    "  'not_sent', count(*) FILTER (WHERE l.gpc = 0),"
	    "  'not_recorded', count(*) FILTER (WHERE l.id IS NOT NULL AND l.gpc IS NULL))"
	    " AS by_gpc,"
	    " round(100.0 * count(*) FILTER (WHERE l.gpc = 1) / nullif(count(l.gpc), 0), 1)"
	    " AS gpc_percent"
	    " FROM sites s LEFT JOIN consent_log l ON l.site_id = s.id"
	    " WHERE s.site_key = $1 GROUP BY s.id";
	char now[32], month[8];
	const char *const p[] = {key, month};

	clock_now(now, month);
	return pg_one_row(st, sql, PG_NPARAMS(p), p, stats_columns,
	    nitems(stats_columns), out, "stats");
}

/* As SQLite's (sqlite_log.c): the window's last entry first (an
 * index-only walk when one is asked for), then the page, the row values
 * bounding the walk of consent_log_site_created backwards. */
int
pg_store_consent_page(struct store *st, const char *key, const struct store_log_filter *f,
                      store_row_fn fn, void *arg, struct store_page_end *end)
{
	static const char window_sql[] =
	    "SELECT created_at, id FROM consent_log"
	    " WHERE site_id = (SELECT id FROM sites WHERE site_key = $1)"
	    " AND created_at >= $2::text AND (created_at, id) < ($3::text, $4::bigint)"
	    " ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET $5::bigint";
	static const char sql[] =
	    "SELECT l.id AS id, " LOG_FIELDS " FROM " LOG_FROM
	    " WHERE l.site_id = (SELECT id FROM sites WHERE site_key = $1)"
	    " AND (l.created_at, l.id) >= ($2::text, $12::bigint)"
	    " AND (l.created_at, l.id) < ($3::text, $4::bigint)"
	    " AND ($5::text IS NULL OR l.event_type = $5::text)"
	    " AND ($6::text IS NULL OR l.event_action = $6::text)"
	    " AND ($7::text IS NULL OR l.region = $7::text)"
	    " AND ($8::text IS NULL OR l.country = $8::text)"
	    " AND ($9::int IS NULL OR ($9::int = 2 AND l.gpc IS NULL) OR l.gpc = $9::int)"
	    " AND ($10::bigint IS NULL OR l.published_version = $10::bigint)"
	    " ORDER BY l.created_at DESC, l.id DESC LIMIT $11::int";
	char upto_id_t[24], gpc_t[24], version_t[24], limit_t[24], from_id_t[24] = "0", offset_t[24];
	const char *upto, *from = f->from != NULL ? f->from : "";
	PGresult *r = NULL;
	int64_t upto_id;
	int rc;

	memset(end, 0, sizeof(*end));
	store_page_upper(f, &upto, &upto_id);
	pg_int_text(upto_id_t, upto_id);
	if (f->window > 0) {
		const char *const w[] = { key, from, upto, upto_id_t,
			pg_int_text(offset_t, f->window - 1) };

		if ((rc = pg_run(st, window_sql, PG_NPARAMS(w), w, &r, "consent page")) != STORE_OK)
			return rc;
		if (PQntuples(r) == 1) {
			snprintf(end->at, sizeof(end->at), "%s", PQgetvalue(r, 0, 0));
			end->id = strtoll(PQgetvalue(r, 0, 1), NULL, 10);
			end->walked = 1;
			from = end->at;
			pg_int_text(from_id_t, end->id);
		}
		PQclear(r);
	}
	{
		const char *const p[] = {
			key, from, upto, upto_id_t,
			f->event_type, f->event_action, f->region, f->country,
			f->gpc >= 0 ? pg_int_text(gpc_t, f->gpc) : NULL,
			f->version >= 0 ? pg_int_text(version_t, f->version) : NULL,
			pg_int_text(limit_t, f->limit), from_id_t,
		};

		return pg_site_rows(st, sql, PG_NPARAMS(p), p, store_page_columns,
		    store_page_ncolumns, fn, arg, "consent page");
	}
}
