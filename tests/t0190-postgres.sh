#!/bin/bash
# t0190-postgres.sh: what only the PostgreSQL store has to prove (the rest
# of the suite runs on it as on SQLite): 16 processes writing 500 consents
# at once through pgbouncer lose none and count the month's visitors
# exactly; the server or pgbouncer down, stopped or frozen gives 500
# "Internal server error" within the request's bound (10 s, common/store/pg/pg_store.h
# PG_REQUEST_MS) with one line on stderr, never a hung process, and the
# next request after they are back is served; the endpoints' sandbox lets
# them reach a Unix socket and nothing else; no raw anon_id is stored (a
# pg_dump of the database holds none).
# serial: 16 writers at once, and requests timed against their bounds
. "$(dirname "$0")/setup.sh"

if ! store_is_postgres; then
	skip "t0190-postgres.sh: the PostgreSQL store only (CONSENT_TEST_STORE=postgres, make test-pg)"
	exit 0
fi
PGSH="$TOP/tests/pg.sh"
# Whatever happens, the run's cluster is whole again for the next file.
trap 'sh "$PGSH" resume "$CONSENT_PG_DIR" postgres >/dev/null 2>&1
      sh "$PGSH" resume "$CONSENT_PG_DIR" pgbouncer >/dev/null 2>&1
      sh "$PGSH" start-part "$CONSENT_PG_DIR" postgres >/dev/null 2>&1
      sh "$PGSH" start-part "$CONSENT_PG_DIR" pgbouncer >/dev/null 2>&1
      _cleanup' EXIT

site s1
q() { pg_psql "$PG_DB" -Atc "$1"; }

# --- 16 writers, 500 consents, 200 visitors ---------------------------------
consent_body() { # anon_id
	printf '{"site_key":"s1","anon_id":"%s","categories":{"necessary":true,"analytics":false},"event_type":"initial","event_action":"opt_out"}' "$1"
}
writer() { # n: this writer's share of the 500
	local i rc
	for i in $(seq "$1" 16 500); do
		consent_body "visitor-$((i % 200))" > "$T/w$1.body"
		env -i REQUEST_METHOD=POST GATEWAY_INTERFACE=CGI/1.1 SERVER_PROTOCOL=HTTP/1.1 \
		    SCRIPT_NAME=/functions/v1/consent REMOTE_ADDR=127.0.0.1 HTTP_ORIGIN=https://example.com \
		    CONTENT_TYPE=application/json CONTENT_LENGTH="$(wc -c < "$T/w$1.body")" \
		    CONSENT_DB="$CONSENT_DB" "$CGI_BIN/consent" < "$T/w$1.body" 2>>"$T/w$1.err" |
		    sed -n 's/^Status: \([0-9]*\).*/\1/p' >> "$T/w$1.status"
	done
}
fcgi_proc_ready consent
t0=$(date +%s%N)
for w in $(seq 1 16); do writer "$w" & done
wait
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
cat "$T"/w*.status | sort | uniq -c > "$T/statuses"
check test "$(cat "$T"/w*.status | grep -c '^201$')" = 500 "16 writers: 500 consents answered 201 in $ms ms ($(tr -s ' \n' ' ' < "$T/statuses"))"
check test "$(cat "$T"/w*.err | grep -c .)" = 0 "16 writers: nothing on stderr ($(cat "$T"/w*.err | head -c 200))"
check test "$(q "SELECT count(*) FROM consent_log")" = 500 "all 500 entries are stored"
check test "$(q "SELECT count(*) FROM mau_visitors")" = 200 "200 visitors in the month's set"
check test "$(q "SELECT sum(visitors) FROM mau_counts")" = 200 "the month's count, summed over its slots, is exactly 200"
check test "$(q "SELECT count(*) > 1 FROM mau_counts")" = t "the count is spread over several rows (no one hot row)"
ctl site show s1 --json > "$T/show"
check test "$(jq .mau "$T/show")" = 200 "consentctl site show: mau 200"

# --- no raw anon_id stored --------------------------------------------------
pg_dump -h "$CONSENT_PG_DIR" -p 5432 -U postgres "$PG_DB" > "$T/dump" 2>"$T/dump.err"
check test -s "$T/dump" "pg_dump of the database ($(head -c 100 "$T/dump.err"))"
check test "$(grep -c 'visitor-' "$T/dump")" = 0 "the dump holds no raw anon_id (visitor-N)"
check test "$(grep -c "$(printf 'visitor-7' | sha256sum | cut -c1-64)" "$T/dump")" -gt 0 "it holds their SHA-256"

# --- the schema: init under an advisory lock, a newer one refused ----------
# Four inits at once on the database (every one in one transaction under
# the same pg_advisory_xact_lock): all succeed, the schema is there once.
for i in 1 2 3 4; do ctl init > "$T/init$i.out" 2> "$T/init$i.err" & done
wait
check test "$(cat "$T"/init?.err | grep -c .)" = 0 "4 inits at once: none failed ($(cat "$T"/init?.err | head -c 200))"
check test "$(q "SELECT count(*) FROM schema_version")" = 1 "the schema version is recorded once"
check test "$(q "SELECT version FROM schema_version")" = "$(sed -n 's/^PRAGMA user_version = \([0-9]*\);/\1/p' "$TOP/schema.sql")" \
    "schema_pg.sql's version is schema.sql's user_version"
