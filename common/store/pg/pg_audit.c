/* pg_audit.c: the PostgreSQL store of the audit trail: records, listings, seals (store_audit.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/limits.h"
#include "base/log.h"
#include "store/pg/pg_store.h"

/* The advisory lock an audit sealer holds for its write transaction: the
 * sealers of every chain take turns (there is no site row to lock for the
 * chain of no site, and sealing the audit trail is rare).  Any fixed
 * number: pg_schema.c's is one less. */
#define AUDIT_SEAL_LOCK "7301190418"

/* The chain's site as parameter text in buf: its id, or NULL (SQL NULL)
 * for key NULL, the chain of no site; *rc STORE_OK, STORE_NOTFOUND or
 * STORE_ERROR. */
static const char *
chain_param(struct store *st, const char *key, char buf[24], int *rc)
{
	int64_t site = 0;

	*rc = STORE_OK;
	if (key == NULL)
		return NULL;
	if ((*rc = pg_site_id(st, key, 0, &site)) != STORE_OK)
		return NULL;
	return pg_int_text(buf, site);
}

/*
 * The id is drawn from the table's identity first, so that the digest,
 * which covers it, is written with the record.  Ids are then not in
 * commit order when two writers overlap: a record committed after a seal
 * was made joins the next one, and each seal's tree is in id order.
 */
int
pg_store_audit_add(struct store *st, const char *actor, const char *site_key,
                   const char *action, const char *detail_json, int64_t version)
{
	static const char id_sql[] =
	    "SELECT nextval(pg_get_serial_sequence('audit_log', 'id'))";
	static const char ins_sql[] =
	    "INSERT INTO audit_log (id, at, actor, site_id, action, detail, version, digest)"
	    " VALUES ($1, $2, $3, $4::bigint, $5, $6, $7::bigint, $8)";
	struct store_audit_record r = { 0, NULL, actor, site_key, action, detail_json, version };
	char at[32], digest[65], id_text[24], site_text[24], version_text[24];
	const char *site;
	int rc;

	if (store_audit_check(actor, action, detail_json) != 0)
		return STORE_ERROR;
	site = chain_param(st, site_key, site_text, &rc);
	if (rc != STORE_OK)
		return rc;
	if (pg_run_int64(st, id_sql, 0, NULL, &r.id, "audit record") != STORE_OK)
		return STORE_ERROR;
	clock_now(at, NULL);
	r.at = at;
	if (store_audit_record_digest(&r, digest) != 0)
		return STORE_ERROR;
	{
		const char *const p[] = {pg_int_text(id_text, r.id), at, actor, site, action,
		    detail_json, version >= 0 ? pg_int_text(version_text, version) : NULL, digest};

		return pg_change(st, ins_sql, PG_NPARAMS(p), p, NULL, "audit record");
	}
}

static const struct store_column list_columns[] = { AUDIT_LIST_COLUMN_LIST };

int
pg_store_audit_list(struct store *st, const struct store_audit_filter *f,
                    store_row_fn fn, void *arg)
{
	static const char sql[] =
	    AUDIT_LIST_SELECT
	    " WHERE ($1::bigint IS NULL OR a.site_id = $1::bigint)"
	    " AND ($2::integer = 0 OR a.site_id IS NULL)"
	    " AND ($3::bigint = 0 OR a.id < $3::bigint) ORDER BY a.id DESC LIMIT $4::bigint";
	char site_text[24], before_text[24], limit_text[24];
	const char *site;
	int rc;

	site = chain_param(st, f->site_key, site_text, &rc);
	if (rc != STORE_OK)
		return rc;
	{
		const char *const p[] = {site, f->no_site ? "1" : "0",
		    pg_int_text(before_text, f->before > 0 ? f->before : 0),
		    pg_int_text(limit_text, (int64_t)(f->limit >= 1 && f->limit <= AUDIT_LIST_MAX ?
		        f->limit : AUDIT_LIST_MAX))};

		return pg_rows(st, sql, PG_NPARAMS(p), p, list_columns, nitems(list_columns), fn, arg,
		    "audit records");
	}
}

/* The rows of sql for one chain ($1 its site, compared IS NOT DISTINCT
 * FROM; $2 the integer b), described by store_audit_record_columns. */
static int
chain_rows(struct store *st, const char *key, const char *sql, int64_t b,
           store_row_fn fn, void *arg, const char *what)
{
	char site_text[24], b_text[24];
	const char *site;
	int rc;

	site = chain_param(st, key, site_text, &rc);
	if (rc != STORE_OK)
		return rc;
	{
		const char *const p[] = {site, pg_int_text(b_text, b)};

		return pg_rows(st, sql, PG_NPARAMS(p), p, store_audit_record_columns,
		    store_audit_record_ncolumns, fn, arg, what);
	}
}

