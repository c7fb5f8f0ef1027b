/* pg_accounts.c: the PostgreSQL store of the dashboard's accounts, sessions, sign-in attempts and reset codes (store_account.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/nitems.h"
#include "store/pg/pg_store.h"
#include "store/store_account_sql.h"

/* The advisory lock of store_signin_begin's transaction (pg_schema.c's
 * SCHEMA_LOCK is another): one attempt reads the failures at a time. */
#define SIGNIN_LOCK "7301190418"

/* pg_change_one, for the statements below. */
#define RUN_ONE(sql, p, what) pg_change_one(st, (sql), PG_NPARAMS(p), (p), (what))
#define RUN(sql, p, what) pg_change(st, (sql), PG_NPARAMS(p), (p), NULL, (what))

/* The end of a transaction whose work returned rc: committed when
 * STORE_OK (STORE_ERROR if that fails), else rolled back; rc. */
static int
finish(struct store *st, int rc)
{
	if (rc != STORE_OK) {
		pg_rollback(st);
		return rc;
	}
	return pg_commit(st) == 0 ? STORE_OK : STORE_ERROR;
}

static int
account_exists(struct store *st, const char *name)
{
	const char *const p[] = {name};
	int64_t one;

	return pg_run_int64(st, "SELECT 1 FROM admin_accounts WHERE name = $1", 1, p, &one,
	    "account");
}

/* The roles (an object) added to the account, inside the caller's
 * transaction: STORE_OK, STORE_NOTFOUND for a key that is no site. */
static int
roles_add(struct store *st, const char *name, const cJSON *roles)
{
	static const char add[] =
	    "INSERT INTO admin_roles (account, site_key, role) VALUES ($1, $2, $3)";
	const cJSON *r;
	int rc;

	if (!store_roles_ok(roles)) {
		log_error("account %s: roles are not {\"KEY\":\"owner|editor|viewer\"}", name);
		return STORE_ERROR;
	}
	cJSON_ArrayForEach(r, roles) {
		const char *const p[] = {name, r->string, r->valuestring};
		int64_t id;

		if (strcmp(r->string, "*") != 0 && (rc = pg_site_id(st, r->string, 0, &id)) != STORE_OK)
			return rc;
		if ((rc = RUN(add, p, "role add")) != STORE_OK)
			return rc;
	}
	return STORE_OK;
}

/* The account's recovery codes replaced by the n hashes, inside the
 * caller's transaction. */
static int
recovery_set(struct store *st, const char *name, const char *const *hashes, size_t n)
{
	static const char add[] =
	    "INSERT INTO admin_recovery_codes (account, hash) VALUES ($1, $2)"
	    " ON CONFLICT DO NOTHING";
	const char *p[2] = {name, NULL};
	int rc = pg_change(st, "DELETE FROM admin_recovery_codes WHERE account = $1", 1, p, NULL,
	    "recovery codes");

	for (size_t i = 0; rc == STORE_OK && i < n; i++) {
		p[1] = hashes[i];
		rc = RUN(add, p, "recovery code add");
	}
	return rc;
}

/* Every session of the account but keep's (NULL: all) ended, inside the
 * caller's transaction. */
static int
sessions_end(struct store *st, const char *name, const char *keep)
{
	static const char sql[] =
	    "DELETE FROM admin_sessions WHERE account = $1"
	    " AND ($2::text IS NULL OR token_hash <> $2::text)";
	const char *const p[] = {name, keep};

	return RUN(sql, p, "sessions end");
}

int
pg_store_account_add(struct store *st, const char *name, const char *phc,
                     const char *totp_secret, const char *const *recovery,
                     size_t nrecovery, const cJSON *roles, int64_t now)
{
	static const char sql[] =
	    "INSERT INTO admin_accounts (name, password, totp_secret, created_at,"
	    " password_changed_at) VALUES ($1, $2, $3, $4::bigint,"
	    " CASE WHEN $2::text IS NULL THEN NULL ELSE $4::bigint END)";
	char t[24];
	const char *const p[] = {name, phc, totp_secret, pg_int_text(t, now)};
	int rc;

	if (pg_begin(st, "") != 0)
		return STORE_ERROR;
	rc = RUN(sql, p, "account add");
	if (rc == STORE_OK)
		rc = recovery_set(st, name, recovery, nrecovery);
	if (rc == STORE_OK && roles != NULL)
		rc = roles_add(st, name, roles);
	return finish(st, rc);
}

/* The roles of an account as a JSON object's text ({} when none). */
#define ROLES_OF(account) \
	"coalesce((SELECT json_object_agg(r.site_key, r.role ORDER BY r.site_key)" \
	" FROM admin_roles r WHERE r.account = " account ")::text, '{}')"

