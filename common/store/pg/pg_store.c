/* pg_store.c: the PostgreSQL store's connections: opened, kept for the request path, and its table. */
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include "base/io.h"
#include "base/log.h"
#include "store/pg/pg_store.h"

static void pg_store_close(struct store *st);

/* A new store connected to path, whose waits end at deadline (0: a bound
 * per wait, consentctl's): STORE_OK or STORE_ERROR (reported). */
static int
connect_new(struct store **out, const char *path, enum store_mode mode, int64_t deadline)
{
	struct store *st;

	*out = NULL;
	if ((st = calloc(1, sizeof(*st))) == NULL || (st->conninfo = strdup(path)) == NULL) {
		log_error("out of memory");
		free(st);
		return STORE_ERROR;
	}
	st->head.ops = &store_pg_ops;
	st->mode = mode;
	st->deadline = deadline;
	if (pg_connect(st) != 0) {
		pg_store_close(st);
		return STORE_ERROR;
	}
	*out = st;
	return STORE_OK;
}

static int
pg_store_open(struct store **out, const char *path, enum store_mode mode)
{
	return connect_new(out, path, mode, 0);
}

static void
pg_store_close(struct store *st)
{
	if (st == NULL)
		return;
	pg_drop(st);
	free(st->conninfo);
	free(st);
}


/*
 * The request path.  A CGI process connects for its one request.  A FastCGI
 * process keeps its connection (to the local pgbouncer, which keeps the
 * server's) while it serves the same database in the same mode, and opens
 * a new one after a failed request or a lost connection.  Each request has
 * PG_REQUEST_MS in all, from store_acquire() on.
 */
static struct store *kept;

/* Whether an idle kept connection is still good: it should have nothing
 * to read, so anything readable (pgbouncer or the server closed it, or
 * said why) or a hangup means: connect again rather than fail the
 * request on it. */
static int
idle_and_open(PGconn *conn)
{
	struct pollfd p = {.fd = PQsocket(conn), .events = POLLIN};

	if (PQstatus(conn) != CONNECTION_OK || PQtransactionStatus(conn) != PQTRANS_IDLE ||
	    p.fd < 0)
		return 0;
	return poll(&p, 1, 0) == 0;
}

static int
pg_store_acquire(struct store **out, const char *path, enum store_mode mode)
{
	int64_t deadline = pg_now_ms() + PG_REQUEST_MS;

	*out = NULL;
	if (kept != NULL && (kept->mode != mode || strcmp(kept->conninfo, path) != 0 ||
	    kept->conn == NULL || !idle_and_open(kept->conn))) {
		pg_store_close(kept);
		kept = NULL;
	}
	if (kept == NULL && connect_new(&kept, path, mode, deadline) != STORE_OK)
		return STORE_ERROR;
	kept->deadline = deadline;
	*out = kept;
	return STORE_OK;
}

static void
pg_store_release(struct store *st, int failed)
{
	if (st == NULL)
		return;
	if (st != kept) {
		pg_store_close(st);
		return;
	}
	pg_rollback(st);
	if (failed || !io_persistent()) {
		pg_store_close(kept);
		kept = NULL;
	}
}

static void
pg_store_forget(void)
{
	pg_store_close(kept);
	kept = NULL;
}

/*
 * No group commit: each write is one statement (or one short transaction)
 * of its own, and what makes many writers cheap is PostgreSQL's own group
 * commit of concurrent transactions, not one process's batch.
 */
static void
pg_store_group_begin(void)
{
}

static int
pg_store_group_open(void)
{
	return 0;
}

static unsigned
pg_store_group_joined(void)
{
	return 0;
}

static int
pg_store_group_end(void)
{
	return STORE_OK;
}

static int
pg_store_group_committed(unsigned g)
{
	(void)g;
	return 1;
}

const struct store_ops store_pg_ops = {
	.name = "PostgreSQL",
	.open = pg_store_open,
	.close = pg_store_close,
	.acquire = pg_store_acquire,
	.release = pg_store_release,
	.forget = pg_store_forget,
	.group_begin = pg_store_group_begin,
	.group_open = pg_store_group_open,
	.group_joined = pg_store_group_joined,
	.group_end = pg_store_group_end,
	.group_committed = pg_store_group_committed,
#define STORE_FN(type, name, params, args) .name = pg_store_##name,
#include "store/store_fns.h"
#undef STORE_FN
};
