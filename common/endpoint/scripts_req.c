/* scripts_req.c: the fields of a scripts report, declared once. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http/http.h"
#include "base/limits.h"
#include "base/nitems.h"
#include "input/origin.h"
#include "config/resolve.h"
#include "endpoint/scripts_req.h"
#include "input/tracker.h"
#include "base/uuid.h"
#include "input/valid.h"

/* The report of spec 4.3 (limits: spec 8, limits.h). */
static const struct vfield fields[] = {
	{ "site_key",  V_STRING, 1, 1, SITE_KEY_MAX, 0, 0, NULL },
	{ "page_url",  V_STRING, 1, 1, SCRIPTS_PAGE_URL_MAX, 0, 0, NULL },
	{ "scripts",   V_ARRAY,  1, 0, SCRIPTS_MAX, 0, 0, NULL },
	{ "timestamp", V_NUMBER, 1, 0, 0, 0, TIMESTAMP_MAX, NULL },
	{ "sync_id",   V_STRING, 0, 0, 0, 0, 0, NULL },
	{ "error",     V_STRING, 0, 0, SCRIPT_ERROR_MAX, 0, 0, NULL },
};

/* One script entry. */
static const struct vfield entry_fields[] = {
	{ "src",      V_STRING,      0, 0, SCRIPT_SRC_MAX, 0, 0, NULL },
	{ "domain",   V_STRING,      1, 1, SCRIPT_DOMAIN_MAX, 0, 0, NULL },
	{ "category", V_STRING_NULL, 0, 0, TOKEN_MAX, 0, 0, NULL },
	{ "blocked",  V_BOOL,        1, 0, 0, 0, 0, NULL },
};


/* Add one checked entry, folding it into the record of its domain. */
static enum scripts_req_err
add_entry(struct scripts_report *r, const cJSON *s, const cJSON *doc, size_t idx,
          char *err, size_t errsz)
{
	const cJSON *guess = valid_get(s, "category"), *src = valid_get(s, "src");
	const char *cat;
	char host[HOST_MAX + 1], *dom;
	size_t j;

	if (origin_script_host(valid_get(s, "domain")->valuestring, host) != 0) {
		snprintf(err, errsz, "scripts[%zu].domain must be a host name", idx);
		return SCRIPTS_REQ_INVALID;
	}
	if ((dom = strdup(host)) == NULL)
		return SCRIPTS_REQ_NOMEM;
	cat = tracker_category(dom);
	if (cat == NULL && cJSON_IsString(guess) && resolve_has_category(doc, guess->valuestring))
		cat = guess->valuestring;
	for (j = 0; j < r->n; j++)
		if (strcmp(r->domains[j], dom) == 0)
			break;
	if (j == r->n) {
		r->domains[j] = dom;
		r->e[j].domain = dom;
		r->n++;
	} else {
		free(dom);
	}
	if (src != NULL)
		r->e[j].src = src->valuestring;
	r->e[j].blocked = cJSON_IsTrue(valid_get(s, "blocked"));
	if (cat != NULL)
		r->e[j].category = cat;
	return SCRIPTS_REQ_OK;
}

static int
take_sync_id(const cJSON *body, const char *query, struct scripts_report *r)
{
	const cJSON *b;
	char q[64];

	switch (http_query_param(query, "sync_id", q, sizeof(q))) {
	case HTTP_PARAM_FOUND:
		return uuid_canonical(q, r->sync_id);
	case HTTP_PARAM_BAD:
		return -1;
	case HTTP_PARAM_ABSENT:
		break;
	}
	if ((b = valid_get(body, "sync_id")) != NULL)
		return uuid_canonical(b->valuestring, r->sync_id);
	r->sync_id[0] = '\0';
	return 0;
}

enum scripts_req_err
scripts_req_check(const cJSON *body, const char *query, const cJSON *doc,
                  struct scripts_report *r, char *err, size_t errsz)
{
	const cJSON *s, *e;
	size_t idx = 0;
	enum scripts_req_err rc;

	memset(r, 0, sizeof(*r));
	if (valid_object(body, fields, nitems(fields), "", err, errsz) != 0)
		return SCRIPTS_REQ_INVALID;
	if (take_sync_id(body, query, r) != 0) {
		snprintf(err, errsz, "Invalid sync_id format");
		return SCRIPTS_REQ_INVALID;
	}
	r->page_url = valid_get(body, "page_url")->valuestring;
	e = valid_get(body, "error");
	r->error = e ? e->valuestring : NULL;
	for (s = valid_get(body, "scripts")->child; s != NULL; s = s->next, idx++) {
		char prefix[32];

		if (!cJSON_IsObject(s)) {
			snprintf(err, errsz, "scripts[%zu] must be an object", idx);
			return SCRIPTS_REQ_INVALID;
		}
		snprintf(prefix, sizeof(prefix), "scripts[%zu].", idx);
		if (valid_object(s, entry_fields, nitems(entry_fields), prefix, err, errsz) != 0)
			return SCRIPTS_REQ_INVALID;
		if ((rc = add_entry(r, s, doc, idx, err, errsz)) != SCRIPTS_REQ_OK)
			return rc;
	}
	return SCRIPTS_REQ_OK;
}

void
scripts_req_free(struct scripts_report *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->domains[i]);
	r->n = 0;
}
