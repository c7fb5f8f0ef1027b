#!/bin/bash
# scan-admin.sh: `make scan`.  Debian's wapiti and sqlmap pointed at the
# dashboard's API on loopback, signed in and then signed out; outside
# `make check` (a run takes minutes).  docs/reliability.md has the latest
# run's figures and what each finding became.
#
# One run:
#   1. builds what is missing (make);
#   2. starts a lighttpd on a free port of 127.0.0.1 with TLS (a
#      self-signed certificate made here; neither scanner checks it) and the
#      shipped lighttpd/consent.conf and consent-admin.conf, as the browser
#      test does (tests/admin/harness.mjs), with an access log: the requests
#      of each step are counted there, and every 5xx is a finding;
#   3. a fresh database (consentctl init writes the setup token): the first
#      owner through POST setup with the token file, signed in with a TOTP
#      code computed here; a site with domains, two published configs, a
#      second user, consents through the endpoint, a seal (its head for
#      verify), a sync (its id), a page of the log (its cursor), and two
#      spare sessions (signed in with recovery codes) for the routes that
#      end one; re-authentication takes the next recovery code, then
#      TOTP codes of fresh time steps;
#   4. the routes are those of docs/admin-api.md's table: every row must
#      have a request below (ROUTES), else the run fails, so that a route
#      added to the API is not left out unnoticed;
#   5. wapiti (every attack module that applies to a JSON API: not nikto,
#      buster, brute_login_form, csrf, which look for forms and known
#      files, nor wapp, which names software, nor ssrf, which needs
#      wapiti's server on the internet) on every GET route, its query
#      parameters, and the page /admin/, signed in (the cookie and
#      X-CSRF-Token as headers; re-authenticated just before, for the
#      export and the backup) and then
#      without them.  Debian's wapiti (3.0.4) mutates query strings and
#      form fields only: it sends a JSON body as it is, never attacked, so
#      the bodies are sqlmap's;
#   6. sqlmap on every route with a parameter or a body, signed in: the
#      JSON members, the path segments and query values (`*`), the cookie
#      (from level 2; User-Agent and Referer from level 3), --level 2
#      --risk 2 (sqlmap's defaults are 1 and 1: risk 2 adds the heavy
#      time-based tests) and SQLite's payloads; then without a
#      session the routes that need none (setup, session, account/reset:
#      every other route answers 401 before it reads anything);
#   7. prints the summary (routes, injection points, requests per step,
#      answers by status, findings) and exits 1 on any finding but the
#      false positives explain() names, each reproduced before it is
#      set aside.
#
# Settings: SCAN_LEVEL (2), SCAN_RISK (2), SCAN_DBMS (SQLite, the store
# this build uses: its payloads only; empty: those of every DBMS sqlmap
# knows), SCAN_THREADS (3), SCAN_WAPITI
# (1; 0 skips it), SCAN_SQLMAP (1), SCAN_SQLMAP_ARGS (more options),
# SCAN_ONLY (a regular expression: sqlmap on the routes matching
# "METHOD path" only), SCAN_KEEP (1: keep the folder; kept on findings),
# BUILD (where cgi-bin/ and bin/ are, default the checkout).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top}
LEVEL=${SCAN_LEVEL:-2}
RISK=${SCAN_RISK:-2}
THREADS=${SCAN_THREADS:-3}
DBMS=${SCAN_DBMS-SQLite}
started=$(date +%s)

die() { echo "scan-admin: $*" >&2; exit 2; }
for p in wapiti sqlmap lighttpd openssl curl jq python3; do
	command -v "$p" >/dev/null 2>&1 || die "$p is not installed (sh tools/deps.sh)"
done
[ -f /usr/lib/lighttpd/mod_openssl.so ] || die "lighttpd's mod_openssl is not installed (lighttpd-mod-openssl)"
if [ "$BUILD" = "$top" ]; then
	make -C "$top" -s -j2 all >/dev/null || die "make failed"
fi
[ -x "$BUILD/cgi-bin/admin" ] && [ -x "$BUILD/bin/consentctl" ] || die "no $BUILD/cgi-bin/admin or bin/consentctl"

# totp SECRET [TIME]: the code, as the tests compute it.
# shellcheck source=tests/admin.sh
. "$top/tests/admin.sh"

