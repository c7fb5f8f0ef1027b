/* unit.h: the smallest test harness: one line per check, counted by tests/run.sh. */
#ifndef CONSENT_UNIT_H
#define CONSENT_UNIT_H

#include <stdio.h>
#include <string.h>

static int unit_failed;

/* Print "ok - what" or "not ok - what"; tests/run.sh counts these lines. */
#define CHECK(cond, what) do { \
	if (cond) { printf("ok - %s\n", (what)); } \
	else { printf("not ok - %s (%s:%d)\n", (what), __FILE__, __LINE__); unit_failed = 1; } \
} while (0)

/* Compare two strings, either may be NULL. */
#define CHECK_STR(got, want, what) do { \
	const char *g_ = (got), *w_ = (want); \
	int same_ = (g_ == NULL || w_ == NULL) ? g_ == w_ : strcmp(g_, w_) == 0; \
	if (same_) { printf("ok - %s\n", (what)); } \
	else { printf("not ok - %s: got \"%s\", want \"%s\" (%s:%d)\n", (what), \
	    g_ ? g_ : "(null)", w_ ? w_ : "(null)", __FILE__, __LINE__); unit_failed = 1; } \
} while (0)

#define UNIT_DONE() return unit_failed ? 1 : 0

#endif
