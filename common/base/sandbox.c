/* sandbox.c: least privilege for the CGI processes (Linux prctl, seccomp). */
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include "base/log.h"
#include "base/nitems.h"
#include "base/sandbox.h"

/* The architecture the filter names calls for; 0: none (a build given
 * -DSANDBOX_ARCH=0 behaves as on such an architecture, for the tests). */
#ifndef SANDBOX_ARCH
#if defined(__x86_64__)
#define SANDBOX_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define SANDBOX_ARCH AUDIT_ARCH_AARCH64
#else
#define SANDBOX_ARCH 0
#endif
#endif

/*
 * LeakSanitizer stops the process at exit with a clone()d thread that
 * ptrace()s it, which both the filter and a non-dumpable process refuse: the
 * sanitizer build keeps neither.  Everything else runs with both.
 */
#if SANDBOX_ARCH != 0 && !defined(__SANITIZE_ADDRESS__)
#define SANDBOX_FILTER 1

/* Where the low 32 bits of a 64-bit argument are (x86-64 and arm64 are
 * little-endian). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define ARG_LOW 4
#else
#define ARG_LOW 0
#endif

/*
 * What no request ever needs and an attacker who took over the process
 * would want first: running a program, making a process, reaching the
 * network, reading or writing another process, new namespaces or mounts,
 * kernel interfaces that slip past seccomp (io_uring) or widen the attack
 * surface (bpf, perf, keys).  A deny-list, not an allow-list: the endpoints
 * run inside glibc, SQLite, OpenSSL and libmaxminddb (and, in tests, under
 * valgrind), whose system calls change between versions, and a call missing
 * from an allow-list would turn a library upgrade into 500s.  Refused calls
 * fail with EPERM rather than killing the process, so a library that probes
 * one sees an ordinary error.  A system call of another ABI (i386's int
 * 0x80, x32) is refused whole: the filter could not name its calls.
 */
static const unsigned int denied[] = {
	__NR_execve, __NR_execveat,
#ifdef __NR_fork
	__NR_fork,
#endif
#ifdef __NR_vfork
	__NR_vfork,
#endif
	__NR_clone,
#ifdef __NR_clone3              /* Linux 5.3; older headers lack it */
	__NR_clone3,
#endif
	__NR_ptrace, __NR_process_vm_readv, __NR_process_vm_writev,
#ifndef SANDBOX_UNIX_SOCKETS
	__NR_socket,
#endif
	__NR_socketpair,
	__NR_unshare, __NR_setns, __NR_mount,
	__NR_bpf, __NR_perf_event_open,
#ifdef __NR_io_uring_setup      /* Linux 5.1 */
	__NR_io_uring_setup,
#endif
	__NR_keyctl,
};
#define DENIED_N (nitems(denied))
#define LEAF_MAX 3              /* calls compared one by one at a leaf */
/*
 * accept and accept4 are allowed on fd 0 only: a FastCGI process accepts
 * its connections on the listening socket its process manager left there
 * (serve.c), and a CGI process accepts nothing.  What else FastCGI needs
 * on the accepted socket (read, write, poll, shutdown, close, setsockopt
 * for TCP_NODELAY) is not in the list above; socket() is, so no other
 * socket to accept on can be made.  The kernel reads the descriptor as an
 * int: the low 32 bits of the argument are compared.
 */
#define ACCEPT_LEN 6
/*
 * The endpoints of the PostgreSQL store (make STORE=postgres) connect to
 * the database, through the host's own pgbouncer on a Unix socket: socket()
 * is allowed for AF_UNIX only, any other family fails as before.
 */
#ifdef SANDBOX_UNIX_SOCKETS
#define SOCKET_LEN 5
#else
#define SOCKET_LEN 0
#endif
#define FILTER_LEN (8 + ACCEPT_LEN + SOCKET_LEN + 3 * DENIED_N)
/* Jump offsets are narrowed to the 8 bits of sock_filter.jt: a filter of
 * at most 256 instructions keeps every forward jump within them. */
_Static_assert(FILTER_LEN <= 256, "seccomp jump offsets must fit in 8 bits");

