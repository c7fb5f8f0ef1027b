/* sandbox.c: least privilege for the CGI processes (Linux prctl). */
#include <errno.h>
#include <string.h>
#include <sys/prctl.h>

#include "log.h"
#include "sandbox.h"

int
sandbox_enter(void)
{
	int rc = 0;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
		log_error("PR_SET_NO_NEW_PRIVS: %s", strerror(errno));
		rc = -1;
	}
#ifndef __SANITIZE_ADDRESS__
	/* LeakSanitizer inspects the process through /proc and ptrace, which a
	 * non-dumpable process refuses: only the sanitizer build keeps it. */
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) {
		log_error("PR_SET_DUMPABLE: %s", strerror(errno));
		rc = -1;
	}
#endif
	return rc;
}
