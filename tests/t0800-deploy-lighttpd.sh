#!/bin/bash
# t0800-deploy-lighttpd.sh: the API through a real lighttpd on 127.0.0.1
# configured by the shipped lighttpd/consent.conf and ratelimit.lua
# (CONTRACT 1, 7; spec 8).  One server, two ports: the functional checks go
# to a port where the test turns the limiter off, the rate limit is checked
# on the other, exactly as shipped.
. "$(dirname "$0")/setup.sh"
server_test
. "$TOP/tests/deploy/lib.sh"

# The servers live in sbin, which a user's PATH may lack.
PATH=$PATH:/usr/sbin:/sbin
if ! command -v lighttpd >/dev/null 2>&1; then
	deploy_absent "lighttpd is not installed (sh tools/deps.sh as root): lighttpd deploy checks not run"
fi

deploy_init
# Database copies in the document root: refused by their suffix alone.
cp "$db_file" "$T/www/old.db"
cp "$db_file" "$T/www/old.db-wal"
L=$T/lighttpd
mkdir -p "$L"

# write_conf LIMITED OPEN: the shipped file included as an operator would.
write_conf() {
	cat > "$L/lighttpd.conf" <<CONF
server.document-root = "$T/www"
server.bind = "127.0.0.1"
server.port = $1
server.errorlog = "$L/error.log"
server.breakagelog = "$L/cgi-stderr.log"

var.consent_dir = "$TOP/lighttpd"
var.consent_cgibin = "$T/cgi-bin"
var.consent_sdk = "$T/sdk"
var.consent_env = ( "CONSENT_DB" => "$CONSENT_DB" )
include var.consent_dir + "/consent.conf"
var.consent_admin = "$T/dashboard"
include var.consent_dir + "/consent-admin.conf"

# Test only: a second port without the rate limiter, for the functional checks.
\$SERVER["socket"] == "127.0.0.1:$2" {
	magnet.attract-raw-url-to = ( )
}
CONF
}

launch lighttpd 2 1 lighttpd
limited=${PORTS[0]} open=${PORTS[1]}
ok "lighttpd $(lighttpd -v 2>&1 | sed -n 's/^lighttpd\/\([0-9.]*\).*/\1/p') serves the shipped config on 127.0.0.1:$limited and :$open"

api_checks "http://127.0.0.1:$open" "lighttpd"
sdk_checks "http://127.0.0.1:$limited" "lighttpd"
admin_checks "http://127.0.0.1:$open" "lighttpd"
leak_checks "http://127.0.0.1:$open" "lighttpd" /old.db /old.db-wal

# While limited, only the API is refused: the limiter sits on /functions/v1/.
while_limited() {
	http GET "http://127.0.0.1:$limited/index.html"
	expect_status 200 "lighttpd: a limited client still gets pages outside /functions/v1/"
	http GET "http://127.0.0.1:$limited/sdk/consent.js"
	expect_status 200 "lighttpd: a limited client still gets /sdk/consent.js (outside the limit)"
	http -H "Origin: $SITE_ORIGIN" GET "http://127.0.0.1:$limited/functions/v1/config?site_key=s1"
	expect_json '.' '{"error":"Too many requests"}' "lighttpd: 429 body is the API's error shape"
	expect_header Content-Type "application/json; charset=utf-8" "lighttpd: 429 Content-Type"
	expect_header Access-Control-Allow-Origin "$SITE_ORIGIN" "lighttpd: 429 echoes the Origin"
}
rate_limit_checks "http://127.0.0.1:$limited" "lighttpd" while_limited

check test -z "$(grep -E 'mod_magnet|\.lua' "$L/error.log")" "lighttpd: no Lua error in the error log"
log_checks "$L/error.log" "$L/cgi-stderr.log" "lighttpd"
