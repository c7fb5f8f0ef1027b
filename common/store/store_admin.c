/* store_admin.c: store_admin.h's functions: every call handed to the admin table of the store's backend. */
#include <string.h>

#include "base/log.h"
#include "base/nitems.h"
#include "store/store_ops.h"

/*
 * Made like store.c, with the backends this program holds (STORE_SQLITE,
 * STORE_POSTGRES or both): only a program that calls a function of
 * store_admin.h links this file, and with it the backends' admin tables
 * and all they name.  The endpoints link neither (tests/t0062).
 */
#if !defined(STORE_SQLITE) && !defined(STORE_POSTGRES)
#define STORE_SQLITE 1
#endif

/* The admin table of the backend that opened st, or NULL (reported) for
 * one this program was built without (store.c then never opened it). */
static const struct store_admin_ops *
admin_of(const struct store *st)
{
	const struct store_ops *ops = store_head_of(st)->ops;

#ifdef STORE_SQLITE
	if (ops == &store_sqlite_ops)
		return &store_sqlite_admin_ops;
#endif
#ifdef STORE_POSTGRES
	if (ops == &store_pg_ops)
		return &store_pg_admin_ops;
#endif
	log_error("the %s store has no administration in this program", ops->name);
	return NULL;
}

#define STORE_FN(type, name, params, args) \
	type store_##name params \
	{ \
		const struct store_admin_ops *a = admin_of(st); \
\
		return a != NULL ? a->name args : STORE_ERROR; \
	}
#include "store/store_admin_fns.h"
#undef STORE_FN

/*
 * The export's columns: those CONTRACT 3 names are always present, the
 * optional request fields only when the client sent them; then, always,
 * what schema versions 3 and 4 added, last, so that a reader of an older
 * CSV layout finds its columns where they were.
 */
const struct store_column store_export_columns[] = {
	LOG_COLUMN_LIST(ST_JSON)
};
const size_t store_export_ncolumns = nitems(store_export_columns);

const struct store_column store_page_columns[] = {
	{"id", ST_INT, 0}, LOG_COLUMN_LIST(ST_JSON)
};
const size_t store_page_ncolumns = nitems(store_page_columns);

void
store_page_upper(const struct store_log_filter *f, const char **at, int64_t *id)
{
	if (f->before_at != NULL && (f->to == NULL || strcmp(f->before_at, f->to) < 0)) {
		*at = f->before_at;
		*id = f->before_id;
	} else if (f->to != NULL) {
		*at = f->to;
		*id = 0;
	} else {
		*at = "~";
		*id = INT64_MAX;
	}
}

const struct store_column store_log_columns[] = {
	LOG_ROW_COLUMN_LIST,
};
const size_t store_log_ncolumns = nitems(store_log_columns);
