/* sqlite_store.c: the SQLite store's connection and the rows it hands out. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/io.h"
#include "base/log.h"
#include "store/sqlite/sqlite_store.h"

static void sqlite_store_close(struct store *st);
static void sqlite_store_forget(void);

/* The store's modes in SQLite's own open flags. */
static int
open_flags(enum store_mode mode)
{
	switch (mode) {
	case STORE_READ:
		return SQLITE_OPEN_READONLY;
	case STORE_WRITE:
		return SQLITE_OPEN_READWRITE;
	case STORE_CREATE:
		break;
	}
	return SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
}

/* Release every kept statement of st. */
static void
cache_clear(struct store *st)
{
	for (size_t i = 0; i < st->ncache; i++)
		sqlite3_finalize(st->cache[i].q);
	st->ncache = 0;
}

static int
sqlite_store_open(struct store **out, const char *path, enum store_mode mode)
{
	struct store *st;
	const char *sync;

	*out = NULL;
	if (path == NULL)
		path = store_default_path();
	if ((st = calloc(1, sizeof(*st))) == NULL || (st->path = strdup(path)) == NULL) {
		log_error("out of memory");
		free(st);
		return STORE_ERROR;
	}
	st->head.ops = &store_sqlite_ops;
	st->mode = mode;
	if ((sync = io_env("CONSENT_SYNC")) != NULL && (st->sync = strdup(sync)) == NULL) {
		log_error("out of memory");
		sqlite_store_close(st);
		return STORE_ERROR;
	}
	if (sqlite_db_open(path, open_flags(mode), &st->db) != 0) {
		sqlite_store_close(st);
		return STORE_ERROR;
	}
	*out = st;
	return STORE_OK;
}

static void
sqlite_store_close(struct store *st)
{
	if (st == NULL)
		return;
	cache_clear(st);
	sqlite3_close(st->db);
	free(st->path);
	free(st->sync);
	free(st);
}

int
sqlite_prepare(struct store *st, const char *sql, sqlite3_stmt **q)
{
	size_t i;

	for (i = 0; i < st->ncache; i++) {
		if (st->cache[i].sql == sql) {
			*q = st->cache[i].q;
			return 0;
		}
	}
	if (st->ncache == SQL_CACHE_MAX)
		return sqlite_db_prepare(st->db, sql, q);
	if (sqlite3_prepare_v3(st->db, sql, -1, SQLITE_PREPARE_PERSISTENT, q, NULL) != SQLITE_OK) {
		sqlite_db_log(st->db, "prepare");
		*q = NULL;
		return -1;
	}
	st->cache[st->ncache].sql = sql;
	st->cache[st->ncache].q = *q;
	st->ncache++;
	return 0;
}

void
sqlite_done(struct store *st, sqlite3_stmt *q)
{
	if (q == NULL)
		return;
	for (size_t i = 0; i < st->ncache; i++) {
		if (st->cache[i].q == q) {
			sqlite3_reset(q);
			sqlite3_clear_bindings(q);
			return;
		}
	}
	sqlite3_finalize(q);
}

/* ---- the store a FastCGI process keeps from one request to the next ---- */

static struct store *kept;

/* Group commit (store.h).  Outcomes are kept for the last GROUP_RING
 * groups: far more than one batch of requests makes (FCGI_GROUP_MAX, at
 * most one group each). */
#define GROUP_RING 64
static struct {
	int on;              /* between store_group_begin and store_group_end */
	int open;            /* kept has the group's transaction open */
	int close_after;     /* a request answered 500: close kept after the commit */
	unsigned gen;        /* the open group's number, else the last one's */
	unsigned joined;     /* the group the current request wrote into, 0: none */
	unsigned char failed[GROUP_RING];
} group;

