/* sqlite_accounts.c: the SQLite store of the dashboard's accounts, sessions, sign-in attempts and reset codes (store_account.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/log.h"
#include "base/nitems.h"
#include "store/sqlite/sqlite_store.h"
#include "store/store_account_sql.h"

/*
 * sql prepared in *q with its parameters bound in order from the
 * arguments, one a character of types: 't' a const char * (NULL: SQL
 * NULL), 'i' an int64_t.  0, or -1 (reported) with *q NULL.
 */
static int
vprep(struct store *st, const char *sql, sqlite3_stmt **q, const char *types, va_list ap)
{
	if (sqlite_db_prepare(st->db, sql, q) != 0)
		return -1;
	for (int i = 0; types[i] != '\0'; i++)
		if (types[i] == 'i')
			sqlite3_bind_int64(*q, i + 1, va_arg(ap, int64_t));
		else
			sqlite_db_bind_text(*q, i + 1, va_arg(ap, const char *));
	return 0;
}

static int
prep(struct store *st, const char *sql, sqlite3_stmt **q, const char *types, ...)
{
	va_list ap;
	int rc;

	va_start(ap, types);
	rc = vprep(st, sql, q, types, ap);
	va_end(ap);
	return rc;
}

/*
 * Run one statement that gives no rows (prep's arguments): STORE_OK with
 * *changed (may be NULL) the rows it changed, STORE_EXISTS for a taken
 * key, STORE_ERROR.
 */
static int
run(struct store *st, int64_t *changed, const char *what, const char *sql, const char *types, ...)
{
	sqlite3_stmt *q = NULL;
	va_list ap;
	int rc;

	va_start(ap, types);
	rc = vprep(st, sql, &q, types, ap);
	va_end(ap);
	if (rc != 0)
		return STORE_ERROR;
	rc = sqlite_change(st, q, what);
	if (changed != NULL)
		*changed = sqlite3_changes(st->db);
	sqlite3_finalize(q);
	return rc;
}

/* run(), and STORE_NOTFOUND when it changed no row. */
#define RUN_ONE(rc, ...) do { \
	int64_t n_ = 0; \
	(rc) = run(st, &n_, __VA_ARGS__); \
	if ((rc) == STORE_OK && n_ == 0) \
		(rc) = STORE_NOTFOUND; \
} while (0)

/* Whether the account exists (inside the caller's transaction, if any):
 * STORE_OK, STORE_NOTFOUND, STORE_ERROR. */
static int
account_exists(struct store *st, const char *name)
{
	static const char sql[] = "SELECT 1 FROM admin_accounts WHERE name = ?1";
	sqlite3_stmt *q = NULL;
	int64_t one;
	int rc;

	if (prep(st, sql, &q, "t", name) != 0)
		return STORE_ERROR;
	rc = sqlite_step_int64(st, q, &one, "account");
	sqlite3_finalize(q);
	return rc;
}

/* The roles (an object) added to the account, inside the caller's
 * transaction: STORE_OK, STORE_NOTFOUND for a key that is no site. */
static int
roles_add(struct store *st, const char *name, const cJSON *roles)
{
	static const char site[] = "SELECT 1 FROM sites WHERE site_key = ?1";
	static const char add[] =
	    "INSERT INTO admin_roles (account, site_key, role) VALUES (?1, ?2, ?3)";
	const cJSON *r;
	int rc;

	if (!store_roles_ok(roles)) {
		log_error("account %s: roles are not {\"KEY\":\"owner|editor|viewer\"}", name);
		return STORE_ERROR;
	}
	cJSON_ArrayForEach(r, roles) {
		if (strcmp(r->string, "*") != 0) {
			sqlite3_stmt *q = NULL;
			int64_t one;

			if (prep(st, site, &q, "t", r->string) != 0)
				return STORE_ERROR;
			rc = sqlite_step_int64(st, q, &one, "role's site");
			sqlite3_finalize(q);
			if (rc != STORE_OK)
				return rc;
		}
		if ((rc = run(st, NULL, "role add", add, "ttt", name, r->string,
		    r->valuestring)) != STORE_OK)
			return rc;
	}
	return STORE_OK;
}

/* The account's recovery codes replaced by the n hashes, inside the
 * caller's transaction. */
