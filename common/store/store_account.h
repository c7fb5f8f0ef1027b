/* store_account.h: the dashboard's accounts, roles, second factors, sessions, sign-in attempts and reset codes (ADMIN.md 2-5), as the store keeps them. */
#ifndef CONSENT_STORE_ACCOUNT_H
#define CONSENT_STORE_ACCOUNT_H

/*
 * Over an open store (store.h), like store_admin.h: each function is
 * store_admin.c's, which hands the call to the backend's admin table
 * (store_admin_fns.h, the block "accounts"), so no endpoint links any of
 * it (tests/t0062).  The tables are schema.sql's admin_* (version 5).
 *
 * The store checks no policy: names, roles, passwords and codes are
 * checked by the caller (store_account_name_ok(), store_role_ok(),
 * common/admin/password.c, totp.c, token.c); the schema's CHECKs refuse
 * what slips through, as STORE_ERROR.  It stores no secret in clear but
 * the TOTP secret (it must compute codes from it) and the CSRF token
 * (sent to the page anyway): passwords as Argon2id PHC strings, session
 * tokens, recovery codes and reset codes as lower-case hex SHA-256.
 *
 * Times are seconds since the epoch, always given by the caller (the
 * dashboard's clock, api_now(), which tests move): the store never reads
 * the clock for them.  Every change of more than one row is one
 * transaction.  Return codes: STORE_OK, STORE_NOTFOUND, STORE_EXISTS
 * where documented, STORE_ERROR (reported on stderr).
 *
 * Roles name a site by its key text (sites.site_key), or "*" for every
 * site.  A role is added only for a site that exists or "*"; if a site
 * ever goes, its roles stay and grant nothing (a site that does not exist
 * is not found whatever the role), and store_account_set_roles() drops
 * them at the account's next change of roles.
 */

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "store/store.h"
#include "store/store_admin.h"

#define STORE_ACCOUNT_NAME_MAX 64   /* ADMIN.md 2: 1-64 of a-z0-9._@- */
#define STORE_SESSION_ID_MAX 32     /* a session's public id: 8-32 of [A-Za-z0-9_-] */
#define STORE_CSRF_MAX 64           /* a session's CSRF token (token.h: 43) */
#define STORE_ADDRESS_MAX 64        /* a client address as the server gave it, cut to this */
#define STORE_ATTEMPT_NAME_MAX 64   /* a typed user name is kept cut to this many bytes */
#define STORE_ACCOUNT_KEEP 86400    /* store_account_purge(): attempts kept one day */

/* 1 when name is 1-64 bytes of a-z 0-9 . _ @ -, else 0 (NULL too). */
int store_account_name_ok(const char *name);
/* 1 when role is "owner", "editor" or "viewer", else 0. */
int store_role_ok(const char *role);

/* An account as store_account_get() gives it. */
struct store_account {
	char name[STORE_ACCOUNT_NAME_MAX + 1];
	char *password;         /* Argon2id PHC string (owned); NULL: none set yet */
	char *totp_secret;      /* base32 (owned); NULL: no second factor */
	int totp_confirmed;     /* 1 once a code of this secret was accepted */
	int64_t totp_last_step; /* the TOTP step accepted last; -1: none */
	cJSON *roles;           /* {"KEY":"editor","*":"owner"} (owned), {} when none */
	int64_t created_at;
	int64_t password_changed_at;   /* -1: never set */
};
/* Free what a holds and clear it; NULL, or a cleared one, does nothing. */
void store_account_clear(struct store_account *a);

/*
 * A new account, in one transaction: name (store_account_name_ok), phc
 * the password's PHC string or NULL (none until a reset code sets one),
 * totp_secret base32 or NULL (no factor; unconfirmed otherwise), the
 * nrecovery hashes of its recovery codes (NULL when 0), roles an object
 * {"KEY":"owner"|"editor"|"viewer"} (NULL: none), created at now.
 * STORE_EXISTS when the name is taken; STORE_NOTFOUND when a role names a
 * site key that is no site (nothing added).
 */
