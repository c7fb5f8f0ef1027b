/* arena.c: memory for a process that answers one request and exits. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <malloc.h>

#include "base/arena.h"

/*
 * Why: a CGI process opens the database, parses its whole schema (SQLite
 * has no lazy schema: every CREATE statement of every table, the
 * dashboard's included, is parsed by each new connection, with lookaside
 * off), runs a few statements and exits.  About 1,300 allocations, a fifth
 * of its instructions in glibc's malloc and free (callgrind, consent,
 * docs/performance.md).  Here they are a pointer bump in a static arena,
 * and nothing is given back but the last block: the process ends soon.
 * A block that does not fit comes from malloc as before, so a request that
 * needs more memory than the arena only pays what it always paid.
 *
 * Each arena block is preceded by its size (a multiple of 8) in 8 bytes;
 * a block from malloc has no header (malloc_usable_size gives its size).
 */
#define ARENA_BYTES (8u << 20)   /* static, zero: untouched pages cost nothing */
#define HEAD 8

static _Alignas(16) unsigned char arena[ARENA_BYTES];
static size_t used;

static size_t
round8(int n)
{
	return ((size_t)n + 7) & ~(size_t)7;
}

static int
in_arena(const void *p)
{
	return (uintptr_t)p - (uintptr_t)arena < ARENA_BYTES;
}

static size_t
size_of(const void *p)
{
	size_t n;

	if (!in_arena(p))
		return malloc_usable_size((void *)(uintptr_t)p);
	memcpy(&n, (const unsigned char *)p - HEAD, sizeof(n));
	return n;
}

void *
arena_malloc(int n)
{
	size_t sz = round8(n);
	unsigned char *p;

	if (sz + HEAD > ARENA_BYTES - used)
		return malloc(sz);
	p = arena + used;
	memcpy(p, &sz, sizeof(sz));
	used += sz + HEAD;
	return p + HEAD;
}

/* Whether p is the arena's last block. */
static int
last(const void *p, size_t sz)
{
	return (const unsigned char *)p + sz == arena + used;
}

void
arena_free(void *p)
{
	size_t sz;

	if (!in_arena(p)) {
		free(p);
		return;
	}
	if (last(p, sz = size_of(p)))
		used -= sz + HEAD;
}

void *
arena_realloc(void *p, int n)
{
	size_t sz = round8(n), old;
	void *q;

	if (!in_arena(p))
		return realloc(p, sz);
	old = size_of(p);
	if (last(p, old) && sz <= ARENA_BYTES - (used - old)) {
		used = used - old + sz;   /* grown or shrunk in place */
		memcpy((unsigned char *)p - HEAD, &sz, sizeof(sz));
		return p;
	}
	if ((q = arena_malloc(n)) == NULL)
		return NULL;
	memcpy(q, p, old < sz ? old : sz);
	arena_free(p);
	return q;
}

int
arena_size(void *p)
{
	return (int)size_of(p);
}

int
arena_roundup(int n)
{
	return (int)round8(n);
}
