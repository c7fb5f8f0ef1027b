/* api.c: the dashboard's dispatcher: the route, the setup gate, the session, every request's checks, the answer. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "admin/api.h"
#include "admin/api_req.h"
#include "admin/install.h"
#include "admin/setup_token.h"
#include "base/io.h"
#include "base/log.h"
#include "base/nitems.h"
#include "input/valid.h"
#include "store/store_account.h"
#include "store/store_audit.h"

/* What a route needs before its handler runs (docs/admin-api.md). */
enum {
	R_SESSION = 1 << 0,   /* a signed-in session (else 401) */
	R_SETUP = 1 << 1,     /* answers only while no account exists */
	R_OWNER_ALL = 1 << 2, /* an owner of every site ("*") */
	R_REAUTH = 1 << 3,    /* authenticated within API_REAUTH_SECONDS */
	R_BIG = 1 << 4        /* a body up to API_BODY_BIG_MAX */
};

struct route {
	enum api_method method;
	const char *pattern;  /* segments; "{...}" matches any one */
	unsigned flags;
	api_handler fn;
};

/* Every route of docs/admin-api.md, which is the list the tests walk. */
static const struct route routes[] = {
	{ API_GET, "setup", R_SETUP, route_setup_get },
	{ API_POST, "setup", R_SETUP, route_setup_post },
	{ API_POST, "session", 0, route_session_post },
	{ API_GET, "session", R_SESSION, route_session_get },
	{ API_DELETE, "session", R_SESSION, route_session_delete },
	{ API_POST, "session/reauth", R_SESSION, route_session_reauth },
	{ API_POST, "account/password", R_SESSION | R_REAUTH, route_account_password },
	{ API_GET, "account/sessions", R_SESSION, route_account_sessions },
	{ API_DELETE, "account/sessions/{id}", R_SESSION, route_account_session_end },
	{ API_POST, "account/reset", 0, route_account_reset },
	{ API_GET, "users", R_SESSION | R_OWNER_ALL, route_users_list },
	{ API_POST, "users", R_SESSION | R_OWNER_ALL | R_REAUTH, route_users_add },
	{ API_PATCH, "users/{name}", R_SESSION | R_OWNER_ALL | R_REAUTH, route_user_patch },
	{ API_DELETE, "users/{name}", R_SESSION | R_OWNER_ALL | R_REAUTH, route_user_delete },
	{ API_GET, "audit", R_SESSION, route_audit_list },
	/* api_sites.c and api_configs.c: the site routes (the role on the
	 * site is the handler's api_need(): it depends on the fields). */
	{ API_GET, "sites", R_SESSION, route_sites_list },
	{ API_POST, "sites", R_SESSION | R_OWNER_ALL, route_sites_add },
	{ API_GET, "sites/{key}", R_SESSION, route_site_get },
	{ API_PATCH, "sites/{key}", R_SESSION, route_site_patch },
	{ API_POST, "sites/{key}/pause", R_SESSION, route_site_pause },
	{ API_POST, "sites/{key}/resume", R_SESSION, route_site_resume },
	{ API_GET, "sites/{key}/domains", R_SESSION, route_domains_list },
	{ API_POST, "sites/{key}/domains", R_SESSION, route_domains_add },
	{ API_DELETE, "sites/{key}/domains", R_SESSION, route_domains_remove },
	{ API_GET, "sites/{key}/configs", R_SESSION, route_configs_list },
	{ API_POST, "sites/{key}/configs", R_SESSION | R_BIG, route_configs_publish },
	{ API_GET, "sites/{key}/configs/{version}", R_SESSION, route_config_get },
	{ API_POST, "sites/{key}/preview", R_SESSION | R_BIG, route_preview },
	/* api_scripts.c, api_log.c, api_proof.c: issue 26 (the role and the
	 * re-authentication are the handler's: the role is checked first). */
	{ API_GET, "sites/{key}/scripts", R_SESSION, route_scripts_list },
	{ API_POST, "sites/{key}/syncs", R_SESSION, route_syncs_start },
	{ API_GET, "sites/{key}/syncs/{id}", R_SESSION, route_sync_get },
	{ API_GET, "sites/{key}/rules", R_SESSION, route_rules_get },
	{ API_POST, "sites/{key}/rules", R_SESSION, route_rules_publish },
	{ API_GET, "sites/{key}/consents", R_SESSION, route_consents_list },
	{ API_GET, "sites/{key}/consents/export", R_SESSION, route_consents_export },
	{ API_GET, "sites/{key}/receipt", R_SESSION, route_receipt },
	{ API_POST, "sites/{key}/erase", R_SESSION, route_erase },
	{ API_GET, "sites/{key}/proof", R_SESSION, route_proof },
	{ API_POST, "sites/{key}/seal", R_SESSION, route_seal },
	{ API_POST, "sites/{key}/verify", R_SESSION, route_verify },
	{ API_POST, "sites/{key}/purge", R_SESSION, route_purge },
	{ API_GET, "sites/{key}/report", R_SESSION, route_report },
	{ API_GET, "backup", R_SESSION | R_OWNER_ALL | R_REAUTH, route_backup },
};

