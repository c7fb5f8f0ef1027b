#!/bin/bash
# t0055-fast-build.sh: the default build is the fast one (issue 14): fully
# static endpoints linking the lean SQLite of tools/static-libs.sh, whose
# commits use fdatasync (configure's sqlite_cfg.h: without it SQLite falls
# back to fsync, and to sleeps of whole seconds, which test_sqlite checks);
# and CONSENT_SYNC: a commit waits for fdatasync unless it says normal
# (the SQLite store's: on PostgreSQL the server syncs, and that part is
# skipped).
. "$(dirname "$0")/setup.sh"

# Static: only for the default build (the sanitizer and valgrind builds
# link shared).
if [ "${SANITIZED:-0}" = 1 ] || [ "${VALGRIND:-0}" = 1 ]; then
	skip "the sanitizer and valgrind builds link shared libraries: no static check"
elif store_is_postgres && ! sh "$TOP/tools/static-libs.sh" --check "$TOP/build/static" cjson pq 2>/dev/null; then
	# The lean libpq needs a source of the installed libpq-dev's major
	# version on the mirror (its own, else the newest of that major), and
	# libpq-dev installed: without it the PostgreSQL endpoints link
	# Debian's libpq, shared (make says so), and still work.
	skip "no current static libpq in build/static (sh tools/static-libs.sh: it needs a source of the installed libpq-dev's major version on the mirror): the PostgreSQL endpoints link libpq shared"
elif ! sh "$TOP/tools/static-libs.sh" --check "$TOP/build/static" 2>/dev/null; then
	if [ "${CI:-}" = true ]; then
		notok "no current static archives in build/static (sh tools/static-libs.sh): required when CI=true"
	else
		skip "no current static archives in build/static (sh tools/static-libs.sh): the build is not fully static"
	fi
elif [ -f "$BUILD/obj/flags.stamp" ] && ! grep -q -- '-static ' "$BUILD/obj/flags.stamp"; then
	# The link line make recorded: a build made with STATIC=0 links shared.
	if [ "${CI:-}" = true ]; then
		notok "this build is not linked static (STATIC=0?): CI must test the default build"
	else
		skip "this build was made linked shared (STATIC=0): no static check"
	fi
else
	for b in cgi-bin/config cgi-bin/consent cgi-bin/scripts; do
		if LC_ALL=C readelf -lW "$BUILD/$b" 2>/dev/null | grep -q 'Requesting program interpreter\|INTERP'; then
			notok "$b is dynamically linked"
		elif ! LC_ALL=C readelf -hW "$BUILD/$b" 2>/dev/null | grep -q 'Type:.*EXEC\|Type:.*DYN'; then
			notok "$b is not an executable readelf can read"
		else
			ok "$b is fully static (no program interpreter)"
		fi
	done
	# consentctl holds both stores: libpq has no static archive that links
	# without the server's development files, so it is linked shared.
	check sh -c "LC_ALL=C readelf -dW '$BUILD/bin/consentctl' | grep -q 'NEEDED.*libpq'" \
	    "consentctl links libpq (shared): it holds both stores"
	if store_is_postgres; then
		# The lean libpq of static-libs.sh: no GSSAPI, LDAP or OpenSSL in it.
		check sh -c "! grep -aq 'gss_init_sec_context\|ldap_init\|SSL_CTX_new' '$BUILD/cgi-bin/config'" \
		    "config links the lean libpq (no GSSAPI, LDAP or OpenSSL's TLS)"
	else
		# SQLite keeps its compile options as strings: the lean set is linked.
		check grep -aq OMIT_PROGRESS_CALLBACK "$BUILD/cgi-bin/consent" "consent links the lean SQLite (OMIT_PROGRESS_CALLBACK)"
		check grep -aq THREADSAFE=0 "$BUILD/cgi-bin/config" "config links the lean SQLite (THREADSAFE=0)"
	fi
fi

