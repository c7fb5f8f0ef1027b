/* resp.h: the buffered CGI reply: status, headers, CORS, JSON body. */
#ifndef CONSENT_RESP_H
#define CONSENT_RESP_H

#include <cjson/cJSON.h>

#include "http/http.h"
#include "base/limits.h"

struct resp {
	int head;                            /* HEAD: headers without the body */
	const char *allow;                   /* Allow header for 405, or NULL */
	char allow_origin[ORIGIN_MAX + 1];   /* the request's Origin if valid, else "*" */
	int sent;
	int status;                          /* the status sent, 0 before */
};

/*
 * Prepare the reply to req.  The request's Origin is echoed in
 * Access-Control-Allow-Origin only when it is a well-formed origin
 * (origin_host() accepts it: ASCII, no control bytes), so no request byte
 * reaches a header unvalidated; otherwise "*".  allow is the endpoint's
 * Allow list ("GET, HEAD, OPTIONS"), sent with 405 answers.
 */
void resp_init(struct resp *r, const struct http_req *req, const char *allow);

/*
 * Send status with body as the JSON answer (CONTRACT 7 headers: Content-Type,
 * Cache-Control, CORS, Content-Length), the whole reply in one write.  If
 * printing the JSON fails, a 500 is sent instead.  Only the first reply of a
 * request is sent; later calls do nothing.  Returns 0, or -1 if stdout failed.
 */
int resp_json(struct resp *r, int status, const cJSON *body);

/* {"error": msg} with status; 405 adds the Allow header. */
int resp_error(struct resp *r, int status, const char *msg);

/* {"success": true} with status (201 consent, 200 scripts). */
int resp_success(struct resp *r, int status);

/* 204 No Content with the CORS headers: the OPTIONS preflight. */
int resp_nocontent(struct resp *r);

#endif
