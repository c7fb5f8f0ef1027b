/* store_pg_admin.c: the PostgreSQL store of syncs, the script inventory, the export and stats of the log. */
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/log.h"
#include "base/nitems.h"
#include "store/pg/pg_store.h"

/* STORE_NOTFOUND for an unknown site, STORE_EXISTS for a used sync_id. */
int
pg_store_sync_start(struct store *st, const char *key, const char *sync_id)
{
	static const char sql[] =
	    "INSERT INTO syncs (sync_id, site_id, created_at)"
	    " SELECT $2, id, $3 FROM sites WHERE site_key = $1";
	char now[32];
	const char *const p[] = {key, sync_id, now};

	clock_now(now, NULL);
	return pgsql_change_one(st, sql, PG_NPARAMS(p), p, "sync start");
}

static const struct store_column sync_columns[] = { SYNC_COLUMN_LIST };

int
pg_store_sync_show(struct store *st, const char *sync_id, cJSON **out)
{
	static const char sql[] =
	    "SELECT y.sync_id AS sync_id, s.site_key AS site_key, y.status AS status,"
	    " y.error AS error, y.page_url AS page_url, y.created_at AS created_at,"
	    " y.finished_at AS finished_at"
	    " FROM syncs y JOIN sites s ON s.id = y.site_id WHERE y.sync_id = $1";
	const char *const p[] = {sync_id};

	return pgsql_one_row(st, sql, PG_NPARAMS(p), p, sync_columns,
	    nitems(sync_columns), out, "sync show");
}

static const struct store_column script_columns[] = { SCRIPT_COLUMN_LIST };

int
pg_store_scripts_list(struct store *st, const char *key, store_row_fn fn, void *arg)
{
	static const char sql[] =
	    "SELECT domain AS domain, category AS category, blocked AS blocked,"
	    " first_seen AS first_seen, last_seen AS last_seen,"
	    " seen_count AS seen_count, last_src AS last_src,"
	    " last_page_url AS last_page_url"
	    " FROM scripts WHERE site_id = (SELECT id FROM sites WHERE site_key = $1)"
	    " ORDER BY domain";
	const char *const p[] = {key};

	return pgsql_site_rows(st, sql, PG_NPARAMS(p), p, script_columns,
	    nitems(script_columns), fn, arg, "scripts list");
}

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

	if (pgsql_begin(st, "ISOLATION LEVEL REPEATABLE READ READ ONLY") != 0)
		return STORE_ERROR;
	if ((rc = pgsql_site_id(st, key, 0, &id)) != STORE_OK)
		goto out;
	pgsql_int_text(idt, id);
	if ((rc = pgsql_run(st, declare_sql, PG_NPARAMS(p), p, NULL, "consent export")) != STORE_OK)
		goto out;
	do {
		if ((rc = pgsql_run(st, fetch_sql, 0, NULL, &r, "consent export")) != STORE_OK)
			goto out;
		n = PQntuples(r);
		rc = pgsql_walk(r, store_export_columns, store_export_ncolumns, fn, arg);
		PQclear(r);
		r = NULL;
	} while (rc == STORE_OK && n == EXPORT_BATCH);
out:
	if (rc == STORE_OK)
		return pgsql_commit(st) == 0 ? STORE_OK : STORE_ERROR;
	pgsql_rollback(st);
	return rc;
}

static const struct store_column stats_columns[] = { STATS_COLUMN_LIST };

/*
 * As SQLite's (store_log.c), in one statement by the site's key (no row:
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
	return pgsql_one_row(st, sql, PG_NPARAMS(p), p, stats_columns,
	    nitems(stats_columns), out, "stats");
}

/*
 * The built-in texts.  builtin_texts.pieces is text, which holds no NUL
 * byte: the pieces never have one (defaults_pieces() joins C strings), and
 * pieces that had one are refused rather than cut short.
 */
int
pg_store_builtin_record(struct store *st, const char *sha256, const char *pieces, size_t len)
{
	static const char sql[] =
	    "INSERT INTO builtin_texts (sha256, pieces, recorded_at) VALUES ($1, $2, $3)"
	    " ON CONFLICT DO NOTHING";
	char now[32], *text;
	int rc;

	/* The len bytes as a C string: a parameter's text ends at its NUL. */
	if ((text = strndup(pieces, len)) == NULL) {
		log_error("out of memory");
		return STORE_ERROR;
	}
	if (strlen(text) != len) {
		log_error("built-in texts with a NUL byte: PostgreSQL's text cannot hold them");
		free(text);
		return STORE_ERROR;
	}
	clock_now(now, NULL);
	const char *const p[] = {sha256, text, now};
	rc = pgsql_change(st, sql, PG_NPARAMS(p), p, NULL, "record built-in texts");
	free(text);
	return rc;
}

/* A copy of field (r, c)'s bytes with a NUL after them, into *out and *len. */
static int
field_copy(const PGresult *res, int r, int c, char **out, size_t *len)
{
	size_t n = (size_t)PQgetlength(res, r, c);

	if ((*out = malloc(n + 1)) == NULL) {
		log_error("out of memory");
		return STORE_ERROR;
	}
	memcpy(*out, PQgetvalue(res, r, c), n);
	(*out)[n] = '\0';
	*len = n;
	return STORE_OK;
}

int
pg_store_builtin_get(struct store *st, const char *sha256, char **pieces, size_t *len)
{
	static const char sql[] = "SELECT pieces FROM builtin_texts WHERE sha256 = $1";
	const char *const p[] = {sha256};
	PGresult *r = NULL;
	int rc;

	*pieces = NULL;
	*len = 0;
	if (pgsql_run(st, sql, PG_NPARAMS(p), p, &r, "built-in texts") != STORE_OK)
		return STORE_ERROR;
	rc = PQntuples(r) == 0 ? STORE_NOTFOUND : field_copy(r, 0, 0, pieces, len);
	PQclear(r);
	return rc;
}

int
pg_store_builtin_each(struct store *st, store_builtin_fn fn, void *arg)
{
	static const char sql[] =
	    "SELECT sha256, pieces, recorded_at FROM builtin_texts ORDER BY recorded_at, sha256";
	PGresult *r = NULL;
	int rc = STORE_OK, n;

	if (pgsql_run(st, sql, 0, NULL, &r, "built-in texts") != STORE_OK)
		return STORE_ERROR;
	n = PQntuples(r);
	for (int i = 0; i < n && rc == STORE_OK; i++) {
		char *pieces;
		size_t len;

		if ((rc = field_copy(r, i, 1, &pieces, &len)) != STORE_OK)
			break;
		rc = fn(arg, PQgetvalue(r, i, 0), pieces, len, PQgetvalue(r, i, 2));
		free(pieces);
	}
	PQclear(r);
	return rc;
}

/* One statement by the site's key: no row, no such site. */
int
pg_store_builtin_missing(struct store *st, const char *key, int64_t *n)
{
	static const char sql[] =
	    "SELECT (SELECT count(*) FROM consent_log l WHERE l.site_id = s.id"
	    "  AND l.builtin_sha256 IS NOT NULL AND NOT EXISTS"
	    "  (SELECT 1 FROM builtin_texts b WHERE b.sha256 = l.builtin_sha256))"
	    " FROM sites s WHERE s.site_key = $1";
	const char *const p[] = {key};

	*n = 0;
	return pgsql_int64(st, sql, PG_NPARAMS(p), p, n, "built-in texts not recorded");
}
