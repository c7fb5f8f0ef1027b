/* pg_builtin.c: the PostgreSQL store of the built-in texts of every build (builtin_texts). */
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/log.h"
#include "store/pg/pg_store.h"

/*
 * The built-in texts.  builtin_texts.pieces is text, which holds no NUL
 * byte: the pieces never have one (defaults_pieces() joins C strings), and
 * pieces that had one are refused rather than cut short.
 */
int
pg_store_builtin_record(struct store *st, const char *sha256, const char *pieces, size_t len)
{
	static const char sql[] =
	    "INSERT INTO builtin_texts (sha256, pieces, recorded_at) VALUES ($1, $2, $3)"
	    " ON CONFLICT DO NOTHING";
	char now[32], *text;
	int rc;

	/* The len bytes as a C string: a parameter's text ends at its NUL. */
	if ((text = strndup(pieces, len)) == NULL) {
		log_error("out of memory");
		return STORE_ERROR;
	}
	if (strlen(text) != len) {
		log_error("built-in texts with a NUL byte: PostgreSQL's text cannot hold them");
		free(text);
		return STORE_ERROR;
	}
	clock_now(now, NULL);
	const char *const p[] = {sha256, text, now};
	rc = pg_change(st, sql, PG_NPARAMS(p), p, NULL, "record built-in texts");
	free(text);
	return rc;
}

/* A copy of field (r, c)'s bytes with a NUL after them, into *out and *len. */
static int
field_copy(const PGresult *res, int r, int c, char **out, size_t *len)
{
	size_t n = (size_t)PQgetlength(res, r, c);

	if ((*out = malloc(n + 1)) == NULL) {
		log_error("out of memory");
		return STORE_ERROR;
	}
	memcpy(*out, PQgetvalue(res, r, c), n);
	(*out)[n] = '\0';
	*len = n;
	return STORE_OK;
}

int
pg_store_builtin_get(struct store *st, const char *sha256, char **pieces, size_t *len)
{
	static const char sql[] = "SELECT pieces FROM builtin_texts WHERE sha256 = $1";
	const char *const p[] = {sha256};
	PGresult *r = NULL;
	int rc;

	*pieces = NULL;
	*len = 0;
	if (pg_run(st, sql, PG_NPARAMS(p), p, &r, "built-in texts") != STORE_OK)
		return STORE_ERROR;
	rc = PQntuples(r) == 0 ? STORE_NOTFOUND : field_copy(r, 0, 0, pieces, len);
	PQclear(r);
	return rc;
}

int
pg_store_builtin_each(struct store *st, store_builtin_fn fn, void *arg)
{
	static const char sql[] =
	    "SELECT sha256, pieces, recorded_at FROM builtin_texts ORDER BY recorded_at, sha256";
	PGresult *r = NULL;
	int rc = STORE_OK, n;

	if (pg_run(st, sql, 0, NULL, &r, "built-in texts") != STORE_OK)
		return STORE_ERROR;
	n = PQntuples(r);
	for (int i = 0; i < n && rc == STORE_OK; i++) {
		char *pieces;
		size_t len;

		if ((rc = field_copy(r, i, 1, &pieces, &len)) != STORE_OK)
			break;
		rc = fn(arg, PQgetvalue(r, i, 0), pieces, len, PQgetvalue(r, i, 2));
		free(pieces);
	}
	PQclear(r);
	return rc;
}

/* One statement by the site's key: no row, no such site. */
int
pg_store_builtin_missing(struct store *st, const char *key, int64_t *n)
{
	static const char sql[] =
	    "SELECT (SELECT count(*) FROM consent_log l WHERE l.site_id = s.id"
	    "  AND l.builtin_sha256 IS NOT NULL AND NOT EXISTS"
	    "  (SELECT 1 FROM builtin_texts b WHERE b.sha256 = l.builtin_sha256))"
	    " FROM sites s WHERE s.site_key = $1";
	const char *const p[] = {key};

	*n = 0;
	return pg_run_int64(st, sql, PG_NPARAMS(p), p, n, "built-in texts not recorded");
}
