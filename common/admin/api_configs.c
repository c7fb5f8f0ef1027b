/* api_configs.c: the dashboard's configs: versions with who and when, publish and restore, read, preview (ADMIN.md 6-7). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "admin/api.h"
#include "admin/api_sites.h"
#include "admin/publish.h"
#include "base/limits.h"
#include "base/log.h"
#include "base/nitems.h"
#include "config/defaults.h"
#include "config/prepare.h"
#include "input/geo.h"
#include "input/valid.h"
#include "store/store_admin.h"

/* 400 {"error": why's message, "path": the member it names (when it names
 * one)}: the editor shows the message where the path points. */
static void
answer_invalid(struct api *a, const struct publish_check *why)
{
	cJSON *o = cJSON_CreateObject();

	if (o == NULL || cJSON_AddStringToObject(o, "error", why->message) == NULL ||
	    (why->path[0] != '\0' && cJSON_AddStringToObject(o, "path", why->path) == NULL)) {
		cJSON_Delete(o);
		api_error(a, 500, "Internal server error");
		return;
	}
	api_answer(a, 400, o);
}

/* store_row_fn: a history row as the API names it (published_by is
 * "by", null when not known). */
static int
collect_version(const cJSON *row, void *arg)
{
	static const char *const names[][2] = {
		{"version", "version"}, {"published_at", "published_at"},
		{"published_by", "by"}, {"sha256", "sha256"},
	};
	cJSON *o = cJSON_CreateObject();

	if (o == NULL || !cJSON_AddItemToArray(arg, o))
		goto fail;
	for (size_t i = 0; i < nitems(names); i++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(row, names[i][0]);
		cJSON *c = v != NULL ? cJSON_Duplicate(v, 1) : cJSON_CreateNull();
		if (c == NULL || !cJSON_AddItemToObject(o, names[i][1], c)) {
			cJSON_Delete(c);
			return -1;
		}
	}
	return 0;
fail:
	cJSON_Delete(o);
	return -1;
}

void
route_configs_list(struct api *a)
{
	const char *key = api_site_key(a, ROLE_VIEWER);
	struct site site;
	cJSON *o, *rows;
	int rc;

	if (key == NULL)
		return;
	if ((rc = store_site_get(a->st, key, &site)) != STORE_OK) {
		api_site_failed(a, rc);
		return;
	}
	o = cJSON_CreateObject();
	rows = cJSON_CreateArray();
	if (o == NULL || rows == NULL || cJSON_AddNumberToObject(o, "live",
	    (double)site.version) == NULL || !cJSON_AddItemToObject(o, "versions", rows)) {
		rc = STORE_ERROR;
	} else {
		rc = store_config_history(a->st, key, collect_version, rows);
	}
	store_site_clear(&site);
	if (rc != STORE_OK) {
		cJSON_Delete(o);
		api_site_failed(a, rc);
		return;
	}
	api_answer(a, 200, o);
}

/*
 * A version number of the path: 1 to VERSION_MAX in decimal digits,
 * without a leading zero.  The number, or 0 when it is none.
 */
static int64_t
version_of(const char *s)
{
	int64_t v = 0;

	if (s == NULL || s[0] < '1' || s[0] > '9' || strlen(s) > 10)
		return 0;
	for (; *s != '\0'; s++) {
		if (*s < '0' || *s > '9')
			return 0;
		v = v * 10 + (*s - '0');
	}
	return v <= (int64_t)VERSION_MAX ? v : 0;
}

/* The stored document of version of key, parsed: STORE_OK with *doc (the
 * caller deletes it), STORE_NOTFOUND or STORE_ERROR. */
static int
stored_document(struct api *a, const char *key, int64_t version, cJSON **doc)
{
	char *text = NULL, sha[65];
	int rc = store_config_version(a->st, key, version, &text, sha);

	*doc = NULL;
	if (rc == STORE_OK && (*doc = cJSON_Parse(text)) == NULL)
		rc = STORE_ERROR;
	free(text);
	return rc;
}

static const struct vfield publish_fields[] = {
	{"document", V_OBJECT, 0, 0, 0, 0, 0, NULL},
	{"restore", V_INTEGER, 0, 0, 0, 1, VERSION_MAX, NULL},
};

/*
 * Publish the body's document, or restore: version N's document published
 * again as a new version, through the one publish path (publish.c: the
 * same check as consentctl config publish, then prepared and stored).
 */
