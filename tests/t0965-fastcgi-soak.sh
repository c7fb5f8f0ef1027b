#!/bin/bash
# t0965-fastcgi-soak.sh: one FastCGI process per endpoint, many requests
# (issue 14).  Part 1 interleaves requests of different sites, origins,
# visitors, languages, countries, settings and errors through one process
# each and checks every answer, and every log line, byte for byte against a
# new CGI process's for the same request on a twin database; afterwards the
# two databases hold the same entries.  Part 2 measures memory: the VmRSS
# of each process after 100,000 mixed requests (SOAK_REQUESTS) is within
# 1 MB of its VmRSS after 1,000, and every process exits 0 on SIGTERM (a
# leak under ASan or valgrind makes it exit non-zero).  The FastCGI side
# goes through tests/fcgi-client whatever CONSENT_TEST_MODE says.
#
# On PostgreSQL the twin is another database of the cluster, restored from
# a pg_dump of the first, and part 2 has one of its own (both dropped at the
# end); part 2 sends 30,000 requests there, not 100,000.
# serial: measures memory (VmRSS) and throughput
. "$(dirname "$0")/setup.sh"
mode_independent
. "$(dirname "$0")/ctl-helpers.sh"

more_dbs=()
if store_is_postgres; then
	trap 'for _d in ${more_dbs[@]+"${more_dbs[@]}"}; do pg_drop_db "$_d" > /dev/null; done; _cleanup' EXIT
