/* test_sandbox.c: sandbox_enter() really drops what it promises (Linux /proc). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/nitems.h"
#include "base/sandbox.h"
#include "unit.h"

#if (defined(__x86_64__) || defined(__aarch64__)) && !defined(__SANITIZE_ADDRESS__)
/*
 * A system call with arguments that make it fail harmlessly if it runs, so
 * that EPERM can only come from the filter.  want_eperm: refused by the
 * filter (sandbox.c's list) or one of their neighbours by number, which the
 * binary search of the filter must let through.
 */
struct call {
	const char *name;
	long nr;
	long a[6];
	int want_eperm;
};

static const struct call calls[] = {
	{ "execveat", SYS_execveat, { -1, 0, 0, 0, 0, 0 }, 1 },
	{ "clone3", SYS_clone3, { 0, 0, 0, 0, 0, 0 }, 1 },
	{ "ptrace", SYS_ptrace, { -1, 0, 0, 0, 0, 0 }, 1 },
	{ "process_vm_readv", SYS_process_vm_readv, { 0, 0, 0, 0, 0, 0 }, 1 },
	{ "process_vm_writev", SYS_process_vm_writev, { 0, 0, 0, 0, 0, 0 }, 1 },
	{ "socketpair", SYS_socketpair, { -1, 0, 0, 0, 0, 0 }, 1 },
	{ "unshare", SYS_unshare, { 0, 0, 0, 0, 0, 0 }, 1 },
	{ "setns", SYS_setns, { -1, 0, 0, 0, 0, 0 }, 1 },
	{ "mount", SYS_mount, { 0, 0, 0, 0, 0, 0 }, 1 },
	{ "bpf", SYS_bpf, { -1, 0, 0, 0, 0, 0 }, 1 },
	{ "perf_event_open", SYS_perf_event_open, { 0, 0, -1, -1, 0, 0 }, 1 },
	{ "io_uring_setup", SYS_io_uring_setup, { 0, 0, 0, 0, 0, 0 }, 1 },
	{ "keyctl", SYS_keyctl, { -1, 0, 0, 0, 0, 0 }, 1 },
	{ "connect", SYS_connect, { -1, 0, 0, 0, 0, 0 }, 0 },
	/* accept only on fd 0, the FastCGI listening socket (non-blocking:
	 * EAGAIN should fd 0 be one, ENOTSOCK or EBADF otherwise). */
	{ "accept on fd 3", SYS_accept, { 3, 0, 0, 0, 0, 0 }, 1 },
	{ "accept4 on fd -1", SYS_accept4, { -1, 0, 0, SOCK_NONBLOCK, 0, 0 }, 1 },
	{ "accept4 on fd 1", SYS_accept4, { 1, 0, 0, SOCK_NONBLOCK, 0, 0 }, 1 },
	{ "accept4 on fd 0", SYS_accept4, { 0, 0, 0, SOCK_NONBLOCK, 0, 0 }, 0 },
	{ "getsockopt", SYS_getsockopt, { -1, 0, 0, 0, 0, 0 }, 0 },
	{ "wait4", SYS_wait4, { -1, 0, 1, 0, 0, 0 }, 0 },
	{ "getuid", SYS_getuid, { 0, 0, 0, 0, 0, 0 }, 0 },
	{ "recvmmsg", SYS_recvmmsg, { -1, 0, 0, 0, 0, 0 }, 0 },
	{ "sendmmsg", SYS_sendmmsg, { -1, 0, 0, 0, 0, 0 }, 0 },
	{ "getcpu", SYS_getcpu, { 0, 0, 0, 0, 0, 0 }, 0 },
	{ "io_uring_enter", SYS_io_uring_enter, { -1, 0, 0, 0, 0, 0 }, 0 },
	{ "pidfd_open", SYS_pidfd_open, { -1, 0, 0, 0, 0, 0 }, 0 },
	{ "close_range", SYS_close_range, { 10, 5, 0, 0, 0, 0 }, 0 },
	{ "fdatasync", SYS_fdatasync, { -1, 0, 0, 0, 0, 0 }, 0 },
	{ "pwrite64", SYS_pwrite64, { -1, 0, 0, 0, 0, 0 }, 0 },
	{ "ftruncate", SYS_ftruncate, { -1, 0, 0, 0, 0, 0 }, 0 },
	{ "fchmod", SYS_fchmod, { -1, 0, 0, 0, 0, 0 }, 0 },
	{ "fchown", SYS_fchown, { -1, 0, 0, 0, 0, 0 }, 0 },
	{ "getrandom", SYS_getrandom, { 0, 0, 0, 0, 0, 0 }, 0 },
};
#endif

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
#if (defined(__x86_64__) || defined(__aarch64__)) && !defined(__SANITIZE_ADDRESS__)
	{
		const char *vg = getenv("VALGRIND");
		int under_valgrind = vg != NULL && strcmp(vg, "1") == 0;
		char prog[] = "/nonexistent/true";      /* ENOENT if it ran */
		char *argv[] = { prog, NULL }, *envp[] = { NULL };
		pid_t pid;
		int fd;
		FILE *f;

		CHECK(status_field("Seccomp") == 2, "after: a seccomp filter is installed");
		if (under_valgrind) {
			/* valgrind ends the process when an execve fails. */
			printf("skip - execve under valgrind (it cannot survive a refused execve)\n");
		} else {
			errno = 0;
			CHECK(execve(argv[0], argv, envp) == -1 && errno == EPERM,
			    "execve fails with EPERM");
		}
		errno = 0;
		fflush(stdout);                         /* a child must not print it twice */
		pid = fork();
		if (pid == 0)
			_exit(0);
		if (pid > 0)
			waitpid(pid, NULL, 0);
		CHECK(pid == -1 && errno == EPERM, "fork fails with EPERM");
		errno = 0;
		fd = socket(AF_INET, SOCK_STREAM, 0);
		CHECK(fd == -1 && errno == EPERM, "socket fails with EPERM");
#ifdef SANDBOX_UNIX_SOCKETS
		/* make STORE=postgres: the endpoints reach their local pgbouncer. */
		fd = socket(AF_UNIX, SOCK_STREAM, 0);
		CHECK(fd >= 0, "a unix socket is allowed (the PostgreSQL build)");
		if (fd >= 0)
			close(fd);
		errno = 0;
		fd = socket(AF_INET6, SOCK_STREAM, 0);
		CHECK(fd == -1 && errno == EPERM, "an IPv6 socket fails with EPERM");
#else
		errno = 0;
		fd = socket(AF_UNIX, SOCK_DGRAM, 0);
		CHECK(fd == -1 && errno == EPERM, "a unix socket fails with EPERM");
#endif
		errno = 0;
		CHECK(prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) == 0 || errno != EPERM,
		    "prctl still works (the filter is a deny-list)");
		prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
