/* test_accounts.c: the store of the dashboard's accounts (store_account.h): expiry, replay, one-time use, throttling counts, on this build's store. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "unit.h"
#include "store/store_account.h"

/*
 * The database: $UNIT_ACCOUNTS_DB when set (t0150 gives a fresh one of
 * either store, so the PostgreSQL build is tested on PostgreSQL), else a
 * new SQLite file in a temporary directory (a SQLite build only).
 */

static const int64_t T0 = 1800000000;   /* the tests' clock */

/* A hash-like text of 64 hex digits from a small number. */
static const char *
hex(unsigned n)
{
	static char buf[4][65];
	static int i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "%064x", n);
	return buf[i];
}

static int
count_rows(const cJSON *row, void *arg)
{
	(void)row;
	++*(int *)arg;
	return 0;
}

/* session_list's row of the current session: its id into arg. */
static int
current_row(const cJSON *row, void *arg)
{
	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(row, "current")))
		snprintf(arg, STORE_SESSION_ID_MAX + 1, "%s",
		    cJSON_GetObjectItemCaseSensitive(row, "id")->valuestring);
	return 0;
}

static int
sessions_of(struct store *st, const char *account)
{
	int n = 0;

	store_session_list(st, account, NULL, count_rows, &n);
	return n;
}

static void
session_new(struct store *st, const char *account, unsigned n, int64_t now, int *rc)
{
	struct store_session s;

	memset(&s, 0, sizeof(s));
	snprintf(s.token_hash, sizeof(s.token_hash), "%s", hex(n));
	snprintf(s.id, sizeof(s.id), "id%06u", n);
	snprintf(s.account, sizeof(s.account), "%s", account);
	snprintf(s.csrf, sizeof(s.csrf), "csrf%u", n);
	snprintf(s.address, sizeof(s.address), "192.0.2.%u", n % 250);
	*rc = store_session_add(st, &s, now);
}

static void
test_accounts(struct store *st)
{
	const char *codes[3];
	struct store_account a;
	cJSON *roles = cJSON_Parse("{\"*\":\"owner\",\"s1\":\"editor\"}");
	cJSON *bad = cJSON_Parse("{\"nosuch\":\"viewer\"}");
	int64_t n = -1;
	int rows = 0;

	memset(&a, 0, sizeof(a));
	codes[0] = hex(1);
	codes[1] = hex(2);
	codes[2] = hex(3);
	CHECK(store_account_count(st, &n) == STORE_OK && n == 0, "no account yet");
	CHECK(store_account_add(st, "owner1", NULL, "JBSWY3DPEHPK3PXP", codes, 3, roles, T0) ==
	    STORE_OK, "an owner added with a secret, three codes, two roles");
	CHECK(store_account_add(st, "owner1", NULL, NULL, NULL, 0, NULL, T0) == STORE_EXISTS,
	    "a taken name: STORE_EXISTS");
	CHECK(store_account_add(st, "ghost", NULL, NULL, NULL, 0, bad, T0) == STORE_NOTFOUND,
	    "a role on a site that does not exist: STORE_NOTFOUND");
	CHECK(store_account_get(st, "ghost", &a) == STORE_NOTFOUND,
	    "... and nothing of that account added");
	CHECK(store_account_add(st, "ed", "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$aGFzaA",
	    NULL, NULL, 0, NULL, T0 + 1) == STORE_OK, "an account with a password, no factor");
	CHECK(store_account_count(st, &n) == STORE_OK && n == 2, "two accounts");
	CHECK(store_account_get(st, "owner1", &a) == STORE_OK, "get");
	CHECK_STR(a.name, "owner1", "get: the name");
	CHECK(a.password == NULL, "get: no password yet");
	CHECK_STR(a.totp_secret, "JBSWY3DPEHPK3PXP", "get: the secret");
	CHECK(a.totp_confirmed == 0 && a.totp_last_step == -1, "get: unconfirmed, no step yet");
	CHECK(a.created_at == T0 && a.password_changed_at == -1, "get: the times");
	CHECK(cJSON_Compare(a.roles, roles, 1), "get: the roles as an object");
	store_account_clear(&a);
	CHECK(store_account_get(st, "nobody", &a) == STORE_NOTFOUND, "get: unknown: STORE_NOTFOUND");
	CHECK(store_account_list(st, count_rows, &rows) == STORE_OK && rows == 2, "list: two rows");

	cJSON_Delete(bad);
	bad = cJSON_Parse("{\"s1\":\"viewer\"}");
	CHECK(store_account_set_roles(st, "ed", bad) == STORE_OK, "set roles");
	CHECK(store_account_get(st, "ed", &a) == STORE_OK && cJSON_Compare(a.roles, bad, 1),
	    "set roles: replaced");
	store_account_clear(&a);
	cJSON_Delete(bad);
	bad = cJSON_Parse("{\"*\":\"viewer\",\"nosuch\":\"viewer\"}");
	CHECK(store_account_set_roles(st, "ed", bad) == STORE_NOTFOUND,
	    "set roles with a site that does not exist: STORE_NOTFOUND");
	CHECK(store_account_get(st, "ed", &a) == STORE_OK && cJSON_GetArraySize(a.roles) == 1 &&
	    cJSON_GetObjectItemCaseSensitive(a.roles, "s1") != NULL,
	    "... and the roles left as they were (one transaction)");
	store_account_clear(&a);
	CHECK(store_account_set_roles(st, "nobody", NULL) == STORE_NOTFOUND,
	    "set roles of an unknown account: STORE_NOTFOUND");
	cJSON_Delete(bad);
	cJSON_Delete(roles);
}

