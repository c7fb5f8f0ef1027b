# admin.sh: sourced after setup.sh by the dashboard's tests (t07xx-admin-*).
#
#   api [VAR=value]... METHOD PATH [BODY]
#                      one request to cgi-bin/admin (ADMIN_PROG) as a browser
#                      on the dashboard's page makes it: PATH_INFO=/PATH (a
#                      "?query" goes to QUERY_STRING), HTTPS, HTTP_HOST and
#                      Origin the dashboard's own, Sec-Fetch-Site:
#                      same-origin, the JSON body with its length and type,
#                      the cookie $COOKIE and X-CSRF-Token $CSRF when set;
#                      VAR=value (after the helper's) wins.  As cgi: $T/status,
#                      $T/headers, $T/body; an answer without ADMIN.md 4's
#                      headers (or with a CORS one) is a "not ok" line; a
#                      download's Content-Type is $API_TYPE when set.
#   totp SECRET [TIME] the 6-digit code of a base32 secret at TIME (default
#                      CONSENT_TEST_NOW, else now)
#   admin_setup NAME PASSWORD
#                      the first owner through POST setup, then signed in
#                      with a TOTP code: SECRET, COOKIE, CSRF, RECOVERY (its
#                      recovery codes, one a line, in $T/recovery)
#   sign_in NAME PASSWORD [CODE]
#                      POST session; on 200 COOKIE and CSRF are the new session's
#   expect_api_headers DESC    ADMIN.md 4's headers on the last answer
#   use_test_clock     the requests go to tests/admin-clock, the program
#                      whose clock CONSENT_TEST_NOW moves; in the FastCGI
#                      pass the file skips (that program runs as CGI only)
#   ADMIN_PROG         admin (default), or ../tests/admin-clock (the test
#                      clock: CONSENT_TEST_NOW, passed on when set, as is
#                      CONSENT_DATA_DIR: the setup token's directory on PostgreSQL)

ADMIN_HOST=dash.example.test
ADMIN_ORIGIN=https://$ADMIN_HOST
ADMIN_PROG=${ADMIN_PROG:-admin}
COOKIE=
CSRF=
SECRET=
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

use_test_clock() {
	if fcgi_mode; then
		skip "$(basename "$0" .sh): the test clock's program runs as CGI only (t0701 and t0704 run cgi-bin/admin through FastCGI)"
		exit 0
	fi
	ADMIN_PROG=../tests/admin-clock
}

api() {
	local _vars=() _m _p _q="" _body _len
	while [ $# -gt 0 ]; do
		case "$1" in
		[A-Z_]*=*) _vars+=("$1"); shift ;;
		*) break ;;
		esac
	done
	_m=$1 _p=$2 _body=${3-}
	case $_p in *\?*) _q=${_p#*\?} _p=${_p%%\?*} ;; esac
	_len=$(printf '%s' "$_body" | wc -c | tr -d ' ')
	ORIGIN=$ADMIN_ORIGIN cgi SCRIPT_NAME=/admin/api PATH_INFO="/$_p" HTTPS=on \
	    HTTP_HOST="$ADMIN_HOST" HTTP_SEC_FETCH_SITE=same-origin \
	    CONTENT_LENGTH="$_len" CONTENT_TYPE=application/json \
	    ${COOKIE:+HTTP_COOKIE="__Host-consent_admin=$COOKIE"} \
	    ${CSRF:+HTTP_X_CSRF_TOKEN="$CSRF"} \
	    ${CONSENT_TEST_NOW:+CONSENT_TEST_NOW="$CONSENT_TEST_NOW"} \
	    ${CONSENT_DATA_DIR:+CONSENT_DATA_DIR="$CONSENT_DATA_DIR"} \
	    ${_vars[@]+"${_vars[@]}"} "$_m" "$ADMIN_PROG" "$_q" "$_body"
	# ADMIN.md 4: every answer of the API has these, whatever it says.
	awk -v ct="Content-Type: ${API_TYPE:-application/json; charset=utf-8}" \
	    'BEGIN { n = 0 } { sub(/\r$/, "") }
	     $0 == ct ||
	     $0 == "Cache-Control: no-store" || $0 == "X-Content-Type-Options: nosniff" ||
	     $0 == "Referrer-Policy: no-referrer" ||
	     $0 == "Content-Security-Policy: default-src '"'"'none'"'"'; frame-ancestors '"'"'none'"'"'" { n++ }
	     tolower($0) ~ /^access-control-/ { n = -100 }
	     END { exit n == 5 ? 0 : 1 }' "$T/headers" ||
		notok "ADMIN.md 4's headers on $_m /$_p ($(cat "$T/status")): $(tr '\n' '|' < "$T/headers")"
}