static int
recovery_set(struct store *st, const char *name, const char *const *hashes, size_t n)
{
	static const char del[] = "DELETE FROM admin_recovery_codes WHERE account = ?1";
	static const char add[] =
	    "INSERT OR IGNORE INTO admin_recovery_codes (account, hash) VALUES (?1, ?2)";
	int rc = run(st, NULL, "recovery codes", del, "t", name);

	for (size_t i = 0; rc == STORE_OK && i < n; i++)
		rc = run(st, NULL, "recovery code add", add, "tt", name, hashes[i]);
	return rc;
}

/* Every session of the account but keep's (NULL: all) ended, inside the
 * caller's transaction. */
static int
sessions_end(struct store *st, const char *name, const char *keep)
{
	static const char sql[] =
	    "DELETE FROM admin_sessions WHERE account = ?1 AND (?2 IS NULL OR token_hash <> ?2)";

	return run(st, NULL, "sessions end", sql, "tt", name, keep);
}

/* The end of a transaction whose work returned rc: committed when
 * STORE_OK (STORE_ERROR if that fails), else rolled back; rc. */
static int
finish(struct store *st, int rc)
{
	if (rc != STORE_OK) {
		sqlite_db_rollback(st->db);
		return rc;
	}
	return sqlite_db_commit(st->db) == 0 ? STORE_OK : STORE_ERROR;
}

int
sqlite_store_account_add(struct store *st, const char *name, const char *phc,
                         const char *totp_secret, const char *const *recovery,
                         size_t nrecovery, const cJSON *roles, int64_t now)
{
	static const char sql[] =
	    "INSERT INTO admin_accounts (name, password, totp_secret, created_at,"
	    " password_changed_at) VALUES (?1, ?2, ?3, ?4, CASE WHEN ?2 IS NULL THEN NULL ELSE ?4 END)";
	int rc;

	if (sqlite_db_begin(st->db) != 0)
		return STORE_ERROR;
	rc = run(st, NULL, "account add", sql, "ttti", name, phc, totp_secret, now);
	if (rc == STORE_OK)
		rc = recovery_set(st, name, recovery, nrecovery);
	if (rc == STORE_OK && roles != NULL)
		rc = roles_add(st, name, roles);
	return finish(st, rc);
}

int
sqlite_store_account_get(struct store *st, const char *name, struct store_account *out)
{
	static const char sql[] =
	    "SELECT a.name, a.password, a.totp_secret, a.totp_confirmed,"
	    " coalesce(a.totp_last_step, -1), a.created_at, coalesce(a.password_changed_at, -1),"
	    " (SELECT json_group_object(r.site_key, r.role) FROM admin_roles r"
	    "  WHERE r.account = a.name)"
	    " FROM admin_accounts a WHERE a.name = ?1";
	sqlite3_stmt *q = NULL;
	const char *roles;
	int rc = STORE_ERROR, step;

	memset(out, 0, sizeof(*out));
	store_account_clear(out);
	if (prep(st, sql, &q, "t", name) != 0)
		return STORE_ERROR;
	if ((step = sqlite3_step(q)) != SQLITE_ROW) {
		if (step == SQLITE_DONE)
			rc = STORE_NOTFOUND;
		else
			sqlite_db_log(st->db, "account get");
		goto out;
	}
	snprintf(out->name, sizeof(out->name), "%s", (const char *)sqlite3_column_text(q, 0));
	out->password = sqlite_text_dup(q, 1);
	out->totp_secret = sqlite_text_dup(q, 2);
	out->totp_confirmed = sqlite3_column_int(q, 3) != 0;
	out->totp_last_step = sqlite3_column_int64(q, 4);
	out->created_at = sqlite3_column_int64(q, 5);
	out->password_changed_at = sqlite3_column_int64(q, 6);
	roles = (const char *)sqlite3_column_text(q, 7);
	out->roles = cJSON_Parse(roles != NULL ? roles : "{}");
	if ((sqlite3_column_type(q, 1) != SQLITE_NULL && out->password == NULL) ||
	    (sqlite3_column_type(q, 2) != SQLITE_NULL && out->totp_secret == NULL) ||
	    !cJSON_IsObject(out->roles)) {
		log_error("account get: out of memory");
		store_account_clear(out);
		goto out;
	}
	rc = STORE_OK;
out:
	sqlite3_finalize(q);
	return rc;
}

