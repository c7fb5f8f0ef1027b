/* fcgi-client.c: the test suite's FastCGI client and process starter. */

/*
 * libfcgi has no client, and cgi-fcgi starts one process per request: far
 * too slow for the suite's 100,000-request runs.  This speaks the record
 * layer of the FastCGI specification 1.0 as a web server does, one request
 * per connection (no FCGI_KEEP_CONN), role RESPONDER:
 *
 *   fcgi-client spawn [-n N] SOCK PROG [ARGS...]
 *       Binds and listens on the Unix socket SOCK (replacing a stale one),
 *       starts N processes of PROG (default 1) with the listening socket as
 *       fd 0, stdout /dev/null, stderr and the environment as given, and
 *       prints their pids on one line.  Then waits for them and prints
 *       "exit N" or "signal N" on a line of its own as each ends; its own
 *       exit status is the first non-zero N (or 128 + N), else 0.
 *   fcgi-client request [-t SECONDS] SOCK
 *       One request: the params are this program's environment, the body
 *       is its stdin (sent whatever CONTENT_LENGTH says).  Writes the
 *       FCGI_STDOUT stream to stdout as received, FCGI_STDERR to stderr.
 *   fcgi-client repeat [-t SECONDS] SOCK N
 *       The same request N times, one connection each: the first answer's
 *       stdout is written, every FCGI_STDERR; each answer must be complete
 *       and start with the same line as the first.
 *   NAME (a link to this program; no arguments)
 *       request NAME.sock: a stand-in for a CGI program in scripts that
 *       run one, e.g. $T/fcgi/consent for cgi-bin/consent.
 *
 * Exit status of request and repeat: the application's appStatus (its low
 * byte, 1 if that is 0 but appStatus is not) when the protocol status is
 * FCGI_REQUEST_COMPLETE; 112 for another protocol status; 111 for any
 * error of the connection or the records (a connection closed before
 * FCGI_END_REQUEST, a bad version, request id, type or length); 124 when
 * the timeout (default 300 s) passes.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* Record types and values of the specification, section 8. */
enum {
	FCGI_VERSION_1 = 1,
	FCGI_BEGIN_REQUEST = 1,
	FCGI_END_REQUEST = 3,
	FCGI_PARAMS = 4,
	FCGI_STDIN = 5,
	FCGI_STDOUT = 6,
	FCGI_STDERR = 7,
	FCGI_RESPONDER = 1,
	FCGI_HEADER_LEN = 8,
	FCGI_MAX_CONTENT = 65535,
	REQUEST_ID = 1
};

enum {
	EXIT_PROTOCOL_STATUS = 112,
	EXIT_BROKEN = 111,
	EXIT_TIMEOUT = 124
};

/* A growing byte buffer; the program exits when memory runs out. */
struct buf {
	unsigned char *p;
	size_t len, cap;
};

static void
die(const char *fmt, ...)
{
	va_list ap;

	fputs("fcgi-client: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(EXIT_BROKEN);
}

static void
buf_add(struct buf *b, const void *data, size_t n)
{
	if (n > SIZE_MAX - b->len)
		die("out of memory");
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		unsigned char *p;

		while (cap < b->len + n)
			cap *= 2;
		if ((p = realloc(b->p, cap)) == NULL)
			die("out of memory");
		b->p = p;
		b->cap = cap;
	}
	if (n > 0)
		memcpy(b->p + b->len, data, n);
	b->len += n;
}

/*
 * Appends one record of TYPE holding N bytes of CONTENT (at most 65535),
 * padded to a multiple of 8 as section 3.3 recommends.
 */
static void
record(struct buf *out, int type, const unsigned char *content, size_t n)
{
	static const unsigned char zeros[8];
	unsigned char h[FCGI_HEADER_LEN];
	size_t pad = (8 - n % 8) % 8;

	h[0] = FCGI_VERSION_1;
	h[1] = (unsigned char)type;
	h[2] = 0;
	h[3] = REQUEST_ID;
	h[4] = (unsigned char)(n >> 8);
	h[5] = (unsigned char)(n & 0xff);
	h[6] = (unsigned char)pad;
	h[7] = 0;
	buf_add(out, h, sizeof h);
	buf_add(out, content, n);
	buf_add(out, zeros, pad);
}

