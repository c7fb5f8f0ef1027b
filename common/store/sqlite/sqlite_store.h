/* sqlite_store.h: private to the SQLite store: the connection and the row helpers. */
#ifndef CONSENT_SQLITE_STORE_H
#define CONSENT_SQLITE_STORE_H

/*
 * Nothing outside store/sqlite/ includes this header: the endpoints see
 * only store.h, consentctl and the rest of common/ store.h and
 * store_admin.h.  Its helpers are sqlite_*, over sqlite_db.h's
 * sqlite_db_*, as the PostgreSQL store's are pg_* (pg_store.h).
 */

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <cjson/cJSON.h>

#include "store/sqlite/sqlite_db.h"
#include "store/store_ops.h"

/* Statements of the request path kept prepared per connection (sqlite_prepare). */
#define SQL_CACHE_MAX 16

struct store {
	struct store_head head;        /* head.ops: &store_sqlite_ops */
	sqlite3 *db;
	char *path;              /* owned copy */
	enum store_mode mode;
	/* A kept store (store_acquire in a FastCGI process): the file it
	 * opened and the schema it read then, to notice a replaced or
	 * upgraded database. */
	dev_t dev;
	ino_t ino;
	int64_t schema[2];       /* schema_version, user_version */
	char *sync;              /* CONSENT_SYNC when it was opened (owned, NULL: unset):
	                            sqlite_db_open applies it to the connection */
	struct {
		const char *sql;     /* the static text: the key, by address */
		sqlite3_stmt *q;
	} cache[SQL_CACHE_MAX];
	size_t ncache;
};

/*
 * The statement for sql, a static string (its address is the key):
 * prepared once per connection and kept, or prepared now when the cache is
 * full.  Hand it back with sqlite_done() after every use, whatever happened.
 * 0, or -1 (reported) with *q NULL.
 */
int sqlite_prepare(struct store *st, const char *sql, sqlite3_stmt **q);

/* Reset q and clear its bindings (so no request's text stays bound and no
 * read transaction stays open), or finalize it when it is not kept.  NULL
 * does nothing. */
void sqlite_done(struct store *st, sqlite3_stmt *q);

/* A copy of the text of column i (caller frees), or NULL for SQL NULL or
 * when out of memory (tell them apart with sqlite3_column_type). */
char *sqlite_text_dup(sqlite3_stmt *q, int i);

/*
 * The helpers of the admin statements (sqlite_admin.c), rows by
 * store_rows.c: the current row of q as a new object (store_row), one
 * member per described column.  NULL on failure (reported).
 */
cJSON *sqlite_row(sqlite3_stmt *q, const struct store_column *cols, size_t n);

/* Step q to its end, handing each row (sqlite_row) to fn: STORE_OK, fn's
 * non-zero return, or STORE_ERROR.  Does not finalize q. */
int sqlite_walk(struct store *st, sqlite3_stmt *q, const struct store_column *cols,
                size_t n, store_row_fn fn, void *arg, const char *what);

/* The one row of q as a new object in *out: STORE_OK, STORE_NOTFOUND,
 * STORE_ERROR. */
int sqlite_one_row(struct store *st, sqlite3_stmt *q, const struct store_column *cols,
                   size_t n, cJSON **out, const char *what);

/* Run a statement that returns no rows: STORE_OK, STORE_EXISTS when a
 * UNIQUE or PRIMARY KEY constraint refused it, else STORE_ERROR. */
int sqlite_change(struct store *st, sqlite3_stmt *q, const char *what);

/*
 * Run one statement whose parameters ?1..?n are the n texts and that
 * changes at most one row: STORE_OK, STORE_NOTFOUND when it changed none,
 * STORE_EXISTS (see sqlite_change()), or STORE_ERROR.
 */
int sqlite_change_one(struct store *st, const char *sql, const char *const *texts,
                      int n, const char *what);

/* The integer in the first column of q's first row into *v: STORE_OK,
 * STORE_NOTFOUND when q gives no row, or STORE_ERROR (reported as what).
 * Does not finalize q. */
int sqlite_step_int64(struct store *st, sqlite3_stmt *q, int64_t *v, const char *what);

/* The id of the site with this key: STORE_OK, STORE_NOTFOUND, STORE_ERROR. */
int sqlite_site_id(struct store *st, const char *key, int64_t *id);

/* The one integer (a count) that sql answers for one site (sqlite_step_int64):
 * sql's ?1 is the id of the site with this key.  STORE_NOTFOUND for an
 * unknown site. */
int sqlite_site_int64(struct store *st, const char *key, const char *sql, int64_t *v,
                      const char *what);

/* The rows of a listing of one site (sqlite_walk): sql's ?1 is the id of the
 * site with this key, ?2 is text2 (NULL: SQL NULL).  STORE_NOTFOUND for an
 * unknown site. */
int sqlite_site_rows(struct store *st, const char *key, const char *sql, const char *text2,
                     const struct store_column *cols, size_t n, store_row_fn fn,
                     void *arg, const char *what);

/*
 * A write of the request path (store_consent_add, store_scripts_report):
 * its own transaction (BEGIN IMMEDIATE ... COMMIT), or, in a group
 * (store_group_begin), a savepoint in the group's transaction.  Each
 * returns 0, or -1 (reported); sqlite_write_undo() takes the write back,
 * whatever was done of it.
 */
int sqlite_write_begin(struct store *st);
int sqlite_write_commit(struct store *st);
void sqlite_write_undo(struct store *st);


/*
 * What the sealers of the consent log (sqlite_proof.c) and of the audit
 * trail (sqlite_audit.c) share, as members of their struct store_sealer
 * (store_ops.h): the read transaction (BEGIN) and its end, the write
 * transaction (BEGIN IMMEDIATE) and its commit.  sqlite_seal_leaves():
 * step q (prepared and bound; its columns id, the time, the digest) into
 * at most max leaves from leaf[*n] on (store_leaf_set), q finalized.
 * sqlite_seal_bind(): bind the seal's ?2 seq, ?3 sealed_at, ?4 tree_size,
 * ?5 root, ?6 prev, ?7 hash to its INSERT.  sqlite_seal_mark(): after
 * the seal's INSERT, run sql (?1 the new seal's id, ?2 a leaf's id, ?3 the
 * site, NULL for 0) for each of the n leaves, *marked how many it changed.
 */
int sqlite_seal_read_begin(struct store *st);
void sqlite_seal_end(struct store *st);
int sqlite_seal_write_begin(struct store *st, const char *key);
int sqlite_seal_commit(struct store *st);
int sqlite_seal_leaves(struct store *st, sqlite3_stmt *q, size_t max, struct store_leaf *leaf,
                       size_t *n);
void sqlite_seal_bind(sqlite3_stmt *q, const struct store_seal *s);
int sqlite_seal_mark(struct store *st, const char *sql, int64_t site, const struct store_leaf *leaf,
                     size_t n, int64_t *marked);

/* The schema's text (schema.sql, embedded by make). */
extern const char schema_data[];

#endif