/* Run one kept statement that returns no rows (SAVEPOINT, RELEASE ...). */
static int
exec_kept(struct store *st, const char *sql, const char *what)
{
	sqlite3_stmt *q = NULL;
	int rc;

	if (sqlite_prepare(st, sql, &q) != 0)
		return -1;
	rc = sqlite3_step(q);
	if (rc != SQLITE_DONE)
		sqlite_db_log(st->db, what);
	sqlite_done(st, q);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* Whether the group's transaction is still there: an I/O error or a full
 * disk can make SQLite roll back the whole transaction by itself, and with
 * it every write of the group. */
static int
group_alive(void)
{
	if (group.open && (kept == NULL || sqlite3_get_autocommit(kept->db))) {
		group.open = 0;
		group.failed[group.gen % GROUP_RING] = 1;
	}
	return group.open;
}

/* Commit the open group, if any: 0, or -1 (its writes are gone). */
static int
group_commit(void)
{
	int ok;

	if (!group.open)
		return 0;
	if (!group_alive())
		return -1;
	group.open = 0;
	ok = sqlite_db_commit(kept->db) == 0;   /* rolls back when it fails */
	group.failed[group.gen % GROUP_RING] = !ok;
	return ok ? 0 : -1;
}

int
sqlite_write_begin(struct store *st)
{
	static const char savepoint[] = "SAVEPOINT w";

	if (!group.on || st != kept)
		return sqlite_db_begin(st->db);
	if (!group_alive()) {
		if (sqlite_db_begin(st->db) != 0)
			return -1;
		group.open = 1;
		if (++group.gen == 0)
			group.gen = 1;
		group.failed[group.gen % GROUP_RING] = 0;
	}
	return exec_kept(st, savepoint, "savepoint");
}

int
sqlite_write_commit(struct store *st)
{
	static const char release[] = "RELEASE w";

	if (!group.on || st != kept)
		return sqlite_db_commit(st->db);
	if (!group_alive() || exec_kept(st, release, "release") != 0) {
		sqlite_write_undo(st);
		return -1;
	}
	group.joined = group.gen;
	return 0;
}

void
sqlite_write_undo(struct store *st)
{
	static const char back[] = "ROLLBACK TO w";
	static const char release[] = "RELEASE w";

	if (!group.on || st != kept) {
		sqlite_db_rollback(st->db);
		return;
	}
	if (!group_alive())
		return;
	/* What cannot be taken back alone takes the whole group with it. */
	if (exec_kept(st, back, "rollback to") != 0 || exec_kept(st, release, "release") != 0) {
		sqlite_db_rollback(st->db);
		group.open = 0;
		group.failed[group.gen % GROUP_RING] = 1;
	}
}

static void
sqlite_store_group_begin(void)
{
	group.on = 1;
	group.joined = 0;
}

static int
sqlite_store_group_open(void)
{
	return group_alive();
}

static unsigned
sqlite_store_group_joined(void)
{
	unsigned g = group.joined;

	group.joined = 0;
	return g;
}

static int
sqlite_store_group_end(void)
{
	int rc = group_commit();

	group.on = 0;
	group.joined = 0;
	if (rc != 0 || group.close_after) {   /* a broken handle serves no one */
		group.close_after = 0;
		sqlite_store_forget();
	}
	return rc == 0 ? STORE_OK : STORE_ERROR;
}

static int
sqlite_store_group_committed(unsigned g)
{
	return g != 0 && !group.failed[g % GROUP_RING];
}

/* schema_version and user_version of st's database into v[0] and v[1]. */
static int
schema_of(struct store *st, int64_t v[2])
{
	static const char sql[] =
	    "SELECT s.schema_version, u.user_version"
	    " FROM pragma_schema_version s, pragma_user_version u";
	sqlite3_stmt *q = NULL;
	int rc = -1;

	if (sqlite_prepare(st, sql, &q) != 0)
		return -1;
	if (sqlite3_step(q) == SQLITE_ROW) {
		v[0] = sqlite3_column_int64(q, 0);
		v[1] = sqlite3_column_int64(q, 1);
		rc = 0;
	} else {
		sqlite_db_log(st->db, "schema version");
	}
	sqlite_done(st, q);
	return rc;
}

/* Whether two settings (NULL: unset) are the same. */
static int
same_setting(const char *a, const char *b)
{
	return a == NULL ? b == NULL : b != NULL && strcmp(a, b) == 0;
}

/* Whether the kept store still serves path in mode: opened with this
 * request's settings, a file this process may still write (sqlite_db_open's
 * check: made read-only, or its mount), the same file (not replaced:
 * device and inode), the same schema (not upgraded).  When not, the store
 * is opened again, and sqlite_db_open refuses what a new process would. */
static int
still_good(struct store *st, const char *path, enum store_mode mode)
{
	struct stat sb;
	int64_t schema[2];

	return st->mode == mode && strcmp(st->path, path) == 0 &&
	    same_setting(st->sync, io_env("CONSENT_SYNC")) && sqlite_db_may_write(path) == 0 &&
	    stat(path, &sb) == 0 && sb.st_dev == st->dev && sb.st_ino == st->ino &&
	    schema_of(st, schema) == 0 && schema[0] == st->schema[0] &&
	    schema[1] == st->schema[1];
}

static int
sqlite_store_acquire(struct store **out, const char *path, enum store_mode mode)
{
	struct stat sb;

	*out = NULL;
	if (kept != NULL && !still_good(kept, path, mode)) {
		group_commit();   /* the writes made so far keep their own outcome */
		sqlite_store_close(kept);
		kept = NULL;
	}
	if (kept == NULL) {
		/* Only a process that keeps it needs to know what it opened (a
		 * CGI process opens it once and is gone).  The file is looked at
		 * before it is opened: if it is replaced in between, the next
		 * request sees a file other than the one recorded, and reopens. */
		int keep = io_persistent();
		if (!keep)
			(void)sqlite_mem_one_request();   /* the process ends with the request */
		memset(&sb, 0, sizeof(sb));
		if (keep && stat(path, &sb) != 0)
			memset(&sb, 0, sizeof(sb));   /* store_open says why */
		if (sqlite_store_open(&kept, path, mode) != STORE_OK)
			return STORE_ERROR;
		kept->dev = sb.st_dev;
		kept->ino = sb.st_ino;
		if (keep && schema_of(kept, kept->schema) != 0) {
			sqlite_store_close(kept);
			kept = NULL;
			return STORE_ERROR;
		}
	}
	*out = kept;
	return STORE_OK;
}

static void
sqlite_store_release(struct store *st, int failed)
{
	if (st == NULL)
		return;
	if (st != kept) {
		sqlite_store_close(st);
		return;
	}
	if (group_alive()) {
		/* The group's transaction stays open until store_group_end(),
		 * which closes the store after a failed request. */
		if (failed)
			group.close_after = 1;
		return;
	}
	sqlite_db_rollback(st->db);
	if (failed || !io_persistent() || !sqlite3_get_autocommit(st->db)) {
		sqlite_store_close(kept);
		kept = NULL;
	}
}

static void
sqlite_store_forget(void)
{
	group.open = 0;   /* closing rolls back what no one committed */
	sqlite_store_close(kept);
	kept = NULL;
}

char *
sqlite_text_dup(sqlite3_stmt *q, int i)
{
	const unsigned char *t = sqlite3_column_text(q, i);

	return t ? strdup((const char *)t) : NULL;
}

/* What store.c hands calls to (store_ops.h). */
const struct store_ops store_sqlite_ops = {
	.name = "SQLite",
	.open = sqlite_store_open,
	.close = sqlite_store_close,
	.acquire = sqlite_store_acquire,
	.release = sqlite_store_release,
	.forget = sqlite_store_forget,
	.group_begin = sqlite_store_group_begin,
	.group_open = sqlite_store_group_open,
	.group_joined = sqlite_store_group_joined,
	.group_end = sqlite_store_group_end,
	.group_committed = sqlite_store_group_committed,
#define STORE_FN(type, name, params, args) .name = sqlite_store_##name,
#include "store/store_fns.h"
#undef STORE_FN
};
