/* sqlite_proof.c: the SQLite store of the proof of the log: seals, leaves, erasure, purge. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/clock.h"
#include "base/log.h"
#include "base/nitems.h"
#include "store/sqlite/sqlite_store.h"

/* A read transaction takes its snapshot at its first read: take it now. */
int
sqlite_store_snapshot(struct store *st, int begin)
{
	sqlite3_stmt *q = NULL;
	int rc = STORE_ERROR;

	if (!begin) {
		sqlite_db_rollback(st->db);
		return STORE_OK;
	}
	if (sqlite3_exec(st->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK) {
		sqlite_db_log(st->db, "begin");
		return STORE_ERROR;
	}
	if (sqlite_db_prepare(st->db, "SELECT count(*) FROM sites", &q) == 0 &&
	    sqlite3_step(q) == SQLITE_ROW)
		rc = STORE_OK;
	else
		sqlite_db_log(st->db, "snapshot");
	sqlite3_finalize(q);
	if (rc != STORE_OK)
		sqlite_db_rollback(st->db);
	return rc;
}

int
sqlite_store_consent_find(struct store *st, const char *key, const char *anon_id_hash,
                          store_row_fn fn, void *arg)
{
	static const char sql[] =
	    "SELECT " LOG_ROW " FROM " LOG_FROM
	    " WHERE l.site_id = ?1 AND l.anon_id_hash = ?2 ORDER BY l.created_at, l.id";

	return sqlite_site_rows(st, key, sql, anon_id_hash, store_log_columns,
	    store_log_ncolumns, fn, arg, "consent find");
}

int
sqlite_store_unsealed(struct store *st, const char *key, store_row_fn fn, void *arg)
{
	static const char sql[] =
	    "SELECT " LOG_ROW " FROM " LOG_FROM
	    " WHERE l.site_id = ?1 AND l.seal_id IS NULL AND ?2 IS NULL"
	    " ORDER BY l.created_at, l.id";

	return sqlite_site_rows(st, key, sql, NULL, store_log_columns,
	    store_log_ncolumns, fn, arg, "unsealed entries");
}

int
sqlite_store_consent_count(struct store *st, const char *key, int64_t *n)
{
	static const char sql[] = "SELECT count(*) FROM consent_log WHERE site_id = ?1";

	return sqlite_site_int64(st, key, sql, n, "count entries");
}

static const struct store_column seal_columns[] = { SEAL_COLUMN_LIST };

int
sqlite_store_seals(struct store *st, const char *key, store_row_fn fn, void *arg)
{
	static const char sql[] =
	    "SELECT seq AS seq, sealed_at AS sealed_at, tree_size AS tree_size,"
	    " root AS root, prev AS prev, hash AS hash FROM consent_seals"
	    " WHERE site_id = ?1 AND ?2 IS NULL ORDER BY seq";

	return sqlite_site_rows(st, key, sql, NULL, seal_columns, nitems(seal_columns),
	    fn, arg, "seals");
}

/* The row id of the site's seal seq: STORE_OK, STORE_NOTFOUND, STORE_ERROR. */
static int
seal_id(struct store *st, int64_t site, int64_t seq, int64_t *id)
{
	static const char sql[] =
	    "SELECT id FROM consent_seals WHERE site_id = ?1 AND seq = ?2";
	sqlite3_stmt *q = NULL;
	int rc;

	if (sqlite_db_prepare(st->db, sql, &q) != 0)
		return STORE_ERROR;
	sqlite3_bind_int64(q, 1, site);
	sqlite3_bind_int64(q, 2, seq);
	rc = sqlite_step_int64(st, q, id, "seal lookup");
	sqlite3_finalize(q);
	return rc;
}

int
sqlite_store_seal_leaves(struct store *st, const char *key, int64_t seq,
                         store_row_fn fn, void *arg)
{
	static const char sql[] =
	    "SELECT " LOG_ROW " FROM " LOG_FROM " WHERE l.seal_id = ?1 AND l.site_id = ?2"
	    " UNION ALL"
	    " SELECT p.entry_id, " LOG_PRUNED_FIELDS ", 1"
	    " FROM consent_pruned p JOIN consent_seals s ON s.id = p.seal_id"
	    " WHERE p.seal_id = ?1"
	    " ORDER BY created_at, id";
	sqlite3_stmt *q = NULL;
	int64_t site, id;
	int rc;

	if ((rc = sqlite_site_id(st, key, &site)) != STORE_OK)
		return rc;
	if ((rc = seal_id(st, site, seq, &id)) != STORE_OK)
		return rc;
	if (sqlite_db_prepare(st->db, sql, &q) != 0)
		return STORE_ERROR;
	sqlite3_bind_int64(q, 1, id);
	sqlite3_bind_int64(q, 2, site);
	rc = sqlite_walk(st, q, store_log_columns, store_log_ncolumns, fn, arg, "seal leaves");
	sqlite3_finalize(q);
	return rc;
}

/* store_seal()'s statements (store_seal.c has the protocol), and the
 * audit trail's (sqlite_audit.c): the read in a deferred transaction, the
 * write in an immediate one (SQLite's single writer keeps other sealers
 * out). */
int
sqlite_seal_read_begin(struct store *st)
{
	if (sqlite3_exec(st->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK) {
		sqlite_db_log(st->db, "begin");
		return -1;
	}
	return 0;
}

void
sqlite_seal_end(struct store *st)
{
	sqlite_db_rollback(st->db);
}

int
sqlite_seal_write_begin(struct store *st, const char *key)
{
	(void)key;
	return sqlite_db_begin(st->db) == 0 ? STORE_OK : STORE_ERROR;
}

int
sqlite_seal_commit(struct store *st)
{
	return sqlite_db_commit(st->db);
}

void
sqlite_seal_bind(sqlite3_stmt *q, const struct store_seal *s)
{
	sqlite3_bind_int64(q, 2, s->seq);
	sqlite_db_bind_text(q, 3, s->sealed_at);
	sqlite3_bind_int64(q, 4, s->tree_size);
	sqlite_db_bind_text(q, 5, s->root);
	sqlite_db_bind_text(q, 6, s->prev);
	sqlite_db_bind_text(q, 7, s->hash);
}

int
sqlite_seal_mark(struct store *st, const char *sql, int64_t site, const struct store_leaf *leaf,
                 size_t n, int64_t *marked)
{
	int64_t sid = sqlite3_last_insert_rowid(st->db);
	sqlite3_stmt *q = NULL;

	*marked = 0;
	if (sqlite_db_prepare(st->db, sql, &q) != 0)
		return STORE_ERROR;
	for (size_t i = 0; i < n; i++) {
		sqlite3_reset(q);
		sqlite3_bind_int64(q, 1, sid);
		sqlite3_bind_int64(q, 2, leaf[i].id);
		if (site != 0)
			sqlite3_bind_int64(q, 3, site);
		else
			sqlite3_bind_null(q, 3);
		if (sqlite3_step(q) != SQLITE_DONE) {
			sqlite_db_log(st->db, "seal leaf");
			sqlite3_finalize(q);
			return STORE_ERROR;
		}
		*marked += sqlite3_changes(st->db);
	}
	sqlite3_finalize(q);
	return STORE_OK;
}

static int
seal_last(struct store *st, int64_t site, int slack_seconds, int64_t *seq, char hash[66],
          char from[40])
{
	static const char sql[] =
	    "SELECT seq, hash, strftime('%Y-%m-%dT%H:%M:%fZ', last_created_at, ?2)"
	    " FROM consent_seals WHERE site_id = ?1 ORDER BY seq DESC LIMIT 1";
	sqlite3_stmt *q = NULL;
	char slack[32];
	int rc = STORE_OK;

	if (sqlite_db_prepare(st->db, sql, &q) != 0)
		return STORE_ERROR;
	sqlite3_bind_int64(q, 1, site);
	snprintf(slack, sizeof(slack), "-%d seconds", slack_seconds);
	sqlite_db_bind_text(q, 2, slack);
	switch (sqlite3_step(q)) {
	case SQLITE_ROW: {
		const char *h = (const char *)sqlite3_column_text(q, 1);
		const char *f = (const char *)sqlite3_column_text(q, 2);

		*seq = sqlite3_column_int64(q, 0);
		snprintf(hash, 66, "%s", h != NULL ? h : "");
		if (f != NULL && strlen(f) < 40)
			memcpy(from, f, strlen(f) + 1);
		break;
	}
	case SQLITE_DONE:
		*seq = 0;
		break;
	default:
		sqlite_db_log(st->db, "last seal");
		rc = STORE_ERROR;
	}
	sqlite3_finalize(q);
	return rc;
}

static int
seal_leaves(struct store *st, int64_t site, size_t max, const char *from,
            struct store_leaf *leaf, size_t *n)
{
	/* From the last seal's last entry, less the slack, on: the log's
	 * (site_id, created_at) index, no index of its own that every insert
	 * would write. */
	static const char sql[] =
	    "SELECT id, created_at, digest FROM consent_log"
	    " WHERE site_id = ?1 AND created_at >= ?3 AND seal_id IS NULL"
	    " ORDER BY created_at, id LIMIT ?2";
	sqlite3_stmt *q = NULL;

	if (sqlite_db_prepare(st->db, sql, &q) != 0)
		return STORE_ERROR;
	sqlite3_bind_int64(q, 1, site);
	sqlite3_bind_int64(q, 2, (int64_t)max);
	sqlite_db_bind_text(q, 3, from);
	return sqlite_seal_leaves(st, q, max, leaf, n);
}

int
sqlite_seal_leaves(struct store *st, sqlite3_stmt *q, size_t max, struct store_leaf *leaf,
                   size_t *n)
{
	int rc = STORE_ERROR, step;

	while ((step = sqlite3_step(q)) == SQLITE_ROW && *n < max) {
		if (store_leaf_set(&leaf[*n], sqlite3_column_int64(q, 0),
		    (const char *)sqlite3_column_text(q, 1),
		    (const char *)sqlite3_column_text(q, 2)) != 0)
			goto out;
		(*n)++;
	}
	if (step != SQLITE_ROW && step != SQLITE_DONE) {
		sqlite_db_log(st->db, "unsealed leaves");
		goto out;
	}
	rc = STORE_OK;
out:
	sqlite3_finalize(q);
	return rc;
}

static int
seal_last_seq(struct store *st, int64_t site, int64_t *seq)
{
	static const char sql[] =
	    "SELECT coalesce(max(seq), 0) FROM consent_seals WHERE site_id = ?1";
	sqlite3_stmt *q = NULL;
	int rc;

	if (sqlite_db_prepare(st->db, sql, &q) != 0)
		return STORE_ERROR;
	sqlite3_bind_int64(q, 1, site);
	rc = sqlite_step_int64(st, q, seq, "last seal");
	sqlite3_finalize(q);
	return rc == STORE_OK ? STORE_OK : STORE_ERROR;
}

static int
seal_add(struct store *st, int64_t site, const struct store_seal *s,
         const struct store_leaf *leaf, size_t n, int64_t *marked)
{
	static const char ins_sql[] =
	    "INSERT INTO consent_seals (site_id, seq, sealed_at, tree_size, root, prev, hash,"
	    " last_created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)";
	static const char mark_sql[] =
	    "UPDATE consent_log SET seal_id = ?1 WHERE id = ?2 AND site_id = ?3"
	    " AND seal_id IS NULL";
	sqlite3_stmt *q = NULL;
	int rc;

	*marked = 0;
	if (sqlite_db_prepare(st->db, ins_sql, &q) != 0)
		return STORE_ERROR;
	sqlite3_bind_int64(q, 1, site);
	sqlite_seal_bind(q, s);
	sqlite_db_bind_text(q, 8, leaf[n - 1].created_at);
	rc = sqlite_change(st, q, "add seal");
	sqlite3_finalize(q);
	if (rc != STORE_OK)
		return rc;
	return sqlite_seal_mark(st, mark_sql, site, leaf, n, marked);
}

static const struct store_sealer sealer = {
	sqlite_site_id, sqlite_seal_read_begin, sqlite_seal_end, seal_last, seal_leaves,
	sqlite_seal_write_begin, seal_last_seq, seal_add, sqlite_seal_commit, sqlite_seal_end,
};

int
sqlite_store_seal(struct store *st, const char *key, size_t max, int slack, store_seal_fn fn,
                  void *arg, int64_t *sealed)
{
	return store_seal_run(st, &sealer, key, max, slack, fn, arg, sealed);
}

/* Run sql with ?1 bound to a and ?2 to the text b: 0 or -1 (reported). */
static int
run2(struct store *st, const char *sql, int64_t a, const char *b, const char *what)
{
	sqlite3_stmt *q = NULL;
	int rc;

	if (sqlite_db_prepare(st->db, sql, &q) != 0)
		return -1;
	sqlite3_bind_int64(q, 1, a);
	sqlite_db_bind_text(q, 2, b);
	rc = sqlite_change(st, q, what) == STORE_OK ? 0 : -1;
	sqlite3_finalize(q);
	return rc;
}

/*
 * Truncate the WAL after the checkpoint, so that no earlier version of a
 * page stays in it; readers still in the WAL make it wait (busy handler).
 */
static int
wal_truncate(struct store *st)
{
	int log = 0, done = 0;

	for (int i = 0; i < 50; i++) {
		if (sqlite3_wal_checkpoint_v2(st->db, NULL, SQLITE_CHECKPOINT_TRUNCATE,
		    &log, &done) == SQLITE_OK)
			return STORE_OK;
		nanosleep(&(struct timespec){ 0, 100000000L }, NULL);
	}
	sqlite_db_log(st->db, "checkpoint after erasure");
	return STORE_ERROR;
}

/*
 * The visitor's entries are found first without the write lock (the log
 * has no index on anon_id_hash, which every insert would pay for, so this
 * reads all of the site's entries), then deleted by id in a short write
 * transaction, with those stored since the read (ids above the highest
 * then) found by a range of ids.
 */
int
sqlite_store_consent_erase(struct store *st, const char *key, const char *anon_id_hash,
                           int64_t *count)
{
	static const char max_sql[] = "SELECT coalesce(max(id), 0) FROM consent_log";
	static const char find_sql[] =
	    "SELECT id FROM consent_log WHERE site_id = ?1 AND anon_id_hash = ?2";
#define ERASE_WHERE \
	" WHERE site_id = ?1 AND anon_id_hash = ?2 AND (id = ?3 OR (?3 IS NULL AND id > ?4))"
	static const char keep_sql[] =
	    "INSERT INTO consent_pruned (seal_id, created_at, entry_id, digest)"
	    " SELECT seal_id, created_at, id, digest FROM consent_log" ERASE_WHERE
	    " AND seal_id IS NOT NULL";
	static const char del_sql[] = "DELETE FROM consent_log" ERASE_WHERE;
#undef ERASE_WHERE
	static const char mau_sql[] =
	    "DELETE FROM mau_visitors WHERE site_id = ?1 AND anon_id_hash = ?2";
	static const char rec_sql[] =
	    "INSERT INTO consent_erasures (site_id, erased_at, entries) VALUES (?1, ?2, ?3)";
	sqlite3_stmt *q = NULL, *keep = NULL, *del = NULL;
	int64_t site, max = 0, *ids = NULL;
	size_t n = 0, cap = 0;
	char now[32];
	int rc, step;

	*count = 0;
	if ((rc = sqlite_site_id(st, key, &site)) != STORE_OK)
		return rc;
	rc = STORE_ERROR;
	/* Deleted content is overwritten with zeros, not left in free space. */
	if (sqlite3_exec(st->db, "PRAGMA secure_delete = ON", NULL, NULL, NULL) != SQLITE_OK) {
		sqlite_db_log(st->db, "secure_delete");
		return STORE_ERROR;
	}
	if (sqlite3_exec(st->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK) {
		sqlite_db_log(st->db, "begin");
		return STORE_ERROR;
	}
	if (sqlite_db_prepare(st->db, max_sql, &q) != 0 || sqlite_step_int64(st, q, &max, "erase") != STORE_OK)
		goto read_fail;
	sqlite3_finalize(q);
	if (sqlite_db_prepare(st->db, find_sql, &q) != 0)
		goto read_fail;
	sqlite3_bind_int64(q, 1, site);
	sqlite_db_bind_text(q, 2, anon_id_hash);
	while ((step = sqlite3_step(q)) == SQLITE_ROW) {
		if (n == cap) {
			int64_t *p = realloc(ids, (cap = cap ? cap * 2 : 64) * sizeof(*ids));

			if (p == NULL) {
				log_error("out of memory");
				goto read_fail;
			}
			ids = p;
		}
		ids[n++] = sqlite3_column_int64(q, 0);
	}
	if (step != SQLITE_DONE) {
		sqlite_db_log(st->db, "erase");
		goto read_fail;
	}
	sqlite3_finalize(q);
	q = NULL;
	sqlite_db_rollback(st->db);

	if (sqlite_db_begin(st->db) != 0)
		goto out;
	if (sqlite_db_prepare(st->db, keep_sql, &keep) != 0 || sqlite_db_prepare(st->db, del_sql, &del) != 0)
		goto fail;
	/* Each id found, then (i == n) whatever came after the read. */
	for (size_t i = 0; i <= n; i++) {
		sqlite3_stmt *two[2] = { keep, del };

		for (int k = 0; k < 2; k++) {
			sqlite3_reset(two[k]);
			sqlite3_bind_int64(two[k], 1, site);
			sqlite_db_bind_text(two[k], 2, anon_id_hash);
			if (i < n)
				sqlite3_bind_int64(two[k], 3, ids[i]);
			else
				sqlite3_bind_null(two[k], 3);
			sqlite3_bind_int64(two[k], 4, max);
			if (sqlite_change(st, two[k], "erase") != STORE_OK)
				goto fail;
		}
		*count += sqlite3_changes(st->db);
	}
	if (run2(st, mau_sql, site, anon_id_hash, "erase") != 0)
		goto fail;
	clock_now(now, NULL);
	if (sqlite_db_prepare(st->db, rec_sql, &q) != 0)
		goto fail;
	sqlite3_bind_int64(q, 1, site);
	sqlite_db_bind_text(q, 2, now);
	sqlite3_bind_int64(q, 3, *count);
	if (sqlite_change(st, q, "erase") != STORE_OK)
		goto fail;
	sqlite3_finalize(q);
	q = NULL;
	if (sqlite_db_commit(st->db) != 0)
		goto out;
	rc = wal_truncate(st);
	goto out;
read_fail:
fail:
	sqlite_db_rollback(st->db);
out:
	sqlite3_finalize(q);
	sqlite3_finalize(keep);
	sqlite3_finalize(del);
	free(ids);
	return rc;
}

static const struct store_column erasure_columns[] = { ERASURE_COLUMN_LIST };

int
sqlite_store_erasures(struct store *st, const char *key, store_row_fn fn, void *arg)
{
	static const char sql[] =
	    "SELECT erased_at AS erased_at, entries AS entries FROM consent_erasures"
	    " WHERE site_id = ?1 AND ?2 IS NULL ORDER BY id";

	return sqlite_site_rows(st, key, sql, NULL, erasure_columns,
	    nitems(erasure_columns), fn, arg, "erasures");
}

int
sqlite_store_purge_entries(struct store *st, const char *key, const char *cutoff,
                           size_t max, int dry_run, int64_t *done)
{
	static const char count_sql[] =
	    "SELECT count(*) FROM consent_log WHERE site_id = ?1 AND created_at < ?2";
#define PURGE_BATCH_SQL \
	"SELECT id FROM consent_log WHERE site_id = ?1 AND created_at < ?2" \
	" ORDER BY created_at LIMIT ?3"
	static const char keep_sql[] =
	    "INSERT INTO consent_pruned (seal_id, created_at, entry_id, digest)"
	    " SELECT seal_id, created_at, id, digest FROM consent_log"
	    " WHERE id IN (" PURGE_BATCH_SQL ") AND seal_id IS NOT NULL";
	static const char del_sql[] =
	    "DELETE FROM consent_log WHERE id IN (" PURGE_BATCH_SQL ")";
	sqlite3_stmt *q = NULL;
	int64_t site;
	int rc;

	*done = 0;
	if ((rc = sqlite_site_id(st, key, &site)) != STORE_OK)
		return rc;
	rc = STORE_ERROR;
	if (dry_run) {
		if (sqlite_db_prepare(st->db, count_sql, &q) != 0)
			return STORE_ERROR;
		sqlite3_bind_int64(q, 1, site);
		sqlite_db_bind_text(q, 2, cutoff);
		if (sqlite_step_int64(st, q, done, "purge count") == STORE_OK)
			rc = STORE_OK;
		sqlite3_finalize(q);
		return rc;
	}
	if (sqlite_db_begin(st->db) != 0)
		return STORE_ERROR;
	for (int i = 0; i < 2; i++) {
		if (sqlite_db_prepare(st->db, i == 0 ? keep_sql : del_sql, &q) != 0)
			goto fail;
		sqlite3_bind_int64(q, 1, site);
		sqlite_db_bind_text(q, 2, cutoff);
		sqlite3_bind_int64(q, 3, (int64_t)max);
		if (sqlite_change(st, q, "purge") != STORE_OK)
			goto fail;
		sqlite3_finalize(q);
		q = NULL;
	}
	*done = sqlite3_changes(st->db);
	if (sqlite_db_commit(st->db) != 0)
		return STORE_ERROR;
	return STORE_OK;
fail:
	sqlite3_finalize(q);
	sqlite_db_rollback(st->db);
	return rc;
#undef PURGE_BATCH_SQL
}

int
sqlite_store_purge_visitors(struct store *st, const char *month, size_t max,
                            int dry_run, int64_t *done)
{
	static const char count_sql[] = "SELECT count(*) FROM mau_visitors WHERE month < ?1";
	static const char del_sql[] =
	    "DELETE FROM mau_visitors WHERE (site_id, month, anon_id_hash) IN"
	    " (SELECT site_id, month, anon_id_hash FROM mau_visitors WHERE month < ?1 LIMIT ?2)";
	sqlite3_stmt *q = NULL;
	int rc = STORE_ERROR;

	*done = 0;
	if (sqlite_db_prepare(st->db, dry_run ? count_sql : del_sql, &q) != 0)
		return STORE_ERROR;
	sqlite_db_bind_text(q, 1, month);
	if (dry_run) {
		if (sqlite_step_int64(st, q, done, "purge visitors") == STORE_OK)
			rc = STORE_OK;
		sqlite3_finalize(q);
		return rc;
	}
	sqlite3_bind_int64(q, 2, (int64_t)max);
	if (sqlite_db_begin(st->db) != 0) {
		sqlite3_finalize(q);
		return STORE_ERROR;
	}
	if (sqlite_change(st, q, "purge visitors") != STORE_OK) {
		sqlite3_finalize(q);
		sqlite_db_rollback(st->db);
		return STORE_ERROR;
	}
	*done = sqlite3_changes(st->db);
	sqlite3_finalize(q);
	return sqlite_db_commit(st->db) == 0 ? STORE_OK : STORE_ERROR;
}

static const struct store_column digest_columns[] = { DIGEST_COLUMN_LIST };

int
sqlite_store_digest_missing(struct store *st, size_t max, store_digest_fn fn, void *arg,
                            int64_t *done)
{
	static const char sel_sql[] =
	    "SELECT " LOG_ROW ", t.site_key AS site_key FROM " LOG_FROM
	    " JOIN sites t ON t.id = l.site_id"
	    " WHERE l.id > ?1 AND l.digest IS NULL ORDER BY l.id LIMIT ?2";
	static const char upd_sql[] = "UPDATE consent_log SET digest = ?2 WHERE id = ?1";
	sqlite3_stmt *q = NULL, *u = NULL;
	int64_t last = 0, n;
	char digest[65];
	int rc = STORE_ERROR, step;
	cJSON *row;

	*done = 0;
	if (sqlite_db_prepare(st->db, sel_sql, &q) != 0 || sqlite_db_prepare(st->db, upd_sql, &u) != 0)
		goto out;
	do {
		n = 0;
		if (sqlite_db_begin(st->db) != 0)
			goto out;
		sqlite3_reset(q);
		sqlite3_bind_int64(q, 1, last);
		sqlite3_bind_int64(q, 2, (int64_t)max);
		while ((step = sqlite3_step(q)) == SQLITE_ROW) {
			const cJSON *key;

			if ((row = sqlite_row(q, digest_columns, nitems(digest_columns))) == NULL)
				goto fail;
			key = cJSON_GetObjectItemCaseSensitive(row, "site_key");
			last = sqlite3_column_int64(q, 0);
			if (!cJSON_IsString(key) || fn(arg, key->valuestring, row, digest) != 0) {
				cJSON_Delete(row);
				goto fail;
			}
			cJSON_Delete(row);
			sqlite3_reset(u);
			sqlite3_bind_int64(u, 1, last);
			sqlite_db_bind_text(u, 2, digest);
			if (sqlite3_step(u) != SQLITE_DONE) {
				sqlite_db_log(st->db, "digest entry");
				goto fail;
			}
			n++;
		}
		if (step != SQLITE_DONE) {
			sqlite_db_log(st->db, "digest entries");
			goto fail;
		}
		sqlite3_reset(q);
		if (sqlite_db_commit(st->db) != 0)
			goto out;
		*done += n;
	} while (n > 0);
	rc = STORE_OK;
	goto out;
fail:
	sqlite3_reset(q);
	sqlite_db_rollback(st->db);
out:
	sqlite3_finalize(q);
	sqlite3_finalize(u);
	return rc;
}
