/* sqlite_admin.c: the SQLite store's admin table, apart from its request path, and the helpers only its admin statements use. */
#include <string.h>

#include "base/log.h"
#include "store/sqlite/sqlite_store.h"
#include "store/store_rows.h"

/*
 * What store_admin.c hands calls to (store_ops.h): the functions of
 * sqlite_schema.c, sqlite_sites.c, sqlite_configs.c, sqlite_log.c,
 * sqlite_scripts.c, sqlite_proof.c, sqlite_report.c, sqlite_builtin.c,
 * sqlite_copy.c, sqlite_audit.c.  In an object of its own, named by no
 * other, so that only a program that links store_admin.c holds them.
 */
const struct store_admin_ops store_sqlite_admin_ops = {
#define STORE_FN(type, name, params, args) .name = sqlite_store_##name,
#include "store/store_admin_fns.h"
#undef STORE_FN
};

/*
 * The cursor of store_rows.h over a statement: each step of q is a row,
 * each column a cell by its SQLite type.
 */
struct sqlite_cursor {
	struct store_cursor cur;
	struct store *st;       /* NULL: a row already stepped to (sqlite_row) */
	sqlite3_stmt *q;
	const char *what;
};

static int
cursor_next(struct store_cursor *c)
{
	struct sqlite_cursor *s = (struct sqlite_cursor *)(void *)c;
	int rc = sqlite3_step(s->q);

	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	sqlite_db_log(s->st->db, s->what);
	return STORE_ERROR;
}

static int
cursor_ncolumns(const struct store_cursor *c)
{
	return sqlite3_column_count(((const struct sqlite_cursor *)(const void *)c)->q);
}

static const char *
cursor_name(const struct store_cursor *c, int i)
{
	return sqlite3_column_name(((const struct sqlite_cursor *)(const void *)c)->q, i);
}

static void
cursor_cell(const struct store_cursor *c, int i, struct store_cell *v)
{
	sqlite3_stmt *q = ((const struct sqlite_cursor *)(const void *)c)->q;

	memset(v, 0, sizeof(*v));
	switch (sqlite3_column_type(q, i)) {
	case SQLITE_NULL:
		v->type = SC_NULL;
		break;
	case SQLITE_INTEGER:
		v->type = SC_INT;
		v->i = sqlite3_column_int64(q, i);
		break;
	case SQLITE_FLOAT:
		v->type = SC_REAL;
		v->r = sqlite3_column_double(q, i);
		break;
	default:
		v->type = SC_TEXT;
		v->text = (const char *)sqlite3_column_text(q, i);   /* NULL: out of memory */
		break;
	}
}

static struct sqlite_cursor
cursor_of(struct store *st, sqlite3_stmt *q, const char *what)
{
	struct sqlite_cursor c = {
		{cursor_next, cursor_ncolumns, cursor_name, cursor_cell}, st, q, what
	};

	return c;
}

cJSON *
sqlite_row(sqlite3_stmt *q, const struct store_column *cols, size_t n)
{
	struct sqlite_cursor c = cursor_of(NULL, q, NULL);

	return store_row(&c.cur, cols, n);
}

int
sqlite_walk(struct store *st, sqlite3_stmt *q, const struct store_column *cols,
            size_t n, store_row_fn fn, void *arg, const char *what)
{
	struct sqlite_cursor c = cursor_of(st, q, what);

	return store_walk(&c.cur, cols, n, fn, arg);
}

int
sqlite_one_row(struct store *st, sqlite3_stmt *q, const struct store_column *cols,
               size_t n, cJSON **out, const char *what)
{
	struct sqlite_cursor c = cursor_of(st, q, what);

	return store_one_row(&c.cur, cols, n, out);
}

int
sqlite_change(struct store *st, sqlite3_stmt *q, const char *what)
{
	int rc = sqlite3_step(q);

	if (rc == SQLITE_DONE)
		return STORE_OK;
	if (rc == SQLITE_CONSTRAINT_UNIQUE || rc == SQLITE_CONSTRAINT_PRIMARYKEY)
		return STORE_EXISTS;
	sqlite_db_log(st->db, what);
	return STORE_ERROR;
}

int
sqlite_change_one(struct store *st, const char *sql, const char *const *texts, int n,
                  const char *what)
{
	sqlite3_stmt *q = NULL;
	int i, rc;

	if (sqlite_db_prepare(st->db, sql, &q) != 0)
		return STORE_ERROR;
	for (i = 0; i < n; i++)
		sqlite_db_bind_text(q, i + 1, texts[i]);
	rc = sqlite_change(st, q, what);
	if (rc == STORE_OK && sqlite3_changes(st->db) == 0)
		rc = STORE_NOTFOUND;
	sqlite3_finalize(q);
	return rc;
}

