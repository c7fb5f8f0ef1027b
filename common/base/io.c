/* io.c: the current request's streams: CGI's environment, stdin, stdout, or a FastCGI request's. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/io.h"
#include "base/settings_file.h"

static const struct io_source *cur;   /* the FastCGI request being served, or NULL */
static int persistent;

void
io_attach(const struct io_source *src)
{
	cur = src;
	if (src != NULL)
		persistent = 1;
}

int
io_persistent(void)
{
	return persistent;
}

const char *
io_env(const char *name)
{
	const char *v;
	int setting = strncmp(name, "CONSENT_", 8) == 0;

	if (cur != NULL && (v = cur->param(cur->arg, name)) != NULL && (*v != '\0' || !setting))
		return v;
	/* Only the service's own settings fall back to the process
	 * environment: a CGI variable (HTTP_*, QUERY_STRING ...) the process
	 * manager happened to start us with is nobody's request.  Then to the
	 * settings file, read once per process (settings_file.h); an empty
	 * setting is one not given. */
	if (cur != NULL && !setting)
		return NULL;
	if ((v = getenv(name)) != NULL && (*v != '\0' || !setting))
		return v;
	return setting ? settings_get(name) : NULL;
}

ssize_t
io_read(char *buf, size_t n)
{
	ssize_t got;

	if (cur != NULL)
		return cur->read(cur->arg, buf, n);
	do
		got = read(STDIN_FILENO, buf, n);
	while (got < 0 && errno == EINTR);
	return got;
}

int
io_write(const char *buf, size_t n)
{
	if (cur != NULL)
		return cur->write(cur->arg, buf, n);
	while (n > 0) {
		ssize_t w = write(STDOUT_FILENO, buf, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		buf += w;
		n -= (size_t)w;
	}
	return 0;
}
