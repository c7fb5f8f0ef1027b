#!/bin/bash
# t0920-crash.sh: consent writers killed with SIGKILL at every write of a
# request and at random points; afterwards the database opens, passes
# integrity_check, holds only whole entries, keeps its visitor counts
# consistent and has every entry that was answered 201 (issue 4; CONTRACT 7).
#
# Part 1 (needs strace) kills a writer at the Nth pwrite64, fdatasync,
# ftruncate, unlink and write of its request, one point per process: inside
# the transaction, during the commit, during the checkpoint at close and
# while the reply is written.  Part 2 runs CRASH_WRITERS writer loops at once,
# each CRASH_ROUNDS fresh processes, and kills two thirds of them after a
# random delay.  The writers run natively even under VALGRIND=1: a killed
# process leaves valgrind nothing to report.
#
# In FastCGI mode (CONSENT_TEST_MODE=fcgi) the writers are FastCGI processes:
# part 1 starts one under strace for each point, sends it the request, then
# SIGTERM (so that a point in the shutdown's checkpoint is reached too);
# part 2 gives each loop a long-lived process, sends it bursts of three
# requests and kills the process at random points of two thirds of the
# bursts (a kill lands between requests more often than inside one: at
# least one must land inside); the next burst is served by a new process.  A request refused
# because its process was already dead is neither killed nor answered.
#
# On PostgreSQL (CONSENT_TEST_STORE=postgres) the writer's own writes are the
# messages it sends the server: part 1 kills it at each sendto (the
# connection's start, each statement, the goodbye) and at the reply; the
# checks of what the kills left are the same, in PostgreSQL's SQL, but for
# integrity_check and foreign_key_check (the server checks its keys itself).
# serial: kills writers at delays measured from its own requests
. "$(dirname "$0")/setup.sh"
. "$(dirname "$0")/ctl-helpers.sh"

WRITERS=${CRASH_WRITERS:-4}
ROUNDS=${CRASH_ROUNDS:-60}
UA='Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0'
CATS='{"necessary":true,"functional":false,"analytics":false,"marketing":true}'

ctl site add crash --name Crash --domain example.com --tier paid >/dev/null
: > "$T/answered"    # ids whose request answered 201
: > "$T/killed"      # ids whose process died of SIGKILL
: > "$T/bad"         # ids whose process failed otherwise

# A complete entry: every field checked after the kills is sent.
body() {
	printf '{"site_key":"crash","anon_id":"%s","categories":%s,"event_type":"update","event_action":"partial","region":"gdpr","consent_model":"opt_in","time_to_action_ms":1500,"page_url":"https://example.com/k/%s","sdk_version":"1.0.0","language":"de","resolved_language":"de"}' "$1" "$CATS" "$1"
}

# writer ID [PREFIX...]: one consent POST in a fresh process, as a web server
# makes it, with PREFIX (e.g. strace) in front; sets $pid, leaves it running.
writer() {
	local id=$1
	shift
	body "$id" > "$T/req.$id"
	"$@" env -i REQUEST_METHOD=POST CONTENT_LENGTH="$(wc -c < "$T/req.$id" | tr -d ' ')" \
	    CONTENT_TYPE=application/json HTTP_ORIGIN=https://example.com \
	    HTTP_USER_AGENT="$UA" HTTP_CF_IPCOUNTRY=DE REMOTE_ADDR=127.0.0.1 \
	    CONSENT_DB="$CONSENT_DB" \
	    ${ASAN_OPTIONS:+ASAN_OPTIONS=$ASAN_OPTIONS} ${UBSAN_OPTIONS:+UBSAN_OPTIONS=$UBSAN_OPTIONS} \
	    "$BUILD/cgi-bin/consent" < "$T/req.$id" > "$T/out.$id" 2> "$T/err.$id" &
	pid=$!
}

