# setup.sh: sourced by every tests/tNNNN-topic.sh.
#
# Gives each test a fresh directory $T with an empty database ($CONSENT_DB,
# made by `consentctl init`) and these helpers:
#
#   ctl ARGS...                  run consentctl on the test database
#   cgi [VAR=value]... METHOD ENDPOINT [QUERY [BODY]]
#                                run cgi-bin/ENDPOINT as a web server would,
#                                with a clean environment; HTTP_ORIGIN is
#                                $ORIGIN unless ORIGIN is empty; the body is
#                                sent on stdin with CONTENT_LENGTH set to its
#                                size unless a CONTENT_LENGTH=... is given.
#                                Leaves $T/status, $T/headers, $T/body.
#   expect_status CODE DESC      the Status line
#   expect_header NAME VALUE DESC    a header's value (exact)
#   expect_no_header NAME DESC
#   expect_json JQ VALUE DESC    `jq -c JQ` of the body equals VALUE
#   expect_error CODE MESSAGE    status and {"error": MESSAGE} body
#   ok DESC / notok DESC / skip DESC / check COND... DESC
#
#   CGI_EXTRA=(VAR=value...)     variables the next requests get after the
#                                helper's (they win, and may hold CR and LF)
#   CGI_STDIN=FILE               the body is that file's bytes instead
#
# CONSENT_TEST_STORE=postgres (default sqlite) stores in PostgreSQL:
# $CONSENT_DB is then a fresh database of the run's cluster (tests/run.sh
# starts it in $CONSENT_PG_DIR with tests/pg.sh, whose helpers are sourced
# here), a conninfo through its pgbouncer, "host=DIR port=6432 dbname=NAME
# user=consent"; $PG_DB is NAME (empty on SQLite), for pg_psql NAME to
# look at the tables directly; it is dropped at the end of the file.
#
#   store_is_postgres            true when the tests store in PostgreSQL
#   needs_sqlite REASON          the file reads or writes the SQLite file
#                                itself (sqlite3, ctl-helpers.sh's db): on
#                                PostgreSQL print "skip - FILE: REASON
#                                (SQLite only)" and exit 0
#
# Binaries come from $BUILD (default: the repository).  VALGRIND=1 runs them
# under valgrind; a sanitizer or valgrind report makes the process exit
# non-zero, which is reported as a failure.
#
# CONSENT_TEST_MODE=fcgi sends every `cgi` request through FastCGI instead
# ($BUILD/tests/fcgi-client): one long-lived process per endpoint, started
# at its first request with only PATH, CONSENT_DB and the sanitizer options
# in its environment (under valgrind when VALGRIND=1), every CGI variable
# and setting sent as the request's params.  $T/status, headers, body and
# out are as in CGI mode; $T/stderr holds what the process logged during
# the request and the request's FCGI_STDERR.  A process that died is a
# "not ok" unless the test ended it (fcgi_proc_kill); at the end of the file
# each process gets SIGTERM and must exit 0 (a leak report under ASan or
# valgrind makes it exit non-zero).  Helpers for tests about processes:
#
#   fcgi_mode                    true in FastCGI mode
#   $CGI_BIN/ENDPOINT            what scripts run for one request: the CGI
#                                program, or a stand-in sending it by FastCGI
#   fcgi_proc_ready NAME...      (FastCGI mode) NAME's processes run, for
#                                scripts that use $CGI_BIN
#   fcgi_proc_pids NAME          the pids (one process started if need be)
#   fcgi_proc_start NAME [N]     a fresh set of N processes on one socket;
#                                NAME is ENDPOINT or ENDPOINT.SUFFIX
#   fcgi_proc_kill NAME [SIGNAL] end them on purpose (default KILL), print
#                                how they ended ("1x signal 9"); the next
#                                request starts a new one
#   fcgi_proc_stop [NAME...]     SIGTERM, "not ok" unless each exits 0 (all
#                                running sets without an argument)
#   FCGI_ENV=(VAR=value...)      added to the environment of processes
#                                started from now on
#   FCGI_PRE=(cmd...)            what processes started from now on run
#                                behind (setpriv, prlimit); SIGXFSZ ignored
#   FCGI_ERRPIPE=1               their stderr goes through a pipe (a file
#                                size limit must not meet the log)

