/* sqlite_audit.c: the SQLite store of the audit trail: records, listings, seals (store_audit.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/limits.h"
#include "base/log.h"
#include "base/nitems.h"
#include "store/sqlite/sqlite_store.h"

/* The id of the site with this key, 0 for NULL (a record of no site). */
static int
chain_site(struct store *st, const char *key, int64_t *site)
{
	*site = 0;
	return key != NULL ? sqlite_site_id(st, key, site) : STORE_OK;
}

/* Bind a chain's site to i: its id, or NULL for the chain of no site (the
 * statements compare with IS). */
static void
bind_site(sqlite3_stmt *q, int i, int64_t site)
{
	if (site != 0)
		sqlite3_bind_int64(q, i, site);
	else
		sqlite3_bind_null(q, i);
}

/*
 * The id is taken inside the write transaction (SQLite's one writer), so
 * that the digest, which covers it, is written with the record.
 */
int
sqlite_store_audit_add(struct store *st, const char *actor, const char *site_key,
                       const char *action, const char *detail_json, int64_t version)
{
	static const char id_sql[] = "SELECT coalesce(max(id), 0) + 1 FROM audit_log";
	static const char ins_sql[] =
	    "INSERT INTO audit_log (id, at, actor, site_id, action, detail, version, digest)"
	    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)";
	struct store_audit_record r = { 0, NULL, actor, site_key, action, detail_json, version };
	sqlite3_stmt *q = NULL;
	char at[32], digest[65];
	int64_t site;
	int rc;

	if (store_audit_check(actor, action, detail_json) != 0)
		return STORE_ERROR;
	if (sqlite_db_begin(st->db) != 0)
		return STORE_ERROR;
	if ((rc = chain_site(st, site_key, &site)) != STORE_OK)
		goto fail;
	rc = STORE_ERROR;
	if (sqlite_db_prepare(st->db, id_sql, &q) != 0 ||
	    sqlite_step_int64(st, q, &r.id, "audit record") != STORE_OK)
		goto fail;
	sqlite3_finalize(q);
	q = NULL;
	clock_now(at, NULL);
	r.at = at;
	if (store_audit_record_digest(&r, digest) != 0 ||
	    sqlite_db_prepare(st->db, ins_sql, &q) != 0)
		goto fail;
	sqlite3_bind_int64(q, 1, r.id);
	sqlite_db_bind_text(q, 2, at);
	sqlite_db_bind_text(q, 3, actor);
	bind_site(q, 4, site);
	sqlite_db_bind_text(q, 5, action);
	sqlite_db_bind_text(q, 6, detail_json);
	if (version >= 0)
		sqlite3_bind_int64(q, 7, version);
	else
		sqlite3_bind_null(q, 7);
	sqlite_db_bind_text(q, 8, digest);
	if ((rc = sqlite_change(st, q, "audit record")) != STORE_OK)
		goto fail;
	sqlite3_finalize(q);
	return sqlite_db_commit(st->db) == 0 ? STORE_OK : STORE_ERROR;
fail:
	sqlite3_finalize(q);
	sqlite_db_rollback(st->db);
	return rc;
}

static const struct store_column list_columns[] = { AUDIT_LIST_COLUMN_LIST };

int
sqlite_store_audit_list(struct store *st, const struct store_audit_filter *f,
                        store_row_fn fn, void *arg)
{
	static const char sql[] =
	    AUDIT_LIST_SELECT
	    " WHERE (?1 IS NULL OR a.site_id = ?1) AND (?2 = 0 OR a.site_id IS NULL)"
	    " AND (?3 = 0 OR a.id < ?3) ORDER BY a.id DESC LIMIT ?4";
	sqlite3_stmt *q = NULL;
	int64_t site;
	int rc;

	if ((rc = chain_site(st, f->site_key, &site)) != STORE_OK)
		return rc;
	if (sqlite_db_prepare(st->db, sql, &q) != 0)
		return STORE_ERROR;
	bind_site(q, 1, site);
	sqlite3_bind_int(q, 2, f->no_site != 0);
	sqlite3_bind_int64(q, 3, f->before > 0 ? f->before : 0);
	sqlite3_bind_int64(q, 4, (int64_t)(f->limit >= 1 && f->limit <= AUDIT_LIST_MAX ?
	    f->limit : AUDIT_LIST_MAX));
	rc = sqlite_walk(st, q, list_columns, nitems(list_columns), fn, arg, "audit records");
	sqlite3_finalize(q);
	return rc;
}

/* The rows of sql for one chain (?1 its site, IS-compared; ?2 the integer
 * b), described by store_audit_record_columns. */
static int
chain_rows(struct store *st, const char *key, const char *sql, int64_t b,
           store_row_fn fn, void *arg, const char *what)
{
	sqlite3_stmt *q = NULL;
	int64_t site;
	int rc;

	if ((rc = chain_site(st, key, &site)) != STORE_OK)
		return rc;
	if (sqlite_db_prepare(st->db, sql, &q) != 0)
		return STORE_ERROR;
	bind_site(q, 1, site);
	sqlite3_bind_int64(q, 2, b);
	rc = sqlite_walk(st, q, store_audit_record_columns, store_audit_record_ncolumns, fn, arg,
	    what);
	sqlite3_finalize(q);
	return rc;
}