# fwriter ID [PREFIX...]: FastCGI mode's writer for part 1: a new process
# behind PREFIX, the request, then SIGTERM; waits; sets $rc to 137 when the
# process died of SIGKILL, else the request's status.
fwriter() {
	local id=$1 end
	shift
	body "$id" > "$T/req.$id"
	FCGI_PRE=("$@")
	fcgi_proc_start consent.w
	FCGI_PRE=()
	env -i REQUEST_METHOD=POST CONTENT_LENGTH="$(wc -c < "$T/req.$id" | tr -d ' ')" \
	    CONTENT_TYPE=application/json HTTP_ORIGIN=https://example.com \
	    HTTP_USER_AGENT="$UA" HTTP_CF_IPCOUNTRY=DE REMOTE_ADDR=127.0.0.1 \
	    CONSENT_DB="$CONSENT_DB" "$CGI_BIN/consent.w" < "$T/req.$id" > "$T/out.$id" 2> "$T/err.$id"
	rc=$?
	# strace ignores SIGTERM: it goes to the endpoint, strace's child (if
	# the injected SIGKILL has not ended it).
	read -r pid < "$T/fcgi/consent.w.spawn"
	pid=$(ps -o pid= --ppid "$pid" 2>/dev/null)
	[ -n "$pid" ] && kill -TERM $pid 2>/dev/null
	end=$(fcgi_proc_kill consent.w 0)
	case $end in
	"1x signal 9") rc=137 ;;
	"1x exit 0") ;;
	*) [ "$rc" = 0 ] && rc="process: $end" ;;
	esac
}

# settle ID RC: file the outcome of a finished writer.
settle() {
	if grep -qs '^Status: 201' "$T/out.$1"; then
		echo "$1" >> "$T/answered"
	elif [ "$2" = 137 ]; then
		echo "$1" >> "$T/killed"
	else
		echo "$1 rc=$2 $(head -c 80 "$T/out.$1" 2>&1) $(head -n 2 "$T/err.$1" 2>&1 | tr '\n' ' ')" >> "$T/bad"
	fi
	rm -f "$T/req.$1"
}

# --- part 1: a kill at each write system call of one request ------------------
if store_is_postgres; then
	calls="sendto write" what="sendto: each message to the server, the reply"
else
	calls="pwrite64 fdatasync ftruncate unlink write" what="pwrite64, fdatasync, ftruncate, unlink, the reply"
fi
if command -v strace >/dev/null 2>&1 && strace -qq -o /dev/null true 2>/dev/null; then
	if fcgi_mode; then
		fwriter probe strace -qq -f -o "$T/trace" -e trace="$(echo $calls | tr ' ' ,)"
		settle probe "$rc"
	else
		writer probe strace -qq -f -o "$T/trace" -e trace="$(echo $calls | tr ' ' ,)"
		wait "$pid"
		settle probe $?
	fi
	fixed=0 planned=0
	for sc in $calls; do
		n=$(grep -c "^[0-9]* *$sc(" "$T/trace")
		[ "$sc" = write ] && n=1              # the reply; later writes are not ours
		planned=$((planned + n))
		for w in $(seq "$n"); do
			if fcgi_mode; then
				fwriter "s-$sc-$w" strace -qq -f -o /dev/null -e trace="$sc" -e inject="$sc:signal=KILL:when=$w"
			else
				writer "s-$sc-$w" strace -qq -f -o /dev/null -e trace="$sc" -e inject="$sc:signal=KILL:when=$w"
				{ wait "$pid"; } 2>/dev/null
				rc=$?
			fi
			settle "s-$sc-$w" "$rc"
			[ "$rc" = 137 ] && fixed=$((fixed + 1))
		done
	done
	# A point can vanish when an earlier kill changed the sequence (a hot WAL).
	check test "$fixed" -ge $((planned / 2)) "part 1: $fixed writers killed at $planned write system calls ($what)"
	if store_is_postgres; then
		skip "part 1: integrity_check ok: SQLite only (PRAGMA integrity_check)"
	else
		check test "$(db 'PRAGMA integrity_check')" = ok "part 1: integrity_check ok"
	fi
else
	fixed=0
	skip "part 1: strace is not installed (or cannot trace here): no kills at fixed system calls"
fi

# --- part 2: writer loops killed at random points ---------------------------------
# frequest NAME ID: FastCGI mode: one request to the set NAME (started if
# none runs); the request's status.
frequest() {
	body "$2" > "$T/req.$2"
	env -i REQUEST_METHOD=POST CONTENT_LENGTH="$(wc -c < "$T/req.$2" | tr -d ' ')" \
	    CONTENT_TYPE=application/json HTTP_ORIGIN=https://example.com \
	    HTTP_USER_AGENT="$UA" HTTP_CF_IPCOUNTRY=DE REMOTE_ADDR=127.0.0.1 \
	    CONSENT_DB="$CONSENT_DB" "$CGI_BIN/$1" < "$T/req.$2" > "$T/out.$2" 2> "$T/err.$2"
}

