/* sqlite_request.c: the SQLite store of the request path (sites, domains, answers, consent, scripts). */
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/log.h"
#include "store/sqlite/sqlite_store.h"


/*
 * One statement fetches the site, its published document with what was
 * prepared from it, and the month's visitor count, so every endpoint pays
 * one indexed lookup for everything it needs about the site.
 */
int
sqlite_store_site_get(struct store *st, const char *key, struct site *out)
{
	static const char sql[] =
	    "SELECT s.id, s.name, s.paused, s.tier = 'free', s.mau_cap,"
	    " c.id, c.version, c.document, k.skeleton, k.script_rules, m.visitors,"
	    " c.sha256"
	    " FROM sites s LEFT JOIN configs c ON c.id = s.config_id"
	    " LEFT JOIN config_skeletons k ON k.config_id = s.config_id"
	    " LEFT JOIN mau_counts m ON m.site_id = s.id AND m.month = ?2"
	    " WHERE s.site_key = ?1";
	sqlite3_stmt *q = NULL;
	char now[32], month[8];
	int rc = STORE_ERROR;

	memset(out, 0, sizeof(*out));
	if (strlen(key) > SITE_KEY_MAX)
		return STORE_NOTFOUND;
	if (sqlite_prepare(st, sql, &q) != 0)
		return STORE_ERROR;
	clock_now(now, month);
	sqlite_db_bind_text(q, 1, key);
	sqlite_db_bind_text(q, 2, month);
	switch (sqlite3_step(q)) {
	case SQLITE_ROW:
		break;
	case SQLITE_DONE:
		rc = STORE_NOTFOUND;
		goto out;
	default:
		sqlite_db_log(st->db, "site lookup");
		goto out;
	}
	out->id = sqlite3_column_int64(q, 0);
	memcpy(out->key, key, strlen(key) + 1);
	out->name = sqlite_text_dup(q, 1);
	out->paused = sqlite3_column_int(q, 2) != 0;
	out->free_tier = sqlite3_column_int(q, 3) != 0;
	out->mau_cap = sqlite3_column_type(q, 4) == SQLITE_NULL ? -1 : sqlite3_column_int64(q, 4);
	out->config_id = sqlite3_column_int64(q, 5);
	out->version = sqlite3_column_int64(q, 6);
	out->document = sqlite_text_dup(q, 7);
	out->skeleton = sqlite_text_dup(q, 8);
	out->script_rules = sqlite_text_dup(q, 9);
	out->visitors = sqlite3_column_int64(q, 10);
	if (sqlite3_column_type(q, 11) == SQLITE_TEXT && sqlite3_column_bytes(q, 11) == 64)
		memcpy(out->config_sha256, sqlite3_column_text(q, 11), 65);
	rc = store_site_filled(out, sqlite3_column_type(q, 8) != SQLITE_NULL,
	    sqlite3_column_type(q, 9) != SQLITE_NULL);
out:
	sqlite_done(st, q);
	return rc;
}

/*
 * A site has a handful of domains: hand them all to fn, which decides
 * (origin_matches), so the subdomain rule lives in one place and the store
 * knows nothing of Origins.
 */
int
sqlite_store_site_domains(struct store *st, int64_t site_id, store_domain_fn fn, void *arg)
{
	static const char sql[] = "SELECT host FROM domains WHERE site_id = ?1";
	sqlite3_stmt *q = NULL;
	int rc, found = 0;

	if (sqlite_prepare(st, sql, &q) != 0)
		return STORE_ERROR;
	sqlite3_bind_int64(q, 1, site_id);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		const char *d = (const char *)sqlite3_column_text(q, 0);
		if (d != NULL && (found = fn(d, arg)) != 0)
			break;
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		sqlite_db_log(st->db, "domain lookup");
		found = STORE_ERROR;
	}
	sqlite_done(st, q);
	return found;
}

