#!/bin/bash
# t0835-dist-apache-suexec.sh: shared hosting for real (issue 27, ADMIN.md
# 9): make dist's archive unpacked by a customer into
# ~customer/public_html/consent/ and served by a private Apache 2.4 as a
# cPanel-style host runs it: started as root, User www-data, mod_userdir
# and suEXEC (Debian's apache2-suexec-pristine), the customer's folder
# configured by the release's .htaccess files alone, with only the
# overrides such hosts allow.  The customer is an account of a private
# passwd file bind-mounted in a mount namespace of this test's own
# (unshare -m: no useradd), its home 0711; the release is unpacked as that
# user with umask 022 and no chmod by root after.  suEXEC's log, compiled
# in as /var/log/apache2/suexec.log, is a folder of the test's mounted
# there too.
#
# Checked: suEXEC enabled and the programs run as the customer; the
# dashboard's first run (the installer) and its whole flow in Chromium
# (tests/dist/flow.mjs: the token file read as the customer reads it,
# TOTP, a site, publish, a page of the same web space with the site's
# script tag shows the banner, a decision, that decision in the log); the
# API through the pretty URLs as the spec says; the database, its -wal,
# data/, the settings file, the .htaccess files and consentctl 403, no
# listing; the archive uploaded again over it keeps every entry; a
# group-writable program folder refused by suEXEC (its log says why, as
# docs/deploy.md's troubleshooting does); then a fresh upload on the same
# Apache without suEXEC: the programs run as www-data, which cannot write
# the customer's data/ until the customer opens it.
# serial: it mounts over /etc/passwd in its own namespace and starts Chromium
if [ "$(id -u)" -eq 0 ] && [ -z "${CONSENT_T0835_NS:-}" ] && command -v unshare >/dev/null 2>&1; then
	CONSENT_T0835_NS=1 exec unshare -m --propagation private bash "$0" "$@"
fi
. "$(dirname "$0")/setup.sh"
plain_pass_only
. "$TOP/tests/deploy/lib.sh"
. "$TOP/tests/deploy/dist.sh"

PATH=$PATH:/usr/sbin:/sbin
what="the shared-hosting checks (suEXEC) not run"
if [ "$(id -u)" -ne 0 ] || [ -z "${CONSENT_T0835_NS:-}" ]; then
	skip "not root, or no unshare: $what (Apache starts as root and the customer is an account of a passwd file mounted in a namespace of the test's own)"
	exit 0
fi
command -v apache2 >/dev/null 2>&1 || deploy_absent "apache2 is not installed (sh tools/deps.sh as root): $what"
mods=/usr/lib/apache2/modules
for m in userdir suexec cgid rewrite headers mime dir autoindex; do
	[ -f "$mods/mod_$m.so" ] || deploy_absent "Apache has no mod_$m: $what"
done
wrapper=$(readlink -f /usr/lib/apache2/suexec 2>/dev/null)
if [ -z "$wrapper" ] || [ ! -u "$wrapper" ]; then
	deploy_absent "no setuid suEXEC wrapper at /usr/lib/apache2/suexec (package apache2-suexec-pristine): $what"
fi
getent passwd www-data >/dev/null 2>&1 || deploy_absent "no user www-data (Debian's Apache runs as it): $what"
dist_archive

# The customer: an account of this namespace's passwd and group files.
CUID=4827
H=$T/home/customer
P=$H/public_html
R=$P/consent
chmod 755 "$T"
mkdir -p "$T/etc" "$T/suexec-log" "$H"
cp /etc/passwd /etc/group "$T/etc/"
echo "customer:x:$CUID:$CUID:Customer:$H:/usr/sbin/nologin" >> "$T/etc/passwd"
echo "customer:x:$CUID:" >> "$T/etc/group"
mount --bind "$T/etc/passwd" /etc/passwd && mount --bind "$T/etc/group" /etc/group &&
	mount --bind "$T/suexec-log" /var/log/apache2 ||
	{ notok "bind mounts in the test's namespace"; exit 1; }
