/* request.c: the steps every endpoint shares, each mapped to its answer. */
#include <string.h>

#include "base/limits.h"
#include "base/log.h"
#include "input/origin.h"
#include "endpoint/request.h"
#include "input/valid.h"

int
request_method(const struct http_req *req, struct resp *resp, int allow_get,
               int allow_post)
{
	if (req->method == HTTP_OPTIONS) {
		resp_nocontent(resp);
		return -1;
	}
	if ((allow_get && (req->method == HTTP_GET || req->method == HTTP_HEAD)) ||
	    (allow_post && req->method == HTTP_POST))
		return 0;
	resp_error(resp, 405, "Method not allowed");
	return -1;
}

int
request_body(struct http_req *req, struct resp *resp, cJSON **out)
{
	enum http_err err;
	const char *msg;
	int status;

	*out = NULL;
	if ((err = http_read_body(req)) != HTTP_OK) {
		status = http_err_status(err, &msg);
		resp_error(resp, status, msg);
		return -1;
	}
	if ((*out = valid_parse_body(req->body, req->body_len)) == NULL) {
		resp_error(resp, 400, "Invalid JSON body");
		return -1;
	}
	return 0;
}

int
request_body_key(const cJSON *body, struct resp *resp, const char **key)
{
	const cJSON *k = valid_get(body, "site_key");

	if (k == NULL) {
		resp_error(resp, 400, "site_key is required");
		return -1;
	}
	if (!cJSON_IsString(k)) {
		resp_error(resp, 400, "site_key must be a string");
		return -1;
	}
	if (!valid_site_key(k->valuestring)) {
		resp_error(resp, 400, "site_key must be 1 to 64 characters of A-Za-z0-9_-");
		return -1;
	}
	*key = k->valuestring;
	return 0;
}

/* store_domain_fn: whether the Origin's host (arg) is under domain. */
static int
host_under(const char *domain, void *arg)
{
	return origin_matches(arg, domain);
}

int
request_site(const struct http_req *req, struct resp *resp, const char *key,
             enum store_mode mode, int check_paused, struct store **st,
             struct site *site)
{
	char host[HOST_MAX + 1];
	int rc = 0;

	memset(site, 0, sizeof(*site));
	if (store_acquire(st, mode) != STORE_OK) {
		resp_error(resp, 500, "Internal server error");
		return -1;
	}
	switch (store_site_get(*st, key, site)) {
	case STORE_OK:
		break;
	case STORE_NOTFOUND:
		resp_error(resp, 404, "Site not found");
		goto fail;
	default:
		resp_error(resp, 500, "Internal server error");
		goto fail;
	}
	if (req->origin == NULL) {
		resp_error(resp, 403, "Missing Origin header");
		goto fail_site;
	}
	if (origin_host(req->origin, host) != 0 ||
	    (rc = store_site_domains(*st, site->id, host_under, host)) == 0) {
		resp_error(resp, 403, "Origin not registered for this site");
		goto fail_site;
	}
	if (rc < 0) {
		resp_error(resp, 500, "Internal server error");
		goto fail_site;
	}
	if (check_paused && site->paused) {
		resp_error(resp, 403, "Site is paused");
		goto fail_site;
	}
	return 0;
fail_site:
	store_site_clear(site);
fail:
	store_release(*st, resp->status >= 500);
	*st = NULL;
	return -1;
}

void
request_release(const struct resp *resp, struct store *st, struct site *site)
{
	store_site_clear(site);
	store_release(st, resp->status >= 500);
}

void
request_write_failed(void)
{
	struct http_req req;
	struct resp resp;

	http_req_init(&req);
	resp_init(&resp, &req, "POST, OPTIONS");
	resp_error(&resp, 500, "Internal server error");
	http_finish(&req);
}
