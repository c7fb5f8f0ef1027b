/* api_now.c: the dashboard's clock and faults, which only a test build lets the tests move and inject. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "admin/api.h"
#include "base/io.h"

/*
 * Compiled into the library without CONSENT_TEST_CLOCK: time(NULL), and
 * nothing a request or the environment can change.  The tests' program
 * (tests/admin-clock, never installed) compiles this file again with it.
 */
time_t
api_now(void)
{
#ifdef CONSENT_TEST_CLOCK
	const char *s = io_env("CONSENT_TEST_NOW");
	char *end;
	long long v;

	if (s != NULL && *s >= '0' && *s <= '9') {
		errno = 0;
		v = strtoll(s, &end, 10);
		if (errno == 0 && *end == '\0')
			return (time_t)v;
	}
#endif
	return time(NULL);
}

int
api_test_fault(const char *what)
{
#ifdef CONSENT_TEST_CLOCK
	const char *s = io_env("CONSENT_TEST_FAULT");

	return s != NULL && strcmp(s, what) == 0;
#else
	(void)what;
	return 0;
#endif
}
