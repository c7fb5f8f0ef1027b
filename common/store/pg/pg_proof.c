/* pg_proof.c: the PostgreSQL store of the proof of the log: seals, leaves, erasure, purge. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/log.h"
#include "base/nitems.h"
#include "store/pg/pg_store.h"


/*
 * A REPEATABLE READ transaction sees one snapshot, taken at its first
 * statement (not at BEGIN): take it now.  Between begin and end the other
 * reads of this file and the rest of the store run their statements in it
 * (they open no transaction of their own); store.h forbids those that do.
 */
int
pg_store_snapshot(struct store *st, int begin)
{
	int64_t n;

	if (!begin) {
		if (!st->in_tx)
			return STORE_OK;
		/* A failed statement has already been reported, and its
		 * transaction can only be rolled back. */
		if (st->conn != NULL && PQtransactionStatus(st->conn) == PQTRANS_INERROR) {
			pg_rollback(st);
			return STORE_OK;
		}
		return pg_commit(st) == 0 ? STORE_OK : STORE_ERROR;
	}
	if (pg_begin(st, "ISOLATION LEVEL REPEATABLE READ READ ONLY") != 0)
		return STORE_ERROR;
	if (pg_run_int64(st, "SELECT count(*) FROM sites", 0, NULL, &n, "snapshot") != STORE_OK) {
		pg_rollback(st);
		return STORE_ERROR;
	}
	return STORE_OK;
}

int
pg_store_consent_find(struct store *st, const char *key, const char *anon_id_hash,
                      store_row_fn fn, void *arg)
{
	static const char sql[] =
	    "SELECT " LOG_ROW " FROM " LOG_FROM
	    " WHERE l.site_id = (SELECT id FROM sites WHERE site_key = $1) AND l.anon_id_hash = $2"
	    " ORDER BY l.created_at, l.id";
	const char *p[] = {key, anon_id_hash};

	return pg_site_rows(st, sql, PG_NPARAMS(p), p, store_log_columns, store_log_ncolumns,
	    fn, arg, "consent find");
}

int
pg_store_unsealed(struct store *st, const char *key, store_row_fn fn, void *arg)
{
	static const char sql[] =
	    "SELECT " LOG_ROW " FROM " LOG_FROM
	    " WHERE l.site_id = (SELECT id FROM sites WHERE site_key = $1) AND l.seal_id IS NULL"
	    " ORDER BY l.created_at, l.id";
	const char *p[] = {key};

	return pg_site_rows(st, sql, PG_NPARAMS(p), p, store_log_columns, store_log_ncolumns,
	    fn, arg, "unsealed entries");
}

int
pg_store_consent_count(struct store *st, const char *key, int64_t *n)
{
	static const char sql[] = "SELECT count(*) FROM consent_log WHERE site_id = $1";
	char site_text[24];
	const char *p[1];
	int64_t site;
	int rc;

	if ((rc = pg_site_id(st, key, 0, &site)) != STORE_OK)
		return rc;
	p[0] = pg_int_text(site_text, site);
	return pg_run_int64(st, sql, PG_NPARAMS(p), p, n, "count entries");
}

static const struct store_column seal_columns[] = { SEAL_COLUMN_LIST };

int
pg_store_seals(struct store *st, const char *key, store_row_fn fn, void *arg)
{
	static const char sql[] =
	    "SELECT seq AS seq, sealed_at AS sealed_at, tree_size AS tree_size,"
	    " root AS root, prev AS prev, hash AS hash FROM consent_seals"
	    " WHERE site_id = (SELECT id FROM sites WHERE site_key = $1) ORDER BY seq";
	const char *p[] = {key};

	return pg_site_rows(st, sql, PG_NPARAMS(p), p, seal_columns, nitems(seal_columns),
	    fn, arg, "seals");
}