int
sqlite_store_audit_leaves(struct store *st, const char *site_key, int64_t seq,
                          store_row_fn fn, void *arg)
{
	static const char seal_sql[] =
	    "SELECT count(*) FROM audit_seals WHERE site_id IS ?1 AND seq = ?2";
	static const char sql[] =
	    AUDIT_RECORD_SELECT " WHERE s.site_id IS ?1 AND s.seq = ?2 ORDER BY a.id";
	sqlite3_stmt *q = NULL;
	int64_t site, n = 0;
	int rc;

	if ((rc = chain_site(st, site_key, &site)) != STORE_OK)
		return rc;
	if (sqlite_db_prepare(st->db, seal_sql, &q) != 0)
		return STORE_ERROR;
	bind_site(q, 1, site);
	sqlite3_bind_int64(q, 2, seq);
	rc = sqlite_step_int64(st, q, &n, "audit seal");
	sqlite3_finalize(q);
	if (rc != STORE_OK)
		return rc;
	if (n == 0)
		return STORE_NOTFOUND;
	return chain_rows(st, site_key, sql, seq, fn, arg, "audit seal records");
}

int
sqlite_store_audit_unsealed(struct store *st, const char *site_key, store_row_fn fn, void *arg)
{
	static const char sql[] =
	    AUDIT_RECORD_SELECT " WHERE a.site_id IS ?1 AND a.seal_id IS NULL AND ?2 = 0"
	    " ORDER BY a.id";

	return chain_rows(st, site_key, sql, 0, fn, arg, "unsealed audit records");
}

int
sqlite_store_audit_count(struct store *st, const char *site_key, int64_t *n)
{
	static const char sql[] = "SELECT count(*) FROM audit_log WHERE site_id IS ?1";
	sqlite3_stmt *q = NULL;
	int64_t site;
	int rc;

	if ((rc = chain_site(st, site_key, &site)) != STORE_OK)
		return rc;
	if (sqlite_db_prepare(st->db, sql, &q) != 0)
		return STORE_ERROR;
	bind_site(q, 1, site);
	rc = sqlite_step_int64(st, q, n, "count audit records");
	sqlite3_finalize(q);
	return rc;
}

static const struct store_column seal_columns[] = { SEAL_COLUMN_LIST };

int
sqlite_store_audit_seals(struct store *st, const char *site_key, store_row_fn fn, void *arg)
{
	static const char sql[] =
	    "SELECT seq AS seq, sealed_at AS sealed_at, tree_size AS tree_size,"
	    " root AS root, prev AS prev, hash AS hash FROM audit_seals"
	    " WHERE site_id IS ?1 ORDER BY seq";
	sqlite3_stmt *q = NULL;
	int64_t site;
	int rc;

	if ((rc = chain_site(st, site_key, &site)) != STORE_OK)
		return rc;
	if (sqlite_db_prepare(st->db, sql, &q) != 0)
		return STORE_ERROR;
	bind_site(q, 1, site);
	rc = sqlite_walk(st, q, seal_columns, nitems(seal_columns), fn, arg, "audit seals");
	sqlite3_finalize(q);
	return rc;
}

/*
 * store_seal_run()'s statements for an audit chain (store_seal.c has the
 * protocol; key is the chain's name, store_audit_chain): the read in a
 * deferred transaction, the write in an immediate one.  The records are
 * few and written one at a time, so the unsealed ones are found by the
 * chain's index alone (no slack, no time: from is unused).
 */
static int
seal_site_id(struct store *st, const char *chain, int64_t *site)
{
	return chain_site(st, store_audit_chain_key(chain), site);
}

