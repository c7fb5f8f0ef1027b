/* scripts.c: POST /functions/v1/scripts, third-party scripts seen on a page (spec 4.3). */
#include <string.h>

#include "http/http.h"
#include "base/limits.h"
#include "base/log.h"
#include "endpoint/request.h"
#include "config/prepare.h"
#include "http/resp.h"
#include "endpoint/serve.h"
#include "endpoint/scripts_req.h"
#include "store/store.h"

/* One request (serve.h).  The report is static for its size (SCRIPTS_MAX
 * entries); it is emptied first, so nothing of a previous request is in it. */
static void
scripts_request(void)
{
	static struct scripts_report rep;
	struct http_req req;
	struct resp resp;
	struct store *st = NULL;
	struct site site;
	struct served sv = { 0 };
	cJSON *body = NULL;
	const char *key;
	char err[ERR_MSG_MAX];
	enum scripts_req_err rc;

	memset(&rep, 0, sizeof(rep));
	http_req_init(&req);
	resp_init(&resp, &req, "POST, OPTIONS");
	/* CONTRACT 7: scripts checks the Origin too, but accepts paused sites. */
	if (request_method(&req, &resp, 0, 1) != 0 ||
	    request_body(&req, &resp, &body) != 0 ||
	    request_body_key(body, &resp, &key) != 0 ||
	    request_site(&req, &resp, key, STORE_WRITE, 0, &st, &site) != 0)
		goto done;
	/* The category checks read only the ids (the skeleton has them). */
	if (prepare_site(&site, &sv) != 0)
		resp_error(&resp, 500, "Internal server error");
	else if ((rc = scripts_req_check(body, req.query, sv.doc, &rep, err,
	    sizeof(err))) == SCRIPTS_REQ_INVALID)
		resp_error(&resp, 400, err);
	else if (rc != SCRIPTS_REQ_OK)
		resp_error(&resp, 500, "Internal server error");
	else if (store_scripts_report(st, site.id, rep.page_url, rep.e, rep.n,
	    rep.sync_id[0] ? rep.sync_id : NULL, rep.error) != STORE_OK ||
	    resp_success(&resp, 200) != 0)
		resp_error(&resp, 500, "Internal server error");
	request_release(&resp, st, &site);
done:
	scripts_req_free(&rep);
	prepare_site_free(&sv);
	cJSON_Delete(body);
	http_finish(&req);
}

int
main(void)
{
	return serve_requests("scripts", scripts_request, request_write_failed);
}
