/* sqlite_builtin.c: the SQLite store of the built-in texts of every build (builtin_texts). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/log.h"
#include "store/sqlite/sqlite_store.h"

int
sqlite_store_builtin_record(struct store *st, const char *sha256, const char *pieces, size_t len)
{
	static const char sql[] =
	    "INSERT OR IGNORE INTO builtin_texts (sha256, pieces, recorded_at) VALUES (?1, ?2, ?3)";
	sqlite3_stmt *q = NULL;
	char now[32];
	int rc = STORE_ERROR;

	if (len > INT_MAX) {
		log_error("built-in texts of %zu bytes: too long to record", len);
		return STORE_ERROR;
	}
	if (sqlite_db_prepare(st->db, sql, &q) != 0)
		return STORE_ERROR;
	clock_now(now, NULL);
	sqlite_db_bind_text(q, 1, sha256);
	sqlite3_bind_text(q, 2, pieces, (int)len, SQLITE_TRANSIENT);
	sqlite_db_bind_text(q, 3, now);
	if (sqlite3_step(q) == SQLITE_DONE)
		rc = STORE_OK;
	else
		sqlite_db_log(st->db, "record built-in texts");
	sqlite3_finalize(q);
	return rc;
}

/* A copy of column i's bytes with a NUL after them, into *out and *len. */
static int
column_copy(sqlite3_stmt *q, int i, char **out, size_t *len)
{
	const void *p = sqlite3_column_blob(q, i);
	size_t n = (size_t)sqlite3_column_bytes(q, i);

	if ((*out = malloc(n + 1)) == NULL) {
		log_error("out of memory");
		return STORE_ERROR;
	}
	if (n > 0)
		memcpy(*out, p, n);
	(*out)[n] = '\0';
	*len = n;
	return STORE_OK;
}

int
sqlite_store_builtin_get(struct store *st, const char *sha256, char **pieces, size_t *len)
{
	static const char sql[] = "SELECT pieces FROM builtin_texts WHERE sha256 = ?1";
	sqlite3_stmt *q = NULL;
	int rc = STORE_ERROR;

	*pieces = NULL;
	*len = 0;
	if (sqlite_db_prepare(st->db, sql, &q) != 0)
		return STORE_ERROR;
	sqlite_db_bind_text(q, 1, sha256);
	switch (sqlite3_step(q)) {
	case SQLITE_ROW:
		rc = column_copy(q, 0, pieces, len);
		break;
	case SQLITE_DONE:
		rc = STORE_NOTFOUND;
		break;
	default:
		sqlite_db_log(st->db, "built-in texts");
	}
	sqlite3_finalize(q);
	return rc;
}

int
sqlite_store_builtin_each(struct store *st, store_builtin_fn fn, void *arg)
{
	static const char sql[] =
	    "SELECT sha256, pieces, recorded_at FROM builtin_texts ORDER BY recorded_at, sha256";
	sqlite3_stmt *q = NULL;
	int rc = STORE_ERROR, step;

	if (sqlite_db_prepare(st->db, sql, &q) != 0)
		return STORE_ERROR;
	while ((step = sqlite3_step(q)) == SQLITE_ROW) {
		const char *sha = (const char *)sqlite3_column_text(q, 0);
		const char *at = (const char *)sqlite3_column_text(q, 2);
		char *pieces;
		size_t len;

		if (column_copy(q, 1, &pieces, &len) != STORE_OK)
			goto out;
		rc = fn(arg, sha ? sha : "", pieces, len, at ? at : "");
		free(pieces);
		if (rc != STORE_OK)
			goto out;
	}
	if (step != SQLITE_DONE) {
		sqlite_db_log(st->db, "built-in texts");
		rc = STORE_ERROR;
		goto out;
	}
	rc = STORE_OK;
out:
	sqlite3_finalize(q);
	return rc;
}

int
sqlite_store_builtin_missing(struct store *st, const char *key, int64_t *n)
{
	static const char sql[] =
	    "SELECT count(*) FROM consent_log l WHERE l.site_id = ?1"
	    " AND l.builtin_sha256 IS NOT NULL AND NOT EXISTS"
	    " (SELECT 1 FROM builtin_texts b WHERE b.sha256 = l.builtin_sha256)";

	*n = 0;
	return sqlite_site_int64(st, key, sql, n, "built-in texts not recorded");
}