/* sql prepared in *q with ?1 bound to the id of the site with this key:
 * STORE_OK (the caller finalizes *q), STORE_NOTFOUND, STORE_ERROR. */
static int
site_prepare(struct store *st, const char *key, const char *sql, sqlite3_stmt **q)
{
	int64_t id;
	int rc;

	if ((rc = sqlite_site_id(st, key, &id)) != STORE_OK)
		return rc;
	if (sqlite_db_prepare(st->db, sql, q) != 0)
		return STORE_ERROR;
	sqlite3_bind_int64(*q, 1, id);
	return STORE_OK;
}

int
sqlite_site_rows(struct store *st, const char *key, const char *sql, const char *text2,
                 const struct store_column *cols, size_t n, store_row_fn fn,
                 void *arg, const char *what)
{
	sqlite3_stmt *q = NULL;
	int rc;

	if ((rc = site_prepare(st, key, sql, &q)) != STORE_OK)
		return rc;
	sqlite_db_bind_text(q, 2, text2);
	rc = sqlite_walk(st, q, cols, n, fn, arg, what);
	sqlite3_finalize(q);
	return rc;
}

int
sqlite_step_int64(struct store *st, sqlite3_stmt *q, int64_t *v, const char *what)
{
	switch (sqlite3_step(q)) {
	case SQLITE_ROW:
		*v = sqlite3_column_int64(q, 0);
		return STORE_OK;
	case SQLITE_DONE:
		return STORE_NOTFOUND;
	default:
		sqlite_db_log(st->db, what);
		return STORE_ERROR;
	}
}

int
sqlite_site_id(struct store *st, const char *key, int64_t *id)
{
	static const char sql[] = "SELECT id FROM sites WHERE site_key = ?1";
	sqlite3_stmt *q = NULL;
	int rc;

	if (sqlite_db_prepare(st->db, sql, &q) != 0)
		return STORE_ERROR;
	sqlite_db_bind_text(q, 1, key);
	rc = sqlite_step_int64(st, q, id, "site lookup");
	sqlite3_finalize(q);
	return rc;
}

int
sqlite_site_int64(struct store *st, const char *key, const char *sql, int64_t *v,
                  const char *what)
{
	sqlite3_stmt *q = NULL;
	int rc;

	if ((rc = site_prepare(st, key, sql, &q)) != STORE_OK)
		return rc;
	rc = sqlite_step_int64(st, q, v, what);
	sqlite3_finalize(q);
	return rc;
}

/*
 * The whole database into path by SQLite's online backup API, in one
 * step: it reads one snapshot (WAL readers do not block writers), so the
 * copy is consistent whatever is written meanwhile.
 */
int
sqlite_store_backup(struct store *st, const char *path)
{
	sqlite3 *dest = NULL;
	sqlite3_backup *b;
	int rc;

	if (sqlite3_open_v2(path, &dest, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL)
	    != SQLITE_OK) {
		log_error("backup: cannot open %s: %s", path,
		    dest != NULL ? sqlite3_errmsg(dest) : "no memory");
		sqlite3_close(dest);
		return STORE_ERROR;
	}
	if ((b = sqlite3_backup_init(dest, "main", st->db, "main")) == NULL) {
		log_error("backup: %s", sqlite3_errmsg(dest));
		sqlite3_close(dest);
		return STORE_ERROR;
	}
	rc = sqlite3_backup_step(b, -1);
	sqlite3_backup_finish(b);
	if (rc != SQLITE_DONE) {
		log_error("backup: %s", sqlite3_errstr(rc));
		sqlite3_close(dest);
		return STORE_ERROR;
	}
	/* A file that stands alone: no WAL beside it. */
	if (sqlite3_exec(dest, "PRAGMA journal_mode=DELETE", NULL, NULL, NULL) != SQLITE_OK) {
		log_error("backup: %s", sqlite3_errmsg(dest));
		sqlite3_close(dest);
		return STORE_ERROR;
	}
	return sqlite3_close(dest) == SQLITE_OK ? STORE_OK : STORE_ERROR;
}

/* SQLite's waits are its busy timeout's, per statement already. */
int
sqlite_store_unbounded(struct store *st)
{
	(void)st;
	return STORE_OK;
}
