/* api_users.c: accounts and their roles, and the audit trail's records (ADMIN.md 5 and 8). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "admin/api.h"
#include "admin/password.h"
#include "base/nitems.h"
#include "http/http.h"
#include "input/valid.h"
#include "store/store_account.h"
#include "store/store_audit.h"

/* A page of the audit trail: at most this many records. */
#define AUDIT_PAGE_DEFAULT 50
#define AUDIT_PAGE_MAX 200

static const struct vfield user_add_fields[] = {
	{ "username", V_STRING, 1, 1, API_USER_MAX, 0, 0, NULL },
	{ "password", V_STRING, 1, 0, API_BODY_MAX, 0, 0, NULL },
	{ "roles", V_OBJECT, 1, 0, 1000, 0, 0, NULL },
};
static const struct vfield user_patch_fields[] = {
	{ "roles", V_OBJECT, 0, 0, 1000, 0, 0, NULL },
	{ "password", V_STRING, 0, 0, API_BODY_MAX, 0, 0, NULL },
	{ "reset_2fa", V_BOOL, 0, 0, 0, 0, 0, NULL },
};

/* A roles object {"KEY"|"*": "owner"|"editor"|"viewer"}: 0, or -1 with
 * 400 sent. */
static int
roles_ok(struct api *a, const cJSON *roles)
{
	const cJSON *r;

	cJSON_ArrayForEach(r, roles) {
		if ((strcmp(r->string, "*") != 0 && !valid_site_key(r->string)) ||
		    !cJSON_IsString(r) || !store_role_ok(r->valuestring)) {
			api_error(a, 400, "roles must map site keys or \"*\" to owner, editor or viewer");
			return -1;
		}
	}
	return 0;
}

/* The account named in the path: 0, or -1 with 404 sent. */
static int
path_user(struct api *a, const char **name)
{
	*name = a->seg[1];
	if (!store_account_name_ok(*name)) {
		api_error(a, 404, "User not found");
		return -1;
	}
	return 0;
}

/* Whether roles make an owner of every site. */
static int
owner_all_in(const cJSON *roles)
{
	const char *all = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(roles, "*"));

	return all != NULL && strcmp(all, "owner") == 0;
}

/* store_row_fn: counts the owners of every site other than arg's name. */
struct owners {
	const char *except;
	int n;
};

static int
count_owner(const cJSON *row, void *arg)
{
	struct owners *o = arg;
	const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(row, "username"));

	if (owner_all_in(cJSON_GetObjectItemCaseSensitive(row, "roles")) && name != NULL &&
	    strcmp(name, o->except) != 0)
		o->n++;
	return 0;
}

/*
 * Whether an owner of every site would be left if name lost that role:
 * the installation must keep one account that manages accounts.  0 when
 * one would, else -1 with 409 (or 500) sent.
 */
static int
keeps_an_owner(struct api *a, const char *name)
{
	struct owners o = { name, 0 };

	if (store_account_list(a->st, count_owner, &o) != STORE_OK) {
		api_error(a, 500, "Internal server error");
		return -1;
	}
	if (o.n == 0) {
		api_error(a, 409, "The last owner of every site cannot lose that role");
		return -1;
	}
	return 0;
}

/* The audit detail {"username", "roles"?}; NULL when out of memory. */
static cJSON *
user_detail(const char *name, const cJSON *roles)
{
	cJSON *d = cJSON_CreateObject();

	if (d == NULL || cJSON_AddStringToObject(d, "username", name) == NULL ||
	    (roles != NULL && !cJSON_AddItemToObject(d, "roles", cJSON_Duplicate(roles, 1)))) {
		cJSON_Delete(d);
		return NULL;
	}
	return d;
}

/* Record the change and answer status with {"username","roles"?}. */
static void
changed(struct api *a, int status, const char *action, const char *name, const cJSON *roles)
{
	cJSON *d = user_detail(name, roles);

	if (d == NULL || api_audit(a, NULL, action, d, -1) != 0) {
		cJSON_Delete(d);
		api_error(a, 500, "Internal server error");
		return;
	}
	api_answer(a, status, d);
}