int
sqlite_store_account_count(struct store *st, int64_t *n)
{
	sqlite3_stmt *q = NULL;
	int rc;

	if (prep(st, "SELECT count(*) FROM admin_accounts", &q, "") != 0)
		return STORE_ERROR;
	rc = sqlite_step_int64(st, q, n, "account count");
	sqlite3_finalize(q);
	return rc;
}

static const struct store_column account_columns[] = { ACCOUNT_COLUMN_LIST };

int
sqlite_store_account_list(struct store *st, store_row_fn fn, void *arg)
{
	static const char sql[] =
	    "SELECT a.name AS username,"
	    " (SELECT json_group_object(r.site_key, r.role) FROM admin_roles r"
	    "  WHERE r.account = a.name) AS roles,"
	    " a.totp_secret IS NOT NULL AS totp, a.created_at AS created_at"
	    " FROM admin_accounts a ORDER BY a.name";
	sqlite3_stmt *q = NULL;
	int rc;

	if (prep(st, sql, &q, "") != 0)
		return STORE_ERROR;
	rc = sqlite_walk(st, q, account_columns, nitems(account_columns), fn, arg, "account list");
	sqlite3_finalize(q);
	return rc;
}

int
sqlite_store_account_remove(struct store *st, const char *name)
{
	static const char *const sql[] = {
		"DELETE FROM admin_sessions WHERE account = ?1",
		"DELETE FROM admin_roles WHERE account = ?1",
		"DELETE FROM admin_recovery_codes WHERE account = ?1",
		"DELETE FROM admin_reset_codes WHERE account = ?1",
	};
	int rc = STORE_OK;

	if (sqlite_db_begin(st->db) != 0)
		return STORE_ERROR;
	for (size_t i = 0; rc == STORE_OK && i < nitems(sql); i++)
		rc = run(st, NULL, "account remove", sql[i], "t", name);
	if (rc == STORE_OK)
		RUN_ONE(rc, "account remove", "DELETE FROM admin_accounts WHERE name = ?1", "t", name);
	return finish(st, rc);
}

/* The password set at now, the account's reset codes gone and its
 * sessions but keep's (NULL: all) ended, inside the caller's transaction. */
static int
password_set(struct store *st, const char *name, const char *phc, const char *keep,
             int64_t now)
{
	static const char sql[] =
	    "UPDATE admin_accounts SET password = ?2, password_changed_at = ?3 WHERE name = ?1";
	int rc;

	RUN_ONE(rc, "password set", sql, "tti", name, phc, now);
	if (rc == STORE_OK)
		rc = run(st, NULL, "reset codes", "DELETE FROM admin_reset_codes WHERE account = ?1",
		    "t", name);
	if (rc == STORE_OK)
		rc = sessions_end(st, name, keep);
	return rc;
}

int
sqlite_store_account_set_password(struct store *st, const char *name, const char *phc,
                                  const char *keep_hash, int64_t now)
{
	if (sqlite_db_begin(st->db) != 0)
		return STORE_ERROR;
	return finish(st, password_set(st, name, phc, keep_hash, now));
}

int
sqlite_store_account_set_roles(struct store *st, const char *name, const cJSON *roles)
{
	int rc;

	if (sqlite_db_begin(st->db) != 0)
		return STORE_ERROR;
	rc = account_exists(st, name);
	if (rc == STORE_OK)
		rc = run(st, NULL, "roles", "DELETE FROM admin_roles WHERE account = ?1", "t", name);
	if (rc == STORE_OK && roles != NULL)
		rc = roles_add(st, name, roles);
	return finish(st, rc);
}

int
sqlite_store_account_reset_2fa(struct store *st, const char *name, const char *totp_secret,
                               const char *const *recovery, size_t nrecovery,
                               const char *keep_hash)
{
	static const char sql[] =
	    "UPDATE admin_accounts SET totp_secret = ?2, totp_confirmed = 0, totp_last_step = NULL"
	    " WHERE name = ?1";
	int rc;

	if (sqlite_db_begin(st->db) != 0)
		return STORE_ERROR;
	RUN_ONE(rc, "2fa reset", sql, "tt", name, totp_secret);
	if (rc == STORE_OK)
		rc = recovery_set(st, name, recovery, nrecovery);
	if (rc == STORE_OK)
		rc = sessions_end(st, name, keep_hash);
	return finish(st, rc);
}

