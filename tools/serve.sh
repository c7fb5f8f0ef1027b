#!/bin/sh
# serve.sh PORT: a demo database and a real lighttpd serving the API on
# 127.0.0.1:PORT under /functions/v1/, the SDK at /sdk/consent.js, a demo
# page with the SDK on it at /demo/ and the dashboard at /admin/ (its API
# at /admin/api/), in the foreground (Ctrl-C stops it).  Once the server
# answers it prints what a newcomer needs to sign in: while no account
# exists, the setup token's file and the dashboard's address.
# SERVE_MODE=fastcgi serves the API with lighttpd/consent-fastcgi.conf (the
# binaries as FastCGI processes) instead of consent.conf (CGI).
# SERVER=nginx serves it with nginx/consent.conf instead, to the pools of
# apache/consent-fcgi@.service started here as the unit starts them
# (tools/fcgi-pool.sh), and stopped when nginx stops.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
port=${1:-8080}
dir=$top/build/serve
mkdir -p "$dir/www/demo"
cp "$top"/tools/demo/* "$dir/www/demo/"
sed "s/@PORT@/$port/g" "$top/tools/demo/index.html" > "$dir/www/demo/index.html"
db=$dir/consent.db
server=${SERVER:-lighttpd}
case $server in
lighttpd) need=lighttpd ;;
nginx) need="nginx spawn-fcgi multiwatch" PATH=$PATH:/usr/sbin:/sbin ;;
*) echo "serve: SERVER is lighttpd or nginx, not $server" >&2; exit 1 ;;
esac
for p in $need; do
	command -v "$p" >/dev/null || { echo "serve: $p is not installed (sudo sh tools/deps.sh)" >&2; exit 1; }
done
ctl="$top/bin/consentctl --db $db"

# signin_help: once the server answers, what a newcomer needs to sign in to
# the dashboard.  The address is localhost: its session cookie is Secure,
# which browsers accept over plain http from localhost only.
signin_help() {
	admin=http://localhost:$port/admin/
	for _i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
		setup=$(curl -s "http://127.0.0.1:$port/admin/api/setup" 2>/dev/null) && [ -n "$setup" ] && break
		sleep 0.25
	done
	if [ ! -x "$top/cgi-bin/admin" ] || [ ! -f "$top/build/admin/index.html" ]; then
		echo "The dashboard is not built (cgi-bin/admin, build/admin/: esbuild and npm ci, then make)"
		return 0
	fi
	file=""
	case $setup in
	*'"needed":true'*) file=$(printf '%s' "$setup" | sed -n 's/.*"token_file":"\([^"]*\)".*/\1/p') ;;
	esac
	if [ -n "$file" ]; then
		echo "The dashboard: $admin"
		echo "  First run: open it, paste the setup token from the file"
		echo "    $file"
		[ -r "$file" ] && echo "  (its content: $(cat "$file"))"
		echo "  then choose the first owner's name and password, and enrol the"
		echo "  authenticator app with the QR code the page shows."
	else
		echo "The dashboard: $admin (sign in; consentctl --db $db user list names the accounts)"
	fi
}
$ctl init >/dev/null
if ! $ctl site show demo >/dev/null 2>&1; then
	$ctl site add demo --name "Demo site" --domain localhost --tier paid >/dev/null
fi
# The demo page's own origin: opened as 127.0.0.1 or as localhost.
$ctl site show demo | grep -q '127\.0\.0\.1' || $ctl domain add demo 127.0.0.1 >/dev/null
[ -f "$top/build/sdk/consent.js" ] ||
	echo "serve: build/sdk/consent.js is missing (esbuild: sh tools/deps.sh; make): the demo page has no banner" >&2
if [ "$server" = nginx ]; then
	. "$top/tools/fcgi-pool.sh"
	n=$dir/nginx
	mkdir -p "$n/run" "$n/tmp"
	pools=""
	trap 'for p in $pools; do kill -TERM "$p" 2>/dev/null; done' EXIT
	trap 'exit 130' INT TERM HUP
	for e in config consent scripts admin; do
		[ -x "$top/cgi-bin/$e" ] || continue
		rm -f "$n/run/$e.sock"
		fcgi_pool_start "$top/apache/consent-fcgi@.service" "$e" RUN="$n/run" \
		    CGIBIN="$top/cgi-bin" CONSENT_DB="$db"
		pools="$pools $FCGI_POOL_PID"
	done
	# As root, nginx's workers would be nobody, who may not reach the
	# pools' sockets (the user's, 0660): the demo's workers stay root,
	# as lighttpd does here.
	user=""
	[ "$(id -u)" -eq 0 ] && user="user root;"
	cat > "$n/nginx.conf" <<CONF
daemon off;
$user
pid $n/nginx.pid;
error_log stderr;
events { worker_connections 256; }
http {
	include /etc/nginx/mime.types;
	access_log off;
	client_body_temp_path $n/tmp/body;
	fastcgi_temp_path $n/tmp/fastcgi;
	proxy_temp_path $n/tmp/proxy;
	scgi_temp_path $n/tmp/scgi;
	uwsgi_temp_path $n/tmp/uwsgi;
	include $top/nginx/consent-http.conf;
	server {
		listen 127.0.0.1:$port;
		root $dir/www;
		set \$consent_fcgi_run $n/run;
		set \$consent_sdk $top/build/sdk;
		set \$consent_admin $top/build/admin;
		include $top/nginx/consent.conf;
	}
}
CONF
	echo "Serving the consent API (nginx, FastCGI pools) on http://127.0.0.1:$port/functions/v1/ (database $db)"
	echo "The demo page, with the banner: http://127.0.0.1:$port/demo/"
	nginx -p "$n" -c "$n/nginx.conf" &
	server_pid=$!
	trap 'kill -TERM $server_pid 2>/dev/null; wait $server_pid; for p in $pools; do kill -TERM "$p" 2>/dev/null; done' EXIT
	signin_help
	wait $server_pid
	exit
fi
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
var.consent_admin = "$top/build/admin"
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
echo 'include var.consent_dir + "/consent-admin.conf"' >> "$dir/lighttpd.conf"
echo "Try:"
echo "  curl -i -H 'Origin: http://localhost' 'http://127.0.0.1:$port/functions/v1/config?site_key=demo'"
lighttpd -D -f "$dir/lighttpd.conf" &
server_pid=$!
trap 'kill -TERM $server_pid 2>/dev/null; wait $server_pid' EXIT
trap 'exit 130' INT TERM HUP
signin_help
wait $server_pid