# The link line make chooses (make -n: nothing is built): the archives when
# they are current, else today's build and exactly one line saying so.
mkn() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$TOP" --no-print-directory -n "$@" 2>&1; }
mkn B="$T/nb" STATIC_DIR="$T/none" "$T/nb/cgi-bin/config" > "$T/make-none"
check test "$(grep -c '^make: no current static archives' "$T/make-none")" = 1 "without the archives make says so in one line"
check grep -q -- '-Wl,-Bdynamic -lcjson' "$T/make-none" "and links cJSON and glibc shared"
mkn B="$T/nb" STATIC=0 "$T/nb/cgi-bin/config" > "$T/make-shared"
check test "$(grep -c '^make: no current static archives' "$T/make-shared")" = 0 "STATIC=0: no such line"
mkn B="$T/nb" SAN=1 "$T/nb/cgi-bin/config" > "$T/make-san"
check test "$(grep -c '^make: no current static archives' "$T/make-san")" = 0 "SAN=1: no such line"
if sh "$TOP/tools/static-libs.sh" --check "$TOP/build/static" 2>/dev/null; then
	mkn B="$T/sb" "$T/sb/cgi-bin/config" > "$T/make-static"
	check test "$(grep -c '^make: no current static archives' "$T/make-static")" = 0 "with the archives: no such line"
	check grep -q -- '-static build/static/libsqlite3.a build/static/libcjson.a' "$T/make-static" \
	    "and the link is fully static with both archives"
fi

# The SQLite the programs link: the lean archive when it is current (what a
# plain make links), else Debian's.  tests/fixtures/sqlite-probe.c checks
# it sleeps less than a second (sqlite_cfg.h's HAVE_USLEEP), has the JSON
# functions and secure_delete on by default, and is its header's version.
if [ "${SANITIZED:-0}" = 1 ]; then
	skip "the SQLite probe: not for the sanitizer build"
else
	if sh "$TOP/tools/static-libs.sh" --check "$TOP/build/static" 2>/dev/null; then
		set -- -static "$TOP/build/static/libsqlite3.a" -lm
		what="the lean SQLite of build/static"
	else
		set -- -lsqlite3
		what="Debian's SQLite"
	fi
	if cc -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -o "$T/sqlite-probe" \
	    "$TOP/tests/fixtures/sqlite-probe.c" "$@" 2> "$T/probe.cc"; then
		ok "a probe links $what"
		"$T/sqlite-probe" > "$T/probe.out"
		sed 's/^\(ok\|not ok\) - /\1 - SQLite: /' "$T/probe.out"
		check test "$(grep -c '^ok' "$T/probe.out")" -ge 8 "the probe ran all its checks"
	else
		notok "a probe links $what: $(head -n 3 "$T/probe.cc" | tr '\n' ' ')"
	fi
fi

site s1
# commit_syncs NAME [VAR=value]...: one consent POST through the consent
# binary under strace; leaves the sync calls it made in $T/NAME.sync and the
# status in $T/status.  (LeakSanitizer cannot run under ptrace: off.)
commit_syncs() {
	local name=$1
	shift
	printf '{"site_key":"s1","anon_id":"%s","categories":{"necessary":true},"event_type":"initial"}' \
	    "sync-$name" > "$T/request"
	env -i REQUEST_METHOD=POST QUERY_STRING= GATEWAY_INTERFACE=CGI/1.1 \
	    SERVER_PROTOCOL=HTTP/1.1 SCRIPT_NAME=/functions/v1/consent REMOTE_ADDR=127.0.0.1 \
	    PATH="$PATH" CONSENT_DB="$CONSENT_DB" HTTP_ORIGIN=https://example.com \
	    CONTENT_TYPE=application/json CONTENT_LENGTH="$(wc -c < "$T/request" | tr -d ' ')" \
	    ASAN_OPTIONS=detect_leaks=0 "$@" \
	    strace -f -qq -e trace="${SYNC_TRACE:-fsync,fdatasync,sync_file_range}" \
	    ${SYNC_INJECT:+-e inject="$SYNC_INJECT"} -o "$T/$name.trace" \
	    "$BUILD/cgi-bin/consent" < "$T/request" > "$T/out" 2> "$T/$name.stderr"
	sed -n 's/^Status: \([0-9]*\).*/\1/p' "$T/out" | tr -d '\r' > "$T/status"
	grep -o 'fsync\|fdatasync\|sync_file_range' "$T/$name.trace" | sort | uniq -c > "$T/$name.sync"
}

if store_is_postgres; then
	skip "the commit's syncs (CONSENT_SYNC): SQLite only (the endpoint's own fdatasync of the database file; PostgreSQL's server makes its commits durable)"
elif ! command -v strace >/dev/null 2>&1 || ! strace -qq -o /dev/null true 2>/dev/null; then
	if [ "${CI:-}" = true ]; then
		notok "strace is missing or cannot trace (sh tools/deps.sh): required when CI=true"
	else
		skip "strace is missing or cannot trace: the commit's syncs are not checked"
	fi
