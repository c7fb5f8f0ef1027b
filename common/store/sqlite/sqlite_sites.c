/* sqlite_sites.c: the SQLite store of sites and their domains (consentctl site, domain). */
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/log.h"
#include "base/nitems.h"
#include "store/sqlite/sqlite_store.h"

int
sqlite_store_site_add(struct store *st, const char *key, const char *name,
                      int free_tier, int64_t mau_cap, const char *const *hosts, size_t n)
{
	static const char site_sql[] =
	    "INSERT INTO sites (site_key, name, tier, mau_cap, created_at)"
	    " VALUES (?1, ?2, ?3, ?4, ?5)";
	static const char domain_sql[] =
	    "INSERT OR IGNORE INTO domains (site_id, host) VALUES (?1, ?2)";
	sqlite3_stmt *q = NULL;
	char now[32];
	int64_t id;
	size_t i;
	int rc = STORE_ERROR;

	clock_now(now, NULL);
	if (sqlite_db_begin(st->db) != 0)
		return STORE_ERROR;
	if (sqlite_db_prepare(st->db, site_sql, &q) != 0)
		goto out;
	sqlite_db_bind_text(q, 1, key);
	sqlite_db_bind_text(q, 2, name);
	sqlite_db_bind_text(q, 3, free_tier ? "free" : "paid");
	if (mau_cap >= 0)
		sqlite3_bind_int64(q, 4, mau_cap);
	sqlite_db_bind_text(q, 5, now);
	if ((rc = sqlite_change(st, q, "site add")) != STORE_OK)
		goto out;
	rc = STORE_ERROR;
	id = sqlite3_last_insert_rowid(st->db);
	sqlite3_finalize(q);
	if (sqlite_db_prepare(st->db, domain_sql, &q) != 0)
		goto out;
	for (i = 0; i < n; i++) {
		sqlite3_reset(q);
		sqlite3_bind_int64(q, 1, id);
		sqlite_db_bind_text(q, 2, hosts[i]);
		if (sqlite_change(st, q, "domain add") != STORE_OK)
			goto out;
	}
	sqlite3_finalize(q);
	q = NULL;
	return sqlite_db_commit(st->db) == 0 ? STORE_OK : STORE_ERROR;
out:
	sqlite3_finalize(q);
	sqlite_db_rollback(st->db);
	return rc;
}

int
sqlite_store_site_set(struct store *st, const char *key, const struct site_change *ch)
{
	static const char sql[] =
	    "UPDATE sites SET name = coalesce(?2, name), tier = coalesce(?3, tier),"
	    " mau_cap = CASE WHEN ?4 THEN ?5 ELSE mau_cap END,"
	    " retention_days = CASE WHEN ?6 THEN ?7 ELSE retention_days END"
	    " WHERE site_key = ?1";
	sqlite3_stmt *q = NULL;
	int rc;

	if (sqlite_db_prepare(st->db, sql, &q) != 0)
		return STORE_ERROR;
	sqlite_db_bind_text(q, 1, key);
	sqlite_db_bind_text(q, 2, ch->name);
	sqlite_db_bind_text(q, 3, ch->free_tier < 0 ? NULL : ch->free_tier ? "free" : "paid");
	sqlite3_bind_int(q, 4, ch->mau_cap_set != 0);
	if (ch->mau_cap >= 0)
		sqlite3_bind_int64(q, 5, ch->mau_cap);
	sqlite3_bind_int(q, 6, ch->retention_set != 0);
	if (ch->retention_days > 0)
		sqlite3_bind_int64(q, 7, ch->retention_days);
	rc = sqlite_change(st, q, "site set");
	if (rc == STORE_OK && sqlite3_changes(st->db) == 0)
		rc = STORE_NOTFOUND;
	sqlite3_finalize(q);
	return rc;
}

int
sqlite_store_site_pause(struct store *st, const char *key, int paused)
{
	static const char sql[] =
	    "UPDATE sites SET paused = CAST(?2 AS INTEGER) WHERE site_key = ?1";
	const char *const args[] = {key, paused ? "1" : "0"};

	return sqlite_change_one(st, sql, args, 2, "site pause");
}

/* A site in list and show (SITE_COLUMNS, store_ops.h). */
static const struct store_column site_columns[] = { SITE_COLUMN_LIST };
static const struct store_column show_columns[] = {
	SITE_COLUMN_LIST, {"published_at", ST_TEXT, 0}, {"mau", ST_INT, 0},
	{"retention_days", ST_INT, 0},
};
static const struct store_column host_columns[] = { {"host", ST_TEXT, 0} };

int
sqlite_store_site_list(struct store *st, store_row_fn fn, void *arg)
{
	static const char sql[] =
	    "SELECT " SITE_COLUMNS
	    " FROM sites s LEFT JOIN configs c ON c.id = s.config_id"
	    " ORDER BY s.site_key";
	sqlite3_stmt *q = NULL;
	int rc;

	if (sqlite_db_prepare(st->db, sql, &q) != 0)
		return STORE_ERROR;
	rc = sqlite_walk(st, q, site_columns, nitems(site_columns), fn, arg, "site list");
	sqlite3_finalize(q);
	return rc;
}

