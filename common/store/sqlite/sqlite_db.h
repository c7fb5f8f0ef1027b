/* sqlite_db.h: opening SQLite and the few calls every statement needs (the SQLite store's floor). */
#ifndef CONSENT_SQLITE_DB_H
#define CONSENT_SQLITE_DB_H

/*
 * Below the store: knows SQLite, nothing of sites, configs or requests.
 * Only the SQLite store (store/sqlite/, through sqlite_store.h) includes it.
 */

#include <sqlite3.h>

/*
 * Open path with SQLite's own flags (SQLITE_OPEN_READONLY, or
 * SQLITE_OPEN_READWRITE with or without SQLITE_OPEN_CREATE), to which
 * sqlite_db_open adds no mutex (one thread) and a private cache; no URI names.
 * Busy timeout DB_BUSY_TIMEOUT_MS, SQLITE_DBCONFIG_DEFENSIVE on, trusted
 * schema, triggers and views off; a writer also gets foreign keys on and
 * the WAL hook that checkpoints.  A file this process may not write is
 * refused before SQLite opens it, unless flags create it.  Returns 0, or
 * -1 with the cause on stderr.
 */
int sqlite_db_open(const char *path, int flags, sqlite3 **out);

/*
 * Whether this process may write the file at path (access(2), W_OK): 0, or
 * -1 with errno (EACCES, EROFS, ENOENT ...).  sqlite_db_open refuses a file it may
 * not write, readers too; a connection kept open from one request to the
 * next asks again before each, so it refuses what a new one would.
 */
int sqlite_db_may_write(const char *path);

/* Prepare one statement; -1 with the cause on stderr. */
int sqlite_db_prepare(sqlite3 *db, const char *sql, sqlite3_stmt **st);

/* BEGIN IMMEDIATE / COMMIT / ROLLBACK; 0 or -1 (cause on stderr). */
int sqlite_db_begin(sqlite3 *db);
int sqlite_db_commit(sqlite3 *db);
void sqlite_db_rollback(sqlite3 *db);

/* Report the connection's last error on stderr with what was being done. */
void sqlite_db_log(sqlite3 *db, const char *what);

/* Bind text or NULL. */
int sqlite_db_bind_text(sqlite3_stmt *st, int i, const char *s);

/*
 * SQLite's memory from the one-request arena (base/arena.h) for a process
 * that answers one request and exits, when called before SQLite's first
 * use: 1 when SQLite now allocates from it, 0 when it was too late or
 * under AddressSanitizer (which must see SQLite's heap).
 */
int sqlite_mem_one_request(void);

#endif
