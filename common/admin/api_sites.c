/* api_sites.c: the dashboard's sites: list, create, read, change, pause and resume, domains (ADMIN.md 5-6). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "admin/api.h"
#include "admin/api_sites.h"
#include "base/io.h"
#include "base/limits.h"
#include "base/log.h"
#include "base/nitems.h"
#include "input/origin.h"
#include "input/valid.h"
#include "store/store_admin.h"

/*
 * Every rule on a site's fields is input/'s, as consentctl's: valid.h's
 * valid_site_key, valid_site_name, valid_tier, valid_mau_cap and
 * valid_retention_days, and origin_normalise_domain; a JSON number is
 * handed to them as the decimal text an operator would type.  Every
 * change is recorded (api_audit) under the action consentctl records for
 * the same change ("site.add", "domain.remove").
 */

static const char *const role_names[] = {
	[ROLE_NONE] = NULL, [ROLE_VIEWER] = "viewer", [ROLE_EDITOR] = "editor",
	[ROLE_OWNER] = "owner",
};

const char *
api_site_key(struct api *a, enum api_role need)
{
	const char *key = a->nseg > 1 ? a->seg[1] : NULL;

	if (key == NULL || !valid_site_key(key)) {
		api_error(a, 404, "Site not found");
		return NULL;
	}
	return api_need(a, key, need) == 0 ? key : NULL;
}

int
api_site_failed(struct api *a, int rc)
{
	if (rc == STORE_NOTFOUND)
		api_error(a, 404, "Site not found");
	else
		api_error(a, 500, "Internal server error");
	return -1;
}

/* ---- the site's answer ---- */

/* The characters a base URL's path may hold: no quote, no space, no '%'. */
#define BASE_PATH_CHARS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._~/-"

/*
 * The folder the dashboard's API is served under, from the request's
 * REQUEST_URI: its part before the first "/admin/api" ("/~customer/consent" for a
 * release uploaded there, "" at the host's root), where the SDK and
 * /functions/v1/ are too (the release's .htaccess, every shipped config).
 * Its length, or 0 when it is empty, absent, not made of BASE_PATH_CHARS
 * alone or holds an empty segment.
 */
static size_t
request_folder(const char **folder)
{
	const char *uri = http_env("REQUEST_URI"), *at = uri, *end = NULL;
	size_t n, i;

	while (end == NULL && at != NULL && (at = strstr(at, "/admin/api")) != NULL) {
		if (at[10] == '/' || at[10] == '\0' || at[10] == '?')
			end = at;
		at += 10;
	}
	if (end == NULL || end == uri || uri[0] != '/')
		return 0;
	n = (size_t)(end - uri);
	if (strspn(uri, BASE_PATH_CHARS) < n)
		return 0;
	for (i = 1; i < n; i++)
		if (uri[i] == '/' && uri[i - 1] == '/')
			return 0;
	*folder = uri;
	return n;
}

/*
 * The service's base URL ({base_url}, where /sdk/consent.js and
 * /functions/v1/ are) into out: CONSENT_BASE_URL when it is set and
 * well-formed ("https://host[:port]" and an optional path of
 * BASE_PATH_CHARS, its trailing slashes dropped), else the dashboard's
 * own origin (api_origin()) and the folder its API is served under
 * (request_folder()).  0, or -1 when neither gives one.
 */
static int
base_url(char out[ORIGIN_MAX + 1])
{
	const char *set = io_env("CONSENT_BASE_URL"), *path, *folder = NULL;
	char h[HOST_MAX + 1];
	size_t n, len;

	if (set == NULL || *set == '\0') {
		if (api_origin(out) != 0)
			return -1;
		len = strlen(out);
		if ((n = request_folder(&folder)) > 0 && len + n <= ORIGIN_MAX) {
			memcpy(out + len, folder, n);
			out[len + n] = '\0';
		}
		return 0;
	}
	len = strlen(set);
	path = strchr(set, '/');
	if (path != NULL && path[1] == '/')  /* past the scheme's "//" */
		path = strchr(path + 2, '/');
	n = path != NULL ? (size_t)(path - set) : len;
	if (len <= ORIGIN_MAX && (path == NULL || strspn(path, BASE_PATH_CHARS) == strlen(path))) {
		memcpy(out, set, n);
		out[n] = '\0';
		if (origin_host(out, h) == 0) {
			memcpy(out, set, len + 1);
			while (len > 0 && out[len - 1] == '/')
				out[--len] = '\0';
			return 0;
		}
	}
	log_error("CONSENT_BASE_URL is not an http(s) URL of a host and a path; using the "
	    "dashboard's own origin");
	return api_origin(out);
}

