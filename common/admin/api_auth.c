/* api_auth.c: setup, signing in and out, re-authentication, and an account's own password and sessions (ADMIN.md 2-4). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "admin/api.h"
#include "admin/enrol.h"
#include "admin/install.h"
#include "admin/password.h"
#include "admin/setup_token.h"
#include "admin/throttle.h"
#include "admin/token.h"
#include "admin/totp.h"
#include "base/log.h"
#include "input/valid.h"
#include "store/store_account.h"

/* The session's public id: this many characters of a new token. */
#define SESSION_ID_LEN 22

static const char credentials_error[] = "Invalid credentials";

/* A string member of the checked body, or NULL when absent. */
static const char *
field(const struct api *a, const char *name)
{
	return cJSON_GetStringValue(valid_get(a->body, name));
}

/* A new password under the policy: 0, or -1 with 400 and the policy's
 * sentence sent. */
static int
new_password_ok(struct api *a, const char *pw)
{
	enum password_err e = password_check(pw);

	if (e == PASSWORD_OK)
		return 0;
	api_error(a, 400, password_message(e));
	return -1;
}

/* The PHC string of pw into phc: 0, or -1 with 500 sent. */
static int
hash_password(struct api *a, const char *pw, char phc[PASSWORD_PHC_MAX])
{
	if (password_hash(pw, phc) == PASSWORD_OK)
		return 0;
	api_error(a, 500, "Internal server error");
	return -1;
}

/* Whether the account must have a second factor: owner of any site. */
static int
needs_factor(const struct store_account *acc)
{
	const cJSON *r;

	cJSON_ArrayForEach(r, acc->roles)
		if (cJSON_IsString(r) && strcmp(r->valuestring, "owner") == 0)
			return 1;
	return 0;
}

/*
 * The second factor of acc, confirmed or being enrolled, against code: a
 * TOTP code (accepted once: the store's atomic step) or, where the factor
 * is confirmed, one of its recovery codes (used once).  1 accepted, 0 not
 * (a missing code is a wrong code), -1 a store error.
 */
static int
factor_ok(struct api *a, const struct store_account *acc, const char *code)
{
	unsigned char key[TOTP_SECRET_LEN + 8];
	int64_t step;
	char hex[65];
	long n;
	int rc;

	if (code == NULL || acc->totp_secret == NULL)
		return 0;
	n = totp_base32_decode(acc->totp_secret, key, sizeof(key));
	if (n != TOTP_SECRET_LEN) {
		log_error("account %s: its TOTP secret is malformed", acc->name);
		return -1;
	}
	if (totp_verify(key, code, a->now, acc->totp_last_step, &step) == TOTP_OK) {
		explicit_bzero(key, sizeof(key));
		rc = store_account_totp_accept(a->st, acc->name, step);
		return rc == STORE_OK ? 1 : rc == STORE_ERROR ? -1 : 0;
	}
	explicit_bzero(key, sizeof(key));
	if (!acc->totp_confirmed || token_recovery_hash(code, hex) != 0)
		return 0;
	rc = store_account_recovery_use(a->st, acc->name, hex, a->now);
	return rc == STORE_OK ? 1 : rc == STORE_ERROR ? -1 : 0;
}

/*
 * The start of an attempt with credentials, throttled (ADMIN.md 2): the
 * attempt is recorded (store_signin_begin counts it as a failure until
 * store_signin_record gives its result) with the failures of the name as
 * typed and of the client's address before it; while throttle_check()
 * says wait, it is recorded "throttled" and answered 429 with Retry-After,
 * whatever its credentials.  0 to evaluate it (*attempt its id), or -1
 * with the answer sent.
 */
static int
attempt_begin(struct api *a, const char *name, int64_t *attempt)
{
	struct store_failures by_name, by_addr;
	struct throttle_failures tn, ta;
	long retry;
	char secs[24];

	if (store_signin_begin(a->st, name, a->address, a->now, THROTTLE_WINDOW, &by_name,
	    &by_addr, attempt) != STORE_OK) {
		api_error(a, 500, "Internal server error");
		return -1;
	}
	tn = (struct throttle_failures){ by_name.count, by_name.first, by_name.latest };
	ta = (struct throttle_failures){ by_addr.count, by_addr.first, by_addr.latest };
	if (throttle_check(&tn, a->address ? &ta : NULL, a->now, &retry) == THROTTLE_EVALUATE)
		return 0;
	store_signin_record(a->st, *attempt, "throttled");
	snprintf(secs, sizeof(secs), "%ld", retry);
	api_header(a, "Retry-After", secs);
	api_error(a, 429, "Too many attempts: try again later");
	return -1;
}

