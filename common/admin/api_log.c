/* api_log.c: the dashboard's consent log: a page of it, the export, a visitor's receipt, erasure (issue 26). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "admin/api.h"
#include "admin/api_sites.h"
#include "admin/b64.h"
#include "admin/export.h"
#include "admin/receipt.h"
#include "base/hash.h"
#include "base/io.h"
#include "base/limits.h"
#include "base/log.h"
#include "base/nitems.h"
#include "input/valid.h"
#include "store/store_admin.h"

#define PAGE_DEFAULT 50
#define PAGE_MAX 100
/* The entries a filtered page looks at, at most: a filter that matches few
 * answers a page with fewer rows, and next, in bounded time. */
#define PAGE_WINDOW 20000
#define STAMP_LEN 24   /* "YYYY-MM-DDTHH:MM:SS.mmmZ" */

/* Whether s is a time of the stored form, or its date ("YYYY-MM-DD"). */
static int
stored_time(const char *s)
{
	static const char shape[] = "dddd-dd-ddTdd:dd:dd.dddZ";
	size_t n = strlen(s), i;

	if (n != 10 && n != STAMP_LEN)
		return 0;
	for (i = 0; i < n; i++)
		if (shape[i] == 'd' ? (s[i] < '0' || s[i] > '9') : s[i] != shape[i])
			return 0;
	return 1;
}

/* Whether s is 1-max bytes of set. */
static int
made_of(const char *s, size_t max, const char *set)
{
	size_t n = strlen(s);

	return n >= 1 && n <= max && strspn(s, set) == n;
}

/* The request's filters and page (docs/admin-api.md): text kept in t. */
struct page_query {
	struct store_log_filter f;
	char from[32], to[32], event[40], action[40], region[24], country[8], before[32];
};

/* One text parameter into buf when present and ok(buf): 0, or -1 (bad). */
static int
text_param(const struct api *a, const char *name, char *buf, size_t size, const char **out,
           int (*ok)(const char *))
{
	switch (http_query_param(a->req.query, name, buf, size)) {
	case HTTP_PARAM_ABSENT:
		return 0;
	case HTTP_PARAM_FOUND:
		if (!ok(buf))
			return -1;
		*out = buf;
		return 0;
	default:
		return -1;
	}
}

static int
ok_event(const char *s)
{
	return strcmp(s, "impression") == 0 || strcmp(s, "initial") == 0 ||
	    strcmp(s, "update") == 0;
}

static int
ok_action(const char *s)
{
	return made_of(s, 32, "abcdefghijklmnopqrstuvwxyz_");
}

