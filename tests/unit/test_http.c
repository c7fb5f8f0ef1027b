/* test_http.c: query-string decoding and CONTENT_LENGTH reading (RFC 3875, HTML form encoding). */
#include <stdlib.h>
#include <sys/types.h>
#include <string.h>
#include <unistd.h>

#include "http/http.h"
#include "base/limits.h"
#include "unit.h"

static enum http_param
q(const char *query, const char *name, char *out, size_t outsz)
{
	return http_query_param(query, name, out, outsz);
}

/* Feed body to http_read_body through a pipe with CONTENT_LENGTH cl. */
static enum http_err
read_body(const char *cl, const char *body, struct http_req *r)
{
	int fd[2], saved = dup(STDIN_FILENO);
	enum http_err e;

	if (pipe(fd) != 0)
		return HTTP_E_SYS;
	if (write(fd[1], body, strlen(body)) < 0)
		return HTTP_E_SYS;
	close(fd[1]);
	dup2(fd[0], STDIN_FILENO);
	close(fd[0]);
	if (cl)
		setenv("CONTENT_LENGTH", cl, 1);
	else
		unsetenv("CONTENT_LENGTH");
	memset(r, 0, sizeof(*r));
	e = http_read_body(r);
	dup2(saved, STDIN_FILENO);
	close(saved);
	return e;
}

/* http_finish() reads what is left of CONTENT_LENGTH: true when the pipe
 * holding body is empty afterwards, apart from extra bytes past it. */
static int
drains(const char *cl, const char *body, size_t preread, size_t *left)
{
	int fd[2], saved = dup(STDIN_FILENO);
	struct http_req r;
	char buf[256];
	ssize_t n;

	if (pipe(fd) != 0 || write(fd[1], body, strlen(body)) < 0)
		return 0;
	close(fd[1]);
	dup2(fd[0], STDIN_FILENO);
	close(fd[0]);
	setenv("CONTENT_LENGTH", cl, 1);
	memset(&r, 0, sizeof(r));
	if (preread > 0 && read(STDIN_FILENO, buf, preread) == (ssize_t)preread)
		r.consumed = preread;
	http_finish(&r);
	n = read(STDIN_FILENO, buf, sizeof(buf));
	*left = n > 0 ? (size_t)n : 0;
	dup2(saved, STDIN_FILENO);
	close(saved);
	return 1;
}

