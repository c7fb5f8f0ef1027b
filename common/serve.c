/* serve.c: the endpoints' one loop, the only file that knows FastCGI (libfcgi's fcgiapp). */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fcgiapp.h>

#include "geo.h"
#include "io.h"
#include "limits.h"
#include "log.h"
#include "sandbox.h"
#include "serve.h"
#include "store.h"

static volatile sig_atomic_t stopping;

/*
 * SIGTERM, SIGUSR1: finish the request in hand, accept no other.  The
 * handler runs only while the loop waits in FCGX_Accept_r() (the signals
 * are blocked everywhere else), and it installs with SA_RESTART, so that
 * libfcgi's reads of a connection just accepted are never cut short.  To
 * end the wait all the same, wherever it is (before accept() was entered,
 * or in it: a restarted accept looks descriptor 0 up again), descriptor 0
 * stops being the listening socket: accept() then fails at once (ENOTSOCK,
 * EBADF) and libfcgi, told of the shutdown, returns.  The socket itself
 * stays open in the process manager.  Only async-signal-safe calls.
 */
static void
on_stop(int sig)
{
	int saved = errno;

	(void)sig;
	stopping = 1;
	FCGX_ShutdownPending();
	if (dup2(STDERR_FILENO, 0) < 0)
		close(0);
	errno = saved;
}

/* io_source over one accepted FastCGI request (arg). */
static const char *
fcgi_param(void *arg, const char *name)
{
	return FCGX_GetParam(name, ((FCGX_Request *)arg)->envp);
}

static ssize_t
fcgi_read(void *arg, char *buf, size_t n)
{
	FCGX_Stream *in = ((FCGX_Request *)arg)->in;
	int got = FCGX_GetStr(buf, n > INT_MAX ? INT_MAX : (int)n, in);

	if (got <= 0 && FCGX_GetError(in) != 0) {
		errno = EIO;
		return -1;
	}
	return got;
}

static int
fcgi_write(void *arg, const char *buf, size_t n)
{
	FCGX_Stream *out = ((FCGX_Request *)arg)->out;

	while (n > 0) {
		int chunk = n > INT_MAX ? INT_MAX : (int)n;
		if (FCGX_PutStr(buf, chunk, out) != chunk)
			return -1;
		buf += chunk;
		n -= (size_t)chunk;
	}
	return 0;
}

/* Whether fd 0 is a listening socket (what FCGX_IsCGI() tests), asked
 * without setting up the FastCGI library, so that a CGI process runs
 * exactly as it did before FastCGI mode existed. */
static int
listening(void)
{
	int on = 0;
	socklen_t len = sizeof(on);

	return getsockopt(0, SOL_SOCKET, SO_ACCEPTCONN, &on, &len) == 0 && on;
}

/* CONSENT_FCGI_MAX_REQUESTS from the process environment (the process
 * manager's; a request cannot change it): 1 to FCGI_MAX_REQUESTS_MAX, else
 * the default with one line on stderr. */
static long
max_requests(void)
{
	const char *s = getenv("CONSENT_FCGI_MAX_REQUESTS");
	char *end;
	long long v;

	if (s == NULL || *s == '\0')
		return FCGI_MAX_REQUESTS_DEFAULT;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || *s < '0' || *s > '9' ||
	    v < 1 || v > FCGI_MAX_REQUESTS_MAX) {
		log_error("CONSENT_FCGI_MAX_REQUESTS is not an integer from 1 to %d; using %d",
		    FCGI_MAX_REQUESTS_MAX, FCGI_MAX_REQUESTS_DEFAULT);
		return FCGI_MAX_REQUESTS_DEFAULT;
	}
	return (long)v;
}

/* The FastCGI loop: 0 after the last request or a stop, 1 when it could
 * not start or accepting failed. */
static int
serve_fastcgi(void (*handle)(void))
{
	FCGX_Request req;
	struct io_source src = { fcgi_param, fcgi_read, fcgi_write, &req };
	struct sigaction sa;
	sigset_t stops, waiting;
	long max = max_requests(), served = 0;
	int rc, status = 0;

	if (FCGX_Init() != 0 || FCGX_InitRequest(&req, 0, FCGI_FAIL_ACCEPT_ON_INTR) != 0) {
		log_error("cannot set up FastCGI");
		return 1;
	}
	/* Both are blocked but while the loop waits for a request (on_stop),
	 * so a request never sees EINTR and never stops half-way. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigemptyset(&stops);
	sigaddset(&stops, SIGTERM);
	sigaddset(&stops, SIGUSR1);
	sigprocmask(SIG_BLOCK, &stops, &waiting);
	sigdelset(&waiting, SIGTERM);
	sigdelset(&waiting, SIGUSR1);
	if (sigaction(SIGTERM, &sa, NULL) != 0 || sigaction(SIGUSR1, &sa, NULL) != 0) {
		log_error("sigaction: %s", strerror(errno));
		return 1;
	}
	signal(SIGPIPE, SIG_IGN);   /* a server that hung up: an error, not death */
	sandbox_enter();
	while (served < max) {
		sigprocmask(SIG_SETMASK, &waiting, NULL);   /* a pending stop arrives here */
		rc = stopping ? -1 : FCGX_Accept_r(&req);
		sigprocmask(SIG_BLOCK, &stops, NULL);
		if (rc < 0) {
			if (!stopping) {
				log_error("FastCGI accept: %s", rc < -1 ? strerror(-rc) : "failed");
				status = 1;
			}
			break;
		}
		io_attach(&src);
		handle();
		io_attach(NULL);
		FCGX_Finish_r(&req);
		served++;
	}
	FCGX_Free(&req, 1);
	store_forget();
	geo_forget();
	return status;
}

int
serve_requests(const char *prog, void (*handle)(void))
{
	log_init(prog);
	if (listening() && !FCGX_IsCGI())
		return serve_fastcgi(handle);
	sandbox_enter();
	handle();
	return 0;
}