/*
 * One attempt with credentials (ADMIN.md 2), throttled (attempt_begin):
 * the password is verified (an unknown account, or one without a
 * password, costs the same Argon2id work; one over API_PASSWORD_BYTES_MAX
 * is never hashed), then, with ask_factor, the second factor where the
 * account has one confirmed or is enrolling one (code NULL: a wrong
 * code), or CRED_ENROL for an owner without one.  Without ask_factor the
 * password alone (a password change, which re-authentication guards).
 * The attempt is recorded "ok", "bad" or "enrol"; a failure is 401
 * "Invalid credentials" whatever failed.
 * On CRED_OK *acc holds the account (the caller clears it); on
 * CRED_ENROL too.  Every other outcome has its answer sent.
 */
enum cred { CRED_OK, CRED_ENROL, CRED_ANSWERED };

static enum cred
credentials(struct api *a, const char *name, const char *pw, const char *code,
            int ask_factor, struct store_account *acc)
{
	int64_t attempt;
	int found, ok, f;
	const char *result = "bad";

	memset(acc, 0, sizeof(*acc));
	if (attempt_begin(a, name, &attempt) != 0)
		return CRED_ANSWERED;
	found = strlen(name) <= API_USER_MAX && store_account_name_ok(name) &&
	    store_account_get(a->st, name, acc) == STORE_OK;
	/* Too long a password is never hashed: no account has one. */
	ok = strlen(pw) <= API_PASSWORD_BYTES_MAX &&
	    password_verify(found ? acc->password : NULL, pw) == PASSWORD_OK && found;
	if (ok && ask_factor) {
		if (acc->totp_secret != NULL && (acc->totp_confirmed || code != NULL)) {
			if ((f = factor_ok(a, acc, code)) < 0) {
				store_signin_record(a->st, attempt, "error");
				store_account_clear(acc);
				api_error(a, 500, "Internal server error");
				return CRED_ANSWERED;
			}
			ok = f;
		} else if (needs_factor(acc)) {
			store_signin_record(a->st, attempt, "enrol");
			return CRED_ENROL;
		}
	}
	if (ok)
		result = "ok";
	if (store_signin_record(a->st, attempt, result) != STORE_OK) {
		store_account_clear(acc);
		api_error(a, 500, "Internal server error");
		return CRED_ANSWERED;
	}
	if (!ok) {
		store_account_clear(acc);
		api_error(a, 401, credentials_error);
		return CRED_ANSWERED;
	}
	return CRED_OK;
}

/*
 * ADMIN.md 2: an owner signing in with the right password before a factor
 * is confirmed gets a new one (secret unconfirmed, recovery codes) shown
 * once in a 403, and no session; the first sign-in with its code confirms it.
 */
static void
enrol_answer(struct api *a, const struct store_account *acc)
{
	struct enrol e;
	cJSON *o = NULL;

	if (enrol_new(acc->name, &e) != 0 ||
	    store_account_reset_2fa(a->st, acc->name, e.secret, e.hash, TOKEN_RECOVERY_COUNT,
	    NULL) != STORE_OK ||
	    (o = cJSON_CreateObject()) == NULL ||
	    cJSON_AddStringToObject(o, "error", "Two-factor enrolment required") == NULL ||
	    enrol_json(o, &e) != 0) {
		cJSON_Delete(o);
		api_error(a, 500, "Internal server error");
	} else {
		api_answer(a, 403, o);
	}
	explicit_bzero(&e, sizeof(e));
}

