/* sqlite_mem.c: SQLite's memory in a process that answers one request and exits. */
#include <stddef.h>

#include <sqlite3.h>

#include "base/arena.h"
#include "store/sqlite/sqlite_db.h"

/* Under AddressSanitizer SQLite keeps malloc, so that ASan sees its heap. */
#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define SANITIZED 1
#endif
#endif

#ifndef SANITIZED
static int
arena_init(void *arg)
{
	(void)arg;
	return SQLITE_OK;
}

static void
arena_shutdown(void *arg)
{
	(void)arg;
}
#endif

int
sqlite_mem_one_request(void)
{
#ifdef SANITIZED
	return 0;
#else
	static const sqlite3_mem_methods m = {
		arena_malloc, arena_free, arena_realloc, arena_size, arena_roundup,
		arena_init, arena_shutdown, NULL
	};

	/* SQLITE_MISUSE once SQLite is initialised: it keeps what it has. */
	return sqlite3_config(SQLITE_CONFIG_MALLOC, &m) == SQLITE_OK;
#endif
}
