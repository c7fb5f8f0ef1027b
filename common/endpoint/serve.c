/* serve.c: the endpoints' one loop, the only file that knows FastCGI (libfcgi's fcgiapp). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fcgiapp.h>

#include "input/geo.h"
#include "base/io.h"
#include "base/limits.h"
#include "base/log.h"
#include "base/sandbox.h"
#include "endpoint/serve.h"
#include "store/store.h"

static volatile sig_atomic_t stopping;

/*
 * SIGTERM, SIGUSR1: finish the requests in hand, accept no other.  Both
 * are blocked everywhere but in the wait for a connection (pselect in
 * wait_connection), which the signal ends (EINTR), so the handler never
 * runs while a request is served and a transaction is never cut short.
 */
static void
on_stop(int sig)
{
	(void)sig;
	stopping = 1;
}

/*
 * One request of a batch: its FastCGI request and, for a writer, its
 * answer held in memory (hold) until the batch's group commit says
 * whether what it wrote is on disk (store.h, store_group_begin).
 */
struct slot {
	FCGX_Request req;
	struct io_source src;
	int hold;
	int held_failed;     /* the held answer could not be kept whole */
	char *held;
	size_t len, cap;
	unsigned group;      /* the group its write joined, 0: none */
};

/* io_source over one accepted FastCGI request (arg: its slot). */
static const char *
fcgi_param(void *arg, const char *name)
{
	return FCGX_GetParam(name, ((struct slot *)arg)->req.envp);
}

static ssize_t
fcgi_read(void *arg, char *buf, size_t n)
{
	FCGX_Stream *in = ((struct slot *)arg)->req.in;
	int got = FCGX_GetStr(buf, n > INT_MAX ? INT_MAX : (int)n, in);

	if (got <= 0 && FCGX_GetError(in) != 0) {
		errno = EIO;
		return -1;
	}
	return got;
}

static int
put(FCGX_Stream *out, const char *buf, size_t n)
{
	while (n > 0) {
		int chunk = n > INT_MAX ? INT_MAX : (int)n;
		if (FCGX_PutStr(buf, chunk, out) != chunk)
			return -1;
		buf += chunk;
		n -= (size_t)chunk;
	}
	return 0;
}

