#!/bin/bash
# t0960-fastcgi.sh: FastCGI mode (common/endpoint/serve.c).  The same three programs,
# started with a listening socket on fd 0, serve one request after the
# other, and every answer is byte for byte the one a new CGI process gives
# (tests/setup.sh's cgi), whatever came before it in the same process:
# other sites, origins, visitors, languages, settings, errors.  A process
# killed with SIGKILL loses no acknowledged consent; SIGTERM lets the
# request in hand finish; CONSENT_FCGI_MAX_REQUESTS ends a process; a
# database replaced or upgraded under a process is noticed; the seccomp
# filter stays on; valgrind finds nothing over a few thousand requests.
#
# The client is cgi-fcgi (libfcgi-bin): it sends its own environment as the
# request's params and its stdin as the body.  A process is started by
# python3 binding the socket to fd 0 and exec()ing the program, so it is
# this shell's child (its exit status is waited for).  KEEP_T=1 keeps the
# test's directory and prints its name.
#
# On PostgreSQL (CONSENT_TEST_STORE=postgres) "another database" is another
# database of the cluster, and what is about the SQLite file is skipped with
# a line saying so (a file moved over it, its mount made read-only, an old
# schema upgraded, a file size limit, fdatasync counts, integrity_check); a
# commit that fails is made by a deferred trigger, a newer schema by
# schema_version.
. "$(dirname "$0")/setup.sh"
. "$(dirname "$0")/ctl-helpers.sh"

for _c in cgi-fcgi python3 sqlite3; do
	if ! command -v "$_c" >/dev/null 2>&1; then
		skip "FastCGI mode: $_c is not installed (libfcgi-bin, python3, sqlite3)"
		exit 0
	fi
done
FCGI=$(command -v cgi-fcgi)
# Every process this test started is gone when it ends, whatever happened.
# (setup.sh's _cleanup drops the PostgreSQL test database and removes $T.)
other_db=
trap 'for _p in "$T"/*.pid; do [ -f "$_p" ] && kill -KILL "$(cat "$_p")" 2>/dev/null; done
      [ -n "$other_db" ] && pg_drop_db "$other_db" > /dev/null
      if [ -n "${KEEP_T:-}" ]; then [ -n "$PG_DB" ] && pg_drop_db "$PG_DB" > /dev/null; else _cleanup; fi' EXIT
[ -n "${KEEP_T:-}" ] && echo "T=$T" >&2

# A listening socket on fd 0, then exec: what a FastCGI process manager does.
START_PY='import os, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind(sys.argv[1]); s.listen(128)
os.dup2(s.fileno(), 0); s.close()
os.execvp(sys.argv[2], sys.argv[2:])'

# fcgi_start NAME ENDPOINT [VAR=value]...: a FastCGI process of ENDPOINT on
# $T/NAME.sock with only the VARs (and PATH, sanitizer options) in its
# environment; its pid in $T/NAME.pid, its stderr in $T/NAME.err.
fcgi_start() {
	local _name=$1 _ep=$2
	shift 2
	local _wrap=()
	[ "${VALGRIND:-0}" = 1 ] && _wrap=(valgrind -q --error-exitcode=99 --leak-check=full
	    --errors-for-leak-kinds=definite,indirect)
	fcgi_spawn "$_name" "$_ep" ${_wrap[@]+"${_wrap[@]}"} -- "$@"
}

# fcgi_spawn NAME ENDPOINT [WRAPPER...] -- [VAR=value]...: fcgi_start with
# the program run by WRAPPER (valgrind ...).
fcgi_spawn() {
	local _name=$1 _ep=$2 _i
	shift 2
	local _wrap=()
	while [ "$1" != -- ]; do _wrap+=("$1"); shift; done
	shift
	rm -f "$T/$_name.sock"
	env -i PATH="$PATH" ${ASAN_OPTIONS+ASAN_OPTIONS="$ASAN_OPTIONS"} \
	    ${UBSAN_OPTIONS+UBSAN_OPTIONS="$UBSAN_OPTIONS"} "$@" \
	    python3 -c "$START_PY" "$T/$_name.sock" ${_wrap[@]+"${_wrap[@]}"} \
	    "${FCGI_PROG_DIR:-$BUILD/cgi-bin}/$_ep" 2> "$T/$_name.err" &
	echo $! > "$T/$_name.pid"
	for _i in $(seq 100); do
		[ -S "$T/$_name.sock" ] && return 0
		sleep 0.05
	done
	notok "$_name: no socket after 5 s"
}

pid_of() { cat "$T/$1.pid"; }

# fcgi_ready NAME: one request answered, so the process (valgrind's too)
# has set its signal handlers up and waits in accept.
fcgi_ready() {
	local _sv
	_sv=$(cat "$T/request" 2>/dev/null)
	fcgi "$1" OPTIONS config ""
	[ "$(status_of "$T/fout")" = 204 ] || notok "$1: the process answers a first request"
	printf '%s' "$_sv" > "$T/request"
}

# fcgi_wait NAME SECONDS: wait for the process to exit; its exit status, or
# 124 when it is still running after SECONDS.
fcgi_wait() {
	local _pid _i
	_pid=$(pid_of "$1")
	for _i in $(seq $(($2 * 20))); do
		if ! kill -0 "$_pid" 2>/dev/null || [ "$(awk '/^State:/ { print $2 }' "/proc/$_pid/status" 2>/dev/null)" = Z ]; then
			wait "$_pid"
			return $?
		fi
		sleep 0.05
	done
	return 124
}