static const char *const method_names[] = {
	[API_GET] = "GET", [API_POST] = "POST", [API_PUT] = "PUT",
	[API_PATCH] = "PATCH", [API_DELETE] = "DELETE",
};

static const char *
reason(int status)
{
	switch (status) {
	case 200: return "OK";
	case 201: return "Created";
	case 400: return "Bad Request";
	case 401: return "Unauthorized";
	case 403: return "Forbidden";
	case 404: return "Not Found";
	case 405: return "Method Not Allowed";
	case 409: return "Conflict";
	case 413: return "Content Too Large";
	case 415: return "Unsupported Media Type";
	case 429: return "Too Many Requests";
	case 501: return "Not Implemented";
	case 503: return "Service Unavailable";
	default:  return "Internal Server Error";
	}
}

int
api_answer(struct api *a, int status, cJSON *body)
{
	char head[1024 + sizeof(a->extra)], *text = NULL, *all;
	size_t blen = 0;
	int n, rc;

	if (a->sent) {
		cJSON_Delete(body);
		return 0;
	}
	if (body != NULL && (text = cJSON_PrintUnformatted(body)) == NULL) {
		log_error("out of memory printing the answer");
		status = 500;
	}
	cJSON_Delete(body);
	if (status == 500 && text == NULL)
		text = strdup("{\"error\":\"Internal server error\"}");
	blen = text ? strlen(text) : 0;
	a->sent = 1;
	a->status = status;
	n = snprintf(head, sizeof(head),
	    "Status: %d %s\r\n"
	    "Content-Type: application/json; charset=utf-8\r\n"
	    "Cache-Control: no-store\r\n"
	    "X-Content-Type-Options: nosniff\r\n"
	    "Referrer-Policy: no-referrer\r\n"
	    "Content-Security-Policy: default-src 'none'; frame-ancestors 'none'\r\n"
	    "%s"
	    "Content-Length: %zu\r\n"
	    "\r\n",
	    status, reason(status), a->extra, blen);
	if (n < 0 || (size_t)n >= sizeof(head) || (all = malloc((size_t)n + blen + 1)) == NULL) {
		free(text);
		return -1;
	}
	memcpy(all, head, (size_t)n);
	if (blen > 0)
		memcpy(all + n, text, blen);
	rc = io_write(all, (size_t)n + blen);
	free(all);
	free(text);
	return rc;
}

