/* test_sandbox.c: sandbox_enter() really drops what it promises (Linux /proc). */
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>

#include "sandbox.h"
#include "unit.h"

/* The value of a "Name:\tvalue" line of /proc/self/status, or -1. */
static int
status_field(const char *name)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	int v = -1;
	size_t n = strlen(name);

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, name, n) == 0 && line[n] == ':')
			sscanf(line + n + 1, "%d", &v);
	fclose(f);
	return v;
}

int
main(void)
{
	CHECK(sandbox_enter() == 0, "sandbox_enter succeeds");
	CHECK(status_field("NoNewPrivs") == 1, "after: no new privileges (PR_SET_NO_NEW_PRIVS)");
#ifndef __SANITIZE_ADDRESS__
	CHECK(prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) == 0, "after: no core dumps (PR_SET_DUMPABLE 0)");
#else
	printf("skip - core dumps stay possible in the sanitizer build (LeakSanitizer needs them)\n");
#endif
	UNIT_DONE();
}
