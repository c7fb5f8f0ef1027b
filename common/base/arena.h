/* arena.h: memory for a process that answers one request and exits (SQLite's, sqlite_mem.c). */
#ifndef CONSENT_ARENA_H
#define CONSENT_ARENA_H

/*
 * malloc, free, realloc and the size of a block, as SQLite's allocator
 * interface has them (sizes in int, n > 0): a bump allocator over a static
 * 8 MB arena that gives back only its last block, and malloc's blocks once
 * the arena is full.  Any block of either kind may be passed to
 * arena_free, arena_realloc and arena_size.  A block is 8-byte aligned and
 * its size a multiple of 8 (arena_roundup).  One thread.
 */
void *arena_malloc(int n);
void arena_free(void *p);
void *arena_realloc(void *p, int n);
int arena_size(void *p);
int arena_roundup(int n);

#endif