int
api_download(struct api *a, const char *type, const char *filename)
{
	char head[1024 + sizeof(a->extra)];
	int n;

	if (a->sent)
		return 0;
	if (strspn(filename, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-")
	    != strlen(filename) || strpbrk(type, "\r\n") != NULL)
		return api_error(a, 500, "Internal server error");
	n = snprintf(head, sizeof(head),
	    "Status: 200 OK\r\n"
	    "Content-Type: %s\r\n"
	    "Content-Disposition: attachment; filename=\"%s\"\r\n"
	    "Cache-Control: no-store\r\n"
	    "X-Content-Type-Options: nosniff\r\n"
	    "Referrer-Policy: no-referrer\r\n"
	    "Content-Security-Policy: default-src 'none'; frame-ancestors 'none'\r\n"
	    "%s"
	    "\r\n",
	    type, filename, a->extra);
	if (n < 0 || (size_t)n >= sizeof(head))
		return api_error(a, 500, "Internal server error");
	a->sent = 1;
	a->status = 200;
	return io_write(head, (size_t)n);
}

int
api_error(struct api *a, int status, const char *msg)
{
	cJSON *o = cJSON_CreateObject();

	if (o == NULL || cJSON_AddStringToObject(o, "error", msg) == NULL) {
		cJSON_Delete(o);
		return api_answer(a, 500, NULL);
	}
	return api_answer(a, status, o);
}

int
api_header(struct api *a, const char *name, const char *value)
{
	size_t have = strlen(a->extra);
	int n;

	if (strpbrk(name, "\r\n:") != NULL || strpbrk(value, "\r\n") != NULL)
		return -1;
	n = snprintf(a->extra + have, sizeof(a->extra) - have, "%s: %s\r\n", name, value);
	if (n < 0 || (size_t)n >= sizeof(a->extra) - have) {
		a->extra[have] = '\0';
		log_error("answer headers too long: %s", name);
		return -1;
	}
	return 0;
}

int
api_body(struct api *a, const struct vfield *f, size_t n)
{
	char err[256];

	if (a->body == NULL) {
		api_error(a, 400, "A JSON body is required");
		return -1;
	}
	if (valid_object(a->body, f, n, "", err, sizeof(err)) != 0) {
		api_error(a, 400, err);
		return -1;
	}
	return 0;
}

int
api_success(struct api *a, int status)
{
	cJSON *o = cJSON_CreateObject();

	if (o == NULL || cJSON_AddTrueToObject(o, "success") == NULL) {
		cJSON_Delete(o);
		return api_answer(a, 500, NULL);
	}
	return api_answer(a, status, o);
}

int
api_rows_append(const cJSON *row, void *arg)
{
	cJSON *copy = cJSON_Duplicate(row, 1);

	if (copy == NULL || !cJSON_AddItemToArray(arg, copy)) {
		cJSON_Delete(copy);
		return -1;
	}
	return 0;
}

int
api_answer_rows(struct api *a, const char *name, int rc, cJSON *rows)
{
	cJSON *o = cJSON_CreateObject();

	if (rc != STORE_OK || rows == NULL || o == NULL) {
		cJSON_Delete(rows);
		cJSON_Delete(o);
		return api_error(a, 500, "Internal server error");
	}
	if (!cJSON_AddItemToObject(o, name, rows)) {
		cJSON_Delete(rows);
		cJSON_Delete(o);
		return api_error(a, 500, "Internal server error");
	}
	return api_answer(a, 200, o);
}

int
api_query_int(const struct api *a, const char *name, int64_t lo, int64_t hi, int64_t *out)
{
	char buf[24], *end;
	long long v;

	switch (http_query_param(a->req.query, name, buf, sizeof(buf))) {
	case HTTP_PARAM_ABSENT:
		return 0;
	case HTTP_PARAM_FOUND:
		break;
	default:
		return -1;
	}
	if (buf[0] < '0' || buf[0] > '9')
		return -1;
	v = strtoll(buf, &end, 10);
	if (*end != '\0' || v < lo || v > hi)
		return -1;
	*out = v;
	return 1;
}

static enum api_role
role_named(const char *s)
{
	if (s == NULL)
		return ROLE_NONE;
	if (strcmp(s, "owner") == 0)
		return ROLE_OWNER;
	if (strcmp(s, "editor") == 0)
		return ROLE_EDITOR;
	if (strcmp(s, "viewer") == 0)
		return ROLE_VIEWER;
	return ROLE_NONE;
}

enum api_role
api_role(const struct api *a, const char *key)
{
	enum api_role own, all;

	if (a->roles == NULL || key == NULL)
		return ROLE_NONE;
	own = role_named(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(a->roles, key)));
	all = role_named(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(a->roles, "*")));
	return own > all ? own : all;
}

int
api_owner_all(const struct api *a)
{
	return a->roles != NULL &&
	    role_named(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(a->roles, "*")))
	    == ROLE_OWNER;
}

int
api_need(struct api *a, const char *key, enum api_role need)
{
	enum api_role have = api_role(a, key);

	if (have == ROLE_NONE) {
		api_error(a, 404, "Site not found");
		return -1;
	}
	if (have < need) {
		api_error(a, 403, "Forbidden");
		return -1;
	}
	return 0;
}

int
api_need_reauth(struct api *a)
{
	if (a->user[0] != '\0' && a->now >= a->authenticated_at &&
	    a->now - a->authenticated_at < API_REAUTH_SECONDS)
		return 0;
	api_error(a, 403, "Re-authentication required");
	return -1;
}

int
api_audit(struct api *a, const char *site_key, const char *action, const cJSON *detail,
          int64_t version)
{
	char *text = NULL;
	int rc;

	if (detail != NULL && (text = cJSON_PrintUnformatted(detail)) == NULL) {
		log_error("out of memory recording %s", action);
		return -1;
	}
	rc = store_audit_add(a->st, a->user[0] ? a->user : "setup", site_key, action, text,
	    version);
	cJSON_free(text);
	if (rc != STORE_OK) {
		log_error("the audit record of %s could not be written", action);
		return -1;
	}
	return 0;
}

