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
# listing; a newer release (this build packed as another version)
# uploaded over it keeps every entry, the settings file and the database
# file, and the next sign-in upgrades a database an older release left; a
# group-writable program folder refused by suEXEC (its log says why, as
# docs/deploy.md's troubleshooting does); then a fresh upload on the same
# Apache without suEXEC: the programs run as www-data, which cannot write
# the customer's data/ until the customer opens it; and the upload where
# public_html is a vhost's DocumentRoot.
# serial: it mounts over /etc/passwd in its own namespace and starts Chromium
if [ "$(id -u)" -eq 0 ] && [ -z "${CONSENT_T0835_NS:-}" ] && unshare -m --propagation private true 2>/dev/null; then
	CONSENT_T0835_NS=1 exec unshare -m --propagation private bash "$0" "$@"
fi
. "$(dirname "$0")/setup.sh"
plain_pass_only
. "$TOP/tests/deploy/lib.sh"
. "$TOP/tests/deploy/dist.sh"
. "$TOP/tests/admin.sh"   # totp

PATH=$PATH:/usr/sbin:/sbin
what="the shared-hosting checks (suEXEC) not run"
if [ "$(id -u)" -ne 0 ] || [ -z "${CONSENT_T0835_NS:-}" ]; then
	skip "not root, or unshare -m refused: $what (Apache starts as root and the customer is an account of a passwd file mounted in a namespace of the test's own)"
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

# as_customer CMD...: CMD as the customer, umask 022, in its home, without
# the suite's CONSENT_DB.
as_customer() {
	(cd "$H" && umask 022 && setpriv --reuid "$CUID" --regid "$CUID" --clear-groups \
	    env -u CONSENT_DB HOME="$H" "$@")
}
cp "$DIST_TGZ" "$T/release.tar.gz"
chmod 644 "$T/release.tar.gz"
# upload FOLDER: the archive unpacked by the customer as FOLDER of public_html.
upload() {
	as_customer sh -c "mkdir -p '$P' && cd '$P' && tar -xzf '$T/release.tar.gz' &&
		if [ -d '$1' ]; then cp -R '$DIST_NAME'/. '$1'/ && rm -rf '$DIST_NAME'; else mv '$DIST_NAME' '$1'; fi"
}
upload consent || { notok "the customer unpacks the release"; exit 1; }
check test "$(stat -c '%u %a' "$R/cgi-bin/admin" "$R/cgi-bin" "$R/data" "$R/.htaccess" | tr '\n' ' ')" = "$CUID 755 $CUID 755 $CUID 755 $CUID 644 " \
    "the release unpacked by the customer with umask 022: its own files, programs and folders 755, the rest 644"
# consentctl as INSTALL says to run it: from cgi-bin/, reading the
# settings file the first run writes there.
ctl() { as_customer sh -c 'cd "$1/cgi-bin" && shift && exec ../consentctl "$@"' sh "$R" "$@"; }

