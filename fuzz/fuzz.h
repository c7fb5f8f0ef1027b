/* fuzz.h: what every harness shares (fuzz/README.md).
 *
 * A harness is one LLVMFuzzerTestOneInput over one input format.  clang's
 * -fsanitize=fuzzer links it to libFuzzer (fuzz/run.sh); fuzz/replay.c links
 * it to a plain main() that feeds it files (tests/t0900-fuzz-regressions.sh).
 *
 * Inputs that carry several strings (a query and a body, an Origin and a
 * domain) hold them one per line, in the order the harness names.  A line
 * that is exactly "~" stands for NULL (an absent header); a missing line is
 * NULL too.  Each string is copied into its own allocation of exactly its
 * length + 1 and cut at its first NUL byte, as getenv() would give it, so
 * AddressSanitizer sees any read past the terminator.
 */
#ifndef CONSENT_FUZZ_H
#define CONSENT_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Stop the run (libFuzzer, ASan and replay.c all report an abort) when a
 * property the header promises does not hold. */
#define FUZZ_CHECK(cond) do { if (!(cond)) abort(); } while (0)

#define FUZZ_LINES_MAX 12

struct fuzz_lines {
	char *s[FUZZ_LINES_MAX];      /* NULL: absent ("~" or missing) */
	const uint8_t *rest;          /* the bytes after the last line taken */
	size_t rest_len;
};

static inline char *
fuzz_strndup(const uint8_t *p, size_t n)
{
	const uint8_t *nul = memchr(p, '\0', n);
	char *s;

	if (nul != NULL)
		n = (size_t)(nul - p);
	if ((s = malloc(n + 1)) == NULL)
		abort();
	memcpy(s, p, n);
	s[n] = '\0';
	return s;
}

/* Take the first n lines of data (n <= FUZZ_LINES_MAX); what follows the
 * n-th newline is left in rest, untouched (a body may hold NUL bytes). */
static inline void
fuzz_split(const uint8_t *data, size_t size, size_t n, struct fuzz_lines *l)
{
	size_t i;

	memset(l, 0, sizeof(*l));
	for (i = 0; i < n && size > 0; i++) {
		const uint8_t *nl = memchr(data, '\n', size);
		size_t len = nl ? (size_t)(nl - data) : size;

		if (!(len == 1 && data[0] == '~'))
			l->s[i] = fuzz_strndup(data, len);
		if (nl == NULL) {
			data += size;
			size = 0;
		} else {
			data += len + 1;
			size -= len + 1;
		}
	}
	l->rest = data;
	l->rest_len = size;
}

static inline void
fuzz_lines_free(struct fuzz_lines *l)
{
	for (size_t i = 0; i < FUZZ_LINES_MAX; i++)
		free(l->s[i]);
}

/* The bytes as a request body: an exact allocation of len + 1, NUL at the
 * end, NUL bytes inside kept (what http_read_body hands the endpoints). */
static inline char *
fuzz_body(const uint8_t *p, size_t len)
{
	char *b = malloc(len + 1);

	if (b == NULL)
		abort();
	if (len > 0)
		memcpy(b, p, len);
	b[len] = '\0';
	return b;
}

/* cJSON's allocations, counted; from the fuzz_oom_at-th on they fail
 * (0: none does). */
static unsigned long fuzz_oom_at, fuzz_allocs;

static inline void *
fuzz_counted_malloc(size_t n)
{
	if (fuzz_oom_at != 0 && ++fuzz_allocs >= fuzz_oom_at)
		return NULL;
	return malloc(n);
}

/* From now on, cJSON's n-th allocation and every one after it fail (n 0:
 * none), so that a harness runs the code's out-of-memory exits under
 * LeakSanitizer.  The first call installs the counting allocator. */
static inline void
fuzz_cjson_fail_from(unsigned long n)
{
	static int hooked;

	if (!hooked) {
		cJSON_Hooks h = { fuzz_counted_malloc, free };
		cJSON_InitHooks(&h);
		hooked = 1;
	}
	fuzz_allocs = 0;
	fuzz_oom_at = n;
}

/* An io_source write (base/io.h) for a harness that answers nothing. */
static inline int
fuzz_no_write(void *arg, const char *buf, size_t n)
{
	(void)arg;
	(void)buf;
	(void)n;
	return 0;
}

#endif