q "UPDATE schema_version SET version = version + 1" > /dev/null
ctl init > "$T/out" 2> "$T/err"
rc=$?
check test "$rc" = 1 -a "$(grep -c . "$T/err")" = 1 "init refuses a newer schema in one line ($(head -c 200 "$T/err"))"
q "UPDATE schema_version SET version = version - 1" > /dev/null
# A fresh database that holds a table of the same name: init changes nothing.
other=$(pg_new_db t0190_other)
odb=$(printf '%s' "$other" | sed 's/.*dbname=\([^ ]*\).*/\1/')
pg_psql "$odb" -qc "CREATE TABLE sites (x int)"
ctl --db "$other" init > "$T/out" 2> "$T/err"
rc=$?
check test "$rc" = 1 -a "$(grep -c . "$T/err")" = 1 "init into a database with a table of its own name: refused in one line ($(head -c 200 "$T/err"))"
check test "$(pg_psql "$odb" -Atc "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")" = 1 \
    "and nothing of its schema was left (one transaction)"
pg_drop_db "$odb" > /dev/null 2>&1

# --- the sandbox: a Unix socket yes, a network socket no --------------------
# The endpoints reach pgbouncer through its socket under the filter (all of
# the above).  A TCP host is refused by the filter: 500 at once, one line.
if fcgi_mode; then
	skip "a TCP host under the filter: CGI mode only (a FastCGI process keeps its connection)"
else
	t0=$(date +%s%N)
	cgi CONSENT_DB="host=127.0.0.1 port=6432 dbname=$PG_DB user=consent connect_timeout=2" GET config "site_key=s1"
	ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	expect_error 500 "Internal server error" "a TCP host: 500"
	check test "$(grep -c . "$T/stderr")" = 1 "a TCP host: one stderr line ($(head -c 200 "$T/stderr"))"
	check grep -q 'Operation not permitted' "$T/stderr" "a TCP host: the filter refused the socket"
	check test "$ms" -lt 2000 "a TCP host: answered in $ms ms"
fi

# --- failures: each answered 500 within the bound, one line, then served ----
served() { # DESC: the three endpoints answer as usual
	cgi GET config "site_key=s1"
	expect_status 200 "$1: config 200"
	cgi POST consent "" "$(consent_body after)"
	expect_status 201 "$1: consent 201"
	cgi POST scripts "" '{"site_key":"s1","page_url":"https://example.com/","timestamp":1,"scripts":[]}'
	expect_status 200 "$1: scripts 200"
}
failing() { # DESC MAX_MS: every endpoint answers 500 within MAX_MS, one stderr line each
	local e t0 ms
	for e in config consent scripts; do
		t0=$(date +%s%N)
		case $e in
		config) cgi GET config "site_key=s1" ;;
		consent) cgi POST consent "" "$(consent_body down)" ;;
		scripts) cgi POST scripts "" '{"site_key":"s1","page_url":"https://example.com/","timestamp":1,"scripts":[]}' ;;
		esac
		ms=$(( ($(date +%s%N) - t0) / 1000000 ))
		expect_error 500 "Internal server error" "$1: $e 500"
		check test "$ms" -lt "$2" "$1: $e answered in $ms ms (bound $2)"
		check test "$(grep -c . "$T/stderr")" = 1 "$1: $e: one stderr line ($(head -c 200 "$T/stderr"))"
		check grep -q 'PostgreSQL: ' "$T/stderr" "$1: $e: the line names PostgreSQL"
	done
}

# Back: pgbouncer reconnects to the server on the next request once its
# server_login_retry (1 s, pgbouncer/pgbouncer.ini) has passed since the
# last failed login; the first request may still meet that window.
back() { # DESC
	local i
	for i in $(seq 1 40); do
		cgi GET config "site_key=s1"
		[ "$(cat "$T/status")" = 200 ] && break
		sleep 0.25
	done
	check test "$(cat "$T/status")" = 200 "$1: served again within $((i * 250)) ms"
	served "$1"
}

served "before the failures"

sh "$PGSH" stop-part "$CONSENT_PG_DIR" pgbouncer
failing "pgbouncer stopped" 2000
sh "$PGSH" start-part "$CONSENT_PG_DIR" pgbouncer
back "pgbouncer started again"

sh "$PGSH" stop-part "$CONSENT_PG_DIR" postgres
failing "the server stopped (pgbouncer up)" 11000
sh "$PGSH" start-part "$CONSENT_PG_DIR" postgres
back "the server started again"

sh "$PGSH" pause "$CONSENT_PG_DIR" postgres
failing "the server frozen (SIGSTOP)" 11000
sh "$PGSH" resume "$CONSENT_PG_DIR" postgres
back "the server thawed"

sh "$PGSH" pause "$CONSENT_PG_DIR" pgbouncer
failing "pgbouncer frozen (SIGSTOP)" 11000
sh "$PGSH" resume "$CONSENT_PG_DIR" pgbouncer
back "pgbouncer thawed"

# No endpoint process is left waiting on any of it (in FastCGI mode the
# test's own processes run until the end of the file, and must then exit 0).
if ! fcgi_mode; then
	left=""
	for pid in $(pgrep -f "$BUILD/cgi-bin/"); do   # of this file: its database
		tr '\0' '\n' < "/proc/$pid/environ" 2>/dev/null | grep -qxF "CONSENT_DB=$CONSENT_DB" && left="$left $pid"
	done
	check test -z "$left" "no endpoint process left running ($left)"
fi