fi
pg_name() { local _n=${1#*dbname=}; echo "${_n%% *}"; }
pg_more() { # VAR PREFIX: VAR is the conninfo of a new database of the cluster
	local _c
	_c=$(pg_new_db "$2") || { notok "another PostgreSQL database"; return 1; }
	eval "$1=\$_c"
	more_dbs+=("$(pg_name "$_c")")
}
# q DB SQL: SQL on one of the databases (a file, or a conninfo of the cluster).
q() { if store_is_postgres; then pg_psql "$(pg_name "$1")" -q -A -t -c "$2"; else sqlite3 "$1" "$2"; fi; }

ROUNDS=${SOAK_ROUNDS:-360}
TOTAL=${SOAK_REQUESTS:-100000}
WARM=1000
# Under valgrind or the sanitizers RSS says nothing about leaks (valgrind's
# own heap, ASan's quarantine) and requests cost 10 to 50 times more: a few
# thousand requests, and the exit status at SIGTERM is the check.
if [ "${VALGRIND:-0}" = 1 ]; then TOTAL=${SOAK_REQUESTS:-3000} ROUNDS=${SOAK_ROUNDS:-60};
elif [ -n "${SANITIZED:-}" ]; then TOTAL=${SOAK_REQUESTS:-6000};
# On PostgreSQL a request costs about four times as much (round trips
# through pgbouncer) and the file runs alone: 30,000, so that make check
# keeps its budget; the SQLite pass holds the 100,000.
elif store_is_postgres; then TOTAL=${SOAK_REQUESTS:-30000}; fi

UA_FF='Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0'
UA_IOS='Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'

# --- two identical databases ------------------------------------------------------
site s1 --tier paid
ctl config publish s1 "$TOP/tests/fixtures/config-test.json" >/dev/null
ctl site add s2 --name "Shop" --domain shop.example.org --domain example.com >/dev/null
ctl site add s3 --name "Capped" --domain example.com --mau-cap 4 >/dev/null
ctl config publish s3 "$TOP/tests/fixtures/config-noregions.json" >/dev/null
site s4
ctl site pause s4
sync=$(ctl sync start s1)
FDB=$CONSENT_DB
if store_is_postgres; then
	pg_more CDB t0965_cgi
	pg_dump_db | pg_psql "$(pg_name "$CDB")" -q > /dev/null 2> "$T/restore.err" ||
	    notok "the twin database restored from a pg_dump: $(head -c 300 "$T/restore.err")"
else
	CDB=$T/cgi.db
	sqlite3 "$FDB" "VACUUM INTO '$CDB'"
fi
check test "$(q "$CDB" 'SELECT count(*) FROM sites')" = "$(q "$FDB" 'SELECT count(*) FROM sites')" "the twin database has the same sites"

# --- part 1: interleaved requests, each against a new CGI process ------------------
pick() { # I WORD...: the (I mod count)th word
	local i=$1
	shift
	local a=("$@")
	printf '%s' "${a[$((i % ${#a[@]}))]}"
}

# request I: sets M (method), E (endpoint), Q (query), B (body), V (extra
# variables) for the Ith request; the choices cycle with different periods
# so that neighbours differ in every respect.
request() {
	local i=$1 s o v lang cc
	s=$(pick "$i" s1 s2 s3 s1 s4 nosuch s2)
	o=$(pick "$((i / 3))" https://example.com https://shop.example.org https://evil.example https://example.com "")
	v="v$(((i * 7) % 23))"
	lang=$(pick "$((i / 2))" de fr-CA "ar,en;q=0.5" ja en-US "" "pt-BR;q=0.9,es" "zz")
	cc=$(pick "$((i / 5))" DE US BR "" JP FR "")
	V=(HTTP_ACCEPT_LANGUAGE="$lang" HTTP_CF_IPCOUNTRY="$cc")
	[ $((i % 4)) = 0 ] && V+=(HTTP_USER_AGENT="$UA_IOS") || V+=(HTTP_USER_AGENT="$UA_FF")
	[ $((i % 6)) = 1 ] && V+=(HTTP_SEC_GPC=1)
	[ $((i % 11)) = 3 ] && V+=(CONSENT_MAU_CAP=2)
	[ $((i % 29)) = 5 ] && V+=(CONSENT_MAU_CAP=lots)
	ORIGIN=$o
	case $((i % 3)) in
	0)
		M=GET E=config B=
		Q="site_key=$s$(pick "$((i / 4))" "" "&lang=de" "&region=ccpa" "&lang=he" "" "&region=gdpr&lang=fr")"
		case $((i % 13)) in 4) M=HEAD ;; 7) M=OPTIONS ;; 10) Q="site_key=%zz" ;; esac ;;
	1)
		M=POST E=consent Q=
		B="{\"site_key\":\"$s\",\"anon_id\":\"$v\",\"categories\":{\"necessary\":true,\"analytics\":$(pick "$i" true false)},\"event_type\":\"$(pick "$((i / 3))" initial update impression)\",\"page_url\":\"https://example.com/p/$i\",\"language\":\"$lang\"}"
		case $((i % 17)) in
		2) B="{\"site_key\":\"$s\",\"anon_id\":" ;;                   # cut short
		5) B="{\"site_key\":\"$s\",\"anon_id\":\"$v\",\"anon_id\":\"w\",\"categories\":{},\"event_type\":\"initial\"}" ;;
		8) V+=(CONTENT_LENGTH=$((${#B} + 40))) ;;                       # body shorter than said
		11) M=PUT ;;
		14) V+=(CONTENT_LENGTH=0) ;;
		esac ;;
	2)
		M=POST E=scripts Q=
		[ $((i % 10)) = 2 ] && Q="sync_id=$sync"
		B="{\"site_key\":\"$s\",\"page_url\":\"https://example.com/s/$i\",\"timestamp\":1763800000000,\"scripts\":[{\"domain\":\"cdn$((i % 5)).example.net\",\"blocked\":$(pick "$i" true false)},{\"domain\":\"www.google-analytics.com\",\"src\":\"https://www.google-analytics.com/a$((i % 3)).js\",\"blocked\":false}]}"
		case $((i % 19)) in
		3) B='[]' ;;
		9) B="{\"site_key\":\"$s\",\"page_url\":\"https://example.com/\",\"timestamp\":-1,\"scripts\":[]}" ;;
		15) V+=(CONTENT_LENGTH=abc) ;;
		esac ;;
	esac
}

fcgi_proc_start config
fcgi_proc_start consent
fcgi_proc_start scripts
pids_before="$(fcgi_proc_pids config) $(fcgi_proc_pids consent) $(fcgi_proc_pids scripts)"
same=0 differ=0 statuses=
for i in $(seq "$ROUNDS"); do
	request "$i"
	CONSENT_TEST_MODE=cgi CONSENT_DB=$CDB cgi "${V[@]}" "$M" "$E" "$Q" "$B"
	cp "$T/out" "$T/cgi.out"
	cp "$T/stderr" "$T/cgi.err"
	CONSENT_TEST_MODE=fcgi CONSENT_DB=$FDB cgi "${V[@]}" "$M" "$E" "$Q" "$B"
	statuses="$statuses $(cat "$T/status")"
	if cmp -s "$T/out" "$T/cgi.out" && cmp -s "$T/stderr" "$T/cgi.err"; then
		same=$((same + 1))
	else
		differ=$((differ + 1))
		if [ "$differ" -le 5 ]; then
			notok "request $i ($M $E $Q, Origin '$ORIGIN', ${V[*]}): FastCGI answer differs from CGI's: $(diff <(cat "$T/cgi.out"; echo; cat "$T/cgi.err") <(cat "$T/out"; echo; cat "$T/stderr") | head -n 6 | cut -c1-200 | tr '\n' '|')"
		fi
	fi
