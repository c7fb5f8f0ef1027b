/* store.c: store.h's functions: the backend a database's name asks for, and every call handed to it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/io.h"
#include "base/log.h"
#include "base/settings_file.h"
#include "settings.h"   /* CONSENT_DB_DEFAULT: make DBPATH=... */
#include "store/store_ops.h"

/*
 * The backends this program holds (store_ops.h): make compiles this file
 * with STORE_SQLITE, STORE_POSTGRES or both, so that an endpoint links one
 * backend and its libraries and nothing of the other.
 */
#if !defined(STORE_SQLITE) && !defined(STORE_POSTGRES)
#define STORE_SQLITE 1
#endif

/* $CONSENT_DB (or the settings file's), else the compiled-in path, a
 * relative one (make DBPATH=../data/consent.db: a release) relative to
 * the programs' folder (settings_relative). */
const char *
store_default_path(void)
{
	const char *p = io_env("CONSENT_DB"), *d;

	if (p != NULL && *p != '\0')
		return p;
	d = settings_relative(CONSENT_DB_DEFAULT);
	return d != NULL ? d : CONSENT_DB_DEFAULT;
}

/* The one rule, in base/ so that the settings file knows it too. */
int
store_is_conninfo(const char *path)
{
	return settings_is_conninfo(path);
}

/*
 * The backend for the database path names, or NULL (reported) when this
 * program was built without it: a file of that name is never created, and
 * the message never repeats the name (a connection string may hold a
 * password).
 */
static const struct store_ops *
backend_for(const char *path)
{
	if (store_is_conninfo(path)) {
#ifdef STORE_POSTGRES
		return &store_pg_ops;
#else
		log_error("the database is a PostgreSQL connection string, but this build "
		          "stores in SQLite: give the path of the database file");
		return NULL;
#endif
	}
#ifdef STORE_SQLITE
	return &store_sqlite_ops;
#else
	log_error("the database is a file path, but this build stores in PostgreSQL: "
	          "give a connection string (postgresql://... or host=... dbname=...)");
	return NULL;
#endif
}

static const struct store_ops *
ops_of(const struct store *st)
{
	return store_head_of(st)->ops;
}

int
store_open(struct store **out, const char *path, enum store_mode mode)
{
	const struct store_ops *ops;

	*out = NULL;
	if (path == NULL)
		path = store_default_path();
	if ((ops = backend_for(path)) == NULL)
		return STORE_ERROR;
	return ops->open(out, path, mode);
}

void
store_close(struct store *st)
{
	if (st != NULL)
		ops_of(st)->close(st);
}

/*
 * The request path (store_acquire and the group commit) belongs to the
 * backend of the endpoints' database.  An endpoint holds one backend; in a
 * program with both, the one the last store_acquire() used.
 */
static const struct store_ops *request_ops =
#ifdef STORE_SQLITE
    &store_sqlite_ops;
#else
    &store_pg_ops;
#endif

int
store_acquire(struct store **out, enum store_mode mode)
{
	const char *path = store_default_path();
	const struct store_ops *ops;

	*out = NULL;
	if ((ops = backend_for(path)) == NULL)
		return STORE_ERROR;
	if (ops != request_ops) {
		request_ops->forget();
		request_ops = ops;
	}
	return ops->acquire(out, path, mode);
}

void
store_release(struct store *st, int failed)
{
	if (st != NULL)
		ops_of(st)->release(st, failed);
}

void
store_forget(void)
{
	request_ops->forget();
}

void
store_group_begin(void)
{
	request_ops->group_begin();
}

int
store_group_open(void)
{
	return request_ops->group_open();
}

unsigned
store_group_joined(void)
{
	return request_ops->group_joined();
}

int
store_group_end(void)
{
	return request_ops->group_end();
}

int
store_group_committed(unsigned g)
{
	return request_ops->group_committed(g);
}

/* Every other function of store.h: the store's own backend (store_admin.c
 * hands on those of store_admin.h). */
#define STORE_FN(type, name, params, args) \
	type store_##name params \
	{ \
		return ops_of(st)->name args; \
	}
#include "store/store_fns.h"
#undef STORE_FN

void
store_site_clear(struct site *s)
{
	free(s->name);
	free(s->document);
	free(s->skeleton);
	free(s->script_rules);
	memset(s, 0, sizeof(*s));
}

int
store_site_filled(struct site *s, int has_skeleton, int has_rules)
{
	if (s->name == NULL || (s->config_id != 0 && s->document == NULL) ||
	    (has_skeleton && s->skeleton == NULL) || (has_rules && s->script_rules == NULL)) {
		log_error("out of memory");
		store_site_clear(s);
		return STORE_ERROR;
	}
	if (s->skeleton == NULL || s->script_rules == NULL) {
		free(s->skeleton);
		free(s->script_rules);
		s->skeleton = s->script_rules = NULL;
	}
	return STORE_OK;
}
