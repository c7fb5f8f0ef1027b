/* spawn.c: run one CGI program many times, as a web server would, and time it.
 *
 *   spawn [-E] [-n COUNT] [-w WARMUP] [-s SALT] [-b BODY_FILE] [-e NAME=VALUE]... PROGRAM
 *
 * Each run gets only the -e variables as its environment (RFC 3875 4.1, no
 * inherited ones), the body on a pipe as stdin with CONTENT_LENGTH set, and
 * its stdout read to the end.  Every "@ID@" in the body is replaced by
 * SALT-i for run i, so each run can be a new visitor or a new domain.  The
 * time of a run is from posix_spawn to waitpid, output read included: what
 * mod_cgi pays per request, minus the server's own work.
 *
 * With -E the program is first evicted from the page cache (its dirty pages
 * written back, then posix_fadvise DONTNEED), before the warm-up runs: a
 * file just written by the linker or cp sits in the cache as it was
 * written, one read back from disk as the kernel reads executables, and the
 * two do not map alike.  Evicting every program the same way, the floor
 * included, puts them all in the second state.
 *
 * Prints one line: n=COUNT mean_us=... p50_us=... p99_us=... cpu_us=... bad=N:
 * wall-clock mean and percentiles, the median CPU time (user + system, from
 * wait4, so other load on the machine barely moves it), and the runs that
 * exited non-zero or answered other than 2xx.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ENV_MAX 64
#define BODY_MAX 60000      /* below a pipe's 64 KiB, so one write never blocks */
#define OUT_KEEP 4096       /* bytes of the answer kept for the status check */

static char body_tmpl[BODY_MAX + 1];
static char body[BODY_MAX + 1];

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double
now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* The template with every @ID@ replaced by salt-i; its length. */
static size_t
make_body(const char *salt, long i)
{
	char id[96];
	size_t o = 0, idlen;
	const char *p = body_tmpl, *q;

	idlen = (size_t)snprintf(id, sizeof(id), "%s-%ld", salt, i);
	while ((q = strstr(p, "@ID@")) != NULL) {
		size_t n = (size_t)(q - p);
		if (o + n + idlen > BODY_MAX)
			break;
		memcpy(body + o, p, n);
		memcpy(body + o + n, id, idlen);
		o += n + idlen;
		p = q + 4;
	}
	size_t rest = strlen(p);
	if (o + rest > BODY_MAX)
		rest = BODY_MAX - o;
	memcpy(body + o, p, rest);
	o += rest;
	body[o] = '\0';
	return o;
}

/* The program's pages out of the page cache; 0, or -1 with a message. */
static int
evict(const char *prog)
{
	int fd = open(prog, O_RDONLY), rc = 0;

	if (fd < 0 || fdatasync(fd) != 0 ||
	    (errno = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)) != 0) {
		perror(prog);
		rc = -1;
	}
	if (fd >= 0)
		close(fd);
	return rc;
}

/* One run; its time in microseconds, or a negative value when it failed.
 * *cpu is the child's user + system time in microseconds. */
