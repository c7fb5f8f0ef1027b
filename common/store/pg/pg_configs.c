/* pg_configs.c: the PostgreSQL store of published configs and what is prepared from them. */
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/hash.h"
#include "base/log.h"
#include "base/nitems.h"
#include "store/pg/pg_store.h"

/*
 * The answers of prep as one JSON array of {region, language, answer} (a
 * new string, caller frees), "[]" when nothing is to be stored (NULL, or no
 * skeleton: SQLite's put_prepared stores nothing then either): one
 * parameter that jsonb_to_recordset turns back into rows, so that every
 * answer is stored by one statement, not one round trip each.  The text
 * comes back byte for byte (a C string holds no NUL, and cJSON escapes
 * only what JSON must).  NULL when out of memory (reported).
 */
static char *
answers_json(const struct store_prepared *prep)
{
	cJSON *all = cJSON_CreateArray(), *a;
	char *text = NULL;

	if (all == NULL)
		goto out;
	for (size_t i = 0; prep != NULL && prep->skeleton != NULL && i < prep->n; i++) {
		if ((a = cJSON_CreateObject()) == NULL)
			goto out;
		if (!cJSON_AddItemToArray(all, a)) {
			cJSON_Delete(a);
			goto out;
		}
		/* References: the strings stay prep's, nothing is copied twice. */
		if (!cJSON_AddItemToObject(a, "region", cJSON_CreateStringReference(prep->a[i].region)) ||
		    !cJSON_AddItemToObject(a, "language",
		        cJSON_CreateStringReference(prep->a[i].language)) ||
		    !cJSON_AddItemToObject(a, "answer", cJSON_CreateStringReference(prep->a[i].answer)))
			goto out;
	}
	text = cJSON_PrintUnformatted(all);
out:
	if (text == NULL)
		log_error("out of memory");
	cJSON_Delete(all);
	return text;
}

/* The skeleton and the answers of config $1 (skeleton $2, script_rules $3,
 * answers $4 as answers_json() makes them), in one statement. */
static const char prepared_sql[] =
    "WITH k AS (INSERT INTO config_skeletons (config_id, skeleton, script_rules)"
    "  VALUES ($1::bigint, $2::text, $3::text))"
    " INSERT INTO config_answers (config_id, region, language, answer)"
    " SELECT $1::bigint, r.region, r.language, r.answer"
    " FROM jsonb_to_recordset($4::jsonb) AS r(region text, language text, answer text)";

/*
 * Replace what is stored as prepared from config version id by prep (NULL
 * or without a skeleton: nothing).  Inside the caller's transaction.  Two
 * statements: the old rows go first, so that the new ones (the same keys)
 * never meet them (the sub-statements of one WITH run in no promised
 * order).
 */
static int
put_prepared(struct store *st, int64_t id, const struct store_prepared *prep)
{
	static const char clear_sql[] =
	    "WITH a AS (DELETE FROM config_answers WHERE config_id = $1::bigint)"
	    " DELETE FROM config_skeletons WHERE config_id = $1::bigint";
	char idt[24], *answers = NULL;
	const char *clear[] = {pg_int_text(idt, id)};
	int rc = STORE_ERROR;

	if (pg_change(st, clear_sql, PG_NPARAMS(clear), clear, NULL, "config prepare") != STORE_OK)
		return STORE_ERROR;
	if (prep == NULL || prep->skeleton == NULL)
		return STORE_OK;
	if ((answers = answers_json(prep)) == NULL)
		return STORE_ERROR;
	const char *p[] = {idt, prep->skeleton, prep->script_rules, answers};
	if (pg_change(st, prepared_sql, PG_NPARAMS(p), p, NULL, "config prepare") == STORE_OK)
		rc = STORE_OK;
	free(answers);
	return rc;
}

/*
 * SQLite's BEGIN IMMEDIATE kept every other writer out while the documents
 * are prepared again.  Here the rows of the sites read are locked (FOR NO
 * KEY UPDATE, in the order of their configs' ids, so that two inits never
 * deadlock) until the commit: a publisher of one of them (pg_site_id's
 * FOR UPDATE) or another init waits for this one.  A site whose publisher
 * went first is left out when the lock is granted (its row then names
 * another config): that version was prepared by its publisher.  The
 * consent writes of those sites do not wait (their foreign key check takes
 * FOR KEY SHARE, which this lock leaves them).
 */
int
pg_store_config_prepare_live(struct store *st, const struct store_preparer *p)
{
	static const char sql[] =
	    "SELECT c.id, c.document FROM sites s JOIN configs c ON c.id = s.config_id"
	    " ORDER BY c.id FOR NO KEY UPDATE OF s";
	PGresult *r = NULL;
	int rc = STORE_ERROR, n;

	if (pg_begin(st, "") != 0)
		return STORE_ERROR;
	/* Every row is read at once: the documents are in r until the end. */
	if (pg_run(st, sql, 0, NULL, &r, "config prepare") != STORE_OK)
		goto out;
	n = PQntuples(r);
	for (int i = 0; i < n; i++)
		if (store_prepare_config(st, p, strtoll(PQgetvalue(r, i, 0), NULL, 10),
		    PQgetvalue(r, i, 1), put_prepared) != STORE_OK)
			goto out;
	rc = STORE_OK;
out:
	PQclear(r);
	if (rc == STORE_OK)
		return pg_commit(st) == 0 ? STORE_OK : STORE_ERROR;
	pg_rollback(st);
	return rc;
}