totp() {
	"$PY" - "$1" "${2:-${CONSENT_TEST_NOW:-$(date +%s)}}" <<'EOF'
import base64, hashlib, hmac, struct, sys
s = sys.argv[1].upper()
key = base64.b32decode(s + "=" * (-len(s) % 8))
mac = hmac.new(key, struct.pack(">Q", int(sys.argv[2]) // 30), hashlib.sha1).digest()
o = mac[-1] & 15
print("%06d" % ((struct.unpack(">I", mac[o:o + 4])[0] & 0x7fffffff) % 1000000))
EOF
}

# The value of the answer's cookie, or nothing.
set_cookie_value() {
	header Set-Cookie | sed -n 's/^__Host-consent_admin=\([^;]*\);.*/\1/p'
}

sign_in() {
	local _body
	_body=$(jq -cn --arg u "$1" --arg p "$2" --arg c "${3-}" \
	    '{username: $u, password: $p} + (if $c == "" then {} else {totp: $c} end)')
	COOKIE= CSRF= api POST session "$_body"
	if [ "$(cat "$T/status")" = 200 ]; then
		COOKIE=$(set_cookie_value)
		CSRF=$(jq -r .csrf "$T/body")
	fi
}

# On PostgreSQL the setup token's folder is CONSENT_DATA_DIR (there is no
# database file to put it beside), and consentctl init makes the schema
# first, as an installation does.  Nothing on SQLite.
admin_store_prepare() {
	store_is_postgres || return 0
	export CONSENT_DATA_DIR=$T
	ctl init > /dev/null
}

admin_setup() {
	local _token
	COOKIE= CSRF= api GET setup
	_token=$(cat "$(jq -r .token_file "$T/body")" 2>/dev/null)
	COOKIE= CSRF= api POST setup "$(jq -cn --arg t "$_token" --arg u "$1" --arg p "$2" \
	    '{token: $t, username: $u, password: $p}')"
	if [ "$(cat "$T/status")" != 201 ]; then
		notok "setup of $1: status $(cat "$T/status"): $(head -c 200 "$T/body")"
		return 1
	fi
	SECRET=$(jq -r .secret "$T/body")
	jq -r '.recovery_codes[]' "$T/body" > "$T/recovery"
	sign_in "$1" "$2" "$(totp "$SECRET" "${CONSENT_TEST_NOW:-$(date +%s)}")"
	if [ "$(cat "$T/status")" != 200 ]; then
		notok "first sign-in of $1: status $(cat "$T/status"): $(head -c 200 "$T/body")"
		return 1
	fi
}

expect_api_headers() {
	local _bad=""
	[ "$(header Content-Type)" = "application/json; charset=utf-8" ] || _bad="$_bad Content-Type"
	[ "$(header Cache-Control)" = "no-store" ] || _bad="$_bad Cache-Control"
	[ "$(header X-Content-Type-Options)" = "nosniff" ] || _bad="$_bad X-Content-Type-Options"
	[ "$(header Referrer-Policy)" = "no-referrer" ] || _bad="$_bad Referrer-Policy"
	[ "$(header Content-Security-Policy)" = "default-src 'none'; frame-ancestors 'none'" ] ||
		_bad="$_bad Content-Security-Policy"
	[ -z "$(header Access-Control-Allow-Origin)" ] || _bad="$_bad Access-Control-Allow-Origin(present)"
	if [ -z "$_bad" ]; then ok "$1"; else notok "$1: wrong or missing:$_bad"; fi
}
