/* pg_db.c: the PostgreSQL store's floor: connecting, waits with an end, statements and transactions. */
#include <errno.h>
#include <nss.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/log.h"
#include "store/pg/pg_store.h"

int64_t
pg_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

const char *
pg_int_text(char buf[24], int64_t v)
{
	snprintf(buf, 24, "%lld", (long long)v);
	return buf;
}

/*
 * libpq's message on one line, without its trailing newline: the log is
 * one line per failure.  libpq never puts a password in its messages.
 */
void
pg_log_error(const char *what, const char *msg)
{
	char line[512];
	size_t n = 0;

	for (const char *p = msg ? msg : ""; *p != '\0' && n + 1 < sizeof(line); p++) {
		char c = (*p == '\n' || *p == '\t' || *p == '\r') ? ' ' : *p;
		if (c == ' ' && (n == 0 || line[n - 1] == ' '))
			continue;
		line[n++] = c;
	}
	while (n > 0 && line[n - 1] == ' ')
		n--;
	line[n] = '\0';
	log_error("PostgreSQL: %s: %s", what, n > 0 ? line : "failed");
}

/* The connection is of no more use (timed out, broken): close it, so that
 * nothing half-read is ever taken for the next answer. */
void
pg_drop(struct store *st)
{
	if (st->conn != NULL)
		PQfinish(st->conn);
	st->conn = NULL;
	st->in_tx = 0;
}

/* When the wait that starts now must end: the request's deadline, or for
 * consentctl (no deadline) a bound per wait. */
static int64_t
wait_end(const struct store *st, int64_t per_wait)
{
	return st->deadline != 0 ? st->deadline : pg_now_ms() + per_wait;
}

/* Wait until the connection's socket is ready (POLLIN or POLLOUT) or end
 * passes: 0, or -1 (timed out or failed: errno). */
int
pg_wait(PGconn *conn, short events, int64_t end)
{
	struct pollfd p = {.fd = PQsocket(conn), .events = events};

	if (p.fd < 0) {
		errno = EBADF;
		return -1;
	}
	for (;;) {
		int64_t left = end - pg_now_ms();
		int rc;
		if (left <= 0) {
			errno = ETIMEDOUT;
			return -1;
		}
		rc = poll(&p, 1, left > 60000 ? 60000 : (int)left);
		if (rc > 0)
			return 0;
		if (rc < 0 && errno != EINTR)
			return -1;
	}
}

/*
 * A fully static program (make STORE=postgres with the libpq of
 * tools/static-libs.sh) has no _DYNAMIC.  Its glibc reaches an NSS module
 * other than files and dns only by loading the shared one with dlopen,
 * which crashes it (libnss_systemd, for a uid that /etc/passwd lacks).
 * libpq looks the user up when the connection string names no user (the
 * default user name) and when it names no passfile and HOME is unset
 * (~/.pgpass): there, /etc/passwd only.
 */
extern const char _DYNAMIC[] __attribute__((weak));

static void
nss_static(void)
{
	static int done;

	if (done || _DYNAMIC != NULL)
		return;
	done = 1;
	__nss_configure_lookup("passwd", "files");
	__nss_configure_lookup("hosts", "files dns");
}

/*
 * Connect without blocking, so the wait has an end of our own (libpq's
 * connect_timeout, also given, counts per host and in whole seconds).  The
 * connection string comes as libpq's "dbname" (expanded); after it, what
 * the store always wants: UTF-8 text, a name the server's activity shows,
 * no startup options (pgbouncer refuses them).
 */
int
pg_connect(struct store *st)
{
	static const char *const keys[] = {"dbname", "client_encoding", "connect_timeout",
	                                   "fallback_application_name", NULL};
	const char *values[] = {st->conninfo, "UTF8", "10", "consent", NULL};
	int64_t end = st->deadline != 0 ? st->deadline : pg_now_ms() + PG_CONNECT_MS;
	PostgresPollingStatusType s = PGRES_POLLING_WRITING;

	nss_static();
	st->conn = PQconnectStartParams(keys, values, 1);
	if (st->conn == NULL) {
		log_error("out of memory");
		return -1;
	}
	if (PQstatus(st->conn) == CONNECTION_BAD) {
		pg_log_error("connect", PQerrorMessage(st->conn));
		pg_drop(st);
		return -1;
	}
	for (;;) {
		if (s == PGRES_POLLING_OK)
			break;
		if (s == PGRES_POLLING_FAILED) {
			pg_log_error("connect", PQerrorMessage(st->conn));
			pg_drop(st);
			return -1;
		}
		if (pg_wait(st->conn, s == PGRES_POLLING_READING ? POLLIN : POLLOUT, end) != 0) {
			pg_log_error("connect", errno == ETIMEDOUT ? "no answer in time (server or pgbouncer down or frozen?)"
			                                     : strerror(errno));
			pg_drop(st);
			return -1;
		}
		s = PQconnectPoll(st->conn);
	}
	if (PQsetnonblocking(st->conn, 1) != 0) {
		pg_log_error("connect", PQerrorMessage(st->conn));
		pg_drop(st);
		return -1;
	}
	return 0;
}

/* Send what is buffered and wait for the whole of the next result; NULL
 * when there is none (the command is over), or on failure (*failed). */
