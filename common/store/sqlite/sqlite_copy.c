/* sqlite_copy.c: the SQLite store's side of copying a whole database (consentctl migrate). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "store/sqlite/sqlite_store.h"

/*
 * The parts of a copy (store_copy_parts.h), with the statements of this
 * store.  write binds the cells as text, and each column's affinity makes
 * of them what the service stored: integers in INTEGER columns, text
 * stays text.  The NUMERIC columns that hold fractions get the double
 * strtod() reads, which rounds correctly: SQLite's own reading of text as
 * a double does not on every build (it rounds through long double where
 * there is one, and a last bit can differ).
 */
struct part {
	const char *name;
	int ncols;           /* at most STORE_COPY_CELLS_MAX */
	const char *read;    /* every row, in the part's columns */
	const char *count;
	const char *write;   /* one row, the cells as ?1..?ncols */
	unsigned fractions;  /* bit i: cell i may be a fraction */
};

/* ncols parameters: PARAMS(n) for the counts the list has. */
#define PARAMS(n) PARAMS_##n
#define PARAMS_2 "?,?"
#define PARAMS_3 "?,?,?"
#define PARAMS_4 PARAMS_2 "," PARAMS_2
#define PARAMS_5 PARAMS_2 "," PARAMS_3
#define PARAMS_6 PARAMS_3 "," PARAMS_3
#define PARAMS_7 PARAMS_4 "," PARAMS_3
#define PARAMS_8 PARAMS_4 "," PARAMS_4
#define PARAMS_9 PARAMS_6 "," PARAMS_3
#define PARAMS_30 PARAMS_9 "," PARAMS_9 "," PARAMS_9 "," PARAMS_3

#define COPY_TABLE(t, n, cols, identity, fractions) \
	{#t, n, "SELECT " cols " FROM " #t, "SELECT count(*) FROM " #t, \
	 "INSERT INTO " #t " (" cols ") VALUES (" PARAMS(n) ")", fractions},
#define COPY_CONFIG_ID(name, n) \
	{name, n, "SELECT id, config_id FROM sites WHERE config_id IS NOT NULL", \
	 "SELECT count(*) FROM sites WHERE config_id IS NOT NULL", \
	 "UPDATE sites SET config_id = ?2 WHERE id = ?1", 0},
#define COPY_COUNTS(t, n, cols) COPY_TABLE(t, n, cols, 0, 0)
static const struct part parts[] = {
#include "store/store_copy_parts.h"
};
#undef COPY_TABLE
#undef COPY_CONFIG_ID
#undef COPY_COUNTS

/* The part of that name, or NULL (reported). */
static const struct part *
part_named(const char *name)
{
	int i = store_copy_part(name, "SQLite");

	return i >= 0 ? &parts[i] : NULL;
}

/*
 * Whether the database is at the version of this program's schema.sql
 * (its "PRAGMA user_version = N"), whose tables and columns the parts
 * name: STORE_OK, or STORE_ERROR (reported).
 */
static int
check_version(struct store *st)
{
	static const char mark[] = "PRAGMA user_version = ";
	const char *p = strstr(schema_data, mark);
	int64_t want = p != NULL ? strtoll(p + sizeof(mark) - 1, NULL, 10) : -1, have = 0;
	sqlite3_stmt *q = NULL;
	char what[512];
	int rc;

	if (sqlite_db_prepare(st->db, "PRAGMA user_version", &q) != 0)
		return STORE_ERROR;
	rc = sqlite_step_int64(st, q, &have, st->path);
	sqlite3_finalize(q);
	if (rc != STORE_OK)
		return STORE_ERROR;
	snprintf(what, sizeof(what), "database %s", st->path);
	return store_schema_current(have, want, what);
}

int
sqlite_store_copy_parts(struct store *st, const char *const **names, size_t *n)
{
	if (check_version(st) != STORE_OK)
		return STORE_ERROR;
	*names = store_copy_names;
	*n = store_copy_nparts;
	return STORE_OK;
}

int
sqlite_store_copy_count(struct store *st, const char *name, int64_t *n)
{
	const struct part *t = part_named(name);
	sqlite3_stmt *q = NULL;
	int rc;

	if (t == NULL || sqlite_db_prepare(st->db, t->count, &q) != 0)
		return STORE_ERROR;
	rc = sqlite_step_int64(st, q, n, t->name);
	sqlite3_finalize(q);
	return rc == STORE_OK ? STORE_OK : STORE_ERROR;
}

/*
 * Column i of q's row as a cell: NULL, an integer in decimal, a fraction as
 * the shortest text that reads back as the same double (SQLite's own text
 * of it keeps 15 digits), text as it is.  A blob, or text with a NUL in it,
 * has no text for the other store: refused (reported).  num holds a
 * number's text.  0 or -1.
 */
static int
cell(sqlite3_stmt *q, int i, const char *part, char num[32], const char **out)
{
	double d;

	*out = NULL;
	switch (sqlite3_column_type(q, i)) {
	case SQLITE_NULL:
		return 0;
	case SQLITE_INTEGER:
		snprintf(num, 32, "%lld", (long long)sqlite3_column_int64(q, i));
		*out = num;
		return 0;
	case SQLITE_FLOAT:
		d = sqlite3_column_double(q, i);
		if (!isfinite(d))
			break;
		for (int digits = 15; digits <= 17; digits++) {
			snprintf(num, 32, "%.*g", digits, d);
			if (strtod(num, NULL) == d)
				break;
		}
		*out = num;
		return 0;
	case SQLITE_TEXT:
		*out = (const char *)sqlite3_column_text(q, i);
		if (*out != NULL && strlen(*out) == (size_t)sqlite3_column_bytes(q, i))
			return 0;
		if (*out == NULL) {
			log_error("out of memory");
			return -1;
		}
		break;
	default:
		break;
	}
	log_error("copy %s: column %s holds what a copy cannot carry as text (a blob, a NUL "
	    "byte or an infinity)", part, sqlite3_column_name(q, i));
	return -1;
}

int
sqlite_store_copy_read(struct store *st, const char *name, store_cells_fn fn, void *arg)
{
	const struct part *t = part_named(name);
	const char *cells[STORE_COPY_CELLS_MAX];
	char num[STORE_COPY_CELLS_MAX][32];
	sqlite3_stmt *q = NULL;
	int rc, i;

	if (t == NULL || sqlite_db_prepare(st->db, t->read, &q) != 0)
		return STORE_ERROR;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		for (i = 0; i < t->ncols; i++)
			if (cell(q, i, t->name, num[i], &cells[i]) != 0)
				goto fail;
		if ((rc = fn(arg, cells, (size_t)t->ncols)) != 0)
			goto out;
	}
	if (rc == SQLITE_DONE) {
		rc = STORE_OK;
		goto out;
	}
	sqlite_db_log(st->db, t->name);
fail:
	rc = STORE_ERROR;
out:
	sqlite3_finalize(q);
	return rc;
}