A=$T/apache
mkdir -p "$A/run" "$T/www"
echo '<p>static</p>' > "$T/www/index.html"
user_lines="User www-data
Group www-data"
write_conf() { # PORT DOCROOT_PORT
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
# The other kind of host: the customer's public_html is a vhost's
# DocumentRoot (without suEXEC here: Debian's wrapper runs only programs
# below /var/www or a userdir).
Listen 127.0.0.1:$2
<VirtualHost 127.0.0.1:$2>
	DocumentRoot "$P"
</VirtualHost>
CONF
}
# start_apache LABEL: launch's Apache, its port in $port, its URLs $base
# (the release) and $home (the customer's web space); $docroot the vhost
# whose DocumentRoot is public_html.
start_apache() {
	: > "$A/error.log"
	launch apache2 2 1 "$1"
	port=${PORTS[0]} docroot=http://127.0.0.1:${PORTS[1]}
	home=http://localhost:$port/~customer
	base=$home/consent
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
check test "$(stat -c '%u %a' "$R/cgi-bin/.htconsent" 2>/dev/null)" = "$CUID 600" "the first run wrote the settings file cgi-bin/.htconsent, the customer's, mode 600"
check grep -qx 'CONSENT_DB=../data/consent.db' "$R/cgi-bin/.htconsent" "... naming ../data/consent.db"
check test "$(stat -c '%u %a' "$token_file" 2>/dev/null)" = "$CUID 600" "the setup token file in data/, the customer's, mode 600 (readable by FTP as the customer)"

# The dashboard's whole first hour in Chromium (tests/dist/flow.mjs).
if ! command -v node >/dev/null 2>&1 || [ ! -x "${CHROMIUM:-/usr/bin/chromium}" ] || [ ! -d "$TOP/node_modules/playwright-core" ]; then
	[ "${CI:-}" = true ] && notok "node, Chromium or node_modules/playwright-core missing (CI=true: tools/deps.sh installs them)"
	skip "node, Chromium or node_modules/playwright-core (npm ci) missing: the dashboard's flow in a browser not run"
else
	DASHBOARD=$base/admin/ SHOP_URL=http://shop.test:$port/~customer/shop.html SHOP_FILE=$P/shop.html \
	TOKEN_FILE=$token_file AS_CUSTOMER="setpriv --reuid $CUID --regid $CUID --clear-groups" SECRET_FILE=$T/secret \
	    node "$TOP/tests/dist/flow.mjs" 2>&1 | sed 's/^\(ok\|not ok\) - /\1 - flow: /'
fi

# The API through the pretty URLs, as the spec says (site s1 made by the
# release's consentctl, as a customer with a shell would).
ctl site add s1 --name "Site s1" --domain example.com > /dev/null ||
	notok "the release's consentctl adds a site as the customer"
mkdir -p "$T/sdk"
cp "$R/consent.js" "$T/sdk/consent.js"
deploy_bodies
api_checks "$base" "suEXEC"
sdk_checks "$base" "suEXEC"
http GET "$base/consent.js"
expect_status 200 "suEXEC: GET consent.js of the folder: 200"
expect_header Cache-Control "public, max-age=3600" "suEXEC: consent.js cached an hour"
http GET "$base/functions/v1/config?site_key=s1&lang=de"
check test "$(header Access-Control-Allow-Origin)" = "*" "suEXEC: the query string reaches the program through the RewriteRule (no Origin: CORS *)"
http -H "Origin: $SITE_ORIGIN" GET "$base/functions/v1/config?site_key=s1&lang=de"
expect_json .resolvedLanguage '"de"' "suEXEC: ?lang=de kept by the RewriteRule"
http GET "$base/admin/api/session"
expect_error 401 "Not signed in" "suEXEC: admin/api/session reaches cgi-bin/admin with its PATH_INFO (signed out: 401)"
http GET "$base/admin/api/no-such-route"
expect_error 404 "Not found" "suEXEC: an unknown route below admin/api/ is the program's 404"
leak_checks "$base" "suEXEC"

# Denied: the data, the settings file, the configuration, the tool.
[ -f "$R/cgi-bin/.htconsent" ] && settings="the settings file" || settings="the settings file's name (not written yet)"
for p in data/consent.db data/consent.db-wal data/consent.db-shm data/ data data/.consent-setup-token \
    data/.htaccess cgi-bin/.htconsent .htaccess cgi-bin/.htaccess admin/.htaccess consentctl INSTALL \
    cgi-bin/ cgi-bin/.htconsent%00 admin/api/../../data/consent.db; do
	http GET "$base/$p"
	case $p in cgi-bin/.htconsent) d=" ($settings)" ;; *) d="" ;; esac
	case $(cat "$T/status") in
	403) ok "suEXEC: GET $p$d: 403" ;;
	404) case $p in *%00|*/../*) ok "suEXEC: GET $p: 404" ;; *) notok "suEXEC: GET $p$d: 404, want 403" ;; esac ;;
	*) notok "suEXEC: GET $p$d: $(cat "$T/status"), want 403" ;;
	esac
	if grep -aqE 'SQLite format|Index of|CONSENT_|Require all' "$T/body"; then notok "suEXEC: GET $p: the body shows a file or a listing"; fi
done
for p in "" admin/api/ functions/ functions/v1/; do
	http GET "$base/$p"
	if grep -aq 'Index of' "$T/body"; then notok "suEXEC: GET /$p lists the folder"; else ok "suEXEC: GET /$p lists nothing ($(cat "$T/status"))"; fi
done

# Under suEXEC the programs take their database from cgi-bin/.htconsent
# (the compiled-in ../data/consent.db names the same file, so the file is
# pointed at a copy that alone has a site); a client's Consent-DB header
# changes nothing.
if command -v sqlite3 >/dev/null 2>&1; then
	as_customer sqlite3 "$R/data/consent.db" ".backup '$R/data/moved.db'"
	as_customer cp "$R/cgi-bin/.htconsent" "$R/cgi-bin/.htconsent.keep"
	as_customer sh -c "echo CONSENT_DB=../data/moved.db > '$R/cgi-bin/.htconsent'"
	ctl site add moved --name Moved --domain example.com > /dev/null
	http -H "Origin: $SITE_ORIGIN" GET "$base/functions/v1/config?site_key=moved"
	expect_status 200 "suEXEC: cgi-bin/.htconsent naming another database: config reads that one"
	http -H "Origin: $SITE_ORIGIN" -H "Consent-DB: /nonexistent/x.db" GET "$base/functions/v1/config?site_key=moved"
	expect_status 200 "suEXEC: a client's Consent-DB header does not override the settings file"
	as_customer mv "$R/cgi-bin/.htconsent.keep" "$R/cgi-bin/.htconsent"
	as_customer rm -f "$R/data/moved.db" "$R/data/moved.db-wal" "$R/data/moved.db-shm"
	http -H "Origin: $SITE_ORIGIN" GET "$base/functions/v1/config?site_key=moved"
	expect_status 404 "suEXEC: the settings file put back: that site is gone again"
else
	skip "no sqlite3: the settings file's database under suEXEC not checked apart from the compiled-in path"
fi

# A newer release uploaded over it keeps every entry, and the database an
# older release left (its schema version put back) is upgraded at the next
# sign-in.  The newer release: this build packed as another version.
entries() { ctl consent export s1 | wc -l; ctl consent export shop | wc -l; }
before=$(entries | tr '\n' ' ')
check test -n "$(ctl consent export s1)" "entries before the upload: $before(s1, shop)"
inode=$(stat -c %i "$R/data/consent.db")
newer=$(cat "$TOP/VERSION").1
schema=$(sed -n 's/^PRAGMA user_version = \([0-9]*\);.*/\1/p' "$TOP/schema.sql")
if command -v sqlite3 >/dev/null 2>&1; then
	as_customer sqlite3 "$R/data/consent.db" 'PRAGMA user_version = 4' > /dev/null