else
	# The WAL checkpointed and emptied first, so that no commit below is
	# the one that reaches WAL_CHECKPOINT_FRAMES (the checkpoint syncs the
	# WAL and the database whatever CONSENT_SYNC says): how many frames
	# init and site add leave depends on the built-in texts they store.
	sqlite3 "$CONSENT_DB" 'PRAGMA wal_checkpoint(TRUNCATE);' > /dev/null
	commit_syncs unset
	check test "$(cat "$T/status")" = 201 "CONSENT_SYNC unset: 201"
	check grep -q fdatasync "$T/unset.sync" "CONSENT_SYNC unset: the commit calls fdatasync ($(tr -s ' \n' ' ' < "$T/unset.sync"))"
	commit_syncs full CONSENT_SYNC=full
	check test "$(cat "$T/status")" = 201 "CONSENT_SYNC=full: 201"
	check grep -q fdatasync "$T/full.sync" "CONSENT_SYNC=full: the commit calls fdatasync"
	check test ! -s "$T/full.stderr" "CONSENT_SYNC=full: nothing on stderr"
	commit_syncs normal CONSENT_SYNC=normal
	check test "$(cat "$T/status")" = 201 "CONSENT_SYNC=normal: 201"
	check test ! -s "$T/normal.sync" "CONSENT_SYNC=normal: the commit syncs nothing ($(tr -s ' \n' ' ' < "$T/normal.sync"))"
	check test ! -s "$T/normal.stderr" "CONSENT_SYNC=normal: nothing on stderr"
	commit_syncs bad CONSENT_SYNC=sometimes
	check test "$(cat "$T/status")" = 201 "CONSENT_SYNC=sometimes: 201"
	check test "$(wc -l < "$T/bad.stderr")" = 1 "CONSENT_SYNC=sometimes: one line on stderr"
	check grep -q 'CONSENT_SYNC' "$T/bad.stderr" "which names CONSENT_SYNC"
	check grep -q fdatasync "$T/bad.sync" "CONSENT_SYNC=sometimes: counts as full (fdatasync)"
	# The order of one commit (CONSENT_SYNC unset): the WAL's frames
	# written, the write lock released (SQLite's WAL write lock is the byte
	# at 120 of the -shm file), then the sync, then the answer.  Other
	# writers need not wait for this one's sync; the 201 still waits for it.
	SYNC_TRACE=pwrite64,fcntl,fdatasync,fsync,write commit_syncs order
	check test "$(cat "$T/status")" = 201 "the traced commit: 201"
	# (A commit that starts the WAL afresh syncs its header first, under
	# the lock: SQLite's own; the commit's sync is the one after its last
	# frame.)
	awk '{ sub(/^[0-9]+ +/, "") }
	     /^pwrite64\(/ { last_write = NR; first_sync = 0; unlock = 0 }
	     /F_UNLCK, l_whence=SEEK_SET, l_start=120, l_len=1/ { if (!first_sync) unlock = NR }
	     /^f(data)?sync\(/ { if (!first_sync) first_sync = NR; last_sync = NR }
	     /^write\(1, "Status: 201/ { answer = NR; exit }
	     END { printf "%d %d %d %d %d\n", last_write, unlock, first_sync, last_sync, answer }' \
	    "$T/order.trace" > "$T/order"
	read -r w u f l a < "$T/order"
	check test "$w" -gt 0 -a "$u" -gt "$w" -a "$f" -gt "$u" \
	    "the commit releases the write lock after its last WAL frame and before its sync (lines $w, $u, $f of the trace)"
	check test "$l" -gt 0 -a "$a" -gt "$l" "the 201 is written after the commit's sync (lines $l, $a of the trace)"
	# A sync that fails (EIO): the request answers 500, never 201, with one
	# line on stderr.  (The entry may be in the log nonetheless, as it was
	# with SQLite's synchronous=FULL: the frames were written.)
	SYNC_INJECT=fdatasync:error=EIO commit_syncs eio
	check test "$(cat "$T/status")" = 500 "fdatasync fails with EIO: 500 (got $(cat "$T/status"))"
	check grep -q '{"error":"Internal server error"}' "$T/out" "fdatasync fails: the body is the API's 500"
	check test "$(wc -l < "$T/eio.stderr")" = 1 "fdatasync fails: one line on stderr ($(head -c 200 "$T/eio.stderr"))"
	ctl consent export s1 > "$T/export" 2>/dev/null
	for n in unset full normal bad order; do
		h=$(printf '%s' "sync-$n" | sha256sum | cut -d' ' -f1)
		check grep -q "\"anon_id_hash\":\"$h\"" "$T/export" "the entry of CONSENT_SYNC=$n is stored"
	done
fi