chown "$CUID:$CUID" "$H"
chmod 0711 "$H"
check test "$(getent passwd customer | cut -d: -f3,6)" = "$CUID:$H" "the customer is an account in this namespace only (uid $CUID, home $H, 0711)"

# as_customer CMD...: CMD as the customer, umask 022, in its home.
as_customer() {
	(cd "$H" && umask 022 && setpriv --reuid "$CUID" --regid "$CUID" --clear-groups env HOME="$H" "$@")
}
cp "$DIST_TGZ" "$T/release.tar.gz"
chmod 644 "$T/release.tar.gz"
# upload FOLDER: the archive unpacked by the customer as FOLDER of public_html.
upload() {
	as_customer sh -c "mkdir -p '$P' && cd '$P' && tar -xzf '$T/release.tar.gz' && rm -rf '$1.new' &&
		if [ -d '$1' ]; then cp -R '$DIST_NAME'/. '$1'/ && rm -rf '$DIST_NAME'; else mv '$DIST_NAME' '$1'; fi"
}
upload consent || { notok "the customer unpacks the release"; exit 1; }
check test "$(stat -c '%u %a' "$R/cgi-bin/admin" "$R/cgi-bin" "$R/data" "$R/.htaccess" | tr '\n' ' ')" = "$CUID 755 $CUID 755 $CUID 755 $CUID 644 " \
    "the release unpacked by the customer with umask 022: its own files, programs and folders 755, the rest 644"
ctl() { as_customer "$R/consentctl" --db "$R/data/consent.db" "$@"; }

A=$T/apache
mkdir -p "$A/run" "$T/www"
echo '<p>static</p>' > "$T/www/index.html"
user_lines="User www-data
Group www-data"
write_conf() { # PORT
	cat > "$A/httpd.conf" <<CONF
ServerRoot "$A"
PidFile "$A/run/httpd.pid"
DefaultRuntimeDir "$A/run"
ErrorLog "$A/error.log"
LogLevel notice
ServerName 127.0.0.1
$user_lines
LoadModule mpm_event_module $mods/mod_mpm_event.so
LoadModule authz_core_module $mods/mod_authz_core.so
LoadModule mime_module $mods/mod_mime.so
LoadModule dir_module $mods/mod_dir.so
LoadModule autoindex_module $mods/mod_autoindex.so
LoadModule userdir_module $mods/mod_userdir.so
LoadModule suexec_module $mods/mod_suexec.so
LoadModule cgid_module $mods/mod_cgid.so
LoadModule rewrite_module $mods/mod_rewrite.so
LoadModule headers_module $mods/mod_headers.so
TypesConfig /etc/mime.types
ScriptSock "$A/run/cgisock"
Listen 127.0.0.1:$1
DocumentRoot "$T/www"
<Directory />
	AllowOverride None
	Require all denied
</Directory>
<Directory "$T/www">
	Require all granted
</Directory>
# A cPanel-style host: listings on unless a .htaccess turns them off, and
# only these overrides.  No server-wide rule for .ht* files: the
# release's own .htaccess files must deny them.
UserDir public_html
UserDir disabled root
<Directory "$T/home/*/public_html">
	AllowOverride AuthConfig FileInfo Indexes Limit Options=ExecCGI,Indexes,SymLinksIfOwnerMatch,MultiViews
	Options MultiViews Indexes SymLinksIfOwnerMatch IncludesNoExec
	Require all granted
</Directory>
CONF
}
# start_apache LABEL: launch's Apache, its port in $port, its URLs $base
# (the release) and $home (the customer's web space).
start_apache() {
	: > "$A/error.log"
	launch apache2 1 1 "$1"
	port=${PORTS[0]}
	home=http://localhost:$port/~customer
	base=$home/consent
}
stop_apache() {
	deploy_cleanup_keep
}
# The servers launch started, stopped; $T kept (deploy_cleanup removes it).
deploy_cleanup_keep() {
	local _p _i
	for _p in $_servers; do
		kill -TERM "$_p" 2>/dev/null || continue
		for _i in $(seq 50); do kill -0 "$_p" 2>/dev/null || break; sleep 0.1; done
		kill -KILL "$_p" 2>/dev/null
		wait "$_p" 2>/dev/null
	done
	_servers=""
}