set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP}
SHARED=${SHARED:-$TOP/../shared}
T=$(mktemp -d "${TMPDIR:-/tmp}/consent-test.XXXXXX")
CONSENT_TEST_STORE=${CONSENT_TEST_STORE:-sqlite}
PG_DB=
# _reap_strays: processes still running a program under $T (FastCGI
# processes whose server was killed before them: a web server stopped by
# SIGKILL leaves its children behind) end with the test.
_reap_strays() {
	local _c _a _p
	for _c in /proc/[0-9]*/cmdline; do
		_a=
		IFS= read -r -d '' _a < "$_c" 2>/dev/null
		case $_a in
		"$T"/*) _p=${_c#/proc/} && kill -KILL "${_p%/cmdline}" 2>/dev/null ;;
		esac
	done
}
# A test that sets its own EXIT trap calls _cleanup from it.
_cleanup() {
	fcgi_mode && _fcgi_stop
	_reap_strays
	if [ -n "$PG_DB" ]; then
		pg_drop_db "$PG_DB" > "$T/pg-drop" 2>&1 ||
			notok "dropping the test database $PG_DB: $(tr '\n' ' ' < "$T/pg-drop")"
		PG_DB=
	fi
	rm -rf "$T"
}
trap _cleanup EXIT
ORIGIN=${ORIGIN-https://example.com}
unset CONSENT_GEOIP_DB CONSENT_COUNTRY_HEADER CONSENT_MAU_CAP

ok()    { echo "ok - $*"; }
notok() { echo "not ok - $*"; }
skip()  { echo "skip - $*"; }

store_is_postgres() { [ "$CONSENT_TEST_STORE" = postgres ]; }

needs_sqlite() { # REASON
	store_is_postgres || return 0
	skip "$(basename "$0"): $1 (SQLite only)"
	exit 0
}

# The database, named for the test file so that a leftover or a server log
# line says whose it is.
case $CONSENT_TEST_STORE in
sqlite) CONSENT_DB=$T/consent.db ;;
postgres)
	. "$TOP/tests/pg.sh"
	CONSENT_DB=$(pg_new_db "$(basename "$0" .sh)" 2> "$T/pg-new") ||
		{ notok "a PostgreSQL test database: $(tr '\n' ' ' < "$T/pg-new")"; exit 1; }
	PG_DB=${CONSENT_DB#*dbname=}
	PG_DB=${PG_DB%% *}
	;;
*) notok "CONSENT_TEST_STORE=$CONSENT_TEST_STORE: sqlite or postgres"; exit 1 ;;
esac
export CONSENT_DB

# check CMD... DESC: ok when the command (all but the last word) succeeds.
check() {
	local _desc _n _args _i _a
	_desc=$(eval "echo \${$#}")
	_n=$(($# - 1))
	_args=""
	_i=1
	for _a in "$@"; do
		[ "$_i" -gt "$_n" ] && break
		_args="$_args \"\${$_i}\""
		_i=$((_i + 1))
	done
	if eval "$_args" >/dev/null 2>&1; then ok "$_desc"; else notok "$_desc"; fi
}

_wrap() {
	if [ "${VALGRIND:-0}" = 1 ]; then
		valgrind -q --error-exitcode=99 --leak-check=full \
		    --errors-for-leak-kinds=definite,indirect "$@"
	else
		"$@"
	fi
}

ctl() { _wrap "$BUILD/bin/consentctl" "$@"; }

# The environment a web server gives a CGI program (RFC 3875 4.1), plus the
# service's own settings when the test exported them.
cgi() {
	local _vars _method _endpoint _query _body _len _rc _old_ifs _v _e _hlen _off
	_vars=""
	while [ $# -gt 0 ]; do
		case "$1" in
		[A-Z_]*=*) _vars="$_vars
$1"; shift ;;
		*) break ;;
		esac
	done
	_method=$1 _endpoint=$2 _query=${3-} _body=${4-}
	printf '%s' "$_body" > "$T/request"
	_len=$(wc -c < "$T/request" | tr -d ' ')
	set -- REQUEST_METHOD="$_method" QUERY_STRING="$_query" \
	    GATEWAY_INTERFACE=CGI/1.1 SERVER_PROTOCOL=HTTP/1.1 \
	    SCRIPT_NAME="/functions/v1/$_endpoint" REMOTE_ADDR=127.0.0.1 \
	    PATH="$PATH" CONSENT_DB="$CONSENT_DB"
	[ "$_method" = POST ] && set -- "$@" CONTENT_LENGTH="$_len" CONTENT_TYPE=application/json
	[ -n "$ORIGIN" ] && set -- "$@" HTTP_ORIGIN="$ORIGIN"
	for _e in CONSENT_GEOIP_DB CONSENT_COUNTRY_HEADER CONSENT_MAU_CAP ASAN_OPTIONS UBSAN_OPTIONS; do
		eval "[ -n \"\${$_e+x}\" ] && set -- \"\$@\" $_e=\"\$$_e\""
	done
	_old_ifs=$IFS
	IFS='
'
	for _v in $_vars; do
		[ -n "$_v" ] && set -- "$@" "$_v"
	done
	IFS=$_old_ifs
	set -- "$@" ${CGI_EXTRA[@]+"${CGI_EXTRA[@]}"}
	if fcgi_mode; then
		_fcgi_request "$_endpoint" "$@"
	else
		_wrap env -i "$@" "$BUILD/cgi-bin/$_endpoint" < "${CGI_STDIN:-$T/request}" > "$T/out" 2> "$T/stderr"
		_rc=$?
		if [ "$_rc" -ne 0 ]; then
			notok "$_endpoint exited with status $_rc: $(tail -n 5 "$T/stderr" | tr '\n' ' ')"
		fi
	fi
	# Split the CGI answer: headers up to the first empty line, then the body.
	awk 'h==0 { sub(/\r$/, ""); if ($0 == "") { h=1; next } print > "/dev/stdout"; next }
	     { print > "/dev/stderr" }' "$T/out" > "$T/headers" 2> /dev/null
	_hlen=$(awk '{ sub(/\r$/, "") } $0 == "" { print NR; exit }' "$T/out")
	if [ -n "$_hlen" ]; then
		# Body bytes exactly as sent: everything after the blank line.
		_off=$(awk -v n="$_hlen" 'NR <= n { s += length($0) + 1 } END { print s }' "$T/out")
		tail -c +$((_off + 1)) "$T/out" > "$T/body"
	else
		: > "$T/body"
	fi
	sed -n 's/^Status: \([0-9][0-9][0-9]\).*/\1/p' "$T/headers" > "$T/status"
	return 0
}

