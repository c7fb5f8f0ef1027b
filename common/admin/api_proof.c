/* api_proof.c: the dashboard's proof of the log (status, seal, verify in steps), purge, the report, the backup (issue 26). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "admin/api.h"
#include "admin/api_sites.h"
#include "admin/export.h"
#include "admin/purge.h"
#include "admin/report.h"
#include "admin/seal.h"
#include "admin/verify.h"
#include "base/io.h"
#include "base/limits.h"
#include "base/log.h"
#include "base/nitems.h"
#include "input/valid.h"
#include "store/store_admin.h"

#define VERIFY_STEP_LEAVES 100000  /* the leaves one verify request checks */
#define PURGE_REQUEST_MAX 10000    /* the entries one purge request deletes */

/* store_row_fn: count the rows (arg: int64_t). */
static int
count_row(const cJSON *row, void *arg)
{
	(void)row;
	(*(int64_t *)arg)++;
	return 0;
}

/* The site's latest seal as consentctl consent head prints it (the site
 * key first), or JSON null when there is none: a new item, NULL when out
 * of memory. */
static cJSON *
head_of(const char *key, const cJSON *seals)
{
	const cJSON *last = cJSON_GetArrayItem(seals, cJSON_GetArraySize(seals) - 1), *v;
	cJSON *line;

	if (last == NULL)
		return cJSON_CreateNull();
	if ((line = cJSON_CreateObject()) == NULL || cJSON_AddStringToObject(line, "site_key", key) == NULL) {
		cJSON_Delete(line);
		return NULL;
	}
	cJSON_ArrayForEach(v, last)
		cJSON_AddItemToObject(line, v->string, cJSON_Duplicate(v, 1));
	return line;
}

/* 200 {"seals","head","entries","unsealed","retention_days"} or the
 * seal's answer {"sealed", "head"} (sealed >= 0). */
static void
answer_proof(struct api *a, const char *key, int64_t sealed, int status)
{
	cJSON *seals = cJSON_CreateArray(), *o = cJSON_CreateObject(), *site = NULL, *head;
	int64_t entries = 0, unsealed = 0;
	int rc;

	if (seals == NULL || o == NULL) {
		rc = STORE_ERROR;
		goto out;
	}
	if ((rc = store_seals(a->st, key, api_rows_append, seals)) != STORE_OK)
		goto out;
	if ((head = head_of(key, seals)) == NULL) {
		rc = STORE_ERROR;
		goto out;
	}
	if (sealed >= 0) {
		cJSON_AddNumberToObject(o, "sealed", (double)sealed);
		cJSON_AddItemToObject(o, "head", head);
		api_answer(a, status, o);
		o = NULL;
		goto out;
	}
	if ((rc = store_consent_count(a->st, key, &entries)) != STORE_OK ||
	    (rc = store_unsealed(a->st, key, count_row, &unsealed)) != STORE_OK ||
	    (rc = store_site_show(a->st, key, &site)) != STORE_OK) {
		cJSON_Delete(head);
		goto out;
	}
	cJSON_AddNumberToObject(o, "seals", cJSON_GetArraySize(seals));
	cJSON_AddItemToObject(o, "head", head);
	cJSON_AddNumberToObject(o, "entries", (double)entries);
	cJSON_AddNumberToObject(o, "unsealed", (double)unsealed);
	cJSON_AddItemToObject(o, "retention_days", cJSON_Duplicate(
	    cJSON_GetObjectItemCaseSensitive(site, "retention_days"), 1));
	api_answer(a, status, o);
	o = NULL;
out:
	if (rc != STORE_OK)
		api_site_failed(a, rc);
	cJSON_Delete(site);
	cJSON_Delete(seals);
	cJSON_Delete(o);
}

/* GET sites/{key}/proof: the seal status and the head to record. */
void
route_proof(struct api *a)
{
	const char *key = api_site_key(a, ROLE_VIEWER);

	if (key != NULL)
		answer_proof(a, key, -1, 200);
}

/* A request here takes no member but those it declares. */
static const struct vfield no_fields[] = {
	{"_", V_BOOL, 0, 0, 0, 0, 0, NULL},
};

/* The body, when there is one, checked against f: 0, or -1 with 400 sent. */
static int
optional_body(struct api *a, const struct vfield *f, size_t n)
{
	return a->body == NULL ? 0 : api_body(a, f, n);
}

/* POST sites/{key}/seal: consentctl consent seal KEY, recorded. */
void
route_seal(struct api *a)
{
	const char *key = api_site_key(a, ROLE_EDITOR);
	int64_t n = 0;
	cJSON *detail;
	int rc;

	if (key == NULL || optional_body(a, no_fields, 0) != 0)
		return;
	if ((rc = seal_site(a->st, key, &n)) == STORE_EXISTS) {
		api_error(a, 409, "Another seal ran at the same time: seal again");
		return;
	}
	if (rc != STORE_OK) {
		api_site_failed(a, rc);
		return;
	}
	if (n > 0) {
		detail = cJSON_CreateObject();
		if (detail == NULL || cJSON_AddNumberToObject(detail, "entries", (double)n) == NULL ||
		    api_audit(a, key, "consent.seal", detail, -1) != 0) {
			cJSON_Delete(detail);
			api_error(a, 500, "Internal server error");
			return;
		}
		cJSON_Delete(detail);
	}
	answer_proof(a, key, n, 200);
}

