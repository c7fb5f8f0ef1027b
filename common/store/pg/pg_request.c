/* pg_request.c: the PostgreSQL store of the request path (sites, domains, answers, consent, scripts). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/hash.h"
#include "base/log.h"
#include "store/pg/pg_store.h"

/* The integer of field (r, c), 0 for SQL NULL (the columns of a missing
 * config are NULL after the LEFT JOIN). */
static int64_t
field_int64(const PGresult *res, int r, int c)
{
	return PQgetisnull(res, r, c) ? 0 : strtoll(PQgetvalue(res, r, c), NULL, 10);
}

/*
 * One statement fetches the site, its published document with what was
 * prepared from it, and the month's visitor count, so every endpoint pays
 * one round trip for everything it needs about the site.  The count is
 * the sum of the month's 16 slots (schema_pg.sql), all of one index range.
 */
int
pg_store_site_get(struct store *st, const char *key, struct site *out)
{
	static const char sql[] =
	    "SELECT s.id, s.name, s.paused, (s.tier = 'free')::integer, s.mau_cap,"
	    " c.id, c.version, c.document, k.skeleton, k.script_rules,"
	    " coalesce((SELECT sum(m.visitors) FROM mau_counts m"
	    "  WHERE m.site_id = s.id AND m.month = $2), 0)::bigint,"
	    " c.sha256"
	    " FROM sites s LEFT JOIN configs c ON c.id = s.config_id"
	    " LEFT JOIN config_skeletons k ON k.config_id = s.config_id"
	    " WHERE s.site_key = $1";
	PGresult *r = NULL;
	char now[32], month[8];
	const char *p[2];
	int rc;

	memset(out, 0, sizeof(*out));
	if (strlen(key) > SITE_KEY_MAX)
		return STORE_NOTFOUND;
	clock_now(now, month);
	p[0] = key;
	p[1] = month;
	if ((rc = pg_run(st, sql, PG_NPARAMS(p), p, &r, "site lookup")) != STORE_OK)
		goto out;
	if (PQntuples(r) == 0) {
		rc = STORE_NOTFOUND;
		goto out;
	}
	out->id = field_int64(r, 0, 0);
	memcpy(out->key, key, strlen(key) + 1);
	out->name = pg_text_dup(r, 0, 1);
	out->paused = field_int64(r, 0, 2) != 0;
	out->free_tier = field_int64(r, 0, 3) != 0;
	out->mau_cap = PQgetisnull(r, 0, 4) ? -1 : field_int64(r, 0, 4);
	out->config_id = field_int64(r, 0, 5);
	out->version = field_int64(r, 0, 6);
	out->document = pg_text_dup(r, 0, 7);
	out->skeleton = pg_text_dup(r, 0, 8);
	out->script_rules = pg_text_dup(r, 0, 9);
	out->visitors = field_int64(r, 0, 10);
	if (!PQgetisnull(r, 0, 11) && PQgetlength(r, 0, 11) == 64)
		memcpy(out->config_sha256, PQgetvalue(r, 0, 11), 65);
	rc = store_site_filled(out, !PQgetisnull(r, 0, 8), !PQgetisnull(r, 0, 9));
out:
	PQclear(r);
	return rc;
}

/*
 * A site has a handful of domains: hand them all to fn, which decides
 * (origin_matches), so the subdomain rule lives in one place and the store
 * knows nothing of Origins.  In the order SQLite gives them (its primary
 * key's, by host).
 */
int
pg_store_site_domains(struct store *st, int64_t site_id, store_domain_fn fn, void *arg)
{
	static const char sql[] =
	    "SELECT host FROM domains WHERE site_id = $1::bigint ORDER BY host";
	PGresult *r = NULL;
	char id[24];
	const char *p[] = {pg_int_text(id, site_id)};
	int found = 0;

	if (pg_run(st, sql, PG_NPARAMS(p), p, &r, "domain lookup") != STORE_OK)
		return STORE_ERROR;
	for (int i = 0; i < PQntuples(r) && found == 0; i++)
		if (!PQgetisnull(r, i, 0))
			found = fn(PQgetvalue(r, i, 0), arg);
	PQclear(r);
	return found;
}

int
pg_store_config_answer(struct store *st, int64_t config_id, const char *region,
                       const char *lang, char **answer)
{
	static const char sql[] =
	    "SELECT answer FROM config_answers"
	    " WHERE config_id = $1::bigint AND region = $2 AND language = $3";
	PGresult *r = NULL;
	char id[24];
	const char *p[] = {pg_int_text(id, config_id), region, lang};
	int rc;

	*answer = NULL;
	if ((rc = pg_run(st, sql, PG_NPARAMS(p), p, &r, "config answer")) != STORE_OK)
		goto out;
	if (PQntuples(r) == 0 || PQgetisnull(r, 0, 0)) {
		rc = STORE_NOTFOUND;
	} else if ((*answer = pg_text_dup(r, 0, 0)) == NULL) {
		log_error("out of memory");
		rc = STORE_ERROR;
	}
out:
	PQclear(r);
	return rc;
}