int
sqlite_store_config_answer(struct store *st, int64_t config_id, const char *region,
                           const char *lang, char **answer)
{
	static const char sql[] =
	    "SELECT answer FROM config_answers"
	    " WHERE config_id = ?1 AND region = ?2 AND language = ?3";
	sqlite3_stmt *q = NULL;
	int rc = STORE_ERROR;

	*answer = NULL;
	if (sqlite_prepare(st, sql, &q) != 0)
		return STORE_ERROR;
	sqlite3_bind_int64(q, 1, config_id);
	sqlite_db_bind_text(q, 2, region);
	sqlite_db_bind_text(q, 3, lang);
	switch (sqlite3_step(q)) {
	case SQLITE_ROW:
		if ((*answer = sqlite_text_dup(q, 0)) == NULL)
			log_error("out of memory");
		else
			rc = STORE_OK;
		break;
	case SQLITE_DONE:
		rc = STORE_NOTFOUND;
		break;
	default:
		sqlite_db_log(st->db, "config answer");
	}
	sqlite_done(st, q);
	return rc;
}

static void
bind_value(sqlite3_stmt *q, int i, const struct store_value *v)
{
	switch (v->type) {
	case SV_TEXT:
		sqlite_db_bind_text(q, i, v->text);
		break;
	case SV_INT:
		sqlite3_bind_int64(q, i, v->i);
		break;
	case SV_REAL:
		sqlite3_bind_double(q, i, v->r);
		break;
	default:
		sqlite3_bind_null(q, i);
	}
}

/*
 * The entry, its visitor in this month's set and the month's count move
 * together in one IMMEDIATE transaction (or one savepoint of a group's,
 * store_group_begin): a killed process leaves either all of them or none
 * (SQLite's WAL gives the atomicity).
 */
int
sqlite_store_consent_add(struct store *st, const struct consent_entry *e)
{
	static const char ins[] =
	    "INSERT INTO consent_log (site_id, created_at, anon_id_hash, categories,"
	    " event_type, event_action, config_id, published_version, config_version,"
	    " region, consent_model, regulation, time_to_action_ms, interaction,"
	    " preferences_opened, banner_load_time_ms, banner_position, page_url,"
	    " sdk_version, language, resolved_language, browser, os, device_type,"
	    " country, gpc, digest, builtin_sha256) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8,"
	    " ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24,"
	    " ?25, ?26, ?27, ?28)";
	static const char visitor[] =
	    "INSERT OR IGNORE INTO mau_visitors (site_id, month, anon_id_hash)"
	    " VALUES (?1, ?2, ?3)";
	static const char counter[] =
	    "INSERT INTO mau_counts (site_id, month, visitors) VALUES (?1, ?2, 1)"
	    " ON CONFLICT (site_id, month) DO UPDATE SET visitors = visitors + 1";
	sqlite3_stmt *q = NULL, *v = NULL, *c = NULL;
	char month[8];
	int rc = STORE_ERROR;

	if (e->created_at == NULL || strlen(e->created_at) < 7) {
		log_error("consent entry without its time");
		return STORE_ERROR;
	}
	memcpy(month, e->created_at, 7);
	month[7] = '\0';
	if (sqlite_prepare(st, ins, &q) != 0 || sqlite_prepare(st, visitor, &v) != 0 ||
	    sqlite_prepare(st, counter, &c) != 0)
		goto out;
	if (sqlite_write_begin(st) != 0)
		goto out;
	sqlite3_bind_int64(q, 1, e->site_id);
	sqlite_db_bind_text(q, 2, e->created_at);
	sqlite_db_bind_text(q, 3, e->anon_id_hash);
	sqlite_db_bind_text(q, 4, e->categories);
	sqlite_db_bind_text(q, 5, e->event_type);
	bind_value(q, 6, &e->event_action);
	if (e->config_id > 0)
		sqlite3_bind_int64(q, 7, e->config_id);
	sqlite3_bind_int64(q, 8, e->published_version);
	bind_value(q, 9, &e->config_version);
	bind_value(q, 10, &e->region);
	bind_value(q, 11, &e->consent_model);
	bind_value(q, 12, &e->regulation);
	bind_value(q, 13, &e->time_to_action_ms);
	bind_value(q, 14, &e->interaction);
	bind_value(q, 15, &e->preferences_opened);
	bind_value(q, 16, &e->banner_load_time_ms);
	bind_value(q, 17, &e->banner_position);
	bind_value(q, 18, &e->page_url);
	bind_value(q, 19, &e->sdk_version);
	bind_value(q, 20, &e->language);
	bind_value(q, 21, &e->resolved_language);
	sqlite_db_bind_text(q, 22, e->browser);
	sqlite_db_bind_text(q, 23, e->os);
	sqlite_db_bind_text(q, 24, e->device_type);
	sqlite_db_bind_text(q, 25, e->country);
	sqlite3_bind_int(q, 26, e->gpc != 0);
	sqlite_db_bind_text(q, 27, e->digest);
	sqlite_db_bind_text(q, 28, e->builtin_sha256);
	if (sqlite3_step(q) != SQLITE_DONE) {
		sqlite_db_log(st->db, "insert consent");
		goto rollback;
	}
	sqlite3_bind_int64(v, 1, e->site_id);
	sqlite_db_bind_text(v, 2, month);
	sqlite_db_bind_text(v, 3, e->anon_id_hash);
	if (sqlite3_step(v) != SQLITE_DONE) {
		sqlite_db_log(st->db, "insert visitor");
		goto rollback;
	}
	if (sqlite3_changes(st->db) > 0) {
		sqlite3_bind_int64(c, 1, e->site_id);
		sqlite_db_bind_text(c, 2, month);
		if (sqlite3_step(c) != SQLITE_DONE) {
			sqlite_db_log(st->db, "count visitor");
			goto rollback;
		}
	}
	if (sqlite_write_commit(st) != 0)
		goto out;
	rc = STORE_OK;
	goto out;
rollback:
	sqlite_write_undo(st);
out:
	sqlite_done(st, q);
	sqlite_done(st, v);
	sqlite_done(st, c);
	return rc;
}