int
pg_store_account_get(struct store *st, const char *name, struct store_account *out)
{
	static const char sql[] =
	    "SELECT a.name, a.password, a.totp_secret, a.totp_confirmed,"
	    " coalesce(a.totp_last_step, -1), a.created_at, coalesce(a.password_changed_at, -1), "
	    ROLES_OF("a.name")
	    " FROM admin_accounts a WHERE a.name = $1";
	const char *const p[] = {name};
	PGresult *r = NULL;
	int rc;

	memset(out, 0, sizeof(*out));
	store_account_clear(out);
	if ((rc = pg_run(st, sql, PG_NPARAMS(p), p, &r, "account get")) != STORE_OK)
		goto out;
	if (PQntuples(r) != 1) {
		rc = STORE_NOTFOUND;
		goto out;
	}
	snprintf(out->name, sizeof(out->name), "%s", PQgetvalue(r, 0, 0));
	out->password = pg_text_dup(r, 0, 1);
	out->totp_secret = pg_text_dup(r, 0, 2);
	out->totp_confirmed = strtol(PQgetvalue(r, 0, 3), NULL, 10) != 0;
	out->totp_last_step = strtoll(PQgetvalue(r, 0, 4), NULL, 10);
	out->created_at = strtoll(PQgetvalue(r, 0, 5), NULL, 10);
	out->password_changed_at = strtoll(PQgetvalue(r, 0, 6), NULL, 10);
	out->roles = cJSON_Parse(PQgetvalue(r, 0, 7));
	if ((!PQgetisnull(r, 0, 1) && out->password == NULL) ||
	    (!PQgetisnull(r, 0, 2) && out->totp_secret == NULL) || !cJSON_IsObject(out->roles)) {
		log_error("account get: out of memory");
		store_account_clear(out);
		rc = STORE_ERROR;
	}
out:
	PQclear(r);
	return rc;
}

int
pg_store_account_count(struct store *st, int64_t *n)
{
	return pg_run_int64(st, "SELECT count(*) FROM admin_accounts", 0, NULL, n,
	    "account count");
}

static const struct store_column account_columns[] = { ACCOUNT_COLUMN_LIST };

int
pg_store_account_list(struct store *st, store_row_fn fn, void *arg)
{
	static const char sql[] =
	    "SELECT a.name AS username, " ROLES_OF("a.name") " AS roles,"
	    " (a.totp_secret IS NOT NULL)::int AS totp, a.created_at AS created_at"
	    " FROM admin_accounts a ORDER BY a.name";

	return pg_rows(st, sql, 0, NULL, account_columns, nitems(account_columns), fn, arg,
	    "account list");
}

int
pg_store_account_remove(struct store *st, const char *name)
{
	static const char *const sql[] = {
		"DELETE FROM admin_sessions WHERE account = $1",
		"DELETE FROM admin_roles WHERE account = $1",
		"DELETE FROM admin_recovery_codes WHERE account = $1",
		"DELETE FROM admin_reset_codes WHERE account = $1",
	};
	const char *const p[] = {name};
	int rc = STORE_OK;

	if (pg_begin(st, "") != 0)
		return STORE_ERROR;
	for (size_t i = 0; rc == STORE_OK && i < nitems(sql); i++)
		rc = RUN(sql[i], p, "account remove");
	if (rc == STORE_OK)
		rc = RUN_ONE("DELETE FROM admin_accounts WHERE name = $1", p, "account remove");
	return finish(st, rc);
}

/* The password set at now, the account's reset codes gone and its
 * sessions but keep's (NULL: all) ended, inside the caller's transaction. */
static int
password_set(struct store *st, const char *name, const char *phc, const char *keep,
             int64_t now)
{
	static const char sql[] =
	    "UPDATE admin_accounts SET password = $2, password_changed_at = $3::bigint"
	    " WHERE name = $1";
	char t[24];
	const char *const p[] = {name, phc, pg_int_text(t, now)};
	int rc = RUN_ONE(sql, p, "password set");

	if (rc == STORE_OK)
		rc = pg_change(st, "DELETE FROM admin_reset_codes WHERE account = $1", 1, p, NULL,
		    "reset codes");
	if (rc == STORE_OK)
		rc = sessions_end(st, name, keep);
	return rc;
}

int
pg_store_account_set_password(struct store *st, const char *name, const char *phc,
                              const char *keep_hash, int64_t now)
{
	if (pg_begin(st, "") != 0)
		return STORE_ERROR;
	return finish(st, password_set(st, name, phc, keep_hash, now));
}

