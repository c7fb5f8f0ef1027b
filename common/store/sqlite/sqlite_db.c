/* sqlite_db.c: opening the SQLite file and the few calls every statement needs. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "store/sqlite/sqlite_db.h"
#include "base/io.h"
#include "base/limits.h"
#include "base/log.h"

void
sqlite_db_log(sqlite3 *db, const char *what)
{
	log_error("database: %s: %s", what, db ? sqlite3_errmsg(db) : "out of memory");
}

static int64_t
now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/*
 * Wait for the write lock in short, jittered sleeps (0.2 to 2 ms) until
 * DB_BUSY_TIMEOUT_MS has passed.  SQLite's own handler backs off to 100 ms
 * sleeps, so with many writers the lock sits free while they sleep and the
 * later ones time out; a write transaction here lasts well under a
 * millisecond, so polling often is what keeps a burst of consents moving.
 * The two statics outlive a request in a FastCGI process, and may: start
 * is set again whenever a wait begins (count 0), and seed is jitter that
 * carries nothing of any request.
 */
static int
busy_wait(void *arg, int count)
{
	static int64_t start;
	static unsigned int seed;
	struct timespec ts;

	(void)arg;
	if (count == 0) {
		start = now_us();
		seed ^= (unsigned int)start ^ (unsigned int)getpid();
	}
	if (now_us() - start > (int64_t)DB_BUSY_TIMEOUT_MS * 1000)
		return 0;
	seed = seed * 1103515245u + 12345u;
	ts.tv_sec = 0;
	ts.tv_nsec = (long)(200 + (seed >> 8) % (count < 10 ? 200 * (count + 1) : 1800)) * 1000L;
	nanosleep(&ts, NULL);
	return 1;
}

/*
 * The WAL's new frames to disk (fdatasync, through SQLite's own handle of
 * the WAL), for a commit that has just released the write lock: what
 * synchronous=FULL would have done before releasing it.  fdatasync writes
 * every dirty page of the file, so frames of other writers' commits go
 * with ours.  SQLITE_OK, or the error that makes the COMMIT report a
 * failure although it is in the WAL (sqlite_db_commit logs it; the request
 * answers 500 and no 201 is ever sent for an entry not known on disk).
 * The database is in WAL mode (consentctl init), where NORMAL never risks
 * its integrity, only the durability this restores.
 */
static int
sync_wal(sqlite3 *db, const char *name)
{
	sqlite3_file *f = NULL;

	if (sqlite3_file_control(db, name, SQLITE_FCNTL_JOURNAL_POINTER, &f) != SQLITE_OK ||
	    f == NULL || f->pMethods == NULL)
		return SQLITE_IOERR_FSYNC;
	return f->pMethods->xSync(f, SQLITE_SYNC_NORMAL);
}

/*
 * After a commit that leaves WAL_CHECKPOINT_FRAMES or more frames in the
 * WAL: checkpoint and truncate the WAL to zero bytes.  SQLite's automatic
 * checkpoint does not work for processes that each open the database once:
 * the first connection rebuilds the WAL index from the whole WAL, which
 * forgets what was checkpointed, so the WAL never restarts, grows without
 * bound, and every request reads all of it.  The checkpoint waits for no
 * one (no busy handler): when other connections are busy it copies what it
 * can and leaves the truncation to a later commit, and while connections
 * overlap their shared WAL index lets SQLite restart the WAL itself.
 *
 * A long-lived (FastCGI) process keeps its connection, and with it the WAL
 * index, so it restarts the WAL instead (SQLITE_CHECKPOINT_RESTART): the
 * next commits overwrite the WAL from its start rather than append to an
 * emptied file, and a synced write that does not change the file's size
 * writes no inode (no new size to record): 0.15 against 0.26 to 0.40 ms per
 * fdatasync here (docs/performance.md), the time every writer waits for
 * the write lock.  journal_size_limit (set_persistent) keeps that WAL
 * from staying large after a big transaction.
 *
 * arg is non-NULL when each commit is synced here first (sync_wal).
 */
static int
wal_checkpoint(void *arg, sqlite3 *db, const char *name, int frames)
{
	if (arg != NULL) {
		int rc = sync_wal(db, name);

		if (rc != SQLITE_OK)
			return rc;
	}
	if (frames >= WAL_CHECKPOINT_FRAMES) {
		sqlite3_busy_handler(db, NULL, NULL);
		sqlite3_wal_checkpoint_v2(db, name, io_persistent() ? SQLITE_CHECKPOINT_RESTART :
		                          SQLITE_CHECKPOINT_TRUNCATE, NULL, NULL);
		sqlite3_busy_handler(db, busy_wait, NULL);
	}
	return SQLITE_OK;
}

int
sqlite_db_may_write(const char *path)
{
	return access(path, W_OK);
}

/*
 * How a writer's commit reaches the disk, from CONSENT_SYNC (consent(8),
 * ENVIRONMENT).  Unset, empty or "full": every commit's WAL frames are
 * synced (fdatasync) before the commit returns, so a 201 means the entry
 * is on disk; but the sync comes after SQLite has released the write lock
 * (synchronous=NORMAL, then sync_wal from the WAL hook), so that other
 * writers write while this one waits for the disk, and their syncs
 * overlap instead of queueing behind the lock (but for a database being
 * created, which keeps synchronous=FULL).  "normal": the commits are
 * not synced; the WAL is synced only at checkpoints: a crash of the process
 * still loses nothing, but a crash of the machine or a power cut can lose
 * the last commits already answered.  Anything else is reported in one
 * line and counts as "full".  Returns 1 for "normal", 0 for "full".
 */
