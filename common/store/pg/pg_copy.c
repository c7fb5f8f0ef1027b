/* pg_copy.c: the PostgreSQL store's side of copying a whole database (consentctl migrate). */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "store/pg/pg_store.h"

/*
 * The parts of a copy (store_copy_parts.h), with the statements of this
 * store.  A table is written with COPY ... FROM STDIN (one statement per
 * table, which pgbouncer's transaction pooling passes like any other),
 * then its identity, if it has one, is moved past the highest id copied,
 * so that the next row the service adds gets a new one.  The
 * monthly-visitor count, split over 16 slots here, is read as one row per
 * site and month (their sum) and written into slot 0: the sum is what
 * counts.
 */
struct part {
	const char *name;
	int ncols;
	const char *read;      /* a cursor over every row, in the part's columns */
	const char *count;
	const char *write;     /* COPY ... FROM STDIN, or an UPDATE of one row ($1..$ncols) */
	const char *line_end;  /* what each COPY line has after the cells */
	const char *identity;  /* after the copy: the identity past the highest id, or NULL */
};

#define CURSOR "copy_rows"
#define IDENTITY_0(t) NULL
#define IDENTITY_1(t) \
	"SELECT setval(pg_get_serial_sequence('" #t "', 'id'), coalesce(max(id), 0) + 1, false)" \
	" FROM " #t
