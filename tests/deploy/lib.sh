# lib.sh: sourced by the deploy suites (t0800 lighttpd, t0810 Apache) after
# tests/setup.sh.  They start a real server on 127.0.0.1 with the shipped
# configs and check the API through it with curl.
#
#   deploy_init              $T/www (document root), the test database in
#                            $T/www/data (under the root on purpose: it must
#                            still not be served), site s1, binaries copied
#                            to $T/cgi-bin so that an unprivileged server
#                            user can run them wherever the checkout is.
#                            On PostgreSQL the test database stays setup.sh's
#                            (any user reaches pgbouncer's socket), and
#                            $db_file, $T/www/data/consent.db, is a SQLite
#                            database all the same: the file the checks ask
#                            the server for, copied where a test likes
#   deploy_bodies            the request bodies api_checks sends, in $T
#                            (deploy_init writes them too)
#   nginx_http_block         a private nginx's config up to its server
#                            blocks, every path in $N
#   free_port                prints a TCP port nothing listens on
#   wait_http URL            until the server answers (at most 10 s)
#   serve_pid PID            remember a server to stop at exit
#   deploy_stop              stop them now
#   http [-H HDR]... [-d FILE] METHOD URL
#                            one request; leaves $T/status, $T/headers and
#                            $T/body for setup.sh's expect_* helpers
#   api_checks BASE LABEL    the functional checks through a server
#   sdk_checks BASE LABEL    /sdk/consent.js: status, type, cache, bytes
#   admin_checks BASE LABEL [FOLDER]
#                            the dashboard: /admin/ the page of FOLDER
#                            (default $T/dashboard, deploy_init's copy)
#                            with a strict CSP, preview.html framed by the
#                            dashboard only, no hidden file, /admin/api/
#                            the program: its first run through the server
#                            (GET setup, POST setup with the token file's
#                            token; SQLite only, where the token file is
#                            beside the database), then 401 JSON for GET
#                            session; /functions/v1/admin no way to it.  The
#                            API's checks skip, with one line, when
#                            cgi-bin/admin is not built
#   leak_checks BASE LABEL [PATH...]
#                            paths that must not reach a file
#   rate_limit_checks BASE LABEL [CMD]
#                            20 concurrent requests pass, the 21st is 429 with
#                            Retry-After, CMD runs while the client is
#                            refused, and after Retry-After seconds the
#                            client is let through again; skipped when the
#                            21 took RATE_SPAN_MS or more (default 9000:
#                            the window is 10 s)
#   log_checks FILE... LABEL no sanitizer report in the servers' logs
#   apache_user              as root: Apache and its processes as nobody
#   deploy_absent MSG        a server or module is missing: skip, or fail
#                            under CI=true (CI installs tools/deps.sh)
#   fcgi_pids BINARY         the running processes of BINARY, sorted
#   deploy_pool ENDPOINT RUN LOG
#                            ENDPOINT's pool as apache/consent-fcgi@.service
#                            starts it (tools/fcgi-pool.sh), its socket in
#                            RUN, $T/cgi-bin's binary, the test's database,
#                            run by $as_user, output in LOG; returns once
#                            the socket and the unit's PROCS processes are
#                            there (POOL_PID, stopped at exit), or ends the
#                            test with "not ok"
#   pool_stop_checks BASE LABEL RUN LOG PID STATUS
#                            SIGTERM to the consent pool PID (systemctl
#                            stop): its processes all leave, its socket file
#                            stays, consent is the server's STATUS while
#                            config still serves, and deploy_pool starts it
#                            again over the old socket (201)
#   fcgi_checks BASE LABEL BINDIR
#                            FastCGI: the processes of BINDIR's binaries
#                            serve request after request, answer as the
#                            CGI program does, and one killed is replaced
#                            while the next request is served

if ! command -v curl >/dev/null 2>&1; then
	skip "curl is not installed: deploy checks not run"
	exit 0
fi

SITE_ORIGIN=https://example.com
_servers=""

# deploy_stop: the servers and processes serve_pid remembered, stopped
# (SIGTERM, SIGKILL after 2 s); deploy_cleanup, at exit, then removes $T.
deploy_stop() {
	for _p in $_servers; do
		kill -TERM "$_p" 2>/dev/null || continue
		for _i in 1 2 3 4 5 6 7 8 9 10; do
			kill -0 "$_p" 2>/dev/null || break
			sleep 0.2
		done
		kill -KILL "$_p" 2>/dev/null
		wait "$_p" 2>/dev/null
	done
	_servers=""
}
deploy_cleanup() {
	deploy_stop
	_reap_strays
	rm -rf "$T"
}
trap deploy_cleanup EXIT
trap 'exit 1' INT TERM HUP