void
route_users_list(struct api *a)
{
	cJSON *rows = cJSON_CreateArray();
	int rc = rows ? store_account_list(a->st, api_rows_append, rows) : STORE_ERROR;

	api_answer_rows(a, "users", rc, rows);
}

/* A new account (ADMIN.md 5): its password under the policy; an owner
 * enrols a second factor at the first sign-in (ADMIN.md 2). */
void
route_users_add(struct api *a)
{
	const char *name, *pw;
	const cJSON *roles;
	char phc[PASSWORD_PHC_MAX];
	enum password_err e;
	int rc;

	if (api_body(a, user_add_fields, nitems(user_add_fields)) != 0)
		return;
	name = cJSON_GetStringValue(valid_get(a->body, "username"));
	pw = cJSON_GetStringValue(valid_get(a->body, "password"));
	roles = valid_get(a->body, "roles");
	if (!store_account_name_ok(name)) {
		api_error(a, 400, "username must be 1 to 64 characters of a-z0-9._@-");
		return;
	}
	if (roles_ok(a, roles) != 0)
		return;
	if ((e = password_check(pw)) != PASSWORD_OK) {
		api_error(a, 400, password_message(e));
		return;
	}
	if (password_hash(pw, phc) != PASSWORD_OK) {
		api_error(a, 500, "Internal server error");
		return;
	}
	rc = store_account_add(a->st, name, phc, NULL, NULL, 0, roles, a->now);
	explicit_bzero(phc, sizeof(phc));
	if (rc == STORE_EXISTS)
		api_error(a, 409, "User exists");
	else if (rc == STORE_NOTFOUND)
		api_error(a, 404, "Site not found");
	else if (rc != STORE_OK)
		api_error(a, 500, "Internal server error");
	else
		changed(a, 201, "user.add", name, roles);
}

/*
 * Roles, a new password (the account's other sessions end; all of them
 * when it is another's) or its second factor reset (an owner enrols anew
 * at the next sign-in; the sessions end likewise).  All or nothing is
 * checked before anything changes.
 */
void
route_user_patch(struct api *a)
{
	const char *name, *pw;
	const cJSON *roles, *reset;
	const char *keep;
	char phc[PASSWORD_PHC_MAX];
	struct store_account acc;
	enum password_err e;
	int rc = STORE_OK;

	if (path_user(a, &name) != 0 || api_body(a, user_patch_fields,
	    nitems(user_patch_fields)) != 0)
		return;
	roles = valid_get(a->body, "roles");
	pw = cJSON_GetStringValue(valid_get(a->body, "password"));
	reset = valid_get(a->body, "reset_2fa");
	keep = strcmp(name, a->user) == 0 ? a->session_hash : NULL;
	if (roles == NULL && pw == NULL && !cJSON_IsTrue(reset)) {
		api_error(a, 400, "roles, password or reset_2fa is required");
		return;
	}
	if (roles != NULL && roles_ok(a, roles) != 0)
		return;
	if (pw != NULL && (e = password_check(pw)) != PASSWORD_OK) {
		api_error(a, 400, password_message(e));
		return;
	}
	if ((rc = store_account_get(a->st, name, &acc)) != STORE_OK) {
		api_error(a, rc == STORE_NOTFOUND ? 404 : 500,
		    rc == STORE_NOTFOUND ? "User not found" : "Internal server error");
		return;
	}
	store_account_clear(&acc);
	if (roles != NULL && !owner_all_in(roles) && keeps_an_owner(a, name) != 0)
		return;
	if (pw != NULL && password_hash(pw, phc) != PASSWORD_OK) {
		api_error(a, 500, "Internal server error");
		return;
	}
	if (roles != NULL)
		rc = store_account_set_roles(a->st, name, roles);
	if (rc == STORE_OK && pw != NULL)
		rc = store_account_set_password(a->st, name, phc, keep, a->now);
	if (rc == STORE_OK && cJSON_IsTrue(reset))
		rc = store_account_reset_2fa(a->st, name, NULL, NULL, 0, keep);
	if (pw != NULL)
		explicit_bzero(phc, sizeof(phc));
	if (rc == STORE_NOTFOUND)
		api_error(a, 404, roles != NULL ? "Site not found" : "User not found");
	else if (rc != STORE_OK)
		api_error(a, 500, "Internal server error");
	else
		changed(a, 200, "user.change", name, roles);
}