/*
 * The target: one write transaction (BEGIN IMMEDIATE: no other writer
 * meanwhile), in a database at this program's schema version that holds
 * nothing but the built-in texts consentctl init records, which make way
 * for the source's (a record of the same key is the same bytes).
 */
int
sqlite_store_copy_begin(struct store *st)
{
	sqlite3_stmt *q = NULL;
	char what[512];

	if (check_version(st) != STORE_OK || sqlite_db_begin(st->db) != 0)
		return STORE_ERROR;
	snprintf(what, sizeof(what), "database %s", st->path);
	if (store_copy_empty(st, what, sqlite_store_copy_count) != STORE_OK)
		goto fail;
	if (sqlite_db_prepare(st->db, "DELETE FROM builtin_texts", &q) != 0 ||
	    sqlite_change(st, q, "builtin_texts") != STORE_OK)
		goto fail;
	sqlite3_finalize(q);
	return STORE_OK;
fail:
	sqlite3_finalize(q);
	sqlite_db_rollback(st->db);
	return STORE_ERROR;
}

/* What a row written into a part needs. */
struct put {
	struct store *st;
	const struct part *t;
	sqlite3_stmt *q;
	int64_t n;
};

/* Cell i as parameter i + 1: a number of a fractions column as its double,
 * anything else as text (NULL: SQL NULL). */
static void
bind_cell(const struct put *p, size_t i, const char *cell)
{
	char *end;
	double d;

	if (cell != NULL && (p->t->fractions >> i & 1)) {
		d = strtod(cell, &end);
		if (end != cell && *end == '\0') {
			sqlite3_bind_double(p->q, (int)i + 1, d);
			return;
		}
	}
	sqlite_db_bind_text(p->q, (int)i + 1, cell);
}

/* store_cells_fn: one row into the part, which must change exactly one row
 * (sites.config_id: the site is there). */
static int
put_row(void *arg, const char *const *cells, size_t n)
{
	struct put *p = arg;
	int rc;

	if (n != (size_t)p->t->ncols) {
		log_error("copy %s: a row of %zu cells, want %d", p->t->name, n, p->t->ncols);
		return STORE_ERROR;
	}
	for (size_t i = 0; i < n; i++)
		bind_cell(p, i, cells[i]);
	rc = sqlite3_step(p->q);
	sqlite3_reset(p->q);
	if (rc != SQLITE_DONE) {
		sqlite_db_log(p->st->db, p->t->name);
		return STORE_ERROR;
	}
	if (sqlite3_changes(p->st->db) != 1) {
		log_error("copy %s: no row for %s", p->t->name, cells[0] ? cells[0] : "NULL");
		return STORE_ERROR;
	}
	p->n++;
	return 0;
}

int
sqlite_store_copy_write(struct store *st, const char *name, store_feed_fn feed, void *arg,
                        int64_t *written)
{
	struct put p = { st, part_named(name), NULL, 0 };
	int rc = STORE_ERROR;

	*written = 0;
	if (p.t == NULL || sqlite_db_prepare(st->db, p.t->write, &p.q) != 0)
		return STORE_ERROR;
	if (sqlite3_bind_parameter_count(p.q) != p.t->ncols)
		log_error("copy %s: the statement takes %d cells, the part has %d", p.t->name,
		    sqlite3_bind_parameter_count(p.q), p.t->ncols);
	else if (feed(arg, put_row, &p) == 0)
		rc = STORE_OK;
	*written = p.n;
	sqlite3_finalize(p.q);
	return rc;
}

int
sqlite_store_copy_end(struct store *st, int commit)
{
	if (!commit) {
		sqlite_db_rollback(st->db);
		return STORE_OK;
	}
	return sqlite_db_commit(st->db) == 0 ? STORE_OK : STORE_ERROR;
}