serve_pid() { _servers="$_servers $1"; }

# start_server LOG URL CMD...: CMD (a server in the foreground) in the
# background, its output in LOG, until URL answers and it is CMD's process
# that listens on URL's port: 0, or 1 with it stopped (it died, never
# answered, or another server has the port: a test running beside this one
# may have taken it a moment earlier; the caller may try other ports).
start_server() {
	local _log=$1 _url=$2 _pid _port
	shift 2
	_port=${_url#http://*:}
	_port=${_port%%/*}
	"$@" > "$_log" 2>&1 &
	_pid=$!
	serve_pid "$_pid"
	if wait_http "$_url" && kill -0 "$_pid" 2>/dev/null && listens "$_pid" "$_port"; then
		return 0
	fi
	kill "$_pid" 2>/dev/null
	wait "$_pid" 2>/dev/null
	return 1
}

# launch KIND N PROBE LABEL: the test's server (KIND lighttpd, with
# $L/lighttpd.conf, apache2, with $A/httpd.conf, or nginx, with
# $N/nginx.conf, its prefix $N, run by $as_user) on N free ports of
# 127.0.0.1, in up to three tries: PORTS gets N distinct ports, the test's
# write_conf writes the config for them, the server's own config test
# checks it (a module that is not installed ends the test through
# deploy_absent, LABEL naming its checks; any other refusal with "not
# ok"), then the server runs in the foreground (start_server, output in
# stderr.log beside the config) until /index.html answers on port PROBE
# (1 to N).  The test ends with "not ok" when it never starts.
launch() {
	local _kind=$1 _n=$2 _probe=$3 _label=$4 _dir=${A-} _try _k _port
	[ "$_kind" = lighttpd ] && _dir=$L
	[ "$_kind" = nginx ] && _dir=$N
	for _try in 1 2 3; do
		PORTS=()
		for _k in $(seq "$_n"); do
			_port=$(free_port) || break 2
			PORTS+=("$_port")
		done
		[ "$(printf '%s\n' "${PORTS[@]}" | sort -u | wc -l)" = "$_n" ] || continue
		write_conf "${PORTS[@]}"
		case $_kind in
		lighttpd)
			set -- lighttpd -D -f "$L/lighttpd.conf"
			lighttpd -tt -f "$L/lighttpd.conf" > "$L/configtest.log" 2>&1 ;;
		nginx)
			# shellcheck disable=SC2086
			set -- ${as_user:-} nginx -p "$N" -c "$N/nginx.conf"
			"$@" -t > "$N/configtest.log" 2>&1 ;;
		*)
			set -- apache2 -X -d "$A" -f "$A/httpd.conf"
			apache2 -t -d "$A" -f "$A/httpd.conf" > "$A/configtest.log" 2>&1 ;;
		esac || {
			grep -q 'mod_magnet' "$_dir/configtest.log" &&
				deploy_absent "lighttpd has no mod_magnet (package lighttpd-modules-lua): $_label deploy checks not run"
			grep -q 'mod_fastcgi' "$_dir/configtest.log" &&
				deploy_absent "lighttpd has no mod_fastcgi: $_label deploy checks not run"
			notok "$(case $_kind in lighttpd) echo "lighttpd -tt" ;; nginx) echo "nginx -t" ;; *) echo "apache2 -t" ;; esac) rejects the shipped config: $(head -n 3 "$_dir/configtest.log" | tr '\n' ' ')"
			exit 1
		}
		start_server "$_dir/stderr.log" "http://127.0.0.1:${PORTS[$((_probe - 1))]}/index.html" "$@" && return 0
	done
	notok "$_kind did not start: $(tail -n 3 "$_dir/error.log" "$_dir/stderr.log" 2>/dev/null | tr '\n' ' ')"
	exit 1
}

# apache_conf SNIPPET PORT...: $A/httpd.conf as both Apache tests write
# it, from the test's $mods, $libpcre and $user_lines: one Listen per
# PORT, the server-wide consent-server.conf, then the lines on stdin (the
# test's own server-wide ones), then three vhosts with apache/SNIPPET
# (consent.conf or consent-fcgid.conf): the first PORT as shipped (the
# rate limit), the second not counted by mod_qos (the functional checks),
# the third configured by .htaccess files only (shared hosting).  The test
# appends more vhosts after it.
apache_conf() {
	local _snippet=$1 _htaccess _port
	shift
	_htaccess=htaccess${_snippet#consent}
	_htaccess=${_htaccess%.conf}
	{
		cat <<CONF
ServerRoot "$A"
PidFile "$A/run/httpd.pid"
ErrorLog "$A/error.log"
LogLevel warn
ServerName 127.0.0.1
$user_lines
LoadModule mpm_event_module $mods/mod_mpm_event.so
LoadModule authz_core_module $mods/mod_authz_core.so
CONF
		for _port in "$@"; do echo "Listen 127.0.0.1:$_port"; done
		cat <<CONF
DocumentRoot "$T/www"
<Directory />
	AllowOverride None
	Require all denied
</Directory>
<Files ".ht*">
	Require all denied
</Files>

Define CONSENT_MODULES $mods
Define CONSENT_LIBPCRE $libpcre
Include "$TOP/apache/consent-server.conf"
CONF
		cat
		cat <<CONF

<VirtualHost 127.0.0.1:$1>
	Define CONSENT_CGIBIN $T/cgi-bin
	Define CONSENT_DB_DIR $T/www/data
	Define CONSENT_DB "$CONSENT_DB"
	Define CONSENT_SDK_DIR $T/sdk
	Define CONSENT_ADMIN_DIR $T/dashboard
	Include "$TOP/apache/$_snippet"
</VirtualHost>

<VirtualHost 127.0.0.1:$2>
	Include "$TOP/apache/$_snippet"
	# Test only: not counted by mod_qos, for the functional checks.
	<Directory "$T/cgi-bin">
		SetEnvIf Request_URI "^" !QS_Limit
	</Directory>
</VirtualHost>

<VirtualHost 127.0.0.1:$3>
	# Shared hosting: only .htaccess files configure the API, with the
	# overrides apache/$_htaccess says a host must allow.
	<Directory "$T/www">
		AllowOverride Options FileInfo AuthConfig
		Require all granted
	</Directory>
</VirtualHost>
CONF
	} > "$A/httpd.conf"
}

deploy_init() {
	chmod 755 "$T"
	mkdir -p "$T/www/data" "$T/cgi-bin" "$T/sdk"
	# The built SDK when there is one; serving is what is checked here.
	if [ -f "$TOP/build/sdk/consent.js" ]; then
		cp "$TOP/build/sdk/consent.js" "$T/sdk/consent.js"
	else
		echo '(function(){window.Consent={}})();' > "$T/sdk/consent.js"
	fi
	db_file=$T/www/data/consent.db
	if store_is_postgres; then
		ctl --db "$db_file" init >/dev/null || { notok "consentctl init $db_file"; exit 1; }
	else
		export CONSENT_DB=$db_file
		ctl init >/dev/null || { notok "consentctl init $CONSENT_DB"; exit 1; }
	fi
	site s1
	echo '<p>static</p>' > "$T/www/index.html"
	cp "$BUILD/cgi-bin/config" "$BUILD/cgi-bin/consent" "$BUILD/cgi-bin/scripts" "$T/cgi-bin/"
	# The dashboard: its program, an account (so that its API answers
	# past setup), and its page as built (or a stand-in: serving is what
	# is checked here).
	mkdir -p "$T/dashboard"
	if [ -f "$TOP/build/admin/index.html" ]; then
		cp "$TOP"/build/admin/* "$T/dashboard/"
	else
		echo '<!doctype html><title>admin</title><script src="admin.js" defer></script>' > "$T/dashboard/index.html"
		echo '<!doctype html><title>preview</title><script src="preview.js" defer></script>' > "$T/dashboard/preview.html"
	fi
	echo 'secret' > "$T/dashboard/.env"
	[ -x "$BUILD/cgi-bin/admin" ] && cp "$BUILD/cgi-bin/admin" "$T/cgi-bin/"
	deploy_bodies
}

# The request bodies api_checks sends, in $T.
deploy_bodies() {
	printf '%s' '{"site_key":"s1","anon_id":"visitor-1","categories":{"necessary":true},"event_type":"initial"}' > "$T/consent.json"
	printf '%s' '{"site_key":"s1","page_url":"https://example.com/p","timestamp":1763800000,"scripts":[{"src":"https://www.google-analytics.com/analytics.js","domain":"www.google-analytics.com","category":null,"blocked":false}]}' > "$T/scripts.json"
	printf '{"site_key":"s1","anon_id":"%s","categories":{},"event_type":"impression"}' \
	    "$(head -c 70000 /dev/zero | tr '\0' a)" > "$T/big70k.json"
	head -c 200000 /dev/zero | tr '\0' a > "$T/big200k.json"
}

# nginx_http_block: the top of a private nginx's config as Debian's
# nginx.conf has it, every path in $N (pid, logs, temp folders), and the
# rate limit's zone; the caller adds its server blocks and the closing }.
nginx_http_block() {
	cat <<CONF
pid $N/nginx.pid;
error_log $N/error.log notice;
worker_processes 2;
events { worker_connections 256; }
http {
	include /etc/nginx/mime.types;
	default_type application/octet-stream;
	access_log $N/access.log;
	client_body_temp_path $N/tmp/body;
	fastcgi_temp_path $N/tmp/fastcgi;
	proxy_temp_path $N/tmp/proxy;
	scgi_temp_path $N/tmp/scgi;
	uwsgi_temp_path $N/tmp/uwsgi;
	include $TOP/nginx/consent-http.conf;
CONF
}

# The server's user must write the database and its folder (WAL files).
deploy_chown() { # USER GROUP
	chown -R "$1:$2" "$T/www/data"
}

# apache_user: run as root, Apache serves as nobody (it refuses to as root),
# and so do the processes a test starts for it: sets user_lines (the
# httpd.conf lines, for apache_conf) and as_user (a command prefix that
# runs a program as that user; empty when not root), and hands that user
# the database folder and $A/run.
apache_user() {
	local _g=nogroup
	user_lines="" as_user=""
	[ "$(id -u)" -eq 0 ] || return 0
	getent group nogroup >/dev/null 2>&1 || _g=nobody
	user_lines="User nobody
Group $_g"
	as_user="setpriv --reuid nobody --regid $_g --clear-groups"
	deploy_chown nobody "$_g"
	chown -R "nobody:$_g" "$A/run"
}

free_port() {
	for _i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
		_p=$((20000 + RANDOM % 40000))
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$_p") 2>/dev/null; then
			echo "$_p"
			return 0
		fi
	done
	return 1
}

# listens PID PORT: PID holds a socket listening on TCP port PORT
# (/proc/net/tcp's state 0A, its inode among PID's descriptors).
listens() {
	local _inode _i
	_inode=$(awk -v p="$(printf ':%04X' "$2")" '$4 == "0A" && substr($2, length($2) - 4) == p { print $10 }' \
	    /proc/net/tcp /proc/net/tcp6 2>/dev/null)
	[ -n "$_inode" ] || return 1
	for _i in $_inode; do
		find "/proc/$1/fd" -lname "socket:\[$_i\]" 2>/dev/null | grep -q . && return 0
	done
	return 1
}

wait_http() {
	for _i in $(seq 50); do
		curl -s -o /dev/null --max-time 1 "$1" && return 0
		sleep 0.2
	done
	return 1
}

http() {
	_h=()
	while [ $# -gt 0 ]; do
		case "$1" in
		-H) _h+=(-H "$2"); shift 2 ;;
		-d) _h+=(--data-binary "@$2"); shift 2 ;;
		*) break ;;
		esac
	done
	_m=$1 _url=$2 _out=$T/body
	# curl -I reads no body whatever the server sends: the status and
	# headers of a HEAD are what can be checked.
	if [ "$_m" = HEAD ]; then _h+=(-I) _out=/dev/null; else _h+=(-X "$_m"); fi
	: > "$T/body"
	curl -s --path-as-is --max-time 10 -H 'Expect:' -D "$T/headers.raw" -o "$_out" \
	    -w '%{http_code}' "${_h[@]}" "$_url" > "$T/status" 2>/dev/null
	# The answer's headers without the status line and CRs.
	tr -d '\r' < "$T/headers.raw" | sed '1d' > "$T/headers"
}

admin_checks() { # BASE LABEL [FOLDER]
	local _b=$1 _l=$2 _dir=${3:-$T/dashboard} _csp
	http GET "$_b/admin/"
	expect_status 200 "$_l: GET /admin/: 200"
	check cmp -s "$T/body" "$_dir/index.html" "$_l: /admin/ is the dashboard's index.html, byte for byte"
	_csp=$(header Content-Security-Policy)
	case $_csp in
	*unsafe-*|'') notok "$_l: /admin/ has a strict CSP: got '$_csp'" ;;
	*"frame-ancestors 'none'"*"script-src 'self'"*|*"script-src 'self'"*"frame-ancestors 'none'"*)
		ok "$_l: /admin/ has a strict CSP ($_csp)" ;;
	*) notok "$_l: /admin/'s CSP allows only its own scripts and no framing: got '$_csp'" ;;
	esac
	expect_header X-Content-Type-Options "nosniff" "$_l: /admin/ is nosniff"
	http GET "$_b/admin/preview.html"
	expect_status 200 "$_l: GET /admin/preview.html: 200"
	_csp=$(header Content-Security-Policy)
	case $_csp in
	*unsafe-*|'') notok "$_l: preview.html has a strict CSP: got '$_csp'" ;;
	*"connect-src data:"*"frame-ancestors 'self'"*) ok "$_l: preview.html is framed by the dashboard only and connects to data: only" ;;
	*) notok "$_l: preview.html's CSP: got '$_csp'" ;;
	esac
	http GET "$_b/admin/.env"
	case $(cat "$T/status") in
	403|404) ok "$_l: /admin/.env (a hidden file) is refused" ;;
	*) notok "$_l: /admin/.env: status $(cat "$T/status")" ;;
	esac
	if [ ! -x "$T/cgi-bin/admin" ]; then
		skip "$_l: cgi-bin/admin is not built: the dashboard's API through the server not checked"
		return 0
	fi
	if store_is_postgres; then
		# The setup token's file has no database file to sit beside:
		# CONSENT_DATA_DIR names its folder (consent(8)), which this test
		# does not pass through the servers.  The program is reached.
		http GET "$_b/admin/api/session"
		expect_error 404 "Setup required" "$_l: PostgreSQL: GET /admin/api/session reaches cgi-bin/admin (no account yet: Setup required)"
		skip "$_l: PostgreSQL: setup through the server not run (CONSENT_DATA_DIR not passed)"
		return 0
	fi
	http GET "$_b/admin/api/setup"
	if [ "$(cat "$T/status")" = 200 ]; then
		expect_json .needed true "$_l: GET /admin/api/setup on a new database: setup is needed"
		http GET "$_b/admin/api/session"
		expect_error 404 "Setup required" "$_l: GET /admin/api/session before setup: 404 Setup required"
		jq -cn --arg t "$(cat "$(dirname "$CONSENT_DB")/.consent-setup-token")" \
		    '{token: $t, username: "deployer", password: "deploy-check-passphrase"}' > "$T/setup.json"
		http -H "Content-Type: application/json" -d "$T/setup.json" POST "$_b/admin/api/setup"
		expect_status 201 "$_l: POST /admin/api/setup with the token creates the first owner through the server"
	fi
	http GET "$_b/admin/api/session"
	expect_error 401 "Not signed in" "$_l: GET /admin/api/session without a session: 401 JSON from cgi-bin/admin"
	expect_header Content-Type "application/json; charset=utf-8" "$_l: /admin/api/ answers JSON"
	expect_header Content-Security-Policy "default-src 'none'; frame-ancestors 'none'" "$_l: /admin/api/ has the API's CSP"
	expect_header Cache-Control "no-store" "$_l: /admin/api/ is no-store"
	http GET "$_b/admin/api/no-such-route"
	expect_error 404 "Not found" "$_l: an unknown route below /admin/api/ reaches the program (its 404)"
	http GET "$_b/functions/v1/admin"
	case $(cat "$T/status") in
	403|404) ok "$_l: /functions/v1/admin does not run the dashboard's program" ;;
	*) notok "$_l: /functions/v1/admin: status $(cat "$T/status")" ;;
	esac
}

# An error answer that names nothing of the server's files.
expect_no_leak() { # DESC
	_s=$(cat "$T/status")
	case "$_s" in
	400|403|404) ;;
	*) notok "$1: status $_s, want 400, 403 or 404"; return ;;
	esac
	if grep -aqE 'SQLite format|root:.*:0:0:|ELF|#include|consent_log|CONSENT_DB' "$T/body"; then
		notok "$1: the body leaks a file"
	else
		ok "$1"
	fi
}

api_checks() { # BASE LABEL
	_b=$1/functions/v1 _l=$2
	_o=(-H "Origin: $SITE_ORIGIN")

	# config
	http "${_o[@]}" GET "$_b/config?site_key=s1&lang=en"
	expect_status 200 "$_l: GET config: 200"
	expect_json '[.site_name, .version]' '["Site s1",0]' "$_l: GET config: the site's resolved config"
	expect_header Content-Type "application/json; charset=utf-8" "$_l: GET config: Content-Type"
	expect_header Cache-Control "private, no-store" "$_l: GET config: Cache-Control"
	expect_header Access-Control-Allow-Origin "$SITE_ORIGIN" "$_l: GET config: CORS echoes the Origin"
	expect_header Vary "Origin" "$_l: GET config: Vary: Origin"
	http "${_o[@]}" HEAD "$_b/config?site_key=s1"
	expect_status 200 "$_l: HEAD config: 200"
	expect_header Content-Type "application/json; charset=utf-8" "$_l: HEAD config: Content-Type"
	http "${_o[@]}" GET "$_b/config"
	expect_error 400 "site_key is required" "$_l: config without site_key: 400"
	expect_header Access-Control-Allow-Origin "$SITE_ORIGIN" "$_l: CORS on an error"
	expect_header Cache-Control "private, no-store" "$_l: Cache-Control on an error"
	http "${_o[@]}" GET "$_b/config?site_key=nosuch"
	expect_error 404 "Site not found" "$_l: config of an unknown site: 404"
	http GET "$_b/config?site_key=s1"
	expect_error 403 "Missing Origin header" "$_l: config without Origin: 403"
	expect_header Access-Control-Allow-Origin "*" "$_l: no Origin: CORS *"
	http -H "Origin: https://evil.example.net" GET "$_b/config?site_key=s1"
	expect_error 403 "Origin not registered for this site" "$_l: config from an unregistered Origin: 403"
	http "${_o[@]}" -d "$T/consent.json" POST "$_b/config?site_key=s1"
	expect_error 405 "Method not allowed" "$_l: POST config: 405"
	check test -n "$(header Allow)" "$_l: 405 has an Allow header"

	# the preflight
	http "${_o[@]}" -H "Access-Control-Request-Method: POST" \
	    -H "Access-Control-Request-Headers: content-type" OPTIONS "$_b/consent"
	expect_status 204 "$_l: OPTIONS preflight: 204"
	check test ! -s "$T/body" "$_l: OPTIONS preflight: no body"
	expect_header Access-Control-Allow-Origin "$SITE_ORIGIN" "$_l: preflight echoes the Origin"
	expect_header Access-Control-Allow-Methods "GET, POST, OPTIONS" "$_l: preflight allows the methods"
	expect_header Access-Control-Allow-Headers "authorization, x-client-info, apikey, content-type" "$_l: preflight allows the headers"
	expect_header Access-Control-Max-Age "86400" "$_l: preflight max age"

	# consent
	_rows=$(ctl consent export s1 | wc -l)
	http "${_o[@]}" -H "Content-Type: application/json" -d "$T/consent.json" POST "$_b/consent"
	expect_status 201 "$_l: POST consent: 201"
	expect_json '.' '{"success":true}' "$_l: POST consent: {\"success\":true}"
	expect_header Cache-Control "private, no-store" "$_l: POST consent: Cache-Control"
	http "${_o[@]}" -H "Content-Type: text/plain;charset=UTF-8" -d "$T/consent.json" POST "$_b/consent"
	expect_status 201 "$_l: POST consent as text/plain (sendBeacon): 201"
	check test "$(ctl consent export s1 | wc -l)" = $((_rows + 2)) "$_l: the server's user wrote both entries to the database"
	printf 'not json' > "$T/bad.json"
	http "${_o[@]}" -d "$T/bad.json" POST "$_b/consent"
	expect_error 400 "Invalid JSON body" "$_l: POST consent, not JSON: 400"
	http "${_o[@]}" GET "$_b/consent"
	expect_error 405 "Method not allowed" "$_l: GET consent: 405"
	http "${_o[@]}" -H "Content-Type: application/json" -d "$T/big70k.json" POST "$_b/consent"
	expect_error 413 "Payload too large" "$_l: 70 KB body: 413 from the binary"
	expect_header Access-Control-Allow-Origin "$SITE_ORIGIN" "$_l: 413 from the binary has CORS"
	http "${_o[@]}" -H "Content-Type: application/json" -d "$T/big200k.json" POST "$_b/consent"
	expect_status 413 "$_l: 200 KB body: 413 from the server"

	# scripts
	http "${_o[@]}" -d "$T/scripts.json" POST "$_b/scripts"
	expect_status 200 "$_l: POST scripts: 200"
	expect_json '.' '{"success":true}' "$_l: POST scripts: {\"success\":true}"
	check test "$(ctl scripts list s1 --json | jq -r '.[0].category')" = analytics "$_l: the report was stored"
	http "${_o[@]}" -d "$T/scripts.json" POST "$_b/scripts?sync_id=not-a-uuid"
	expect_error 400 "Invalid sync_id format" "$_l: POST scripts, bad sync_id: 400"
	http "${_o[@]}" GET "$_b/scripts"
	expect_error 405 "Method not allowed" "$_l: GET scripts: 405"
}

sdk_checks() { # BASE LABEL
	http GET "$1/sdk/consent.js"
	expect_status 200 "$2: GET /sdk/consent.js: 200"
	expect_header Content-Type "text/javascript" "$2: /sdk/consent.js is text/javascript"
	expect_header Cache-Control "public, max-age=3600" "$2: /sdk/consent.js is cached an hour"
	check cmp -s "$T/body" "$T/sdk/consent.js" "$2: /sdk/consent.js is the built file, byte for byte"
	http GET "$1/sdk/consent.js?v=0.9.0"
	expect_status 200 "$2: /sdk/consent.js with a query: 200"
	http GET "$1/sdk/"
	expect_no_leak "$2: GET /sdk/ lists nothing"
}

leak_checks() { # BASE LABEL [PATH...]: the usual paths and these
	_b=$1 _l=$2
	shift 2
	for _p in /functions/v1/../../etc/passwd /functions/v1/%2e%2e/%2e%2e/etc/passwd \
	    /functions/v1/config.db /functions/v1/ /functions/v1 /functions/v1/consent.c \
	    /functions/v1/config/x /functions/v1/CONFIG /functions/v1/.htaccess \
	    /data/consent.db /data/ "$@"; do
		http -H "Origin: $SITE_ORIGIN" GET "$_b$_p"
		expect_no_leak "$_l: GET $_p answers nothing of a file"
	done
}

# 20 requests to the three endpoints, spelled several ways, sent at once
# (the servers must count concurrent requests right, and a slow machine
# still fits them in the window); then the 21st and 22nd.
rate_limit_checks() { # BASE LABEL [CMD]: CMD runs while the client is refused
	_b=$1/functions/v1 _l=$2
	_o=(-H "Origin: $SITE_ORIGIN")
	_args=()
	for _i in $(seq 20); do
		[ "$_i" -gt 1 ] && _args+=(--next)
		_args+=(-s --path-as-is --max-time 20 -o /dev/null -w '%{http_code}\n' -H 'Expect:' "${_o[@]}")
		case $_i in
		5) _args+=(--data-binary "@$T/consent.json" "$_b/consent") ;;
		6) _args+=(-X OPTIONS "$_b/scripts") ;;
		7) _args+=("$1/%66unctions/v1/config?site_key=s1") ;;
		8) _args+=(--data-binary "@$T/scripts.json" "$_b/scripts") ;;
		*) _args+=("$_b/config?site_key=s1") ;;
		esac
	done
	_t0=$(date +%s%N)
	_codes=$(curl -s --parallel --parallel-max 20 "${_args[@]}" 2>/dev/null | tr '\n' ' ')
	http "${_o[@]}" GET "$_b/config?site_key=s1"
	_t1=$(date +%s%N)
	_ms=$(( (_t1 - _t0) / 1000000 ))
	case " $_codes" in
	*429*) notok "$_l: 20 requests within the limit: got $_codes" ;;
	*) check test "$(echo "$_codes" | tr ' ' '\n' | grep -c '^2')" = 20 "$_l: 20 requests in ${_ms} ms: none refused, all answered 2xx" ;;
	esac
	if [ "$_ms" -ge "${RATE_SPAN_MS:-9000}" ]; then
		skip "$_l: 21 requests took ${_ms} ms, ${RATE_SPAN_MS:-9000} ms or more: limit not checked"
		return
	fi
	expect_status 429 "$_l: the 21st request within 10 s: 429"
	_ra=$(header Retry-After)
	case "$_ra" in
	[1-9]|1[01]) ok "$_l: 429 sends Retry-After ($_ra s)" ;;
	*) notok "$_l: 429 sends Retry-After: got '$_ra', want 1 to 11" ;;
	esac
	check test -n "$(header Access-Control-Allow-Origin)" "$_l: 429 has CORS, so a browser's script can read it"
	expect_header Cache-Control "private, no-store" "$_l: 429 is not cached"
	http "${_o[@]}" -d "$T/consent.json" POST "$_b/consent"
	expect_status 429 "$_l: the 22nd, to another endpoint: 429 too"
	[ -n "${3:-}" ] && "$3"
	case "$_ra" in [1-9]|1[01]) ;; *) return ;; esac
	sleep "$_ra.3"
	http "${_o[@]}" GET "$_b/config?site_key=s1"
	expect_status 200 "$_l: after Retry-After seconds the client gets through again"
}

log_checks() { # FILE... LABEL
	_l=${*: -1}
	_n=$(($# - 1))
	if cat "${@:1:$_n}" 2>/dev/null | grep -qE 'Sanitizer|runtime error:'; then
		notok "$_l: a sanitizer report in the server's log: $(cat "${@:1:$_n}" | grep -E 'Sanitizer|runtime error:' | head -n 3 | tr '\n' ' ')"
	else
		ok "$_l: no sanitizer report in the server's logs"
	fi
}

deploy_absent() { # MSG
	if [ "${CI:-}" = true ]; then
		notok "$1 (CI=true: tools/deps.sh installs it)"
		exit 1
	fi
	skip "$1"
	exit 0
}

# The processes running BINARY (by /proc/PID/exe), one pid a line, sorted.
fcgi_pids() { # BINARY
	for _d in /proc/[0-9]*; do
		[ "$(readlink "$_d/exe" 2>/dev/null)" = "$1" ] && echo "${_d#/proc/}"
	done | sort -n
}

# FastCGI mode through a server whose FastCGI processes run BINDIR's
# binaries: the processes serve request after request (the same pids before
# and after), answer byte for byte what the same binary answers as CGI, and
# a process killed with SIGKILL costs no request: the next one is served
# and a new process takes the killed one's place.
fcgi_checks() { # BASE LABEL BINDIR
	_b=$1/functions/v1 _l=$2 _bin=$3/config
	_o=(-H "Origin: $SITE_ORIGIN")
	for _e in config consent scripts; do
		check test -n "$(fcgi_pids "$3/$_e")" "$_l: $_e runs as long-lived FastCGI processes"
	done
	http "${_o[@]}" GET "$_b/config?site_key=s1&lang=en"
	_before=$(fcgi_pids "$_bin" | tr '\n' ' ')
	_codes=""
	for _i in 1 2 3 4 5 6 7 8 9 10; do
		http "${_o[@]}" GET "$_b/config?site_key=s1&lang=en"
		_codes="$_codes$(cat "$T/status") "
	done
	_after=$(fcgi_pids "$_bin" | tr '\n' ' ')
	check test "$_codes" = "200 200 200 200 200 200 200 200 200 200 " "$_l: 10 more config requests: all 200"
	if [ -n "$_before" ] && [ "$_before" = "$_after" ]; then
		ok "$_l: the same config processes ($_after) served all 10: no process per request"
	else
		notok "$_l: config processes before 10 requests: '$_before', after: '$_after'"
	fi
	# The same answer as the binary run as CGI, byte for byte.
	cp "$T/body" "$T/body.fcgi"
	cgi GET config "site_key=s1&lang=en"
	check cmp -s "$T/body" "$T/body.fcgi" "$_l: config's body is the one the binary gives as CGI"

	_victim=${_after%% *}
	kill -KILL "$_victim" 2>/dev/null
	http "${_o[@]}" GET "$_b/config?site_key=s1&lang=en"
	expect_status 200 "$_l: config process $_victim killed: the next request is served"
	_new=""
	for _i in $(seq 25); do
		_new=$(fcgi_pids "$_bin" | tr '\n' ' ')
		case " $_new" in
		*" $_victim "*|" ") ;;
		*) [ "$(echo $_new | wc -w)" -ge "$(echo $_after | wc -w)" ] && break ;;
		esac
		http "${_o[@]}" GET "$_b/config?site_key=s1&lang=en"
		sleep 0.2
	done
	case " $_new" in
	*" $_victim "*|" ") notok "$_l: after the kill the config processes are '$_new'" ;;
	*) ok "$_l: the killed process is replaced (config processes now $_new)" ;;
	esac
	http "${_o[@]}" GET "$_b/config?site_key=s1&lang=en"
	expect_status 200 "$_l: and serves"
}

. "$TOP/tools/fcgi-pool.sh"
deploy_pool() { # ENDPOINT RUN LOG
	local _e=$1 _run=$2 _unit=$TOP/apache/consent-fcgi@.service _n _i
	_n=$(sed -n 's/^Environment=PROCS=//p' "$_unit")
	FCGI_POOL_AS=${as_user:-} fcgi_pool_start "$_unit" "$_e" RUN="$_run" CGIBIN="$T/cgi-bin" \
	    CONSENT_DB="$CONSENT_DB" >> "$3" 2>&1
	POOL_PID=$FCGI_POOL_PID
	serve_pid "$POOL_PID"
	for _i in $(seq 50); do
		[ -S "$_run/$_e.sock" ] && [ "$(fcgi_pids "$T/cgi-bin/$_e" | wc -l)" -ge "$_n" ] && return 0
		sleep 0.1
	done
	notok "the $_e pool did not start: $(tail -n 3 "$3" | tr '\n' ' ')"
	exit 1
}

pool_stop_checks() { # BASE LABEL RUN LOG PID STATUS
	local _b=$1/functions/v1 _l=$2 _before _i
	_before=$(fcgi_pids "$T/cgi-bin/consent" | tr '\n' ' ')
	kill -TERM "$5"
	for _i in $(seq 50); do
		[ -z "$(fcgi_pids "$T/cgi-bin/consent")" ] && ! kill -0 "$5" 2>/dev/null && break
		sleep 0.1
	done
	check test -z "$(fcgi_pids "$T/cgi-bin/consent")" "$_l: SIGTERM to the consent pool: its processes ($_before) all left"
	check test -S "$3/consent.sock" "$_l: the stopped pool's socket file stays behind"
	http -H "Origin: $SITE_ORIGIN" -d "$T/consent.json" POST "$_b/consent"
	expect_status "$6" "$_l: consent with its pool stopped: $6"
	http -H "Origin: $SITE_ORIGIN" GET "$_b/config?site_key=s1"
	expect_status 200 "$_l: config's pool still serves"
	deploy_pool consent "$3" "$4"
	http -H "Origin: $SITE_ORIGIN" -d "$T/consent.json" POST "$_b/consent"
	expect_status 201 "$_l: the pool started again over the old socket: consent 201"
}