int
pg_store_seal_leaves(struct store *st, const char *key, int64_t seq,
                     store_row_fn fn, void *arg)
{
	static const char seal_sql[] =
	    "SELECT id FROM consent_seals WHERE site_id = $1 AND seq = $2";
	/* The output columns are named by the first SELECT; ORDER BY names
	 * them. */
	static const char sql[] =
	    "SELECT " LOG_ROW " FROM " LOG_FROM " WHERE l.seal_id = $1 AND l.site_id = $2"
	    " UNION ALL"
	    " SELECT p.entry_id, " LOG_PRUNED_FIELDS ", 1"
	    " FROM consent_pruned p JOIN consent_seals s ON s.id = p.seal_id"
	    " WHERE p.seal_id = $1"
	    " ORDER BY created_at, id";
	char site_text[24], seq_text[24], id_text[24];
	const char *p[2];
	int64_t site, id;
	int rc;

	if ((rc = pg_site_id(st, key, 0, &site)) != STORE_OK)
		return rc;
	p[0] = pg_int_text(site_text, site);
	p[1] = pg_int_text(seq_text, seq);
	if ((rc = pg_run_int64(st, seal_sql, PG_NPARAMS(p), p, &id, "seal lookup")) != STORE_OK)
		return rc;
	p[0] = pg_int_text(id_text, id);
	p[1] = site_text;
	return pg_rows(st, sql, PG_NPARAMS(p), p, store_log_columns, store_log_ncolumns,
	    fn, arg, "seal leaves");
}

/*
 * store_seal()'s statements (store_seal.c has the protocol).  The read is
 * one read-only transaction (no lock of any kind: one snapshot for both
 * statements).  What SQLite's single writer gives the write transaction
 * (BEGIN IMMEDIATE), the lock on the site's row gives here (pg_site_id
 * with lock, until the commit): sealers of one site take turns, so the
 * last seq read under the lock is still the last when the seal is added.
 * The seal and the marks of its entries are one statement; an entry
 * erased, purged or sealed since the read is not marked, and then the
 * count tells.
 */
static int
seal_site_id(struct store *st, const char *key, int64_t *site)
{
	return pg_site_id(st, key, 0, site);
}

static int
seal_read_begin(struct store *st)
{
	return pg_begin(st, "ISOLATION LEVEL REPEATABLE READ READ ONLY");
}

static int
seal_last(struct store *st, int64_t site, int slack_seconds, int64_t *seq, char hash[66],
          char from[40])
{
	/* The last seal's last entry less the slack, in the stored form
	 * (SQLite's strftime('%Y-%m-%dT%H:%M:%fZ', t, '-N seconds')). */
	static const char sql[] =
	    "SELECT seq, hash, to_char((last_created_at::timestamptz"
	    " - make_interval(secs => $2::integer)) AT TIME ZONE 'UTC',"
	    " 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')"
	    " FROM consent_seals WHERE site_id = $1 ORDER BY seq DESC LIMIT 1";
	char site_text[24], slack_text[24];
	const char *const p[] = {pg_int_text(site_text, site), pg_int_text(slack_text, slack_seconds)};
	PGresult *r = NULL;

	if (pg_run(st, sql, PG_NPARAMS(p), p, &r, "last seal") != STORE_OK)
		return STORE_ERROR;
	*seq = 0;
	if (PQntuples(r) > 0) {
		const char *f = PQgetvalue(r, 0, 2);

		*seq = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
		snprintf(hash, 66, "%s", PQgetisnull(r, 0, 1) ? "" : PQgetvalue(r, 0, 1));
		if (!PQgetisnull(r, 0, 2) && strlen(f) < 40)
			memcpy(from, f, strlen(f) + 1);
	}
	PQclear(r);
	return STORE_OK;
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
	    " WHERE site_id = $1 AND created_at >= $3 AND seal_id IS NULL"
	    " ORDER BY created_at, id LIMIT $2";
	char site_text[24], max_text[24];
	const char *const p[] = {pg_int_text(site_text, site), pg_int_text(max_text, (int64_t)max),
	    from};
	PGresult *r = NULL;
	int rc = STORE_OK, rows;

	if (pg_run(st, sql, PG_NPARAMS(p), p, &r, "unsealed entries") != STORE_OK)
		return STORE_ERROR;
	rows = PQntuples(r);
	for (int i = 0; i < rows && *n < max; i++) {
		if (store_leaf_set(&leaf[*n], strtoll(PQgetvalue(r, i, 0), NULL, 10),
		    PQgetvalue(r, i, 1), PQgetisnull(r, i, 2) ? NULL : PQgetvalue(r, i, 2)) != 0) {
			rc = STORE_ERROR;
			break;
		}
		(*n)++;
	}
	PQclear(r);
	return rc;
}