/* RFC 6238 5.2: a step is accepted once, never one before it. */
static void
test_totp(struct store *st)
{
	struct store_account a;

	memset(&a, 0, sizeof(a));
	CHECK(store_account_totp_accept(st, "owner1", 1000) == STORE_OK, "step 1000 accepted");
	CHECK(store_account_totp_accept(st, "owner1", 1000) == STORE_EXISTS,
	    "step 1000 again: replayed");
	CHECK(store_account_totp_accept(st, "owner1", 999) == STORE_EXISTS,
	    "an earlier step: replayed");
	CHECK(store_account_get(st, "owner1", &a) == STORE_OK && a.totp_confirmed == 1 &&
	    a.totp_last_step == 1000, "the factor confirmed, last step 1000");
	store_account_clear(&a);
	CHECK(store_account_totp_accept(st, "owner1", 1001) == STORE_OK, "the next step accepted");
	CHECK(store_account_totp_accept(st, "ed", 5) == STORE_EXISTS,
	    "an account without a factor accepts no step");
	CHECK(store_account_totp_accept(st, "nobody", 5) == STORE_NOTFOUND,
	    "an unknown account: STORE_NOTFOUND");
}

static void
test_recovery(struct store *st)
{
	int64_t left = -1;

	CHECK(store_account_recovery_use(st, "owner1", hex(2), T0) == STORE_OK,
	    "a recovery code used");
	CHECK(store_account_recovery_use(st, "owner1", hex(2), T0 + 1) == STORE_NOTFOUND,
	    "the same code again: STORE_NOTFOUND (once)");
	CHECK(store_account_recovery_use(st, "owner1", hex(9), T0) == STORE_NOTFOUND,
	    "a code the account does not have: STORE_NOTFOUND");
	CHECK(store_account_recovery_use(st, "ed", hex(1), T0) == STORE_NOTFOUND,
	    "another account's code: STORE_NOTFOUND");
	CHECK(store_account_recovery_left(st, "owner1", &left) == STORE_OK && left == 2,
	    "two codes left");
	CHECK(store_account_recovery_left(st, "nobody", &left) == STORE_NOTFOUND,
	    "codes left of an unknown account: STORE_NOTFOUND");
}

