/* pg_db.h: the PostgreSQL store's floor: connecting, waits with an end, statements and transactions (pg_db.c). */
#ifndef CONSENT_PG_DB_H
#define CONSENT_PG_DB_H

/*
 * As sqlite_db.h is SQLite's: what every statement of the store needs,
 * nothing of sites, configs or requests.  Its functions take the store
 * (pg_store.h's struct store: the connection and the deadline its waits
 * end at).  Only store/pg/ includes it, through pg_store.h.
 */

#include <stdint.h>

#include <libpq-fe.h>

struct store;

/* Connect st (its conninfo) without blocking, until the store's deadline:
 * 0, or -1 (reported; st->conn may hold the failed connection). */
int pg_connect(struct store *st);

/* Now on CLOCK_MONOTONIC, in milliseconds. */
int64_t pg_now_ms(void);

/* Wait until conn's socket is ready for events (POLLIN, POLLOUT) or end
 * (pg_now_ms) passes: 0, or -1 with errno (ETIMEDOUT). */
int pg_wait(PGconn *conn, short events, int64_t end);

/* One stderr line "PostgreSQL: what: msg", libpq's line breaks and runs of
 * blanks made one space (libpq never puts a password in a message). */
void pg_log_error(const char *what, const char *msg);

/* Close a connection that is of no more use (timed out, broken), so that
 * nothing half-read is ever taken for the next answer. */
void pg_drop(struct store *st);

/*
 * Run sql (one statement, parameters $1..$n as text, NULL for SQL NULL)
 * and wait for its result until the store's deadline.  STORE_OK with *res
 * (caller PQclear()s; res NULL: no rows wanted), STORE_EXISTS when a
 * unique constraint refused it (SQLSTATE 23505), else STORE_ERROR
 * (reported as what; a connection that timed out or broke is closed).
 */
int pg_run(struct store *st, const char *sql, int n, const char *const *params,
           PGresult **res, const char *what);

/* Run text of the program's own (several statements, no parameters, never
 * anything of a request: the schema) with the simple query protocol. */
int pg_script(struct store *st, const char *text, const char *what);

/* Run a statement: STORE_OK, STORE_EXISTS, STORE_ERROR; *changed (may be
 * NULL) receives how many rows it changed. */
int pg_change(struct store *st, const char *sql, int n, const char *const *params,
              int64_t *changed, const char *what);

/*
 * A transaction: BEGIN with the isolation given ("" for the default, READ
 * COMMITTED; "ISOLATION LEVEL REPEATABLE READ READ ONLY" for a snapshot),
 * and SET LOCAL timeouts so that the server gives up too.  Each returns
 * 0, or -1 (reported); pg_rollback() takes back what is open, if anything.
 */
int pg_begin(struct store *st, const char *how);
int pg_commit(struct store *st);
void pg_rollback(struct store *st);

/* A copy of the text of field (r, c) (caller frees), NULL for SQL NULL or
 * when out of memory (tell them apart with PQgetisnull). */
char *pg_text_dup(const PGresult *res, int r, int c);

/* An integer as parameter text, in buf. */
const char *pg_int_text(char buf[24], int64_t v);

#endif
