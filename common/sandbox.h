/* sandbox.h: giving up what a CGI process never needs. */
#ifndef CONSENT_SANDBOX_H
#define CONSENT_SANDBOX_H

/*
 * Called first in every endpoint's main(): PR_SET_NO_NEW_PRIVS, so nothing
 * this process could ever exec gains privileges (setuid bits, file
 * capabilities), and core dumps off (PR_SET_DUMPABLE 0), so a crash cannot
 * leave request data, such as a raw anon_id, in a core file.  Costs two
 * system calls.  Returns 0, or -1 (reported on stderr; the request goes on).
 */
int sandbox_enter(void);

#endif
