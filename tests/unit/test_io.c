/* test_io.c: io.c, the request's streams: params before the environment, and a source's body and answer. */
#include <stdlib.h>
#include <string.h>

#include "http/http.h"
#include "base/io.h"
#include "unit.h"

/* A FastCGI request as io.c sees it: its params, its body, its answer. */
struct fake {
	const char *const *params;   /* "NAME=value", NULL-terminated */
	const char *body;
	size_t at;
	char out[256];
	size_t outlen;
};

static const char *
fake_param(void *arg, const char *name)
{
	const struct fake *f = arg;
	size_t n = strlen(name);

	for (size_t i = 0; f->params[i] != NULL; i++)
		if (strncmp(f->params[i], name, n) == 0 && f->params[i][n] == '=')
			return f->params[i] + n + 1;
	return NULL;
}

static ssize_t
fake_read(void *arg, char *buf, size_t n)
{
	struct fake *f = arg;
	size_t left = strlen(f->body) - f->at;

	if (n > left)
		n = left;
	if (n > 3)
		n = 3;          /* a stream hands its body over in pieces */
	memcpy(buf, f->body + f->at, n);
	f->at += n;
	return (ssize_t)n;
}

static int
fake_write(void *arg, const char *buf, size_t n)
{
	struct fake *f = arg;

	if (f->outlen + n > sizeof(f->out))
		return -1;
	memcpy(f->out + f->outlen, buf, n);
	f->outlen += n;
	return 0;
}

int
main(void)
{
	static const char *const params[] = {
		"REQUEST_METHOD=POST", "CONTENT_LENGTH=11", "CONSENT_DB=/request.db",
		"QUERY_STRING=a=1", NULL
	};
	struct fake f = { params, "{\"a\":true}x", 0, "", 0 };
	struct io_source src = { fake_param, fake_read, fake_write, &f };
	struct http_req req;

	setenv("CONSENT_DB", "/process.db", 1);
	setenv("CONSENT_MAU_CAP", "7", 1);
	unsetenv("QUERY_STRING");
	unsetenv("HTTP_ORIGIN");
	CHECK(!io_persistent(), "a CGI process is not persistent");
	CHECK_STR(io_env("CONSENT_DB"), "/process.db", "CGI: the environment");
	CHECK(io_env("QUERY_STRING") == NULL, "CGI: an unset variable is NULL");

	io_attach(&src);
	CHECK(io_persistent(), "a FastCGI source makes the process persistent");
	CHECK_STR(io_env("CONSENT_DB"), "/request.db", "a request's param wins over the environment");
	CHECK_STR(io_env("CONSENT_MAU_CAP"), "7", "a setting the request lacks comes from the environment");
	CHECK(io_env("HTTP_ORIGIN") == NULL, "absent from both: NULL");
	http_req_init(&req);
	CHECK(req.method == HTTP_POST, "http.c reads the request's REQUEST_METHOD");
	CHECK_STR(req.query, "a=1", "and its QUERY_STRING");
	CHECK(http_read_body(&req) == HTTP_OK && req.body_len == 11 &&
	    strcmp(req.body, "{\"a\":true}x") == 0, "the body is read from the source, in pieces, to CONTENT_LENGTH");
	http_finish(&req);
	CHECK(io_write("Status: 200 OK\r\n", 16) == 0 && f.outlen == 16 &&
	    memcmp(f.out, "Status: 200 OK\r\n", 16) == 0, "the answer goes to the source");

	io_attach(NULL);
	CHECK_STR(io_env("CONSENT_DB"), "/process.db", "detached: the environment again");
	CHECK(io_persistent(), "and the process stays persistent");
	UNIT_DONE();
}
