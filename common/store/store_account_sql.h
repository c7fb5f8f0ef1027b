/* store_account_sql.h: private to the store: what both backends of the account store say alike. */
#ifndef CONSENT_STORE_ACCOUNT_SQL_H
#define CONSENT_STORE_ACCOUNT_SQL_H

/*
 * Only store/ includes this.  The rows of the listings (store_account.h),
 * described once as store_ops.h describes the others, and the helpers of
 * store_account.c that both backends call.
 */

#include <cjson/cJSON.h>

#include "store/store_account.h"

/* store_account_list */
#define ACCOUNT_COLUMN_LIST \
	{"username", ST_TEXT, 0}, {"roles", ST_JSON, 0}, {"totp", ST_BOOL, 0}, \
	{"created_at", ST_INT, 0}
/* store_session_list */
#define SESSION_COLUMN_LIST \
	{"id", ST_TEXT, 0}, {"created_at", ST_INT, 0}, {"last_seen", ST_INT, 0}, \
	{"address", ST_TEXT, 0}, {"current", ST_BOOL, 0}
/* store_signin_list */
#define SIGNIN_COLUMN_LIST \
	{"at", ST_INT, 0}, {"username", ST_TEXT, 0}, {"address", ST_TEXT, 1}, \
	{"result", ST_TEXT, 0}

/* The failures counted by store_signin_begin: results "bad" and "pending". */
#define SIGNIN_FAILED "('bad', 'pending')"

/* typed as a sign-in attempt keeps it: cut to STORE_ATTEMPT_NAME_MAX bytes
 * on a character's boundary, each byte that is no UTF-8 or a control
 * character made '?' (so either database takes it as text). */
void store_attempt_name(const char *typed, char out[STORE_ATTEMPT_NAME_MAX + 1]);

/* 1 when roles is NULL or an object whose members are site keys (1-64
 * bytes) with a role of store_role_ok(); else 0 (the store refuses it as
 * STORE_ERROR, reported by the caller). */
int store_roles_ok(const cJSON *roles);

#endif
