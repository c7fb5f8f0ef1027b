/* http.h: the request as a CGI program receives it (RFC 3875), through io.h. */
#ifndef CONSENT_HTTP_H
#define CONSENT_HTTP_H

#include <stddef.h>

enum http_method { HTTP_GET, HTTP_HEAD, HTTP_POST, HTTP_OPTIONS, HTTP_OTHER };

enum http_err {
	HTTP_OK = 0,
	HTTP_E_TOO_LARGE,   /* CONTENT_LENGTH over BODY_MAX: 413, body unread */
	HTTP_E_LENGTH,      /* CONTENT_LENGTH not a decimal number */
	HTTP_E_SHORT,       /* fewer bytes than CONTENT_LENGTH arrived */
	HTTP_E_SYS          /* read error or out of memory */
};

struct http_req {
	enum http_method method;
	const char *query;   /* QUERY_STRING, "" when absent */
	const char *origin;  /* HTTP_ORIGIN as sent, NULL when absent */
	char *body;          /* owned, NUL-terminated; NULL before http_read_body */
	size_t body_len;
	size_t consumed;     /* bytes of stdin read so far */
};

/* Fill r from the request's variables (io_env); reads nothing of the body. */
void http_req_init(struct http_req *r);

/*
 * Read exactly CONTENT_LENGTH bytes of the request body (io_read: stdin,
 * or the FastCGI request's; none when it is absent or 0) into r->body.  A length over BODY_MAX is refused before reading anything.
 */
enum http_err http_read_body(struct http_req *r);
/* The same with a limit of max bytes instead of BODY_MAX (the dashboard's
 * config documents); what is over DRAIN_MAX is not drained by http_finish. */
enum http_err http_read_body_max(struct http_req *r, size_t max);

/*
 * End of the request: read and discard what is left of CONTENT_LENGTH (at
 * most DRAIN_MAX bytes), then free.  A CGI that exits with its input unread
 * has its answer cut off by Apache's mod_cgid, so every endpoint calls this
 * after replying, whatever it answered.  Never reads without a
 * CONTENT_LENGTH (stdin may be a terminal).
 */
void http_finish(struct http_req *r);

/* What http_query_param() found. */
enum http_param {
	HTTP_PARAM_BAD = -1,   /* present, but too long for out, badly escaped, or
	                        * decoding to a NUL or control byte */
	HTTP_PARAM_ABSENT = 0,
	HTTP_PARAM_FOUND = 1   /* its value written to out */
};

/*
 * Find parameter name in an application/x-www-form-urlencoded query string
 * and write its percent-decoded value ('+' is a space) to out, which holds
 * outsz bytes.  The first occurrence wins.
 */
enum http_param http_query_param(const char *query, const char *name, char *out,
                                 size_t outsz);

/* io_env (the request's params, then the environment), but values longer
 * than HEADER_MAX count as absent. */
const char *http_env(const char *name);

/*
 * Whether the request carried the Global Privacy Control header with the
 * value the proposal defines, "Sec-GPC: 1" (HTTP_SEC_GPC exactly "1"): 1,
 * else 0 (absent, empty, "0", " 1", anything else).
 */
int http_gpc(void);

#endif