int
pg_store_audit_leaves(struct store *st, const char *site_key, int64_t seq,
                      store_row_fn fn, void *arg)
{
	static const char seal_sql[] =
	    "SELECT count(*) FROM audit_seals"
	    " WHERE site_id IS NOT DISTINCT FROM $1::bigint AND seq = $2::bigint";
	static const char sql[] =
	    AUDIT_RECORD_SELECT " WHERE s.site_id IS NOT DISTINCT FROM $1::bigint"
	    " AND s.seq = $2::bigint ORDER BY a.id";
	char site_text[24], seq_text[24];
	const char *site;
	int64_t n = 0;
	int rc;

	site = chain_param(st, site_key, site_text, &rc);
	if (rc != STORE_OK)
		return rc;
	{
		const char *const p[] = {site, pg_int_text(seq_text, seq)};

		if ((rc = pg_run_int64(st, seal_sql, PG_NPARAMS(p), p, &n, "audit seal")) != STORE_OK)
			return rc;
	}
	if (n == 0)
		return STORE_NOTFOUND;
	return chain_rows(st, site_key, sql, seq, fn, arg, "audit seal records");
}

int
pg_store_audit_unsealed(struct store *st, const char *site_key, store_row_fn fn, void *arg)
{
	static const char sql[] =
	    AUDIT_RECORD_SELECT " WHERE a.site_id IS NOT DISTINCT FROM $1::bigint"
	    " AND a.seal_id IS NULL AND $2::bigint = 0 ORDER BY a.id";

	return chain_rows(st, site_key, sql, 0, fn, arg, "unsealed audit records");
}

int
pg_store_audit_count(struct store *st, const char *site_key, int64_t *n)
{
	static const char sql[] =
	    "SELECT count(*) FROM audit_log WHERE site_id IS NOT DISTINCT FROM $1::bigint";
	char site_text[24];
	const char *site;
	int rc;

	site = chain_param(st, site_key, site_text, &rc);
	if (rc != STORE_OK)
		return rc;
	{
		const char *const p[] = {site};

		return pg_run_int64(st, sql, PG_NPARAMS(p), p, n, "count audit records");
	}
}

static const struct store_column seal_columns[] = { SEAL_COLUMN_LIST };

int
pg_store_audit_seals(struct store *st, const char *site_key, store_row_fn fn, void *arg)
{
	static const char sql[] =
	    "SELECT seq AS seq, sealed_at AS sealed_at, tree_size AS tree_size,"
	    " root AS root, prev AS prev, hash AS hash FROM audit_seals"
	    " WHERE site_id IS NOT DISTINCT FROM $1::bigint ORDER BY seq";
	char site_text[24];
	const char *site;
	int rc;

	site = chain_param(st, site_key, site_text, &rc);
	if (rc != STORE_OK)
		return rc;
	{
		const char *const p[] = {site};

		return pg_rows(st, sql, PG_NPARAMS(p), p, seal_columns, nitems(seal_columns), fn, arg,
		    "audit seals");
	}
}

/*
 * store_seal_run()'s statements for an audit chain (store_seal.c has the
 * protocol; key is the chain's name, store_audit_chain).  The read is one
 * read-only snapshot; the write holds AUDIT_SEAL_LOCK, so the last seq
 * read under it is still the last when the seal is added.  A chain's site
 * crosses as its id, 0 for the chain of no site.
 */
static const char *
site_param(char buf[24], int64_t site)
{
	return site != 0 ? pg_int_text(buf, site) : NULL;
}

static int
seal_site_id(struct store *st, const char *chain, int64_t *site)
{
	const char *key = store_audit_chain_key(chain);

	*site = 0;
	return key != NULL ? pg_site_id(st, key, 0, site) : STORE_OK;
}

static int
seal_read_begin(struct store *st)
{
	return pg_begin(st, "ISOLATION LEVEL REPEATABLE READ READ ONLY");
}

