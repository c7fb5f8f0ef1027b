/* sqlite_configs.c: the SQLite store of published configs and what is prepared from them. */
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/hash.h"
#include "base/log.h"
#include "base/nitems.h"
#include "store/sqlite/sqlite_store.h"

/*
 * Replace what is stored as prepared from config version id by prep (NULL
 * or without a skeleton: nothing).  Inside the caller's write transaction.
 */
static int
put_prepared(struct store *st, int64_t id, const struct store_prepared *prep)
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

	for (size_t i = 0; i < nitems(clear_sql); i++) {
		if (sqlite_db_prepare(st->db, clear_sql[i], &q) != 0)
			return STORE_ERROR;
		sqlite3_bind_int64(q, 1, id);
		if (sqlite_change(st, q, "config prepare") != STORE_OK)
			goto out;
		sqlite3_finalize(q);
		q = NULL;
	}
	if (prep == NULL || prep->skeleton == NULL)
		return STORE_OK;
	if (sqlite_db_prepare(st->db, skel_sql, &q) != 0)
		return STORE_ERROR;
	sqlite3_bind_int64(q, 1, id);
	sqlite_db_bind_text(q, 2, prep->skeleton);
	sqlite_db_bind_text(q, 3, prep->script_rules);
	if (sqlite_change(st, q, "config prepare") != STORE_OK)
		goto out;
	sqlite3_finalize(q);
	if (sqlite_db_prepare(st->db, answer_sql, &q) != 0)
		return STORE_ERROR;
	for (size_t i = 0; i < prep->n; i++) {
		sqlite3_reset(q);
		sqlite3_bind_int64(q, 1, id);
		sqlite_db_bind_text(q, 2, prep->a[i].region);
		sqlite_db_bind_text(q, 3, prep->a[i].language);
		sqlite_db_bind_text(q, 4, prep->a[i].answer);
		if (sqlite_change(st, q, "config prepare") != STORE_OK)
			goto out;
	}
	rc = STORE_OK;
out:
	sqlite3_finalize(q);
	return rc;
}

int
sqlite_store_config_prepare_live(struct store *st, const struct store_preparer *p)
{
	static const char sql[] =
	    "SELECT c.id, c.document FROM sites s JOIN configs c ON c.id = s.config_id";
	sqlite3_stmt *q = NULL;
	struct { int64_t id; char *doc; } *v = NULL, *grown;
	size_t n = 0, cap = 0;
	int rc = STORE_ERROR, step;

	if (sqlite_db_begin(st->db) != 0)
		return STORE_ERROR;
	if (sqlite_db_prepare(st->db, sql, &q) != 0)
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
		sqlite_db_log(st->db, "config prepare");
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		if (store_prepare_config(st, p, v[i].id, v[i].doc, put_prepared) != STORE_OK)
			goto out;
	rc = STORE_OK;
out:
	sqlite3_finalize(q);
	for (size_t i = 0; i < n; i++)
		free(v[i].doc);
	free(v);
	if (rc == STORE_OK)
		return sqlite_db_commit(st->db) == 0 ? STORE_OK : STORE_ERROR;
	sqlite_db_rollback(st->db);
	return rc;
}

