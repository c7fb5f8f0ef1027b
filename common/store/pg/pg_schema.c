/* pg_schema.c: the PostgreSQL store's schema: consentctl init creates it, or finds it current. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
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
 * What a database at version have lacks: the text of schema_pg.sql from
 * the line "-- Version N:" of the next version on, to its end (what each
 * version adds is written there, after the versions before it).  NULL
 * when the text has no such line.
 */
static const char *
schema_since(int64_t have)
{
	char mark[48];
	const char *p;

	snprintf(mark, sizeof(mark), "\n-- Version %lld:", (long long)(have + 1));
	p = strstr(schema_pg_data, mark);
	return p != NULL ? p + 1 : NULL;
}

/*
 * In one transaction under the advisory lock: a database without the
 * version table gets the whole schema (CREATE TABLE fails on a table of
 * the same name, which rolls everything back: init creates the schema in
 * an empty database, or in one that holds other tables but none of these);
 * an older one gets what the versions after its own added (schema_since),
 * every row kept, and the new version; a database at this version is left
 * as it is; a newer one is refused.  The first PostgreSQL schema was
 * version 4, as schema.sql was when this store was written.
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
			const char *since = schema_since(have);
			char set[80];

			if (since == NULL) {
				log_error("database schema version %lld: this program knows no way"
				    " from it to %lld", (long long)have, (long long)want);
				goto fail;
			}
			snprintf(set, sizeof(set), "UPDATE schema_version SET version = %lld",
			    (long long)want);
			if (pg_script(st, since, "schema upgrade") != STORE_OK ||
			    pg_run(st, set, 0, NULL, NULL, "schema version") != STORE_OK)
				goto fail;
		}
	} else if (pg_script(st, schema_pg_data, "schema") != STORE_OK) {
		goto fail;
	}
	if (pg_commit(st) != 0)
		return STORE_ERROR;
	return STORE_OK;
fail:
	pg_rollback(st);
	return rc;
}