/*
 * The site as the dashboard shows it, with status: store_site_show()'s
 * record (key, name, tier, mau_cap, paused, version, created_at,
 * published_at, mau, retention_days, domains), the account's role, and
 * script_tag, the tag to paste as the first script of a page's <head>
 * (docs/deploy.md; null when the base URL is not known): with data-api
 * when the base URL has a path, since the SDK's API is otherwise its
 * src's origin (SDK.md 1).  The key and the base URL are checked text,
 * so the tag needs no escaping.
 */
static int
answer_site(struct api *a, const char *key, int status)
{
	char base[ORIGIN_MAX + 1], tag[2 * ORIGIN_MAX + SITE_KEY_MAX + 96];
	const char *path;
	cJSON *site = NULL;
	int rc, known;

	if ((rc = store_site_show(a->st, key, &site)) != STORE_OK)
		return api_site_failed(a, rc);
	if ((known = base_url(base) == 0)) {
		path = strstr(base, "//");
		path = path != NULL ? strchr(path + 2, '/') : NULL;
		snprintf(tag, sizeof(tag), "<script src=\"%s/sdk/consent.js\"%s%s%s data-site-key=\"%s\">"
		    "</script>", base, path != NULL ? " data-api=\"" : "", path != NULL ? base : "",
		    path != NULL ? "\"" : "", key);
	}
	if (cJSON_AddStringToObject(site, "role", role_names[api_role(a, key)]) == NULL ||
	    (known ? cJSON_AddStringToObject(site, "script_tag", tag)
	        : cJSON_AddNullToObject(site, "script_tag")) == NULL) {
		cJSON_Delete(site);
		return api_error(a, 500, "Internal server error");
	}
	return api_answer(a, status, site);
}

/* ---- reading the body ---- */

/*
 * A number field of the body as its valid_*() rule reads it: absent
 * (*given 0), null ("none": *out -1), or the integer the vfield table
 * let through (lo to hi), written as decimal text for valid().  0, or -1
 * with the 400 sent.
 */
static int
number_field(struct api *a, const char *name, int (*valid)(const char *, int64_t *),
             long long lo, long long hi, int *given, int64_t *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(a->body, name);
	char text[32], msg[ERR_MSG_MAX];

	*given = v != NULL;
	if (v == NULL)
		return 0;
	if (cJSON_IsNull(v))
		snprintf(text, sizeof(text), "none");
	else
		snprintf(text, sizeof(text), "%.0f", v->valuedouble);
	if (valid(text, out))
		return 0;
	snprintf(msg, sizeof(msg), "%s must be an integer from %lld to %lld, or null", name, lo, hi);
	api_error(a, 400, msg);
	return -1;
}

/* The site's fields of the body, checked by the rules of valid.h: the
 * name (NULL when absent) and the tier (-1 when absent), then the cap and
 * the retention.  0, or -1 with 400 sent. */
static int
site_fields_check(struct api *a, struct site_change *ch)
{
	const cJSON *name = valid_get(a->body, "name"), *tier = valid_get(a->body, "tier");
	char msg[ERR_MSG_MAX];

	if (name != NULL && !valid_site_name(name->valuestring)) {
		snprintf(msg, sizeof(msg), "name must be 1-%d characters of text without control "
		    "characters", SITE_NAME_MAX);
		api_error(a, 400, msg);
		return -1;
	}
	ch->name = name != NULL ? name->valuestring : NULL;
	if (tier != NULL && !valid_tier(tier->valuestring, &ch->free_tier)) {
		api_error(a, 400, "tier must be free or paid");
		return -1;
	}
	if (number_field(a, "mau_cap", valid_mau_cap, 0, MAU_CAP_MAX, &ch->mau_cap_set,
	    &ch->mau_cap) != 0 ||
	    number_field(a, "retention_days", valid_retention_days, 1, RETENTION_DAYS_MAX,
	        &ch->retention_set, &ch->retention_days) != 0)
		return -1;
	return 0;
}

/* A detail of the audit record: the body's member name, copied. */
static int
detail_copy(cJSON *detail, const cJSON *body, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(body, name);
	cJSON *c;

	if (v == NULL)
		return 0;
	if ((c = cJSON_Duplicate(v, 1)) == NULL || !cJSON_AddItemToObject(detail, name, c)) {
		cJSON_Delete(c);
		return -1;
	}
	return 0;
}