# --- FastCGI mode ---------------------------------------------------------------
# A process set is named for its endpoint (consent), or the endpoint and a
# suffix (consent.2) for more than one.  $T/fcgi/NAME.sock is its socket,
# NAME.err its processes' stderr, NAME.spawn what fcgi-client spawn prints:
# the pids on one line, then "exit N" or "signal N" as each ends, and NAME
# a link to fcgi-client that sends one request to NAME.sock (a stand-in
# for cgi-bin/ENDPOINT in scripts: $CGI_BIN/consent).  Files, not shell
# variables, so that a request made in a subshell starts processes the rest
# of the file sees.
CONSENT_TEST_MODE=${CONSENT_TEST_MODE:-cgi}
CGI_EXTRA=()
CGI_STDIN=
FCGI_PRE=()
FCGI_ENV=()
FCGI_ERRPIPE=
FCGI_CLIENT=$BUILD/tests/fcgi-client

fcgi_mode() { [ "$CONSENT_TEST_MODE" = fcgi ]; }
if fcgi_mode; then CGI_BIN=$T/fcgi; else CGI_BIN=$BUILD/cgi-bin; fi

# mode_independent: called by a test that never sends a request through
# `cgi` (it starts its own servers or FastCGI processes, the same whatever
# CONSENT_TEST_MODE says): in the FastCGI pass it would run the same
# programs the same way as in the plain pass, so there it skips, with one
# line, and ends the test.
mode_independent() {
	if fcgi_mode; then
		skip "$(basename "$0" .sh): the same programs run the same way as in the plain pass (it starts its own servers or processes)"
		exit 0
	fi
}