int store_account_add(struct store *st, const char *name, const char *phc,
                      const char *totp_secret, const char *const *recovery, size_t nrecovery,
                      const cJSON *roles, int64_t now);
/* The account into *out (cleared first; the caller frees it with
 * store_account_clear()): STORE_OK or STORE_NOTFOUND. */
int store_account_get(struct store *st, const char *name, struct store_account *out);
/* How many accounts exist (the dashboard's setup is needed while 0). */
int store_account_count(struct store *st, int64_t *n);
/* Every account, by name, as rows {"username","roles","totp","created_at"}:
 * roles the object of store_account_get, totp true when it has a
 * secret, created_at epoch seconds. */
int store_account_list(struct store *st, store_row_fn fn, void *arg);
/* Remove the account with its roles, recovery codes, reset codes and
 * sessions (its sign-in attempts stay): STORE_OK or STORE_NOTFOUND. */
int store_account_remove(struct store *st, const char *name);
/*
 * Set the password (phc, a PHC string) at now, in one transaction: its
 * reset codes go, and every session of the account but keep_hash's (the
 * token hash of the session that made the change; NULL: all of them)
 * ends.  STORE_OK or STORE_NOTFOUND.
 */
int store_account_set_password(struct store *st, const char *name, const char *phc,
                               const char *keep_hash, int64_t now);
/* Replace all the account's roles by roles (as store_account_add; NULL or
 * {}: none) in one transaction: STORE_OK, STORE_NOTFOUND (no account, or
 * a key that is no site: nothing changed). */
int store_account_set_roles(struct store *st, const char *name, const cJSON *roles);
/*
 * A new second factor, in one transaction: totp_secret base32 (stored
 * unconfirmed, no step accepted yet) or NULL (none); the recovery codes
 * replaced by the nrecovery hashes; every session of the account but
 * keep_hash's (NULL: all) ended.  STORE_OK or STORE_NOTFOUND.
 */
int store_account_reset_2fa(struct store *st, const char *name, const char *totp_secret,
                            const char *const *recovery, size_t nrecovery,
                            const char *keep_hash);
/*
 * Accept TOTP step for the account, once (RFC 6238 5.2), in one atomic
 * statement: the step is stored as the last accepted and the factor
 * confirmed only if no step at or after it was accepted before.
 * STORE_OK accepted; STORE_EXISTS replayed (a step at or before the last
 * accepted: the caller answers as for a wrong code); STORE_NOTFOUND no
 * such account.  The caller verifies the code first (totp_verify with
 * store_account's totp_last_step), then calls this: of two requests with
 * the same code only one gets STORE_OK.
 */
int store_account_totp_accept(struct store *st, const char *name, int64_t step);
/* Use one of the account's recovery codes, atomically: an unused one whose
 * hash is hash is marked used at now.  STORE_OK, or STORE_NOTFOUND (no
 * such account, no such code, or used already). */
int store_account_recovery_use(struct store *st, const char *name, const char *hash,
                               int64_t now);
/* How many of the account's recovery codes are unused: STORE_OK or
 * STORE_NOTFOUND. */
int store_account_recovery_left(struct store *st, const char *name, int64_t *n);

/*
 * A one-time reset code (consentctl user add without a password, user
 * reset-password): hash its SHA-256 hex, valid until expires (exclusive).
 * It replaces any earlier code of the account.  STORE_OK or STORE_NOTFOUND.
 */
int store_reset_add(struct store *st, const char *name, const char *hash, int64_t expires);
/*
 * Use a reset code and set the password, in one transaction: when the
 * account has a code of this hash that expires after now, the code is
 * deleted (one time), the password becomes phc (password_changed_at now),
 * its other reset codes go and every session of the account ends.
 * STORE_OK, or STORE_NOTFOUND (no such account, code, or an expired one:
 * one answer for all, nothing changed).
 */
int store_reset_use(struct store *st, const char *name, const char *hash, const char *phc,
                    int64_t now);

/* A session.  The token itself is never stored: token_hash is its SHA-256
 * hex; id is a public id the caller makes at random (not derived from the
 * token) to list and end it by. */