/* Appends a stream: its bytes in records of at most 65535, then the empty one. */
static void
stream(struct buf *out, int type, const struct buf *data)
{
	size_t off = 0;

	while (off < data->len) {
		size_t n = data->len - off;

		if (n > FCGI_MAX_CONTENT)
			n = FCGI_MAX_CONTENT;
		record(out, type, data->p + off, n);
		off += n;
	}
	record(out, type, NULL, 0);
}

/* A name or value length, section 3.4: one byte below 128, else four. */
static void
pair_length(struct buf *b, size_t n)
{
	unsigned char l[4];

	if (n > 0x7fffffff)
		die("a parameter of %zu bytes is too long for FastCGI", n);
	if (n < 128) {
		l[0] = (unsigned char)n;
		buf_add(b, l, 1);
		return;
	}
	l[0] = (unsigned char)((n >> 24) | 0x80);
	l[1] = (unsigned char)(n >> 16);
	l[2] = (unsigned char)(n >> 8);
	l[3] = (unsigned char)n;
	buf_add(b, l, 4);
}

/*
 * The whole request as bytes: BEGIN_REQUEST (RESPONDER, no KEEP_CONN), the
 * environment as PARAMS, the body read from stdin as STDIN.
 */
static void
build_request(struct buf *out)
{
	static const unsigned char begin[8] = { 0, FCGI_RESPONDER, 0, 0, 0, 0, 0, 0 };
	struct buf params = { 0 }, body = { 0 };
	unsigned char chunk[65536];
	ssize_t r;

	record(out, FCGI_BEGIN_REQUEST, begin, sizeof begin);
	for (char **e = environ; *e != NULL; e++) {
		const char *eq = strchr(*e, '=');

		if (eq == NULL)
			continue;
		pair_length(&params, (size_t)(eq - *e));
		pair_length(&params, strlen(eq + 1));
		buf_add(&params, *e, (size_t)(eq - *e));
		buf_add(&params, eq + 1, strlen(eq + 1));
	}
	stream(out, FCGI_PARAMS, &params);
	while ((r = read(STDIN_FILENO, chunk, sizeof chunk)) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			die("reading the body: %s", strerror(errno));
		}
		buf_add(&body, chunk, (size_t)r);
	}
	stream(out, FCGI_STDIN, &body);
	free(params.p);
	free(body.p);
}

/* Writes all N bytes to FD (stdout or stderr of this program). */
static void
write_all(int fd, const unsigned char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			die("writing the answer: %s", strerror(errno));
		}
		p += w;
		n -= (size_t)w;
	}
}

static int
connect_to(const char *path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd;

	if (strlen(path) >= sizeof a.sun_path)
		die("socket path too long: %s", path);
	memcpy(a.sun_path, path, strlen(path) + 1);
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0)
		die("socket: %s", strerror(errno));
	while (connect(fd, (struct sockaddr *)&a, sizeof a) < 0) {
		if (errno != EINTR)
			die("connect %s: %s", path, strerror(errno));
	}
	return fd;
}

/* What one answer held. */
struct answer {
	struct buf out;          /* the FCGI_STDOUT stream */
	int out_ended;           /* its empty record was seen */
	int ended;               /* FCGI_END_REQUEST was seen */
	uint32_t app_status;
	int protocol_status;
};

/*
 * Parses the records at the start of IN (LEN bytes) into A, writing
 * FCGI_STDERR to stderr at once; returns the bytes consumed (whole records
 * only).  Dies on a record this exchange cannot hold.
 */
static size_t
parse_records(const unsigned char *in, size_t len, struct answer *a)
{
	size_t used = 0;

	while (len - used >= FCGI_HEADER_LEN) {
		const unsigned char *h = in + used;
		size_t n = ((size_t)h[4] << 8) | h[5], pad = h[6];
		int id = (h[2] << 8) | h[3];
		const unsigned char *c = h + FCGI_HEADER_LEN;

		if (h[0] != FCGI_VERSION_1)
			die("record version %d, want 1", h[0]);
		if (len - used < FCGI_HEADER_LEN + n + pad)
			break;
		if (a->ended)
			die("a record (type %d) after FCGI_END_REQUEST", h[1]);
		if (id != REQUEST_ID)
			die("record of type %d for request id %d, want %d", h[1], id, REQUEST_ID);
		switch (h[1]) {
		case FCGI_STDOUT:
			if (a->out_ended)
				die("FCGI_STDOUT after the end of its stream");
			if (n == 0)
				a->out_ended = 1;
			buf_add(&a->out, c, n);
			break;
		case FCGI_STDERR:
			write_all(STDERR_FILENO, c, n);
			break;
		case FCGI_END_REQUEST:
			if (n != 8)
				die("FCGI_END_REQUEST of %zu bytes, want 8", n);
			a->app_status = ((uint32_t)c[0] << 24) | ((uint32_t)c[1] << 16) |
			    ((uint32_t)c[2] << 8) | c[3];
			a->protocol_status = c[4];
			a->ended = 1;
			break;
		default:
			die("unexpected record type %d", h[1]);
		}
		used += FCGI_HEADER_LEN + n + pad;
	}
	return used;
}