static int
seal_last(struct store *st, int64_t site, int slack, int64_t *seq, char hash[66], char from[40])
{
	static const char sql[] =
	    "SELECT seq, hash FROM audit_seals WHERE site_id IS NOT DISTINCT FROM $1::bigint"
	    " ORDER BY seq DESC LIMIT 1";
	char site_text[24];
	const char *const p[] = {site_param(site_text, site)};
	PGresult *r = NULL;

	(void)slack;
	from[0] = '\0';
	*seq = 0;
	if (pg_run(st, sql, PG_NPARAMS(p), p, &r, "last audit seal") != STORE_OK)
		return STORE_ERROR;
	if (PQntuples(r) > 0) {
		*seq = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
		snprintf(hash, 66, "%s", PQgetvalue(r, 0, 1));
	}
	PQclear(r);
	return STORE_OK;
}

static int
seal_leaves(struct store *st, int64_t site, size_t max, const char *from,
            struct store_leaf *leaf, size_t *n)
{
	static const char sql[] =
	    "SELECT id, at, digest FROM audit_log WHERE site_id IS NOT DISTINCT FROM $1::bigint"
	    " AND seal_id IS NULL ORDER BY id LIMIT $2::bigint";
	char site_text[24], max_text[24];
	const char *const p[] = {site_param(site_text, site), pg_int_text(max_text, (int64_t)max)};
	PGresult *r = NULL;
	int rc = STORE_OK, rows;

	(void)from;
	if (pg_run(st, sql, PG_NPARAMS(p), p, &r, "unsealed audit records") != STORE_OK)
		return STORE_ERROR;
	rows = PQntuples(r);
	for (int i = 0; i < rows && *n < max; i++) {
		if (store_leaf_set(&leaf[*n], strtoll(PQgetvalue(r, i, 0), NULL, 10),
		    PQgetvalue(r, i, 1), PQgetvalue(r, i, 2)) != 0) {
			rc = STORE_ERROR;
			break;
		}
		(*n)++;
	}
	PQclear(r);
	return rc;
}

static int
seal_write_begin(struct store *st, const char *chain)
{
	(void)chain;
	if (pg_begin(st, "") != 0)
		return STORE_ERROR;
	if (pg_run(st, "SELECT pg_advisory_xact_lock(" AUDIT_SEAL_LOCK ")", 0, NULL, NULL,
	    "audit seal lock") != STORE_OK) {
		pg_rollback(st);
		return STORE_ERROR;
	}
	return STORE_OK;
}

static int
seal_last_seq(struct store *st, int64_t site, int64_t *seq)
{
	static const char sql[] =
	    "SELECT coalesce(max(seq), 0) FROM audit_seals"
	    " WHERE site_id IS NOT DISTINCT FROM $1::bigint";
	char site_text[24];
	const char *const p[] = {site_param(site_text, site)};

	return pg_run_int64(st, sql, PG_NPARAMS(p), p, seq, "last audit seal") == STORE_OK ?
	    STORE_OK : STORE_ERROR;
}

/* The seal and the marks of its records in one statement; the ids as one
 * array parameter. */
static int
seal_add(struct store *st, int64_t site, const struct store_seal *s,
         const struct store_leaf *leaf, size_t n, int64_t *marked)
{
	static const char sql[] =
	    "WITH s AS (INSERT INTO audit_seals (site_id, seq, sealed_at, tree_size, root,"
	    " prev, hash) VALUES ($1::bigint, $2, $3, $4, $5, $6, $7) RETURNING id),"
	    " m AS (UPDATE audit_log SET seal_id = (SELECT id FROM s)"
	    " WHERE id = ANY ($8::bigint[]) AND site_id IS NOT DISTINCT FROM $1::bigint"
	    " AND seal_id IS NULL RETURNING 1)"
	    " SELECT count(*) FROM m";
	char site_text[24], seq_text[24], size_text[24], *ids;
	int rc = STORE_ERROR;

	if ((ids = pg_leaf_ids(leaf, n)) != NULL) {
		const char *const p[] = {site_param(site_text, site), pg_int_text(seq_text, s->seq),
		    s->sealed_at, pg_int_text(size_text, s->tree_size), s->root, s->prev, s->hash,
		    ids};

		rc = pg_run_int64(st, sql, PG_NPARAMS(p), p, marked, "add audit seal");
	}
	free(ids);
	return rc;
}

static const struct store_sealer sealer = {
	seal_site_id, seal_read_begin, pg_rollback, seal_last, seal_leaves,
	seal_write_begin, seal_last_seq, seal_add, pg_commit, pg_rollback,
};

int
pg_store_audit_seal(struct store *st, const char *site_key, size_t max, store_seal_fn fn,
                    void *arg, int64_t *sealed)
{
	char chain[STORE_AUDIT_CHAIN_MAX];

	store_audit_chain(site_key, chain);
	return store_seal_run(st, &sealer, chain, max, 0, fn, arg, sealed);
}
