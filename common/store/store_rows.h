/* store_rows.h: private to the store: the one row builder of both backends, over a small cursor. */
#ifndef CONSENT_STORE_ROWS_H
#define CONSENT_STORE_ROWS_H

/*
 * A listing reaches consentctl as rows of described columns (store_admin.h,
 * struct store_column).  Each backend reads its results through a cursor
 * (sqlite_rows.c over a statement, pg_rows.c over a result) and this file
 * alone turns the current row into JSON, so that the same stored values
 * give the same JSON from either backend.  Only the admin side uses it:
 * no endpoint links it (t0062).
 */

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "store/store_admin.h"

/* One cell as the backend read it.  A backend gives an integer for what
 * SQLite's NUMERIC affinity would have stored as one (a boolean too), a
 * double for the other fractions, text (valid until the cursor moves) for
 * the rest. */
struct store_cell {
	enum { SC_NULL, SC_INT, SC_REAL, SC_TEXT } type;
	int64_t i;
	double r;
	const char *text;
};

/* A backend's cursor starts with this (its own fields follow). */
struct store_cursor {
	/* Move to the next row: 1, 0 at the end, or STORE_ERROR (reported). */
	int (*next)(struct store_cursor *c);
	/* The result's columns: how many, and the name of column i. */
	int (*ncolumns)(const struct store_cursor *c);
	const char *(*name)(const struct store_cursor *c, int i);
	/* Cell i of the current row into *v. */
	void (*cell)(const struct store_cursor *c, int i, struct store_cell *v);
};

/*
 * The current row of c as a new object (caller owns), one member per
 * described column, in order: NULL is JSON null, or left out when the
 * column is optional; ST_BOOL numbers are booleans, ST_JSON text is parsed
 * (kept as a string when it is not JSON), fractions the shortest text that
 * reads back as the same double.  A result whose columns are not named and
 * counted as described is refused (reported): the SQL and its description
 * disagree.  NULL on failure (reported).
 */
cJSON *store_row(const struct store_cursor *c, const struct store_column *cols, size_t n);

/* Hand each row of c (store_row) to fn until it returns non-zero: that
 * value, STORE_OK at the end, or STORE_ERROR. */
int store_walk(struct store_cursor *c, const struct store_column *cols, size_t n,
               store_row_fn fn, void *arg);

/* The first row of c as a new object in *out: STORE_OK, STORE_NOTFOUND
 * (no row), STORE_ERROR. */
int store_one_row(struct store_cursor *c, const struct store_column *cols, size_t n,
                  cJSON **out);

#endif
