/* consent.c: POST /functions/v1/consent, one consent decision or impression (spec 4.2). */
#include <string.h>

#include "base/clock.h"
#include "endpoint/consent_req.h"
#include "config/defaults.h"
#include "input/geo.h"
#include "base/hash.h"
#include "http/http.h"
#include "base/log.h"
#include "endpoint/request.h"
#include "config/prepare.h"
#include "proof/proof.h"
#include "http/resp.h"
#include "endpoint/serve.h"
#include "store/store.h"
#include "input/ua.h"
#include "input/valid.h"

/* Spec 2.4 enrichment of a checked body, then one transaction in the store. */
static int
record(struct store *st, const struct site *site, const cJSON *body)
{
	const char *anon = valid_get(body, "anon_id")->valuestring;
	struct consent_entry e;
	struct ua_info ua;
	struct geo geo;
	char hash[65], now[32], digest[65];
	char *cats;
	int rc;

	memset(&e, 0, sizeof(e));
	consent_req_entry(body, &e);
	if (hash_sha256_hex(anon, strlen(anon), hash) != 0)
		return -1;
	if ((cats = cJSON_PrintUnformatted(valid_get(body, "categories"))) == NULL) {
		log_error("out of memory");
		return -1;
	}
	ua_parse(http_env("HTTP_USER_AGENT"), &ua);
	geo_detect(&geo);
	e.site_id = site->id;
	e.config_id = site->config_id;
	e.published_version = site->version;
	e.anon_id_hash = hash;
	e.categories = cats;
	e.browser = ua.browser;
	e.os = ua.os;
	e.device_type = ua.device;
	e.country = geo.country[0] ? geo.country : NULL;
	e.gpc = http_gpc();
	clock_now(now, NULL);
	e.created_at = now;
	e.config_sha256 = site->config_sha256[0] ? site->config_sha256 : NULL;
	e.builtin_sha256 = defaults_hash();
	/* The entry's own digest (docs/proof.md, consent-log(5)):
	 * nothing of the log is read, so writers never wait for one another. */
	if (proof_entry_digest(site->key, &e, digest) != 0) {
		cJSON_free(cats);
		return -1;
	}
	e.digest = digest;
	rc = store_consent_add(st, &e) == STORE_OK ? 0 : -1;
	cJSON_free(cats);
	return rc;
}

/* One request (serve.h). */
static void
consent_request(void)
{
	struct http_req req;
	struct resp resp;
	struct store *st = NULL;
	struct site site;
	struct served sv = { 0 };
	cJSON *body = NULL;
	const char *key;
	char err[CONSENT_ERR_MAX];

	http_req_init(&req);
	resp_init(&resp, &req, "POST, OPTIONS");
	if (request_method(&req, &resp, 0, 1) != 0 ||
	    request_body(&req, &resp, &body) != 0 ||
	    request_body_key(body, &resp, &key) != 0 ||
	    request_site(&req, &resp, key, STORE_WRITE, 1, &st, &site) != 0)
		goto done;
	/* The category checks read only the ids (the skeleton has them). */
	if (prepare_site(&site, &sv) != 0)
		resp_error(&resp, 500, "Internal server error");
	else if (consent_req_check(body, sv.doc, err, sizeof(err)) != 0)
		resp_error(&resp, 400, err);
	else if (record(st, &site, body) != 0 || resp_success(&resp, 201) != 0)
		resp_error(&resp, 500, "Internal server error");
	request_release(&resp, st, &site);
done:
	prepare_site_free(&sv);
	cJSON_Delete(body);
	http_finish(&req);
}

int
main(void)
{
	return serve_requests("consent", consent_request, request_write_failed);
}