/* The account's row locked first, so that two changes of its roles go one
 * after the other. */
int
pg_store_account_set_roles(struct store *st, const char *name, const cJSON *roles)
{
	const char *const p[] = {name};
	int64_t one;
	int rc;

	if (pg_begin(st, "") != 0)
		return STORE_ERROR;
	rc = pg_run_int64(st, "SELECT 1 FROM admin_accounts WHERE name = $1 FOR UPDATE",
	    PG_NPARAMS(p), p, &one, "account");
	if (rc == STORE_OK)
		rc = RUN("DELETE FROM admin_roles WHERE account = $1", p, "roles");
	if (rc == STORE_OK && roles != NULL)
		rc = roles_add(st, name, roles);
	return finish(st, rc);
}

int
pg_store_account_reset_2fa(struct store *st, const char *name, const char *totp_secret,
                           const char *const *recovery, size_t nrecovery,
                           const char *keep_hash)
{
	static const char sql[] =
	    "UPDATE admin_accounts SET totp_secret = $2, totp_confirmed = 0, totp_last_step = NULL"
	    " WHERE name = $1";
	const char *const p[] = {name, totp_secret};
	int rc;

	if (pg_begin(st, "") != 0)
		return STORE_ERROR;
	rc = RUN_ONE(sql, p, "2fa reset");
	if (rc == STORE_OK)
		rc = recovery_set(st, name, recovery, nrecovery);
	if (rc == STORE_OK)
		rc = sessions_end(st, name, keep_hash);
	return finish(st, rc);
}

/* One statement decides (the row's lock orders two of them): the second
 * of two requests with the same step finds totp_last_step at it. */
int
pg_store_account_totp_accept(struct store *st, const char *name, int64_t step)
{
	static const char sql[] =
	    "UPDATE admin_accounts SET totp_last_step = $2::bigint, totp_confirmed = 1"
	    " WHERE name = $1 AND totp_secret IS NOT NULL"
	    " AND (totp_last_step IS NULL OR totp_last_step < $2::bigint)";
	char t[24];
	const char *const p[] = {name, pg_int_text(t, step)};
	int rc = RUN_ONE(sql, p, "totp accept");

	if (rc == STORE_NOTFOUND)
		rc = account_exists(st, name) == STORE_OK ? STORE_EXISTS : STORE_NOTFOUND;
	return rc;
}

int
pg_store_account_recovery_use(struct store *st, const char *name, const char *hash,
                              int64_t now)
{
	static const char sql[] =
	    "UPDATE admin_recovery_codes SET used_at = $3::bigint"
	    " WHERE account = $1 AND hash = $2 AND used_at IS NULL";
	char t[24];
	const char *const p[] = {name, hash, pg_int_text(t, now)};

	return RUN_ONE(sql, p, "recovery code use");
}

int
pg_store_account_recovery_left(struct store *st, const char *name, int64_t *n)
{
	static const char sql[] =
	    "SELECT (SELECT count(*) FROM admin_recovery_codes c"
	    "  WHERE c.account = a.name AND c.used_at IS NULL)"
	    " FROM admin_accounts a WHERE a.name = $1";
	const char *const p[] = {name};

	return pg_run_int64(st, sql, PG_NPARAMS(p), p, n, "recovery codes left");
}

int
pg_store_reset_add(struct store *st, const char *name, const char *hash, int64_t expires)
{
	static const char add[] =
	    "INSERT INTO admin_reset_codes (account, hash, expires) VALUES ($1, $2, $3::bigint)";
	char t[24];
	const char *const p[] = {name, hash, pg_int_text(t, expires)};
	int rc;

	if (pg_begin(st, "") != 0)
		return STORE_ERROR;
	rc = account_exists(st, name);
	if (rc == STORE_OK)
		rc = pg_change(st, "DELETE FROM admin_reset_codes WHERE account = $1", 1, p, NULL,
		    "reset codes");
	if (rc == STORE_OK)
		rc = RUN(add, p, "reset code add");
	return finish(st, rc);
}

int
pg_store_reset_use(struct store *st, const char *name, const char *hash, const char *phc,
                   int64_t now)
{
	static const char use[] =
	    "DELETE FROM admin_reset_codes WHERE account = $1 AND hash = $2"
	    " AND expires > $3::bigint";
	char t[24];
	const char *const p[] = {name, hash, pg_int_text(t, now)};
	int rc;

	if (pg_begin(st, "") != 0)
		return STORE_ERROR;
	rc = RUN_ONE(use, p, "reset code use");
	if (rc == STORE_OK)
		rc = password_set(st, name, phc, NULL, now);
	return finish(st, rc);
}