static int
seal_write_begin(struct store *st, const char *key)
{
	int64_t site;
	int rc;

	if (pg_begin(st, "") != 0)
		return STORE_ERROR;
	if ((rc = pg_site_id(st, key, 1, &site)) != STORE_OK)
		pg_rollback(st);
	return rc;
}

static int
seal_last_seq(struct store *st, int64_t site, int64_t *seq)
{
	static const char sql[] =
	    "SELECT coalesce(max(seq), 0) FROM consent_seals WHERE site_id = $1";
	char site_text[24];
	const char *const p[] = {pg_int_text(site_text, site)};

	return pg_run_int64(st, sql, PG_NPARAMS(p), p, seq, "last seal") == STORE_OK ?
	    STORE_OK : STORE_ERROR;
}

static int
seal_add(struct store *st, int64_t site, const struct store_seal *s,
         const struct store_leaf *leaf, size_t n, int64_t *marked)
{
	static const char sql[] =
	    "WITH s AS (INSERT INTO consent_seals (site_id, seq, sealed_at, tree_size, root,"
	    " prev, hash, last_created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id),"
	    " m AS (UPDATE consent_log SET seal_id = (SELECT id FROM s)"
	    " WHERE id = ANY ($9::bigint[]) AND site_id = $1 AND seal_id IS NULL RETURNING 1)"
	    " SELECT count(*) FROM m";
	char site_text[24], seq_text[24], size_text[24], *ids_text;
	int rc = STORE_ERROR;

	if ((ids_text = pg_leaf_ids(leaf, n)) != NULL) {
		const char *const p[] = {pg_int_text(site_text, site), pg_int_text(seq_text, s->seq),
		    s->sealed_at, pg_int_text(size_text, s->tree_size), s->root, s->prev, s->hash,
		    leaf[n - 1].created_at, ids_text};

		rc = pg_run_int64(st, sql, PG_NPARAMS(p), p, marked, "add seal");
	}
	free(ids_text);
	return rc;
}

static const struct store_sealer sealer = {
	seal_site_id, seal_read_begin, pg_rollback, seal_last, seal_leaves,
	seal_write_begin, seal_last_seq, seal_add, pg_commit, pg_rollback,
};

int
pg_store_seal(struct store *st, const char *key, size_t max, int slack, store_seal_fn fn,
              void *arg, int64_t *sealed)
{
	return store_seal_run(st, &sealer, key, max, slack, fn, arg, sealed);
}

/*
 * One statement, so one transaction that waits for nobody and that nobody
 * waits for: the scan for the visitor's entries (the log has no index on
 * anon_id_hash, which every insert would pay for, so it reads all of the
 * site's entries) locks no more than the rows it deletes, and what SQLite
 * needs a search before its write lock for, PostgreSQL gives a single
 * statement.  It erases what is committed when it starts; an entry
 * committed after that was stored after the erasure.
 *
 * The deleted rows stay in the table's files as dead tuples until VACUUM
 * removes them, and in the write-ahead log (and its archive, and any
 * replica's) as long as that is kept: PostgreSQL has no secure_delete.  So
 * the statement is followed by a VACUUM of the two tables that held the
 * visitor's hash, which removes the rows and their index entries once no
 * older snapshot can see them (a transaction open since before the erasure
 * keeps them).  VACUUM does not overwrite what it frees: the bytes may stay
 * in the pages' free space until new rows take it (seen: the hash still in
 * consent_log's file after VACUUM and a checkpoint); only VACUUM FULL,
 * which rewrites the table under a lock that stops every write, leaves
 * none.  That, the WAL and the backups are the operator's to handle.
 */