int
sqlite_store_config_publish(struct store *st, const char *key, const char *doc,
                            const struct store_prepared *prep, const char *publisher,
                            int64_t *version)
{
	static const char insert_sql[] =
	    "INSERT INTO configs (site_id, version, document, published_at, sha256, published_by)"
	    " SELECT ?1, coalesce(max(version), 0) + 1, ?2, ?3, ?4, ?5"
	    " FROM configs WHERE site_id = ?1";
	static const char point_sql[] =
	    "UPDATE sites SET config_id = ?2 WHERE id = ?1";
	static const char version_sql[] = "SELECT version FROM configs WHERE id = ?1";
	sqlite3_stmt *q = NULL;
	char now[32], sha[65];
	int64_t id, config;
	int rc = STORE_ERROR;

	clock_now(now, NULL);
	/* Every entry stored under this version names the document by it. */
	if (hash_sha256_hex(doc, strlen(doc), sha) != 0)
		return STORE_ERROR;
	if (sqlite_db_begin(st->db) != 0)
		return STORE_ERROR;
	if ((rc = sqlite_site_id(st, key, &id)) != STORE_OK)
		goto out;
	rc = STORE_ERROR;
	if (sqlite_db_prepare(st->db, insert_sql, &q) != 0)
		goto out;
	sqlite3_bind_int64(q, 1, id);
	sqlite_db_bind_text(q, 2, doc);
	sqlite_db_bind_text(q, 3, now);
	sqlite_db_bind_text(q, 4, sha);
	sqlite_db_bind_text(q, 5, publisher);
	if (sqlite_change(st, q, "config publish") != STORE_OK)
		goto out;
	config = sqlite3_last_insert_rowid(st->db);
	sqlite3_finalize(q);
	if (sqlite_db_prepare(st->db, point_sql, &q) != 0)
		goto out;
	sqlite3_bind_int64(q, 1, id);
	sqlite3_bind_int64(q, 2, config);
	if (sqlite_change(st, q, "config publish") != STORE_OK)
		goto out;
	sqlite3_finalize(q);
	if (sqlite_db_prepare(st->db, version_sql, &q) != 0)
		goto out;
	sqlite3_bind_int64(q, 1, config);
	if (sqlite3_step(q) != SQLITE_ROW) {
		sqlite_db_log(st->db, "config publish");
		goto out;
	}
	*version = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	q = NULL;
	if (put_prepared(st, config, prep) != STORE_OK)
		goto out;
	return sqlite_db_commit(st->db) == 0 ? STORE_OK : STORE_ERROR;
out:
	sqlite3_finalize(q);
	sqlite_db_rollback(st->db);
	return rc;
}

int
sqlite_store_config_version(struct store *st, const char *key, int64_t version,
                            char **document, char sha256[65])
{
	static const char sql[] =
	    "SELECT c.document, c.sha256 FROM configs c JOIN sites s ON s.id = c.site_id"
	    " WHERE s.site_key = ?1 AND c.version = ?2";
	sqlite3_stmt *q = NULL;
	int rc = STORE_ERROR;

	*document = NULL;
	sha256[0] = '\0';
	if (sqlite_db_prepare(st->db, sql, &q) != 0)
		return STORE_ERROR;
	sqlite_db_bind_text(q, 1, key);
	sqlite3_bind_int64(q, 2, version);
	switch (sqlite3_step(q)) {
	case SQLITE_ROW:
		if ((*document = sqlite_text_dup(q, 0)) == NULL) {
			log_error("out of memory");
			break;
		}
		if (sqlite3_column_bytes(q, 1) == 64)
			memcpy(sha256, sqlite3_column_text(q, 1), 65);
		rc = STORE_OK;
		break;
	case SQLITE_DONE:
		rc = STORE_NOTFOUND;
		break;
	default:
		sqlite_db_log(st->db, "config version");
	}
	sqlite3_finalize(q);
	return rc;
}

static const struct store_column version_columns[] = { VERSION_COLUMN_LIST };

int
sqlite_store_config_versions(struct store *st, const char *key, store_row_fn fn, void *arg)
{
	static const char sql[] =
	    "SELECT version AS version, sha256 AS sha256, document AS document"
	    " FROM configs WHERE site_id = ?1 AND ?2 IS NULL ORDER BY version";

	return sqlite_site_rows(st, key, sql, NULL, version_columns,
	    nitems(version_columns), fn, arg, "config versions");
}

static const struct store_column history_columns[] = { HISTORY_COLUMN_LIST };

int
sqlite_store_config_history(struct store *st, const char *key, store_row_fn fn, void *arg)
{
	static const char sql[] =
	    "SELECT version AS version, published_at AS published_at,"
	    " published_by AS published_by, sha256 AS sha256"
	    " FROM configs WHERE site_id = ?1 AND ?2 IS NULL ORDER BY version DESC";

	return sqlite_site_rows(st, key, sql, NULL, history_columns,
	    nitems(history_columns), fn, arg, "config history");
}
