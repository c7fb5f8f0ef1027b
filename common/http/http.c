/* http.c: CGI environment, CONTENT_LENGTH, query and body reading. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "http/http.h"
#include "base/io.h"
#include "base/limits.h"
#include "base/log.h"

const char *
http_env(const char *name)
{
	const char *v = io_env(name);

	if (v == NULL || strnlen(v, HEADER_MAX + 1) > HEADER_MAX)
		return NULL;
	return v;
}

int
http_gpc(void)
{
	const char *v = http_env("HTTP_SEC_GPC");

	return v != NULL && strcmp(v, "1") == 0;
}

void
http_req_init(struct http_req *r)
{
	const char *m = io_env("REQUEST_METHOD");

	memset(r, 0, sizeof(*r));
	r->method = HTTP_OTHER;
	if (m == NULL || strcmp(m, "GET") == 0)  /* run by hand: GET */
		r->method = HTTP_GET;
	else if (strcmp(m, "HEAD") == 0)
		r->method = HTTP_HEAD;
	else if (strcmp(m, "POST") == 0)
		r->method = HTTP_POST;
	else if (strcmp(m, "OPTIONS") == 0)
		r->method = HTTP_OPTIONS;
	r->query = io_env("QUERY_STRING");
	if (r->query != NULL && strnlen(r->query, QUERY_MAX + 1) > QUERY_MAX)
		r->query = NULL;  /* longer than any server passes on: ignored */
	if (r->query == NULL)
		r->query = "";
	r->origin = http_env("HTTP_ORIGIN");
}

/* CONTENT_LENGTH is 1*digit (RFC 3875 4.1.2); anything else is refused.
 * Values past LENGTH_CEILING saturate at LENGTH_CEILING + 1 (more than
 * any body we read or drain), so no digit string overflows. */
#define LENGTH_CEILING (64u * 1024 * 1024)
static int
parse_length(const char *s, size_t *out)
{
	size_t n = 0;

	if (*s == '\0')
		return -1;
	for (; *s != '\0'; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		n = n * 10 + (size_t)(*s - '0');
		if (n > LENGTH_CEILING)  /* keep going only to reject trailing junk */
			n = LENGTH_CEILING + 1;
	}
	*out = n;
	return 0;
}

enum http_err
http_read_body(struct http_req *r)
{
	return http_read_body_max(r, BODY_MAX);
}

enum http_err
http_read_body_max(struct http_req *r, size_t max)
{
	const char *cl = io_env("CONTENT_LENGTH");
	size_t want = 0, got = 0;

	if (cl != NULL && *cl != '\0' && parse_length(cl, &want) != 0)
		return HTTP_E_LENGTH;
	if (want > max)
		return HTTP_E_TOO_LARGE;
	if ((r->body = malloc(want + 1)) == NULL) {
		log_error("out of memory");
		return HTTP_E_SYS;
	}
	while (got < want) {
		ssize_t n = io_read(r->body + got, want - got);
		if (n < 0) {
			log_error("reading the request body: %s", strerror(errno));
			return HTTP_E_SYS;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	r->consumed = got;
	r->body[got] = '\0';
	r->body_len = got;
	return got == want ? HTTP_OK : HTTP_E_SHORT;
}

void
http_finish(struct http_req *r)
{
	const char *cl = io_env("CONTENT_LENGTH");
	size_t want = 0;
	char buf[4096];

	free(r->body);
	r->body = NULL;
	if (cl == NULL || parse_length(cl, &want) != 0)
		return;
	if (want > DRAIN_MAX)
		want = DRAIN_MAX;
	while (r->consumed < want) {
		size_t n = want - r->consumed;
		ssize_t got = io_read(buf, n < sizeof(buf) ? n : sizeof(buf));
		if (got <= 0)
			break;
		r->consumed += (size_t)got;
	}
}

/* Decode s[0..len) into out; -1 on bad escape, control byte or overflow. */
static int
decode(const char *s, size_t len, char *out, size_t outsz)
{
	size_t o = 0;

	for (size_t i = 0; i < len; i++) {
		int c = (unsigned char)s[i];
		if (c == '+') {
			c = ' ';
		} else if (c == '%') {
			int hi, lo;
			if (i + 2 >= len)
				return -1;
			hi = hash_hex_digit(s[i + 1]);
			lo = hash_hex_digit(s[i + 2]);
			if (hi < 0 || lo < 0)
				return -1;
			c = hi * 16 + lo;
			i += 2;
		}
		if (c < 0x20 || c == 0x7f)
			return -1;
		if (o + 1 >= outsz)
			return -1;
		out[o++] = (char)c;
	}
	out[o] = '\0';
	return 0;
}

enum http_param
http_query_param(const char *query, const char *name, char *out, size_t outsz)
{
	size_t nlen = strlen(name);
	const char *p = query;

	if (outsz == 0)
		return HTTP_PARAM_BAD;
	while (*p != '\0') {
		const char *amp = strchr(p, '&');
		size_t plen = amp ? (size_t)(amp - p) : strlen(p);
		const char *eq = memchr(p, '=', plen);
		size_t klen = eq ? (size_t)(eq - p) : plen;

		if (klen == nlen && memcmp(p, name, nlen) == 0) {
			if (eq == NULL) {
				out[0] = '\0';
				return HTTP_PARAM_FOUND;
			}
			return decode(eq + 1, plen - klen - 1, out, outsz) == 0 ? HTTP_PARAM_FOUND
			    : HTTP_PARAM_BAD;
		}
		p += plen;
		if (*p == '&')
			p++;
	}
	return HTTP_PARAM_ABSENT;
}