/* One statement decides: of two requests with the same step, the second
 * finds totp_last_step already at it and changes nothing. */
int
sqlite_store_account_totp_accept(struct store *st, const char *name, int64_t step)
{
	static const char sql[] =
	    "UPDATE admin_accounts SET totp_last_step = ?2, totp_confirmed = 1"
	    " WHERE name = ?1 AND totp_secret IS NOT NULL"
	    " AND (totp_last_step IS NULL OR totp_last_step < ?2)";
	int rc;

	RUN_ONE(rc, "totp accept", sql, "ti", name, step);
	if (rc == STORE_NOTFOUND)
		rc = account_exists(st, name) == STORE_OK ? STORE_EXISTS : STORE_NOTFOUND;
	return rc;
}

int
sqlite_store_account_recovery_use(struct store *st, const char *name, const char *hash,
                                  int64_t now)
{
	static const char sql[] =
	    "UPDATE admin_recovery_codes SET used_at = ?3"
	    " WHERE account = ?1 AND hash = ?2 AND used_at IS NULL";
	int rc;

	RUN_ONE(rc, "recovery code use", sql, "tti", name, hash, now);
	return rc;
}

int
sqlite_store_account_recovery_left(struct store *st, const char *name, int64_t *n)
{
	static const char sql[] =
	    "SELECT (SELECT count(*) FROM admin_recovery_codes c"
	    "  WHERE c.account = a.name AND c.used_at IS NULL)"
	    " FROM admin_accounts a WHERE a.name = ?1";
	sqlite3_stmt *q = NULL;
	int rc;

	if (prep(st, sql, &q, "t", name) != 0)
		return STORE_ERROR;
	rc = sqlite_step_int64(st, q, n, "recovery codes left");
	sqlite3_finalize(q);
	return rc;
}

int
sqlite_store_reset_add(struct store *st, const char *name, const char *hash, int64_t expires)
{
	static const char add[] =
	    "INSERT INTO admin_reset_codes (account, hash, expires) VALUES (?1, ?2, ?3)";
	int rc;

	if (sqlite_db_begin(st->db) != 0)
		return STORE_ERROR;
	rc = account_exists(st, name);
	if (rc == STORE_OK)
		rc = run(st, NULL, "reset codes", "DELETE FROM admin_reset_codes WHERE account = ?1",
		    "t", name);
	if (rc == STORE_OK)
		rc = run(st, NULL, "reset code add", add, "tti", name, hash, expires);
	return finish(st, rc);
}

int
sqlite_store_reset_use(struct store *st, const char *name, const char *hash, const char *phc,
                       int64_t now)
{
	static const char use[] =
	    "DELETE FROM admin_reset_codes WHERE account = ?1 AND hash = ?2 AND expires > ?3";
	int rc;

	if (sqlite_db_begin(st->db) != 0)
		return STORE_ERROR;
	RUN_ONE(rc, "reset code use", use, "tti", name, hash, now);
	if (rc == STORE_OK)
		rc = password_set(st, name, phc, NULL, now);
	return finish(st, rc);
}

/* One statement: no session is added for an account that is not there. */
int
sqlite_store_session_add(struct store *st, const struct store_session *s, int64_t now)
{
	static const char sql[] =
	    "INSERT INTO admin_sessions (token_hash, id, account, csrf, created_at, last_seen,"
	    " authenticated_at, address)"
	    " SELECT ?1, ?2, name, ?3, ?4, ?4, ?4, ?5 FROM admin_accounts WHERE name = ?6";
	int rc;

	RUN_ONE(rc, "session add", sql, "tttitt", s->token_hash, s->id, s->csrf, now, s->address,
	    s->account);
	return rc;
}

/* The text of column i into out (size n), "" for NULL. */
static void
column_copy(sqlite3_stmt *q, int i, char *out, size_t n)
{
	const char *t = (const char *)sqlite3_column_text(q, i);

	snprintf(out, n, "%s", t != NULL ? t : "");
}

