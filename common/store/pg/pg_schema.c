/* pg_schema.c: the PostgreSQL store's schema: consentctl init creates it, or finds it current. */
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/nitems.h"
#include "store/pg/pg_store.h"

/* The advisory lock every init takes for its transaction: two inits (two
 * hosts set up at once) run one after the other.  Any fixed number: it
 * names this lock among the database's advisory locks. */
#define SCHEMA_LOCK "7301190417"

/* The version schema_pg.sql records (its INSERT INTO schema_version), which
 * must be schema.sql's user_version (t0105 compares them): -1 if the text
 * has none. */
static int64_t
schema_text_version(void)
{
	static const char mark[] = "INSERT INTO schema_version (version) VALUES (";
	const char *p = strstr(schema_pg_data, mark);

	return p != NULL ? strtoll(p + sizeof(mark) - 1, NULL, 10) : -1;
}

/*
 * Columns that later schema versions added to tables of an earlier one,
 * each added where it is missing, as SQLite's added_columns[]: whatever
 * way a database came to this version, it has them.
 */
static const struct {
	const char *table, *column, *alter;
} added_columns[] = {
	/* version 5: who published a config (the dashboard's versions) */
	{"configs", "published_by", "ALTER TABLE configs ADD COLUMN published_by text COLLATE \"C\""},
};

/* Add every column of added_columns[] that its table lacks: 0 or -1. */
static int
add_columns(struct store *st)
{
	static const char has_sql[] =
	    "SELECT count(*) FROM pg_attribute WHERE attrelid = to_regclass($1)"
	    " AND attname = $2 AND NOT attisdropped";

	for (size_t i = 0; i < nitems(added_columns); i++) {
		const char *p[] = {added_columns[i].table, added_columns[i].column};
		int64_t has = 0;

		if (pg_run_int64(st, has_sql, PG_NPARAMS(p), p, &has, "schema column") != STORE_OK)
			return -1;
		if (has == 0 &&
		    pg_run(st, added_columns[i].alter, 0, NULL, NULL, "schema column") != STORE_OK)
			return -1;
	}
	return 0;
}

/*
 * In one transaction under the advisory lock: a database without the
 * version table gets the whole schema (CREATE TABLE fails on a table of
 * the same name, which rolls everything back: init creates the schema in
 * an empty database, or in one that holds other tables but none of these);
 * a database at this version is left as it is; a newer one is refused.
 * There is no older PostgreSQL schema to upgrade yet: the first is version
 * 4, as schema.sql was when this store was written.
 */
int
pg_store_init(struct store *st, int64_t *from)
{
	int64_t want = schema_text_version(), have = 0, present = 0;
	int rc = STORE_ERROR;

	*from = 0;
	if (want < 1) {
		log_error("schema_pg.sql records no schema version");
		return STORE_ERROR;
	}
	if (pg_begin(st, "") != 0)
		return STORE_ERROR;
	if (pg_run(st, "SELECT pg_advisory_xact_lock(" SCHEMA_LOCK ")", 0, NULL, NULL,
	    "schema lock") != STORE_OK)
		goto fail;
	if (pg_run_int64(st, "SELECT (to_regclass('schema_version') IS NOT NULL)::int", 0, NULL,
	    &present, "schema version") != STORE_OK)
		goto fail;
	if (present) {
		if (pg_run_int64(st, "SELECT max(version) FROM schema_version", 0, NULL, &have,
		    "schema version") != STORE_OK)
			goto fail;
		*from = have;
		if (have > want) {
			rc = STORE_EXISTS;
			goto fail;
		}
		if (have < want) {
			log_error("database schema version %lld: this program knows no way from it to %lld",
			    (long long)have, (long long)want);
			goto fail;
		}
	} else if (pg_script(st, schema_pg_data, "schema") != STORE_OK) {
		goto fail;
	}
	if (add_columns(st) != 0)
		goto fail;
	if (pg_commit(st) != 0)
		return STORE_ERROR;
	return STORE_OK;
fail:
	pg_rollback(st);
	return rc;
}