/* Record action on key with the body's members names (NULL-terminated)
 * as its detail: 0, or -1 with 500 sent. */
static int
audit_body(struct api *a, const char *key, const char *action, const char *const *names,
           const cJSON *extra_domains)
{
	cJSON *detail = cJSON_CreateObject();
	int rc = detail != NULL ? 0 : -1;

	for (size_t i = 0; rc == 0 && names[i] != NULL; i++)
		rc = detail_copy(detail, a->body, names[i]);
	if (rc == 0 && extra_domains != NULL) {
		cJSON *d = cJSON_Duplicate(extra_domains, 1);
		if (d == NULL || !cJSON_AddItemToObject(detail, "domains", d)) {
			cJSON_Delete(d);
			rc = -1;
		}
	}
	if (rc == 0)
		rc = api_audit(a, key, action, detail, -1);
	cJSON_Delete(detail);
	if (rc != 0)
		api_error(a, 500, "Internal server error");
	return rc;
}

/* ---- the routes ---- */

/* The account's sites as the listing collects them. */
struct own_sites {
	struct api *a;
	cJSON *rows;
};

/* store_row_fn: the sites the account has a role on, with it. */
static int
collect_own(const cJSON *row, void *arg)
{
	struct own_sites *c = arg;
	const cJSON *key = cJSON_GetObjectItemCaseSensitive(row, "key");
	enum api_role role = cJSON_IsString(key) ? api_role(c->a, key->valuestring) : ROLE_NONE;
	cJSON *copy;

	if (role == ROLE_NONE)
		return 0;
	if ((copy = cJSON_Duplicate(row, 1)) == NULL ||
	    cJSON_AddStringToObject(copy, "role", role_names[role]) == NULL ||
	    !cJSON_AddItemToArray(c->rows, copy)) {
		cJSON_Delete(copy);
		return -1;
	}
	return 0;
}

void
route_sites_list(struct api *a)
{
	struct own_sites c = { a, cJSON_CreateArray() };
	int rc = c.rows != NULL ? store_site_list(a->st, collect_own, &c) : STORE_ERROR;

	api_answer_rows(a, "sites", rc, c.rows);
}

static const struct vfield site_fields[] = {
	{"key", V_STRING, 1, 1, SITE_KEY_MAX, 0, 0, NULL},
	{"name", V_STRING, 1, 1, SITE_NAME_MAX, 0, 0, NULL},
	{"tier", V_STRING, 0, 1, 8, 0, 0, NULL},
	{"mau_cap", V_INTEGER, 0, 0, 0, 0, (double)MAU_CAP_MAX, NULL},
	{"retention_days", V_INTEGER, 0, 0, 0, 1, RETENTION_DAYS_MAX, NULL},
	{"domains", V_ARRAY, 0, 0, SITE_DOMAINS_MAX, 0, 0, NULL},
};

/* The body's domains normalised (origin_normalise_domain) into hosts and
 * norm (n of each, new arrays the caller frees): 0, or -1 with 400 or 500
 * sent. */
static int
body_domains(struct api *a, const char ***hosts, char (**norm)[HOST_MAX + 1], size_t *n)
{
	const cJSON *list = cJSON_GetObjectItemCaseSensitive(a->body, "domains"), *e;
	size_t i = 0;

	*hosts = NULL;
	*norm = NULL;
	*n = cJSON_IsArray(list) ? (size_t)cJSON_GetArraySize(list) : 0;
	if (*n == 0)
		return 0;
	if ((*norm = calloc(*n, sizeof(**norm))) == NULL ||
	    (*hosts = calloc(*n, sizeof(**hosts))) == NULL) {
		api_error(a, 500, "Internal server error");
		return -1;
	}
	cJSON_ArrayForEach(e, list) {
		if (!cJSON_IsString(e) || strlen(e->valuestring) > DOMAIN_INPUT_MAX ||
		    origin_normalise_domain(e->valuestring, (*norm)[i]) != 0) {
			api_error(a, 400, "domains must be host names such as example.com");
			return -1;
		}
		(*hosts)[i] = (*norm)[i];
		i++;
	}
	return 0;
}