int
sqlite_store_session_get(struct store *st, const char *token_hash, int64_t now, int64_t idle,
                         int64_t absolute, struct store_session *out)
{
	static const char sql[] =
	    "SELECT token_hash, id, account, csrf, created_at, last_seen, authenticated_at, address"
	    " FROM admin_sessions WHERE token_hash = ?1";
	static const char expire[] =
	    "DELETE FROM admin_sessions WHERE token_hash = ?1"
	    " AND (last_seen <= ?2 - ?3 OR created_at <= ?2 - ?4)";
	static const char seen[] =
	    "UPDATE admin_sessions SET last_seen = ?2 WHERE token_hash = ?1";
	sqlite3_stmt *q = NULL;
	int64_t gone = 0;
	int rc, step;

	memset(out, 0, sizeof(*out));
	if (sqlite_db_begin(st->db) != 0)
		return STORE_ERROR;
	rc = run(st, &gone, "session expiry", expire, "tiii", token_hash, now, idle, absolute);
	if (rc == STORE_OK && gone > 0)
		rc = STORE_NOTFOUND;
	if (rc == STORE_OK)
		RUN_ONE(rc, "session seen", seen, "ti", token_hash, now);
	if (rc == STORE_OK && prep(st, sql, &q, "t", token_hash) != 0)
		rc = STORE_ERROR;
	if (rc == STORE_OK) {
		if ((step = sqlite3_step(q)) == SQLITE_ROW) {
			column_copy(q, 0, out->token_hash, sizeof(out->token_hash));
			column_copy(q, 1, out->id, sizeof(out->id));
			column_copy(q, 2, out->account, sizeof(out->account));
			column_copy(q, 3, out->csrf, sizeof(out->csrf));
			out->created_at = sqlite3_column_int64(q, 4);
			out->last_seen = sqlite3_column_int64(q, 5);
			out->authenticated_at = sqlite3_column_int64(q, 6);
			column_copy(q, 7, out->address, sizeof(out->address));
		} else {
			sqlite_db_log(st->db, "session get");
			rc = STORE_ERROR;
		}
		sqlite3_finalize(q);
	}
	/* An expired session's deletion is kept: commit it, answer NOTFOUND. */
	if (rc == STORE_NOTFOUND && gone > 0)
		return sqlite_db_commit(st->db) == 0 ? STORE_NOTFOUND : STORE_ERROR;
	if (rc != STORE_OK)
		memset(out, 0, sizeof(*out));
	return finish(st, rc);
}

int
sqlite_store_session_reauth(struct store *st, const char *token_hash, int64_t now)
{
	int rc;

	RUN_ONE(rc, "session reauth",
	    "UPDATE admin_sessions SET authenticated_at = ?2 WHERE token_hash = ?1", "ti",
	    token_hash, now);
	return rc;
}

int
sqlite_store_session_delete(struct store *st, const char *token_hash)
{
	int rc;

	RUN_ONE(rc, "session delete", "DELETE FROM admin_sessions WHERE token_hash = ?1", "t",
	    token_hash);
	return rc;
}

int
sqlite_store_session_end(struct store *st, const char *account, const char *id)
{
	int rc;

	RUN_ONE(rc, "session end", "DELETE FROM admin_sessions WHERE account = ?1 AND id = ?2",
	    "tt", account, id);
	return rc;
}

static const struct store_column session_columns[] = { SESSION_COLUMN_LIST };

int
sqlite_store_session_list(struct store *st, const char *account, const char *current_hash,
                          store_row_fn fn, void *arg)
{
	static const char sql[] =
	    "SELECT id AS id, created_at AS created_at, last_seen AS last_seen,"
	    " address AS address, coalesce(token_hash = ?2, 0) AS current"
	    " FROM admin_sessions WHERE account = ?1 ORDER BY created_at DESC, id";
	sqlite3_stmt *q = NULL;
	int rc;

	if (prep(st, sql, &q, "tt", account, current_hash) != 0)
		return STORE_ERROR;
	rc = sqlite_walk(st, q, session_columns, nitems(session_columns), fn, arg, "session list");
	sqlite3_finalize(q);
	return rc;
}

