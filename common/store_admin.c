/* store_admin.c: the SQLite backend of consentctl (CONTRACT 3). */
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "log.h"
#include "resolve.h"
#include "store.h"

/*
 * Rows reach the caller as JSON objects built from the statement's columns:
 * each column's name (every column is named with AS) maps to its value,
 * NULL to JSON null.  Columns named here are typed beyond SQLite's storage
 * classes: integers 0/1 that mean a flag, and text that holds JSON.
 */
static const char *const bool_columns[] = {
	"paused", "blocked", "preferences_opened", "gpc",
};
static const char *const json_columns[] = {
	"categories", "by_event_type", "by_event_action", "by_gpc",
};

/* No column is left out when NULL. */
#define ALL_REQUIRED (-1)

static int
named(const char *name, const char *const *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(name, list[i]) == 0)
			return 1;
	return 0;
}

#define NAMED(name, list) named((name), (list), sizeof(list) / sizeof((list)[0]))

/* The JSON value of column i of the current row, or NULL when out of memory. */
static cJSON *
column_json(sqlite3_stmt *q, int i)
{
	const char *name = sqlite3_column_name(q, i);
	const char *text;
	cJSON *v;

	switch (sqlite3_column_type(q, i)) {
	case SQLITE_NULL:
		return cJSON_CreateNull();
	case SQLITE_INTEGER:
		if (NAMED(name, bool_columns))
			return cJSON_CreateBool(sqlite3_column_int64(q, i) != 0);
		return cJSON_CreateNumber((double)sqlite3_column_int64(q, i));
	case SQLITE_FLOAT:
		return cJSON_CreateNumber(sqlite3_column_double(q, i));
	default:
		text = (const char *)sqlite3_column_text(q, i);
		if (text == NULL)
			return NULL;
		/* Text that should be JSON but is not is kept as a string, so an
		 * export never loses what was stored. */
		if (NAMED(name, json_columns) && (v = cJSON_Parse(text)) != NULL)
			return v;
		return cJSON_CreateString(text);
	}
}

/*
 * The current row as a new object (caller owns), or NULL when out of
 * memory (reported).  Columns from index optional_from on (unless it is
 * ALL_REQUIRED) are left out when NULL: optional fields that were not sent.
 */
static cJSON *
row_json(sqlite3_stmt *q, int optional_from)
{
	cJSON *row = cJSON_CreateObject(), *v;
	int i, n = sqlite3_column_count(q);

	if (row == NULL)
		goto oom;
	for (i = 0; i < n; i++) {
		if (optional_from != ALL_REQUIRED && i >= optional_from &&
		    sqlite3_column_type(q, i) == SQLITE_NULL)
			continue;
		if ((v = column_json(q, i)) == NULL)
			goto oom;
		if (!cJSON_AddItemToObject(row, sqlite3_column_name(q, i), v)) {
			cJSON_Delete(v);
			goto oom;
		}
	}
	return row;
oom:
	log_error("out of memory");
	cJSON_Delete(row);
	return NULL;
}

/*
 * Step q to its end, handing each row to fn.  Returns STORE_OK, fn's
 * non-zero return, or STORE_ERROR.  Does not finalize q.
 */
static int
walk(struct store *st, sqlite3_stmt *q, int optional_from, store_row_fn fn,
     void *arg, const char *what)
{
	cJSON *row;
	int rc;

	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if ((row = row_json(q, optional_from)) == NULL)
			return STORE_ERROR;
		rc = fn(row, arg);
		cJSON_Delete(row);
		if (rc != 0)
			return rc;
	}
	if (rc != SQLITE_DONE) {
		db_log(st->db, what);
		return STORE_ERROR;
	}
	return STORE_OK;
}

/* The one row of q as a new object in *out: STORE_OK, STORE_NOTFOUND, STORE_ERROR. */
static int
one_row(struct store *st, sqlite3_stmt *q, cJSON **out, const char *what)
{
	switch (sqlite3_step(q)) {
	case SQLITE_ROW:
		*out = row_json(q, ALL_REQUIRED);
		return *out != NULL ? STORE_OK : STORE_ERROR;
	case SQLITE_DONE:
		return STORE_NOTFOUND;
	default:
		db_log(st->db, what);
		return STORE_ERROR;
	}
}