/*
 * One transaction for the whole report: every record and the sync change,
 * or nothing.  category NULL keeps what the record had (COALESCE).  Only a
 * pending sync is closed: a finished one keeps its status, time and page.
 */
int
sqlite_store_scripts_report(struct store *st, int64_t site_id, const char *page_url,
                            const struct script_entry *e, size_t n,
                            const char *sync_id, const char *error)
{
	static const char upsert[] =
	    "INSERT INTO scripts (site_id, domain, category, blocked, first_seen,"
	    " last_seen, seen_count, last_src, last_page_url)"
	    " VALUES (?1, ?2, ?3, ?4, ?5, ?5, 1, ?6, ?7)"
	    " ON CONFLICT (site_id, domain) DO UPDATE SET"
	    " category = COALESCE(excluded.category, category),"
	    " blocked = excluded.blocked, last_seen = excluded.last_seen,"
	    " seen_count = seen_count + 1,"
	    " last_src = COALESCE(excluded.last_src, last_src),"
	    " last_page_url = excluded.last_page_url";
	static const char sync[] =
	    "UPDATE syncs SET status = ?1, error = ?2, page_url = ?3, finished_at = ?4"
	    " WHERE sync_id = ?5 AND site_id = ?6 AND status = 'pending'";
	sqlite3_stmt *u = NULL, *s = NULL;
	char now[32];
	int rc = STORE_ERROR;

	if (sqlite_prepare(st, upsert, &u) != 0 || sqlite_prepare(st, sync, &s) != 0)
		goto out;
	if (sqlite_write_begin(st) != 0)
		goto out;
	clock_now(now, NULL);
	for (size_t i = 0; i < n; i++) {
		sqlite3_reset(u);
		sqlite3_bind_int64(u, 1, site_id);
		sqlite_db_bind_text(u, 2, e[i].domain);
		sqlite_db_bind_text(u, 3, e[i].category);
		sqlite3_bind_int(u, 4, e[i].blocked ? 1 : 0);
		sqlite_db_bind_text(u, 5, now);
		sqlite_db_bind_text(u, 6, e[i].src);
		sqlite_db_bind_text(u, 7, page_url);
		if (sqlite3_step(u) != SQLITE_DONE) {
			sqlite_db_log(st->db, "upsert script");
			goto rollback;
		}
	}
	if (sync_id != NULL) {
		sqlite_db_bind_text(s, 1, error ? "failed" : "complete");
		sqlite_db_bind_text(s, 2, error);
		sqlite_db_bind_text(s, 3, page_url);
		sqlite_db_bind_text(s, 4, now);
		sqlite_db_bind_text(s, 5, sync_id);
		sqlite3_bind_int64(s, 6, site_id);
		if (sqlite3_step(s) != SQLITE_DONE) {
			sqlite_db_log(st->db, "close sync");
			goto rollback;
		}
	}
	if (sqlite_write_commit(st) != 0)
		goto out;
	rc = STORE_OK;
	goto out;
rollback:
	sqlite_write_undo(st);
out:
	sqlite_done(st, u);
	sqlite_done(st, s);
	return rc;
}