/* The failures of sql's ?1 (a name or an address) since ?2 into *f. */
static int
failures(struct store *st, const char *sql, const char *who, int64_t since,
         struct store_failures *f)
{
	sqlite3_stmt *q = NULL;
	int rc = STORE_ERROR;

	memset(f, 0, sizeof(*f));
	if (who == NULL)
		return STORE_OK;
	if (prep(st, sql, &q, "ti", who, since) != 0)
		return STORE_ERROR;
	if (sqlite3_step(q) == SQLITE_ROW) {
		f->count = (unsigned)sqlite3_column_int64(q, 0);
		f->first = (time_t)sqlite3_column_int64(q, 1);
		f->latest = (time_t)sqlite3_column_int64(q, 2);
		rc = STORE_OK;
	} else {
		sqlite_db_log(st->db, "sign-in failures");
	}
	sqlite3_finalize(q);
	return rc;
}

/* BEGIN IMMEDIATE takes the write lock before the reads: the next attempt
 * reads after this one's "pending" row is in. */
int
sqlite_store_signin_begin(struct store *st, const char *typed, const char *address, int64_t now,
                          int64_t window, struct store_failures *by_name,
                          struct store_failures *by_address, int64_t *attempt)
{
	static const char by_name_sql[] =
	    "SELECT count(*), coalesce(min(at), 0), coalesce(max(at), 0) FROM admin_signins"
	    " WHERE username = ?1 AND at > ?2 AND result IN " SIGNIN_FAILED;
	static const char by_address_sql[] =
	    "SELECT count(*), coalesce(min(at), 0), coalesce(max(at), 0) FROM admin_signins"
	    " WHERE address = ?1 AND at > ?2 AND result IN " SIGNIN_FAILED;
	static const char add[] =
	    "INSERT INTO admin_signins (at, username, address, result) VALUES (?1, ?2, ?3, 'pending')";
	char name[STORE_ATTEMPT_NAME_MAX + 1];
	char addr[STORE_ADDRESS_MAX + 1];
	int rc;

	store_attempt_name(typed, name);
	if (address != NULL)
		store_attempt_name(address, addr);
	if (sqlite_db_begin(st->db) != 0)
		return STORE_ERROR;
	rc = failures(st, by_name_sql, name, now - window, by_name);
	if (rc == STORE_OK)
		rc = failures(st, by_address_sql, address != NULL ? addr : NULL, now - window,
		    by_address);
	if (rc == STORE_OK)
		rc = run(st, NULL, "sign-in attempt", add, "itt", now, name,
		    address != NULL ? addr : NULL);
	if (rc == STORE_OK)
		*attempt = sqlite3_last_insert_rowid(st->db);
	return finish(st, rc);
}

int
sqlite_store_signin_record(struct store *st, int64_t attempt, const char *result)
{
	int rc;

	RUN_ONE(rc, "sign-in result", "UPDATE admin_signins SET result = ?2 WHERE id = ?1", "it",
	    attempt, result);
	return rc;
}

static const struct store_column signin_columns[] = { SIGNIN_COLUMN_LIST };

int
sqlite_store_signin_list(struct store *st, int64_t since, store_row_fn fn, void *arg)
{
	static const char sql[] =
	    "SELECT at AS at, username AS username, address AS address, result AS result"
	    " FROM admin_signins WHERE at >= ?1 ORDER BY id DESC";
	sqlite3_stmt *q = NULL;
	int rc;

	if (prep(st, sql, &q, "i", since) != 0)
		return STORE_ERROR;
	rc = sqlite_walk(st, q, signin_columns, nitems(signin_columns), fn, arg, "sign-in list");
	sqlite3_finalize(q);
	return rc;
}

int
sqlite_store_account_purge(struct store *st, int64_t now)
{
	static const char *const sql[] = {
		"DELETE FROM admin_signins WHERE at < ?1",
		"DELETE FROM admin_sessions WHERE created_at < ?1",
		"DELETE FROM admin_reset_codes WHERE expires <= ?2",
	};
	int rc = STORE_OK;

	if (sqlite_db_begin(st->db) != 0)
		return STORE_ERROR;
	for (size_t i = 0; rc == STORE_OK && i < nitems(sql); i++)
		rc = run(st, NULL, "account purge", sql[i], "ii", now - STORE_ACCOUNT_KEEP, now);
	return finish(st, rc);
}