/*
 * One exchange on a new connection to PATH: sends REQ while reading the
 * answer (a process may answer before it has read the whole body, and may
 * close without reading it: the rest is then dropped), until the
 * connection closes after FCGI_END_REQUEST.
 */
static void
exchange(const char *path, const struct buf *req, struct answer *a)
{
	struct buf in = { 0 };
	unsigned char chunk[65536];
	size_t sent = 0, parsed = 0;
	int fd = connect_to(path), writing = 1;

	if (fcntl(fd, F_SETFL, O_NONBLOCK) < 0)
		die("fcntl: %s", strerror(errno));
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t r;

		if (writing)
			p.events |= POLLOUT;
		if (poll(&p, 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			die("poll: %s", strerror(errno));
		}
		if (writing && (p.revents & (POLLOUT | POLLERR | POLLHUP))) {
			ssize_t w = send(fd, req->p + sent, req->len - sent, MSG_NOSIGNAL);

			if (w < 0 && errno != EAGAIN && errno != EINTR)
				writing = 0;     /* EPIPE: the body was not all read */
			else if (w > 0 && (sent += (size_t)w) == req->len)
				writing = 0;
		}
		if (!(p.revents & (POLLIN | POLLHUP | POLLERR)))
			continue;
		r = recv(fd, chunk, sizeof chunk, 0);
		if (r < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			if (errno != ECONNRESET)
				die("recv: %s", strerror(errno));
			r = 0;
		}
		if (r == 0)
			break;
		buf_add(&in, chunk, (size_t)r);
		parsed += parse_records(in.p + parsed, in.len - parsed, a);
	}
	close(fd);
	if (parsed != in.len)
		die("connection closed inside a record (%zu bytes left)", in.len - parsed);
	if (!a->ended)
		die("connection closed before FCGI_END_REQUEST");
	if (!a->out_ended)
		die("FCGI_END_REQUEST before the end of the FCGI_STDOUT stream");
	free(in.p);
}

static int
status_of(const struct answer *a)
{
	if (a->protocol_status != 0) {
		fprintf(stderr, "fcgi-client: protocol status %d\n", a->protocol_status);
		return EXIT_PROTOCOL_STATUS;
	}
	if (a->app_status != 0)
		return (a->app_status & 0xff) ? (int)(a->app_status & 0xff) : 1;
	return 0;
}

static size_t
first_line(const struct buf *b)
{
	const unsigned char *nl = b->len ? memchr(b->p, '\n', b->len) : NULL;

	return nl ? (size_t)(nl - b->p) : b->len;
}

static void
on_alarm(int sig)
{
	static const char msg[] = "fcgi-client: timeout\n";

	(void)sig;
	(void)!write(STDERR_FILENO, msg, sizeof msg - 1);
	_exit(EXIT_TIMEOUT);
}

static int
do_requests(const char *path, long count)
{
	struct buf req = { 0 }, first = { 0 };
	int rc = 0;

	build_request(&req);
	for (long i = 0; i < count; i++) {
		struct answer a = { 0 };
		int st;

		exchange(path, &req, &a);
		st = status_of(&a);
		if (st != 0) {
			if (count > 1)
				fprintf(stderr, "fcgi-client: request %ld: status %d\n", i + 1, st);
			rc = st;
		}
		if (i == 0) {
			write_all(STDOUT_FILENO, a.out.p, a.out.len);
			first = a.out;
			continue;
		}
		if (first_line(&a.out) != first_line(&first) ||
		    memcmp(a.out.p, first.p, first_line(&first)) != 0) {
			fprintf(stderr, "fcgi-client: request %ld: first line differs: %.*s\n",
			    i + 1, (int)first_line(&a.out), (const char *)a.out.p);
			rc = rc ? rc : 1;
		}
		free(a.out.p);
		if (rc != 0)
			break;
	}
	free(first.p);
	free(req.p);
	return rc;
}

