/* pg_admin.c: the PostgreSQL store's admin table, apart from its request path, and the helpers only its admin statements use. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "store/pg/pg_store.h"
#include "store/store_rows.h"

/*
 * What store_admin.c hands calls to (store_ops.h): the functions of
 * pg_schema.c, pg_sites.c, pg_configs.c, pg_log.c, pg_scripts.c,
 * pg_proof.c, pg_report.c, pg_builtin.c, pg_copy.c, pg_audit.c.  In an object of its own, named by no
 * other, so that only a program that links store_admin.c holds them.
 */
const struct store_admin_ops store_pg_admin_ops = {
#define STORE_FN(type, name, params, args) .name = pg_store_##name,
#include "store/store_admin_fns.h"
#undef STORE_FN
};

int
pg_change_one(struct store *st, const char *sql, int n, const char *const *params,
              const char *what)
{
	int64_t changed = 0;
	int rc = pg_change(st, sql, n, params, &changed, what);

	return rc == STORE_OK && changed == 0 ? STORE_NOTFOUND : rc;
}

/* Type oids of PostgreSQL's catalog (pg_type.h is the server's header). */
enum { OID_BOOL = 16, OID_INT8 = 20, OID_INT2 = 21, OID_INT4 = 23, OID_FLOAT4 = 700,
       OID_FLOAT8 = 701, OID_NUMERIC = 1700 };

/* The cursor of store_rows.h over a result: row r of its nrows. */
struct pg_cursor {
	struct store_cursor cur;
	const PGresult *res;
	int r, nrows;
};

static int
cursor_next(struct store_cursor *c)
{
	struct pg_cursor *p = (struct pg_cursor *)(void *)c;

	return ++p->r < p->nrows;
}

static int
cursor_ncolumns(const struct store_cursor *c)
{
	return PQnfields(((const struct pg_cursor *)(const void *)c)->res);
}

static const char *
cursor_name(const struct store_cursor *c, int i)
{
	return PQfname(((const struct pg_cursor *)(const void *)c)->res, i);
}

/*
 * Field (r, i) as SQLite's store reads the same stored value: booleans and
 * integers as integers, a fraction that SQLite's NUMERIC affinity would
 * have stored as an integer as that integer, other fractions as doubles,
 * the rest as text.
 */
static void
cursor_cell(const struct store_cursor *c, int i, struct store_cell *v)
{
	const struct pg_cursor *p = (const struct pg_cursor *)(const void *)c;
	const char *text = PQgetvalue(p->res, p->r, i);
	double d;

	memset(v, 0, sizeof(*v));
	if (PQgetisnull(p->res, p->r, i)) {
		v->type = SC_NULL;
		return;
	}
	switch (PQftype(p->res, i)) {
	case OID_BOOL:
		v->type = SC_INT;
		v->i = text[0] == 't';
		break;
	case OID_INT2:
	case OID_INT4:
	case OID_INT8:
		v->type = SC_INT;
		v->i = strtoll(text, NULL, 10);
		break;
	case OID_FLOAT4:
	case OID_FLOAT8:
	case OID_NUMERIC:
		d = strtod(text, NULL);
		if (isfinite(d) && d == floor(d) && fabs(d) < 9007199254740992.0) {
			v->type = SC_INT;
			v->i = (int64_t)d;
		} else {
			v->type = SC_REAL;
			v->r = d;
		}
		break;
	default:
		v->type = SC_TEXT;
		v->text = text;
		break;
	}
}

static struct pg_cursor
cursor_of(const PGresult *res, int r)
{
	struct pg_cursor c = {
		{cursor_next, cursor_ncolumns, cursor_name, cursor_cell}, res, r, PQntuples(res)
	};

	return c;
}

cJSON *
pg_row(const PGresult *res, int r, const struct store_column *cols, size_t n)
{
	struct pg_cursor c = cursor_of(res, r);

	return store_row(&c.cur, cols, n);
}

int
pg_walk(const PGresult *res, const struct store_column *cols, size_t n,
        store_row_fn fn, void *arg)
{
	struct pg_cursor c = cursor_of(res, -1);

	return store_walk(&c.cur, cols, n, fn, arg);
}

int
pg_rows(struct store *st, const char *sql, int n, const char *const *params,
        const struct store_column *cols, size_t ncols, store_row_fn fn, void *arg,
        const char *what)
{
	PGresult *r = NULL;
	int rc = pg_run(st, sql, n, params, &r, what);

	if (rc == STORE_OK)
		rc = pg_walk(r, cols, ncols, fn, arg);
	PQclear(r);
	return rc;
}

int
pg_site_rows(struct store *st, const char *sql, int n, const char *const *params,
             const struct store_column *cols, size_t ncols, store_row_fn fn, void *arg,
             const char *what)
{
	PGresult *r = NULL;
	int64_t id;
	int rc;

	if (pg_run(st, sql, n, params, &r, what) != STORE_OK)
		return STORE_ERROR;
	if (PQntuples(r) > 0)
		rc = pg_walk(r, cols, ncols, fn, arg);
	else
		rc = pg_site_id(st, params[0], 0, &id);
	PQclear(r);
	return rc;
}

int
pg_one_row(struct store *st, const char *sql, int n, const char *const *params,
           const struct store_column *cols, size_t ncols, cJSON **out, const char *what)
{
	PGresult *r = NULL;
	int rc = pg_run(st, sql, n, params, &r, what);

	*out = NULL;
	if (rc == STORE_OK) {
		struct pg_cursor c = cursor_of(r, -1);

		rc = store_one_row(&c.cur, cols, ncols, out);
	}
	PQclear(r);
	return rc;
}

int
pg_run_int64(struct store *st, const char *sql, int n, const char *const *params,
             int64_t *v, const char *what)
{
	PGresult *r = NULL;
	int rc = pg_run(st, sql, n, params, &r, what);

	if (rc == STORE_OK) {
		if (PQntuples(r) == 0 || PQnfields(r) < 1 || PQgetisnull(r, 0, 0))
			rc = STORE_NOTFOUND;
		else
			*v = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
	}
	PQclear(r);
	return rc;
}

int
pg_site_id(struct store *st, const char *key, int lock, int64_t *id)
{
	const char *p[] = {key};

	if (strlen(key) > SITE_KEY_MAX)
		return STORE_NOTFOUND;
	return pg_run_int64(st, lock ? "SELECT id FROM sites WHERE site_key = $1 FOR NO KEY UPDATE"
	                         : "SELECT id FROM sites WHERE site_key = $1",
	    1, p, id, "site lookup");
}

/* No copy of a PostgreSQL database here: pg_dump makes one
 * (docs/postgres.md). */
int
pg_store_backup(struct store *st, const char *path)
{
	(void)st;
	(void)path;
	log_error("a backup of a PostgreSQL database is pg_dump's");
	return STORE_ERROR;
}

/* A deadline of 0: each statement's own bound (PG_STATEMENT_MS), as
 * consentctl's store has. */
int
pg_store_unbounded(struct store *st)
{
	st->deadline = 0;
	return STORE_OK;
}