static int
sync_normal(void)
{
	const char *v = io_env("CONSENT_SYNC");

	if (v == NULL || *v == '\0' || strcasecmp(v, "full") == 0)
		return 0;
	if (strcasecmp(v, "normal") == 0)
		return 1;
	log_error("CONSENT_SYNC is neither full nor normal; using full");
	return 0;
}

/* A long-lived (FastCGI) process's connection: its page cache
 * (DB_PERSISTENT_CACHE_KIB) and the size its restarted WAL is cut back to
 * (DB_PERSISTENT_WAL_LIMIT, see wal_checkpoint). */
static int
set_persistent(sqlite3 *db)
{
	char sql[96];

	snprintf(sql, sizeof(sql), "PRAGMA cache_size=-%d; PRAGMA journal_size_limit=%d",
	         DB_PERSISTENT_CACHE_KIB, DB_PERSISTENT_WAL_LIMIT);
	return sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

/*
 * One way in (Fossil db.c): explicit open flags, no shared cache, no URI
 * filenames, and the connection hardened before the first statement runs.
 * Without SQLITE_OPEN_CREATE a missing file is an error: the endpoints
 * never create a database by accident in the wrong place.
 */
int
sqlite_db_open(const char *path, int flags, sqlite3 **out)
{
	sqlite3 *db = NULL;
	int create = (flags & SQLITE_OPEN_CREATE) != 0;
	int writer = (flags & SQLITE_OPEN_READWRITE) != 0;
	int normal = writer && sync_normal();
	/* A database being created (consentctl init) is not in WAL mode yet:
	 * its first commits keep SQLite's own synchronous=FULL. */
	int late_sync = writer && !create && !normal;
	int rc;

	*out = NULL;
	flags |= SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_PRIVATECACHE;
	/*
	 * A database file this process may not write is refused before SQLite
	 * sees it, by readers too: on open SQLite gives an empty -wal the
	 * database file's mode (unix robust_open), so one request against a
	 * file made 0444 would leave a 0444 -wal behind and keep every writer
	 * failing after the mode is restored.  Root, who ignores modes, still
	 * meets a read-only mount here (EROFS).
	 */
	if (sqlite_db_may_write(path) != 0 && !(create && errno == ENOENT)) {
		log_error("database %s: %s", path, strerror(errno));
		return -1;
	}
	rc = sqlite3_open_v2(path, &db, flags, NULL);
	if (rc != SQLITE_OK) {
		log_error("database %s: %s", path, db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
		sqlite3_close(db);
		return -1;
	}
	sqlite3_extended_result_codes(db, 1);
	sqlite3_busy_handler(db, busy_wait, NULL);
	if (writer)
		sqlite3_wal_hook(db, wal_checkpoint, late_sync ? (void *)db : NULL);
	sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
	sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
	sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, NULL);
	sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_VIEW, 0, NULL);
	/* Every CGI process is usually the last connection to close; without
	 * this each close would checkpoint the whole WAL into the database
	 * (three more fsyncs per request).  The WAL is checkpointed instead by
	 * the WAL hook above (wal_checkpoint), once a commit leaves
	 * WAL_CHECKPOINT_FRAMES frames in it.  Commits are synced by that
	 * hook too, after the write lock is released (a 201 means the entry
	 * is on disk), unless CONSENT_SYNC says normal (sync_normal). */
	sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, NULL);
	if (io_persistent() && set_persistent(db) != 0) {
		sqlite_db_log(db, path);
		sqlite3_close(db);
		return -1;
	}
	if (writer &&
	    (sqlite3_exec(db, "PRAGMA foreign_keys=ON", NULL, NULL, NULL) != SQLITE_OK ||
	     ((normal || late_sync) &&
	      sqlite3_exec(db, "PRAGMA synchronous=NORMAL", NULL, NULL, NULL) != SQLITE_OK))) {
		sqlite_db_log(db, path);
		sqlite3_close(db);
		return -1;
	}
	*out = db;
	return 0;
}

int
sqlite_db_prepare(sqlite3 *db, const char *sql, sqlite3_stmt **st)
{
	if (sqlite3_prepare_v2(db, sql, -1, st, NULL) != SQLITE_OK) {
		sqlite_db_log(db, "prepare");
		*st = NULL;
		return -1;
	}
	return 0;
}

int
sqlite_db_begin(sqlite3 *db)
{
	/* IMMEDIATE takes the write lock now, so the busy timeout applies here
	 * and never to a later statement of the transaction. */
	if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
		sqlite_db_log(db, "begin");
		return -1;
	}
	return 0;
}

int
sqlite_db_commit(sqlite3 *db)
{
	if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		sqlite_db_log(db, "commit");
		sqlite_db_rollback(db);
		return -1;
	}
	return 0;
}

void
sqlite_db_rollback(sqlite3 *db)
{
	if (!sqlite3_get_autocommit(db))
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
}

int
sqlite_db_bind_text(sqlite3_stmt *st, int i, const char *s)
{
	if (s == NULL)
		return sqlite3_bind_null(st, i);
	return sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC);
}