/*
 * The next version is one more than the site's highest, read inside the
 * transaction after the site's row is locked (pg_site_id's FOR UPDATE:
 * what SQLite's single writer gave): a second publisher waits for the
 * lock, and its statement, which starts after the first committed (READ
 * COMMITTED), sees the first one's version.  Then one statement adds the
 * config, points the site at it and stores what was prepared from it.
 */
int
pg_store_config_publish(struct store *st, const char *key, const char *doc,
                        const struct store_prepared *prep, const char *publisher,
                        int64_t *version)
{
	static const char sql[] =
	    "WITH c AS (INSERT INTO configs (site_id, version, document, published_at, sha256,"
	    "  published_by)"
	    "  SELECT $1::bigint, coalesce(max(version), 0) + 1, $2::text, $3::text, $4::text,"
	    "  $8::text"
	    "  FROM configs WHERE site_id = $1::bigint RETURNING id, version),"
	    " p AS (UPDATE sites SET config_id = c.id FROM c WHERE sites.id = $1::bigint),"
	    " k AS (INSERT INTO config_skeletons (config_id, skeleton, script_rules)"
	    "  SELECT c.id, $5::text, $6::text FROM c WHERE $5::text IS NOT NULL),"
	    " a AS (INSERT INTO config_answers (config_id, region, language, answer)"
	    "  SELECT c.id, r.region, r.language, r.answer FROM c,"
	    "  jsonb_to_recordset($7::jsonb) AS r(region text, language text, answer text))"
	    " SELECT version FROM c";
	const char *skeleton = prep != NULL ? prep->skeleton : NULL;
	char now[32], sha[65], idt[24], *answers = NULL;
	const char *p[] = {idt, doc, now, sha, skeleton,
	                   skeleton != NULL ? prep->script_rules : NULL, NULL, publisher};
	PGresult *r = NULL;
	int64_t id;
	int rc = STORE_ERROR;

	clock_now(now, NULL);
	/* Every entry stored under this version names the document by it. */
	if (hash_sha256_hex(doc, strlen(doc), sha) != 0)
		return STORE_ERROR;
	if ((p[6] = answers = answers_json(prep)) == NULL)
		return STORE_ERROR;
	if (pg_begin(st, "") != 0)
		goto out;
	if ((rc = pg_site_id(st, key, 1, &id)) != STORE_OK)
		goto out;
	rc = STORE_ERROR;
	pg_int_text(idt, id);
	if (pg_run(st, sql, PG_NPARAMS(p), p, &r, "config publish") != STORE_OK)
		goto out;
	if (PQntuples(r) != 1) {
		log_error("PostgreSQL: config publish: no version came back");
		goto out;
	}
	*version = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
	if (pg_commit(st) == 0)
		rc = STORE_OK;
out:
	if (rc != STORE_OK)
		pg_rollback(st);
	PQclear(r);
	free(answers);
	return rc;
}

int
pg_store_config_version(struct store *st, const char *key, int64_t version,
                        char **document, char sha256[65])
{
	static const char sql[] =
	    "SELECT c.document, c.sha256 FROM configs c JOIN sites s ON s.id = c.site_id"
	    " WHERE s.site_key = $1 AND c.version = $2::bigint";
	char vt[24];
	const char *p[] = {key, pg_int_text(vt, version)};
	PGresult *r = NULL;
	int rc;

	*document = NULL;
	sha256[0] = '\0';
	if ((rc = pg_run(st, sql, PG_NPARAMS(p), p, &r, "config version")) != STORE_OK)
		return STORE_ERROR;
	if (PQntuples(r) == 0) {
		rc = STORE_NOTFOUND;
	} else if ((*document = pg_text_dup(r, 0, 0)) == NULL) {
		log_error("out of memory");
		rc = STORE_ERROR;
	} else if (PQgetlength(r, 0, 1) == 64) {
		memcpy(sha256, PQgetvalue(r, 0, 1), 65);
	}
	PQclear(r);
	return rc;
}

static const struct store_column version_columns[] = { VERSION_COLUMN_LIST };

/* One statement by the site's key; only when it gives no row is the site
 * looked up, to tell an unknown site from one that never published. */
int
pg_store_config_versions(struct store *st, const char *key, store_row_fn fn, void *arg)
{
	static const char sql[] =
	    "SELECT c.version AS version, c.sha256 AS sha256, c.document AS document"
	    " FROM configs c JOIN sites s ON s.id = c.site_id WHERE s.site_key = $1"
	    " ORDER BY c.version";
	const char *p[] = {key};

	return pg_site_rows(st, sql, PG_NPARAMS(p), p, version_columns,
	    nitems(version_columns), fn, arg, "config versions");
}

static const struct store_column history_columns[] = { HISTORY_COLUMN_LIST };

/* As config versions: the site looked up only when there is no row. */
int
pg_store_config_history(struct store *st, const char *key, store_row_fn fn, void *arg)
{
	static const char sql[] =
	    "SELECT c.version AS version, c.published_at AS published_at,"
	    " c.published_by AS published_by, c.sha256 AS sha256"
	    " FROM configs c JOIN sites s ON s.id = c.site_id WHERE s.site_key = $1"
	    " ORDER BY c.version DESC";
	const char *p[] = {key};

	return pg_site_rows(st, sql, PG_NPARAMS(p), p, history_columns,
	    nitems(history_columns), fn, arg, "config history");
}