/* One statement: no session is added for an account that is not there. */
int
pg_store_session_add(struct store *st, const struct store_session *s, int64_t now)
{
	static const char sql[] =
	    "INSERT INTO admin_sessions (token_hash, id, account, csrf, created_at, last_seen,"
	    " authenticated_at, address)"
	    " SELECT $1, $2, name, $3, $4::bigint, $4::bigint, $4::bigint, $5"
	    " FROM admin_accounts WHERE name = $6";
	char t[24];
	const char *const p[] = {s->token_hash, s->id, s->csrf, pg_int_text(t, now), s->address,
	                         s->account};

	return RUN_ONE(sql, p, "session add");
}

int
pg_store_session_get(struct store *st, const char *token_hash, int64_t now, int64_t idle,
                     int64_t absolute, struct store_session *out)
{
	static const char expire[] =
	    "DELETE FROM admin_sessions WHERE token_hash = $1"
	    " AND (last_seen <= $2::bigint - $3::bigint OR created_at <= $2::bigint - $4::bigint)";
	static const char seen[] =
	    "UPDATE admin_sessions SET last_seen = $2::bigint WHERE token_hash = $1"
	    " RETURNING token_hash, id, account, csrf, created_at, last_seen, authenticated_at,"
	    " address";
	char t[3][24];
	const char *const p[] = {token_hash, pg_int_text(t[0], now), pg_int_text(t[1], idle),
	                         pg_int_text(t[2], absolute)};
	PGresult *r = NULL;
	int64_t gone = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	if (pg_begin(st, "") != 0)
		return STORE_ERROR;
	rc = pg_change(st, expire, PG_NPARAMS(p), p, &gone, "session expiry");
	if (rc == STORE_OK && gone > 0)
		return pg_commit(st) == 0 ? STORE_NOTFOUND : STORE_ERROR;
	if (rc == STORE_OK)
		rc = pg_run(st, seen, 2, p, &r, "session seen");
	if (rc == STORE_OK && PQntuples(r) != 1)
		rc = STORE_NOTFOUND;
	if (rc == STORE_OK) {
		snprintf(out->token_hash, sizeof(out->token_hash), "%s", PQgetvalue(r, 0, 0));
		snprintf(out->id, sizeof(out->id), "%s", PQgetvalue(r, 0, 1));
		snprintf(out->account, sizeof(out->account), "%s", PQgetvalue(r, 0, 2));
		snprintf(out->csrf, sizeof(out->csrf), "%s", PQgetvalue(r, 0, 3));
		out->created_at = strtoll(PQgetvalue(r, 0, 4), NULL, 10);
		out->last_seen = strtoll(PQgetvalue(r, 0, 5), NULL, 10);
		out->authenticated_at = strtoll(PQgetvalue(r, 0, 6), NULL, 10);
		snprintf(out->address, sizeof(out->address), "%s", PQgetvalue(r, 0, 7));
	}
	PQclear(r);
	if (rc != STORE_OK)
		memset(out, 0, sizeof(*out));
	return finish(st, rc);
}

int
pg_store_session_reauth(struct store *st, const char *token_hash, int64_t now)
{
	char t[24];
	const char *const p[] = {token_hash, pg_int_text(t, now)};

	return RUN_ONE("UPDATE admin_sessions SET authenticated_at = $2::bigint"
	    " WHERE token_hash = $1", p, "session reauth");
}

int
pg_store_session_delete(struct store *st, const char *token_hash)
{
	const char *const p[] = {token_hash};

	return RUN_ONE("DELETE FROM admin_sessions WHERE token_hash = $1", p, "session delete");
}

int
pg_store_session_end(struct store *st, const char *account, const char *id)
{
	const char *const p[] = {account, id};

	return RUN_ONE("DELETE FROM admin_sessions WHERE account = $1 AND id = $2", p,
	    "session end");
}

static const struct store_column session_columns[] = { SESSION_COLUMN_LIST };

int
pg_store_session_list(struct store *st, const char *account, const char *current_hash,
                      store_row_fn fn, void *arg)
{
	static const char sql[] =
	    "SELECT id AS id, created_at AS created_at, last_seen AS last_seen,"
	    " address AS address, coalesce(token_hash = $2::text, false)::int AS current"
	    " FROM admin_sessions WHERE account = $1 ORDER BY created_at DESC, id";
	const char *const p[] = {account, current_hash};

	return pg_rows(st, sql, PG_NPARAMS(p), p, session_columns, nitems(session_columns), fn,
	    arg, "session list");
}

