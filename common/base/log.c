/* log.c: one line per problem on stderr. */
#include <stdarg.h>
#include <stdio.h>

#include "base/log.h"

static const char *log_prog = "consent";

void
log_init(const char *prog)
{
	log_prog = prog;
}

/*
 * Write "prog: message\n" in one fputs so that lines of concurrent processes
 * do not interleave in the server's log.  Control characters in the message
 * are replaced by '?', so request text cannot forge log lines.
 */
void
log_error(const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	int n;

	n = snprintf(line, sizeof(line), "%s: ", log_prog);
	if (n < 0 || (size_t)n >= sizeof(line))
		n = 0;
	va_start(ap, fmt);
	vsnprintf(line + n, sizeof(line) - (size_t)n - 1, fmt, ap);
	va_end(ap);
	char *p = line;
	for (; *p != '\0'; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	p[0] = '\n';
	p[1] = '\0';
	fputs(line, stderr);
}
