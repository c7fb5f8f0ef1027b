/* db.h: the SQLite connection under the store (only store*.c include this). */
#ifndef CONSENT_DB_H
#define CONSENT_DB_H

#include <sqlite3.h>

#include "store.h"

struct store {
	sqlite3 *db;
	const char *path;
};

/*
 * Open path with explicit flags for the mode: read-only, read-write, or
 * read-write-create; no URI names, no mutex (one thread), busy timeout
 * DB_BUSY_TIMEOUT_MS, SQLITE_DBCONFIG_DEFENSIVE on, trusted schema off,
 * foreign keys on.  Returns 0, or -1 with the cause on stderr.
 */
int db_open(const char *path, enum store_mode mode, sqlite3 **out);

/* Prepare one statement; -1 with the cause on stderr. */
int db_prepare(sqlite3 *db, const char *sql, sqlite3_stmt **st);

/* BEGIN IMMEDIATE / COMMIT / ROLLBACK; 0 or -1 (cause on stderr). */
int db_begin(sqlite3 *db);
int db_commit(sqlite3 *db);
void db_rollback(sqlite3 *db);

/* Report the connection's last error on stderr with what was being done. */
void db_log(sqlite3 *db, const char *what);

/* Bind text or NULL. */
int db_bind_text(sqlite3_stmt *st, int i, const char *s);

/* The current UTC time as "2026-11-22T10:00:00.123Z" and its month "2026-11". */
void db_now(char iso[32], char month[8]);

#endif