int
pg_store_consent_erase(struct store *st, const char *key, const char *anon_id_hash,
                       int64_t *count)
{
	static const char sql[] =
	    "WITH d AS (DELETE FROM consent_log WHERE site_id = $1 AND anon_id_hash = $2"
	    " RETURNING seal_id, created_at, id, digest),"
	    " k AS (INSERT INTO consent_pruned (seal_id, created_at, entry_id, digest)"
	    " SELECT seal_id, created_at, id, digest FROM d WHERE seal_id IS NOT NULL),"
	    " m AS (DELETE FROM mau_visitors WHERE site_id = $1 AND anon_id_hash = $2),"
	    " e AS (INSERT INTO consent_erasures (site_id, erased_at, entries)"
	    " SELECT $1, $3, count(*) FROM d RETURNING entries)"
	    " SELECT entries FROM e";
	/* Outside any transaction (VACUUM refuses to run in one). */
	static const char vacuum_sql[] = "VACUUM consent_log, mau_visitors";
	char site_text[24], now[32];
	int64_t site;
	int rc;

	*count = 0;
	if ((rc = pg_site_id(st, key, 0, &site)) != STORE_OK)
		return rc;
	clock_now(now, NULL);
	{
		const char *p[] = {pg_int_text(site_text, site), anon_id_hash, now};

		if (pg_run_int64(st, sql, PG_NPARAMS(p), p, count, "erase") != STORE_OK)
			return STORE_ERROR;
	}
	return pg_run(st, vacuum_sql, 0, NULL, NULL, "vacuum after erasure");
}

static const struct store_column erasure_columns[] = { ERASURE_COLUMN_LIST };

int
pg_store_erasures(struct store *st, const char *key, store_row_fn fn, void *arg)
{
	static const char sql[] =
	    "SELECT erased_at AS erased_at, entries AS entries FROM consent_erasures"
	    " WHERE site_id = (SELECT id FROM sites WHERE site_key = $1) ORDER BY id";
	const char *p[] = {key};

	return pg_site_rows(st, sql, PG_NPARAMS(p), p, erasure_columns,
	    nitems(erasure_columns), fn, arg, "erasures");
}

/*
 * One statement per batch (its own transaction): the oldest max entries
 * before cutoff, each sealed one leaving its leaf.  SQLite orders the batch
 * by created_at alone and breaks ties by rowid (its index's order); here
 * the id says so.
 */
int
pg_store_purge_entries(struct store *st, const char *key, const char *cutoff,
                       size_t max, int dry_run, int64_t *done)
{
	static const char count_sql[] =
	    "SELECT count(*) FROM consent_log WHERE site_id = $1 AND created_at < $2";
	static const char del_sql[] =
	    "WITH d AS (DELETE FROM consent_log WHERE id IN"
	    " (SELECT id FROM consent_log WHERE site_id = $1 AND created_at < $2"
	    " ORDER BY created_at, id LIMIT $3)"
	    " RETURNING seal_id, created_at, id, digest),"
	    " k AS (INSERT INTO consent_pruned (seal_id, created_at, entry_id, digest)"
	    " SELECT seal_id, created_at, id, digest FROM d WHERE seal_id IS NOT NULL)"
	    " SELECT count(*) FROM d";
	char site_text[24], max_text[24];
	const char *p[3];
	int64_t site;
	int rc;

	*done = 0;
	if ((rc = pg_site_id(st, key, 0, &site)) != STORE_OK)
		return rc;
	p[0] = pg_int_text(site_text, site);
	p[1] = cutoff;
	p[2] = pg_int_text(max_text, (int64_t)max);
	if (dry_run)
		return pg_run_int64(st, count_sql, 2, p, done, "purge count") == STORE_OK
		    ? STORE_OK : STORE_ERROR;
	return pg_run_int64(st, del_sql, PG_NPARAMS(p), p, done, "purge") == STORE_OK
	    ? STORE_OK : STORE_ERROR;
}

/* The hashes behind the counts go; the counts (mau_counts) stay, as in
 * SQLite (docs/proof.md, "Retention, purge and erasure"). */
