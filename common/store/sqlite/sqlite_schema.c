/* sqlite_schema.c: the SQLite store creates and upgrades its schema (consentctl init). */
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "base/log.h"
#include "base/nitems.h"
#include "store/sqlite/sqlite_store.h"

/* PRAGMA user_version of db into *v: 0 or -1 (reported). */
static int
user_version(sqlite3 *db, int64_t *v)
{
	sqlite3_stmt *q = NULL;
	int rc = -1;

	if (sqlite_db_prepare(db, "PRAGMA user_version", &q) != 0)
		return -1;
	if (sqlite3_step(q) == SQLITE_ROW) {
		*v = sqlite3_column_int64(q, 0);
		rc = 0;
	} else {
		sqlite_db_log(db, "user_version");
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
		sqlite_db_log(mem, "schema");
		goto out;
	}
	if (sqlite3_exec(mem, schema_sql, NULL, NULL, NULL) != SQLITE_OK) {
		sqlite_db_log(mem, "schema");
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
	/* version 4: the proof of the log, retention */
	{"consent_log", "digest",
	    "ALTER TABLE consent_log ADD COLUMN digest TEXT"
	    " CHECK (digest IS NULL OR length(digest) = 64)"},
	{"consent_log", "seal_id",
	    "ALTER TABLE consent_log ADD COLUMN seal_id INTEGER REFERENCES consent_seals(id)"},
	{"consent_log", "builtin_sha256",
	    "ALTER TABLE consent_log ADD COLUMN builtin_sha256 TEXT"
	    " CHECK (builtin_sha256 IS NULL OR length(builtin_sha256) = 64)"},
	{"configs", "sha256",
	    "ALTER TABLE configs ADD COLUMN sha256 TEXT"
	    " CHECK (sha256 IS NULL OR length(sha256) = 64)"},
	{"sites", "retention_days",
	    "ALTER TABLE sites ADD COLUMN retention_days INTEGER"
	    " CHECK (retention_days IS NULL OR retention_days >= 1)"},
	/* version 5: who published a config (the dashboard's versions) */
	{"configs", "published_by",
	    "ALTER TABLE configs ADD COLUMN published_by TEXT"},
};

/*
 * Version 4: the SHA-256 of every published document that lacks one (the
 * entries' digests name it).  Inside the caller's write transaction.
 * 0 or -1 (reported).
 */
static int
hash_configs(sqlite3 *db)
{
	static const char sel[] = "SELECT id, document FROM configs WHERE sha256 IS NULL";
	static const char upd[] = "UPDATE configs SET sha256 = ?2 WHERE id = ?1";
	sqlite3_stmt *q = NULL, *u = NULL;
	char sha[65];
	int rc = -1, step;

	if (sqlite_db_prepare(db, sel, &q) != 0 || sqlite_db_prepare(db, upd, &u) != 0)
		goto out;
	while ((step = sqlite3_step(q)) == SQLITE_ROW) {
		const void *doc = sqlite3_column_blob(q, 1);

		if (hash_sha256_hex(doc ? doc : "", (size_t)sqlite3_column_bytes(q, 1), sha) != 0)
			goto out;
		sqlite3_reset(u);
		sqlite3_bind_int64(u, 1, sqlite3_column_int64(q, 0));
		sqlite_db_bind_text(u, 2, sha);
		if (sqlite3_step(u) != SQLITE_DONE)
			break;
	}
	if (step != SQLITE_DONE) {
		sqlite_db_log(db, "schema upgrade: config digests");
		goto out;
	}
	rc = 0;
out:
	sqlite3_finalize(q);
	sqlite3_finalize(u);
	return rc;
}

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

	if (sqlite_db_prepare(db, sql, &q) != 0)
		return -1;
	for (size_t i = 0; i < nitems(added_columns); i++) {
		int64_t columns, has;

		sqlite_db_bind_text(q, 1, added_columns[i].table);
		sqlite_db_bind_text(q, 2, added_columns[i].column);
		if (sqlite3_step(q) != SQLITE_ROW) {
			sqlite_db_log(db, "schema upgrade");
			goto out;
		}
		columns = sqlite3_column_int64(q, 0);
		has = sqlite3_column_int64(q, 1);
		sqlite3_reset(q);   /* no read pending while the table changes */
		if (columns == 0 || has > 0)
			continue;
		if (sqlite_db_prepare(db, added_columns[i].alter, &alter) != 0)
			goto out;
		if (sqlite3_step(alter) != SQLITE_DONE) {
			sqlite_db_log(db, "schema upgrade");
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
 * database or adds what an older one lacks (columns: add_columns()).  The
 * version check and the
 * schema run in one write transaction: a database newer than the schema is
 * left exactly as it was.  journal_mode is set afterwards (it cannot change
 * inside a transaction) and is persistent in the file.
 */
int
sqlite_store_init(struct store *st, int64_t *from)
{
	sqlite3_stmt *q = NULL;
	int64_t want, have;
	const char *mode;
	int rc = STORE_ERROR;
	const char *schema_sql = schema_data;

	if (schema_version(schema_sql, &want) != 0)
		return STORE_ERROR;
	if (sqlite_db_begin(st->db) != 0)
		return STORE_ERROR;
	if (user_version(st->db, &have) != 0)
		goto fail;
	*from = have;
	if (have > want) {
		rc = STORE_EXISTS;
		goto fail;
	}
	if (add_columns(st->db) != 0)
		goto fail;
	if (sqlite3_exec(st->db, schema_sql, NULL, NULL, NULL) != SQLITE_OK) {
		sqlite_db_log(st->db, "schema");
		goto fail;
	}
	if (hash_configs(st->db) != 0)
		goto fail;
	if (sqlite_db_commit(st->db) != 0)
		return STORE_ERROR;
	if (sqlite_db_prepare(st->db, "PRAGMA journal_mode=WAL", &q) != 0)
		return STORE_ERROR;
	if (sqlite3_step(q) != SQLITE_ROW) {
		sqlite_db_log(st->db, "journal_mode");
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
	sqlite_db_rollback(st->db);
	return rc;
}

