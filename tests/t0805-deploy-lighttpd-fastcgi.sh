#!/bin/bash
# t0805-deploy-lighttpd-fastcgi.sh: the API through a real lighttpd on
# 127.0.0.1 configured by the shipped lighttpd/consent-fastcgi.conf (the
# three binaries as FastCGI processes of mod_fastcgi) and ratelimit.lua
# (CONTRACT 1, 7; spec 8).  As t0800: one server, two ports, the functional
# checks on a port where the test turns the limiter off, the rate limit on
# the other, exactly as shipped.  Then what FastCGI adds: the processes
# outlive their requests, and one killed is replaced without a failed
# request.
. "$(dirname "$0")/setup.sh"
server_test
. "$TOP/tests/deploy/lib.sh"

# The servers live in sbin, which a user's PATH may lack.
PATH=$PATH:/usr/sbin:/sbin
command -v lighttpd >/dev/null 2>&1 ||
	deploy_absent "lighttpd is not installed (sh tools/deps.sh as root): lighttpd FastCGI deploy checks not run"

deploy_init
cp "$db_file" "$T/www/old.db"
L=$T/lighttpd
mkdir -p "$L/sockets"
PROCS=2

# write_conf LIMITED OPEN: the shipped file included as an operator would.
write_conf() {
	cat > "$L/lighttpd.conf" <<CONF
server.document-root = "$T/www"
server.bind = "127.0.0.1"
server.port = $1
server.errorlog = "$L/error.log"

var.consent_dir = "$TOP/lighttpd"
var.consent_cgibin = "$T/cgi-bin"
var.consent_sdk = "$T/sdk"
var.consent_sockets = "$L/sockets"
var.consent_procs = $PROCS
var.consent_writer_procs = $PROCS
var.consent_env = ( "CONSENT_DB" => "$CONSENT_DB" )
include var.consent_dir + "/consent-fastcgi.conf"
var.consent_admin = "$T/dashboard"
include var.consent_dir + "/consent-admin.conf"

# Test only: a second port without the rate limiter, for the functional checks.
\$SERVER["socket"] == "127.0.0.1:$2" {
	magnet.attract-raw-url-to = ( )
}
CONF
}

launch lighttpd 2 1 "lighttpd FastCGI"
limited=${PORTS[0]} open=${PORTS[1]}
ok "lighttpd $(lighttpd -v 2>&1 | sed -n 's/^lighttpd\/\([0-9.]*\).*/\1/p') serves the shipped FastCGI config on 127.0.0.1:$limited and :$open"
for e in config consent scripts; do
	check test "$(fcgi_pids "$T/cgi-bin/$e" | wc -l)" = "$PROCS" "lighttpd started $PROCS $e processes (max-procs)"
done
# Their environment: consent_env, and no end after a number of requests
# (lighttpd would answer 503 while it restarts them).
p=$(fcgi_pids "$T/cgi-bin/consent" | head -n 1)
env_of() { tr '\0' '\n' < "/proc/$p/environ" | grep '^CONSENT_' | sort | tr '\n' ' '; }
check test "$(env_of)" = "CONSENT_DB=$CONSENT_DB CONSENT_FCGI_MAX_REQUESTS=1000000000 " \
    "lighttpd fastcgi: a process's settings are CONSENT_DB and CONSENT_FCGI_MAX_REQUESTS=1000000000 (got $(env_of))"

api_checks "http://127.0.0.1:$open" "lighttpd fastcgi"
sdk_checks "http://127.0.0.1:$limited" "lighttpd fastcgi"
admin_checks "http://127.0.0.1:$open" "lighttpd fastcgi"
leak_checks "http://127.0.0.1:$open" "lighttpd fastcgi" /old.db
fcgi_checks "http://127.0.0.1:$open" "lighttpd fastcgi" "$T/cgi-bin"

while_limited() {
	http GET "http://127.0.0.1:$limited/index.html"
	expect_status 200 "lighttpd fastcgi: a limited client still gets pages outside /functions/v1/"
	http -H "Origin: $SITE_ORIGIN" GET "http://127.0.0.1:$limited/functions/v1/config?site_key=s1"
	expect_json '.' '{"error":"Too many requests"}' "lighttpd fastcgi: 429 body is the API's error shape"
	expect_header Access-Control-Allow-Origin "$SITE_ORIGIN" "lighttpd fastcgi: 429 echoes the Origin"
}
rate_limit_checks "http://127.0.0.1:$limited" "lighttpd fastcgi" while_limited

check test -z "$(grep -E 'mod_magnet|\.lua' "$L/error.log")" "lighttpd fastcgi: no Lua error in the error log"
log_checks "$L/error.log" "lighttpd fastcgi"