void
route_sites_add(struct api *a)
{
	static const char *const audited[] = {"name", "tier", "mau_cap", "retention_days", NULL};
	const char *key;
	const char **hosts = NULL;
	char (*norm)[HOST_MAX + 1] = NULL, msg[ERR_MSG_MAX];
	struct site_change ch = {NULL, -1, 0, -1, 0, -1};
	size_t n = 0;
	cJSON *hosts_json = NULL;

	/* Owners of every site only: the route's R_OWNER_ALL (api.c). */
	if (api_body(a, site_fields, nitems(site_fields)) != 0)
		return;
	key = cJSON_GetObjectItemCaseSensitive(a->body, "key")->valuestring;
	if (!valid_site_key(key)) {
		snprintf(msg, sizeof(msg), "key must be 1-%d characters of A-Za-z0-9_-", SITE_KEY_MAX);
		api_error(a, 400, msg);
		return;
	}
	if (site_fields_check(a, &ch) != 0 || body_domains(a, &hosts, &norm, &n) != 0)
		goto out;
	/* The audit record's domains as stored, made before anything changes. */
	if ((hosts_json = cJSON_CreateArray()) == NULL) {
		api_error(a, 500, "Internal server error");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		cJSON *h = cJSON_CreateString(hosts[i]);
		if (h == NULL || !cJSON_AddItemToArray(hosts_json, h)) {
			cJSON_Delete(h);
			api_error(a, 500, "Internal server error");
			goto out;
		}
	}
	/* New sites are free unless the body says paid (free_tier -1: not given). */
	switch (store_site_add(a->st, key, ch.name, ch.free_tier != 0,
	    ch.mau_cap_set ? ch.mau_cap : -1, hosts, n)) {
	case STORE_OK:
		break;
	case STORE_EXISTS:
		api_error(a, 409, "Site already exists");
		goto out;
	default:
		api_error(a, 500, "Internal server error");
		goto out;
	}
	/* Retention is no part of consentctl site add: site set's change. */
	if (ch.retention_set && ch.retention_days >= 0) {
		struct site_change keep = {NULL, -1, 0, -1, 1, ch.retention_days};
		if (store_site_set(a->st, key, &keep) != STORE_OK) {
			api_error(a, 500, "Internal server error");
			goto out;
		}
	}
	if (audit_body(a, key, "site.add", audited, hosts_json) == 0)
		answer_site(a, key, 201);
out:
	cJSON_Delete(hosts_json);
	free(hosts);
	free(norm);
}

void
route_site_get(struct api *a)
{
	const char *key = api_site_key(a, ROLE_VIEWER);

	if (key != NULL)
		answer_site(a, key, 200);
}

static const struct vfield patch_fields[] = {
	{"name", V_STRING, 0, 1, SITE_NAME_MAX, 0, 0, NULL},
	{"tier", V_STRING, 0, 1, 8, 0, 0, NULL},
	{"mau_cap", V_INTEGER, 0, 0, 0, 0, (double)MAU_CAP_MAX, NULL},
	{"retention_days", V_INTEGER, 0, 0, 0, 1, RETENTION_DAYS_MAX, NULL},
};

/* ADMIN.md 5: the name is the editors'; tier, cap and retention (what the
 * site costs and keeps) the owners'. */
void
route_site_patch(struct api *a)
{
	static const char *const audited[] = {"name", "tier", "mau_cap", "retention_days", NULL};
	struct site_change ch = {NULL, -1, 0, -1, 0, -1};
	const char *key;
	enum api_role need = ROLE_EDITOR;
	int rc;

	/* Every field but the first, the name, is the owners'. */
	for (size_t i = 1; i < nitems(patch_fields); i++)
		if (a->body != NULL && cJSON_GetObjectItemCaseSensitive(a->body,
		    patch_fields[i].name) != NULL)
			need = ROLE_OWNER;
	if ((key = api_site_key(a, need)) == NULL ||
	    api_body(a, patch_fields, nitems(patch_fields)) != 0)
		return;
	if (site_fields_check(a, &ch) != 0)
		return;
	if (ch.name == NULL && ch.free_tier < 0 && !ch.mau_cap_set && !ch.retention_set) {
		api_error(a, 400, "name, tier, mau_cap or retention_days is required");
		return;
	}
	if ((rc = store_site_set(a->st, key, &ch)) != STORE_OK) {
		api_site_failed(a, rc);
		return;
	}
	if (audit_body(a, key, "site.set", audited, NULL) == 0)
		answer_site(a, key, 200);
}