struct store_session {
	char token_hash[65];
	char id[STORE_SESSION_ID_MAX + 1];
	char account[STORE_ACCOUNT_NAME_MAX + 1];
	char csrf[STORE_CSRF_MAX + 1];
	int64_t created_at;
	int64_t last_seen;
	int64_t authenticated_at;   /* sign-in or the last re-authentication */
	char address[STORE_ADDRESS_MAX + 1];   /* "" when none was given */
};
/*
 * Add s (token_hash, id, account, csrf, address; the three times are set
 * to now): STORE_OK, STORE_EXISTS when the token hash or the id is taken
 * (make new ones), STORE_NOTFOUND when the account does not exist.
 */
int store_session_add(struct store *st, const struct store_session *s, int64_t now);
/*
 * The live session of token hash token_hash into *out, and its last_seen
 * moved to now, in one write transaction.  A session last seen idle
 * seconds or more before now, or created absolute seconds or more before
 * now, is expired: deleted, and STORE_NOTFOUND as for one that does not
 * exist.  STORE_OK or STORE_NOTFOUND (*out cleared).
 */
int store_session_get(struct store *st, const char *token_hash, int64_t now, int64_t idle,
                      int64_t absolute, struct store_session *out);
/* The session re-authenticated: authenticated_at = now.  STORE_OK or
 * STORE_NOTFOUND. */
int store_session_reauth(struct store *st, const char *token_hash, int64_t now);
/* Sign-out: the session deleted.  STORE_OK or STORE_NOTFOUND. */
int store_session_delete(struct store *st, const char *token_hash);
/* End the session with public id id if it is account's: STORE_OK, or
 * STORE_NOTFOUND (none, or another account's). */
int store_session_end(struct store *st, const char *account, const char *id);
/* The account's sessions, newest first, as rows
 * {"id","created_at","last_seen","address","current"}: current true for
 * the one of token hash current_hash (NULL: none). */
int store_session_list(struct store *st, const char *account, const char *current_hash,
                       store_row_fn fn, void *arg);

/* Failed sign-ins in a window, as common/admin/throttle.h's struct
 * throttle_failures counts them (copy the three fields across). */
struct store_failures {
	unsigned count;
	time_t first;   /* the earliest (0 when count is 0) */
	time_t latest;  /* the latest (0 when count is 0) */
};
/*
 * The start of a sign-in attempt, in one write transaction (SQLite BEGIN
 * IMMEDIATE, PostgreSQL a transaction-level advisory lock), so that no
 * two attempts read the failures without seeing each other: the failures
 * of the name as typed (cut to STORE_ATTEMPT_NAME_MAX bytes) and of the
 * address (NULL: none, by_address zero) in the window seconds before now
 * are read into *by_name and *by_address, and the attempt itself is
 * recorded with result "pending", which counts as a failure until
 * store_signin_record() gives its result.  *attempt is its id.  Failures
 * are the results "bad" and "pending".
 */
int store_signin_begin(struct store *st, const char *typed, const char *address, int64_t now,
                       int64_t window, struct store_failures *by_name,
                       struct store_failures *by_address, int64_t *attempt);
/* The attempt's result: "ok", "bad" (a failure), "throttled", "enrol" or
 * another short word of the caller's (only "bad" counts as a failure).
 * STORE_OK or STORE_NOTFOUND. */
int store_signin_record(struct store *st, int64_t attempt, const char *result);
/* The attempts at or after since, newest first, as rows
 * {"at","username","address","result"} (consentctl and the audit view). */
int store_signin_list(struct store *st, int64_t since, store_row_fn fn, void *arg);

/* Let go of what is past use, in one transaction: sign-in attempts older
 * than STORE_ACCOUNT_KEEP seconds before now, sessions created that long
 * before now (beyond any absolute limit) and expired reset codes.  Called
 * now and then (at sign-in): STORE_OK or STORE_ERROR. */
int store_account_purge(struct store *st, int64_t now);

#endif