# The shortest of five requests bounds the delays, so that nearly every kill
# lands while the process runs, however busy the machine.
maxdelay=999
for i in 1 2 3 4 5; do
	t0=$(date +%s%N)
	if fcgi_mode; then
		fcgi_proc_ready consent.t
		frequest consent.t "t-$i"
		settle "t-$i" $?
	else
		writer "t-$i"
		wait "$pid"
		settle "t-$i" $?
	fi
	ms=$((($(date +%s%N) - t0) / 1000000))
	[ "$ms" -lt "$maxdelay" ] && maxdelay=$ms
done
[ "$maxdelay" -lt 2 ] && maxdelay=2

loop() { # W: ROUNDS fresh writers, two thirds killed after 0..maxdelay ms
	local i id ms rc
	for i in $(seq "$ROUNDS"); do
		id="r$1-$i"
		writer "$id"
		if [ $((RANDOM % 3)) -ne 0 ]; then
			ms=$((RANDOM % maxdelay))
			sleep "$((ms / 1000)).$(printf '%03d' $((ms % 1000)))"
			# Not yet waited for, so $pid is still our child (or its zombie).
			kill -KILL "$pid" 2>/dev/null
		fi
		{ wait "$pid"; } 2>/dev/null    # no "Killed" notice from bash
		rc=$?
		settle "$id" "$rc"
	done
}
floop() { # W: ROUNDS bursts of three requests to one process, two thirds killed
	local i j id ms pids end
	for i in $(seq "$ROUNDS"); do
		pids=$(fcgi_proc_pids "consent.r$1")
		( for j in 1 2 3; do frequest "consent.r$1" "r$1-$i-$j"; echo $? > "$T/rc.r$1-$i-$j"; done ) &
		end=
		if [ $((RANDOM % 3)) -ne 0 ]; then
			ms=$((RANDOM % (3 * maxdelay)))
			sleep "$((ms / 1000)).$(printf '%03d' $((ms % 1000)))"
			end=$(fcgi_proc_kill "consent.r$1")    # SIGKILL, waited for
		fi
		wait $!
		for j in 1 2 3; do
			id="r$1-$i-$j"
			if grep -qs '^Status: 201' "$T/out.$id"; then settle "$id" 0
			elif grep -qs 'Connection refused' "$T/err.$id" && [ -n "$end" ]; then rm -f "$T/req.$id"
			elif [ "$end" = "1x signal 9" ]; then settle "$id" 137
			else settle "$id" "$(cat "$T/rc.$id") (process: ${end:-running})"
			fi
		done
	done
}
if fcgi_mode; then
	for w in $(seq "$WRITERS"); do floop "$w" & done
	wait
	random=$(grep -c '^r' "$T/killed")
	check test "$random" -ge 1 "part 2: $random of $((3 * WRITERS * ROUNDS)) requests in flight when their FastCGI process was killed at a random point (up to $((3 * maxdelay)) ms into a burst of three)"
else
	for w in $(seq "$WRITERS"); do loop "$w" & done
	wait
	random=$(grep -c '^r' "$T/killed")
	# Two thirds are aimed at; about half of those land before the writer
	# ends on a quiet machine, fewer on a loaded one (the sleep's own
	# start): a sixth of all is the floor, the figure says how many.
	check test "$random" -ge $((WRITERS * ROUNDS / 6)) "part 2: $random of $((WRITERS * ROUNDS)) writers killed at random points (up to ${maxdelay} ms)"
fi

# --- what the kills left ----------------------------------------------------------
check test ! -s "$T/bad" "every writer not killed answered 201 and exited 0$( [ -s "$T/bad" ] && echo ": $(head -n 3 "$T/bad" | tr '\n' ' ')")"
q() { db "$1" 2>&1; }
if store_is_postgres; then
	skip "integrity_check and foreign_key_check: SQLite only (PostgreSQL checks its foreign keys on every write)"
else
	check test "$(q 'PRAGMA integrity_check')" = ok "the database opens and integrity_check is ok"
	check test "$(q 'PRAGMA foreign_key_check' | wc -l | tr -d ' ')" = 0 "foreign_key_check finds nothing"
fi
stored=$(q 'SELECT count(*) FROM consent_log')
check test "$stored" -ge "$(wc -l < "$T/answered")" "at least as many entries ($stored) as 201 answers ($(wc -l < "$T/answered" | tr -d ' '))"
check test "$(q "SELECT count(*) FROM consent_log WHERE site_id IS NULL OR created_at IS NULL
    OR anon_id_hash IS NULL OR categories IS NULL OR event_type IS NULL OR published_version IS NULL
    OR device_type IS NULL")" = 0 "no NULL in a NOT NULL column"