/* Idle and absolute expiry, with the times the caller gives. */
static void
test_sessions(struct store *st)
{
	struct store_session s;
	char current[STORE_SESSION_ID_MAX + 1] = "";
	int64_t t;
	int rc, ok;

	session_new(st, "owner1", 1, T0, &rc);
	CHECK(rc == STORE_OK, "a session added");
	session_new(st, "owner1", 1, T0, &rc);
	CHECK(rc == STORE_EXISTS, "the same token hash again: STORE_EXISTS");
	session_new(st, "nobody", 2, T0, &rc);
	CHECK(rc == STORE_NOTFOUND, "a session of an unknown account: STORE_NOTFOUND");
	CHECK(store_session_get(st, hex(1), T0 + 100, 1800, 43200, &s) == STORE_OK,
	    "get the session");
	CHECK_STR(s.account, "owner1", "get: its account");
	CHECK_STR(s.csrf, "csrf1", "get: its CSRF token");
	CHECK_STR(s.id, "id000001", "get: its public id");
	CHECK(s.created_at == T0 && s.last_seen == T0 + 100 && s.authenticated_at == T0,
	    "get: created, last seen now, authenticated at sign-in");
	CHECK(store_session_get(st, hex(1), T0 + 100 + 1799, 1800, 43200, &s) == STORE_OK,
	    "1799 s idle: still live (the last get moved last_seen)");
	CHECK(store_session_get(st, hex(1), T0 + 100 + 1799 + 1800, 1800, 43200, &s) ==
	    STORE_NOTFOUND, "1800 s idle: expired");
	CHECK(store_session_get(st, hex(1), T0, 1800, 43200, &s) == STORE_NOTFOUND,
	    "an expired session was deleted (even an earlier clock finds nothing)");
	CHECK(store_session_get(st, hex(77), T0, 1800, 43200, &s) == STORE_NOTFOUND,
	    "an unknown token: STORE_NOTFOUND");

	session_new(st, "owner1", 3, T0, &rc);
	ok = rc == STORE_OK;
	for (t = T0 + 1700; t < T0 + 43200; t += 1700)
		ok = ok && store_session_get(st, hex(3), t, 1800, 43200, &s) == STORE_OK;
	CHECK(ok, "a session used every 1700 s stays live until 12 hours");
	CHECK(store_session_get(st, hex(3), T0 + 43200, 1800, 43200, &s) == STORE_NOTFOUND,
	    "12 hours after its creation: expired, however recently used");

	session_new(st, "owner1", 4, T0, &rc);
	CHECK(store_session_reauth(st, hex(4), T0 + 60) == STORE_OK &&
	    store_session_get(st, hex(4), T0 + 61, 1800, 43200, &s) == STORE_OK &&
	    s.authenticated_at == T0 + 60, "reauth moves authenticated_at");
	CHECK(store_session_reauth(st, hex(78), T0) == STORE_NOTFOUND, "reauth of no session");
	session_new(st, "owner1", 5, T0, &rc);
	session_new(st, "ed", 6, T0, &rc);
	CHECK(store_session_list(st, "owner1", hex(4), current_row, current) == STORE_OK &&
	    strcmp(current, "id000004") == 0, "list: the current session marked");
	CHECK(sessions_of(st, "owner1") == 2, "list: the account's two live sessions");
	CHECK(store_session_end(st, "owner1", "id000006") == STORE_NOTFOUND,
	    "ending another account's session by id: STORE_NOTFOUND");
	CHECK(sessions_of(st, "ed") == 1, "... and it is still there");
	CHECK(store_session_end(st, "owner1", "id000005") == STORE_OK && sessions_of(st, "owner1") == 1,
	    "ending one's own session by id");
	CHECK(store_session_delete(st, hex(4)) == STORE_OK &&
	    store_session_get(st, hex(4), T0 + 62, 1800, 43200, &s) == STORE_NOTFOUND,
	    "sign-out deletes the session");
	CHECK(store_session_delete(st, hex(4)) == STORE_NOTFOUND, "sign-out twice: STORE_NOTFOUND");
}