static const struct vfield verify_fields[] = {
	{"from", V_INTEGER, 0, 0, 0, 1, 1e15, NULL},
	{"head", V_STRING, 0, 64, 64, 0, 0, NULL},
	{"sealed", V_INTEGER, 0, 0, 0, 0, 1e15, NULL},
	{"pruned", V_INTEGER, 0, 0, 0, 0, 1e15, NULL},
	{"leaves", V_INTEGER, 0, 0, 0, 1, VERIFY_STEP_LEAVES, NULL},
};

/* A number of the body, or 0 when absent (the vfield table bounds it). */
static int64_t
body_int(const struct api *a, const char *name)
{
	const cJSON *v = valid_get(a->body, name);

	return v != NULL ? (int64_t)v->valuedouble : 0;
}

/*
 * POST sites/{key}/verify: one step of the verification (verify.h): from
 * the seal "from" on, with the leaves the steps before counted ("sealed",
 * "pruned": what the last step answered), which only the verdict's
 * figures use: every seal's hash and link are checked again at each step;
 * "leaves" bounds a step (VERIFY_STEP_LEAVES, and at most that).
 */
void
route_verify(struct api *a)
{
	const char *key = api_site_key(a, ROLE_VIEWER), *head = NULL;
	const cJSON *v;
	struct verify k;
	int64_t from = 1;
	cJSON *o;
	int rc;

	if (key == NULL || optional_body(a, verify_fields, nitems(verify_fields)) != 0)
		return;
	if (body_int(a, "from") > 0)
		from = body_int(a, "from");
	if ((v = valid_get(a->body, "head")) != NULL) {
		head = v->valuestring;
		if (strspn(head, "0123456789abcdef") != 64) {
			api_error(a, 400, "head must be the 64 hex digits of a seal's hash");
			return;
		}
	}
	if ((rc = verify_site(a->st, key, head, from,
	    body_int(a, "leaves") > 0 ? body_int(a, "leaves") : VERIFY_STEP_LEAVES, body_int(a, "sealed"),
	    body_int(a, "pruned"), &k)) != STORE_OK) {
		verify_clear(&k);
		api_site_failed(a, rc);
		return;
	}
	if (k.failure[0] == '\0' && k.next > 0) {
		o = cJSON_CreateObject();
		if (o != NULL) {
			cJSON_AddFalseToObject(o, "done");
			cJSON_AddNumberToObject(o, "next", (double)k.next);
			cJSON_AddNumberToObject(o, "checked", (double)(k.next - 1));
			cJSON_AddNumberToObject(o, "seals", cJSON_GetArraySize(k.seals));
			cJSON_AddNumberToObject(o, "sealed", (double)k.live);
			cJSON_AddNumberToObject(o, "pruned", (double)k.pruned);
		}
	} else if ((o = verify_verdict(&k)) != NULL) {
		cJSON_AddTrueToObject(o, "done");
	}
	verify_clear(&k);
	if (o == NULL)
		api_error(a, 500, "Internal server error");
	else
		api_answer(a, 200, o);
}

static const struct vfield purge_fields[] = {
	{"dry_run", V_BOOL, 0, 0, 0, 0, 0, NULL},
};

/* The audit record of what a purge deleted (ADMIN.md 8), as consentctl
 * purge writes it: what of site key (NULL: of every site).  0, or -1. */
static int
purge_audit(struct api *a, const char *key, const char *what, int64_t n)
{
	cJSON *detail = cJSON_CreateObject();
	int rc = -1;

	if (detail != NULL && cJSON_AddNumberToObject(detail, what, (double)n) != NULL)
		rc = api_audit(a, key, "purge", detail, -1);
	cJSON_Delete(detail);
	return rc;
}

/* POST sites/{key}/purge: what consentctl purge KEY deletes (purge.h): the
 * entries past the site's retention, sealed first, PURGE_REQUEST_MAX at
 * most per request (the page asks again until done), and once they are
 * all gone the monthly-visitor rows of the months that are over; or, with
 * dry_run, how many there are. */