/* Row callback of store_site_show: append the host to the array. */
static int
add_host(const cJSON *row, void *arg)
{
	const cJSON *host = cJSON_GetObjectItemCaseSensitive(row, "host");
	cJSON *copy = cJSON_Duplicate(host, 0);

	if (copy == NULL || !cJSON_AddItemToArray(arg, copy)) {
		cJSON_Delete(copy);
		log_error("out of memory");
		return STORE_ERROR;
	}
	return 0;
}

/*
 * The site row, then its domains in order.  The two reads run in one read
 * transaction, so the answer is one state of the database.
 */
int
sqlite_store_site_show(struct store *st, const char *key, cJSON **out)
{
	static const char site_sql[] =
	    "SELECT " SITE_COLUMNS ", c.published_at AS published_at,"
	    " coalesce((SELECT visitors FROM mau_counts"
	    "  WHERE site_id = s.id AND month = ?2), 0) AS mau,"
	    " s.retention_days AS retention_days"
	    " FROM sites s LEFT JOIN configs c ON c.id = s.config_id"
	    " WHERE s.site_key = ?1";
	static const char domain_sql[] =
	    "SELECT d.host AS host FROM domains d JOIN sites s ON s.id = d.site_id"
	    " WHERE s.site_key = ?1 ORDER BY d.host";
	sqlite3_stmt *q = NULL;
	cJSON *site = NULL, *domains;
	char now[32], month[8];
	int rc = STORE_ERROR;

	*out = NULL;
	clock_now(now, month);
	if (sqlite3_exec(st->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK) {
		sqlite_db_log(st->db, "begin");
		return STORE_ERROR;
	}
	if (sqlite_db_prepare(st->db, site_sql, &q) != 0)
		goto out;
	sqlite_db_bind_text(q, 1, key);
	sqlite_db_bind_text(q, 2, month);
	if ((rc = sqlite_one_row(st, q, show_columns, nitems(show_columns), &site, "site show")) != STORE_OK)
		goto out;
	rc = STORE_ERROR;
	sqlite3_finalize(q);
	if (sqlite_db_prepare(st->db, domain_sql, &q) != 0)
		goto out;
	sqlite_db_bind_text(q, 1, key);
	if ((domains = cJSON_AddArrayToObject(site, "domains")) == NULL) {
		log_error("out of memory");
		goto out;
	}
	if ((rc = sqlite_walk(st, q, host_columns, nitems(host_columns), add_host, domains,
	    "site show")) != STORE_OK)
		goto out;
	*out = site;
	site = NULL;
out:
	sqlite3_finalize(q);
	cJSON_Delete(site);
	sqlite_db_rollback(st->db);
	return rc;
}

int
sqlite_store_domain_add(struct store *st, const char *key, const char *host)
{
	static const char sql[] =
	    "INSERT INTO domains (site_id, host)"
	    " SELECT id, ?2 FROM sites WHERE site_key = ?1";
	const char *const args[] = {key, host};

	return sqlite_change_one(st, sql, args, 2, "domain add");
}

/* STORE_NOTFOUND when the site is unknown or the host is not registered. */
int
sqlite_store_domain_remove(struct store *st, const char *key, const char *host)
{
	static const char sql[] =
	    "DELETE FROM domains WHERE host = ?2"
	    " AND site_id = (SELECT id FROM sites WHERE site_key = ?1)";
	const char *const args[] = {key, host};

	return sqlite_change_one(st, sql, args, 2, "domain remove");
}

int
sqlite_store_site_keys(struct store *st, store_key_fn fn, void *arg)
{
	static const char sql[] =
	    "SELECT site_key, coalesce(retention_days, -1) FROM sites ORDER BY site_key";
	sqlite3_stmt *q = NULL;
	char **keys = NULL;
	int64_t *days = NULL;
	size_t n = 0, cap = 0;
	int rc = STORE_ERROR, step;

	/* Read them all first: fn may write to the database. */
	if (sqlite_db_prepare(st->db, sql, &q) != 0)
		return STORE_ERROR;
	while ((step = sqlite3_step(q)) == SQLITE_ROW) {
		if (n == cap) {
			size_t c2 = cap ? cap * 2 : 64;
			char **k2 = realloc(keys, c2 * sizeof(*keys));
			int64_t *d2;

			if (k2 != NULL)
				keys = k2;
			if (k2 == NULL || (d2 = realloc(days, c2 * sizeof(*days))) == NULL) {
				log_error("out of memory");
				goto out;
			}
			days = d2;
			cap = c2;
		}
		if ((keys[n] = sqlite_text_dup(q, 0)) == NULL) {
			log_error("out of memory");
			goto out;
		}
		days[n++] = sqlite3_column_int64(q, 1);
	}
	if (step != SQLITE_DONE) {
		sqlite_db_log(st->db, "site keys");
		goto out;
	}
	sqlite3_finalize(q);
	q = NULL;
	rc = STORE_OK;
	for (size_t i = 0; i < n && rc == STORE_OK; i++)
		rc = fn(keys[i], days[i], arg);
out:
	sqlite3_finalize(q);
	for (size_t i = 0; i < n; i++)
		free(keys[i]);
	free(keys);
	free(days);
	return rc;
}