void
route_configs_publish(struct api *a)
{
	const char *key = api_site_key(a, ROLE_EDITOR);
	const cJSON *given, *restore;
	cJSON *stored = NULL, *detail = NULL;
	struct publish p;
	struct publish_check why;
	int64_t from = 0, version = 0;
	enum publish_result r;
	int rc;

	memset(&p, 0, sizeof(p));
	if (key == NULL || api_body(a, publish_fields, nitems(publish_fields)) != 0)
		return;
	given = valid_get(a->body, "document");
	restore = valid_get(a->body, "restore");
	if ((given == NULL) == (restore == NULL)) {
		api_error(a, 400, "Either document or restore is required");
		return;
	}
	if (restore != NULL) {
		from = (int64_t)restore->valuedouble;
		if ((rc = stored_document(a, key, from, &stored)) == STORE_NOTFOUND) {
			struct site site;
			if ((rc = store_site_get(a->st, key, &site)) != STORE_OK) {
				api_site_failed(a, rc);
				return;
			}
			store_site_clear(&site);
			api_error(a, 404, "Version not found");
			return;
		}
		if (rc != STORE_OK) {
			api_site_failed(a, rc);
			return;
		}
		given = stored;
	}
	if ((r = publish_prepare(given, &p, &why)) == PUBLISH_OK)
		r = publish_store(a->st, key, &p, a->user, &version);
	switch (r) {
	case PUBLISH_OK:
		break;
	case PUBLISH_INVALID:
		answer_invalid(a, &why);
		goto out;
	case PUBLISH_NOSITE:
		api_site_failed(a, STORE_NOTFOUND);
		goto out;
	case PUBLISH_BUILD:
		log_error("the built-in texts of this build do not match their hash %s (a build error)",
		    defaults_hash());
		/* FALLTHROUGH */
	default:
		api_error(a, 500, "Internal server error");
		goto out;
	}
	if ((detail = cJSON_CreateObject()) == NULL ||
	    (from > 0 && cJSON_AddNumberToObject(detail, "restored_from", (double)from) == NULL) ||
	    api_audit(a, key, "config.publish", detail, version) != 0) {
		api_error(a, 500, "Internal server error");
		goto out;
	}
	{
		cJSON *o = cJSON_CreateObject();
		if (o == NULL || cJSON_AddNumberToObject(o, "version", (double)version) == NULL) {
			cJSON_Delete(o);
			api_error(a, 500, "Internal server error");
		} else {
			api_answer(a, 201, o);
		}
	}
out:
	cJSON_Delete(detail);
	cJSON_Delete(stored);
	publish_free(&p);
}

/* store_row_fn: the history row of the version arg->version, kept. */
struct find_version {
	int64_t version;
	cJSON *row;
};

static int
find_version(const cJSON *row, void *arg)
{
	struct find_version *f = arg;
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(row, "version");

	if (!cJSON_IsNumber(v) || (int64_t)v->valuedouble != f->version)
		return 0;
	return (f->row = cJSON_Duplicate(row, 1)) != NULL ? 1 : -1;
}

/*
 * One version's document: {"version", "document", "published_at", "by",
 * "sha256"}; "live" is the site's published one, and with nothing
 * published, as "builtin", the built-in defaults the config endpoint then
 * serves (version 0) and the editor starts from.
 */
