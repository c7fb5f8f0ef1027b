/* test_arena.c: the one-request arena SQLite allocates from in a CGI process (arena.c). */
#include <stdint.h>
#include <string.h>

#include "unit.h"
#include "base/arena.h"

int
main(void)
{
	static void *many[2000];
	unsigned char *a, *b, *c, *big, *after;
	int i, ok;

	a = arena_malloc(10);
	CHECK(a != NULL && ((uintptr_t)a & 7) == 0, "a block is 8-byte aligned");
	CHECK(arena_size(a) == 16 && arena_roundup(10) == 16, "sizes round up to 8");
	b = arena_malloc(24);
	CHECK(b == a + 16 + 8, "the next block follows the last and its size");
	arena_free(a);
	c = arena_malloc(8);
	CHECK(c == b + 24 + 8, "a block freed before the last is not reused");
	arena_free(c);
	CHECK(arena_malloc(8) == c, "the last block freed is reused");

	/* realloc: in place when last, moved otherwise. */
	memset(c, 'c', 8);
	CHECK(arena_realloc(c, 4000) == c && arena_size(c) == 4000, "the last block grows in place");
	CHECK(arena_realloc(c, 8) == c && arena_size(c) == 8, "and shrinks in place");
	memset(b, 'b', 24);
	a = arena_realloc(b, 64);
	CHECK(a != b && a == c + 8 + 8 && a[0] == 'b' && a[23] == 'b' && arena_size(a) == 64,
	    "a block that is not last moves to the end, its bytes kept");

	/* Past the arena: malloc's blocks, with malloc's sizes. */
	big = arena_malloc(16 << 20);
	CHECK(big != NULL && arena_size(big) >= 16 << 20, "a block larger than the arena comes from malloc");
	memset(big, 'x', 16 << 20);
	big = arena_realloc(big, 32 << 20);
	CHECK(big != NULL && big[(16 << 20) - 1] == 'x' && arena_size(big) >= 32 << 20,
	    "and grows with realloc");
	arena_free(big);
	ok = 1;
	for (i = 0; i < 2000; i++)   /* 16 MB: fills the rest of the 8 MB arena */
		if ((many[i] = arena_malloc(8192)) == NULL)
			ok = 0;
	after = many[1999];
	CHECK(ok && after != NULL && arena_size(after) >= 8192, "allocations go on once the arena is full");
	memset(after, 1, 8192);
	c = many[0];
	many[0] = arena_realloc(c, 16384);
	CHECK(many[0] != NULL && many[0] != c, "an arena block moves to malloc when the arena is full");
	for (i = 0; i < 2000; i++)
		arena_free(many[i]);
	UNIT_DONE();
}