int
pg_store_purge_visitors(struct store *st, const char *month, size_t max,
                        int dry_run, int64_t *done)
{
	static const char count_sql[] = "SELECT count(*) FROM mau_visitors WHERE month < $1";
	static const char del_sql[] =
	    "DELETE FROM mau_visitors WHERE (site_id, month, anon_id_hash) IN"
	    " (SELECT site_id, month, anon_id_hash FROM mau_visitors WHERE month < $1 LIMIT $2)";
	char max_text[24];
	const char *p[] = {month, pg_int_text(max_text, (int64_t)max)};

	*done = 0;
	if (dry_run)
		return pg_run_int64(st, count_sql, 1, p, done, "purge visitors") == STORE_OK
		    ? STORE_OK : STORE_ERROR;
	return pg_change(st, del_sql, PG_NPARAMS(p), p, done, "purge visitors") == STORE_OK
	    ? STORE_OK : STORE_ERROR;
}

static const struct store_column digest_columns[] = { DIGEST_COLUMN_LIST };

/*
 * Batches of at most max entries by id, each stored by one UPDATE (its own
 * transaction) after fn digested all of it: nothing of a batch is stored
 * when fn gives up.  An entry's fields never change once stored, so
 * nothing needs locking between the read and the write; one erased
 * meanwhile is simply not updated.
 */
int
pg_store_digest_missing(struct store *st, size_t max, store_digest_fn fn, void *arg,
                        int64_t *done)
{
	static const char sel_sql[] =
	    "SELECT " LOG_ROW ", t.site_key AS site_key FROM " LOG_FROM
	    " JOIN sites t ON t.id = l.site_id"
	    " WHERE l.id > $1 AND l.digest IS NULL ORDER BY l.id LIMIT $2";
	static const char upd_sql[] =
	    "UPDATE consent_log l SET digest = v.digest"
	    " FROM unnest($1::bigint[], $2::text[]) AS v (id, digest) WHERE l.id = v.id";
	char last_text[24], max_text[24], *ids_text = NULL, *digests = NULL, *d;
	int64_t last = 0, *ids = NULL;
	PGresult *r = NULL;
	int rc = STORE_ERROR, n;
	cJSON *row;

	*done = 0;
	if ((ids = malloc((max > 0 ? max : 1) * sizeof(*ids))) == NULL ||
	    (digests = malloc((max > 0 ? max : 1) * 65 + 3)) == NULL) {
		log_error("out of memory");
		goto out;
	}
	do {
		const char *p[] = {pg_int_text(last_text, last),
		    pg_int_text(max_text, (int64_t)max)};

		if (pg_run(st, sel_sql, PG_NPARAMS(p), p, &r, "digest entries") != STORE_OK)
			goto out;
		if ((size_t)(n = PQntuples(r)) > max)
			n = (int)max;
		/* "{digest,digest,...}": hex digits need no quoting. */
		d = digests;
		*d++ = '{';
		for (int i = 0; i < n; i++) {
			const cJSON *key;
			int failed;

			if ((row = pg_row(r, i, digest_columns, nitems(digest_columns))) == NULL)
				goto out;
			key = cJSON_GetObjectItemCaseSensitive(row, "site_key");
			last = ids[i] = strtoll(PQgetvalue(r, i, 0), NULL, 10);
			if (i > 0)
				*d++ = ',';
			failed = !cJSON_IsString(key) || fn(arg, key->valuestring, row, d) != 0;
			cJSON_Delete(row);
			if (failed)
				goto out;
			d += 64;
		}
		*d++ = '}';
		*d = '\0';
		PQclear(r);
		r = NULL;
		if (n == 0)
			break;
		if ((ids_text = pg_int_array(ids, (size_t)n)) == NULL)
			goto out;
		{
			const char *u[] = {ids_text, digests};

			if (pg_change(st, upd_sql, PG_NPARAMS(u), u, NULL, "digest entry")
			    != STORE_OK)
				goto out;
		}
		free(ids_text);
		ids_text = NULL;
		*done += n;
	} while (n > 0);
	rc = STORE_OK;
out:
	PQclear(r);
	free(ids_text);
	free(digests);
	free(ids);
	return rc;
}
