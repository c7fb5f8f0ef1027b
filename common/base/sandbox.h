/* sandbox.h: giving up what a CGI or FastCGI process never needs. */
#ifndef CONSENT_SANDBOX_H
#define CONSENT_SANDBOX_H

/*
 * Called first for every endpoint (serve.c): PR_SET_NO_NEW_PRIVS, so nothing
 * this process could ever exec gains privileges (setuid bits, file
 * capabilities); core dumps off (PR_SET_DUMPABLE 0), so a crash cannot
 * leave request data, such as a raw anon_id, in a core file; and, on x86-64
 * and arm64, a seccomp filter under which exec, fork/clone, sockets,
 * ptrace, namespaces, mount, bpf, perf, io_uring and keyctl fail with EPERM,
 * and accept/accept4 on any descriptor but 0 (a FastCGI process accepts on
 * the listening socket there) do too (sandbox.c has the list and why).
 * A FastCGI process enters it after setting up the library, before its
 * first accept (serve.c).  On any other architecture there is no
 * filter, and the first call says so on stderr.  Costs about 0.06 ms of CPU per
 * process (make bench).  The sanitizer build keeps core dumps and skips the
 * filter (LeakSanitizer needs both).  Returns 0, or -1 (reported on stderr;
 * the request goes on).
 */
int sandbox_enter(void);

#endif
