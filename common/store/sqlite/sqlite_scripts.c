/* sqlite_scripts.c: the SQLite store of tracker syncs and the script inventory (consentctl sync, scripts). */
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/log.h"
#include "base/nitems.h"
#include "store/sqlite/sqlite_store.h"

/* STORE_NOTFOUND for an unknown site, STORE_EXISTS for a used sync_id. */
int
sqlite_store_sync_start(struct store *st, const char *key, const char *sync_id)
{
	static const char sql[] =
	    "INSERT INTO syncs (sync_id, site_id, created_at)"
	    " SELECT ?2, id, ?3 FROM sites WHERE site_key = ?1";
	char now[32];
	const char *const args[] = {key, sync_id, now};

	clock_now(now, NULL);
	return sqlite_change_one(st, sql, args, 3, "sync start");
}

static const struct store_column sync_columns[] = { SYNC_COLUMN_LIST };

int
sqlite_store_sync_show(struct store *st, const char *sync_id, cJSON **out)
{
	static const char sql[] =
	    "SELECT y.sync_id AS sync_id, s.site_key AS site_key, y.status AS status,"
	    " y.error AS error, y.page_url AS page_url, y.created_at AS created_at,"
	    " y.finished_at AS finished_at"
	    " FROM syncs y JOIN sites s ON s.id = y.site_id WHERE y.sync_id = ?1";
	sqlite3_stmt *q = NULL;
	int rc;

	*out = NULL;
	if (sqlite_db_prepare(st->db, sql, &q) != 0)
		return STORE_ERROR;
	sqlite_db_bind_text(q, 1, sync_id);
	rc = sqlite_one_row(st, q, sync_columns, nitems(sync_columns), out, "sync show");
	sqlite3_finalize(q);
	return rc;
}

static const struct store_column script_columns[] = { SCRIPT_COLUMN_LIST };

int
sqlite_store_scripts_list(struct store *st, const char *key, store_row_fn fn, void *arg)
{
	static const char sql[] =
	    "SELECT domain AS domain, category AS category, blocked AS blocked,"
	    " first_seen AS first_seen, last_seen AS last_seen,"
	    " seen_count AS seen_count, last_src AS last_src,"
	    " last_page_url AS last_page_url"
	    " FROM scripts WHERE site_id = ?1 ORDER BY domain";

	return sqlite_site_rows(st, key, sql, NULL, script_columns, nitems(script_columns),
	    fn, arg, "scripts list");
}

