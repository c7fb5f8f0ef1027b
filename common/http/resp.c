/* resp.c: build the whole reply, then write it once (Fossil's cgi_reply). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/io.h"
#include "base/log.h"
#include "input/origin.h"
#include "http/resp.h"

void
resp_init(struct resp *r, const struct http_req *req, const char *allow)
{
	char host[HOST_MAX + 1];

	memset(r, 0, sizeof(*r));
	r->head = req->method == HTTP_HEAD;
	r->allow = allow;
	if (req->origin != NULL && strlen(req->origin) <= ORIGIN_MAX &&
	    origin_host(req->origin, host) == 0)
		memcpy(r->allow_origin, req->origin, strlen(req->origin) + 1);
	else
		memcpy(r->allow_origin, "*", 2);
}

static const char *
reason(int status)
{
	switch (status) {
	case 200: return "OK";
	case 201: return "Created";
	case 204: return "No Content";
	case 400: return "Bad Request";
	case 403: return "Forbidden";
	case 404: return "Not Found";
	case 405: return "Method Not Allowed";
	case 413: return "Content Too Large";
	default:  return "Internal Server Error";
	}
}

/* Headers and body (may be NULL) in one buffer, one write. */
static int
send_reply(struct resp *r, int status, const char *body)
{
	size_t blen = body ? strlen(body) : 0;
	char head[1024 + ORIGIN_MAX];
	char *all;
	int n, rc;

	if (r->sent)
		return 0;
	r->sent = 1;
	r->status = status;
	n = snprintf(head, sizeof(head),
	    "Status: %d %s\r\n"
	    "%s"
	    "Cache-Control: private, no-store\r\n"
	    "Access-Control-Allow-Origin: %s\r\n"
	    "Vary: Origin\r\n"
	    "Access-Control-Allow-Methods: GET, POST, OPTIONS\r\n"
	    "Access-Control-Allow-Headers: authorization, x-client-info, apikey, content-type\r\n"
	    "Access-Control-Max-Age: 86400\r\n"
	    "X-Content-Type-Options: nosniff\r\n"
	    "%s%s%s"
	    "Content-Length: %zu\r\n"
	    "\r\n",
	    status, reason(status),
	    body ? "Content-Type: application/json; charset=utf-8\r\n" : "",
	    r->allow_origin,
	    (status == 405 && r->allow) ? "Allow: " : "",
	    (status == 405 && r->allow) ? r->allow : "",
	    (status == 405 && r->allow) ? "\r\n" : "",
	    blen);
	if (n < 0 || (size_t)n >= sizeof(head))
		return -1;
	if (r->head || body == NULL)
		return io_write(head, (size_t)n);
	if ((all = malloc((size_t)n + blen)) == NULL)
		return io_write(head, (size_t)n) || io_write(body, blen);
	memcpy(all, head, (size_t)n);
	memcpy(all + n, body, blen);
	rc = io_write(all, (size_t)n + blen);
	free(all);
	return rc;
}

int
resp_json(struct resp *r, int status, const cJSON *body)
{
	char *text = cJSON_PrintUnformatted(body);
	int rc;

	if (text == NULL) {
		log_error("out of memory printing the reply");
		return send_reply(r, 500, "{\"error\":\"Internal server error\"}");
	}
	rc = send_reply(r, status, text);
	cJSON_free(text);
	return rc;
}

int
resp_error(struct resp *r, int status, const char *msg)
{
	cJSON *o = cJSON_CreateObject();
	int rc;

	if (o == NULL || cJSON_AddStringToObject(o, "error", msg) == NULL) {
		cJSON_Delete(o);
		log_error("out of memory building an error reply");
		return send_reply(r, 500, "{\"error\":\"Internal server error\"}");
	}
	rc = resp_json(r, status, o);
	cJSON_Delete(o);
	return rc;
}

int
resp_success(struct resp *r, int status)
{
	cJSON *o = cJSON_CreateObject();
	int rc;

	if (o == NULL || cJSON_AddTrueToObject(o, "success") == NULL) {
		cJSON_Delete(o);
		log_error("out of memory building the reply");
		return resp_error(r, 500, "Internal server error");
	}
	rc = resp_json(r, status, o);
	cJSON_Delete(o);
	return rc;
}

int
resp_nocontent(struct resp *r)
{
	return send_reply(r, 204, NULL);
}