/* Pause or resume (spec 3: a paused site's config and consent requests
 * are refused until it is resumed). */
static void
pause_site(struct api *a, int paused)
{
	static const char *const none[] = {NULL};
	const char *key = api_site_key(a, ROLE_EDITOR);
	int rc;

	if (key == NULL)
		return;
	if ((rc = store_site_pause(a->st, key, paused)) != STORE_OK) {
		api_site_failed(a, rc);
		return;
	}
	if (audit_body(a, key, paused ? "site.pause" : "site.resume", none, NULL) == 0)
		answer_site(a, key, 200);
}

void
route_site_pause(struct api *a)
{
	pause_site(a, 1);
}

void
route_site_resume(struct api *a)
{
	pause_site(a, 0);
}

void
route_domains_list(struct api *a)
{
	const char *key = api_site_key(a, ROLE_VIEWER);
	cJSON *site = NULL, *out;
	int rc;

	if (key == NULL)
		return;
	if ((rc = store_site_show(a->st, key, &site)) != STORE_OK) {
		api_site_failed(a, rc);
		return;
	}
	out = cJSON_CreateObject();
	if (out == NULL || !cJSON_AddItemToObject(out, "domains",
	    cJSON_DetachItemFromObjectCaseSensitive(site, "domains"))) {
		cJSON_Delete(out);
		api_error(a, 500, "Internal server error");
	} else {
		api_answer(a, 200, out);
	}
	cJSON_Delete(site);
}

static const struct vfield domain_fields[] = {
	{"domain", V_STRING, 1, 1, DOMAIN_INPUT_MAX, 0, 0, NULL},
};

/* The site key (role editor) and the body's domain normalised as
 * `domain add` does: the key, or NULL with the answer sent. */
static const char *
domain_args(struct api *a, char host[HOST_MAX + 1])
{
	const char *key = api_site_key(a, ROLE_EDITOR);

	if (key == NULL || api_body(a, domain_fields, nitems(domain_fields)) != 0)
		return NULL;
	if (origin_normalise_domain(cJSON_GetObjectItemCaseSensitive(a->body,
	    "domain")->valuestring, host) != 0) {
		api_error(a, 400, "domain must be a host name such as example.com");
		return NULL;
	}
	return key;
}

/* 201 {"domain": the host as stored}, so the page shows what
 * normalisation made of what was typed. */
static void
answer_domain(struct api *a, int status, const char *host)
{
	cJSON *o = cJSON_CreateObject();

	if (o == NULL || cJSON_AddStringToObject(o, "domain", host) == NULL) {
		cJSON_Delete(o);
		api_error(a, 500, "Internal server error");
		return;
	}
	api_answer(a, status, o);
}

/* Record a domain's change on key: 0, or -1 with 500 sent. */
static int
audit_domain(struct api *a, const char *key, const char *action, const char *host)
{
	cJSON *detail = cJSON_CreateObject();
	int rc = -1;

	if (detail != NULL && cJSON_AddStringToObject(detail, "domain", host) != NULL)
		rc = api_audit(a, key, action, detail, -1);
	cJSON_Delete(detail);
	if (rc != 0)
		api_error(a, 500, "Internal server error");
	return rc;
}

void
route_domains_add(struct api *a)
{
	char host[HOST_MAX + 1];
	const char *key = domain_args(a, host);
	int rc;

	if (key == NULL)
		return;
	rc = store_domain_add(a->st, key, host);
	if (rc == STORE_EXISTS)
		api_error(a, 409, "Domain already registered");
	else if (rc != STORE_OK)
		api_site_failed(a, rc);
	else if (audit_domain(a, key, "domain.add", host) == 0)
		answer_domain(a, 201, host);
}

void
route_domains_remove(struct api *a)
{
	char host[HOST_MAX + 1];
	const char *key = domain_args(a, host);
	struct site site;
	int rc;

	if (key == NULL)
		return;
	rc = store_domain_remove(a->st, key, host);
	if (rc == STORE_NOTFOUND) {
		/* Unknown site, or a domain it does not have: say which. */
		if ((rc = store_site_get(a->st, key, &site)) != STORE_OK) {
			api_site_failed(a, rc);
			return;
		}
		store_site_clear(&site);
		api_error(a, 404, "Domain not found");
	} else if (rc != STORE_OK) {
		api_site_failed(a, rc);
	} else if (audit_domain(a, key, "domain.remove", host) == 0) {
		answer_domain(a, 200, host);
	}
}
