/* api_scripts.c: the dashboard's trackers: the script inventory, syncs, and the rules scripts rules suggests (issue 26). */
#include <stdio.h>
#include <string.h>

#include "admin/api.h"
#include "admin/api_sites.h"
#include "admin/publish.h"
#include "admin/scriptrules.h"
#include "base/log.h"
#include "base/nitems.h"
#include "base/uuid.h"
#include "store/store_admin.h"

/* A request that changes something here takes no member: an empty object
 * or no body.  0, or -1 with 400 sent. */
static int
no_members(struct api *a)
{
	if (a->body == NULL || a->body->child == NULL)
		return 0;
	api_error(a, 400, "The body takes no member");
	return -1;
}

/* What the inventory needs of one site: its config's rules. */
struct inventory {
	const cJSON *rules;   /* the config's scriptRules, or NULL */
	cJSON *out;
};

/* store_row_fn: a script record with "covered": whether a scriptRules
 * pattern of the config matches its domain as the SDK matches. */
static int
inventory_row(const cJSON *row, void *arg)
{
	struct inventory *inv = arg;
	const char *domain = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(row, "domain"));
	cJSON *copy = cJSON_Duplicate(row, 1);
	const cJSON *r;
	int covered = 0;

	cJSON_ArrayForEach(r, inv->rules) {
		const char *p = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "pattern"));

		if (domain != NULL && p != NULL && scriptrules_match(domain, p))
			covered = 1;
	}
	if (copy == NULL || cJSON_AddBoolToObject(copy, "covered", covered) == NULL ||
	    !cJSON_AddItemToArray(inv->out, copy)) {
		cJSON_Delete(copy);
		return STORE_ERROR;
	}
	return 0;
}

/* GET sites/{key}/scripts: scripts list's rows, each with "covered". */
void
route_scripts_list(struct api *a)
{
	const char *key = api_site_key(a, ROLE_VIEWER);
	cJSON *doc = NULL, *records = NULL, *add = NULL, *unknown = NULL;
	struct inventory inv;
	char err[256];
	int rc;

	if (key == NULL)
		return;
	rc = scriptrules_site(a->st, key, &doc, &records, &add, &unknown, err, sizeof(err));
	if (rc == STORE_OK) {
		const cJSON *row;

		inv.rules = cJSON_GetObjectItemCaseSensitive(doc, "scriptRules");
		inv.out = cJSON_CreateArray();
		cJSON_ArrayForEach(row, records)
			if (inv.out == NULL || inventory_row(row, &inv) != 0)
				rc = STORE_ERROR;
		if (rc == STORE_OK)
			api_answer_rows(a, "scripts", rc, inv.out);
		else
			cJSON_Delete(inv.out);
	}
	if (rc != STORE_OK) {
		if (err[0] != '\0')
			log_error("%s", err);
		api_site_failed(a, rc);
	}
	cJSON_Delete(doc);
	cJSON_Delete(records);
	cJSON_Delete(add);
	cJSON_Delete(unknown);
}

/* 200/201 the sync id of site key (store_sync_show), with extra when
 * given (consumed); 404 "Sync not found" when it is not the site's. */
static void
answer_sync(struct api *a, const char *key, const char *id, int status, const char *fragment)
{
	cJSON *sync = NULL;
	const char *of;
	int rc = store_sync_show(a->st, id, &sync);

	if (rc == STORE_NOTFOUND) {
		api_error(a, 404, "Sync not found");
		return;
	}
	if (rc != STORE_OK) {
		api_error(a, 500, "Internal server error");
		return;
	}
	of = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(sync, "site_key"));
	if (of == NULL || strcmp(of, key) != 0) {
		cJSON_Delete(sync);
		api_error(a, 404, "Sync not found");
		return;
	}
	if (fragment != NULL && cJSON_AddStringToObject(sync, "fragment", fragment) == NULL) {
		cJSON_Delete(sync);
		api_error(a, 500, "Internal server error");
		return;
	}
	api_answer(a, status, sync);
}

/* POST sites/{key}/syncs: a new sync (consentctl sync start), recorded. */
void
route_syncs_start(struct api *a)
{
	const char *key = api_site_key(a, ROLE_EDITOR);
	char id[UUID_LEN + 1], fragment[UUID_LEN + 32];
	cJSON *detail;
	int rc;

	if (key == NULL || no_members(a) != 0)
		return;
	if (uuid_v4(id) != 0) {
		api_error(a, 500, "Internal server error");
		return;
	}
	if ((rc = store_sync_start(a->st, key, id)) != STORE_OK) {
		api_site_failed(a, rc);
		return;
	}
	detail = cJSON_CreateObject();
	if (detail == NULL || cJSON_AddStringToObject(detail, "sync_id", id) == NULL ||
	    api_audit(a, key, "sync.start", detail, -1) != 0) {
		cJSON_Delete(detail);
		api_error(a, 500, "Internal server error");
		return;
	}
	cJSON_Delete(detail);
	snprintf(fragment, sizeof(fragment), "#consent-sync=%s", id);
	answer_sync(a, key, id, 201, fragment);
}

