/* pg_sites.c: the PostgreSQL store of sites and their domains (consentctl site, domain). */
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/log.h"
#include "base/nitems.h"
#include "store/pg/pg_store.h"

/* The n hosts as a JSON array of strings (caller frees), or NULL when out
 * of memory. */
static char *
hosts_json(const char *const *hosts, size_t n)
{
	cJSON *a = cJSON_CreateArray(), *h;
	char *text = NULL;

	if (a == NULL)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if ((h = cJSON_CreateString(hosts[i])) == NULL || !cJSON_AddItemToArray(a, h)) {
			cJSON_Delete(h);
			goto out;
		}
	text = cJSON_PrintUnformatted(a);
out:
	cJSON_Delete(a);
	return text;
}

/*
 * The site and its hosts in one statement.  SQLite registers the hosts
 * with INSERT OR IGNORE, which skips a repeated host and also one its
 * CHECK refuses (length 1 to 253): the WHERE and ON CONFLICT DO NOTHING
 * skip the same ones here.  A taken key is the sites' unique violation:
 * STORE_EXISTS, and nothing is added.
 */
int
pg_store_site_add(struct store *st, const char *key, const char *name,
                  int free_tier, int64_t mau_cap, const char *const *hosts, size_t n)
{
	static const char sql[] =
	    "WITH site AS ("
	    " INSERT INTO sites (site_key, name, tier, mau_cap, created_at)"
	    " VALUES ($1, $2, $3, $4::bigint, $5) RETURNING id"
	    ")"
	    " INSERT INTO domains (site_id, host)"
	    " SELECT site.id, h.host FROM site, jsonb_array_elements_text($6::jsonb) AS h(host)"
	    " WHERE length(h.host) BETWEEN 1 AND 253"
	    " ON CONFLICT DO NOTHING";
	char now[32], cap[24], *list;
	const char *p[6];
	int rc;

	if ((list = hosts_json(hosts, n)) == NULL) {
		log_error("out of memory");
		return STORE_ERROR;
	}
	clock_now(now, NULL);
	p[0] = key;
	p[1] = name;
	p[2] = free_tier ? "free" : "paid";
	p[3] = mau_cap >= 0 ? pg_int_text(cap, mau_cap) : NULL;
	p[4] = now;
	p[5] = list;
	rc = pg_change(st, sql, PG_NPARAMS(p), p, NULL, "site add");
	free(list);
	return rc;
}

int
pg_store_site_set(struct store *st, const char *key, const struct site_change *ch)
{
	static const char sql[] =
	    "UPDATE sites SET name = coalesce($2, name), tier = coalesce($3, tier),"
	    " mau_cap = CASE WHEN $4::integer <> 0 THEN $5::bigint ELSE mau_cap END,"
	    " retention_days = CASE WHEN $6::integer <> 0 THEN $7::bigint"
	    "  ELSE retention_days END"
	    " WHERE site_key = $1";
	char cap[24], days[24];
	const char *p[7];

	p[0] = key;
	p[1] = ch->name;
	p[2] = ch->free_tier < 0 ? NULL : ch->free_tier ? "free" : "paid";
	p[3] = ch->mau_cap_set ? "1" : "0";
	p[4] = ch->mau_cap >= 0 ? pg_int_text(cap, ch->mau_cap) : NULL;
	p[5] = ch->retention_set ? "1" : "0";
	p[6] = ch->retention_days > 0 ? pg_int_text(days, ch->retention_days) : NULL;
	return pg_change_one(st, sql, PG_NPARAMS(p), p, "site set");
}

int
pg_store_site_pause(struct store *st, const char *key, int paused)
{
	static const char sql[] =
	    "UPDATE sites SET paused = $2::integer WHERE site_key = $1";
	const char *const p[] = {key, paused ? "1" : "0"};

	return pg_change_one(st, sql, PG_NPARAMS(p), p, "site pause");
}

/* A site in list and show (SITE_COLUMNS, store_ops.h). */
static const struct store_column site_columns[] = { SITE_COLUMN_LIST };
static const struct store_column show_columns[] = {
	SITE_COLUMN_LIST, {"published_at", ST_TEXT, 0}, {"mau", ST_INT, 0},
	{"retention_days", ST_INT, 0}, {"domains", ST_JSON, 0},
};

int
pg_store_site_list(struct store *st, store_row_fn fn, void *arg)
{
	static const char sql[] =
	    "SELECT " SITE_COLUMNS
	    " FROM sites s LEFT JOIN configs c ON c.id = s.config_id"
	    " ORDER BY s.site_key";

	return pg_rows(st, sql, 0, NULL, site_columns,
	    nitems(site_columns), fn, arg, "site list");
}

/*
 * The site row and its domains in order, as one statement, so the answer
 * is one state of the database (SQLite's reads them in one read
 * transaction) at one round trip: the domains come as the last column, a
 * JSON array, the member SQLite's store appends last.  The month's visitors
 * are the sum of its slots (schema_pg.sql).
 */
int
pg_store_site_show(struct store *st, const char *key, cJSON **out)
{
	static const char sql[] =
	    "SELECT " SITE_COLUMNS ", c.published_at AS published_at,"
	    " coalesce((SELECT sum(m.visitors) FROM mau_counts m"
	    "  WHERE m.site_id = s.id AND m.month = $2), 0)::bigint AS mau,"
	    " s.retention_days AS retention_days,"
	    " coalesce((SELECT json_agg(d.host ORDER BY d.host) FROM domains d"
	    "  WHERE d.site_id = s.id), '[]') AS domains"
	    " FROM sites s LEFT JOIN configs c ON c.id = s.config_id"
	    " WHERE s.site_key = $1";
	char now[32], month[8];
	const char *p[2];

	*out = NULL;
	clock_now(now, month);
	p[0] = key;
	p[1] = month;
	return pg_one_row(st, sql, PG_NPARAMS(p), p, show_columns,
	    nitems(show_columns), out, "site show");
}

int
pg_store_domain_add(struct store *st, const char *key, const char *host)
{
	static const char sql[] =
	    "INSERT INTO domains (site_id, host)"
	    " SELECT id, $2 FROM sites WHERE site_key = $1";
	const char *const p[] = {key, host};

	return pg_change_one(st, sql, PG_NPARAMS(p), p, "domain add");
}

/* STORE_NOTFOUND when the site is unknown or the host is not registered. */
int
pg_store_domain_remove(struct store *st, const char *key, const char *host)
{
	static const char sql[] =
	    "DELETE FROM domains WHERE host = $2"
	    " AND site_id = (SELECT id FROM sites WHERE site_key = $1)";
	const char *const p[] = {key, host};

	return pg_change_one(st, sql, PG_NPARAMS(p), p, "domain remove");
}

/*
 * Every key with its retention (-1: none), read whole before fn sees the
 * first (fn may write to the database: the result is already in memory).
 */
int
pg_store_site_keys(struct store *st, store_key_fn fn, void *arg)
{
	static const char sql[] =
	    "SELECT site_key, coalesce(retention_days, -1) FROM sites ORDER BY site_key";
	PGresult *r = NULL;
	int rc;

	if ((rc = pg_run(st, sql, 0, NULL, &r, "site keys")) != STORE_OK)
		return rc;
	for (int i = 0; i < PQntuples(r) && rc == STORE_OK; i++)
		rc = fn(PQgetvalue(r, i, 0), strtoll(PQgetvalue(r, i, 1), NULL, 10), arg);
	PQclear(r);
	return rc;
}
