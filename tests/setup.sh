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
# Binaries come from $BUILD (default: the repository).  VALGRIND=1 runs them
# under valgrind; a sanitizer or valgrind report makes the process exit
# non-zero, which is reported as a failure.

set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP}
SHARED=${SHARED:-$TOP/../shared}
T=$(mktemp -d "${TMPDIR:-/tmp}/consent-test.XXXXXX")
trap 'rm -rf "$T"' EXIT
export CONSENT_DB="$T/consent.db"
ORIGIN=${ORIGIN-https://example.com}
unset CONSENT_GEOIP_DB CONSENT_COUNTRY_HEADER CONSENT_MAU_CAP

ok()    { echo "ok - $*"; }
notok() { echo "not ok - $*"; }
skip()  { echo "skip - $*"; }

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

ctl() { _wrap "$BUILD/tools/consentctl" "$@"; }

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
	_wrap env -i "$@" "$BUILD/cgi-bin/$_endpoint" < "$T/request" > "$T/out" 2> "$T/stderr"
	_rc=$?
	if [ "$_rc" -ne 0 ]; then
		notok "$_endpoint exited with status $_rc: $(tail -n 5 "$T/stderr" | tr '\n' ' ')"
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
# common/defaults.json with content.translations made of common/i18n/*.json,
# en first, then by code.
defaults_doc() {
	( cd "$TOP/common/i18n" && for f in en.json $(LC_ALL=C ls ./*.json | sed 's|^\./||' | grep -vx en.json); do
		printf '{"%s":' "${f%.json}"; cat "$f"; printf '}\n'
	done ) | jq -s --slurpfile base "$TOP/common/defaults.json" \
	    '. as $in | $base[0] | .content.translations = (reduce $in[] as $t ({}; . + $t))'
}

# A site with a registered domain, the usual start of a test.
site() { # KEY [args to site add]
	_k=$1; shift
	ctl site add "$_k" --name "Site $_k" --domain example.com "$@" >/dev/null
}

ctl init >/dev/null || { notok "consentctl init"; exit 1; }