/*
 * A value of an entry as parameter text in buf (or its own text), NULL for
 * SQL NULL; the statement casts it to its column's type.  A real is
 * written with 17 significant digits, which read back as the same double.
 */
static const char *
value_text(const struct store_value *v, char buf[40])
{
	switch (v->type) {
	case SV_TEXT:
		return v->text;
	case SV_INT:
		snprintf(buf, 40, "%lld", (long long)v->i);
		return buf;
	case SV_REAL:
		snprintf(buf, 40, "%.17g", v->r);
		return buf;
	default:
		return NULL;
	}
}

/* The slot of a visitor's monthly count (schema_pg.sql): the value of the
 * first hex digit of its hash, or -1. */
static int
visitor_slot(const char *anon_id_hash)
{
	return hash_hex_digit(anon_id_hash != NULL ? anon_id_hash[0] : '\0');
}

/*
 * A write of the request path is STORE_OK or STORE_ERROR: nothing it does
 * may meet a unique constraint (every insert that could has its ON
 * CONFLICT), so one that did (an identity behind the ids copied in) is a
 * failure, said here since pg_run leaves STORE_EXISTS to the caller.
 */
static int
written(int rc, const char *what)
{
	if (rc == STORE_EXISTS)
		log_error("PostgreSQL: %s: a unique constraint refused it", what);
	return rc == STORE_OK ? STORE_OK : STORE_ERROR;
}

/*
 * The entry, its visitor in this month's set and the month's count move
 * together in one statement, so one transaction and one round trip: a
 * killed process or a lost connection leaves all of them or none.  The
 * count is added to only when the visitor was new (the set's insert
 * returned its row), in the visitor's slot of the month: concurrent
 * writers of one site take one of 16 rows instead of all one, and a
 * visitor counted twice at once is impossible, since the second insert of
 * the same visitor waits on the first's unique index entry and then does
 * nothing.  The entry's insert is not referred to: PostgreSQL runs every
 * data-modifying CTE to its end all the same.
 */
int
pg_store_consent_add(struct store *st, const struct consent_entry *e)
{
	static const char sql[] =
	    "WITH entry AS ("
	    " INSERT INTO consent_log (site_id, created_at, anon_id_hash, categories,"
	    " event_type, event_action, config_id, published_version, config_version,"
	    " region, consent_model, regulation, time_to_action_ms, interaction,"
	    " preferences_opened, banner_load_time_ms, banner_position, page_url,"
	    " sdk_version, language, resolved_language, browser, os, device_type,"
	    " country, gpc, digest, builtin_sha256) VALUES ($1::bigint, $2, $3, $4, $5, $6,"
	    " $7::bigint, $8::bigint, $9::bigint, $10, $11, $12, $13::double precision, $14,"
	    " $15::integer, $16::double precision, $17, $18, $19, $20, $21, $22, $23, $24,"
	    " $25, $26::integer, $27, $28)"
	    "), visitor AS ("
	    " INSERT INTO mau_visitors (site_id, month, anon_id_hash)"
	    " VALUES ($1::bigint, $29, $3) ON CONFLICT DO NOTHING RETURNING 1"
	    ")"
	    " INSERT INTO mau_counts (site_id, month, slot, visitors)"
	    " SELECT $1::bigint, $29, $30::integer, 1 FROM visitor"
	    " ON CONFLICT (site_id, month, slot)"
	    " DO UPDATE SET visitors = mau_counts.visitors + 1";
	char site[24], config[24], published[24], slot[24], month[8];
	char v[14][40];
	const char *p[30];
	int s;

	if (e->created_at == NULL || strlen(e->created_at) < 7) {
		log_error("consent entry without its time");
		return STORE_ERROR;
	}
	if ((s = visitor_slot(e->anon_id_hash)) < 0) {
		log_error("consent entry without its visitor's hash");
		return STORE_ERROR;
	}
	memcpy(month, e->created_at, 7);
	month[7] = '\0';
	p[0] = pg_int_text(site, e->site_id);
	p[1] = e->created_at;
	p[2] = e->anon_id_hash;
	p[3] = e->categories;
	p[4] = e->event_type;
	p[5] = value_text(&e->event_action, v[0]);
	p[6] = e->config_id > 0 ? pg_int_text(config, e->config_id) : NULL;
	p[7] = pg_int_text(published, e->published_version);
	p[8] = value_text(&e->config_version, v[1]);
	p[9] = value_text(&e->region, v[2]);
	p[10] = value_text(&e->consent_model, v[3]);
	p[11] = value_text(&e->regulation, v[4]);
	p[12] = value_text(&e->time_to_action_ms, v[5]);
	p[13] = value_text(&e->interaction, v[6]);
	p[14] = value_text(&e->preferences_opened, v[7]);
	p[15] = value_text(&e->banner_load_time_ms, v[8]);
	p[16] = value_text(&e->banner_position, v[9]);
	p[17] = value_text(&e->page_url, v[10]);
	p[18] = value_text(&e->sdk_version, v[11]);
	p[19] = value_text(&e->language, v[12]);
	p[20] = value_text(&e->resolved_language, v[13]);
	p[21] = e->browser;
	p[22] = e->os;
	p[23] = e->device_type;
	p[24] = e->country;
	p[25] = e->gpc != 0 ? "1" : "0";
	p[26] = e->digest;
	p[27] = e->builtin_sha256;
	p[28] = month;
	p[29] = pg_int_text(slot, s);
	return written(pg_change(st, sql, PG_NPARAMS(p), p, NULL, "insert consent"),
	    "insert consent");
}