/* The failures of sql's $1 (a name or an address) after $2 into *f. */
static int
failures(struct store *st, const char *sql, const char *who, int64_t since,
         struct store_failures *f)
{
	char t[24];
	const char *const p[] = {who, pg_int_text(t, since)};
	PGresult *r = NULL;
	int rc;

	memset(f, 0, sizeof(*f));
	if (who == NULL)
		return STORE_OK;
	if ((rc = pg_run(st, sql, PG_NPARAMS(p), p, &r, "sign-in failures")) == STORE_OK) {
		if (PQntuples(r) == 1) {
			f->count = (unsigned)strtoul(PQgetvalue(r, 0, 0), NULL, 10);
			f->first = (time_t)strtoll(PQgetvalue(r, 0, 1), NULL, 10);
			f->latest = (time_t)strtoll(PQgetvalue(r, 0, 2), NULL, 10);
		} else {
			rc = STORE_ERROR;
		}
	}
	PQclear(r);
	return rc;
}

/* The transaction's advisory lock is SQLite's BEGIN IMMEDIATE here: the
 * next attempt reads after this one's "pending" row is committed. */
int
pg_store_signin_begin(struct store *st, const char *typed, const char *address, int64_t now,
                      int64_t window, struct store_failures *by_name,
                      struct store_failures *by_address, int64_t *attempt)
{
	static const char by_name_sql[] =
	    "SELECT count(*), coalesce(min(at), 0), coalesce(max(at), 0) FROM admin_signins"
	    " WHERE username = $1 AND at > $2::bigint AND result IN " SIGNIN_FAILED;
	static const char by_address_sql[] =
	    "SELECT count(*), coalesce(min(at), 0), coalesce(max(at), 0) FROM admin_signins"
	    " WHERE address = $1 AND at > $2::bigint AND result IN " SIGNIN_FAILED;
	static const char add[] =
	    "INSERT INTO admin_signins (at, username, address, result)"
	    " VALUES ($1::bigint, $2, $3, 'pending') RETURNING id";
	char name[STORE_ATTEMPT_NAME_MAX + 1], addr[STORE_ADDRESS_MAX + 1], t[24];
	const char *const p[] = {pg_int_text(t, now), name, address != NULL ? addr : NULL};
	int rc;

	store_attempt_name(typed, name);
	if (address != NULL)
		store_attempt_name(address, addr);
	if (pg_begin(st, "") != 0)
		return STORE_ERROR;
	rc = pg_run(st, "SELECT pg_advisory_xact_lock(" SIGNIN_LOCK ")", 0, NULL, NULL,
	    "sign-in lock");
	if (rc == STORE_OK)
		rc = failures(st, by_name_sql, name, now - window, by_name);
	if (rc == STORE_OK)
		rc = failures(st, by_address_sql, p[2], now - window, by_address);
	if (rc == STORE_OK)
		rc = pg_run_int64(st, add, PG_NPARAMS(p), p, attempt, "sign-in attempt");
	return finish(st, rc);
}

int
pg_store_signin_record(struct store *st, int64_t attempt, const char *result)
{
	char t[24];
	const char *const p[] = {pg_int_text(t, attempt), result};

	return RUN_ONE("UPDATE admin_signins SET result = $2 WHERE id = $1::bigint", p,
	    "sign-in result");
}

static const struct store_column signin_columns[] = { SIGNIN_COLUMN_LIST };

int
pg_store_signin_list(struct store *st, int64_t since, store_row_fn fn, void *arg)
{
	static const char sql[] =
	    "SELECT at AS at, username AS username, address AS address, result AS result"
	    " FROM admin_signins WHERE at >= $1::bigint ORDER BY id DESC";
	char t[24];
	const char *const p[] = {pg_int_text(t, since)};

	return pg_rows(st, sql, PG_NPARAMS(p), p, signin_columns, nitems(signin_columns), fn,
	    arg, "sign-in list");
}

int
pg_store_account_purge(struct store *st, int64_t now)
{
	static const char *const sql[] = {
		"DELETE FROM admin_signins WHERE at < $1::bigint",
		"DELETE FROM admin_sessions WHERE created_at < $1::bigint",
		"DELETE FROM admin_reset_codes WHERE expires <= $2::bigint",
	};
	char t[2][24];
	const char *const p[] = {pg_int_text(t[0], now - STORE_ACCOUNT_KEEP),
	                         pg_int_text(t[1], now)};
	int rc = STORE_OK;

	if (pg_begin(st, "") != 0)
		return STORE_ERROR;
	for (size_t i = 0; rc == STORE_OK && i < nitems(sql); i++)
		rc = pg_change(st, sql[i], i < 2 ? 1 : 2, p, NULL, "account purge");
	return finish(st, rc);
}