#ifdef __X32_SYSCALL_BIT
		if (under_valgrind) {
			/* valgrind answers a system call it does not know itself. */
			printf("skip - x32 system call under valgrind (valgrind refuses it first)\n");
		} else {
			errno = 0;
			CHECK(syscall(__X32_SYSCALL_BIT | SYS_getpid) == -1 && errno == EPERM,
			    "an x32 system call fails with EPERM");
		}
#endif
		f = tmpfile();
		CHECK(f != NULL && fputs("kept", f) >= 0 && fflush(f) == 0,
		    "files still open and write");
		if (f != NULL)
			fclose(f);
		CHECK(getpid() > 0 && status_field("Seccomp") == 2,
		    "ordinary system calls still answer");
		if (under_valgrind)     /* it answers some of these calls itself */
			printf("skip - the table of refused and neighbouring calls under valgrind\n");
		for (size_t i = 0; !under_valgrind && i < nitems(calls); i++) {
			const struct call *c = &calls[i];
			char what[96];
			long r;

			snprintf(what, sizeof(what), "%s %s", c->name,
			    c->want_eperm ? "fails with EPERM" : "is let through");
			errno = 0;
			r = syscall(c->nr, c->a[0], c->a[1], c->a[2], c->a[3], c->a[4], c->a[5]);
			if (c->want_eperm)
				CHECK(r == -1 && errno == EPERM, what);
			else
				CHECK(r != -1 || errno != EPERM, what);
		}
	}
#else
	printf("skip - no seccomp filter in this build (sanitizers, or not x86-64/arm64)\n");
#endif
	UNIT_DONE();
}