/* Add to obj the member name: the string s, or null. */
static int
add_text(cJSON *obj, const char *name, const char *s)
{
	return (s != NULL ? cJSON_AddStringToObject(obj, name, s)
	                  : cJSON_AddNullToObject(obj, name)) != NULL;
}

/*
 * The report's entries as one JSON array of {domain, src, category,
 * blocked, seen}, one per domain.  One INSERT ... ON CONFLICT may not
 * change a row twice, so entries of the same domain (the endpoint already
 * folds them: scripts_req.c) are folded here as SQLite's upserts one after
 * the other would leave the record: the last src and category sent win
 * (NULL keeps what came before), the last blocked, and seen counts them
 * all.  A new string (caller frees), or NULL when out of memory.
 */
static char *
report_json(const struct script_entry *e, size_t n)
{
	cJSON *all = cJSON_CreateArray(), *o;
	char *text = NULL;
	size_t i, j;

	if (all == NULL)
		goto out;
	for (i = 0; i < n; i++) {
		const char *src = e[i].src, *category = e[i].category;
		int blocked = e[i].blocked, seen = 1;

		for (j = 0; j < i && strcmp(e[j].domain, e[i].domain) != 0; j++)
			;
		if (j < i)
			continue;   /* folded into the first of its domain */
		for (j = i + 1; j < n; j++) {
			if (strcmp(e[j].domain, e[i].domain) != 0)
				continue;
			if (e[j].src != NULL)
				src = e[j].src;
			if (e[j].category != NULL)
				category = e[j].category;
			blocked = e[j].blocked;
			seen++;
		}
		if ((o = cJSON_CreateObject()) == NULL || !cJSON_AddItemToArray(all, o)) {
			cJSON_Delete(o);
			goto out;
		}
		if (!add_text(o, "domain", e[i].domain) || !add_text(o, "src", src) ||
		    !add_text(o, "category", category) ||
		    cJSON_AddNumberToObject(o, "blocked", blocked ? 1 : 0) == NULL ||
		    cJSON_AddNumberToObject(o, "seen", seen) == NULL)
			goto out;
	}
	text = cJSON_PrintUnformatted(all);
out:
	cJSON_Delete(all);
	return text;
}

/*
 * One statement for the whole report: every record and the sync change, or
 * nothing.  The records come as one JSON parameter (report_json), upserted
 * in the order of their domains, so two reports of the same domains lock
 * their rows in the same order and never wait on each other in a cycle.
 * category NULL keeps what the record had (COALESCE).  Only a pending sync
 * of this site is closed: a finished one keeps its status, time and page;
 * without a sync_id ($5 NULL) the UPDATE matches nothing.
 */
int
pg_store_scripts_report(struct store *st, int64_t site_id, const char *page_url,
                        const struct script_entry *e, size_t n,
                        const char *sync_id, const char *error)
{
	static const char sql[] =
	    "WITH records AS ("
	    " INSERT INTO scripts (site_id, domain, category, blocked, first_seen,"
	    " last_seen, seen_count, last_src, last_page_url)"
	    " SELECT $1::bigint, x.domain, x.category, x.blocked, $3, $3, x.seen, x.src, $4"
	    " FROM jsonb_to_recordset($2::jsonb)"
	    "  AS x(domain text, src text, category text, blocked integer, seen bigint)"
	    " ORDER BY x.domain COLLATE \"C\""
	    " ON CONFLICT (site_id, domain) DO UPDATE SET"
	    " category = COALESCE(excluded.category, scripts.category),"
	    " blocked = excluded.blocked, last_seen = excluded.last_seen,"
	    " seen_count = scripts.seen_count + excluded.seen_count,"
	    " last_src = COALESCE(excluded.last_src, scripts.last_src),"
	    " last_page_url = excluded.last_page_url"
	    ")"
	    " UPDATE syncs SET status = $6, error = $7, page_url = $4, finished_at = $3"
	    " WHERE sync_id = $5 AND site_id = $1::bigint AND status = 'pending'";
	char id[24], now[32], *records;
	const char *p[7];
	int rc;

	if ((records = report_json(e, n)) == NULL) {
		log_error("out of memory");
		return STORE_ERROR;
	}
	clock_now(now, NULL);
	p[0] = pg_int_text(id, site_id);
	p[1] = records;
	p[2] = now;
	p[3] = page_url;
	p[4] = sync_id;
	p[5] = error ? "failed" : "complete";
	p[6] = error;
	rc = pg_change(st, sql, PG_NPARAMS(p), p, NULL, "script report");
	free(records);
	return written(rc, "script report");
}