# plain_pass_only: called by a browser test (the SDK and the pages are the
# same JavaScript whatever the store or the sanitizer behind them): it runs
# in the plain pass only (SQLite, CGI, no sanitizer) and skips with one
# line in the FastCGI, PostgreSQL and sanitized passes, whose black-box
# tests cover the programs' own work.
plain_pass_only() {
	if fcgi_mode || store_is_postgres || [ -n "${SANITIZED:-}" ]; then
		skip "$(basename "$0" .sh): the plain pass runs it (a browser test: the same JavaScript whatever the store or sanitizer)"
		exit 0
	fi
}

# server_test: called by a deploy test (a real server and the shipped
# config in front of the programs): it runs in the plain and PostgreSQL
# passes (the store's settings through each server) and skips in the
# FastCGI pass (mode_independent) and the sanitized one, where the
# programs' memory is the black-box tests' to check.  These two save make
# check about six minutes of its 35.
server_test() {
	mode_independent
	if [ -n "${SANITIZED:-}" ]; then
		skip "$(basename "$0" .sh): the plain and PostgreSQL passes run it (the sanitized programs are checked by the black-box tests)"
		exit 0
	fi
}

_fcgi_names() { # the sets started and not yet archived
	local _f
	for _f in "$T"/fcgi/*.spawn; do
		[ -f "$_f" ] && basename "$_f" .spawn
	done
}

_fcgi_running() { # NAME: every process of the set is alive
	local _s=$T/fcgi/$1.spawn _pids _p
	[ -f "$_s" ] && [ "$(wc -l < "$_s")" -eq 1 ] && read -r _pids < "$_s" || return 1
	for _p in $_pids; do kill -0 "$_p" 2>/dev/null || return 1; done
}

_fcgi_ended() { # NAME [SECONDS]: wait until every process ended; print how
	local _s=$T/fcgi/$1.spawn _i=0 _max=$((${2:-120} * 20)) _n
	_n=$(($(head -n 1 "$_s" | wc -w) + 1))
	while [ "$(wc -l < "$_s")" -lt "$_n" ] && [ "$_i" -lt "$_max" ]; do
		sleep 0.05
		_i=$((_i + 1))
	done
	sed -n '2,$p' "$_s" | sort | uniq -c | awk '{ $1 = $1 "x"; print }' | paste -sd, -
}

_fcgi_archive() { # NAME: the ended set is forgotten; its log stays
	mv "$T/fcgi/$1.spawn" "$T/fcgi/$1.spawn.$(date +%s%N)"
}

_fcgi_start() { # NAME [N]
	local _s=$T/fcgi/$1.spawn _i=0 _vg=() _env=(PATH="$PATH" CONSENT_DB="$CONSENT_DB")
	mkdir -p "$T/fcgi"
	ln -sf "$FCGI_CLIENT" "$T/fcgi/$1"
	[ "${VALGRIND:-0}" = 1 ] && _vg=(valgrind -q --error-exitcode=99 --leak-check=full
	    --errors-for-leak-kinds=definite,indirect)
	[ -n "${ASAN_OPTIONS+x}" ] && _env+=(ASAN_OPTIONS="$ASAN_OPTIONS")
	[ -n "${UBSAN_OPTIONS+x}" ] && _env+=(UBSAN_OPTIONS="$UBSAN_OPTIONS")
	_env+=(${FCGI_ENV[@]+"${FCGI_ENV[@]}"})
	: > "$_s"
	(
		trap '' XFSZ    # under prlimit --fsize a write fails with EFBIG instead
		if [ -n "$FCGI_ERRPIPE" ]; then
			exec 2> >(exec cat >> "$T/fcgi/$1.err")
		else
			exec 2>> "$T/fcgi/$1.err"
		fi
		env -i "${_env[@]}" "$FCGI_CLIENT" spawn -n "${2:-1}" "$T/fcgi/$1.sock" \
		    ${FCGI_PRE[@]+"${FCGI_PRE[@]}"} ${_vg[@]+"${_vg[@]}"} "$BUILD/cgi-bin/${1%%.*}" > "$_s" &
	)
	while [ ! -s "$_s" ] && [ "$_i" -lt 500 ]; do
		sleep 0.01
		_i=$((_i + 1))
	done
	[ -s "$_s" ] || { notok "$1: fcgi-client spawn did not start a process"; return 1; }
}

# _fcgi_check NAME WHEN: a process that ended without the test ending it is
# a failure, reported once.
_fcgi_check() {
	[ -f "$T/fcgi/$1.spawn" ] || return 0
	_fcgi_running "$1" && return 0
	notok "$1: a FastCGI process ended $2 ($(_fcgi_ended "$1" 5)): $(tail -n 5 "$T/fcgi/$1.err" | tr '\n' ' ' | cut -c1-400)"
	_fcgi_kill "$1" > /dev/null
}

fcgi_proc_pids() { _fcgi_pids "$@"; }
_fcgi_pids() { # NAME: the pids of the set (one process started if none runs)
	_fcgi_check "$1" "before a request"
	[ -f "$T/fcgi/$1.spawn" ] || _fcgi_start "$1" || return 1
	head -n 1 "$T/fcgi/$1.spawn"
}

fcgi_proc_ready() { # NAME...: in FastCGI mode, the sets are running
	local _n
	fcgi_mode || return 0
	for _n in "$@"; do _fcgi_pids "$_n" > /dev/null; done
}

fcgi_proc_start() { # NAME [N]: a fresh set of N processes (the old one stopped)
	_fcgi_stop "$1"
	_fcgi_start "$@"
}

fcgi_proc_kill() { _fcgi_kill "$@"; }
_fcgi_kill() { # NAME [SIGNAL]
	local _pids
	[ -f "$T/fcgi/$1.spawn" ] || return 0
	read -r _pids < "$T/fcgi/$1.spawn"
	kill -"${2:-KILL}" $_pids 2>/dev/null
	_fcgi_ended "$1"
	_fcgi_archive "$1"
}

fcgi_proc_stop() { _fcgi_stop "$@"; }
_fcgi_stop() { # [NAME...]: SIGTERM; each process must exit 0
	local _n _pids _end
	[ $# -gt 0 ] || set -- $(_fcgi_names)
	for _n in "$@"; do
		[ -f "$T/fcgi/$_n.spawn" ] || continue
		_fcgi_check "$_n" "while idle"
		[ -f "$T/fcgi/$_n.spawn" ] || continue
		read -r _pids < "$T/fcgi/$_n.spawn"
		kill -TERM $_pids 2>/dev/null
		_end=$(_fcgi_ended "$_n")
		if ! [[ $_end =~ ^[0-9]+x\ exit\ 0$ ]]; then
			kill -KILL $_pids 2>/dev/null
			notok "$_n: FastCGI processes ended with ${_end:-nothing within 120 s} on SIGTERM, want exit 0: $(tail -n 8 "$T/fcgi/$_n.err" | tr '\n' ' ' | cut -c1-600)"
		fi
		_fcgi_archive "$_n"
	done
	return 0
}

# _fcgi_request EP VAR=value...: the request the cgi helper built, as
# FastCGI params, the body as its stdin.
_fcgi_request() {
	local _ep=$1 _off _rc
	shift
	_fcgi_pids "$_ep" > /dev/null || return 0
	_off=$(stat -c %s "$T/fcgi/$_ep.err")
	env -i "$@" "$FCGI_CLIENT" request "$T/fcgi/$_ep.sock" < "${CGI_STDIN:-$T/request}" > "$T/out" 2> "$T/fcgi/request.err"
	_rc=$?
	[ -n "$FCGI_ERRPIPE" ] && sleep 0.2    # let the pipe's cat catch up
	tail -c +$((_off + 1)) "$T/fcgi/$_ep.err" > "$T/stderr"
	cat "$T/fcgi/request.err" >> "$T/stderr"
	if [ "$_rc" -ne 0 ]; then
		notok "$_ep: the FastCGI request ended with status $_rc: $(tail -n 5 "$T/stderr" | tr '\n' ' ')"
	fi
	_fcgi_check "$_ep" "during a request"
}

header() { # value of header NAME in the last answer, or nothing
	awk -v n="$1" 'BEGIN { n = tolower(n) } {
		i = index($0, ":"); if (i == 0) next
		if (tolower(substr($0, 1, i - 1)) == n) { v = substr($0, i + 1); sub(/^ /, "", v); print v; exit }
	}' "$T/headers"
}

expect_status() {
	_got=$(cat "$T/status")
	if [ "$_got" = "$1" ]; then ok "$2"; else notok "$2: status $_got, want $1 (body: $(head -c 200 "$T/body"))"; fi
}

expect_header() {
	_got=$(header "$1")
	if [ "$_got" = "$2" ]; then ok "$3"; else notok "$3: $1 is '$_got', want '$2'"; fi
}

expect_no_header() {
	if grep -qi "^$1:" "$T/headers"; then notok "$2: $1 present"; else ok "$2"; fi
}

expect_json() {
	_got=$(jq -c "$1" < "$T/body" 2>&1)
	if [ "$_got" = "$2" ]; then ok "$3"; else notok "$3: $1 is $_got, want $2"; fi
}

expect_error() {
	_got=$(cat "$T/status")
	_msg=$(jq -r '.error' < "$T/body" 2>/dev/null)
	_keys=$(jq -c 'keys' < "$T/body" 2>/dev/null)
	if [ "$_got" = "$1" ] && [ "$_msg" = "$2" ] && [ "$_keys" = '["error"]' ]; then
		ok "${3:-$1 $2}"
	else
		notok "${3:-$1 $2}: got $_got $(head -c 200 "$T/body")"
	fi
}

# The whole built-in config as the build assembles it (tools/embed-texts.sh):
# common/config/defaults.json with content.translations made of common/config/i18n/*.json,
# en first, then by code.
defaults_doc() {
	( cd "$TOP/common/config/i18n" && for f in en.json $(LC_ALL=C ls ./*.json | sed 's|^\./||' | grep -vx en.json); do
		printf '{"%s":' "${f%.json}"; cat "$f"; printf '}\n'
	done ) | jq -s --slurpfile base "$TOP/common/config/defaults.json" \
	    '. as $in | $base[0] | .content.translations = (reduce $in[] as $t ({}; . + $t))'
}

# A site with a registered domain, the usual start of a test.
site() { # KEY [args to site add]
	_k=$1; shift
	ctl site add "$_k" --name "Site $_k" --domain example.com "$@" >/dev/null
}

ctl init >/dev/null || { notok "consentctl init"; exit 1; }