# fcgi_stop NAME: SIGTERM, then its exit status.
fcgi_stop() {
	kill -TERM "$(pid_of "$1")" 2>/dev/null
	fcgi_wait "$1" 20
}

# The params of a request, as tests/setup.sh's cgi() makes the CGI
# environment: fcgi_env [VAR=value]... METHOD ENDPOINT [QUERY [BODY]] sets
# the array P and writes the body to $T/request.
fcgi_env() {
	local _vars=() _method _endpoint _query _body _len _e
	while [ $# -gt 0 ]; do
		case "$1" in
		[A-Z_]*=*) _vars+=("$1"); shift ;;
		*) break ;;
		esac
	done
	_method=$1 _endpoint=$2 _query=${3-} _body=${4-}
	printf '%s' "$_body" > "$T/request"
	_len=$(wc -c < "$T/request" | tr -d ' ')
	P=(REQUEST_METHOD="$_method" QUERY_STRING="$_query"
	    GATEWAY_INTERFACE=CGI/1.1 SERVER_PROTOCOL=HTTP/1.1
	    SCRIPT_NAME="/functions/v1/$_endpoint" REMOTE_ADDR=127.0.0.1
	    PATH="$PATH" CONSENT_DB="$CONSENT_DB")
	[ "$_method" = POST ] && P+=(CONTENT_LENGTH="$_len" CONTENT_TYPE=application/json)
	[ -n "$ORIGIN" ] && P+=(HTTP_ORIGIN="$ORIGIN")
	for _e in CONSENT_GEOIP_DB CONSENT_COUNTRY_HEADER CONSENT_MAU_CAP; do
		eval "[ -n \"\${$_e+x}\" ] && P+=(\"$_e=\$$_e\")"
	done
	P+=(${_vars[@]+"${_vars[@]}"})
}

# fcgi NAME [VAR=value]... METHOD ENDPOINT [QUERY [BODY]]: one request to
# the process NAME; the raw answer in $T/fout.
fcgi() {
	local _name=$1
	shift
	fcgi_env "$@"
	timeout 20 env -i "${P[@]}" "$FCGI" -bind -connect "$T/$_name.sock" \
	    < "$T/request" > "$T/fout" 2> "$T/fcgi.stderr"
}

# same NAME DESC [VAR=value]... METHOD ENDPOINT [QUERY [BODY]]: the answer
# of the FastCGI process NAME is byte for byte a new CGI process's.
same() {
	local _name=$1 _desc=$2
	shift 2
	CONSENT_TEST_MODE=cgi cgi "$@"
	cp "$T/out" "$T/cgi.out"
	fcgi "$_name" "$@"
	if [ -s "$T/cgi.out" ] && cmp -s "$T/cgi.out" "$T/fout"; then
		ok "$_desc ($(cat "$T/status"))"
	else
		notok "$_desc: CGI $(head -c 300 "$T/cgi.out" | tr '\r\n' '  ') / FastCGI $(head -c 300 "$T/fout" | tr '\r\n' '  ')"
	fi
}

status_of() { sed -n 's/^Status: \([0-9]*\).*/\1/p' "$1" | head -n 1; }

# intact: the database file passes integrity_check (SQLite only).
intact() {
	if store_is_postgres; then
		skip "the database is intact: SQLite only (PRAGMA integrity_check)"
	else
		check test "$(db 'PRAGMA integrity_check')" = ok "the database is intact"
	fi
}

# ---- the sites ----
site s1
ctl config publish s1 "$TOP/tests/fixtures/config-test.json" >/dev/null
ctl site add s2 --name "Site two" --domain other.org --tier free >/dev/null
ctl site add s3 --name "Paused" --domain example.com >/dev/null
ctl site pause s3 >/dev/null
consent_body() { # KEY ANON [extra members]
	printf '{"site_key":"%s","anon_id":"%s","event_type":"initial","categories":{"necessary":true,"analytics":false}%s}' "$1" "$2" "${3-}"
}
scripts_body() { # KEY DOMAIN
	printf '{"site_key":"%s","page_url":"https://example.com/p","timestamp":1763800000,"scripts":[{"src":"https://%s/x.js","domain":"%s","category":null,"blocked":false}]}' "$1" "$2" "$2"
}
big=$(head -c 70000 /dev/zero | tr '\0' 'x')
huge=$(head -c 300000 /dev/zero | tr '\0' 'x')

# ---- one request of each endpoint ----
fcgi_start cfg config
fcgi_start con consent
fcgi_start scr scripts
same cfg "config: the same answer as CGI" GET config "site_key=s1"
same con "consent: the same answer as CGI" POST consent "" "$(consent_body s1 visitor-0001)"
same scr "scripts: the same answer as CGI" POST scripts "" "$(scripts_body s1 cdn.example.org)"
check test "$(cat "$T/status")" = 200 "scripts answers 200"
if [ "${SANITIZED:-0}" = 1 ] || [ "${VALGRIND:-0}" = 1 ]; then
	skip "the seccomp filter (not in the sanitizer build; valgrind answers for it)"
else
	check test "$(awk '/^Seccomp:/ { print $2 }' "/proc/$(pid_of cfg)/status")" = 2 \
	    "a FastCGI process runs under the seccomp filter (Seccomp: 2)"
fi

