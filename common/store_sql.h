/* store_sql.h: private to the SQLite store (store*.c): the connection and the row helpers. */
#ifndef CONSENT_STORE_SQL_H
#define CONSENT_STORE_SQL_H

/*
 * Nothing outside store*.c includes this header: the endpoints, consentctl
 * and the rest of common/ see only store.h, so a PostgreSQL store replaces
 * store*.c and this header and nothing else.
 */

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "db.h"
#include "store.h"

struct store {
	sqlite3 *db;
	const char *path;
};

/* A copy of the text of column i (caller frees), or NULL for SQL NULL or
 * when out of memory (tell them apart with sqlite3_column_type). */
char *sql_text_dup(sqlite3_stmt *q, int i);

/*
 * The current row of q as a new object (caller owns), one member per
 * described column, in order: NULL is JSON null, or left out when the
 * column is optional; ST_BOOL integers are booleans, ST_JSON text is
 * parsed (kept as a string when it is not JSON); other values by their
 * SQLite type.  A statement whose columns are not named and counted as
 * described is refused (reported): the SQL and its description disagree.
 * NULL on failure (reported).
 */
cJSON *sql_row(sqlite3_stmt *q, const struct store_column *cols, size_t n);

/* Step q to its end, handing each row (sql_row) to fn: STORE_OK, fn's
 * non-zero return, or STORE_ERROR.  Does not finalize q. */
int sql_walk(struct store *st, sqlite3_stmt *q, const struct store_column *cols,
             size_t n, store_row_fn fn, void *arg, const char *what);

/* The one row of q as a new object in *out: STORE_OK, STORE_NOTFOUND,
 * STORE_ERROR. */
int sql_one_row(struct store *st, sqlite3_stmt *q, const struct store_column *cols,
                size_t n, cJSON **out, const char *what);

/* Run a statement that returns no rows: STORE_OK, STORE_EXISTS when a
 * UNIQUE or PRIMARY KEY constraint refused it, else STORE_ERROR. */
int sql_change(struct store *st, sqlite3_stmt *q, const char *what);

/*
 * Run one statement whose parameters ?1..?n are the n texts and that
 * changes at most one row: STORE_OK, STORE_NOTFOUND when it changed none,
 * STORE_EXISTS (see sql_change()), or STORE_ERROR.
 */
int sql_change_one(struct store *st, const char *sql, const char *const *texts,
                   int n, const char *what);

/* The id of the site with this key: STORE_OK, STORE_NOTFOUND, STORE_ERROR. */
int sql_site_id(struct store *st, const char *key, int64_t *id);

/* The rows of a listing of one site (sql_walk): sql's ?1 is the id of the
 * site with this key, ?2 is text2 (NULL: SQL NULL).  STORE_NOTFOUND for an
 * unknown site. */
int sql_site_rows(struct store *st, const char *key, const char *sql, const char *text2,
                  const struct store_column *cols, size_t n, store_row_fn fn,
                  void *arg, const char *what);

#define SQL_NCOLS(cols) (sizeof(cols) / sizeof((cols)[0]))

#endif