fi
(TZ=UTC sh "$TOP/tools/dist.sh" "$newer" "$TOP/build/dist" "$T/newer") > /dev/null &&
	cp "$T/newer/consent-$newer-linux-x86_64.tar.gz" "$T/release.tar.gz" && DIST_NAME=consent-$newer ||
	notok "the release packed as version $newer"
upload consent || notok "the customer uploads the newer release over the folder"
check grep -q "^Consent banner $newer: installing" "$R/INSTALL" "the folder now holds release $newer (INSTALL)"
check test "$(entries | tr '\n' ' ')" = "$before" "release $newer uploaded over the folder: the same entries ($before)"
check test "$(stat -c %i "$R/data/consent.db")" = "$inode" "... in the same database file"
check grep -qx 'CONSENT_DB=../data/consent.db' "$R/cgi-bin/.htconsent" "... and the same settings file"
http -H "Origin: $SITE_ORIGIN" GET "$base/functions/v1/config?site_key=s1"
expect_status 200 "after the upload: config 200"
http GET "$base/admin/api/setup"
expect_status 404 "after the upload: setup is done (404), the owner kept"
if [ -s "$T/secret" ] && command -v sqlite3 >/dev/null 2>&1 && command -v "$PY" >/dev/null 2>&1; then
	code=$(totp "$(cat "$T/secret")" $(($(date +%s) + 30)))
	jq -cn --arg c "$code" '{username: "owner@shop", password: "correct horse battery staple 42", totp: $c}' > "$T/signin.json"
	http -H "Origin: http://localhost:$port" -H "Sec-Fetch-Site: same-origin" -H "Content-Type: application/json" \
	    -d "$T/signin.json" POST "$base/admin/api/session"
	expect_status 200 "the next sign-in after the upload: 200"
	expect_json .upgraded true "... says it upgraded the database"
	check test "$(as_customer sqlite3 "$R/data/consent.db" 'PRAGMA user_version')" = "$schema" "... to the schema's version ($schema)"
	check test "$(entries | tr '\n' ' ')" = "$before" "... keeping every entry"
else
	skip "no TOTP secret from the browser flow, or no sqlite3 or python3: the upgrade at the next sign-in not checked"
fi

# suEXEC refuses a program in a group-writable folder (docs/deploy.md's
# troubleshooting names suexec.log's line).
as_customer chmod g+w "$R/cgi-bin"
http -H "Origin: $SITE_ORIGIN" GET "$base/functions/v1/config?site_key=s1"
expect_status 500 "cgi-bin/ group-writable: suEXEC refuses the program (500)"
if grep -q "directory is writable by others: ($R/cgi-bin)" "$T/suexec-log/suexec.log"; then
	ok "suexec.log says why: $(grep -m 1 'writable by others' "$T/suexec-log/suexec.log" | sed 's/^\[[^]]*\]: //')"
else
	notok "suexec.log: directory is writable by others: $(tail -n 1 "$T/suexec-log/suexec.log")"
fi
check grep -q "suexec policy violation: see suexec log for more details" "$A/error.log" \
    "Apache's error log points to suexec.log (the line docs/deploy.md's troubleshooting quotes)"