/*
 * The cost of a filter is in installing it: the kernel runs it once for
 * every system call number to cache which are always allowed, so the
 * length of the path an allowed call takes is what a request pays.  The
 * numbers are therefore sorted and searched as a binary tree (JGE at each
 * node, JEQ at the leaves): at most six comparisons instead of eighteen,
 * and sandbox_enter() takes 0.055 ms here where the linear filter alone
 * took 0.074 (docs/reliability.md).  Debian's libseccomp builds a filter
 * like it but takes 0.09 to 0.16 ms doing so, over the 0.1 ms budget.
 */
static struct sock_filter filter[FILTER_LEN];

/* Instructions of the subtree for n sorted numbers. */
static size_t
tree_len(size_t n)
{
	if (n <= LEAF_MAX)
		return n + 1;           /* JEQ each, then RET ALLOW */
	return 1 + tree_len(n / 2) + tree_len(n - n / 2);
}

/*
 * Write the subtree for the sorted s[0..n) at filter[at]; a match jumps to
 * the RET EPERM at filter[deny].  Returns the index after it.
 */
static size_t
tree_emit(const unsigned int *s, size_t n, size_t at, size_t deny)
{
	size_t i, h;

	if (n <= LEAF_MAX) {
		for (i = 0; i < n; i++, at++)
			filter[at] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
			    s[i], (unsigned char)(deny - at - 1), 0);
		filter[at++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
		return at;
	}
	h = n / 2;
	filter[at] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, s[h],
	    (unsigned char)tree_len(h), 0);
	at = tree_emit(s, h, at + 1, deny);
	return tree_emit(s + h, n - h, at, deny);
}

/* Build the filter; returns its length. */
static unsigned short
filter_build(void)
{
	unsigned int s[DENIED_N], v;
	size_t i, j, at = 0, deny;

	for (i = 0; i < DENIED_N; i++) {        /* insertion sort, 18 numbers at most */
		v = denied[i];
		for (j = i; j > 0 && s[j - 1] > v; j--)
			s[j] = s[j - 1];
		s[j] = v;
	}
	filter[at++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
	    offsetof(struct seccomp_data, arch));
	filter[at++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SANDBOX_ARCH, 1, 0);
	filter[at++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM);
	filter[at++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
	    offsetof(struct seccomp_data, nr));
#ifdef __X32_SYSCALL_BIT
	filter[at++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, __X32_SYSCALL_BIT, 0, 1);
	filter[at++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM);
#endif
	/* accept: to the fd check; accept4: likewise; anything else: on to
	 * the tree, the number still loaded. */
	filter[at++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_accept, 1, 0);
	filter[at++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_accept4, 0, 4);
	filter[at++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
	    offsetof(struct seccomp_data, args[0]) + ARG_LOW);
	filter[at++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1);
	filter[at++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	filter[at++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM);
#ifdef SANDBOX_UNIX_SOCKETS
	/* socket: the family (an int) must be AF_UNIX; anything else: on. */
	filter[at++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_socket, 0, 4);
	filter[at++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
	    offsetof(struct seccomp_data, args[0]) + ARG_LOW);
	filter[at++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_UNIX, 0, 1);
	filter[at++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	filter[at++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM);
#endif
	deny = at + tree_len(DENIED_N);
	at = tree_emit(s, DENIED_N, at, deny);
	filter[at++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM);
	return (unsigned short)at;
}
#endif

int
sandbox_enter(void)
{
	int rc = 0;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
		log_error("PR_SET_NO_NEW_PRIVS: %s", strerror(errno));
		return -1;
	}
#ifndef __SANITIZE_ADDRESS__
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) {
		log_error("PR_SET_DUMPABLE: %s", strerror(errno));
		rc = -1;
	}
#endif
#ifdef SANDBOX_FILTER
	{
		struct sock_fprog prog;

		prog.len = filter_build();
		prog.filter = filter;

		if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) != 0) {
			log_error("PR_SET_SECCOMP: %s", strerror(errno));
			rc = -1;
		}
	}
#elif !defined(__SANITIZE_ADDRESS__)
	/* An architecture the filter cannot name the calls of: say so, once
	 * per process, rather than run without it silently. */
	{
		static int said;

		if (!said) {
			said = 1;
			log_error("no seccomp filter on this architecture: exec, fork and "
			    "sockets are not refused");
		}
	}
#endif
	return rc;
}