/* Run a statement that returns no rows: STORE_OK, STORE_EXISTS when a
 * UNIQUE or PRIMARY KEY constraint refused it, else STORE_ERROR. */
static int
change(struct store *st, sqlite3_stmt *q, const char *what)
{
	int rc = sqlite3_step(q);

	if (rc == SQLITE_DONE)
		return STORE_OK;
	if (rc == SQLITE_CONSTRAINT_UNIQUE || rc == SQLITE_CONSTRAINT_PRIMARYKEY)
		return STORE_EXISTS;
	db_log(st->db, what);
	return STORE_ERROR;
}

/*
 * Run one statement whose parameters ?1..?n are the n texts (a site key
 * among them) and that changes at most one row: STORE_OK, STORE_NOTFOUND
 * when it changed none (no such site, or nothing to remove), STORE_EXISTS
 * (see change()), or STORE_ERROR.
 */
static int
change_one(struct store *st, const char *sql, const char *const *texts, int n,
           const char *what)
{
	sqlite3_stmt *q = NULL;
	int i, rc;

	if (db_prepare(st->db, sql, &q) != 0)
		return STORE_ERROR;
	for (i = 0; i < n; i++)
		db_bind_text(q, i + 1, texts[i]);
	rc = change(st, q, what);
	if (rc == STORE_OK && sqlite3_changes(st->db) == 0)
		rc = STORE_NOTFOUND;
	sqlite3_finalize(q);
	return rc;
}

/* The id of the site with this key: STORE_OK, STORE_NOTFOUND, STORE_ERROR. */
static int
site_id(struct store *st, const char *key, int64_t *id)
{
	static const char sql[] = "SELECT id FROM sites WHERE site_key = ?1";
	sqlite3_stmt *q = NULL;
	int rc = STORE_ERROR;

	if (db_prepare(st->db, sql, &q) != 0)
		return STORE_ERROR;
	db_bind_text(q, 1, key);
	switch (sqlite3_step(q)) {
	case SQLITE_ROW:
		*id = sqlite3_column_int64(q, 0);
		rc = STORE_OK;
		break;
	case SQLITE_DONE:
		rc = STORE_NOTFOUND;
		break;
	default:
		db_log(st->db, "site lookup");
	}
	sqlite3_finalize(q);
	return rc;
}

/* PRAGMA user_version of db into *v: 0 or -1 (reported). */
static int
user_version(sqlite3 *db, int64_t *v)
{
	sqlite3_stmt *q = NULL;
	int rc = -1;

	if (db_prepare(db, "PRAGMA user_version", &q) != 0)
		return -1;
	if (sqlite3_step(q) == SQLITE_ROW) {
		*v = sqlite3_column_int64(q, 0);
		rc = 0;
	} else {
		db_log(db, "user_version");
	}
	sqlite3_finalize(q);
	return rc;
}

/* The user_version the schema text sets, found by applying it to an
 * in-memory database: 0 or -1 (reported). */