done
ORIGIN=https://example.com
check test "$differ" = 0 "$ROUNDS interleaved requests: every FastCGI answer and log line byte for byte a new CGI process's ($same same, $differ differ)"
kinds=$(printf '%s\n' $statuses | sort -u | tr '\n' ' ')
check test "$(printf '%s\n' $statuses | sort -u | wc -l)" -ge 6 "the requests covered answers $kinds"
check test "$(fcgi_proc_pids config) $(fcgi_proc_pids consent) $(fcgi_proc_pids scripts)" = "$pids_before" "one process per endpoint served them all"

# The same entries in both databases, but for the times and what hashes them.
entries() { # DB
	q "$1" "SELECT s.site_key, l.anon_id_hash, l.categories, l.event_type, l.page_url, l.language, l.country,
	    l.browser, l.os, l.device_type, l.gpc, l.published_version FROM consent_log l JOIN sites s ON s.id = l.site_id ORDER BY l.id"
}
scripts_rows() { # DB
	q "$1" 'SELECT s.site_key, d.domain, d.seen_count FROM scripts d JOIN sites s ON s.id = d.site_id ORDER BY 1, 2'
}
entries "$FDB" > "$T/f.entries"
entries "$CDB" > "$T/c.entries"
check test -s "$T/f.entries" "the FastCGI process stored entries ($(wc -l < "$T/f.entries" | tr -d ' '))"
check cmp -s "$T/f.entries" "$T/c.entries" "the FastCGI database holds exactly the CGI database's entries, in order"
scripts_rows "$FDB" > "$T/f.scripts"
scripts_rows "$CDB" > "$T/c.scripts"
check test -s "$T/f.scripts" "the FastCGI process stored scripts ($(wc -l < "$T/f.scripts" | tr -d ' '))"
check cmp -s "$T/f.scripts" "$T/c.scripts" "and the same script inventory"
if store_is_postgres; then mau='SELECT site_id, month, slot, visitors FROM mau_counts ORDER BY 1, 2, 3'
else mau='SELECT site_id, month, visitors FROM mau_counts ORDER BY 1, 2'; fi
check test "$(q "$FDB" "$mau")" = "$(q "$CDB" "$mau")" "and the same monthly visitor counts"
check test "$(ctl sync show "$sync" --json | jq -r .status)" = "$(CONSENT_DB=$CDB ctl sync show "$sync" --json | jq -r .status)" "and the sync in the same state"
fcgi_proc_stop config consent scripts

# --- part 2: memory over many requests -----------------------------------------------
# The database lives in /dev/shm when it can: 100,000 commits that each wait
# for the disk would take minutes, and memory is what is measured.
# (PostgreSQL: another database of the cluster.)
MDIR=$T
if store_is_postgres; then
	pg_more CONSENT_DB t0965_soak
elif [ -d /dev/shm ] && [ -w /dev/shm ]; then
	MDIR=$(mktemp -d /dev/shm/consent-soak.XXXXXX)
	trap 'rm -rf "$MDIR"; _cleanup' EXIT
fi
store_is_postgres || CONSENT_DB=$MDIR/soak.db
ctl init >/dev/null
for k in m1 m2 m3; do site "$k" --tier paid; done
ctl config publish m2 "$TOP/tests/fixtures/config-test.json" >/dev/null
FCGI_ENV=(CONSENT_FCGI_MAX_REQUESTS=$((TOTAL + 1)))    # one process serves them all
for ep in config consent scripts; do fcgi_proc_start "$ep.m"; done