void
route_config_get(struct api *a)
{
	const char *key = api_site_key(a, ROLE_VIEWER);
	const char *which = a->nseg > 3 ? a->seg[3] : "";
	struct find_version f = { 0, NULL };
	struct site site;
	cJSON *o = NULL, *doc = NULL;
	int rc;

	if (key == NULL)
		return;
	if ((rc = store_site_get(a->st, key, &site)) != STORE_OK) {
		api_site_failed(a, rc);
		return;
	}
	f.version = strcmp(which, "live") == 0 ? site.version : version_of(which);
	store_site_clear(&site);
	if (f.version == 0 && strcmp(which, "live") != 0 && strcmp(which, "builtin") != 0) {
		api_error(a, 404, "Version not found");
		return;
	}
	if (f.version == 0) {
		doc = defaults_config();
		rc = doc != NULL ? STORE_OK : STORE_ERROR;
	} else if ((rc = stored_document(a, key, f.version, &doc)) == STORE_OK) {
		rc = store_config_history(a->st, key, find_version, &f);
		rc = rc == 1 ? STORE_OK : rc == STORE_OK ? STORE_NOTFOUND : STORE_ERROR;
	}
	if (rc == STORE_NOTFOUND) {
		api_error(a, 404, "Version not found");
		goto out;
	}
	o = cJSON_CreateObject();
	if (rc != STORE_OK || o == NULL ||
	    cJSON_AddNumberToObject(o, "version", (double)f.version) == NULL ||
	    !cJSON_AddItemToObject(o, "document", doc)) {
		api_error(a, 500, "Internal server error");
		goto out;
	}
	doc = NULL;
	if (f.row != NULL) {
		static const char *const names[][2] = {
			{"published_at", "published_at"}, {"published_by", "by"}, {"sha256", "sha256"},
		};
		for (size_t i = 0; i < nitems(names); i++) {
			cJSON *v = cJSON_DetachItemFromObjectCaseSensitive(f.row, names[i][0]);
			if (v == NULL)
				v = cJSON_CreateNull();
			if (v == NULL || !cJSON_AddItemToObject(o, names[i][1], v)) {
				cJSON_Delete(v);
				api_error(a, 500, "Internal server error");
				goto out;
			}
		}
	}
	api_answer(a, 200, o);
	o = NULL;
out:
	cJSON_Delete(o);
	cJSON_Delete(doc);
	cJSON_Delete(f.row);
}

static const struct vfield preview_fields[] = {
	{"document", V_OBJECT, 1, 0, 0, 0, 0, NULL},
	{"region", V_STRING, 0, 1, TOKEN_MAX, 0, 0, NULL},
	{"country", V_STRING, 0, 1, 2, 0, 0, NULL},
	{"subdivision", V_STRING, 0, 1, 6, 0, 0, NULL},
	{"language", V_STRING, 0, 1, LANG_TAG_MAX, 0, 0, NULL},
};

/* A string member of the body, or NULL. */
static const char *
body_text(const struct api *a, const char *name)
{
	const cJSON *v = valid_get(a->body, name);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/*
 * ADMIN.md 7: what the config endpoint will answer for a visitor once the
 * draft is published, pause and cap aside: the draft checked as publishing
 * checks it (400 naming the member), then answered by the endpoint's own
 * reply path (prepare_site(), prepare_answer(): cgi-bin/config.c's
 * reply_config) over a site that is the real one with the draft as its
 * published document and the version it would get.  region, language,
 * country and subdivision are the visitor: the region parameter, the lang
 * parameter, the location (CONTRACT 5, 6); no Accept-Language.
 */
void
route_preview(struct api *a)
{
	const char *key = api_site_key(a, ROLE_VIEWER);
	const char *country;
	struct publish_check why;
	struct site site, draft;
	struct served sv;
	struct visitor v;
	char *text = NULL;
	cJSON *body = NULL;
	int rc;

	if (key == NULL || api_body(a, preview_fields, nitems(preview_fields)) != 0)
		return;
	memset(&v, 0, sizeof(v));
	v.region = body_text(a, "region");
	v.lang = body_text(a, "language");
	if ((country = body_text(a, "country")) != NULL &&
	    !geo_set(&v.geo, country, body_text(a, "subdivision"))) {
		api_error(a, 400, "country must be an ISO 3166-1 code such as DE");
		return;
	}
	if (v.region != NULL)  /* CONTRACT 5.1: the parameter skips detection */
		memset(&v.geo, 0, sizeof(v.geo));
	if (publish_check(valid_get(a->body, "document"), &why) != 0) {
		answer_invalid(a, &why);
		return;
	}
	if ((rc = store_site_get(a->st, key, &site)) != STORE_OK) {
		api_site_failed(a, rc);
		return;
	}
	if ((text = cJSON_PrintUnformatted(valid_get(a->body, "document"))) == NULL) {
		api_error(a, 500, "Internal server error");
		goto out;
	}
	draft = site;
	draft.document = text;
	draft.skeleton = NULL;
	draft.script_rules = NULL;
	draft.config_id = 0;
	draft.version = site.version + 1;
	if (prepare_site(&draft, &sv) != 0) {
		api_error(a, 500, "Internal server error");
		goto out;
	}
	/* The body references sv: answered (printed) before sv is freed. */
	if ((body = prepare_answer(a->st, &draft, &sv, &v)) != NULL)
		api_answer(a, 200, body);
	else
		api_error(a, 500, "Internal server error");
	prepare_site_free(&sv);
out:
	free(text);
	store_site_clear(&site);
}