start_apache "suEXEC"
ok "$(apache2 -v | sed -n 's/^Server version: //p') on 127.0.0.1:$port, as root with User www-data, mod_userdir and suEXEC"
if grep -q 'suEXEC mechanism enabled' "$A/error.log" "$A/stderr.log"; then
	ok "Apache's log: $(grep -ho 'suEXEC mechanism enabled[^)]*)' "$A/error.log" "$A/stderr.log" | head -n 1)"
else
	notok "Apache's log shows suEXEC mechanism enabled: $(head -n 3 "$A/error.log" | tr '\n' ' ')"
fi
check test "$(ps -o user= -p "${_servers# }" | tr -d ' ')" = www-data "Apache, started as root, serves as www-data"

# The dashboard's page before anything ran: static files of the upload.
http GET "$base/admin/"
expect_status 200 "GET /~customer/consent/admin/: 200"
check cmp -s "$T/body" "$R/admin/index.html" "/admin/ under the folder is the release's admin/index.html"
expect_header Content-Security-Policy "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; frame-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'" \
    "the page's CSP as the other shipped configs send it"
expect_header X-Frame-Options DENY "the page: X-Frame-Options DENY"
expect_header X-Content-Type-Options nosniff "the page: nosniff"
http GET "$base/admin/preview.html"
expect_status 200 "GET admin/preview.html: 200"
case $(header Content-Security-Policy) in
*"connect-src data:"*"frame-ancestors 'self'"*) ok "preview.html: framed by the dashboard only, connects to data: only" ;;
*) notok "preview.html's CSP: $(header Content-Security-Policy)" ;;
esac
check test -z "$(header X-Frame-Options)" "preview.html: no X-Frame-Options (the dashboard frames it)"
http GET "$base/admin/admin.js"
expect_header Content-Type "text/javascript" "admin.js is text/javascript (nosniff lets it run)"
http GET "$base/admin"
expect_status 301 "GET .../admin: 301 to the folder"

# The installer: the first GET of the API on a fresh upload.
http GET "$base/admin/api/setup"
expect_status 200 "GET admin/api/setup on a fresh upload: 200 (the first run)"
expect_json .needed true "the first run: setup is needed"
expect_header Content-Security-Policy "default-src 'none'; frame-ancestors 'none'" "admin/api/: the API's own CSP only (not the page's)"
check test "$(stat -c %u "$R/data/consent.db" 2>/dev/null)" = "$CUID" "the program made data/consent.db as the customer (uid $CUID): suEXEC ran it as its owner"
if grep -q "uid: ($CUID/customer) gid: ($CUID/customer) cmd: admin" "$T/suexec-log/suexec.log" 2>/dev/null; then
	ok "suexec.log: $(grep -m 1 "cmd: admin" "$T/suexec-log/suexec.log" | sed 's/^\[[^]]*\]: //')"
else
	notok "suexec.log names the customer running admin: $(tail -n 2 "$T/suexec-log/suexec.log" 2>/dev/null | tr '\n' ' ')"
fi
token_file=$R/data/.consent-setup-token
check test "$(stat -c '%u %a' "$token_file" 2>/dev/null)" = "$CUID 600" "the setup token file in data/, the customer's, mode 600 (readable by FTP as the customer)"

# The dashboard's whole first hour in Chromium (tests/dist/flow.mjs).
if ! command -v node >/dev/null 2>&1 || [ ! -x "${CHROMIUM:-/usr/bin/chromium}" ] || [ ! -d "$TOP/node_modules/playwright-core" ]; then
	deploy_absent "node, Chromium or node_modules/playwright-core (npm ci) missing: the dashboard's flow in a browser not run"
fi
DASHBOARD=$base/admin/ SHOP_URL=http://shop.test:$port/~customer/shop.html SHOP_FILE=$P/shop.html \
TOKEN_FILE=$token_file AS_CUSTOMER="setpriv --reuid $CUID --regid $CUID --clear-groups" \
    node "$TOP/tests/dist/flow.mjs" 2>&1 | sed 's/^/	/;s/^\t\(ok\|not ok\) - /\1 - flow: /'