/* The account's session answer: {"user","roles","csrf"} (and "upgraded"). */
static cJSON *
session_json(const struct api *a, const char *user, const cJSON *roles, const char *csrf)
{
	cJSON *o = cJSON_CreateObject();

	if (o == NULL || cJSON_AddStringToObject(o, "user", user) == NULL ||
	    !cJSON_AddItemToObject(o, "roles", roles ? cJSON_Duplicate(roles, 1)
	    : cJSON_CreateObject()) ||
	    cJSON_AddStringToObject(o, "csrf", csrf) == NULL ||
	    (a->upgraded && cJSON_AddTrueToObject(o, "upgraded") == NULL)) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

/* The cookie (ADMIN.md 4): __Host- with Path=/, Secure, no Domain. */
static int
set_cookie(struct api *a, const char *value)
{
	char line[160];

	snprintf(line, sizeof(line), "%s=%s; Path=/; Secure; HttpOnly; SameSite=Strict%s",
	    TOKEN_COOKIE_NAME, value, value[0] == '\0' ? "; Max-Age=0" : "");
	return api_header(a, "Set-Cookie", line);
}

/* A new session for acc: the cookie set and the answer sent. */
static void
session_start(struct api *a, const struct store_account *acc)
{
	struct store_session s;
	char token[TOKEN_LEN + 1], id[TOKEN_LEN + 1];
	cJSON *o;
	int tries, rc = STORE_EXISTS;

	memset(&s, 0, sizeof(s));
	for (tries = 0; tries < 3 && rc == STORE_EXISTS; tries++) {
		if (token_new(token) != 0 || token_new(s.csrf) != 0 || token_new(id) != 0 ||
		    token_hash(token, s.token_hash) != 0)
			break;
		memcpy(s.id, id, SESSION_ID_LEN);
		s.id[SESSION_ID_LEN] = '\0';
		snprintf(s.account, sizeof(s.account), "%s", acc->name);
		snprintf(s.address, sizeof(s.address), "%s", a->address ? a->address : "");
		rc = store_session_add(a->st, &s, a->now);
	}
	memcpy(a->user, acc->name, sizeof(a->user));
	if (rc != STORE_OK || set_cookie(a, token) != 0 ||
	    api_audit(a, NULL, "session.signin", NULL, -1) != 0 ||
	    (o = session_json(a, acc->name, acc->roles, s.csrf)) == NULL) {
		a->extra[0] = '\0';
		api_error(a, 500, "Internal server error");
	} else {
		api_answer(a, 200, o);
	}
	explicit_bzero(token, sizeof(token));
	store_account_purge(a->st, a->now);
}

void
route_setup_get(struct api *a)
{
	char path[SETUP_TOKEN_PATH_MAX], shown[SETUP_TOKEN_PATH_MAX];
	cJSON *o = cJSON_CreateObject();

	if (o == NULL || setup_token_path(NULL, path) != 0 ||
	    admin_install_shown(path, shown, sizeof(shown)) != 0 ||
	    cJSON_AddTrueToObject(o, "needed") == NULL ||
	    cJSON_AddStringToObject(o, "token_file", shown) == NULL ||
	    (a->upgraded && cJSON_AddTrueToObject(o, "upgraded") == NULL)) {
		cJSON_Delete(o);
		api_error(a, 500, "Internal server error");
		return;
	}
	api_answer(a, 200, o);
}

/*
 * ADMIN.md 3: the first owner, with the token from the file.  The file is
 * deleted before the account is made (setup_token_claim), so that of two
 * requests with the token only the one that deleted it goes on; should
 * the account then fail, the next request makes a new file.
 */
void
route_setup_post(struct api *a)
{
	const char *name, *pw;
	char phc[PASSWORD_PHC_MAX];
	struct enrol e;
	cJSON *roles = NULL, *o = NULL;
	int rc;

	if (api_body(a, api_setup_body.f, api_setup_body.n) != 0)
		return;
	if (!setup_token_check(NULL, field(a, "token"))) {
		api_error(a, 403, "Invalid setup token");
		return;
	}
	name = field(a, "username");
	pw = field(a, "password");
	if (!store_account_name_ok(name)) {
		api_error(a, 400, "username must be 1 to 64 characters of a-z0-9._@-");
		return;
	}
	if (new_password_ok(a, pw) != 0 || hash_password(a, pw, phc) != 0)
		return;
	if (enrol_new(name, &e) != 0 || (roles = cJSON_CreateObject()) == NULL ||
	    cJSON_AddStringToObject(roles, "*", "owner") == NULL) {
		api_error(a, 500, "Internal server error");
		goto out;
	}
	if (!setup_token_check(NULL, field(a, "token")) || setup_token_claim(NULL) != 0) {
		api_error(a, 403, "Invalid setup token");
		goto out;
	}
	rc = store_account_add(a->st, name, phc, e.secret, e.hash, TOKEN_RECOVERY_COUNT, roles,
	    a->now);
	if (rc != STORE_OK) {
		api_error(a, 500, "Internal server error");
		goto out;
	}
	memcpy(a->user, name, strlen(name) + 1);
	if (api_audit(a, NULL, "setup", NULL, -1) != 0 || (o = cJSON_CreateObject()) == NULL ||
	    cJSON_AddStringToObject(o, "username", name) == NULL || enrol_json(o, &e) != 0 ||
	    (a->upgraded && cJSON_AddTrueToObject(o, "upgraded") == NULL)) {
		cJSON_Delete(o);
		api_error(a, 500, "Internal server error");
		goto out;
	}
	api_answer(a, 201, o);
out:
	cJSON_Delete(roles);
	explicit_bzero(&e, sizeof(e));
	explicit_bzero(phc, sizeof(phc));
}

void
route_session_post(struct api *a)
{
	struct store_account acc;

	if (api_body(a, api_signin_body.f, api_signin_body.n) != 0)
		return;
	switch (credentials(a, field(a, "username"), field(a, "password"), field(a, "totp"), 1,
	    &acc)) {
	case CRED_OK:
		/* ADMIN.md 3: the next sign-in upgrades an older database. */
		if (admin_install(a->st, &a->upgraded) != 0)
			api_error(a, 500, "Internal server error");
		else
			session_start(a, &acc);
		break;
	case CRED_ENROL:
		enrol_answer(a, &acc);
		break;
	case CRED_ANSWERED:
		break;
	}
	store_account_clear(&acc);
}

void
route_session_get(struct api *a)
{
	cJSON *o = session_json(a, a->user, a->roles, a->csrf);

	if (o == NULL)
		api_error(a, 500, "Internal server error");
	else
		api_answer(a, 200, o);
}

void
route_session_delete(struct api *a)
{
	if (store_session_delete(a->st, a->session_hash) == STORE_ERROR ||
	    api_audit(a, NULL, "session.signout", NULL, -1) != 0 || set_cookie(a, "") != 0) {
		api_error(a, 500, "Internal server error");
		return;
	}
	api_success(a, 200);
}

void
route_session_reauth(struct api *a)
{
	struct store_account acc;
	enum cred c;

	if (api_body(a, api_reauth_body.f, api_reauth_body.n) != 0)
		return;
	c = credentials(a, a->user, field(a, "password"), field(a, "totp"), 1, &acc);
	if (c == CRED_ENROL) {
		api_error(a, 401, credentials_error);
	} else if (c == CRED_OK) {
		if (store_session_reauth(a->st, a->session_hash, a->now) != STORE_OK)
			api_error(a, 500, "Internal server error");
		else
			api_success(a, 200);
	}
	store_account_clear(&acc);
}

/* ADMIN.md 4: a new password ends every other session of the account. */
void
route_account_password(struct api *a)
{
	struct store_account acc;
	char phc[PASSWORD_PHC_MAX];
	const char *pw;

	if (api_body(a, api_password_body.f, api_password_body.n) != 0)
		return;
	pw = field(a, "new");
	if (new_password_ok(a, pw) != 0)
		return;
	if (credentials(a, a->user, field(a, "password"), NULL, 0, &acc) != CRED_OK)
		return;
	store_account_clear(&acc);
	if (hash_password(a, pw, phc) != 0)
		return;
	if (store_account_set_password(a->st, a->user, phc, a->session_hash, a->now) != STORE_OK ||
	    api_audit(a, NULL, "account.password", NULL, -1) != 0)
		api_error(a, 500, "Internal server error");
	else
		api_success(a, 200);
	explicit_bzero(phc, sizeof(phc));
}

void
route_account_sessions(struct api *a)
{
	cJSON *rows = cJSON_CreateArray();
	int rc = rows ? store_session_list(a->st, a->user, a->session_hash, api_rows_append, rows)
	    : STORE_ERROR;

	api_answer_rows(a, "sessions", rc, rows);
}

void
route_account_session_end(struct api *a)
{
	const char *id = a->seg[2];
	int rc;

	if (strlen(id) > STORE_SESSION_ID_MAX) {
		api_error(a, 404, "Session not found");
		return;
	}
	rc = store_session_end(a->st, a->user, id);
	if (rc == STORE_NOTFOUND)
		api_error(a, 404, "Session not found");
	else if (rc != STORE_OK || api_audit(a, NULL, "account.session_end", NULL, -1) != 0)
		api_error(a, 500, "Internal server error");
	else
		api_success(a, 200);
}

/*
 * A new password with the one-time code `consentctl user reset-password`
 * printed: throttled and recorded as a sign-in (the code is a
 * credential), one answer for an unknown account, a wrong code and an
 * expired one.  Every session of the account ends.
 */
void
route_account_reset(struct api *a)
{
	const char *name, *pw;
	char phc[PASSWORD_PHC_MAX], hex[65];
	int64_t attempt;
	int rc;

	if (api_body(a, api_reset_body.f, api_reset_body.n) != 0)
		return;
	name = field(a, "username");
	pw = field(a, "new");
	if (new_password_ok(a, pw) != 0)
		return;
	if (attempt_begin(a, name, &attempt) != 0)
		return;
	if (hash_password(a, pw, phc) != 0 || token_hash(field(a, "code"), hex) != 0) {
		store_signin_record(a->st, attempt, "error");
		return;
	}
	rc = store_account_name_ok(name) ? store_reset_use(a->st, name, hex, phc, a->now)
	    : STORE_NOTFOUND;
	explicit_bzero(phc, sizeof(phc));
	if (rc == STORE_ERROR || store_signin_record(a->st, attempt,
	    rc == STORE_OK ? "reset" : "bad") != STORE_OK) {
		api_error(a, 500, "Internal server error");
		return;
	}
	if (rc != STORE_OK) {
		api_error(a, 401, credentials_error);
		return;
	}
	memcpy(a->user, name, strlen(name) + 1);
	if (api_audit(a, NULL, "account.reset", NULL, -1) != 0)
		api_error(a, 500, "Internal server error");
	else
		api_success(a, 200);
}
