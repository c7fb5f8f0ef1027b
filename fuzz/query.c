/* query.c: the request as http.c reads it (CONTRACT 7): the variables
 * (http_req_init, http_env, http_gpc), the query string (http_query_param)
 * and the body (http_read_body_max, http_err_status, http_finish), served
 * through io.h's source hook as a FastCGI request is, so that the body
 * arrives in pieces of a fuzzed size and may end early or fail.
 *
 * Input: line 1 the query string, line 2 (optional) one more parameter name
 * to look up besides the ones the endpoints use, line 3 REQUEST_METHOD,
 * line 4 CONTENT_LENGTH, line 5 HTTP_ORIGIN, line 6 HTTP_SEC_GPC, line 7
 * how the body arrives: a number n (at most n bytes a read, else all at
 * once), "E" after it (a read error, EIO, at its end instead of end of
 * file), then the body ("~" or missing line: absent).  Every look-up is
 * made with output buffers of several sizes, each allocated to exactly that
 * size.
 */
#include <errno.h>
#include <stdio.h>

#include "base/io.h"
#include "fuzz.h"
#include "http/http.h"
#include "base/limits.h"
#include "base/nitems.h"

static const char *const names[] = { "site_key", "region", "lang", "sync_id", "" };
static const size_t sizes[] = {
	1, 2, 37, 64, SITE_KEY_MAX + 1, TOKEN_MAX + 1, LANG_TAG_MAX + 1, QUERY_MAX + 1
};


static void
lookup(const char *q, const char *name)
{
	/* no room at all: refused, nothing written */
	FUZZ_CHECK(http_query_param(q, name, NULL, 0) == HTTP_PARAM_BAD);
	for (size_t i = 0; i < nitems(sizes); i++) {
		char *out = malloc(sizes[i]);
		enum http_param rc;

		if (out == NULL)
			abort();
		memset(out, 'X', sizes[i]);
		rc = http_query_param(q, name, out, sizes[i]);
		FUZZ_CHECK(rc == HTTP_PARAM_FOUND || rc == HTTP_PARAM_ABSENT || rc == HTTP_PARAM_BAD);
		if (rc == HTTP_PARAM_FOUND) {
			/* written, terminated, no control byte (http.h) */
			size_t n = strnlen(out, sizes[i]);
			FUZZ_CHECK(n < sizes[i]);
			for (size_t k = 0; k < n; k++)
				FUZZ_CHECK((unsigned char)out[k] >= 0x20 && out[k] != 0x7f);
		}
		free(out);
	}
}

/* The request's variables and body, as io.h's source. */
struct req {
	const struct fuzz_lines *l;
	size_t off, chunk;
	int fail;
};

static const char *
req_param(void *arg, const char *name)
{
	static const char *const vars[] = {
		"QUERY_STRING", NULL, "REQUEST_METHOD", "CONTENT_LENGTH", "HTTP_ORIGIN",
		"HTTP_SEC_GPC",
	};
	const struct req *r = arg;

	for (size_t i = 0; i < nitems(vars); i++)
		if (vars[i] != NULL && strcmp(vars[i], name) == 0)
			return r->l->s[i];
	return NULL;
}

static ssize_t
req_read(void *arg, char *buf, size_t n)
{
	struct req *r = arg;
	size_t left = r->l->rest_len - r->off;

	if (left == 0) {
		if (r->fail) {
			errno = EIO;
			return -1;
		}
		return 0;
	}
	if (n > left)
		n = left;
	if (r->chunk > 0 && n > r->chunk)
		n = r->chunk;
	memcpy(buf, r->l->rest + r->off, n);
	r->off += n;
	return (ssize_t)n;
}

/* http.h's promises about a body read with the limit max. */
static void
body(struct req *rq, size_t max)
{
	const char *cl = rq->l->s[3], *msg = NULL;
	struct http_req r;
	enum http_err err;
	int status;

	rq->off = 0;
	http_req_init(&r);
	FUZZ_CHECK(r.query != NULL && strlen(r.query) <= QUERY_MAX);
	FUZZ_CHECK(r.origin == NULL || strlen(r.origin) <= HEADER_MAX);
	err = max == BODY_MAX ? http_read_body(&r) : http_read_body_max(&r, max);
	if (err == HTTP_OK) {
		/* exactly CONTENT_LENGTH bytes, as sent, and a NUL after them */
		FUZZ_CHECK(r.body != NULL && r.body[r.body_len] == '\0');
		FUZZ_CHECK(r.body_len <= max && r.body_len <= rq->l->rest_len);
		FUZZ_CHECK(memcmp(r.body, rq->l->rest, r.body_len) == 0);
		FUZZ_CHECK(r.body_len == 0 || (cl != NULL && strtoull(cl, NULL, 10) == r.body_len));
	} else {
		status = http_err_status(err, &msg);
		FUZZ_CHECK(msg != NULL && msg[0] != '\0');
		FUZZ_CHECK(status == 400 || status == 413 || status == 500);
		FUZZ_CHECK((err == HTTP_E_TOO_LARGE) == (status == 413));
		if (err == HTTP_E_SHORT)
			FUZZ_CHECK(r.body_len < strtoull(cl, NULL, 10));
	}
	http_finish(&r);
	FUZZ_CHECK(r.body == NULL);
	FUZZ_CHECK(r.consumed <= rq->l->rest_len);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_lines l;
	struct req rq;
	struct io_source src = { req_param, req_read, fuzz_no_write, &rq };
	const char *gpc;

	fuzz_split(data, size, 7, &l);
	if (l.s[0] != NULL) {
		for (size_t i = 0; i < nitems(names); i++)
			lookup(l.s[0], names[i]);
		if (l.s[1] != NULL)
			lookup(l.s[0], l.s[1]);
	}
	memset(&rq, 0, sizeof(rq));
	rq.l = &l;
	if (l.s[6] != NULL) {
		rq.chunk = strtoul(l.s[6], NULL, 10);
		rq.fail = strchr(l.s[6], 'E') != NULL;
	}
	io_attach(&src);
	gpc = http_env("HTTP_SEC_GPC");
	FUZZ_CHECK(http_gpc() == (gpc != NULL && strcmp(gpc, "1") == 0));
	FUZZ_CHECK(l.s[5] == NULL || (gpc == NULL) == (strlen(l.s[5]) > HEADER_MAX));
	body(&rq, BODY_MAX);
	body(&rq, 16);
	io_attach(NULL);
	fuzz_lines_free(&l);
	return 0;
}