dir=$(mktemp -d "${TMPDIR:-/tmp}/consent-scan.XXXXXX")
out=$dir/out
mkdir -p "$dir/www" "$dir/data" "$out"
lpid=
cleanup() {
	[ -n "$lpid" ] && kill "$lpid" 2>/dev/null
	if [ "${SCAN_KEEP:-0}" = 1 ]; then echo "scan-admin: kept $dir"; else rm -rf "$dir"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

cp -R "$top/lighttpd" "$dir/lighttpd"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj /CN=127.0.0.1 \
    -addext subjectAltName=IP:127.0.0.1 -days 2 -keyout "$dir/key.pem" -out "$dir/cert.pem" 2>/dev/null ||
	die "openssl could not make the certificate"
db=$dir/data/consent.db
CONSENT_DB=$db "$BUILD/bin/consentctl" init >/dev/null || die "consentctl init failed"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
admin_page=$top/build/admin
[ -f "$admin_page/admin.js" ] || admin_page=$dir/www
cat > "$dir/lighttpd.conf" <<EOF
server.document-root = "$dir/www"
server.bind = "127.0.0.1"
server.port = $port
server.errorlog = "$dir/error.log"
server.breakagelog = "$dir/cgi-stderr.log"
server.modules += ( "mod_openssl", "mod_accesslog" )
accesslog.filename = "$dir/access.log"
accesslog.format = "%m %s %U"
ssl.engine = "enable"
ssl.pemfile = "$dir/cert.pem"
ssl.privkey = "$dir/key.pem"
mimetype.assign = ( ".html" => "text/html; charset=utf-8", ".js" => "text/javascript", ".css" => "text/css" )
var.consent_dir = "$dir/lighttpd"
var.consent_cgibin = "$BUILD/cgi-bin"
var.consent_sdk = "$top/build/sdk"
var.consent_env = ( "CONSENT_DB" => "$db" )
var.consent_admin = "$admin_page"
include var.consent_dir + "/consent.conf"
include var.consent_dir + "/consent-admin.conf"
EOF
lighttpd -D -f "$dir/lighttpd.conf" >"$dir/lighttpd.out" 2>&1 &
lpid=$!
base=https://127.0.0.1:$port
for _ in $(seq 50); do
	curl -ks -o /dev/null "$base/admin/api/setup" && break
	sleep 0.1
done
curl -ks -o /dev/null "$base/admin/api/setup" || die "lighttpd did not start: $(cat "$dir/lighttpd.out" "$dir/error.log" 2>/dev/null)"

# req METHOD PATH [BODY]: one request as the page makes it, with the
# session of COOKIE and CSRF when set; the body in $dir/body, the status
# printed.
COOKIE='' CSRF=''
req() {
	curl -ks -o "$dir/body" -w '%{http_code}' -X "$1" "$base/admin/api/$2" \
	    -H 'Content-Type: application/json' -H "Origin: $base" -H 'Sec-Fetch-Site: same-origin' \
	    ${COOKIE:+-H "Cookie: __Host-consent_admin=$COOKIE"} ${CSRF:+-H "X-CSRF-Token: $CSRF"} \
	    ${3:+--data-binary "$3"} -D "$dir/headers"
}
must() {
	local want=$1 got
	shift
	got=$(req "$@")
	[ "$got" = "$want" ] || die "$1 $2: $got, not $want: $(head -c 300 "$dir/body")"
}
cookie_of() { sed -n 's/^[Ss]et-[Cc]ookie: __Host-consent_admin=\([^;]*\);.*/\1/p' "$dir/headers"; }

# The first owner, through the setup route and its token file.
USER1=scan-owner
PASS1=$(openssl rand -hex 12)-scan
must 200 GET setup
token=$(cat "$(jq -r .token_file "$dir/body")") || die "no setup token file"
must 201 POST setup "$(jq -cn --arg t "$token" --arg u "$USER1" --arg p "$PASS1" '{token:$t,username:$u,password:$p}')"
secret=$(jq -r .secret "$dir/body")
mapfile -t recovery < <(jq -r '.recovery_codes[]' "$dir/body")
signin() { # CODE: a session of USER1; COOKIE and CSRF
	must 200 POST session "$(jq -cn --arg u "$USER1" --arg p "$PASS1" --arg c "$1" '{username:$u,password:$p,totp:$c}')"
	COOKIE=$(cookie_of)
	CSRF=$(jq -r .csrf "$dir/body")
}
# The scan's session (the first sign-in confirms the factor), then two
# spare ones (for DELETE session and DELETE account/sessions/{id}), signed
# in with recovery codes; SPARE2_ID the newest but the scan's.
signin "$(totp "$secret")"; MAIN=$COOKIE MAIN_CSRF=$CSRF
signin "${recovery[0]}"; SPARE1=$COOKIE SPARE1_CSRF=$CSRF
signin "${recovery[1]}"
COOKIE=$MAIN CSRF=$MAIN_CSRF
must 200 GET account/sessions
SPARE2_ID=$(jq -r '[.sessions[] | select(.current | not)][0].id' "$dir/body")
next_recovery=2 totp_step=$(($(date +%s) / 30))
# factor: a second factor not used yet: a recovery code while there are
# some, then a TOTP code of a time step after the last one used.
factor() {
	if [ "$next_recovery" -lt ${#recovery[@]} ]; then
		code=${recovery[$next_recovery]}
		next_recovery=$((next_recovery + 1))
		return
	fi
	while [ $(($(date +%s) / 30)) -le "$totp_step" ]; do sleep 1; done
	totp_step=$(($(date +%s) / 30))
	code=$(totp "$secret")
}
reauth() {
	factor
	must 200 POST session/reauth "$(jq -cn --arg p "$PASS1" --arg c "$code" '{password:$p,totp:$c}')"
}

# The data: a site with domains, two published versions, consents, a user.
KEY=scan
must 201 POST sites '{"key":"scan","name":"Scanned shop","tier":"paid","mau_cap":100000,"retention_days":400,"domains":["shop.example","www.shop.example"]}'
must 201 POST sites/$KEY/domains '{"domain":"blog.shop.example"}'
must 201 POST sites/$KEY/configs "$(jq -c '{document: .}' "$top/bench/fixtures/config.json")"
must 201 POST sites/$KEY/configs "$(jq -c '{document: (.appearance.theme = "dark")}' "$top/bench/fixtures/config.json")"
USER2=scan-editor
must 201 POST users "$(jq -cn --arg k $KEY '{username:"scan-editor",password:"correct horse battery scan",roles:{($k):"editor"}}')"
for i in 1 2 3; do
	sed "s/\"bench\"/\"$KEY\"/; s/@ID@/scan-$i/" "$top/bench/fixtures/consent.json" |
		curl -ks -o /dev/null -w '%{http_code}\n' -H 'Content-Type: application/json' \
		    -H 'Origin: https://shop.example' --data-binary @- "$base/functions/v1/consent"
done | grep -vx 201 && die "a consent was not stored"
must 200 GET "audit?limit=1"
AUDIT_ID=$(jq -r '.entries[0].id' "$dir/body")
# The log's routes: a seal (its head for verify), a sync, a page's cursor,
# today's period for the report; v-scan-1 is the receipt's visitor,
# v-scan-3 the one erased.
must 200 POST sites/$KEY/seal '{}'
HEAD=$(jq -r .head.hash "$dir/body")
[ ${#HEAD} = 64 ] || die "no seal head: $(head -c 300 "$dir/body")"
must 201 POST sites/$KEY/syncs '{}'
SYNC_ID=$(jq -r .sync_id "$dir/body")
must 200 GET "sites/$KEY/consents?limit=1"
CURSOR=$(jq -r .next "$dir/body")
[ -n "$CURSOR" ] && [ "$CURSOR" != null ] || die "no cursor: $(head -c 300 "$dir/body")"
FROM=$(date -u -d '-30 days' +%F) TO=$(date -u -d tomorrow +%F)

# ROUTES: one line per route of docs/admin-api.md, "METHOD path | body":
# "R " marks a route that needs re-authentication, "- " one that needs no
# session; KEY, USER2, SPARE2_ID, AUDIT_ID are replaced; a `*` after a path segment
# or a query value marks it for sqlmap.  Their order matters: the routes
# that need re-authentication (R) come after a fresh one, and those that
# fail passwords (and so start the throttle of 127.0.0.1) or end sessions
# come last.
ROUTES=$(cat <<'EOF'
- GET setup |
GET session |
GET account/sessions |
GET users |
GET audit?site=KEY*&before=AUDIT_ID*&limit=10* |
GET sites |
GET sites/KEY* |
GET sites/KEY*/domains |
GET sites/KEY*/configs |
GET sites/KEY*/configs/1* |
POST sites | {"key":"scan2","name":"Second shop","tier":"free","mau_cap":1000,"retention_days":30,"domains":["second.example"]}
PATCH sites/KEY* | {"name":"Scanned shop","tier":"paid","mau_cap":100000,"retention_days":400}
POST sites/KEY*/pause | {}
POST sites/KEY*/resume | {}
POST sites/KEY*/domains | {"domain":"shop2.example"}
DELETE sites/KEY*/domains | {"domain":"shop2.example"}
POST sites/KEY*/configs | {"restore":1}
POST sites/KEY*/preview | {"document":{"appearance":{"theme":"light"}},"region":"gdpr","language":"de","country":"DE","subdivision":"BE"}
GET sites/KEY*/scripts |
POST sites/KEY*/syncs | {}
GET sites/KEY*/syncs/SYNC_ID* |
GET sites/KEY*/rules |
POST sites/KEY*/rules | {}
GET sites/KEY*/consents?from=FROM*&to=TO*&event=initial*&action=partial*&region=gdpr*&country=DE*&gpc=none*&version=1*&limit=10* |
GET sites/KEY*/consents?limit=2*&cursor=CURSOR* |
GET sites/KEY*/receipt?anon_id=v-scan-1* |
GET sites/KEY*/proof |
POST sites/KEY*/seal | {}
POST sites/KEY*/verify | {"from":1,"head":"HEAD","sealed":0,"pruned":0,"leaves":1000}
GET sites/KEY*/report?from=FROM*&to=TO* |
R GET sites/KEY*/consents/export?format=csv*&since=FROM* |
R GET sites/KEY*/consents/export?format=jsonl* |
R POST sites/KEY*/erase | {"anon_id":"v-scan-3","confirm":"ERASE"}
R POST sites/KEY*/purge | {"dry_run":true}
R GET backup |
R POST users | {"username":"scan-viewer","password":"correct horse battery viewer","roles":{"scan":"viewer"}}
R PATCH users/USER2* | {"roles":{"scan":"viewer"}}
R DELETE users/USER2* |
R POST account/password | {"password":"not the password at all","new":"another long password"}
POST session/reauth | {"password":"not the password at all","totp":"123456"}
DELETE account/sessions/SPARE2_ID* |
DELETE session |
- POST setup | {"token":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA","username":"someone","password":"a long enough password"}
- POST session | {"username":"scan-owner","password":"not the password at all","totp":"123456"}
- POST account/reset | {"username":"scan-owner","code":"ABCD-EFGH-IJKL","new":"another long password"}
EOF
)
# Each route of docs/admin-api.md's table ("`METHOD path`" or
# "`POST a`, `.../b`") must have a line above.
missing=$(sed -n '/^## Routes/,/^### /p' "$top/docs/admin-api.md" | grep '^| `' | cut -d'|' -f2 |
	python3 -c '
import re, sys
for cell in sys.stdin:
    prev = None
    for m in re.findall(r"`([A-Z]+) ([^`]+)`|`\.\.\./([^`]+)`", cell):
        if m[0]:
            prev = (m[0], m[1])
            print(m[0], m[1])
        elif prev:
            print(prev[0], prev[1].rsplit("/", 1)[0] + "/" + m[2])
' | while read -r m p; do
	pat=$(printf '%s' "$p" | sed 's/{key}/KEY\\*/; s/{name}/USER2\\*/; s/syncs\/{id}/syncs\/SYNC_ID\\*/; s/{id}/SPARE2_ID\\*/; s/{version}/1\\*/; s/\//\\\//g')
	printf '%s\n' "$ROUTES" | grep -Eq "^([-R] )?$m $pat( |\\?)" || echo "$m $p"
done)
[ -z "$missing" ] || die "routes of docs/admin-api.md without a request here: $(echo "$missing" | tr '\n' ',')"

# fill TEMPLATE: the route with this run's values.
fill() {
	sed "s/KEY/$KEY/g; s/USER2/$USER2/g; s/SPARE2_ID/$SPARE2_ID/g; s/AUDIT_ID/$AUDIT_ID/g; s/SYNC_ID/$SYNC_ID/g;
	    s/HEAD/$HEAD/g; s/CURSOR/$CURSOR/g; s/FROM/$FROM/g; s/=TO\([*&]\|$\)/=$TO\1/g"
}
# count: the requests so far (lighttpd writes its log every few seconds;
# curl's HTTP/2 preface is a line "PRI" of its own).
count() { sleep 5; grep -vc '^PRI ' "$dir/access.log" 2>/dev/null || echo 0; }
steps=()
step_begin() { step_name=$1; step_from=$(count); step_t=$(date +%s); }
step_end() {
	local t=$(($(date +%s) - step_t)) n=$(($(count) - step_from))
	steps+=("$(printf '%-44s %7d requests %5d s' "$step_name" "$n" "$t")")
}
findings=()

# --- wapiti: the GET routes and the page ------------------------------------
WAPITI_MODULES=backup,blindsql,cookieflags,crlf,csp,exec,file,htaccess,http_headers,methods,permanentxss,redirect,shellshock,sql,xss,xxe
wapiti_run() { # NAME [HEADER...]
	local name=$1 starts=() u
	shift
	while read -r u; do starts+=(-s "$base/admin/api/$u"); done < <(printf '%s\n' "$ROUTES" |
		sed 's/^[-R] //' | grep '^GET ' | cut -d' ' -f2 | tr -d '*' | fill)
	step_begin "wapiti $name"
	wapiti -u "$base/admin/" --scope folder "${starts[@]}" -s "$base/admin/" \
	    -m "$WAPITI_MODULES" -l 2 -S normal --flush-session --store-session "$dir/wapiti-$name" \
	    --max-attack-time 120 --verify-ssl 0 --no-bugreport -v 1 -f json -o "$out/wapiti-$name.json" \
	    "$@" </dev/null >"$out/wapiti-$name.log" 2>&1
	echo "wapiti $name: exit $?" >>"$out/wapiti-$name.log"
	step_end
	[ -s "$out/wapiti-$name.json" ] || { findings+=("wapiti $name: no report (see its log)"); return; }
	while IFS= read -r f; do findings+=("wapiti $name: $f"); done < <(jq -r '
		[(.vulnerabilities, .anomalies) | to_entries[] | .key as $k | .value[] |
		 "\($k): \(.method) \(.path) \(.parameter // "") \(.info)"] | .[]' "$out/wapiti-$name.json")
}

# --- sqlmap: every route with a parameter or a body --------------------------
points=0
sqlmap_run() { # PASS LINE: one route; its injection points are counted
	local pass=$1 line=$2 r="" public="" m p body file name
	case $line in "R "*) r=1; line=${line#R } ;; "- "*) public=1; line=${line#- } ;; esac
	# Without a session only the public routes read anything (the others
	# answer 401 first: wapiti's pass without a session covers that).
	[ "$pass" = signed-out ] && [ -z "$public" ] && return
	m=${line%% *}; p=${line#* }; p=${p%% |*}
	body=${line#*| }; [ "$body" = "$line" ] && body=
	[ "$pass" = signed-in ] && [ -n "$public" ] && return
	# A route without a parameter or a body has the cookie alone, the same
	# session lookup for all: GET session tests it, DELETE session (with a
	# spare session: it ends it) the sign-out's.
	case "$m $p$body" in *'*'*|*'{'*|"GET session"|"DELETE session") ;; *) return ;; esac
	[ -n "${SCAN_ONLY:-}" ] && ! printf '%s %s\n' "$m" "$p" | grep -Eq "$SCAN_ONLY" && return
	local cookie=$COOKIE csrf=$CSRF
	if [ "$pass" = signed-in ]; then
		case "$m $p" in
		"DELETE session") cookie=$SPARE1 csrf=$SPARE1_CSRF ;;
		esac
		[ -n "$r" ] && reauth
	else
		cookie='' csrf=''
		p=$(printf '%s' "$p" | tr -d '*')
	fi
	name=$(printf '%s-%s %s' "$pass" "$m" "$p" | tr -c 'A-Za-z0-9-' '_')
	file=$dir/req-$name.txt
	body=$(printf '%s' "$body" | fill)
	{
		printf '%s /admin/api/%s HTTP/1.1\r\n' "$m" "$(printf '%s' "$p" | fill)"
		printf 'Host: 127.0.0.1:%s\r\n' "$port"
		printf 'User-Agent: Mozilla/5.0 (X11; Linux x86_64) scan\r\n'
		case $p in # the downloads' types
		*format=csv*) printf 'Accept: text/csv, application/json\r\n' ;;
		*format=jsonl*) printf 'Accept: application/x-ndjson, application/json\r\n' ;;
		backup) printf 'Accept: application/vnd.sqlite3, application/json\r\n' ;;
		*) printf 'Accept: application/json\r\n' ;;
		esac
		printf 'Sec-Fetch-Site: same-origin\r\n'
		[ -n "$cookie" ] && printf 'Cookie: __Host-consent_admin=%s\r\n' "$cookie"
		[ -n "$csrf" ] && printf 'X-CSRF-Token: %s\r\n' "$csrf"
		[ -n "$body" ] && printf 'Content-Type: application/json\r\n'
		printf '\r\n'
		printf '%s' "$body"
	} >"$file"
	step_begin "sqlmap $pass $m $p"
	sqlmap -r "$file" --force-ssl --batch --level "$LEVEL" --risk "$RISK" --threads "$THREADS" \
	    --ignore-code='*' --skip-waf ${DBMS:+--dbms="$DBMS"} ${SCAN_SQLMAP_ARGS:-} --disable-coloring --flush-session --output-dir "$dir/sqlmap" \
	    --answers='custom injection marker=Y,JSON data=Y,process it=Y,keep testing=Y,follow=N' \
	    --ignore-stdin </dev/null >"$out/sqlmap-$name.log" 2>&1
	step_end
	local tested
	tested=$(grep -Eo "(parameter|header) '[^']+' (does not seem|is not|might not|is|appears)" "$out/sqlmap-$name.log" | cut -d"'" -f2 | sort -u | wc -l)
	points=$((points + tested))
	grep -Eo "(parameter|header) '[^']+'" "$out/sqlmap-$name.log" | sort -u | sed "s|^|$m $p: |" >>"$out/points.txt"
	if grep -q "identified the following injection point\|is vulnerable\|might be vulnerable to cross-site scripting\|might be vulnerable to file inclusion" "$out/sqlmap-$name.log"; then
		findings+=("sqlmap $pass $m $p: $(grep -m3 "identified the following injection point\|is vulnerable\|might be vulnerable" "$out/sqlmap-$name.log" | tr '\n' ' ')")
	elif grep -q "appears to be .* injectable" "$out/sqlmap-$name.log"; then
		# A candidate sqlmap itself tried again and dropped: explain() says
		# why, from the answers the route gave.
		findings+=("sqlmap $pass $m $p: candidate: $(grep -m1 -o "parameter '[^']*' appears to be .* injectable.*" "$out/sqlmap-$name.log")$(grep -q 'false positive or unexploitable injection point detected' "$out/sqlmap-$name.log" && echo ', dropped by sqlmap as a false positive')")
	fi
	grep -q "all tested parameters do not appear to be injectable\|identified the following injection point\|all tested parameters appear to be not injectable" "$out/sqlmap-$name.log" ||
		findings+=("sqlmap $pass $m $p: did not finish: $(grep -m2 'CRITICAL\|ERROR' "$out/sqlmap-$name.log" | tr '\n' ' ')")
}

if [ "${SCAN_WAPITI:-1}" = 1 ]; then
	reauth # the export and the backup (R) for wapiti's first 5 minutes
	wapiti_run signed-in -H "Cookie: __Host-consent_admin=$COOKIE" -H "X-CSRF-Token: $CSRF"
fi
# wapiti may have ended the session (it tries other methods): a new one.
if [ "$(req GET session)" != 200 ]; then
	findings+=("wapiti signed-in: the scan's session ended")
	factor
	signin "$code"
fi
if [ "${SCAN_SQLMAP:-1}" = 1 ]; then
	while IFS= read -r line; do sqlmap_run signed-in "$line"; done <<<"$ROUTES"
fi
COOKIE='' CSRF=''
if [ "${SCAN_WAPITI:-1}" = 1 ]; then wapiti_run signed-out; fi
if [ "${SCAN_SQLMAP:-1}" = 1 ]; then
	while IFS= read -r line; do sqlmap_run signed-out "$line"; done <<<"$ROUTES"
fi

# Every 5xx the server answered, and every line a CGI program wrote on
# stderr (a crash, a sanitizer report, a store error), is a finding too.
# (A method lighttpd does not know is logged without one and answered 501
# by lighttpd itself, no program run: wapiti's "ABC", explained below.)
while IFS= read -r l; do findings+=("server: $l"); done < <(awk 'NF == 3 && $2 >= 500' "$dir/access.log" | sort | uniq -c | sort -rn | head -20)
while IFS= read -r l; do findings+=("stderr: $l"); done < <(sort "$dir/cgi-stderr.log" 2>/dev/null | uniq -c | sort -rn | head -20)

# explain FINDING: the reason, when the finding is a false positive whose
# mark is reproduced here (docs/reliability.md says more); else nothing.
explain() {
	local u a
	case $1 in
	*"Htaccess Bypass: ABC "*)
		u=$(printf '%s\n' "$1" | grep -o 'https://[^ ]*' | head -1)
		a=$(curl -ks -o "$dir/explain" -w '%{http_code} %{content_type}' -X ABC "$u")
		[ "$a" = "501 text/html" ] && grep -q '<h1>501 Not Implemented</h1>' "$dir/explain" &&
			echo "lighttpd refuses the unknown method ABC with its own 501 page before any program runs (reproduced: 501 text/html, no data); wapiti takes any 5xx for a bypass"
		;;
	*"candidate: "*"--code=401"*"dropped by sqlmap as a false positive")
		u=$(printf '%s\n' "$1" | sed -n 's/^sqlmap [a-z-]* \([A-Z]*\) \([^:]*\):.*/\1 \/admin\/api\/\2/p' | tr -d '*')
		a=$(awk -v m="${u%% *}" -v p="${u#* }" '$1 == m && $3 == p { print $2 }' "$dir/access.log" |
			sort | uniq -c | awk '{ printf "%s%s x %s", (NR > 1 ? ", " : ""), $1, $2 }')
		case $a in *" x 401"*" x 429"*)
			echo "the answers differ by time, not by payload: the sign-in throttle (ADMIN.md 2) answers 429 while a wait runs and 401 after it (this run: $a); the password is checked by Argon2id, never in SQL; sqlmap's own retry dropped it" ;;
		esac
		;;
	*"HTTP Secure Headers: GET "*"X-XSS-Protection is not set"*)
		echo "X-XSS-Protection is obsolete (no current browser has the filter it switched; it could be abused to blank parts of pages): the page's CSP (no inline script, no eval) is the protection"
		;;
	*"HTTP Secure Headers: GET "*"Strict-Transport-Security is not set"*)
		echo "HSTS holds for the whole host, which the dashboard (mounted at a path of it) does not own: the operator's to set where the host serves HTTPS (docs/deploy.md)"
		;;
	esac
}
open=() explained=()
for f in ${findings[@]+"${findings[@]}"}; do
	why=$(explain "$f")
	if [ -n "$why" ]; then explained+=("$f"$'\n      false positive: '"$why"); else open+=("$f"); fi
done

total=$(count)
echo
echo "== scan-admin: $(wapiti --version 2>/dev/null | grep -o 'Wapiti-[0-9.]*' | head -1), sqlmap $(sqlmap --version 2>/dev/null | head -1), lighttpd on $base (TLS, self-signed)"
echo "routes: $(printf '%s\n' "$ROUTES" | wc -l) (every row of docs/admin-api.md); sqlmap injection points: $points (--level $LEVEL --risk $RISK${DBMS:+ --dbms=$DBMS})"
printf '%s\n' "${steps[@]}"
echo "requests: $total in all; by method and status:"
awk '$1 != "PRI" { print $1, $2 }' "$dir/access.log" | sort | uniq -c | sort -rn | sed 's/^/  /'
echo "time: $(($(date +%s) - started)) s"
cp "$dir/access.log" "$out/" 2>/dev/null
if [ ${#explained[@]} -gt 0 ]; then
	echo "explained, not counted: ${#explained[@]}"
	printf '  %s\n' "${explained[@]}"
fi
if [ ${#open[@]} -eq 0 ]; then
	echo "findings: none"
	exit 0
fi
echo "findings: ${#open[@]}"
printf '  %s\n' "${open[@]}"
SCAN_KEEP=1
exit 1