static int
ok_region(const char *s)
{
	return made_of(s, 16, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-");
}

static int
ok_country(const char *s)
{
	return strlen(s) == 2 && made_of(s, 2, "ABCDEFGHIJKLMNOPQRSTUVWXYZ");
}

/* The cursor: base64url of "created_at/id".  0, or -1 (malformed). */
static int
read_cursor(const char *text, char at[32], int64_t *id)
{
	unsigned char raw[64];
	char *end;
	long n = b64_decode(B64_URL, text, strlen(text), raw, sizeof(raw) - 1);
	long long v;

	if (n <= STAMP_LEN + 1 || raw[STAMP_LEN] != '/')
		return -1;
	raw[n] = '\0';
	memcpy(at, raw, STAMP_LEN);
	at[STAMP_LEN] = '\0';
	if (!stored_time(at) || strlen(at) != STAMP_LEN ||
	    raw[STAMP_LEN + 1] < '1' || raw[STAMP_LEN + 1] > '9')
		return -1;
	v = strtoll((const char *)raw + STAMP_LEN + 1, &end, 10);
	if (*end != '\0' || v < 1)
		return -1;
	*id = v;
	return 0;
}

/* The page's parameters into q: 0, or -1 with 400 naming the parameter. */
static int
page_params(struct api *a, struct page_query *q)
{
	char gpc[8], cursor[128];
	int64_t limit = PAGE_DEFAULT, version = -1;
	const char *bad = NULL;

	memset(q, 0, sizeof(*q));
	q->f.gpc = -1;
	if (text_param(a, "from", q->from, sizeof(q->from), &q->f.from, stored_time) != 0)
		bad = "from";
	else if (text_param(a, "to", q->to, sizeof(q->to), &q->f.to, stored_time) != 0)
		bad = "to";
	else if (text_param(a, "event", q->event, sizeof(q->event), &q->f.event_type, ok_event) != 0)
		bad = "event";
	else if (text_param(a, "action", q->action, sizeof(q->action), &q->f.event_action,
	    ok_action) != 0)
		bad = "action";
	else if (text_param(a, "region", q->region, sizeof(q->region), &q->f.region, ok_region) != 0)
		bad = "region";
	else if (text_param(a, "country", q->country, sizeof(q->country), &q->f.country,
	    ok_country) != 0)
		bad = "country";
	else if (api_query_int(a, "version", 0, INT32_MAX, &version) < 0)
		bad = "version";
	else if (api_query_int(a, "limit", 1, PAGE_MAX, &limit) < 0)
		bad = "limit";
	if (bad == NULL) {
		switch (http_query_param(a->req.query, "gpc", gpc, sizeof(gpc))) {
		case HTTP_PARAM_ABSENT:
			break;
		case HTTP_PARAM_FOUND:
			q->f.gpc = strcmp(gpc, "false") == 0 ? 0 : strcmp(gpc, "true") == 0 ? 1 :
			    strcmp(gpc, "none") == 0 ? 2 : -2;
			if (q->f.gpc != -2)
				break;
			/* fall through */
		default:
			bad = "gpc";
		}
	}
	if (bad == NULL) {
		switch (http_query_param(a->req.query, "cursor", cursor, sizeof(cursor))) {
		case HTTP_PARAM_ABSENT:
			break;
		case HTTP_PARAM_FOUND:
			if (read_cursor(cursor, q->before, &q->f.before_id) == 0) {
				q->f.before_at = q->before;
				break;
			}
			/* fall through */
		default:
			bad = "cursor";
		}
	}
	if (bad != NULL) {
		char msg[64];

		snprintf(msg, sizeof(msg), "Invalid parameter: %s", bad);
		api_error(a, 400, msg);
		return -1;
	}
	q->f.version = version;
	q->f.limit = (int)limit + 1;   /* one more: whether there is a next page */
	/* Unfiltered, the limit bounds the walk already. */
	if (q->f.event_type != NULL || q->f.event_action != NULL || q->f.region != NULL ||
	    q->f.country != NULL || q->f.gpc >= 0 || q->f.version >= 0)
		q->f.window = PAGE_WINDOW;
	return 0;
}

/* GET sites/{key}/consents: one page of the log, newest first. */
void
route_consents_list(struct api *a)
{
	const char *key = api_site_key(a, ROLE_OWNER);
	struct page_query q;
	struct store_page_end end;
	cJSON *rows, *o, *last;
	int rc, n;

	if (key == NULL || page_params(a, &q) != 0)
		return;
	if ((rows = cJSON_CreateArray()) == NULL) {
		api_error(a, 500, "Internal server error");
		return;
	}
	if ((rc = store_consent_page(a->st, key, &q.f, api_rows_append, rows, &end)) != STORE_OK) {
		cJSON_Delete(rows);
		api_site_failed(a, rc);
		return;
	}
	if ((o = cJSON_CreateObject()) == NULL) {
		cJSON_Delete(rows);
		api_error(a, 500, "Internal server error");
		return;
	}
	n = cJSON_GetArraySize(rows);
	if (n == q.f.limit)
		cJSON_DeleteItemFromArray(rows, n - 1);
	if (!cJSON_AddItemToObject(o, "entries", rows)) {
		cJSON_Delete(rows);
		cJSON_Delete(o);
		api_error(a, 500, "Internal server error");
		return;
	}
	/* A full page: the keyset of its last row is the next page's cursor;
	 * a window walked without filling it: the last entry it looked at. */
	if (n == q.f.limit || end.walked) {
		char raw[64], next[B64_LEN(sizeof(raw)) + 1];
		int len;

		if (n == q.f.limit) {
			last = cJSON_GetArrayItem(rows, n - 2);
			len = snprintf(raw, sizeof(raw), "%s/%lld", export_text_of(last, "created_at"),
			    (long long)export_int_of(last, "id"));
		} else {
			len = snprintf(raw, sizeof(raw), "%s/%lld", end.at, (long long)end.id);
		}
		if (len < 0 || (size_t)len >= sizeof(raw))
			len = 0;
		b64_encode(B64_URL, (const unsigned char *)raw, (size_t)len, next);
		cJSON_AddStringToObject(o, "next", next);
	}
	api_answer(a, 200, o);
}

/* export.h's writer: the answer's body.  With the test build's fault
 * "export" (api_test_fault), the first write sends half its bytes and
 * fails, as a store or a connection failing midway would. */
static int
answer_write(void *arg, const char *buf, size_t n)
{
	(void)arg;
	if (api_test_fault("export")) {
		io_write(buf, n / 2);
		return -1;
	}
	return io_write(buf, n);
}

/* GET sites/{key}/consents/export?format=csv|jsonl&since=: consentctl
 * consent export's bytes, streamed as a download, then the line that
 * marks it complete (export_mark_complete). */
void
route_consents_export(struct api *a)
{
	const char *key = api_site_key(a, ROLE_OWNER), *since = NULL;
	char format[8] = "jsonl", sincebuf[32], name[SITE_KEY_MAX + 32];
	struct export_out out;
	int csv, rc;

	if (key == NULL || api_need_reauth(a) != 0)
		return;
	if (http_query_param(a->req.query, "format", format, sizeof(format)) == HTTP_PARAM_BAD ||
	    (strcmp(format, "csv") != 0 && strcmp(format, "jsonl") != 0)) {
		api_error(a, 400, "Invalid parameter: format (csv or jsonl)");
		return;
	}
	if (text_param(a, "since", sincebuf, sizeof(sincebuf), &since, stored_time) != 0) {
		api_error(a, 400, "Invalid parameter: since");
		return;
	}
	csv = strcmp(format, "csv") == 0;
	/* An unknown site answers 404 before the download begins. */
	{
		int64_t n;

		if ((rc = store_consent_count(a->st, key, &n)) != STORE_OK) {
			api_site_failed(a, rc);
			return;
		}
	}
	snprintf(name, sizeof(name), "consents-%s.%s", key, format);
	if (api_download(a, csv ? "text/csv; charset=utf-8" : "application/x-ndjson", name) != 0)
		return;
	/* Longer than a request's bound on the database: as consentctl's. */
	store_unbounded(a->st);
	export_begin(&out, csv, answer_write, NULL);
	rc = store_consent_export(a->st, key, since, export_row, &out);
	/* Only a complete export ends with its mark: one cut short lacks it. */
	if (export_end(&out) != 0 || rc != STORE_OK || export_mark_complete(&out) != 0)
		log_error("the export of %s ended early: the download is short, without its end mark", key);
}

/* The hash of a visitor's id as the consent endpoint stores it, from the
 * id as an operator types it (valid_anon_id).  0, or -1 (not an id). */
static int
visitor_hash(const char *id, char hash[65])
{
	if (id == NULL || !valid_anon_id(id))
		return -1;
	return hash_sha256_hex(id, strlen(id), hash) == 0 ? 0 : -1;
}

/* GET sites/{key}/receipt?anon_id=: consentctl consent receipt --json. */
void
route_receipt(struct api *a)
{
	const char *key = api_site_key(a, ROLE_OWNER);
	char id[ANON_ID_MAX * 4 + 1], hash[65], err[512];
	cJSON *doc = NULL;
	int rc;

	if (key == NULL)
		return;
	if (http_query_param(a->req.query, "anon_id", id, sizeof(id)) != HTTP_PARAM_FOUND ||
	    visitor_hash(id, hash) != 0) {
		api_error(a, 400, "Invalid parameter: anon_id");
		return;
	}
	if ((rc = receipt_make(a->st, key, hash, &doc, err, sizeof(err))) != STORE_OK) {
		if (rc == STORE_NOTFOUND)
			api_site_failed(a, rc);
		else
			api_error(a, 500, err[0] != '\0' ? err : "Internal server error");
		return;
	}
	api_answer(a, 200, doc);
}

static const struct vfield erase_fields[] = {
	{"anon_id", V_STRING, 1, 1, ANON_ID_MAX, 0, 0, NULL},
	{"confirm", V_STRING, 1, 1, 16, 0, 0, NULL},
};

/* POST sites/{key}/erase: consentctl consent erase, recorded without the
 * visitor. */
void
route_erase(struct api *a)
{
	const char *key = api_site_key(a, ROLE_OWNER);
	char hash[65];
	int64_t n = 0;
	cJSON *detail, *o;
	int rc;

	if (key == NULL || api_need_reauth(a) != 0 ||
	    api_body(a, erase_fields, nitems(erase_fields)) != 0)
		return;
	if (strcmp(cJSON_GetStringValue(valid_get(a->body, "confirm")), "ERASE") != 0) {
		api_error(a, 400, "confirm must be ERASE");
		return;
	}
	if (visitor_hash(cJSON_GetStringValue(valid_get(a->body, "anon_id")), hash) != 0) {
		api_error(a, 400, "anon_id must be 1-100 characters of text without control characters");
		return;
	}
	if ((rc = store_consent_erase(a->st, key, hash, &n)) != STORE_OK) {
		api_site_failed(a, rc);
		return;
	}
	detail = cJSON_CreateObject();
	if (detail == NULL || cJSON_AddNumberToObject(detail, "entries", (double)n) == NULL ||
	    api_audit(a, key, "consent.erase", detail, -1) != 0 ||
	    (o = cJSON_CreateObject()) == NULL) {
		cJSON_Delete(detail);
		api_error(a, 500, "Internal server error");
		return;
	}
	cJSON_Delete(detail);
	cJSON_AddNumberToObject(o, "erased", (double)n);
	api_answer(a, 200, o);
}