static double
run_once(const char *prog, char **env, int nenv, int has_body, const char *salt, long i,
         double *cpu)
{
	char *argv[] = { (char *)prog, NULL };
	char clen[48], out[OUT_KEEP + 1];
	posix_spawn_file_actions_t fa;
	int in[2], outp[2], status, ok = 1;
	size_t blen = 0, kept = 0;
	double t0, t1;
	struct rusage ru;
	pid_t pid;
	ssize_t r;

	if (has_body) {
		blen = make_body(salt, i);
		snprintf(clen, sizeof(clen), "CONTENT_LENGTH=%zu", blen);
		env[nenv] = clen;
		env[nenv + 1] = NULL;
	}
	if (pipe(in) != 0 || pipe(outp) != 0) {
		perror("spawn: pipe");
		exit(2);
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, in[0], 0);
	posix_spawn_file_actions_adddup2(&fa, outp[1], 1);
	posix_spawn_file_actions_addclose(&fa, in[0]);
	posix_spawn_file_actions_addclose(&fa, in[1]);
	posix_spawn_file_actions_addclose(&fa, outp[0]);
	posix_spawn_file_actions_addclose(&fa, outp[1]);
	t0 = now_us();
	if ((errno = posix_spawn(&pid, prog, &fa, NULL, argv, env)) != 0) {
		perror(prog);
		exit(2);
	}
	close(in[0]);
	close(outp[1]);
	/* A program that answers without reading its body (the floor) may
	 * be gone before the body is written: EPIPE is not a failure. */
	if (blen > 0 && write(in[1], body, blen) != (ssize_t)blen && errno != EPIPE)
		ok = 0;
	close(in[1]);
	for (;;) {
		char sink[16384];
		if (kept < OUT_KEEP)
			r = read(outp[0], out + kept, OUT_KEEP - kept);
		else
			r = read(outp[0], sink, sizeof(sink));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if (kept < OUT_KEEP)
			kept += (size_t)r;
	}
	close(outp[0]);
	while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR)
		;
	t1 = now_us();
	*cpu = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e6 +
	    (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
	posix_spawn_file_actions_destroy(&fa);
	out[kept] = '\0';
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		ok = 0;
	if (strncmp(out, "Status: 2", 9) != 0 && strstr(out, "\nStatus: 2") == NULL)
		ok = 0;
	if (!ok) {
		static int shown;
		if (!shown++)
			fprintf(stderr, "spawn: %s answered:\n%.400s\n", prog, out);
		return -1;
	}
	return t1 - t0;
}

int
main(int argc, char **argv)
{
	char *env[ENV_MAX + 2];
	const char *salt = "x", *body_file = NULL;
	long n = 200, warm = 10, bad = 0;
	int nenv = 0, c, evict_first = 0;
	double *t, *cpu, sum = 0, dummy;

	while ((c = getopt(argc, argv, "En:w:s:b:e:")) != -1) {
		switch (c) {
		case 'E': evict_first = 1; break;
		case 'n': n = strtol(optarg, NULL, 10); break;
		case 'w': warm = strtol(optarg, NULL, 10); break;
		case 's': salt = optarg; break;
		case 'b': body_file = optarg; break;
		case 'e':
			if (nenv >= ENV_MAX) {
				fprintf(stderr, "spawn: too many -e\n");
				return 2;
			}
			env[nenv++] = optarg;
			break;
		default:
			fprintf(stderr, "usage: spawn [-E] [-n N] [-w N] [-s SALT] [-b BODY] [-e NAME=VALUE]... PROGRAM\n");
			return 2;
		}
	}
	if (optind != argc - 1 || n < 1 || warm < 0) {
		fprintf(stderr, "usage: spawn [-E] [-n N] [-w N] [-s SALT] [-b BODY] [-e NAME=VALUE]... PROGRAM\n");
		return 2;
	}
	env[nenv] = NULL;
	signal(SIGPIPE, SIG_IGN);
	if (body_file != NULL) {
		FILE *f = fopen(body_file, "rb");
		size_t len;
		if (f == NULL) {
			perror(body_file);
			return 2;
		}
		len = fread(body_tmpl, 1, BODY_MAX, f);
		body_tmpl[len] = '\0';
		fclose(f);
	}
	if ((t = calloc((size_t)n, sizeof(*t))) == NULL ||
	    (cpu = calloc((size_t)n, sizeof(*cpu))) == NULL)
		return 2;
	if (evict_first && evict(argv[optind]) != 0)
		return 2;
	for (long i = 0; i < warm; i++)
		if (run_once(argv[optind], env, nenv, body_file != NULL, salt, -1 - i, &dummy) < 0)
			bad++;
	for (long i = 0; i < n; i++) {
		t[i] = run_once(argv[optind], env, nenv, body_file != NULL, salt, i, &cpu[i]);
		if (t[i] < 0) {
			bad++;
			t[i] = 0;
		}
		sum += t[i];
	}
	qsort(t, (size_t)n, sizeof(*t), cmp_double);
	qsort(cpu, (size_t)n, sizeof(*cpu), cmp_double);
	printf("n=%ld mean_us=%.0f p50_us=%.0f p99_us=%.0f cpu_us=%.0f bad=%ld\n", n,
	    sum / (double)n, t[n / 2], t[(n * 99) / 100], cpu[n / 2], bad);
	free(t);
	free(cpu);
	return bad ? 1 : 0;
}