# batch ENDPOINT N K: N requests of the Kth kind for ENDPOINT through
# `fcgi-client repeat`; every answer must be complete and alike.
batch() {
	local ep=$1 n=$2 k=$3 s b q= m=POST
	s=m$((k % 3 + 1))
	case $ep in
	config) m=GET q="site_key=$s$(pick "$k" "" "&lang=de" "&region=ccpa" "&lang=ar")" b= ;;
	consent) b="{\"site_key\":\"$s\",\"anon_id\":\"a$k\",\"categories\":{\"necessary\":true,\"analytics\":$(pick "$k" true false)},\"event_type\":\"update\",\"page_url\":\"https://example.com/m/$k\"}" ;;
	scripts) b="{\"site_key\":\"$s\",\"page_url\":\"https://example.com/m/$k\",\"timestamp\":1763800000000,\"scripts\":[{\"domain\":\"d$((k % 7)).example.net\",\"blocked\":true}]}" ;;
	esac
	[ $((k % 5)) = 4 ] && b='{"site_key":' q="site_key=%zz"     # an error now and then
	printf '%s' "$b" | env -i REQUEST_METHOD=$m QUERY_STRING="$q" CONTENT_LENGTH=${#b} CONTENT_TYPE=application/json \
	    HTTP_ORIGIN=https://example.com HTTP_USER_AGENT="$(pick "$k" "$UA_FF" "$UA_IOS")" \
	    HTTP_ACCEPT_LANGUAGE="$(pick "$k" de fr en-GB ja)" REMOTE_ADDR=127.0.0.1 CONSENT_DB="$CONSENT_DB" \
	    ${ASAN_OPTIONS:+ASAN_OPTIONS=$ASAN_OPTIONS} ${UBSAN_OPTIONS:+UBSAN_OPTIONS=$UBSAN_OPTIONS} \
	    "$FCGI_CLIENT" repeat "$T/fcgi/$ep.m.sock" "$n" > /dev/null 2>> "$T/soak.err"
}
rss() { awk '/^VmRSS:/ { print $2 }' "/proc/$(fcgi_proc_pids "$1.m")/status"; }

# run_to EP FROM TO: requests FROM+1..TO in batches of 200 of rotating kinds.
run_to() {
	local ep=$1 done=$2 n k=0 bad=0
	while [ "$done" -lt "$3" ]; do
		n=$(($3 - done))
		[ "$n" -gt 200 ] && n=200
		batch "$ep" "$n" $((done / 200 + k)) || bad=$((bad + 1))
		done=$((done + n))
	done
	return "$bad"
}
t0=$(date +%s)
for ep in config consent scripts; do
	run_to "$ep" 0 "$WARM"
	r1=$(rss "$ep")
	run_to "$ep" "$WARM" $((TOTAL / 2))
	rc=$?
	rm=$(rss "$ep")
	run_to "$ep" $((TOTAL / 2)) "$TOTAL"
	rc=$((rc + $?))
	r2=$(rss "$ep")
	check test "$rc" = 0 "$ep: $TOTAL requests in batches through one process, every answer complete and alike$( [ -s "$T/soak.err" ] && echo ": $(head -c 200 "$T/soak.err")")"
	if [ "${VALGRIND:-0}" = 1 ] || [ -n "${SANITIZED:-}" ]; then
		skip "$ep: RSS after $TOTAL requests ($r2 kB) against after $WARM ($r1 kB): not measured under valgrind or the sanitizers (their own heaps)"
	else
		check test $((r2 - r1)) -le 1024 "$ep: VmRSS after $TOTAL requests within 1 MB of VmRSS after $WARM ($r1 kB, then $r2 kB)"
		# Growth that stops (SQLite's page cache filling to its limit) is
		# not a leak; growth in the second half is.
		check test $((r2 - rm)) -le 256 "$ep: VmRSS after $TOTAL requests within 256 kB of VmRSS after $((TOTAL / 2)) ($rm kB, then $r2 kB)"
	fi
done
if store_is_postgres; then
	skip "integrity_check ok after the soak: SQLite only (PRAGMA integrity_check)"
else
	check test "$(sqlite3 "$CONSENT_DB" 'PRAGMA integrity_check')" = ok "integrity_check ok after the soak"
fi
check test ! -s "$T/fcgi/consent.m.err" -a ! -s "$T/fcgi/config.m.err" -a ! -s "$T/fcgi/scripts.m.err" "nothing logged by the processes during the soak$(cat "$T"/fcgi/*.m.err 2>/dev/null | head -c 200)"
fcgi_proc_stop config.m consent.m scripts.m
ok "figure: $((3 * TOTAL)) requests through three processes in $(($(date +%s) - t0)) s"