void
route_purge(struct api *a)
{
	const char *key = api_site_key(a, ROLE_OWNER);
	cJSON *site = NULL, *o = NULL;
	const cJSON *days;
	int64_t total = 0, done = 0, rows = 0;
	char cutoff[32], month[8];
	int rc, dry;

	if (key == NULL || api_need_reauth(a) != 0 ||
	    optional_body(a, purge_fields, nitems(purge_fields)) != 0)
		return;
	dry = cJSON_IsTrue(valid_get(a->body, "dry_run"));
	if ((rc = store_site_show(a->st, key, &site)) != STORE_OK) {
		api_site_failed(a, rc);
		return;
	}
	days = cJSON_GetObjectItemCaseSensitive(site, "retention_days");
	if (!cJSON_IsNumber(days)) {
		cJSON_Delete(site);
		api_error(a, 409, "No retention set");
		return;
	}
	purge_cutoff(a->now, (int64_t)days->valuedouble, cutoff);
	purge_month(a->now, month);
	cJSON_Delete(site);
	if ((o = cJSON_CreateObject()) == NULL)
		goto fail;
	if (dry) {
		if (store_purge_entries(a->st, key, cutoff, 0, 1, &total) != STORE_OK ||
		    store_purge_visitors(a->st, month, 0, 1, &rows) != STORE_OK)
			goto fail;
		cJSON_AddTrueToObject(o, "dry_run");
		cJSON_AddNumberToObject(o, "entries", (double)total);
		cJSON_AddNumberToObject(o, "visitor_rows", (double)rows);
		cJSON_AddStringToObject(o, "cutoff", cutoff);
		api_answer(a, 200, o);
		return;
	}
	if ((rc = purge_entries(a->st, key, cutoff, PURGE_REQUEST_MAX, NULL, NULL, &done)) != STORE_OK) {
		cJSON_Delete(o);
		if (rc == STORE_EXISTS)
			api_error(a, 409, "Another seal ran at the same time: seal again");
		else
			api_error(a, 500, "Internal server error");
		return;
	}
	if (done > 0 && purge_audit(a, key, "entries", done) != 0)
		goto fail;
	if (store_purge_entries(a->st, key, cutoff, 0, 1, &total) != STORE_OK ||
	    (total == 0 && purge_visitors(a->st, month, &rows) != STORE_OK) ||
	    (rows > 0 && purge_audit(a, NULL, "visitor_rows", rows) != 0))
		goto fail;
	cJSON_AddNumberToObject(o, "purged", (double)done);
	cJSON_AddNumberToObject(o, "visitor_rows", (double)rows);
	cJSON_AddNumberToObject(o, "remaining", (double)total);
	cJSON_AddBoolToObject(o, "done", total == 0);
	cJSON_AddStringToObject(o, "cutoff", cutoff);
	api_answer(a, 200, o);
	return;
fail:
	cJSON_Delete(o);
	api_error(a, 500, "Internal server error");
}

/* GET sites/{key}/report?from=&to=: consentctl report --json. */
void
route_report(struct api *a)
{
	const char *key = api_site_key(a, ROLE_VIEWER);
	char from[16], to[16], today[11], at[32], err[200];
	const char *since = NULL, *until = NULL;
	struct report_period p;
	cJSON *doc = NULL;
	int malformed, rc;

	if (key == NULL)
		return;
	switch (http_query_param(a->req.query, "from", from, sizeof(from))) {
	case HTTP_PARAM_FOUND: since = from; break;
	case HTTP_PARAM_ABSENT: break;
	default: api_error(a, 400, "Invalid parameter: from"); return;
	}
	switch (http_query_param(a->req.query, "to", to, sizeof(to))) {
	case HTTP_PARAM_FOUND: until = to; break;
	case HTTP_PARAM_ABSENT: break;
	default: api_error(a, 400, "Invalid parameter: to"); return;
	}
	report_now(today, at);
	if (report_period(since, until, today, &p, err, sizeof(err)) != 0) {
		api_error(a, 400, err);
		return;
	}
	rc = report_site(a->st, key, &p, io_env("CONSENT_MAU_CAP"), at, &doc, &malformed, err,
	    sizeof(err));
	if (rc != STORE_OK) {
		if (err[0] != '\0')
			log_error("%s", err);
		api_site_failed(a, rc);
		return;
	}
	if (cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(doc, "totals"), "entries")) == 0) {
		cJSON_Delete(doc);
		api_error(a, 404, "No consent entries in the period");
		return;
	}
	api_answer(a, 200, doc);
}

/* GET backup: SQLite's online backup into a temporary file, streamed
 * out as a download, then removed. */
void
route_backup(struct api *a)
{
	char path[] = "/tmp/consent-backup-XXXXXX", name[64], buf[65536];
	time_t now = a->now;
	struct tm tm;
	ssize_t n;
	int fd;

	if (store_is_conninfo(store_default_path())) {
		api_error(a, 501, "Backups of a PostgreSQL database are pg_dump's (docs/postgres.md)");
		return;
	}
	if ((fd = mkstemp(path)) < 0) {
		log_error("backup: no temporary file: %s", strerror(errno));
		api_error(a, 500, "Internal server error");
		return;
	}
	if (store_backup(a->st, path) != STORE_OK) {
		close(fd);
		unlink(path);
		api_error(a, 500, "Internal server error");
		return;
	}
	gmtime_r(&now, &tm);
	strftime(name, sizeof(name), "consent-%Y%m%d-%H%M%S.sqlite3", &tm);
	if (api_audit(a, NULL, "backup", NULL, -1) != 0) {
		close(fd);
		unlink(path);
		api_error(a, 500, "Internal server error");
		return;
	}
	if (api_download(a, "application/vnd.sqlite3", name) == 0) {
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			if (io_write(buf, (size_t)n) != 0)
				break;
		if (n < 0)
			log_error("backup: reading %s: %s", path, strerror(errno));
	}
	close(fd);
	unlink(path);
}