/* The route for the request, or NULL with 404 or 405 (and Allow) sent. */
static const struct route *
find_route(struct api *a)
{
	char allow[64] = "";
	size_t i;

	if (api_path_split(http_env("PATH_INFO"), a->path, a->seg, &a->nseg) != 0) {
		api_error(a, 404, "Not found");
		return NULL;
	}
	for (i = 0; i < nitems(routes); i++) {
		if (!api_path_match(a->seg, a->nseg, routes[i].pattern))
			continue;
		if (routes[i].method == a->method)
			return &routes[i];
		if (strstr(allow, method_names[routes[i].method]) == NULL) {
			if (allow[0] != '\0')
				strcat(allow, ", ");
			strcat(allow, method_names[routes[i].method]);
		}
	}
	if (allow[0] == '\0') {
		api_error(a, 404, "Not found");
		return NULL;
	}
	api_header(a, "Allow", allow);
	api_error(a, 405, "Method not allowed");
	return NULL;
}

static enum api_method
method_of(const char *m)
{
	static const struct { const char *name; enum api_method m; } names[] = {
		{ "GET", API_GET }, { "POST", API_POST }, { "PUT", API_PUT },
		{ "PATCH", API_PATCH }, { "DELETE", API_DELETE },
	};
	size_t i;

	for (i = 0; m != NULL && i < nitems(names); i++)
		if (strcmp(m, names[i].name) == 0)
			return names[i].m;
	return API_OTHER;
}

/*
 * The session of the request's cookie into a: its account, roles, CSRF
 * token and times.  The store ends a session idle API_IDLE_SECONDS or
 * older than API_ABSOLUTE_SECONDS (store_session_get).  1 signed in, 0
 * not (no cookie, a malformed one, an unknown, expired or ended session,
 * or an account gone), -1 a store error.
 */
static int
load_session(struct api *a)
{
	char token[TOKEN_LEN + 1];
	struct store_session s;
	struct store_account acc;
	int rc;

	if (token_cookie_find(http_env("HTTP_COOKIE"), token) != TOKEN_COOKIE_FOUND)
		return 0;
	if (token_hash(token, a->session_hash) != 0)
		return -1;
	rc = store_session_get(a->st, a->session_hash, a->now, API_IDLE_SECONDS,
	    API_ABSOLUTE_SECONDS, &s);
	if (rc != STORE_OK)
		return rc == STORE_NOTFOUND ? 0 : -1;
	if ((rc = store_account_get(a->st, s.account, &acc)) != STORE_OK)
		return rc == STORE_NOTFOUND ? 0 : -1;
	if (strlen(s.csrf) != TOKEN_LEN) {
		store_account_clear(&acc);
		return 0;
	}
	memcpy(a->csrf, s.csrf, TOKEN_LEN + 1);
	memcpy(a->user, acc.name, sizeof(a->user));
	a->roles = acc.roles;
	acc.roles = NULL;
	store_account_clear(&acc);
	a->authenticated_at = (time_t)s.authenticated_at;
	return 1;
}

int
api_origin(char out[ORIGIN_MAX + 1])
{
	return api_own_origin(http_env("HTTP_HOST"), http_env("HTTPS"), http_env("REQUEST_SCHEME"),
	    out);
}

/* ADMIN.md 4: the same-origin checks (api_same_origin).  0, or -1 with
 * 403 sent. */
static int
check_same_origin(struct api *a)
{
	if (api_same_origin(http_env("HTTP_SEC_FETCH_SITE"), a->req.origin, http_env("HTTP_HOST"),
	    http_env("HTTPS"), http_env("REQUEST_SCHEME")))
		return 0;
	api_error(a, 403, "Cross-site request refused");
	return -1;
}

/* The body of a request that changes something: none, or one JSON object
 * of the right type and size into a->body.  0, or -1 with the answer sent. */
static int
read_body(struct api *a, const struct route *r)
{
	const char *cl = http_env("CONTENT_LENGTH"), *msg;
	enum http_err err;
	int status;

	if (cl == NULL || *cl == '\0' || strcmp(cl, "0") == 0)
		return 0;
	if (!api_json_type(http_env("CONTENT_TYPE"))) {
		api_error(a, 415, "Content-Type must be application/json");
		return -1;
	}
	err = http_read_body_max(&a->req, (r->flags & R_BIG) ? API_BODY_BIG_MAX : API_BODY_MAX);
	if (err != HTTP_OK) {
		status = http_err_status(err, &msg);
		api_error(a, status, msg);
		return -1;
	}
	if ((a->body = valid_parse_body(a->req.body, a->req.body_len)) == NULL) {
		api_error(a, 400, "Invalid JSON body");
		return -1;
	}
	return 0;
}