static int
fcgi_write(void *arg, const char *buf, size_t n)
{
	struct slot *s = arg;

	if (!s->hold)
		return put(s->req.out, buf, n);
	if (s->held_failed)
		return -1;
	if (n > s->cap - s->len) {
		size_t cap = s->cap ? s->cap : 1024;
		char *p;

		while (cap - s->len < n) {
			if (cap > SIZE_MAX / 2) {
				s->held_failed = 1;
				return -1;
			}
			cap *= 2;
		}
		if ((p = realloc(s->held, cap)) == NULL) {
			log_error("out of memory");
			s->held_failed = 1;
			return -1;
		}
		s->held = p;
		s->cap = cap;
	}
	memcpy(s->held + s->len, buf, n);
	s->len += n;
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
 * manager's; a request cannot change it) or the settings file: 1 to FCGI_MAX_REQUESTS_MAX, else
 * the default with one line on stderr. */
static long
max_requests(void)
{
	const char *s = io_env("CONSENT_FCGI_MAX_REQUESTS");   /* no request attached yet */
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

/*
 * Accept the next connection into s.  The listening socket is
 * non-blocking (serve_fastcgi), so accept never waits: 1 when a request
 * was accepted, 0 when none was waiting (another process of the pool may
 * have taken it), -1 when accepting failed (reported).
 */
static int
accept_one(struct slot *s)
{
	int rc = FCGX_Accept_r(&s->req);

	if (rc >= 0)
		return 1;
	if (rc == -EAGAIN || rc == -EWOULDBLOCK || rc == -EINTR)
		return 0;
	log_error("FastCGI accept: %s", rc < -1 ? strerror(-rc) : "failed");
	return -1;
}

/* Wait for a connection on fd 0 with the stop signals let in (waiting is
 * the mask without them): 0 when one may be there, -1 on a stop or an
 * error (reported). */
static int
wait_connection(const sigset_t *waiting)
{
	fd_set r;

	while (!stopping) {
		FD_ZERO(&r);
		FD_SET(0, &r);
		if (pselect(1, &r, NULL, NULL, NULL, waiting) > 0)
			return 0;
		if (errno != EINTR) {
			log_error("FastCGI wait: %s", strerror(errno));
			return -1;
		}
	}
	return -1;
}

/* Serve the request accepted into s, its answer held when s->hold. */
static void
serve_one(struct slot *s, void (*handle)(void))
{
	s->len = 0;
	s->held_failed = 0;
	io_attach(&s->src);
	handle();
	io_attach(NULL);
	s->group = store_group_joined();
}

/*
 * Answer s and finish it: its held answer, unless its write's group did
 * not commit (or the answer could not be held whole): then fail() answers
 * it, a 500.  The connection is closed whatever the server asked
 * (FCGI_KEEP_CONN): the loop waits for connections, not on them.
 */
static void
finish_one(struct slot *s, void (*fail)(void))
{
	if (s->hold) {
		if ((s->group != 0 && !store_group_committed(s->group)) || s->held_failed) {
			s->hold = 0;
			io_attach(&s->src);
			fail();
			io_attach(NULL);
			s->hold = 1;
		} else if (put(s->req.out, s->held, s->len) != 0) {
			log_error("FastCGI answer: the server went away");
		}
	}
	FCGX_Finish_r(&s->req);
	FCGX_Free(&s->req, 1);
}

/*
 * The FastCGI loop: 0 after the last request or a stop, 1 when it could
 * not start or accepting failed.  A writer (fail given) serves, after each
 * request it accepted, the others already waiting (at most
 * FCGI_GROUP_MAX) with their writes in one group commit, then answers them
 * all; a reader serves one request at a time.
 */
static int
serve_fastcgi(void (*handle)(void), void (*fail)(void))
{
	static struct slot slots[FCGI_GROUP_MAX];
	int batch_max = fail != NULL ? FCGI_GROUP_MAX : 1;
	struct sigaction sa;
	sigset_t stops, waiting;
	long max = max_requests(), served = 0;
	int flags, i, n, rc, status = 0;

	if (FCGX_Init() != 0) {
		log_error("cannot set up FastCGI");
		return 1;
	}
	for (i = 0; i < batch_max; i++) {
		struct slot *s = &slots[i];

		if (FCGX_InitRequest(&s->req, 0, 0) != 0) {
			log_error("cannot set up FastCGI");
			return 1;
		}
		s->src = (struct io_source){ fcgi_param, fcgi_read, fcgi_write, s };
		s->hold = fail != NULL;
	}
	if ((flags = fcntl(0, F_GETFL)) < 0 || fcntl(0, F_SETFL, flags | O_NONBLOCK) != 0) {
		log_error("FastCGI socket: %s", strerror(errno));
		return 1;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
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
	sandbox_enter();
	while (served < max && status == 0) {
		if (wait_connection(&waiting) != 0) {
			status = stopping ? 0 : 1;
			break;
		}
		if ((rc = accept_one(&slots[0])) <= 0) {
			if (rc < 0)
				status = 1;
			continue;
		}
		if (fail != NULL)
			store_group_begin();
		serve_one(&slots[0], handle);
		for (n = 1; n < batch_max && served + n < max && store_group_open(); n++) {
			if ((rc = accept_one(&slots[n])) <= 0) {
				if (rc < 0)
					status = 1;   /* answer the batch, then stop */
				break;
			}
			serve_one(&slots[n], handle);
		}
		if (fail != NULL)
			store_group_end();
		for (i = 0; i < n; i++)
			finish_one(&slots[i], fail);
		served += n;
	}
	for (i = 0; i < batch_max; i++) {
		FCGX_Free(&slots[i].req, 1);
		free(slots[i].held);
	}
	store_forget();
	geo_forget();
	return status;
}

int
serve_requests(const char *prog, void (*handle)(void), void (*fail)(void))
{
	log_init(prog);
	/* A server that hung up (its client left before the answer): the
	 * write fails and the request ends as it would have, the work done
	 * and committed.  Death by SIGPIPE would end it mid-way, and lighttpd
	 * logs it ("CGI pid N died with signal 13"). */
	signal(SIGPIPE, SIG_IGN);
	if (listening() && !FCGX_IsCGI())
		return serve_fastcgi(handle, fail);
	sandbox_enter();
	handle();
	return 0;
}