static int
schema_version(const char *schema_sql, int64_t *v)
{
	sqlite3 *mem = NULL;
	int rc = -1;

	if (sqlite3_open_v2(":memory:", &mem, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		db_log(mem, "schema");
		goto out;
	}
	if (sqlite3_exec(mem, schema_sql, NULL, NULL, NULL) != SQLITE_OK) {
		db_log(mem, "schema");
		goto out;
	}
	rc = user_version(mem, v);
out:
	sqlite3_close(mem);
	return rc;
}

/*
 * Columns that later schema versions added to tables an older database
 * already has.  CREATE TABLE IF NOT EXISTS leaves such a table as it is, so
 * init adds each column its table lacks before the schema runs; ALTER TABLE
 * ... ADD COLUMN keeps every row, with NULL in the new column.  Each
 * definition repeats the column's line of schema.sql.
 */
static const struct {
	const char *table, *column, *alter;
} added_columns[] = {
	/* version 3: whether the request carried Sec-GPC: 1 */
	{"consent_log", "gpc",
	    "ALTER TABLE consent_log ADD COLUMN gpc INTEGER CHECK (gpc IN (0, 1))"},
};

/*
 * Add every column of added_columns[] that its table lacks, where the table
 * exists (a new database gets it from the schema).  Inside the caller's
 * write transaction.  0 or -1 (reported).
 */
static int
add_columns(sqlite3 *db)
{
	static const char sql[] =
	    "SELECT count(*), count(*) FILTER (WHERE name = ?2)"
	    " FROM pragma_table_info(?1)";
	sqlite3_stmt *q = NULL, *alter = NULL;
	int rc = -1;

	if (db_prepare(db, sql, &q) != 0)
		return -1;
	for (size_t i = 0; i < sizeof(added_columns) / sizeof(added_columns[0]); i++) {
		int64_t columns, has;

		db_bind_text(q, 1, added_columns[i].table);
		db_bind_text(q, 2, added_columns[i].column);
		if (sqlite3_step(q) != SQLITE_ROW) {
			db_log(db, "schema upgrade");
			goto out;
		}
		columns = sqlite3_column_int64(q, 0);
		has = sqlite3_column_int64(q, 1);
		sqlite3_reset(q);   /* no read pending while the table changes */
		if (columns == 0 || has > 0)
			continue;
		if (db_prepare(db, added_columns[i].alter, &alter) != 0)
			goto out;
		if (sqlite3_step(alter) != SQLITE_DONE) {
			db_log(db, "schema upgrade");
			goto out;
		}
		sqlite3_finalize(alter);
		alter = NULL;
	}
	rc = 0;
out:
	sqlite3_finalize(alter);
	sqlite3_finalize(q);
	return rc;
}

/*
 * Every statement of the schema is idempotent, so applying it creates a new
 * database or adds what an older one lacks (columns: add_columns()).  The version check and the
 * schema run in one write transaction: a database newer than the schema is
 * left exactly as it was.  journal_mode is set afterwards (it cannot change
 * inside a transaction) and is persistent in the file.
 */
int
store_init(struct store *st, const char *schema_sql)
{
	sqlite3_stmt *q = NULL;
	int64_t want, have;
	const char *mode;
	int rc = STORE_ERROR;

	if (schema_version(schema_sql, &want) != 0)
		return STORE_ERROR;
	if (db_begin(st->db) != 0)
		return STORE_ERROR;
	if (user_version(st->db, &have) != 0)
		goto fail;
	if (have > want) {
		rc = STORE_EXISTS;
		goto fail;
	}
	if (add_columns(st->db) != 0)
		goto fail;
	if (sqlite3_exec(st->db, schema_sql, NULL, NULL, NULL) != SQLITE_OK) {
		db_log(st->db, "schema");
		goto fail;
	}
	if (db_commit(st->db) != 0)
		return STORE_ERROR;
	if (db_prepare(st->db, "PRAGMA journal_mode=WAL", &q) != 0)
		return STORE_ERROR;
	if (sqlite3_step(q) != SQLITE_ROW) {
		db_log(st->db, "journal_mode");
	} else if ((mode = (const char *)sqlite3_column_text(q, 0)) == NULL ||
	    strcmp(mode, "wal") != 0) {
		log_error("database %s: cannot use WAL mode (journal_mode is %s)",
		    st->path, mode ? mode : "unknown");
	} else {
		rc = STORE_OK;
	}
	sqlite3_finalize(q);
	return rc;
fail:
	db_rollback(st->db);
	return rc;
}

int
store_site_add(struct store *st, const char *key, const char *name,
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

	db_now(now, NULL);
	if (db_begin(st->db) != 0)
		return STORE_ERROR;
	if (db_prepare(st->db, site_sql, &q) != 0)
		goto out;
	db_bind_text(q, 1, key);
	db_bind_text(q, 2, name);
	db_bind_text(q, 3, free_tier ? "free" : "paid");
	if (mau_cap >= 0)
		sqlite3_bind_int64(q, 4, mau_cap);
	db_bind_text(q, 5, now);
	if ((rc = change(st, q, "site add")) != STORE_OK)
		goto out;
	rc = STORE_ERROR;
	id = sqlite3_last_insert_rowid(st->db);
	sqlite3_finalize(q);
	if (db_prepare(st->db, domain_sql, &q) != 0)
		goto out;
	for (i = 0; i < n; i++) {
		sqlite3_reset(q);
		sqlite3_bind_int64(q, 1, id);
		db_bind_text(q, 2, hosts[i]);
		if (change(st, q, "domain add") != STORE_OK)
			goto out;
	}
	sqlite3_finalize(q);
	q = NULL;
	return db_commit(st->db) == 0 ? STORE_OK : STORE_ERROR;
out:
	sqlite3_finalize(q);
	db_rollback(st->db);
	return rc;
}

int
store_site_set(struct store *st, const char *key, const char *name,
               int free_tier, int mau_cap_set, int64_t mau_cap)
{
	static const char sql[] =
	    "UPDATE sites SET name = coalesce(?2, name), tier = coalesce(?3, tier),"
	    " mau_cap = CASE WHEN ?4 THEN ?5 ELSE mau_cap END"
	    " WHERE site_key = ?1";
	sqlite3_stmt *q = NULL;
	int rc;

	if (db_prepare(st->db, sql, &q) != 0)
		return STORE_ERROR;
	db_bind_text(q, 1, key);
	db_bind_text(q, 2, name);
	db_bind_text(q, 3, free_tier < 0 ? NULL : free_tier ? "free" : "paid");
	sqlite3_bind_int(q, 4, mau_cap_set != 0);
	if (mau_cap >= 0)
		sqlite3_bind_int64(q, 5, mau_cap);
	rc = change(st, q, "site set");
	if (rc == STORE_OK && sqlite3_changes(st->db) == 0)
		rc = STORE_NOTFOUND;
	sqlite3_finalize(q);
	return rc;
}

int
store_site_pause(struct store *st, const char *key, int paused)
{
	static const char sql[] =
	    "UPDATE sites SET paused = CAST(?2 AS INTEGER) WHERE site_key = ?1";
	const char *const args[] = {key, paused ? "1" : "0"};

	return change_one(st, sql, args, 2, "site pause");
}

/* The columns of a site in list and show. */
#define SITE_COLUMNS \
	"s.site_key AS key, s.name AS name, s.tier AS tier, s.mau_cap AS mau_cap," \
	" s.paused AS paused, coalesce(c.version, 0) AS version," \
	" s.created_at AS created_at"

int
store_site_list(struct store *st, store_row_fn fn, void *arg)
{
	static const char sql[] =
	    "SELECT " SITE_COLUMNS
	    " FROM sites s LEFT JOIN configs c ON c.id = s.config_id"
	    " ORDER BY s.site_key";
	sqlite3_stmt *q = NULL;
	int rc;

	if (db_prepare(st->db, sql, &q) != 0)
		return STORE_ERROR;
	rc = walk(st, q, ALL_REQUIRED, fn, arg, "site list");
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
store_site_show(struct store *st, const char *key, cJSON **out)
{
	static const char site_sql[] =
	    "SELECT " SITE_COLUMNS ", c.published_at AS published_at,"
	    " coalesce((SELECT visitors FROM mau_counts"
	    "  WHERE site_id = s.id AND month = ?2), 0) AS mau"
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
	db_now(now, month);
	if (sqlite3_exec(st->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK) {
		db_log(st->db, "begin");
		return STORE_ERROR;
	}
	if (db_prepare(st->db, site_sql, &q) != 0)
		goto out;
	db_bind_text(q, 1, key);
	db_bind_text(q, 2, month);
	if ((rc = one_row(st, q, &site, "site show")) != STORE_OK)
		goto out;
	rc = STORE_ERROR;
	sqlite3_finalize(q);
	if (db_prepare(st->db, domain_sql, &q) != 0)
		goto out;
	db_bind_text(q, 1, key);
	if ((domains = cJSON_AddArrayToObject(site, "domains")) == NULL) {
		log_error("out of memory");
		goto out;
	}
	if ((rc = walk(st, q, ALL_REQUIRED, add_host, domains, "site show")) != STORE_OK)
		goto out;
	*out = site;
	site = NULL;
out:
	sqlite3_finalize(q);
	cJSON_Delete(site);
	db_rollback(st->db);
	return rc;
}

int
store_domain_add(struct store *st, const char *key, const char *host)
{
	static const char sql[] =
	    "INSERT INTO domains (site_id, host)"
	    " SELECT id, ?2 FROM sites WHERE site_key = ?1";
	const char *const args[] = {key, host};

	return change_one(st, sql, args, 2, "domain add");
}

/* STORE_NOTFOUND when the site is unknown or the host is not registered. */
int
store_domain_remove(struct store *st, const char *key, const char *host)
{
	static const char sql[] =
	    "DELETE FROM domains WHERE host = ?2"
	    " AND site_id = (SELECT id FROM sites WHERE site_key = ?1)";
	const char *const args[] = {key, host};

	return change_one(st, sql, args, 2, "domain remove");
}

/*
 * The new version is one more than the site's highest, decided inside the
 * write transaction, so two publishers never get the same number; the site
 * then points at it.  Older versions stay.
 */
/*
 * Replace what is stored as prepared from config version id by prep (NULL
 * or without a skeleton: nothing).  Inside the caller's write transaction.
 */
static int
store_prepared(struct store *st, int64_t id, const struct prepared *prep)
{
	static const char *const clear_sql[] = {
	    "DELETE FROM config_answers WHERE config_id = ?1",
	    "DELETE FROM config_skeletons WHERE config_id = ?1",
	};
	static const char skel_sql[] =
	    "INSERT INTO config_skeletons (config_id, skeleton, script_rules)"
	    " VALUES (?1, ?2, ?3)";
	static const char answer_sql[] =
	    "INSERT INTO config_answers (config_id, region, language, answer)"
	    " VALUES (?1, ?2, ?3, ?4)";
	sqlite3_stmt *q = NULL;
	int rc = STORE_ERROR;

	for (size_t i = 0; i < sizeof(clear_sql) / sizeof(clear_sql[0]); i++) {
		if (db_prepare(st->db, clear_sql[i], &q) != 0)
			return STORE_ERROR;
		sqlite3_bind_int64(q, 1, id);
		if (change(st, q, "config prepare") != STORE_OK)
			goto out;
		sqlite3_finalize(q);
		q = NULL;
	}
	if (prep == NULL || prep->skeleton == NULL)
		return STORE_OK;
	if (db_prepare(st->db, skel_sql, &q) != 0)
		return STORE_ERROR;
	sqlite3_bind_int64(q, 1, id);
	db_bind_text(q, 2, prep->skeleton);
	db_bind_text(q, 3, prep->script_rules);
	if (change(st, q, "config prepare") != STORE_OK)
		goto out;
	sqlite3_finalize(q);
	if (db_prepare(st->db, answer_sql, &q) != 0)
		return STORE_ERROR;
	for (size_t i = 0; i < prep->n; i++) {
		sqlite3_reset(q);
		sqlite3_bind_int64(q, 1, id);
		db_bind_text(q, 2, prep->a[i].region);
		db_bind_text(q, 3, prep->a[i].language);
		db_bind_text(q, 4, prep->a[i].answer);
		if (change(st, q, "config prepare") != STORE_OK)
			goto out;
	}
	rc = STORE_OK;
out:
	sqlite3_finalize(q);
	return rc;
}

int
store_config_prepare_live(struct store *st, store_prepare_fn fn, void *arg)
{
	static const char sql[] =
	    "SELECT c.id, c.document FROM sites s JOIN configs c ON c.id = s.config_id";
	sqlite3_stmt *q = NULL;
	struct { int64_t id; char *doc; } *v = NULL, *grown;
	size_t n = 0, cap = 0;
	int rc = STORE_ERROR, step;

	if (db_begin(st->db) != 0)
		return STORE_ERROR;
	if (db_prepare(st->db, sql, &q) != 0)
		goto out;
	/* Read them all first: the inserts below must not run under the scan. */
	while ((step = sqlite3_step(q)) == SQLITE_ROW) {
		const unsigned char *d = sqlite3_column_text(q, 1);
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			if ((grown = realloc(v, cap * sizeof(*v))) == NULL) {
				log_error("out of memory");
				goto out;
			}
			v = grown;
		}
		v[n].id = sqlite3_column_int64(q, 0);
		if ((v[n].doc = strdup(d ? (const char *)d : "")) == NULL) {
			log_error("out of memory");
			goto out;
		}
		n++;
	}
	if (step != SQLITE_DONE) {
		db_log(st->db, "config prepare");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		struct prepared prep;
		int made = fn(arg, v[i].doc, &prep), stored;
		if (made < 0)
			goto out;
		stored = store_prepared(st, v[i].id, made == 0 ? &prep : NULL);
		if (made == 0)
			resolve_prepared_free(&prep);
		if (stored != STORE_OK)
			goto out;
	}
	rc = STORE_OK;
out:
	sqlite3_finalize(q);
	for (size_t i = 0; i < n; i++)
		free(v[i].doc);
	free(v);
	if (rc == STORE_OK)
		return db_commit(st->db) == 0 ? STORE_OK : STORE_ERROR;
	db_rollback(st->db);
	return rc;
}

int
store_config_publish(struct store *st, const char *key, const char *doc,
                     const struct prepared *prep, int64_t *version)
{
	static const char insert_sql[] =
	    "INSERT INTO configs (site_id, version, document, published_at)"
	    " SELECT ?1, coalesce(max(version), 0) + 1, ?2, ?3"
	    " FROM configs WHERE site_id = ?1";
	static const char point_sql[] =
	    "UPDATE sites SET config_id = ?2 WHERE id = ?1";
	static const char version_sql[] = "SELECT version FROM configs WHERE id = ?1";
	sqlite3_stmt *q = NULL;
	char now[32];
	int64_t id, config;
	int rc = STORE_ERROR;

	db_now(now, NULL);
	if (db_begin(st->db) != 0)
		return STORE_ERROR;
	if ((rc = site_id(st, key, &id)) != STORE_OK)
		goto out;
	rc = STORE_ERROR;
	if (db_prepare(st->db, insert_sql, &q) != 0)
		goto out;
	sqlite3_bind_int64(q, 1, id);
	db_bind_text(q, 2, doc);
	db_bind_text(q, 3, now);
	if (change(st, q, "config publish") != STORE_OK)
		goto out;
	config = sqlite3_last_insert_rowid(st->db);
	sqlite3_finalize(q);
	if (db_prepare(st->db, point_sql, &q) != 0)
		goto out;
	sqlite3_bind_int64(q, 1, id);
	sqlite3_bind_int64(q, 2, config);
	if (change(st, q, "config publish") != STORE_OK)
		goto out;
	sqlite3_finalize(q);
	if (db_prepare(st->db, version_sql, &q) != 0)
		goto out;
	sqlite3_bind_int64(q, 1, config);
	if (sqlite3_step(q) != SQLITE_ROW) {
		db_log(st->db, "config publish");
		goto out;
	}
	*version = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	q = NULL;
	if (store_prepared(st, config, prep) != STORE_OK)
		goto out;
	return db_commit(st->db) == 0 ? STORE_OK : STORE_ERROR;
out:
	sqlite3_finalize(q);
	db_rollback(st->db);
	return rc;
}

/* STORE_NOTFOUND for an unknown site, STORE_EXISTS for a used sync_id. */
int
store_sync_start(struct store *st, const char *key, const char *sync_id)
{
	static const char sql[] =
	    "INSERT INTO syncs (sync_id, site_id, created_at)"
	    " SELECT ?2, id, ?3 FROM sites WHERE site_key = ?1";
	char now[32];
	const char *const args[] = {key, sync_id, now};

	db_now(now, NULL);
	return change_one(st, sql, args, 3, "sync start");
}

int
store_sync_show(struct store *st, const char *sync_id, cJSON **out)
{
	static const char sql[] =
	    "SELECT y.sync_id AS sync_id, s.site_key AS site_key, y.status AS status,"
	    " y.error AS error, y.page_url AS page_url, y.created_at AS created_at,"
	    " y.finished_at AS finished_at"
	    " FROM syncs y JOIN sites s ON s.id = y.site_id WHERE y.sync_id = ?1";
	sqlite3_stmt *q = NULL;
	int rc;

	*out = NULL;
	if (db_prepare(st->db, sql, &q) != 0)
		return STORE_ERROR;
	db_bind_text(q, 1, sync_id);
	rc = one_row(st, q, out, "sync show");
	sqlite3_finalize(q);
	return rc;
}

/*
 * Columns 0-13 are always present (CONTRACT 3, and gpc: true, false, or null
 * for an entry stored before it was recorded); from EXPORT_OPTIONAL on, the
 * optional request fields appear only when the client sent them.
 */
#define EXPORT_OPTIONAL 14

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
	    " device_type AS device_type, country AS country, gpc AS gpc,"
	    /* EXPORT_OPTIONAL */
	    " regulation AS regulation, time_to_action_ms AS time_to_action_ms,"
	    " interaction AS interaction, preferences_opened AS preferences_opened,"
	    " banner_load_time_ms AS banner_load_time_ms,"
	    " banner_position AS banner_position, page_url AS page_url,"
	    " sdk_version AS sdk_version, language AS language,"
	    " resolved_language AS resolved_language"
	    " FROM consent_log WHERE site_id = ?1"
	    " AND (?2 IS NULL OR created_at >= ?2)"
	    " ORDER BY created_at, id";
	sqlite3_stmt *q = NULL;
	int64_t id;
	int rc;

	if ((rc = site_id(st, key, &id)) != STORE_OK)
		return rc;
	if (db_prepare(st->db, sql, &q) != 0)
		return STORE_ERROR;
	sqlite3_bind_int64(q, 1, id);
	db_bind_text(q, 2, since);
	rc = walk(st, q, EXPORT_OPTIONAL, fn, arg, "consent export");
	sqlite3_finalize(q);
	return rc;
}

int
store_scripts_list(struct store *st, const char *key, store_row_fn fn, void *arg)
{
	static const char sql[] =
	    "SELECT domain AS domain, category AS category, blocked AS blocked,"
	    " first_seen AS first_seen, last_seen AS last_seen,"
	    " seen_count AS seen_count, last_src AS last_src,"
	    " last_page_url AS last_page_url"
	    " FROM scripts WHERE site_id = ?1 ORDER BY domain";
	sqlite3_stmt *q = NULL;
	int64_t id;
	int rc;

	if ((rc = site_id(st, key, &id)) != STORE_OK)
		return rc;
	if (db_prepare(st->db, sql, &q) != 0)
		return STORE_ERROR;
	sqlite3_bind_int64(q, 1, id);
	rc = walk(st, q, ALL_REQUIRED, fn, arg, "scripts list");
	sqlite3_finalize(q);
	return rc;
}

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
	if ((rc = site_id(st, key, &id)) != STORE_OK)
		return rc;
	if (db_prepare(st->db, sql, &q) != 0)
		return STORE_ERROR;
	sqlite3_bind_int64(q, 1, id);
	db_bind_text(q, 2, month);
	rc = one_row(st, q, out, "stats");
	if (rc == STORE_NOTFOUND)  /* an aggregate always has a row */
		rc = STORE_ERROR;
	sqlite3_finalize(q);
	return rc;
}
