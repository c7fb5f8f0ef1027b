/* pg_store.h: private to the PostgreSQL store (store/pg/): the connection and the row helpers. */
#ifndef CONSENT_PG_STORE_H
#define CONSENT_PG_STORE_H

/*
 * The PostgreSQL store talks to the server through pgbouncer in transaction
 * pooling mode (docs/postgres.md), so nothing may
 * outlive a transaction on the server side: every statement is sent with
 * PQsendQueryParams (an unnamed prepared statement, parameters as text),
 * never SET (only SET LOCAL, inside a transaction), no session advisory
 * lock (pg_advisory_xact_lock), no temporary table, no startup options.
 * Every wait on the server (the connection, each result) ends at the
 * store's deadline: a server or pgbouncer that is down, frozen or refusing
 * costs a bounded time and one stderr line, and the connection is then
 * closed (never used again).
 *
 * Nothing outside store/pg/ includes this header.
 */

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>
#include <libpq-fe.h>

#include "base/nitems.h"
#include "store/pg/pg_db.h"
#include "store/store_ops.h"

/* How long a request of the endpoints may wait on the database in all
 * (connection and statements), and how long consentctl waits for one
 * statement (a migration's copy or a report may be long). */
#define PG_REQUEST_MS 10000
#define PG_CONNECT_MS 10000
#define PG_STATEMENT_MS 600000

struct store {
	struct store_head head;        /* head.ops: &store_pg_ops */
	PGconn *conn;
	char *conninfo;                /* owned copy: the kept store's key */
	enum store_mode mode;
	int64_t deadline;              /* CLOCK_MONOTONIC ms: waits end here; 0: per statement */
	int in_tx;                     /* a transaction is open (pg_begin) */
};

/* The schema's text (schema_pg.sql, embedded by make). */
extern const char schema_pg_data[];

/*
 * The helpers of the admin statements (pg_admin.c), rows by store_rows.c:
 * row r of res as a new object (store_row), the same JSON for the same
 * stored values as SQLite's sqlite_row().  NULL on failure (reported).
 */
cJSON *pg_row(const PGresult *res, int r, const struct store_column *cols, size_t n);

/* Hand every row of res (pg_row) to fn: STORE_OK, fn's non-zero return,
 * or STORE_ERROR. */
int pg_walk(const PGresult *res, const struct store_column *cols, size_t n,
            store_row_fn fn, void *arg);

/* Run sql and hand its rows to fn (pg_run, pg_walk). */
int pg_rows(struct store *st, const char *sql, int n, const char *const *params,
            const struct store_column *cols, size_t ncols, store_row_fn fn, void *arg,
            const char *what);

/* Run sql, which gives at most one row: STORE_OK with *out (pg_row),
 * STORE_NOTFOUND, STORE_ERROR. */
int pg_one_row(struct store *st, const char *sql, int n, const char *const *params,
               const struct store_column *cols, size_t ncols, cJSON **out, const char *what);

/* The integer in the first column of the first row of sql: STORE_OK,
 * STORE_NOTFOUND (no row, or NULL), STORE_ERROR. */
int pg_run_int64(struct store *st, const char *sql, int n, const char *const *params,
                 int64_t *v, const char *what);

/* pg_change, and STORE_NOTFOUND when it changed no row. */
int pg_change_one(struct store *st, const char *sql, int n, const char *const *params,
                  const char *what);

/* The id of the site with this key: STORE_OK, STORE_NOTFOUND, STORE_ERROR.
 * With lock, the site's row is locked until the transaction ends, so that
 * the site's publishers and sealers go one at a time (what SQLite's single
 * writer gave, e.g. the next version number): FOR NO KEY UPDATE, which
 * the consent and scripts inserts' foreign key checks (FOR KEY SHARE) do
 * not wait for (FOR UPDATE held them up for as long). */
int pg_site_id(struct store *st, const char *key, int lock, int64_t *id);

/*
 * The rows of a listing of one site, in one round trip: sql's $1 is the
 * site's key (the statement joins sites, or compares site_id with
 * "(SELECT id FROM sites WHERE site_key = $1)"), then the other n - 1 of
 * params.  Only when it gives no row is the site looked up, to answer
 * STORE_NOTFOUND for an unknown one (and STORE_OK for one with no rows).
 */
int pg_site_rows(struct store *st, const char *sql, int n, const char *const *params,
                 const struct store_column *cols, size_t ncols, store_row_fn fn,
                 void *arg, const char *what);

/*
 * The integers as a PostgreSQL array literal, "{1,2,3}" (caller frees), to
 * be passed as one parameter cast to bigint[]: one statement takes them
 * all; pg_leaf_ids() the ids of n leaves of a seal so.  NULL when out of
 * memory (reported).
 */
char *pg_int_array(const int64_t *v, size_t n);
char *pg_leaf_ids(const struct store_leaf *leaf, size_t n);

#define PG_NPARAMS(p) ((int)(nitems(p)))

#endif