/* A password change, a 2FA reset and a reset code end the other sessions. */
static void
test_credentials(struct store *st)
{
	const char *fresh[1];
	struct store_session s;
	struct store_account a;
	int rc;

	memset(&a, 0, sizeof(a));
	session_new(st, "owner1", 10, T0, &rc);
	session_new(st, "owner1", 11, T0, &rc);
	session_new(st, "ed", 12, T0, &rc);
	CHECK(store_account_set_password(st, "owner1",
	    "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$bmV3", hex(10), T0 + 5) == STORE_OK,
	    "password set, keeping session 10");
	CHECK(store_session_get(st, hex(10), T0 + 6, 1800, 43200, &s) == STORE_OK,
	    "password change: the session that made it stays");
	CHECK(store_session_get(st, hex(11), T0 + 6, 1800, 43200, &s) == STORE_NOTFOUND,
	    "password change: the account's other session ended");
	CHECK(store_session_get(st, hex(12), T0 + 6, 1800, 43200, &s) == STORE_OK,
	    "password change: another account's session untouched");
	CHECK(store_account_get(st, "owner1", &a) == STORE_OK && a.password != NULL &&
	    a.password_changed_at == T0 + 5, "password stored with its time");
	store_account_clear(&a);
	CHECK(store_account_set_password(st, "nobody", NULL, NULL, T0) == STORE_NOTFOUND,
	    "password of an unknown account: STORE_NOTFOUND");

	fresh[0] = hex(40);
	session_new(st, "owner1", 13, T0, &rc);
	CHECK(store_account_reset_2fa(st, "owner1", "NEWSECRETNEWSECR", fresh, 1, hex(13)) ==
	    STORE_OK, "2FA reset");
	CHECK(store_account_get(st, "owner1", &a) == STORE_OK && a.totp_confirmed == 0 &&
	    a.totp_last_step == -1 && a.totp_secret != NULL &&
	    strcmp(a.totp_secret, "NEWSECRETNEWSECR") == 0,
	    "2FA reset: the new secret, unconfirmed, no step");
	store_account_clear(&a);
	CHECK(store_account_totp_accept(st, "owner1", 1) == STORE_OK,
	    "2FA reset: an early step of the new secret is accepted");
	CHECK(store_session_get(st, hex(10), T0 + 7, 1800, 43200, &s) == STORE_NOTFOUND &&
	    store_session_get(st, hex(13), T0 + 7, 1800, 43200, &s) == STORE_OK,
	    "2FA reset: other sessions ended, the kept one live");
	CHECK(store_account_recovery_use(st, "owner1", hex(1), T0) == STORE_NOTFOUND &&
	    store_account_recovery_use(st, "owner1", hex(40), T0) == STORE_OK,
	    "2FA reset: the old recovery codes gone, the new one usable");
	CHECK(store_account_reset_2fa(st, "nobody", NULL, NULL, 0, NULL) == STORE_NOTFOUND,
	    "2FA reset of an unknown account: STORE_NOTFOUND");

	/* Reset codes: one time, not at or after expiry, the latest only. */
	CHECK(store_reset_add(st, "ed", hex(50), T0 + 100) == STORE_OK, "a reset code");
	CHECK(store_reset_use(st, "ed", hex(50), "$argon2id$x", T0 + 100) == STORE_NOTFOUND,
	    "a reset code at its expiry: STORE_NOTFOUND");
	CHECK(store_reset_add(st, "ed", hex(51), T0 + 200) == STORE_OK &&
	    store_reset_add(st, "ed", hex(52), T0 + 200) == STORE_OK, "two more, one after the other");
	CHECK(store_reset_use(st, "ed", hex(51), "$argon2id$x", T0 + 10) == STORE_NOTFOUND,
	    "a code replaced by a later one: STORE_NOTFOUND");
	CHECK(store_reset_use(st, "owner1", hex(52), "$argon2id$x", T0 + 10) == STORE_NOTFOUND,
	    "another account's code: STORE_NOTFOUND");
	CHECK(store_account_get(st, "ed", &a) == STORE_OK && a.password != NULL &&
	    strcmp(a.password, "$argon2id$x") != 0, "... and no password changed by them");
	store_account_clear(&a);
	CHECK(store_reset_use(st, "ed", hex(52), "$argon2id$x", T0 + 199) == STORE_OK,
	    "the latest code before its expiry sets the password");
	CHECK(store_account_get(st, "ed", &a) == STORE_OK && a.password != NULL &&
	    strcmp(a.password, "$argon2id$x") == 0 && a.password_changed_at == T0 + 199,
	    "... the new password stored");
	store_account_clear(&a);
	CHECK(store_session_get(st, hex(12), T0 + 199, 1800, 43200, &s) == STORE_NOTFOUND,
	    "... and every session of the account ended");
	CHECK(store_reset_use(st, "ed", hex(52), "$argon2id$y", T0 + 150) == STORE_NOTFOUND,
	    "the same code again: STORE_NOTFOUND (one time)");
	CHECK(store_reset_add(st, "nobody", hex(53), T0 + 200) == STORE_NOTFOUND,
	    "a reset code for an unknown account: STORE_NOTFOUND");
}