as_customer chmod g-w "$R/cgi-bin"
http -H "Origin: $SITE_ORIGIN" GET "$base/functions/v1/config?site_key=s1"
expect_status 200 "cgi-bin/ 755 again: 200"

# data/ not writable by the customer: the first run cannot make the database.
upload ro || notok "a second upload, ro"
as_customer chmod 555 "$P/ro/data"
http GET "$home/ro/admin/api/setup"
expect_status 503 "data/ not writable: the first run answers 503"
check grep -q "cannot write the folder data/ of your upload.*Set data/ to mode 755" "$T/body" "... saying what to change: $(jq -r .error "$T/body" 2>/dev/null)"
check test ! -e "$P/ro/data/consent.db" "... and leaves no database"
log_checks "$A/error.log" "suEXEC"
deploy_stop

# The same Apache without suEXEC (its wrapper hidden in this namespace):
# the programs run as www-data, which cannot write the customer's data/
# until the customer opens it (docs/deploy.md).
: > "$T/not-setuid"
mount --bind "$T/not-setuid" "$wrapper" || { notok "hiding the suEXEC wrapper"; exit 1; }
upload plain || notok "a fresh upload, plain"
start_apache "no suEXEC"
if grep -q 'suEXEC mechanism enabled' "$A/error.log" "$A/stderr.log"; then
	notok "without the wrapper Apache still enables suEXEC"
else
	ok "without the setuid wrapper: no suEXEC in Apache's log"
fi
http GET "$home/plain/admin/api/setup"
expect_status 503 "no suEXEC, data/ the customer's 755: the first run as www-data cannot make the database (503)"
check grep -q "set data/ to mode 777" "$T/body" "... and says what to change: $(jq -r .error "$T/body" 2>/dev/null)"
check test ! -e "$P/plain/data/consent.db" "... and leaves none"
as_customer chmod 777 "$P/plain/data"
http GET "$home/plain/admin/api/setup"
expect_status 503 "data/ opened to the web server (777): www-data cannot write cgi-bin/ either (503)"
line=$(jq -r .error "$T/body" 2>/dev/null | sed -n 's/.*holding the one line "\(CONSENT_DB=[^"]*\)".*/\1/p')
check test "$line" = CONSENT_DB=../data/consent.db "... and names the file to create by FTP and its one line ($line)"
as_customer sh -c "echo '$line' > '$P/plain/cgi-bin/.htconsent'"
http GET "$home/plain/admin/api/setup"
expect_status 200 "cgi-bin/.htconsent uploaded by the customer: the first run passes"
check test "$(stat -c %U "$P/plain/data/consent.db" 2>/dev/null)" = www-data "the programs ran as www-data: data/consent.db is www-data's"
check as_customer cat "$P/plain/data/.consent-setup-token" > /dev/null 2>&1 \
    "no suEXEC: the customer reads the setup token's file ($(stat -c '%U %a' "$P/plain/data/.consent-setup-token")) as by FTP"
check test "$(stat -c %a "$P/plain/data/consent.db")" = 600 "... while the database stays www-data's alone (600)"
setpriv --reuid www-data --regid www-data --clear-groups "$P/plain/consentctl" --db "$P/plain/data/consent.db" \
    site add s1 --name "Site s1" --domain example.com > /dev/null || notok "consentctl as www-data adds a site"
http -H "Origin: $SITE_ORIGIN" GET "$home/plain/functions/v1/config?site_key=s1"
expect_status 200 "no suEXEC: config through the pretty URL, run as www-data: 200"
http -H "Origin: $SITE_ORIGIN" -H "Content-Type: application/json" -d "$T/consent.json" POST "$home/plain/functions/v1/consent"
expect_status 201 "no suEXEC: consent written by www-data: 201"
http GET "$home/plain/data/consent.db"
expect_status 403 "no suEXEC: data/consent.db 403"
# The same upload where public_html is the DocumentRoot: the same rules.
http -H "Origin: $SITE_ORIGIN" GET "$docroot/plain/functions/v1/config?site_key=s1&lang=de"
expect_status 200 "public_html as a DocumentRoot: config through the pretty URL: 200"
expect_json .resolvedLanguage '"de"' "... the query kept"
http GET "$docroot/plain/admin/api/session"
expect_error 404 "Setup required" "... admin/api/session reaches the program with its PATH_INFO (no owner yet: Setup required)"
http GET "$docroot/plain/admin/"
expect_status 200 "... the dashboard's page"
for p in data/consent.db cgi-bin/.htconsent .htaccess consentctl cgi-bin/; do
	http GET "$docroot/plain/$p"
	expect_status 403 "... GET $p: 403"
done
log_checks "$A/error.log" "no suEXEC"