static int
seal_read_begin(struct store *st)
{
	if (sqlite3_exec(st->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK) {
		sqlite_db_log(st->db, "begin");
		return -1;
	}
	return 0;
}

static void
seal_end(struct store *st)
{
	sqlite_db_rollback(st->db);
}

static int
seal_last(struct store *st, int64_t site, int slack, int64_t *seq, char hash[66], char from[40])
{
	static const char sql[] =
	    "SELECT seq, hash FROM audit_seals WHERE site_id IS ?1 ORDER BY seq DESC LIMIT 1";
	sqlite3_stmt *q = NULL;
	int rc = STORE_OK;

	(void)slack;
	from[0] = '\0';
	*seq = 0;
	if (sqlite_db_prepare(st->db, sql, &q) != 0)
		return STORE_ERROR;
	bind_site(q, 1, site);
	switch (sqlite3_step(q)) {
	case SQLITE_ROW: {
		const char *h = (const char *)sqlite3_column_text(q, 1);

		*seq = sqlite3_column_int64(q, 0);
		snprintf(hash, 66, "%s", h != NULL ? h : "");
		break;
	}
	case SQLITE_DONE:
		break;
	default:
		sqlite_db_log(st->db, "last audit seal");
		rc = STORE_ERROR;
	}
	sqlite3_finalize(q);
	return rc;
}

static int
seal_leaves(struct store *st, int64_t site, size_t max, const char *from,
            struct store_leaf *leaf, size_t *n)
{
	static const char sql[] =
	    "SELECT id, at, digest FROM audit_log WHERE site_id IS ?1 AND seal_id IS NULL"
	    " ORDER BY id LIMIT ?2";
	sqlite3_stmt *q = NULL;
	int rc = STORE_ERROR, step;

	(void)from;
	if (sqlite_db_prepare(st->db, sql, &q) != 0)
		return STORE_ERROR;
	bind_site(q, 1, site);
	sqlite3_bind_int64(q, 2, (int64_t)max);
	while ((step = sqlite3_step(q)) == SQLITE_ROW && *n < max) {
		if (store_leaf_set(&leaf[*n], sqlite3_column_int64(q, 0),
		    (const char *)sqlite3_column_text(q, 1),
		    (const char *)sqlite3_column_text(q, 2)) != 0)
			goto out;
		(*n)++;
	}
	if (step != SQLITE_ROW && step != SQLITE_DONE) {
		sqlite_db_log(st->db, "unsealed audit records");
		goto out;
	}
	rc = STORE_OK;
out:
	sqlite3_finalize(q);
	return rc;
}

static int
seal_write_begin(struct store *st, const char *chain)
{
	(void)chain;
	return sqlite_db_begin(st->db) == 0 ? STORE_OK : STORE_ERROR;
}

static int
seal_last_seq(struct store *st, int64_t site, int64_t *seq)
{
	static const char sql[] =
	    "SELECT coalesce(max(seq), 0) FROM audit_seals WHERE site_id IS ?1";
	sqlite3_stmt *q = NULL;
	int rc;

	if (sqlite_db_prepare(st->db, sql, &q) != 0)
		return STORE_ERROR;
	bind_site(q, 1, site);
	rc = sqlite_step_int64(st, q, seq, "last audit seal");
	sqlite3_finalize(q);
	return rc == STORE_OK ? STORE_OK : STORE_ERROR;
}

static int
seal_add(struct store *st, int64_t site, const struct store_seal *s,
         const struct store_leaf *leaf, size_t n, int64_t *marked)
{
	static const char ins_sql[] =
	    "INSERT INTO audit_seals (site_id, seq, sealed_at, tree_size, root, prev, hash)"
	    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)";
	static const char mark_sql[] =
	    "UPDATE audit_log SET seal_id = ?1 WHERE id = ?2 AND site_id IS ?3 AND seal_id IS NULL";
	sqlite3_stmt *q = NULL;
	int64_t sid;
	int rc;

	*marked = 0;
	if (sqlite_db_prepare(st->db, ins_sql, &q) != 0)
		return STORE_ERROR;
	bind_site(q, 1, site);
	sqlite3_bind_int64(q, 2, s->seq);
	sqlite_db_bind_text(q, 3, s->sealed_at);
	sqlite3_bind_int64(q, 4, s->tree_size);
	sqlite_db_bind_text(q, 5, s->root);
	sqlite_db_bind_text(q, 6, s->prev);
	sqlite_db_bind_text(q, 7, s->hash);
	rc = sqlite_change(st, q, "add audit seal");
	sqlite3_finalize(q);
	q = NULL;
	if (rc != STORE_OK)
		return rc;
	sid = sqlite3_last_insert_rowid(st->db);
	if (sqlite_db_prepare(st->db, mark_sql, &q) != 0)
		return STORE_ERROR;
	for (size_t i = 0; i < n; i++) {
		sqlite3_reset(q);
		sqlite3_bind_int64(q, 1, sid);
		sqlite3_bind_int64(q, 2, leaf[i].id);
		bind_site(q, 3, site);
		if (sqlite3_step(q) != SQLITE_DONE) {
			sqlite_db_log(st->db, "seal audit record");
			sqlite3_finalize(q);
			return STORE_ERROR;
		}
		*marked += sqlite3_changes(st->db);
	}
	sqlite3_finalize(q);
	return STORE_OK;
}

static int
seal_commit(struct store *st)
{
	return sqlite_db_commit(st->db);
}

static const struct store_sealer sealer = {
	seal_site_id, seal_read_begin, seal_end, seal_last, seal_leaves,
	seal_write_begin, seal_last_seq, seal_add, seal_commit, seal_end,
};

int
sqlite_store_audit_seal(struct store *st, const char *site_key, size_t max, store_seal_fn fn,
                        void *arg, int64_t *sealed)
{
	char chain[STORE_AUDIT_CHAIN_MAX];

	store_audit_chain(site_key, chain);
	return store_seal_run(st, &sealer, chain, max, 0, fn, arg, sealed);
}