/* GET sites/{key}/syncs/{id}: consentctl sync show --json. */
void
route_sync_get(struct api *a)
{
	const char *key = api_site_key(a, ROLE_VIEWER);
	char id[UUID_LEN + 1];

	if (key == NULL)
		return;
	if (uuid_canonical(a->seg[3], id) != 0) {
		api_error(a, 404, "Sync not found");
		return;
	}
	answer_sync(a, key, id, 200, NULL);
}

/*
 * The rules of site key (scriptrules_site): *doc and *add for the caller
 * (who frees them), the answer's {"rules", "left_out"} in *out when out
 * is not NULL.  0, or -1 with the answer sent.
 */
static int
site_rules(struct api *a, const char *key, cJSON **doc, cJSON **add, cJSON **out)
{
	cJSON *records = NULL, *unknown = NULL;
	char err[256];
	int rc = scriptrules_site(a->st, key, doc, &records, add, &unknown, err, sizeof(err));

	cJSON_Delete(records);
	if (rc != STORE_OK) {
		cJSON_Delete(unknown);
		if (err[0] != '\0')
			log_error("%s", err);
		return api_site_failed(a, rc);
	}
	if (out == NULL) {
		cJSON_Delete(unknown);
		return 0;
	}
	if ((*out = cJSON_CreateObject()) == NULL ||
	    !cJSON_AddItemToObject(*out, "rules", cJSON_Duplicate(*add, 1)) ||
	    !cJSON_AddItemToObject(*out, "left_out", unknown)) {
		cJSON_Delete(*out);
		*out = NULL;
		api_error(a, 500, "Internal server error");
		return -1;
	}
	return 0;
}

/* GET sites/{key}/rules: what scripts rules --json prints, and what it
 * leaves out. */
void
route_rules_get(struct api *a)
{
	const char *key = api_site_key(a, ROLE_VIEWER);
	cJSON *doc = NULL, *add = NULL, *out = NULL;

	if (key == NULL)
		return;
	if (site_rules(a, key, &doc, &add, &out) == 0)
		api_answer(a, 200, out);
	cJSON_Delete(doc);
	cJSON_Delete(add);
}

/* POST sites/{key}/rules: scripts rules --publish, through the one
 * publish path, by the account; recorded as rules.publish. */
void
route_rules_publish(struct api *a)
{
	const char *key = api_site_key(a, ROLE_EDITOR);
	cJSON *doc = NULL, *add = NULL, *rules = NULL, *o = NULL;
	struct publish p;
	struct publish_check why;
	enum publish_result r;
	int64_t version = 0;
	char err[256];

	memset(&p, 0, sizeof(p));
	if (key == NULL || no_members(a) != 0 || site_rules(a, key, &doc, &add, NULL) != 0)
		goto out;
	if ((o = cJSON_CreateObject()) == NULL || (rules = cJSON_Duplicate(add, 1)) == NULL) {
		api_error(a, 500, "Internal server error");
		goto out;
	}
	if (cJSON_GetArraySize(add) == 0) {
		cJSON_AddNullToObject(o, "version");
		cJSON_AddItemToObject(o, "rules", rules);
		rules = NULL;
		api_answer(a, 200, o);
		o = NULL;
		goto out;
	}
	if (scriptrules_append(doc, add, err, sizeof(err)) != 0) {
		log_error("%s", err);
		api_error(a, 500, "Internal server error");
		goto out;
	}
	if ((r = publish_prepare(doc, &p, &why)) == PUBLISH_OK)
		r = publish_store(a->st, key, &p, a->user, &version);
	if (r == PUBLISH_INVALID) {
		api_error(a, 400, why.message);
		goto out;
	}
	if (r != PUBLISH_OK) {
		api_site_failed(a, r == PUBLISH_NOSITE ? STORE_NOTFOUND : STORE_ERROR);
		goto out;
	}
	if (api_audit(a, key, "rules.publish", NULL, version) != 0 ||
	    cJSON_AddNumberToObject(o, "version", (double)version) == NULL ||
	    !cJSON_AddItemToObject(o, "rules", rules)) {
		api_error(a, 500, "Internal server error");
		goto out;
	}
	rules = NULL;
	api_answer(a, 201, o);
	o = NULL;
out:
	publish_free(&p);
	cJSON_Delete(o);
	cJSON_Delete(rules);
	cJSON_Delete(doc);
	cJSON_Delete(add);
}