int
main(void)
{
	char out[16];
	struct http_req r;

	CHECK(q("site_key=abc", "site_key", out, sizeof(out)) == HTTP_PARAM_FOUND && strcmp(out, "abc") == HTTP_PARAM_ABSENT, "plain value");
	CHECK(q("a=1&site_key=x%2Dy&b=2", "site_key", out, sizeof(out)) == HTTP_PARAM_FOUND && strcmp(out, "x-y") == HTTP_PARAM_ABSENT, "percent-decoded, among others");
	CHECK(q("lang=de+AT", "lang", out, sizeof(out)) == HTTP_PARAM_FOUND && strcmp(out, "de AT") == HTTP_PARAM_ABSENT, "plus is a space");
	CHECK(q("site_key=a&site_key=b", "site_key", out, sizeof(out)) == HTTP_PARAM_FOUND && strcmp(out, "a") == HTTP_PARAM_ABSENT, "first occurrence wins");
	CHECK(q("site_keyx=a", "site_key", out, sizeof(out)) == HTTP_PARAM_ABSENT, "longer name is not a match");
	CHECK(q("xsite_key=a", "site_key", out, sizeof(out)) == HTTP_PARAM_ABSENT, "name suffix is not a match");
	CHECK(q("", "site_key", out, sizeof(out)) == HTTP_PARAM_ABSENT, "empty query");
	CHECK(q("&&&", "site_key", out, sizeof(out)) == HTTP_PARAM_ABSENT, "only separators");
	CHECK(q("site_key", "site_key", out, sizeof(out)) == HTTP_PARAM_FOUND && out[0] == '\0', "name without = is empty");
	CHECK(q("site_key=", "site_key", out, sizeof(out)) == HTTP_PARAM_FOUND && out[0] == '\0', "empty value");
	CHECK(q("site_key=%41%62", "site_key", out, sizeof(out)) == HTTP_PARAM_FOUND && strcmp(out, "Ab") == HTTP_PARAM_ABSENT, "hex either case");
	CHECK(q("site_key=%", "site_key", out, sizeof(out)) == HTTP_PARAM_BAD, "lone percent");
	CHECK(q("site_key=%4", "site_key", out, sizeof(out)) == HTTP_PARAM_BAD, "truncated escape");
	CHECK(q("site_key=%zz", "site_key", out, sizeof(out)) == HTTP_PARAM_BAD, "non-hex escape");
	CHECK(q("site_key=a%00b", "site_key", out, sizeof(out)) == HTTP_PARAM_BAD, "escaped NUL refused");
	CHECK(q("site_key=a%0Ab", "site_key", out, sizeof(out)) == HTTP_PARAM_BAD, "escaped LF refused");
	CHECK(q("site_key=a%7Fb", "site_key", out, sizeof(out)) == HTTP_PARAM_BAD, "escaped DEL refused");
	CHECK(q("site_key=123456789012345", "site_key", out, sizeof(out)) == HTTP_PARAM_FOUND, "15 bytes fit in 16");
	CHECK(q("site_key=1234567890123456", "site_key", out, sizeof(out)) == HTTP_PARAM_BAD, "16 bytes do not fit in 16");
	CHECK(q("site_key=%31%32%33%34%35%36%37%38%39%30%31%32%33%34%35%36", "site_key", out, sizeof(out)) == HTTP_PARAM_BAD, "decoded length counts");
	CHECK(q("site_key=abc", "site_key", out, 0) == HTTP_PARAM_BAD, "zero-sized buffer");
	CHECK(q("x=%&site_key=ok", "site_key", out, sizeof(out)) == HTTP_PARAM_FOUND && strcmp(out, "ok") == HTTP_PARAM_ABSENT, "a broken other parameter does not matter");

	CHECK(read_body("5", "hello", &r) == HTTP_OK && r.body_len == 5 && strcmp(r.body, "hello") == 0, "body of CONTENT_LENGTH bytes");
	free(r.body);
	CHECK(read_body("3", "hello", &r) == HTTP_OK && r.body_len == 3 && strcmp(r.body, "hel") == 0, "no more than CONTENT_LENGTH is read");
	free(r.body);
	CHECK(read_body("9", "hello", &r) == HTTP_E_SHORT, "fewer bytes than announced");
	free(r.body);
	CHECK(read_body(NULL, "hello", &r) == HTTP_OK && r.body_len == 0, "no CONTENT_LENGTH: empty body");
	free(r.body);
	CHECK(read_body("", "hello", &r) == HTTP_OK && r.body_len == 0, "empty CONTENT_LENGTH: empty body");
	free(r.body);
	CHECK(read_body("-1", "x", &r) == HTTP_E_LENGTH, "negative length refused");
	CHECK(read_body(" 5", "hello", &r) == HTTP_E_LENGTH, "leading space refused");
	CHECK(read_body("5x", "hello", &r) == HTTP_E_LENGTH, "trailing junk refused");
	CHECK(read_body("65537", "x", &r) == HTTP_E_TOO_LARGE, "over BODY_MAX: too large, unread");
	CHECK(read_body("99999999999999999999999999", "x", &r) == HTTP_E_TOO_LARGE, "overflowing length: too large");
	CHECK(read_body("999999999999999999999x", "x", &r) == HTTP_E_LENGTH, "overflowing length with junk: malformed");
	{
		size_t left = 99;
		CHECK(drains("11", "hello world", 0, &left) && left == 0, "finish drains an unread body");
		CHECK(drains("11", "hello world", 5, &left) && left == 0, "finish drains the rest of a partly read body");
		CHECK(drains("5", "hello world", 0, &left) && left == 6, "finish reads no more than CONTENT_LENGTH");
		CHECK(drains("x", "hello", 0, &left) && left == 5, "finish reads nothing for a malformed CONTENT_LENGTH");
	}
	UNIT_DONE();
}
