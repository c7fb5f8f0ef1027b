#!/bin/sh
# serve.sh PORT: a demo database and a real lighttpd serving the API on
# 127.0.0.1:PORT under /functions/v1/, the SDK at /sdk/consent.js and a demo
# page with the SDK on it at /demo/, in the foreground (Ctrl-C stops it).
# SERVE_MODE=fastcgi serves the API with lighttpd/consent-fastcgi.conf (the
# binaries as FastCGI processes) instead of consent.conf (CGI).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
port=${1:-8080}
dir=$top/build/serve
mkdir -p "$dir/www/demo"
cp "$top"/tools/demo/* "$dir/www/demo/"
sed "s/@PORT@/$port/g" "$top/tools/demo/index.html" > "$dir/www/demo/index.html"
db=$dir/consent.db
command -v lighttpd >/dev/null || { echo "serve: lighttpd is not installed (sudo sh tools/deps.sh)" >&2; exit 1; }
ctl="$top/bin/consentctl --db $db"
$ctl init >/dev/null
if ! $ctl site show demo >/dev/null 2>&1; then
	$ctl site add demo --name "Demo site" --domain localhost --tier paid >/dev/null
fi
# The demo page's own origin: opened as 127.0.0.1 or as localhost.
$ctl site show demo | grep -q '127\.0\.0\.1' || $ctl domain add demo 127.0.0.1 >/dev/null
[ -f "$top/build/sdk/consent.js" ] ||
	echo "serve: build/sdk/consent.js is missing (esbuild: sh tools/deps.sh; make): the demo page has no banner" >&2
cat > "$dir/lighttpd.conf" <<CONF
server.document-root = "$dir/www"
server.bind = "127.0.0.1"
server.port = $port
server.errorlog = "/dev/stderr"
mimetype.assign = ( ".html" => "text/html; charset=utf-8", ".js" => "text/javascript", ".css" => "text/css" )
index-file.names = ( "index.html" )
var.consent_dir = "$top/lighttpd"
var.consent_cgibin = "$top/cgi-bin"
var.consent_sdk = "$top/build/sdk"
var.consent_env = ( "CONSENT_DB" => "$db" )
CONF
case ${SERVE_MODE:-cgi} in
cgi)
	echo 'include var.consent_dir + "/consent.conf"' >> "$dir/lighttpd.conf" ;;
fastcgi)
	mkdir -p "$dir/sockets"
	cat >> "$dir/lighttpd.conf" <<CONF
var.consent_sockets = "$dir/sockets"
var.consent_procs = 2
var.consent_writer_procs = 2
include var.consent_dir + "/consent-fastcgi.conf"
CONF
	;;
*) echo "serve: SERVE_MODE is cgi or fastcgi, not $SERVE_MODE" >&2; exit 1 ;;
esac
echo "Serving the consent API (${SERVE_MODE:-cgi}) on http://127.0.0.1:$port/functions/v1/ (database $db)"
echo "The demo page, with the banner: http://127.0.0.1:$port/demo/"
echo "Try:"
echo "  curl -i -H 'Origin: http://localhost' 'http://127.0.0.1:$port/functions/v1/config?site_key=demo'"
exec lighttpd -D -f "$dir/lighttpd.conf"
