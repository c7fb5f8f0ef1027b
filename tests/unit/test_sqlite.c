/* test_sqlite.c: the SQLite the programs link (the same $(LIBS)) has what
 * the code relies on: sleeps shorter than a second (configure's
 * sqlite_cfg.h: HAVE_USLEEP, else SQLite sleeps whole seconds while it
 * waits, e.g. to read a WAL another process is recovering), the JSON
 * functions, secure_delete by default (as Debian builds it), and the
 * library is the version of the header compiled against. */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "unit.h"

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

/* The text of the first column of the first row of sql ("(error)"). */
static const char *
one(sqlite3 *db, const char *sql)
{
	static char buf[256];
	sqlite3_stmt *st = NULL;

	snprintf(buf, sizeof(buf), "(error)");
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW &&
	    sqlite3_column_text(st, 0) != NULL)
		snprintf(buf, sizeof(buf), "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return buf;
}

int
main(void)
{
	sqlite3 *db = NULL;
	double t0, ms;
	int slept;
	char what[128];

	CHECK_STR(sqlite3_libversion(), SQLITE_VERSION, "the library is the header's version");
	CHECK_STR(sqlite3_sourceid(), SQLITE_SOURCE_ID, "and the header's source id");

	t0 = now_ms();
	slept = sqlite3_sleep(1);
	ms = now_ms() - t0;
	snprintf(what, sizeof(what), "sqlite3_sleep(1) sleeps under a second (said %d ms)", slept);
	CHECK(slept < 1000, what);
	snprintf(what, sizeof(what), "and returns well under a second (%.1f ms)", ms);
	CHECK(ms < 500.0, what);

	CHECK(sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) ==
	    SQLITE_OK, "an in-memory database opens");
	CHECK_STR(one(db, "SELECT json_extract('{\"a\":{\"b\":7}}', '$.a.b')"), "7", "json_extract");
	CHECK_STR(one(db, "SELECT group_concat(key || '=' || value) FROM json_each('{\"x\":1,\"y\":true}')"),
	    "x=1,y=1", "json_each");
	CHECK_STR(one(db, "SELECT json_object('k', json_valid('[1]'))"), "{\"k\":1}",
	    "json_object and json_valid");
	CHECK_STR(one(db, "PRAGMA secure_delete"), "1", "secure_delete is on by default, as Debian builds it");
	sqlite3_close(db);
	UNIT_DONE();
}
