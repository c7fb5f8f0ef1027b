/* ctl_migrate.c: consentctl migrate: a whole database copied into a new one (SQLite into PostgreSQL, or back). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctl.h"

/*
 * The move from one host to many (docs/postgres.md): every row of the database --from names, read as one
 * snapshot, is written into the database --to names, a new one that
 * consentctl init made (the schema, and the built-in texts it records),
 * in one transaction, part by part in the store's order (store.h); then
 * each part's row count in the target, counted inside that transaction,
 * must be the source's, and only then is it committed.  Any failure or
 * difference takes the whole copy back: the target is left as it was.
 * The stores know the tables and their SQL; this file knows neither.
 *
 * On a terminal, stderr shows each part's progress (rows copied of its
 * total) on a line of its own, then the total; elsewhere only errors are
 * printed.
 */

/* The progress line is written again every PROGRESS_ROWS rows (some tens
 * of times a second: rows are copied by the ten thousand a second). */
#define PROGRESS_ROWS 1000

/* The copy under way. */
struct migrate {
	struct store *from, *to;
	const char *part;        /* the part being copied */
	int64_t done, total;     /* its rows copied, and in the source */
	int tty;                 /* stderr is a terminal: progress shown */
	store_cells_fn put;      /* the target's writer of the part, and its arg */
	void *put_arg;
};

/* The part's progress line, written again in place; last ends it. */
static void
progress(struct migrate *m, int last)
{
	if (!m->tty || (!last && m->done % PROGRESS_ROWS != 0))
		return;
	/* The blank at the end keeps apart a message that a failure prints
	 * on the open line. */
	fprintf(stderr, "\r%-18s %lld of %lld rows%s", m->part, (long long)m->done,
	    (long long)m->total, last ? "\n" : " ");
}

/* store_cells_fn over the source's rows: each to the target's writer. */
static int
copy_row(void *arg, const char *const *cells, size_t n)
{
	struct migrate *m = arg;
	int rc = m->put(m->put_arg, cells, n);

	if (rc != 0)
		return rc;
	m->done++;
	progress(m, 0);
	return 0;
}

/* store_feed_fn: the target asks for the part's rows; the source reads
 * them from its snapshot. */
static int
feed_part(void *arg, store_cells_fn put, void *put_arg)
{
	struct migrate *m = arg;

	m->put = put;
	m->put_arg = put_arg;
	return store_copy_read(m->from, m->part, copy_row, m) == STORE_OK ? 0 : STORE_ERROR;
}

/* Every part into the open target, then every count checked: EXIT_OK or
 * EXIT_FAIL (reported).  *rows receives how many rows were written. */
static int
copy_parts(struct migrate *m, const char *const *parts, const int64_t *totals, size_t n,
           int64_t *rows)
{
	int64_t written, got;
	size_t i;
	int rc;

	for (i = 0; i < n; i++) {
		m->part = parts[i];
		m->done = 0;
		m->total = totals[i];
		progress(m, 0);
		rc = store_copy_write(m->to, parts[i], feed_part, m, &written);
		if (rc != STORE_OK)
			return EXIT_FAIL;
		progress(m, 1);
		*rows += written;
	}
	for (i = 0; i < n; i++) {
		if (store_copy_count(m->to, parts[i], &got) != STORE_OK)
			return EXIT_FAIL;
		if (got != totals[i])
			return ctl_say(EXIT_FAIL, "%s: %lld rows in the source, %lld in the copy: "
			    "nothing was copied", parts[i], (long long)totals[i], (long long)got);
	}
	return EXIT_OK;
}

int
cmd_migrate(struct ctl *c)
{
	struct migrate m;
	const char *const *parts;
	int64_t *totals = NULL, rows = 0;
	size_t n, i;
	int rc = EXIT_FAIL, snapshot = 0, open = 0;

	if (c->from == NULL || c->to == NULL)
		return ctl_say(EXIT_USAGE, "usage: consentctl %s", c->cmd->synopsis);
	if (*c->from == '\0' || *c->to == '\0')
		return ctl_say(EXIT_USAGE, "options --from and --to need a database");
	if (c->db != NULL)
		return ctl_say(EXIT_USAGE, "migrate takes --from and --to, not --db");
	memset(&m, 0, sizeof(m));
	m.tty = isatty(2);
	if (store_open(&m.from, c->from, STORE_READ) != STORE_OK ||
	    store_open(&m.to, c->to, STORE_WRITE) != STORE_OK ||
	    store_copy_parts(m.from, &parts, &n) != STORE_OK)
		goto out;
	if ((totals = calloc(n, sizeof(*totals))) == NULL) {
		ctl_say(EXIT_FAIL, "out of memory");
		goto out;
	}
	if (store_snapshot(m.from, 1) != STORE_OK)
		goto out;
	snapshot = 1;
	for (i = 0; i < n; i++)
		if (store_copy_count(m.from, parts[i], &totals[i]) != STORE_OK)
			goto out;
	if (store_copy_begin(m.to) != STORE_OK)
		goto out;
	open = 1;
	if (copy_parts(&m, parts, totals, n, &rows) != EXIT_OK)
		goto out;
	/* As init does, this build's texts are recorded (the copy brought
	 * the source's records in place of those init made). */
	c->st = m.to;
	if (ctl_record_builtin(c) != STORE_OK)
		goto out;
	open = 0;
	if (store_copy_end(m.to, 1) != STORE_OK)
		goto out;
	if (m.tty)
		fprintf(stderr, "%lld rows copied in %zu parts, each part's count checked\n",
		    (long long)rows, n);
	rc = EXIT_OK;
out:
	if (open)
		store_copy_end(m.to, 0);
	if (snapshot)
		store_snapshot(m.from, 0);
	c->st = NULL;   /* closed here, not by main() */
	store_close(m.to);
	store_close(m.from);
	free(totals);
	return rc;
}