/*
 * While no account exists, only the setup routes answer (ADMIN.md 3), and
 * the setup token's file is made if missing; once one exists, they are
 * 404.  A database that cannot be counted (a new file, or one older than
 * the dashboard's tables) has no account: the setup routes create or
 * upgrade it first (admin_install), as `consentctl init` would.  0 to go
 * on, or -1 with the answer sent.
 */
static int
setup_gate(struct api *a, const struct route *r)
{
	int64_t n = 0;

	if (store_account_count(a->st, &n) != STORE_OK) {
		n = 0;
		if ((r->flags & R_SETUP) && (admin_install(a->st, &a->upgraded) != 0 ||
		    store_account_count(a->st, &n) != STORE_OK)) {
			api_error(a, 500, "Internal server error");
			return -1;
		}
	}
	if (n == 0) {
		if (setup_token_ensure_mode(NULL, admin_install_token_mode()) != 0 &&
		    (r->flags & R_SETUP)) {
			api_error(a, 500, "Internal server error");
			return -1;
		}
		if (r->flags & R_SETUP)
			return 0;
		api_error(a, 404, "Setup required");
		return -1;
	}
	if (r->flags & R_SETUP) {
		/* An account made otherwise (consentctl user add) leaves it. */
		setup_token_remove(NULL);
		api_error(a, 404, "Not found");
		return -1;
	}
	return 0;
}

/* The store, for the setup routes created when missing (first the
 * settings file of a release: admin_install_settings); a database file
 * that does not exist yet, for any other route, means setup is required.
 * 0, or -1 with the answer sent. */
static int
open_store(struct api *a, const struct route *r)
{
	char fix[INSTALL_FIX_MAX];
	const char *path;

	/* A release's first run: the settings file, or what to change (503). */
	if ((r->flags & R_SETUP) && admin_install_settings(fix) != 0) {
		api_error(a, 503, fix);
		return -1;
	}
	path = store_default_path();
	if (store_acquire(&a->st, (r->flags & R_SETUP) ? STORE_CREATE : STORE_WRITE) == STORE_OK)
		return 0;
	a->st = NULL;
	if (!store_is_conninfo(path) && access(path, F_OK) != 0 && errno == ENOENT)
		api_error(a, 404, "Setup required");
	else
		api_error(a, 500, "Internal server error");
	return -1;
}

/* docs/admin-api.md "Every request", in its order; then the handler. */
static void
dispatch(struct api *a)
{
	const struct route *r;
	int rc, changes;

	if ((r = find_route(a)) == NULL)
		return;
	if (open_store(a, r) != 0 || setup_gate(a, r) != 0)
		return;
	if (r->flags & R_SESSION) {
		if ((rc = load_session(a)) < 0) {
			api_error(a, 500, "Internal server error");
			return;
		}
		if (rc == 0) {
			api_error(a, 401, "Not signed in");
			return;
		}
	}
	changes = a->method != API_GET;
	if (changes && check_same_origin(a) != 0)
		return;
	if (changes && (r->flags & R_SESSION) &&
	    !token_equal(http_env("HTTP_X_CSRF_TOKEN"), a->csrf)) {
		api_error(a, 403, "CSRF check failed");
		return;
	}
	if (changes && read_body(a, r) != 0)
		return;
	if ((r->flags & R_OWNER_ALL) && !api_owner_all(a)) {
		api_error(a, 403, "Forbidden");
		return;
	}
	if ((r->flags & R_REAUTH) && api_need_reauth(a) != 0)
		return;
	r->fn(a);
	if (!a->sent)
		api_error(a, 500, "Internal server error");
}

void
api_request(void)
{
	static struct api a;

	memset(&a, 0, sizeof(a));
	http_req_init(&a.req);
	a.now = api_now();
	a.method = method_of(io_env("REQUEST_METHOD"));
	a.address = http_env("REMOTE_ADDR");
	dispatch(&a);
	if (a.st != NULL)
		store_release(a.st, a.status >= 500);
	cJSON_Delete(a.body);
	cJSON_Delete(a.roles);
	http_finish(&a.req);
}