#define COPY_TABLE(t, n, cols, identity, fractions) \
	{#t, n, "DECLARE " CURSOR " NO SCROLL CURSOR FOR SELECT " cols " FROM " #t, \
	 "SELECT count(*) FROM " #t, "COPY " #t " (" cols ") FROM STDIN", "\n", \
	 IDENTITY_##identity(t)},
#define COPY_CONFIG_ID(name, n) \
	{name, n, "DECLARE " CURSOR " NO SCROLL CURSOR FOR" \
	 " SELECT id, config_id FROM sites WHERE config_id IS NOT NULL", \
	 "SELECT count(*) FROM sites WHERE config_id IS NOT NULL", \
	 "UPDATE sites SET config_id = $2::bigint WHERE id = $1::bigint", NULL, NULL},
#define COPY_COUNTS(t, n, cols) \
	{#t, n, "DECLARE " CURSOR " NO SCROLL CURSOR FOR" \
	 " SELECT site_id, month, sum(visitors)::bigint FROM " #t " GROUP BY site_id, month", \
	 "SELECT count(*) FROM (SELECT DISTINCT site_id, month FROM " #t ") m", \
	 "COPY " #t " (" cols ", slot) FROM STDIN", "\t0\n", NULL},
static const struct part parts[] = {
#include "store/store_copy_parts.h"
};
#undef COPY_TABLE
#undef COPY_CONFIG_ID
#undef COPY_COUNTS

/* Rows per FETCH of a part being read, and the bytes of COPY data handed
 * to libpq at once (then sent before more is read: memory stays bounded
 * whatever the speeds of the two databases). */
#define FETCH_ROWS "1000"
#define COPY_CHUNK 65536

/* The part of that name, or NULL (reported). */
static const struct part *
part_named(const char *name)
{
	int i = store_copy_part(name, "PostgreSQL");

	return i >= 0 ? &parts[i] : NULL;
}

/*
 * Whether the database has the schema of this program's schema_pg.sql
 * (the version its INSERT INTO schema_version records), whose tables and
 * columns the parts name: STORE_OK, or STORE_ERROR (reported).
 */
static int
check_version(struct store *st)
{
	static const char mark[] = "INSERT INTO schema_version (version) VALUES (";
	const char *p = strstr(schema_pg_data, mark);
	int64_t want = p != NULL ? strtoll(p + sizeof(mark) - 1, NULL, 10) : -1, have = 0;

	if (pg_run_int64(st, "SELECT (to_regclass('schema_version') IS NOT NULL)::int", 0, NULL,
	    &have, "schema version") != STORE_OK)
		return STORE_ERROR;
	if (have && pg_run_int64(st, "SELECT coalesce(max(version), 0) FROM schema_version", 0,
	    NULL, &have, "schema version") != STORE_OK)
		return STORE_ERROR;
	return store_schema_current(have, want, "the PostgreSQL database");
}

int
pg_store_copy_parts(struct store *st, const char *const **names, size_t *n)
{
	if (check_version(st) != STORE_OK)
		return STORE_ERROR;
	*names = store_copy_names;
	*n = store_copy_nparts;
	return STORE_OK;
}

int
pg_store_copy_count(struct store *st, const char *name, int64_t *n)
{
	const struct part *t = part_named(name);

	if (t == NULL || pg_run_int64(st, t->count, 0, NULL, n, t->name) != STORE_OK)
		return STORE_ERROR;
	return STORE_OK;
}

/*
 * Every row of the part, through a cursor (FETCH_ROWS at a time: a table
 * of any size in bounded memory), in the caller's transaction (the
 * snapshot: store_snapshot) or else in one of its own.  Numbers come as
 * PostgreSQL prints them: double precision as the shortest text that reads
 * back the same (extra_float_digits 1, the default since PostgreSQL 12,
 * set for the transaction in case the server says otherwise).
 */
int
pg_store_copy_read(struct store *st, const char *name, store_cells_fn fn, void *arg)
{
	const struct part *t = part_named(name);
	const char *cells[STORE_COPY_CELLS_MAX];
	PGresult *r = NULL;
	int own = !st->in_tx, rc = STORE_ERROR, stop, rows = 0, i;

	if (t == NULL)
		return STORE_ERROR;
	if (own && pg_begin(st, "ISOLATION LEVEL REPEATABLE READ READ ONLY") != 0)
		return STORE_ERROR;
	if (pg_run(st, "SET LOCAL extra_float_digits = 1", 0, NULL, NULL, "copy") != STORE_OK ||
	    pg_run(st, t->read, 0, NULL, NULL, t->name) != STORE_OK)
		goto out;
	do {
		PQclear(r);
		if (pg_run(st, "FETCH " FETCH_ROWS " FROM " CURSOR, 0, NULL, &r, t->name) != STORE_OK)
			goto out;
		if (PQnfields(r) != t->ncols) {
			log_error("copy %s: %d columns, want %d", t->name, PQnfields(r), t->ncols);
			goto out;
		}
		rows = PQntuples(r);
		for (int row = 0; row < rows; row++) {
			for (i = 0; i < t->ncols; i++)
				cells[i] = PQgetisnull(r, row, i) ? NULL : PQgetvalue(r, row, i);
			if ((stop = fn(arg, cells, (size_t)t->ncols)) != 0) {
				rc = stop;
				goto out;
			}
		}
	} while (rows > 0);
	rc = pg_run(st, "CLOSE " CURSOR, 0, NULL, NULL, t->name);
out:
	PQclear(r);
	if (own) {
		if (rc == STORE_OK)
			rc = pg_commit(st) == 0 ? STORE_OK : STORE_ERROR;
		else
			pg_rollback(st);
	} else if (rc != STORE_OK && st->conn != NULL &&
	    PQtransactionStatus(st->conn) == PQTRANS_INTRANS) {
		/* fn stopped the walk: the snapshot goes on without the cursor. */
		pg_run(st, "CLOSE " CURSOR, 0, NULL, NULL, t->name);
	}
	return rc;
}

/*
 * The target: one transaction, in a database at this program's schema
 * version that holds nothing but the built-in texts consentctl init
 * records, which make way for the source's (a record of the same key is
 * the same bytes).  The server's bound on one statement is lifted for
 * the transaction: a copy's COPY of the consent log may rightly take
 * longer than any statement of the service, and every wait of this side
 * still has its bound (PG_STATEMENT_MS without progress).
 */
int
pg_store_copy_begin(struct store *st)
{
	if (pg_begin(st, "") != 0)
		return STORE_ERROR;
	if (pg_run(st, "SET LOCAL statement_timeout = 0", 0, NULL, NULL, "copy") != STORE_OK ||
	    check_version(st) != STORE_OK)
		goto fail;
	if (store_copy_empty(st, "the PostgreSQL database", pg_store_copy_count) != STORE_OK)
		goto fail;
	if (pg_change(st, "DELETE FROM builtin_texts", 0, NULL, NULL, "builtin_texts") != STORE_OK)
		goto fail;
	return STORE_OK;
fail:
	pg_rollback(st);
	return STORE_ERROR;
}

/* ---- COPY FROM STDIN on the store's non-blocking connection ---- */

static void
log_copy(const char *part, const char *msg)
{
	char what[64];

	snprintf(what, sizeof(what), "copy %s", part);
	pg_log_error(what, msg);
}

/* The end of a wait that starts now: the store's deadline, if it has one,
 * else PG_STATEMENT_MS from now. */
static int
wait_socket(struct store *st, short events)
{
	return pg_wait(st->conn, events,
	    st->deadline != 0 ? st->deadline : pg_now_ms() + PG_STATEMENT_MS);
}

/* Send everything libpq holds, reading what the server says meanwhile:
 * 0, or -1 (reported, the connection dropped). */
static int
flush(struct store *st, const char *part)
{
	int rc;

	while ((rc = PQflush(st->conn)) == 1) {
		if (wait_socket(st, POLLIN | POLLOUT) != 0) {
			log_copy(part, errno == ETIMEDOUT ? "no answer in time (server or pgbouncer "
			    "frozen?)" : strerror(errno));
			pg_drop(st);
			return -1;
		}
		if (PQconsumeInput(st->conn) == 0)
			break;
	}
	if (rc != 0) {
		log_copy(part, PQerrorMessage(st->conn));
		pg_drop(st);
		return -1;
	}
	return 0;
}

/* The next whole result of the command (NULL: it is over, or *failed:
 * reported, the connection dropped). */
static PGresult *
next_result(struct store *st, const char *part, int *failed)
{
	if (flush(st, part) != 0) {
		*failed = 1;
		return NULL;
	}
	while (PQisBusy(st->conn)) {
		if (wait_socket(st, POLLIN) != 0 || PQconsumeInput(st->conn) == 0) {
			log_copy(part, errno == ETIMEDOUT ? "no answer in time (server or pgbouncer "
			    "frozen?)" : PQerrorMessage(st->conn));
			pg_drop(st);
			*failed = 1;
			return NULL;
		}
	}
	return PQgetResult(st->conn);
}

/* A COPY under way: the lines not handed to libpq yet. */
struct copy {
	struct store *st;
	const struct part *t;
	char *buf;
	size_t len, cap;
	int broken;     /* libpq took no more data: the server's answer says why */
};

/* Hand the buffered lines to libpq and send them: 0 or -1. */
static int
send_lines(struct copy *c)
{
	int rc;

	if (c->len == 0)
		return 0;
	while ((rc = PQputCopyData(c->st->conn, c->buf, (int)c->len)) == 0)
		if (flush(c->st, c->t->name) != 0)
			return -1;
	if (rc < 0) {
		c->broken = 1;
		return -1;
	}
	c->len = 0;
	return flush(c->st, c->t->name);
}

/* Room for n more bytes in the buffer: 0, or -1 (reported). */
static int
reserve(struct copy *c, size_t n)
{
	size_t cap = c->cap != 0 ? c->cap : COPY_CHUNK;
	char *p;

	if (c->len + n <= c->cap)
		return 0;
	while (cap < c->len + n)
		cap *= 2;
	if ((p = realloc(c->buf, cap)) == NULL) {
		log_error("out of memory");
		return -1;
	}
	c->buf = p;
	c->cap = cap;
	return 0;
}

/*
 * store_cells_fn: one row as a line of COPY's text format: the cells
 * between tabs, \N for NULL, and in each the backslash and the three
 * characters that would end a cell or a line escaped (PostgreSQL
 * "COPY", File Formats, Text Format).
 */
static int
put_line(void *arg, const char *const *cells, size_t n)
{
	struct copy *c = arg;
	size_t i;

	if (n != (size_t)c->t->ncols) {
		log_error("copy %s: a row of %zu cells, want %d", c->t->name, n, c->t->ncols);
		return STORE_ERROR;
	}
	for (i = 0; i < n; i++) {
		const char *s = cells[i];
		if (reserve(c, s != NULL ? 2 * strlen(s) + 1 : 3) != 0)
			return STORE_ERROR;
		if (i > 0)
			c->buf[c->len++] = '\t';
		if (s == NULL) {
			memcpy(c->buf + c->len, "\\N", 2);
			c->len += 2;
			continue;
		}
		for (; *s != '\0'; s++) {
			char e = *s == '\\' ? '\\' : *s == '\t' ? 't' : *s == '\n' ? 'n' :
			    *s == '\r' ? 'r' : '\0';
			if (e != '\0') {
				c->buf[c->len++] = '\\';
				c->buf[c->len++] = e;
			} else {
				c->buf[c->len++] = *s;
			}
		}
	}
	if (reserve(c, strlen(c->t->line_end)) != 0)
		return STORE_ERROR;
	memcpy(c->buf + c->len, c->t->line_end, strlen(c->t->line_end));
	c->len += strlen(c->t->line_end);
	if (c->len >= COPY_CHUNK && send_lines(c) != 0)
		return STORE_ERROR;
	return 0;
}

/*
 * One table by COPY: the statement, the rows feed gives, the end of the
 * data (or, when anything failed on this side, COPY's own way to give up,
 * which fails the statement), then the server's answer: how many rows it
 * took.  *written receives them.
 */
static int
copy_in(struct store *st, const struct part *t, store_feed_fn feed, void *arg,
        int64_t *written)
{
	struct copy c = { st, t, NULL, 0, 0, 0 };
	PGresult *r;
	int failed = 0, rc = STORE_ERROR, fed, end;

	if (st->conn == NULL || PQstatus(st->conn) != CONNECTION_OK) {
		log_error("PostgreSQL: copy %s: the connection was lost before", t->name);
		return STORE_ERROR;
	}
	if (PQsendQueryParams(st->conn, t->write, 0, NULL, NULL, NULL, NULL, 0) == 0) {
		log_copy(t->name, PQerrorMessage(st->conn));
		pg_drop(st);
		return STORE_ERROR;
	}
	if ((r = next_result(st, t->name, &failed)) == NULL) {
		if (!failed)
			log_copy(t->name, "no answer to COPY");
		return STORE_ERROR;
	}
	if (PQresultStatus(r) != PGRES_COPY_IN) {
		log_copy(t->name, PQresultErrorMessage(r));
		PQclear(r);
		while ((r = next_result(st, t->name, &failed)) != NULL)
			PQclear(r);
		return STORE_ERROR;
	}
	PQclear(r);
	fed = feed(arg, put_line, &c) == 0 && send_lines(&c) == 0;
	if (st->conn == NULL)   /* dropped (reported) */
		goto out;
	while ((end = PQputCopyEnd(st->conn, fed ? NULL : "the copy gave up")) == 0)
		if (flush(st, t->name) != 0)
			goto out;
	/* end < 0: libpq left the COPY already (the server refused a row):
	 * its answer follows. */
	(void)end;
	while ((r = next_result(st, t->name, &failed)) != NULL) {
		if (PQresultStatus(r) == PGRES_COMMAND_OK) {
			*written = strtoll(PQcmdTuples(r), NULL, 10);
			if (fed)
				rc = STORE_OK;
		} else if (fed || c.broken) {
			log_copy(t->name, PQresultErrorMessage(r));
			fed = 0;
			c.broken = 0;
		}
		PQclear(r);
	}
	if (failed)
		rc = STORE_ERROR;
	else if (rc == STORE_OK && PQstatus(st->conn) != CONNECTION_OK) {
		log_copy(t->name, PQerrorMessage(st->conn));
		pg_drop(st);
		rc = STORE_ERROR;
	}
out:
	free(c.buf);
	return rc;
}

/* What a row of an UPDATE part needs. */
struct update {
	struct store *st;
	const struct part *t;
	int64_t rows;
};

/* store_cells_fn: one row of an UPDATE part, which must find its row
 * (sites.config_id: the site is there). */
static int
put_update(void *arg, const char *const *cells, size_t n)
{
	struct update *u = arg;
	int rc;

	if (n != (size_t)u->t->ncols) {
		log_error("copy %s: a row of %zu cells, want %d", u->t->name, n, u->t->ncols);
		return STORE_ERROR;
	}
	rc = pg_change_one(u->st, u->t->write, (int)n, cells, u->t->name);
	if (rc == STORE_NOTFOUND)
		log_error("copy %s: no row for %s", u->t->name, cells[0] ? cells[0] : "NULL");
	if (rc != STORE_OK)
		return STORE_ERROR;
	u->rows++;
	return 0;
}

int
pg_store_copy_write(struct store *st, const char *name, store_feed_fn feed, void *arg,
                    int64_t *written)
{
	const struct part *t = part_named(name);
	struct update u = { st, t, 0 };

	*written = 0;
	if (t == NULL)
		return STORE_ERROR;
	if (t->line_end == NULL) {
		if (feed(arg, put_update, &u) != 0)
			return STORE_ERROR;
		*written = u.rows;
		return STORE_OK;
	}
	if (copy_in(st, t, feed, arg, written) != STORE_OK)
		return STORE_ERROR;
	if (t->identity != NULL && pg_run(st, t->identity, 0, NULL, NULL, t->name) != STORE_OK)
		return STORE_ERROR;
	return STORE_OK;
}

int
pg_store_copy_end(struct store *st, int commit)
{
	if (!commit) {
		pg_rollback(st);
		return STORE_OK;
	}
	return pg_commit(st) == 0 ? STORE_OK : STORE_ERROR;
}