void
route_user_delete(struct api *a)
{
	const char *name;
	int rc;

	if (path_user(a, &name) != 0 || keeps_an_owner(a, name) != 0)
		return;
	rc = store_account_remove(a->st, name);
	if (rc == STORE_NOTFOUND)
		api_error(a, 404, "User not found");
	else if (rc != STORE_OK)
		api_error(a, 500, "Internal server error");
	else
		changed(a, 200, "user.remove", name, NULL);
}

/*
 * GET audit (ADMIN.md 5 and 8): ?site=KEY, that site's records, for its
 * owners; without it, every record, for owners of every site.  Newest
 * first, keyset-paginated by ?before=ID, ?limit=N; "next" is the before
 * of the next page when this one is full.
 */
void
route_audit_list(struct api *a)
{
	struct store_audit_filter f = { NULL, 0, 0, AUDIT_PAGE_DEFAULT };
	char key[SITE_KEY_MAX + 1];
	int64_t before = 0, limit = AUDIT_PAGE_DEFAULT;
	cJSON *rows, *o, *last;
	int rc;

	switch (http_query_param(a->req.query, "site", key, sizeof(key))) {
	case HTTP_PARAM_FOUND:
		if (!valid_site_key(key) || api_need(a, key, ROLE_OWNER) != 0) {
			if (!a->sent)
				api_error(a, 404, "Site not found");
			return;
		}
		f.site_key = key;
		break;
	case HTTP_PARAM_ABSENT:
		if (!api_owner_all(a)) {
			api_error(a, 403, "Forbidden");
			return;
		}
		break;
	default:
		api_error(a, 404, "Site not found");
		return;
	}
	if (api_query_int(a, "before", 1, INT64_MAX, &before) < 0 ||
	    api_query_int(a, "limit", 1, AUDIT_PAGE_MAX, &limit) < 0) {
		api_error(a, 400, "before and limit must be positive whole numbers (limit at most 200)");
		return;
	}
	f.before = before;
	f.limit = (size_t)limit;
	if ((rows = cJSON_CreateArray()) == NULL) {
		api_error(a, 500, "Internal server error");
		return;
	}
	rc = store_audit_list(a->st, &f, api_rows_append, rows);
	if (rc == STORE_NOTFOUND) {
		cJSON_Delete(rows);
		api_error(a, 404, "Site not found");
		return;
	}
	if (rc == STORE_OK && cJSON_GetArraySize(rows) == (int)limit &&
	    (last = cJSON_GetArrayItem(rows, (int)limit - 1)) != NULL) {
		if ((o = cJSON_GetObjectItemCaseSensitive(last, "id")) == NULL ||
		    !cJSON_IsNumber(o))
			rc = STORE_ERROR;
		else
			before = (int64_t)o->valuedouble;
	} else {
		before = 0;
	}
	if (rc != STORE_OK || (o = cJSON_CreateObject()) == NULL) {
		cJSON_Delete(rows);
		api_error(a, 500, "Internal server error");
		return;
	}
	if (!cJSON_AddItemToObject(o, "entries", rows) ||
	    (before > 0 && cJSON_AddNumberToObject(o, "next", (double)before) == NULL)) {
		cJSON_Delete(o);
		api_error(a, 500, "Internal server error");
		return;
	}
	api_answer(a, 200, o);
}
