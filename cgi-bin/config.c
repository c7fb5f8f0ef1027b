/* config.c: GET /functions/v1/config, a site's banner config for one visitor (spec 4.1). */
#include <stdlib.h>
#include <string.h>

#include "input/geo.h"
#include "http/http.h"
#include "base/io.h"
#include "base/limits.h"
#include "base/log.h"
#include "config/prepare.h"
#include "endpoint/request.h"
#include "http/resp.h"
#include "endpoint/serve.h"
#include "store/store.h"
#include "input/valid.h"

/* The cap of a free site: its own, else CONSENT_MAU_CAP, else the default.
 * A malformed CONSENT_MAU_CAP is reported and the default used. */
static int64_t
mau_cap(const struct site *site)
{
	int malformed;
	int64_t cap = valid_cap_in_force(site->mau_cap, io_env("CONSENT_MAU_CAP"), &malformed);

	if (malformed)
		log_error("CONSENT_MAU_CAP is not a non-negative integer; using %d", MAU_CAP_DEFAULT);
	return cap;
}

/* Spec 3: a free site at its cap gets the disabled body, not an error. */
static int
over_cap(const struct site *site)
{
	return site->free_tier && site->visitors >= mau_cap(site);
}

static int
reply_disabled(struct resp *resp)
{
	cJSON *o = cJSON_CreateObject();
	int rc = -1;

	if (o != NULL && cJSON_AddTrueToObject(o, "disabled") != NULL &&
	    cJSON_AddStringToObject(o, "reason", "cap_exceeded") != NULL)
		rc = resp_json(resp, 200, o);
	cJSON_Delete(o);
	return rc;
}

/* CONTRACT 5: the site's config for this visitor, by the one config path. */
static int
reply_config(struct resp *resp, struct store *st, const struct site *site,
             const struct visitor *v)
{
	struct served sv;
	cJSON *body = NULL;
	int rc = -1;

	if (prepare_site(site, &sv) == 0 && (body = prepare_answer(st, site, &sv, v)) != NULL)
		rc = resp_json(resp, 200, body);
	cJSON_Delete(body);
	prepare_site_free(&sv);
	return rc;
}

/* One request (serve.h). */
static void
config_request(void)
{
	struct http_req req;
	struct resp resp;
	struct store *st = NULL;
	struct site site;
	struct visitor v;
	char key[SITE_KEY_MAX + 1], region[TOKEN_MAX + 1], lang[LANG_TAG_MAX + 1];

	http_req_init(&req);
	resp_init(&resp, &req, "GET, HEAD, OPTIONS");
	if (request_method(&req, &resp, 1, 0) != 0)
		goto done;
	if (http_query_param(req.query, "site_key", key, sizeof(key)) != HTTP_PARAM_FOUND ||
	    !valid_site_key(key)) {
		resp_error(&resp, 400, "site_key is required");
		goto done;
	}
	if (request_site(&req, &resp, key, STORE_READ, 1, &st, &site) != 0)
		goto done;
	if (over_cap(&site)) {
		if (reply_disabled(&resp) != 0)
			resp_error(&resp, 500, "Internal server error");
		goto out;
	}
	memset(&v, 0, sizeof(v));
	/* An empty, overlong or badly escaped region or lang counts as absent. */
	if (http_query_param(req.query, "region", region, sizeof(region)) == HTTP_PARAM_FOUND &&
	    region[0] != '\0')
		v.region = region;
	if (http_query_param(req.query, "lang", lang, sizeof(lang)) == HTTP_PARAM_FOUND &&
	    lang[0] != '\0')
		v.lang = lang;
	v.accept = http_env("HTTP_ACCEPT_LANGUAGE");
	if (v.region == NULL)  /* CONTRACT 5.1: the parameter skips detection */
		geo_detect(&v.geo);
	if (reply_config(&resp, st, &site, &v) != 0)
		resp_error(&resp, 500, "Internal server error");
out:
	request_release(&resp, st, &site);
done:
	http_finish(&req);
}

int
main(void)
{
	return serve_requests("config", config_request, NULL);
}