# ---- interleaved through one process each, every answer a new process's ----
round() {
	same cfg "config: s1, lang de" GET config "site_key=s1&lang=de"
	same con "consent: s1, visitor A, Sec-GPC, a country header" HTTP_SEC_GPC=1 HTTP_CF_IPCOUNTRY=DE \
	    HTTP_USER_AGENT="Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148 Safari/604.1" \
	    POST consent "" "$(consent_body s1 "visitor-A$1")"
	ORIGIN=https://other.org same cfg "config: s2 from its own origin, Accept-Language fr" \
	    HTTP_ACCEPT_LANGUAGE=fr GET config "site_key=s2"
	ORIGIN=https://evil.example same cfg "config: an origin not registered (403)" GET config "site_key=s1"
	same scr "scripts: s1, another domain" POST scripts "" "$(scripts_body s1 "cdn$1.example.net")"
	same con "consent: s1, visitor B, no header at all" POST consent "" "$(consent_body s1 "visitor-B$1")"
	ORIGIN=https://other.org same con "consent: s2, bad JSON (400)" POST consent "" '{"site_key":'
	same cfg "config: no site_key (400)" GET config ""
	same cfg "config: no such site (404)" GET config "site_key=nope"
	same con "consent: a body over BODY_MAX (413)" POST consent "" "$big"
	same con "consent: a body over DRAIN_MAX (413)" POST consent "" "$huge"
	same cfg "config: region given, lang it" GET config "site_key=s1&region=EU&lang=it"
	ORIGIN=https://other.org same cfg "config: s2 over a per-request CONSENT_MAU_CAP=0 (disabled)" \
	    CONSENT_MAU_CAP=0 GET config "site_key=s2"
	ORIGIN=https://other.org same cfg "config: s2 again without it" GET config "site_key=s2"
	same con "consent: a paused site (403)" POST consent "" "$(consent_body s3 "visitor-C$1")"
	ORIGIN= same con "consent: no Origin (403)" POST consent "" "$(consent_body s1 "visitor-D$1")"
	same con "consent: OPTIONS (204)" OPTIONS consent ""
	same cfg "config: PUT (405)" PUT config "site_key=s1"
	same cfg "config: HEAD" HEAD config "site_key=s1&lang=fr"
	same scr "scripts: bad sync_id (400)" POST scripts "sync_id=nope" "$(scripts_body s1 cdn.example.org)"
	same scr "scripts: an unknown site (404)" POST scripts "" "$(scripts_body nope cdn.example.org)"
	same cfg "config: another database by a request's CONSENT_DB" CONSENT_DB="$other" GET config "site_key=s1"
	same cfg "config: back to the first" GET config "site_key=s1"
}
if store_is_postgres; then
	other=$(pg_new_db t0960_other) || notok "a second PostgreSQL database"
	other_db=${other#*dbname=}
	other_db=${other_db%% *}
else
	other=$T/other.db
fi
CONSENT_DB="$other" ctl init >/dev/null
CONSENT_DB="$other" ctl site add s1 --name "Other database" --domain example.com >/dev/null
round 1
round 2
# Nothing of one visitor's request reached the next one's entry.
if store_is_postgres; then ifnull=coalesce; else ifnull=IFNULL; fi
check test "$(db "SELECT gpc || '/' || $ifnull(country, '-') || '/' || $ifnull(os, '-')
    FROM consent_log ORDER BY id DESC LIMIT 4" | tr '\n' ' ' | sed 's/ $//')" \
    = "0/-/- 0/-/- 1/DE/iOS 1/DE/iOS" \
    "the stored entries keep each request's own headers (GPC, country, OS), none of the previous one's"
for n in cfg con scr; do
	fcgi_stop "$n"
	check test $? = 0 "$n: SIGTERM when idle: exit 0"
	check test ! -s "$T/$n.err" "$n: nothing on stderr"
done

# ---- GeoIP: the database kept open, per request's CONSENT_GEOIP_DB ----
geoip=$SHARED/data/geoip
if [ ! -f "$geoip/GeoIP2-Country-Test.mmdb" ] || [ ! -f "$geoip/GeoLite2-Country-Test.mmdb" ]; then
	skip "GeoIP in FastCGI mode: ../shared/data/geoip not present"
else
	fcgi_start geo config
	fcgi_start geok consent
	for r in 1 2; do
		same geo "geo: the Country database, a GB address" CONSENT_GEOIP_DB="$geoip/GeoIP2-Country-Test.mmdb" \
		    REMOTE_ADDR=81.2.69.142 GET config "site_key=s1"
		same geo "geo: no database for this request" REMOTE_ADDR=81.2.69.142 GET config "site_key=s1"
		same geo "geo: the City database, a US address" CONSENT_GEOIP_DB="$geoip/GeoIP2-City-Test.mmdb" \
		    REMOTE_ADDR=216.160.83.56 GET config "site_key=s1"
		same geok "geo: a consent from GB" CONSENT_GEOIP_DB="$geoip/GeoIP2-Country-Test.mmdb" \
		    REMOTE_ADDR=81.2.69.142 POST consent "" "$(consent_body s1 "geo-gb$r")"
		same geok "geo: a consent from an address the database lacks" CONSENT_GEOIP_DB="$geoip/GeoIP2-Country-Test.mmdb" \
		    REMOTE_ADDR=10.1.2.3 POST consent "" "$(consent_body s1 "geo-none$r")"
	done
	check test "$(db "SELECT $ifnull(country, '-') FROM consent_log ORDER BY id DESC LIMIT 4" | tr '\n' ' ')" \
	    = "- - GB GB " "geo: each entry has its own request's country, never the previous one's"
	# Another file moved to the path: read at once.
	cp "$geoip/GeoIP2-Country-Test.mmdb" "$T/geo.mmdb"
	same geo "geo: a copy of the Country database, a US address" CONSENT_GEOIP_DB="$T/geo.mmdb" \
	    REMOTE_ADDR=214.78.120.1 GET config "site_key=s1"
	cp "$T/fout" "$T/geo1.out"
	cp "$geoip/GeoLite2-Country-Test.mmdb" "$T/geo.new"
	mv "$T/geo.new" "$T/geo.mmdb"
	same geo "geo: another file moved there, a database that lacks the address" CONSENT_GEOIP_DB="$T/geo.mmdb" \
	    REMOTE_ADDR=214.78.120.1 GET config "site_key=s1"
	check test -n "$(cmp "$T/geo1.out" "$T/fout" 2>&1)" "geo: the answer changed with the file"
	fcgi_stop geo
	fcgi_stop geok
fi

# ---- settings from the process environment; a per-request one wins ----
fcgi_start envdb config CONSENT_DB="$other"
fcgi envdb GET config "site_key=s1"
check grep -q '"site_name":"Site s1"' "$T/fout" "a request's CONSENT_DB wins over the process's"
fcgi_env GET config "site_key=s1"
timeout 20 env -i $(printf '%s\n' "${P[@]}" | grep -v '^CONSENT_DB=') "$FCGI" -bind -connect "$T/envdb.sock" < /dev/null > "$T/fout"
check grep -q '"site_name":"Other database"' "$T/fout" "without one, the process environment's CONSENT_DB (bin-environment, FcgidInitialEnv)"
fcgi_stop envdb

# ---- CONSENT_FCGI_MAX_REQUESTS ----
fcgi_start five config CONSENT_FCGI_MAX_REQUESTS=5
n=0
for i in 1 2 3 4 5; do
	fcgi five GET config "site_key=s1"
	[ "$(status_of "$T/fout")" = 200 ] && n=$((n + 1))
done
check test "$n" = 5 "CONSENT_FCGI_MAX_REQUESTS=5: five answers"
fcgi_wait five 10
check test $? = 0 "then the process exits 0 by itself"
fcgi_start badmax config CONSENT_FCGI_MAX_REQUESTS=0
fcgi badmax GET config "site_key=s1"
check test "$(status_of "$T/fout")" = 200 "CONSENT_FCGI_MAX_REQUESTS=0 is refused: the default, and the process serves"
fcgi_stop badmax
check test "$(grep -c 'CONSENT_FCGI_MAX_REQUESTS' "$T/badmax.err")" = 1 "one line on stderr says so"

# ---- SIGTERM in the middle of a request: it finishes, then exit 0 ----
fcgi_start term consent
fcgi_ready term
body=$(consent_body s1 visitor-term)
fcgi_env POST consent "" "$body"
{ printf '%s' "${body:0:20}"; sleep 2; printf '%s' "${body:20}"; } |
    timeout 20 env -i "${P[@]}" "$FCGI" -bind -connect "$T/term.sock" > "$T/term.out" &
client=$!
sleep 0.7
kill -TERM "$(pid_of term)"
wait "$client"
check test "$(status_of "$T/term.out")" = 201 "SIGTERM while a consent is being read: it is still answered 201"
fcgi_wait term 10
check test $? = 0 "and the process exits 0 after it"
check test "$(db "SELECT count(*) FROM consent_log WHERE anon_id_hash = '$(printf %s visitor-term | sha256sum | cut -c1-64)'")" = 1 \
    "the entry is stored"
fcgi_start usr1 config
fcgi_ready usr1
kill -USR1 "$(pid_of usr1)"
fcgi_wait usr1 10
check test $? = 0 "SIGUSR1 (mod_fcgid's) when idle: exit 0"

# ---- SIGKILL in the middle of a burst: no acknowledged consent is lost ----
fcgi_start kill consent
fcgi_ready kill
burst() { # N: 60 consents, one line "anon status" each
	local _i _a
	for _i in $(seq 60); do
		_a="burst-$1-$_i"
		fcgi_env POST consent "" "$(consent_body s1 "$_a")"
		timeout 10 env -i "${P[@]}" "$FCGI" -bind -connect "$T/kill.sock" < "$T/request" > "$T/burst-$1.out" 2>/dev/null
		echo "$_a $(status_of "$T/burst-$1.out")"
	done > "$T/burst-$1.log"
}
# Each client writes its body to $T/request: give each its own directory.
clients=""
for c in 1 2 3; do
	( T="$T/c$c"; mkdir -p "$T"; ln -s "$(dirname "$T")/kill.sock" "$T/kill.sock"; burst "$c" ) &
	clients="$clients $!"
done
# The kill comes once 20 consents are acknowledged, of the 180 sent.
for i in $(seq 600); do
	[ "$(cat "$T"/c[123]/burst-*.log 2>/dev/null | awk '$2 == 201' | wc -l)" -ge 20 ] && break
	sleep 0.05
done
{
	kill -KILL "$(pid_of kill)"
	wait $clients "$(pid_of kill)"
} 2>/dev/null   # bash's "Killed" notice
acked=0 lost=0
for c in 1 2 3; do
	while read -r a s; do
		[ "$s" = 201 ] || continue
		acked=$((acked + 1))
		h=$(printf %s "$a" | sha256sum | cut -c1-64)
		[ "$(db "SELECT count(*) FROM consent_log WHERE anon_id_hash = '$h'")" = 1 ] || lost=$((lost + 1))
	done < "$T/c$c/burst-$c.log"
done
check test "$acked" -gt 0 "SIGKILL mid-burst: some consents were acknowledged before it ($acked)"
check test "$(cat "$T"/c[123]/burst-*.log | awk '$2 != 201' | wc -l)" -gt 0 "and some were not (the kill came mid-burst)"
check test "$lost" = 0 "every acknowledged (201) consent is stored"
intact
fcgi_start kill2 consent
same kill2 "the next process serves" POST consent "" "$(consent_body s1 visitor-after-kill)"
fcgi_stop kill2

# ---- group commit: the consents waiting on one process share one commit ----
# 8 clients at once, 20 requests each, through one consent process: five
# send new visitors' consents, three what is refused (a body that is not
# JSON, an unknown site, an Origin the site does not have).  Their writes
# are committed in groups (serve.h): every answer is still the one a new
# CGI process gives to that request, every 201 is stored, and the process
# synced the disk fewer times than it answered 201 (strace, when it may
# attach to the process).
gkinds="ok1 ok2 ok3 ok4 ok5 bad nosite origin" gp=group
gbody() { # KIND N
	case $1 in
	ok*) consent_body s1 "$gp-$1-$2" ;;
	bad) printf '{"site_key":"s1",' ;;
	nosite) consent_body nosuch "group-nosite-$2" ;;
	origin) consent_body s1 "group-origin-$2" ;;
	esac
}
gorigin() { [ "$1" = origin ] && echo https://elsewhere.example || echo "$ORIGIN"; }
# The reference answers: a new CGI process's, one per kind.
for k in $gkinds; do
	ORIGIN=$(gorigin "$k") CONSENT_TEST_MODE=cgi cgi POST consent "" "$(gbody "$k" ref)"
	cp "$T/out" "$T/gref-$k"
done
gclient() { # PROCESS KIND N: N requests of KIND, a line "N status same|differs" each
	local _i
	for _i in $(seq "$3"); do
		ORIGIN=$(gorigin "$2") fcgi_env POST consent "" "$(gbody "$2" "$_i")"
		timeout 20 env -i "${P[@]}" "$FCGI" -bind -connect "$T/$1.sock" < "$T/request" > "$T/g.out" 2>/dev/null
		echo "$_i $(status_of "$T/g.out") $(cmp -s "$T/g.out" "$T/../gref-$2" && echo same || echo differs)"
	done > "$T/g.log"
}
# gburst PROCESS N: every kind's client at once, each in its own directory.
gburst() {
	local _k _c=""
	for _k in $gkinds; do
		( T="$T/g-$1-$_k"; mkdir -p "$T"; ln -s "$(dirname "$T")/$1.sock" "$T/$1.sock"; gclient "$1" "$_k" "$2" ) &
		_c="$_c $!"
	done
	wait $_c
}
glog() { cat "$T/g-$1-$2/g.log"; }
stored() { # KIND N: how many of KIND's N visitors ($gp-KIND-1 ...) have their entry
	local _n=0 _a
	for _a in $(seq "$2"); do
		[ "$(db "SELECT count(*) FROM consent_log WHERE anon_id_hash = '$(printf %s "$gp-$1-$_a" | sha256sum | cut -c1-64)'")" = 1 ] && _n=$((_n + 1))
	done
	echo "$_n"
}
# repeat_clients PROCESS CLIENTS N ANON: CLIENTS clients of fcgi-client
# repeat at once, N times ANON's consent each; their first answers in
# $T/PROCESS-repeat-I.out, bad: how many failed.
repeat_clients() {
	local _b _c="" _i _p
	_b=$(consent_body s1 "$4")
	for _i in $(seq "$2"); do
		printf '%s' "$_b" | env -i REQUEST_METHOD=POST CONTENT_LENGTH=${#_b} CONTENT_TYPE=application/json \
		    HTTP_ORIGIN="$ORIGIN" REMOTE_ADDR=127.0.0.1 CONSENT_DB="$CONSENT_DB" \
		    "$FCGI_CLIENT" repeat -t 120 "$T/$1.sock" "$3" > "$T/$1-repeat-$_i.out" 2>&1 &
		_c="$_c $!"
	done
	bad=0
	for _p in $_c; do wait "$_p" || bad=$((bad + 1)); done
}
fcgi_start group consent
fcgi_ready group
gburst group 20
for k in $gkinds; do
	want=$(status_of "$T/gref-$k")
	check test "$(glog group "$k" | awk -v w="$want" '$2 == w && $3 == "same"' | wc -l)" = 20 \
	    "group commit, 8 clients at once: all 20 $k answers are a new CGI process's ($want)$(glog group "$k" | awk '$3 != "same" { printf " %s:%s", $1, $2 }' | head -c 200)"
done
acked=0 kept=0
for k in ok1 ok2 ok3 ok4 ok5; do
	acked=$((acked + $(glog group "$k" | awk '$2 == 201' | wc -l)))
	kept=$((kept + $(stored "$k" 20)))
done
check test "$acked:$kept" = "100:100" "every one of the 100 consents is acknowledged and stored ($acked acknowledged, $kept stored)"
check test "$(stored nosite 20):$(stored origin 20)" = "0:0" "and none of the refused ones"
# The syncs: 8 clients of fcgi-client repeat (far quicker than cgi-fcgi),
# 50 consents each, the process under strace.  PostgreSQL's server syncs,
# not the process: there the 400 are only counted.
if store_is_postgres; then
	before=$(db 'SELECT count(*) FROM consent_log')
	repeat_clients group 8 50 group-repeat
	n=$(($(db 'SELECT count(*) FROM consent_log') - before))
	check test "$bad:$n:$(status_of "$T/group-repeat-1.out")" = "0:400:201" "8 clients x 50 consents at once: all 400 answered 201 and stored ($bad clients failed, $n stored)"
	skip "the process synced the disk fewer times than it answered: SQLite only (fdatasync of the database file)"
elif [ "${VALGRIND:-0}" != 1 ] && command -v strace >/dev/null 2>&1; then
	strace -qq -e trace=fdatasync -o "$T/group.strace" -p "$(pid_of group)" 2>/dev/null &
	trace=$!
	sleep 0.5
	if kill -0 "$trace" 2>/dev/null; then
		before=$(db 'SELECT count(*) FROM consent_log')
		repeat_clients group 8 50 group-repeat
		{ kill -INT "$trace"; wait "$trace"; } 2>/dev/null
		n=$(($(db 'SELECT count(*) FROM consent_log') - before))
		syncs=$(grep -c '^fdatasync(' "$T/group.strace")
		check test "$bad:$n:$(status_of "$T/group-repeat-1.out")" = "0:400:201" "8 clients x 50 consents at once: all 400 answered 201 and stored ($bad clients failed, $n stored)"
		check test "$syncs" -gt 0 -a "$syncs" -lt $((n / 2)) "the process synced the disk $syncs times for them, fewer than one in two: writes waiting together share a commit"
	else
		skip "syncs of a group commit: strace cannot attach to the process here"
	fi
else
	skip "syncs of a group commit: no strace, or valgrind runs the process"
fi
intact
fcgi_stop group
check test $? = 0 "the process exits 0 on SIGTERM after the bursts"

# ---- group commit: a commit that fails answers 500 to every write it held ----
# The process under a file size limit its writes cannot meet (prlimit;
# SIGXFSZ ignored, as t0930 does): every consent of a burst is answered
# 500, none is stored, the refused ones keep their own answers; with the
# limit lifted, the same process stores and acknowledges every one.
# PostgreSQL: a deferred constraint trigger on consent_log fails every
# commit that holds an entry (the superuser's, through psql); dropping it
# lifts the fault.
if store_is_postgres; then
	how="a trigger failing each commit" lifted="the trigger dropped"
	fail_on() {
		db "CREATE FUNCTION t0960_fail() RETURNS trigger LANGUAGE plpgsql
		    AS \$\$BEGIN RAISE EXCEPTION 'commit refused by t0960''s trigger'; END\$\$;
		    CREATE CONSTRAINT TRIGGER t0960_fail AFTER INSERT ON consent_log
		    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION t0960_fail()"
	}
	fail_off() { db "DROP TRIGGER t0960_fail ON consent_log; DROP FUNCTION t0960_fail()"; }
else
	how="file size limit" lifted="the limit lifted"
	fail_on() { prlimit --pid "$(pid_of gfail)" --fsize=1024: ; }
	fail_off() { prlimit --pid "$(pid_of gfail)" --fsize=unlimited: ; }
fi
if store_is_postgres || command -v prlimit >/dev/null 2>&1; then
	trap '' XFSZ
	fcgi_start gfail consent
	trap - XFSZ
	fcgi_ready gfail
	fail_on
	gkinds="ok1 ok2 ok3 bad" gp=gfail
	gburst gfail 10
	for k in ok1 ok2 ok3; do
		check test "$(glog gfail "$k" | awk '$2 == 500' | wc -l)" = 10 "commits that fail ($how): all 10 $k consents answered 500$(glog gfail "$k" | awk '$2 != 500 { printf " %s:%s", $1, $2 }' | head -c 200)"
	done
	check test "$(glog gfail bad | awk '$2 == 400 && $3 == "same"' | wc -l)" = 10 "and the bad bodies among them their own 400"
	check test "$(($(stored ok1 10) + $(stored ok2 10) + $(stored ok3 10)))" = 0 "none of them is stored"
	check grep -q "Internal server error\|commit\|disk\|large\|full" "$T/gfail.err" "the process says why on stderr"
	fail_off
	rm -rf "$T"/g-gfail-*
	gkinds="ok1 ok2 ok3"
	gburst gfail 10
	n=0
	for k in ok1 ok2 ok3; do n=$((n + $(glog gfail "$k" | awk '$2 == 201' | wc -l))); done
	check test "$n:$(($(stored ok1 10) + $(stored ok2 10) + $(stored ok3 10)))" = "30:30" "$lifted: the same process acknowledges and stores all 30 again"
	intact
	fcgi_stop gfail
	check test $? = 0 "the process exits 0 on SIGTERM"
else
	skip "group commit that fails: prlimit is not installed (util-linux)"
fi

# ---- the database replaced under a process (mv over it) ----
if store_is_postgres; then
	skip "a database file moved over the one a process has open: SQLite only"
else
	export CONSENT_DB="$T/rep.db"
	ctl init >/dev/null
	site s1
	fcgi_start rep config CONSENT_DB="$CONSENT_DB"
	same rep "before the replacement" GET config "site_key=s1"
	CONSENT_DB="$T/new.db" ctl init >/dev/null
	CONSENT_DB="$T/new.db" ctl site add s1 --name "Replaced" --domain example.com >/dev/null
	# Both WALs checkpointed and emptied first: the -wal and -shm files belong
	# to the path, not to the file moved there (as in CGI mode).
	sqlite3 "$T/new.db" 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
	sqlite3 "$CONSENT_DB" 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
	rm -f "$T/new.db-wal" "$T/new.db-shm"
	mv "$T/new.db" "$CONSENT_DB"
	same rep "after a new file was moved over it: the new file's answer" GET config "site_key=s1"
	check grep -q '"site_name":"Replaced"' "$T/fout" "the answer is the new database's"
	fcgi_stop rep
fi

# ---- the database's mount made read-only under a process ----
if store_is_postgres; then
	skip "the database's mount made read-only under a process: SQLite only"
else
	mkdir "$T/rodb"
	export CONSENT_DB="$T/rodb/consent.db"
	ctl init >/dev/null
	site s1
	if [ "$(id -u)" = 0 ] && mount --bind "$T/rodb" "$T/rodb" 2>/dev/null; then
		if mount -o remount,bind,ro "$T/rodb" 2>/dev/null; then
			umount "$T/rodb"
			fcgi_start ro consent
			same ro "consent before the mount turns read-only" POST consent "" "$(consent_body s1 ro-1)"
			mount --bind "$T/rodb" "$T/rodb" && mount -o remount,bind,ro "$T/rodb"
			same ro "consent on a read-only mount: refused as a new process refuses it" POST consent "" "$(consent_body s1 ro-2)"
			check test "$(cat "$T/status")" = 500 "it is a 500"
			umount "$T/rodb"
			same ro "consent once the mount is writable again" POST consent "" "$(consent_body s1 ro-3)"
			fcgi_stop ro
			check test "$(grep -c . "$T/ro.err")" = 1 "one line on stderr, for the refused request ($(head -c 80 "$T/ro.err"))"
		else
			umount "$T/rodb"
			skip "read-only mount: remount read-only is not permitted here"
		fi
	else
		skip "read-only mount: not root, or mount is not permitted here"
	fi
fi

# ---- the database upgraded under a process (consentctl init) ----
# PostgreSQL has no older schema to upgrade from; a newer one is checked
# on the test database (schema_version), then put back.
if store_is_postgres; then
	skip "a version-2 database upgraded under a process: SQLite only (PostgreSQL's first schema is version 4)"
	fcgi_start upc config
	fcgi_start upk consent
	same upc "config before schema_version changes" GET config "site_key=s1"
	# A schema newer than this build's: whatever a new process answers, a kept one does.
	db 'UPDATE schema_version SET version = 99'
	same upc "config after schema_version changed under it" GET config "site_key=s1"
	same upk "consent after schema_version changed under it" POST consent "" "$(consent_body s1 visitor-v99)"
	db 'UPDATE schema_version SET version = 4'
	fcgi_stop upc
	fcgi_stop upk
else
	export CONSENT_DB="$T/old.db"
	sqlite3 "$CONSENT_DB" < "$TOP/tests/fixtures/schema-v2.sql"
	sqlite3 "$CONSENT_DB" 'PRAGMA journal_mode = WAL' >/dev/null
	sqlite3 "$CONSENT_DB" "INSERT INTO sites (id, site_key, name, tier, mau_cap, paused, created_at)
	    VALUES (1, 'up1', 'Upgraded', 'free', 500, 0, '2026-01-01T00:00:00.000Z');
	    INSERT INTO domains VALUES (1, 'example.com');"
	fcgi_start upc config
	fcgi_start upk consent
	same upc "config on a version-2 database" GET config "site_key=up1"
	same upk "consent on a version-2 database" POST consent "" "$(consent_body up1 visitor-v2)"
	ctl init >/dev/null
	same upc "config after consentctl init upgraded it" GET config "site_key=up1"
	check test "$(cat "$T/status")" = 200 "config answers 200 after the upgrade"
	same upk "consent after consentctl init upgraded it" POST consent "" "$(consent_body up1 visitor-v4)"
	check test "$(cat "$T/status")" = 201 "consent answers 201 after the upgrade"
	# A schema newer than this build's: whatever a new process answers, a kept one does.
	sqlite3 "$CONSENT_DB" 'PRAGMA user_version = 99' >/dev/null
	same upc "config after user_version changed under it" GET config "site_key=up1"
	same upk "consent after user_version changed under it" POST consent "" "$(consent_body up1 visitor-v99)"
	fcgi_stop upc
	fcgi_stop upk
fi

# ---- memory: valgrind over a few thousand requests of one process ----
# valgrind cannot replace the malloc of a fully static program: with the
# default (static) build the programs of a shared build of the same tree
# are run instead, VALGRIND_BUILD (make check makes build/valgrind).
store_is_postgres || export CONSENT_DB="$T/consent.db"
dynamic() { LC_ALL=C readelf -lW "$1" 2>/dev/null | grep -q INTERP; }
vgbuild=$BUILD
dynamic "$BUILD/cgi-bin/consent" || vgbuild=${VALGRIND_BUILD:-$TOP/build/valgrind}
if [ "${SANITIZED:-0}" = 1 ]; then
	skip "valgrind over one FastCGI process (the sanitizer build has LeakSanitizer instead)"
elif fcgi_mode; then
	skip "valgrind over one FastCGI process: run by the suite's CGI pass (this test starts its own processes in both)"
elif ! command -v valgrind >/dev/null 2>&1; then
	skip "valgrind over one FastCGI process: valgrind is not installed"
elif store_is_postgres && ! grep -q -- '-DSTORE_POSTGRES' "$vgbuild/obj/flags.stamp" 2>/dev/null; then
	if [ "${CI:-}" = true ]; then
		notok "valgrind over one FastCGI process: $vgbuild is not a PostgreSQL build (make check makes build/valgrind-pg)"
	else
		skip "valgrind over one FastCGI process: $vgbuild is not a PostgreSQL build (make check makes build/valgrind-pg)"
	fi
elif ! dynamic "$vgbuild/cgi-bin/consent"; then
	if [ "${CI:-}" = true ]; then
		notok "valgrind over one FastCGI process: no shared build in $vgbuild (make check makes build/valgrind)"
	else
		skip "valgrind over one FastCGI process: no shared build in $vgbuild (make check makes build/valgrind)"
	fi
else
	FCGI_PROG_DIR=$vgbuild/cgi-bin
	fcgi_spawn vg consent valgrind -q --error-exitcode=99 --leak-check=full \
	    --errors-for-leak-kinds=definite,indirect -- CONSENT_FCGI_MAX_REQUESTS=1300
	# 4 clients at once, 25 consents each: group commits under memcheck.
	repeat_clients vg 4 25 vg-burst
	check test "$bad:$(status_of "$T/vg-repeat-1.out")" = "0:201" "valgrind: 4 clients x 25 consents at once (group commits), all answered 201"
	n=0
	for i in $(seq 400); do
		fcgi vg POST consent "" "$(consent_body s1 "vg-$i")"; [ "$(status_of "$T/fout")" = 201 ] && n=$((n + 1))
		fcgi vg POST consent "" '{"site_key":1}'; [ "$(status_of "$T/fout")" = 400 ] && n=$((n + 1))
		ORIGIN=https://evil.example fcgi vg POST consent "" "$(consent_body s1 "vg-$i")"
		[ "$(status_of "$T/fout")" = 403 ] && n=$((n + 1))
	done
	check test "$n" = 1200 "valgrind: 1200 consent requests answered as expected"
	fcgi_wait vg 60
	check test $? = 0 "valgrind: no error and no leak after 1200 consent requests of one process"
	fcgi_spawn vgc config valgrind -q --error-exitcode=99 --leak-check=full \
	    --errors-for-leak-kinds=definite,indirect -- CONSENT_FCGI_MAX_REQUESTS=800
	n=0
	for i in $(seq 200); do
		fcgi vgc GET config "site_key=s1&lang=de"; [ "$(status_of "$T/fout")" = 200 ] && n=$((n + 1))
		ORIGIN=https://other.org fcgi vgc HTTP_ACCEPT_LANGUAGE=fr GET config "site_key=s2"
		[ "$(status_of "$T/fout")" = 200 ] && n=$((n + 1))
		fcgi vgc GET config "site_key=nope"; [ "$(status_of "$T/fout")" = 404 ] && n=$((n + 1))
		fcgi vgc CONSENT_MAU_CAP=0 GET config "site_key=s1&region=EU"; [ "$(status_of "$T/fout")" = 200 ] && n=$((n + 1))
	done
	check test "$n" = 800 "valgrind: 800 config requests answered as expected"
	fcgi_wait vgc 60
	check test $? = 0 "valgrind: no error and no leak after 800 config requests of one process"
	fcgi_spawn vgs scripts valgrind -q --error-exitcode=99 --leak-check=full \
	    --errors-for-leak-kinds=definite,indirect -- CONSENT_FCGI_MAX_REQUESTS=400
	n=0
	for i in $(seq 200); do
		fcgi vgs POST scripts "" "$(scripts_body s1 "vg$i.example.net")"; [ "$(status_of "$T/fout")" = 200 ] && n=$((n + 1))
		fcgi vgs POST scripts "" "$big"; [ "$(status_of "$T/fout")" = 413 ] && n=$((n + 1))
	done
	check test "$n" = 400 "valgrind: 400 scripts requests answered as expected"
	fcgi_wait vgs 60
	check test $? = 0 "valgrind: no error and no leak after 400 scripts requests of one process"
	FCGI_PROG_DIR=
fi

# ---- memory: the resident set does not grow with the requests ----
if [ "${SANITIZED:-0}" = 1 ] || [ "${VALGRIND:-0}" = 1 ]; then
	skip "RSS over 1000 requests (the sanitizers' quarantine and valgrind keep freed memory)"
	exit 0
fi
fcgi_start rss config
rss_after() { # N more requests, then VmRSS in kB
	local _i
	for _i in $(seq "$1"); do fcgi rss GET config "site_key=s1&lang=de"; done
	awk '/^VmRSS:/ { print $2 }' "/proc/$(pid_of rss)/status"
}
r1=$(rss_after 200)
r2=$(rss_after 800)
check test "$((r2 - r1))" -le 512 "RSS after 1000 requests within 512 kB of RSS after 200 ($r1 kB, $r2 kB)"
fcgi_stop rss
