/* sqlite_copy.c: the SQLite store's side of copying a whole database (consentctl migrate). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/nitems.h"
#include "store/sqlite/sqlite_store.h"

/*
 * The parts of a copy (store.h), in the order it takes them: a table after
 * every table it refers to, the sites' published version (sites.config_id)
 * after the configs.  Each table's columns are schema.sql's, in its order
 * (sites without config_id); pg_copy.c lists the same parts with the
 * same columns in the same order.  write binds the cells as text, and each
 * column's affinity makes of them what the service stored: integers in
 * INTEGER columns, text stays text.  The NUMERIC columns that hold
 * fractions get the double strtod() reads, which rounds correctly: SQLite's
 * own reading of text as a double does not on every build (it rounds
 * through long double where there is one, and a last bit can differ).
 */
struct part {
	const char *name;
	int ncols;           /* at most STORE_COPY_CELLS_MAX */
	const char *read;    /* every row, in the columns above */
	const char *count;
	const char *write;   /* one row, the cells as ?1..?ncols */
	unsigned fractions;  /* bit i: cell i may be a fraction */
};

#define TABLE(t, n, cols, params, fractions) \
	{#t, n, "SELECT " cols " FROM " #t, "SELECT count(*) FROM " #t, \
	 "INSERT INTO " #t " (" cols ") VALUES (" params ")", fractions}

static const struct part parts[] = {
	TABLE(sites, 8, "id, site_key, name, tier, mau_cap, paused, created_at, retention_days",
	    "?,?,?,?,?,?,?,?", 0),
	TABLE(domains, 2, "site_id, host", "?,?", 0),
	TABLE(configs, 6, "id, site_id, version, document, published_at, sha256", "?,?,?,?,?,?", 0),
	{"sites.config_id", 2,
	    "SELECT id, config_id FROM sites WHERE config_id IS NOT NULL",
	    "SELECT count(*) FROM sites WHERE config_id IS NOT NULL",
	    "UPDATE sites SET config_id = ?2 WHERE id = ?1", 0},
	TABLE(config_skeletons, 3, "config_id, skeleton, script_rules", "?,?,?", 0),
	TABLE(config_answers, 4, "config_id, region, language, answer", "?,?,?,?", 0),
	TABLE(consent_seals, 9,
	    "id, site_id, seq, sealed_at, tree_size, root, prev, hash, last_created_at",
	    "?,?,?,?,?,?,?,?,?", 0),
	TABLE(consent_log, 30,
	    "id, site_id, created_at, anon_id_hash, categories, event_type, event_action,"
	    " config_id, published_version, config_version, region, consent_model, regulation,"
	    " time_to_action_ms, interaction, preferences_opened, banner_load_time_ms,"
	    " banner_position, page_url, sdk_version, language, resolved_language, browser, os,"
	    " device_type, country, gpc, digest, seal_id, builtin_sha256",
	    "?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?",
	    1u << 13 | 1u << 16),   /* time_to_action_ms, banner_load_time_ms */
	TABLE(consent_pruned, 4, "seal_id, created_at, entry_id, digest", "?,?,?,?", 0),
	TABLE(consent_erasures, 4, "id, site_id, erased_at, entries", "?,?,?,?", 0),
	TABLE(builtin_texts, 3, "sha256, pieces, recorded_at", "?,?,?", 0),
	TABLE(mau_visitors, 3, "site_id, month, anon_id_hash", "?,?,?", 0),
	TABLE(mau_counts, 3, "site_id, month, visitors", "?,?,?", 0),
	TABLE(scripts, 9,
	    "site_id, domain, category, blocked, first_seen, last_seen, seen_count, last_src,"
	    " last_page_url",
	    "?,?,?,?,?,?,?,?,?", 0),
	TABLE(syncs, 7, "sync_id, site_id, status, error, page_url, created_at, finished_at",
	    "?,?,?,?,?,?,?", 0),
};
#define NPARTS (nitems(parts))

/* The part of that name, or NULL (reported): a name is only ever looked
 * up here, never put into a statement. */
static const struct part *
part_named(const char *name)
{
	for (size_t i = 0; i < NPARTS; i++)
		if (strcmp(parts[i].name, name) == 0)
			return &parts[i];
	log_error("copy: the SQLite store has no part %s", name);
	return NULL;
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
	int rc;

	if (sqlite_db_prepare(st->db, "PRAGMA user_version", &q) != 0)
		return STORE_ERROR;
	rc = sqlite_step_int64(st, q, &have, st->path);
	sqlite3_finalize(q);
	if (rc != STORE_OK)
		return STORE_ERROR;
	if (have == want)
		return STORE_OK;
	if (have == 0)
		log_error("database %s has no schema (consentctl init makes it)", st->path);
	else
		log_error("database %s is at schema version %lld, this program at %lld "
		    "(consentctl init upgrades an older one)", st->path, (long long)have,
		    (long long)want);
	return STORE_ERROR;
}

int
sqlite_store_copy_parts(struct store *st, const char *const **names, size_t *n)
{
	static const char *list[NPARTS];

	if (check_version(st) != STORE_OK)
		return STORE_ERROR;
	for (size_t i = 0; i < NPARTS; i++)
		list[i] = parts[i].name;
	*names = list;
	*n = NPARTS;
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
	int64_t n;
	sqlite3_stmt *q = NULL;

	if (check_version(st) != STORE_OK || sqlite_db_begin(st->db) != 0)
		return STORE_ERROR;
	for (size_t i = 0; i < NPARTS; i++) {
		if (strcmp(parts[i].name, "builtin_texts") == 0)
			continue;
		if (sqlite_store_copy_count(st, parts[i].name, &n) != STORE_OK)
			goto fail;
		if (n > 0) {
			log_error("database %s is not empty (%s: %lld rows): the copy goes into a "
			    "new database", st->path, parts[i].name, (long long)n);
			goto fail;
		}
	}
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