check test "$(q "SELECT count(*) FROM consent_log WHERE event_action IS NULL OR region IS NULL
    OR consent_model IS NULL OR time_to_action_ms IS NULL OR page_url IS NULL OR sdk_version IS NULL
    OR language IS NULL OR resolved_language IS NULL OR browser IS NULL OR os IS NULL OR country IS NULL")" = 0 \
    "every entry has every field that was sent, and its enrichment (browser, os, country)"
if store_is_postgres; then
	# (Text that is not JSON makes the cast, and so the query, fail.)
	check test "$(q "SELECT count(*) FROM consent_log WHERE jsonb_typeof(categories::jsonb) != 'object'
	    OR categories != '$CATS'")" = 0 "categories of every entry parse as the JSON object sent"
	check test "$(q "SELECT count(*) FROM consent_log WHERE anon_id_hash !~ '^[0-9a-f]{64}\$'")" = 0 \
	    "anon_id_hash of every entry is 64 lower-case hex digits"
	check test "$(q "SELECT count(*) FROM consent_log WHERE created_at !~
	    '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z\$'")" = 0 "created_at of every entry is whole"
	check test "$(q 'SELECT (count(*) = count(DISTINCT anon_id_hash))::int FROM consent_log')" = 1 "no entry stored twice"
	# The month's count is the sum of its 16 slots.
	check test "$(q "SELECT count(*) FROM (SELECT site_id, month, sum(visitors) AS visitors FROM mau_counts
	      GROUP BY site_id, month) c
	    WHERE c.visitors != (SELECT count(*) FROM mau_visitors v WHERE v.site_id = c.site_id AND v.month = c.month)
	    OR c.visitors != (SELECT count(DISTINCT anon_id_hash) FROM consent_log l
	      WHERE l.site_id = c.site_id AND substr(l.created_at, 1, 7) = c.month)")" = 0 \
	    "mau_counts (the slots' sum) = rows of mau_visitors = COUNT(DISTINCT anon_id_hash) of the month's entries"
else
	check test "$(q "SELECT count(*) FROM consent_log WHERE NOT json_valid(categories)
	    OR json_type(categories) != 'object' OR categories != '$CATS'")" = 0 "categories of every entry parse as the JSON object sent"
	check test "$(q "SELECT count(*) FROM consent_log WHERE length(anon_id_hash) != 64
	    OR anon_id_hash GLOB '*[^0-9a-f]*'")" = 0 "anon_id_hash of every entry is 64 lower-case hex digits"
	check test "$(q "SELECT count(*) FROM consent_log WHERE created_at NOT GLOB
	    '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z'")" = 0 "created_at of every entry is whole"
	check test "$(q 'SELECT count(*) = count(DISTINCT anon_id_hash) FROM consent_log')" = 1 "no entry stored twice"
	check test "$(q "SELECT count(*) FROM mau_counts c WHERE c.visitors !=
	      (SELECT count(*) FROM mau_visitors v WHERE v.site_id = c.site_id AND v.month = c.month)
	   OR c.visitors != (SELECT count(DISTINCT anon_id_hash) FROM consent_log l
	      WHERE l.site_id = c.site_id AND substr(l.created_at, 1, 7) = c.month)")" = 0 \
	    "mau_counts = rows of mau_visitors = COUNT(DISTINCT anon_id_hash) of the month's entries"
fi
check test "$(q 'SELECT count(*) FROM mau_counts')" -ge 1 "mau_counts has the month"

# Every request that answered 201 is stored.
while read -r id; do printf '%s' "$id" | sha256sum | cut -d' ' -f1; done < "$T/answered" | sort > "$T/want"
q 'SELECT anon_id_hash FROM consent_log' | sort > "$T/got"
missing=$(comm -23 "$T/want" "$T/got" | wc -l | tr -d ' ')
check test "$missing" = 0 "every one of the $(wc -l < "$T/want" | tr -d ' ') requests answered 201 is stored (missing: $missing)"

ctl consent export crash > "$T/export"
check test "$(jq -c . "$T/export" | wc -l | tr -d ' ')" = "$stored" "consentctl exports every entry as JSON"
cgi POST consent "" "$(body after)"
expect_status 201 "a write after the kills: 201"
if store_is_postgres; then
	skip "integrity_check ok after the next write: SQLite only (PRAGMA integrity_check)"
else
	check test "$(q 'PRAGMA integrity_check')" = ok "integrity_check ok after the next write"
fi
ok "figure: $((fixed + random)) SIGKILLs survived ($fixed at fixed system calls, $random at random points), $stored entries whole"