/*
 * spawn: the listening socket on fd 0 of PROG, as a FastCGI process
 * manager gives it (section 2.2); waits for PROG and reports how it ended.
 */
static int
do_spawn(const char *path, long n, char **argv)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	struct stat st;
	int fd, status, rc = 0;

	if (strlen(path) >= sizeof a.sun_path)
		die("socket path too long: %s", path);
	memcpy(a.sun_path, path, strlen(path) + 1);
	if (lstat(path, &st) == 0 && S_ISSOCK(st.st_mode))
		unlink(path);
	if ((fd = socket(AF_UNIX, SOCK_STREAM, 0)) < 0)
		die("socket: %s", strerror(errno));
	if (bind(fd, (struct sockaddr *)&a, sizeof a) < 0 || listen(fd, 128) < 0)
		die("bind/listen %s: %s", path, strerror(errno));
	fflush(stdout);
	for (long i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0)
			die("fork: %s", strerror(errno));
		if (pid == 0) {
			int null = open("/dev/null", O_WRONLY);

			if (null < 0 || dup2(fd, STDIN_FILENO) < 0 || dup2(null, STDOUT_FILENO) < 0)
				die("dup2: %s", strerror(errno));
			close(fd);
			close(null);
			execvp(argv[0], argv);
			die("exec %s: %s", argv[0], strerror(errno));
		}
		printf("%s%ld", i ? " " : "", (long)pid);
	}
	close(fd);
	printf("\n");
	fflush(stdout);
	for (long i = 0; i < n; i++) {
		int code;

		while (wait(&status) < 0) {
			if (errno != EINTR)
				die("wait: %s", strerror(errno));
		}
		if (WIFSIGNALED(status)) {
			printf("signal %d\n", WTERMSIG(status));
			code = 128 + WTERMSIG(status);
		} else {
			printf("exit %d\n", WEXITSTATUS(status));
			code = WEXITSTATUS(status);
		}
		fflush(stdout);
		if (rc == 0)
			rc = code;
	}
	return rc;
}

static void
usage(void)
{
	fputs("usage: fcgi-client spawn [-n N] SOCK PROG [ARGS...]\n"
	    "       fcgi-client request [-t SECONDS] SOCK\n"
	    "       fcgi-client repeat [-t SECONDS] SOCK N\n", stderr);
	exit(2);
}

int
main(int argc, char **argv)
{
	long timeout = 300, count = 1;
	int i = 2;
	const char *base = strrchr(argv[0], '/');

	base = base ? base + 1 : argv[0];
	if (argc == 1 && strcmp(base, "fcgi-client") != 0) {
		static char sock[4096];

		if (snprintf(sock, sizeof sock, "%s.sock", argv[0]) >= (int)sizeof sock)
			die("name too long: %s", argv[0]);
		signal(SIGALRM, on_alarm);
		alarm((unsigned)timeout);
		return do_requests(sock, 1);
	}
	if (argc < 3)
		usage();
	if (strcmp(argv[1], "spawn") == 0) {
		long n = 1;

		if (strcmp(argv[i], "-n") == 0) {
			char *end;

			if (argc < 6)
				usage();
			errno = 0;
			n = strtol(argv[i + 1], &end, 10);
			if (errno || *end || n < 1 || n > 64)
				usage();
			i += 2;
		}
		if (argc < i + 2)
			usage();
		return do_spawn(argv[i], n, argv + i + 1);
	}
	if (strcmp(argv[1], "request") != 0 && strcmp(argv[1], "repeat") != 0)
		usage();
	if (strcmp(argv[i], "-t") == 0) {
		char *end;

		if (argc < 5)
			usage();
		errno = 0;
		timeout = strtol(argv[i + 1], &end, 10);
		if (errno || *end || timeout < 1 || timeout > 86400)
			usage();
		i += 2;
	}
	if (strcmp(argv[1], "repeat") == 0) {
		char *end;

		if (argc != i + 2)
			usage();
		errno = 0;
		count = strtol(argv[i + 1], &end, 10);
		if (errno || *end || count < 1)
			usage();
	} else if (argc != i + 1) {
		usage();
	}
	signal(SIGALRM, on_alarm);
	alarm((unsigned)timeout);
	return do_requests(argv[i], count);
}