/* The failures per typed name and per address in the window. */
static void
test_signins(struct store *st)
{
	struct store_failures fn, fa;
	char longname[80];
	int64_t id[8];
	int ok = 1, rows = 0;

	for (int i = 0; i < 3; i++) {
		ok = ok && store_signin_begin(st, "victim", "198.51.100.1", T0 + i * 10, 3600, &fn, &fa,
		    &id[i]) == STORE_OK;
		ok = ok && fn.count == (unsigned)i && fa.count == (unsigned)i;
		ok = ok && store_signin_record(st, id[i], "bad") == STORE_OK;
	}
	CHECK(ok, "three failures, each attempt seeing those before it");
	CHECK(store_signin_begin(st, "victim", "203.0.113.9", T0 + 40, 3600, &fn, &fa, &id[3]) ==
	    STORE_OK && fn.count == 3 && fn.first == T0 && fn.latest == T0 + 20 && fa.count == 0,
	    "by name: three, first and latest; a new address: none");
	CHECK(store_signin_begin(st, "other", "198.51.100.1", T0 + 41, 3600, &fn, &fa, &id[4]) ==
	    STORE_OK && fn.count == 0 && fa.count == 3, "by address: three, whatever the name");
	CHECK(store_signin_begin(st, "victim", NULL, T0 + 42, 3600, &fn, &fa, &id[5]) == STORE_OK &&
	    fn.count == 4 && fa.count == 0,
	    "attempts not yet recorded count as failures (no race between check and record)");
	CHECK(store_signin_record(st, id[3], "ok") == STORE_OK &&
	    store_signin_record(st, id[5], "throttled") == STORE_OK &&
	    store_signin_begin(st, "victim", NULL, T0 + 43, 3600, &fn, &fa, &id[6]) == STORE_OK &&
	    fn.count == 3, "ok and throttled are no failures");
	store_signin_record(st, id[6], "bad");
	CHECK(store_signin_begin(st, "victim", NULL, T0 + 3600 + 10, 3600, &fn, &fa, &id[7]) ==
	    STORE_OK && fn.count == 2 && fn.first == T0 + 20 && fn.latest == T0 + 43,
	    "an hour on: the failures older than the window no longer count");
	CHECK(store_signin_record(st, 999999, "ok") == STORE_NOTFOUND, "record of no attempt");

	memset(longname, 'n', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	store_signin_begin(st, longname, NULL, T0, 3600, &fn, &fa, &id[0]);
	store_signin_record(st, id[0], "bad");
	longname[64] = '\0';
	CHECK(store_signin_begin(st, longname, NULL, T0 + 1, 3600, &fn, &fa, &id[0]) == STORE_OK &&
	    fn.count == 1, "a typed name is kept cut to 64 bytes, and counted so");
	CHECK(store_signin_begin(st, "bad\xff\xfe\x01", NULL, T0, 3600, &fn, &fa, &id[0]) ==
	    STORE_OK, "a typed name that is no UTF-8 is recorded");
	CHECK(store_signin_list(st, T0 + 3600, count_rows, &rows) == STORE_OK && rows == 1,
	    "list: the attempts since a time");

	CHECK(store_account_purge(st, T0 + 3600 + STORE_ACCOUNT_KEEP) == STORE_OK, "purge");
	rows = 0;
	CHECK(store_signin_list(st, 0, count_rows, &rows) == STORE_OK && rows == 1,
	    "purge: attempts older than a day gone, the later one kept");
}

static void
test_remove(struct store *st)
{
	struct store_account a;
	struct store_session s;
	int rc;

	memset(&a, 0, sizeof(a));
	session_new(st, "owner1", 20, T0 + STORE_ACCOUNT_KEEP, &rc);
	CHECK(store_account_remove(st, "owner1") == STORE_OK, "remove");
	CHECK(store_account_get(st, "owner1", &a) == STORE_NOTFOUND, "remove: the account gone");
	CHECK(store_session_get(st, hex(20), T0 + STORE_ACCOUNT_KEEP, 1800, 43200, &s) ==
	    STORE_NOTFOUND, "remove: its sessions gone");
	CHECK(store_account_remove(st, "owner1") == STORE_NOTFOUND, "remove twice: STORE_NOTFOUND");
	CHECK(store_account_add(st, "owner1", NULL, NULL, NULL, 0, NULL, T0) == STORE_OK &&
	    store_account_recovery_use(st, "owner1", hex(40), T0) == STORE_NOTFOUND &&
	    store_account_get(st, "owner1", &a) == STORE_OK && cJSON_GetArraySize(a.roles) == 0,
	    "remove: a new account of that name inherits no code and no role");
	store_account_clear(&a);
	CHECK(store_account_name_ok("a.b_c@d-1") && !store_account_name_ok("A") &&
	    !store_account_name_ok("") && !store_account_name_ok("a b") &&
	    store_account_name_ok("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa") &&
	    !store_account_name_ok("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"),
	    "names: 1-64 of a-z0-9._@-");
}

/*
 * What racers do at once: RACERS processes, each with its own connection,
 * released together (a pipe closed), each doing what(i) and exiting with
 * its result (0-255).  results[r] counts the racers that answered r.
 * 0, or -1 when the race could not be run.
 */
#define RACERS 8
static const char *race_db;

static int
race(int (*what)(struct store *st, int i), int results[256])
{
	int gate[2], status, n = 0;
	pid_t pid[RACERS];

	memset(results, 0, 256 * sizeof(int));
	if (pipe(gate) != 0)
		return -1;
	fflush(stdout);
	for (int i = 0; i < RACERS; i++) {
		if ((pid[i] = fork()) < 0)
			return -1;
		if (pid[i] == 0) {
			struct store *st = NULL;
			char c;
			int rc;

			close(gate[1]);
			if (store_open(&st, race_db, STORE_WRITE) != STORE_OK)
				_exit(255);
			if (read(gate[0], &c, 1) < 0)
				_exit(255);
			rc = what(st, i);
			store_close(st);
			_exit(rc & 0xff);
		}
	}
	close(gate[0]);
	close(gate[1]);
	for (int i = 0; i < RACERS; i++)
		if (waitpid(pid[i], &status, 0) == pid[i] && WIFEXITED(status)) {
			results[WEXITSTATUS(status)]++;
			n++;
		}
	return n == RACERS ? 0 : -1;
}

static int
racer_totp(struct store *st, int i)
{
	(void)i;
	return store_account_totp_accept(st, "racer", 5000);
}

static int
racer_recovery(struct store *st, int i)
{
	(void)i;
	return store_account_recovery_use(st, "racer", hex(60), T0);
}

static int
racer_reset(struct store *st, int i)
{
	(void)i;
	return store_reset_use(st, "racer", hex(61), "$argon2id$racer", T0);
}

/* Each racer's failures counted before its own attempt: its exit status. */
static int
racer_signin(struct store *st, int i)
{
	struct store_failures fn, fa;
	int64_t id;

	(void)i;
	if (store_signin_begin(st, "raced", NULL, T0 + 5000, 3600, &fn, &fa, &id) != STORE_OK)
		return 255;
	return (int)fn.count;
}

/* Of racers using one step, one code, one reset code at once, exactly one
 * wins; racers starting sign-ins at once each see the others before it. */
static void
test_races(struct store *st)
{
	const char *codes[1];
	int r[256], distinct = 0;

	codes[0] = hex(60);
	CHECK(store_account_add(st, "racer", NULL, "JBSWY3DPEHPK3PXP", codes, 1, NULL, T0) ==
	    STORE_OK && store_reset_add(st, "racer", hex(61), T0 + 100) == STORE_OK,
	    "an account for the races");
	CHECK(race(racer_totp, r) == 0 && r[STORE_OK] == 1 && r[STORE_EXISTS] == RACERS - 1,
	    "8 at once with the same TOTP step: one accepted, the others replayed");
	CHECK(race(racer_recovery, r) == 0 && r[STORE_OK] == 1 && r[STORE_NOTFOUND] == RACERS - 1,
	    "8 at once with the same recovery code: one accepted");
	CHECK(race(racer_reset, r) == 0 && r[STORE_OK] == 1 && r[STORE_NOTFOUND] == RACERS - 1,
	    "8 at once with the same reset code: one accepted");
	if (race(racer_signin, r) == 0)
		for (int k = 0; k < RACERS; k++)
			distinct += r[k] == 1;
	CHECK(distinct == RACERS,
	    "8 sign-ins at once: each counted the others before it (0 to 7 failures, each once)");
}

int
main(void)
{
	const char *db = getenv("UNIT_ACCOUNTS_DB");
	char dir[] = "/tmp/test_accounts.XXXXXX", path[64];
	struct store *st = NULL;
	int64_t from = -1;

	if (db == NULL || *db == '\0') {
#ifdef STORE_POSTGRES
		printf("skip - test_accounts: this build stores in PostgreSQL; t0150 runs it there\n");
		return 0;
#endif
		if (mkdtemp(dir) == NULL) {
			CHECK(0, "a temporary directory");
			UNIT_DONE();
		}
		snprintf(path, sizeof(path), "%s/consent.db", dir);
		db = path;
	}
	CHECK(store_open(&st, db, STORE_CREATE) == STORE_OK && store_init(st, &from) == STORE_OK,
	    "a database at the current schema");
	if (st == NULL)
		UNIT_DONE();
	CHECK(store_site_add(st, "s1", "S1", 1, -1, NULL, 0) == STORE_OK, "a site");
	test_accounts(st);
	test_totp(st);
	test_recovery(st);
	test_sessions(st);
	test_credentials(st);
	test_signins(st);
	test_remove(st);
	race_db = db;
	test_races(st);
	store_close(st);
	if (db == path) {
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd) != 0)
			printf("# could not remove %s\n", dir);
	}
	UNIT_DONE();
}