static PGresult *
next_result(struct store *st, int64_t end, int *failed)
{
	int rc;

	while ((rc = PQflush(st->conn)) == 1) {
		if (pg_wait(st->conn, POLLIN | POLLOUT, end) != 0)
			goto timeout;
		if (PQconsumeInput(st->conn) == 0)
			goto broken;
	}
	if (rc < 0)
		goto broken;
	while (PQisBusy(st->conn)) {
		if (pg_wait(st->conn, POLLIN, end) != 0)
			goto timeout;
		if (PQconsumeInput(st->conn) == 0)
			goto broken;
	}
	return PQgetResult(st->conn);
timeout:
	*failed = errno == ETIMEDOUT ? 2 : 1;
	return NULL;
broken:
	*failed = 1;
	return NULL;
}

/*
 * Send one command and collect its results: the last one that is not
 * NULL is kept (a simple query of several statements gives one each).
 */
static int
run(struct store *st, const char *sql, int n, const char *const *params, int simple,
    PGresult **res, const char *what)
{
	int64_t end = wait_end(st, PG_STATEMENT_MS);
	PGresult *r, *last = NULL;
	int failed = 0, rc = STORE_OK;
	const char *state;

	if (res != NULL)
		*res = NULL;
	if (st->conn == NULL || PQstatus(st->conn) != CONNECTION_OK) {
		log_error("PostgreSQL: %s: the connection was lost before", what);
		return STORE_ERROR;
	}
	if ((simple ? PQsendQuery(st->conn, sql)
	            : PQsendQueryParams(st->conn, sql, n, NULL, params, NULL, NULL, 0)) == 0) {
		pg_log_error(what, PQerrorMessage(st->conn));
		pg_drop(st);
		return STORE_ERROR;
	}
	while ((r = next_result(st, end, &failed)) != NULL) {
		switch (PQresultStatus(r)) {
		case PGRES_COMMAND_OK:
		case PGRES_TUPLES_OK:
			break;
		default:
			state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
			if (rc == STORE_OK) {
				if (state != NULL && strcmp(state, "23505") == 0) {
					rc = STORE_EXISTS;
				} else {
					pg_log_error(what, PQresultErrorMessage(r));
					rc = STORE_ERROR;
				}
			}
		}
		PQclear(last);
		last = r;
	}
	if (failed) {
		if (rc == STORE_OK)   /* else the error result said why */
			pg_log_error(what, failed == 2 ? "no answer in time (server or pgbouncer frozen?)"
			                         : PQerrorMessage(st->conn));
		PQclear(last);
		pg_drop(st);
		return STORE_ERROR;
	}
	if (rc == STORE_OK && res != NULL)
		*res = last;
	else
		PQclear(last);
	if (PQstatus(st->conn) != CONNECTION_OK) {
		if (rc == STORE_OK)
			pg_log_error(what, PQerrorMessage(st->conn));
		pg_drop(st);
		return STORE_ERROR;
	}
	return rc;
}

int
pg_run(struct store *st, const char *sql, int n, const char *const *params,
       PGresult **res, const char *what)
{
	return run(st, sql, n, params, 0, res, what);
}

int
pg_script(struct store *st, const char *text, const char *what)
{
	return run(st, text, 0, NULL, 1, NULL, what);
}

int
pg_change(struct store *st, const char *sql, int n, const char *const *params,
          int64_t *changed, const char *what)
{
	PGresult *r = NULL;
	int rc = run(st, sql, n, params, 0, &r, what);

	if (changed != NULL)
		*changed = rc == STORE_OK ? strtoll(PQcmdTuples(r), NULL, 10) : 0;
	PQclear(r);
	return rc;
}

/*
 * BEGIN and the transaction's own timeouts in one round trip (a simple
 * query of constant text: nothing of a request in it).  SET LOCAL ends
 * with the transaction, so the pooled server connection keeps nothing.
 */
int
pg_begin(struct store *st, const char *how)
{
	char sql[384];
	int64_t left = st->deadline != 0 ? st->deadline - pg_now_ms() : PG_STATEMENT_MS;

	if (st->in_tx) {   /* PostgreSQL would only warn; SQLite fails */
		log_error("PostgreSQL: begin: a transaction is already open");
		return -1;
	}
	if (left < 1)
		left = 1;
	/* extra_float_digits 3: every double as text reads back exactly,
	 * whatever the role or database set (the default, 1, does too). */
	snprintf(sql, sizeof(sql),
	    "BEGIN %s; SET LOCAL statement_timeout = %lld; SET LOCAL lock_timeout = %lld;"
	    " SET LOCAL idle_in_transaction_session_timeout = %lld; SET LOCAL extra_float_digits = 3",
	    how, (long long)left, (long long)left, (long long)left);
	if (run(st, sql, 0, NULL, 1, NULL, "begin") != STORE_OK)
		return -1;
	st->in_tx = 1;
	return 0;
}

int
pg_commit(struct store *st)
{
	PGresult *r = NULL;
	int rc = run(st, "COMMIT", 0, NULL, 0, &r, "commit");

	st->in_tx = 0;
	/* A transaction that failed answers ROLLBACK to COMMIT. */
	if (rc == STORE_OK && strcmp(PQcmdStatus(r), "COMMIT") != 0) {
		log_error("PostgreSQL: commit: the transaction was rolled back");
		rc = STORE_ERROR;
	}
	PQclear(r);
	return rc == STORE_OK ? 0 : -1;
}

void
pg_rollback(struct store *st)
{
	if (!st->in_tx || st->conn == NULL)
		return;
	st->in_tx = 0;
	run(st, "ROLLBACK", 0, NULL, 0, NULL, "rollback");
}

char *
pg_text_dup(const PGresult *res, int r, int c)
{
	if (PQgetisnull(res, r, c))
		return NULL;
	return strdup(PQgetvalue(res, r, c));
}
