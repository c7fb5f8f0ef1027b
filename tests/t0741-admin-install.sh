#!/bin/bash
# t0741-admin-install.sh: the dashboard's first run on an uploaded release
# (ADMIN.md 3, 9): GET setup in a fresh upload (cgi-bin/ and data/, no
# database, no settings file, no CONSENT_DB) writes cgi-bin/.htconsent,
# creates data/consent.db and the token file, and names that file relative
# to the upload; the endpoints and consentctl then find the same database;
# where the program cannot write, the answer (503) says exactly what to
# change, without the server's paths; a newer release uploaded over it
# keeps the records and upgrades the database at the next sign-in.  The
# programs are copies, run as a server runs them (SCRIPT_FILENAME); the
# permission cases run them as another user (setpriv) when the test is root.
. "$(dirname "$0")/setup.sh"
needs_sqlite "the upload's database is a file in its data/ folder"
mode_independent
. "$TOP/tests/admin.sh"
PW=Owner-pass-9x7kq!
want=$(sed -n 's/^PRAGMA user_version = \([0-9]*\);.*/\1/p' "$TOP/schema.sql")
chmod 711 "$T"

# upload DIR: a release's programs as uploaded into DIR (cgi-bin/, data/).
upload() {
	mkdir -p "$1/cgi-bin" "$1/data"
	cp "$BUILD/cgi-bin/admin" "$BUILD/cgi-bin/config" "$1/cgi-bin/"
}

# at DIR CMD...: CMD (api, admin_setup, sign_in of admin.sh) with the
# requests going to the copy in DIR/cgi-bin as a server runs it:
# SCRIPT_FILENAME, no CONSENT_DB; from DIR, to which the token file's name
# the answer gives is relative.
at() {
	local _b=$BUILD _db=$CONSENT_DB
	BUILD=$1 CONSENT_DB= CGI_EXTRA=(SCRIPT_FILENAME="$1/cgi-bin/admin")
	shift
	cd "$BUILD" && "$@"
	BUILD=$_b CONSENT_DB=$_db CGI_EXTRA=()
	cd "$T"
}
mode() { stat -c %a "$1"; }
no_paths() { # DESC: the answer names no folder of the server
	if grep -qF "$T" "$T/body"; then notok "$1: $(head -c 300 "$T/body")"; else ok "$1"; fi
}

U=$T/up
upload "$U"

# --- before the first run ---------------------------------------------------------
at "$U" api GET session
expect_error 404 "Setup required"
check test ! -e "$U/cgi-bin/.htconsent" "a route other than setup writes no settings file"
check test ! -e "$U/data/consent.db" "... and creates no database"

# --- the first run ------------------------------------------------------------------
at "$U" api GET setup
expect_status 200 "GET setup in a fresh upload"
expect_json . '{"needed":true,"token_file":"data/.consent-setup-token"}' \
    "it names the token file relative to the upload folder"
check grep -qx 'CONSENT_DB=../data/consent.db' "$U/cgi-bin/.htconsent" "it wrote cgi-bin/.htconsent naming ../data/consent.db"
check test "$(mode "$U/cgi-bin/.htconsent")" = 600 "the settings file is the owner's alone (0600)"
check test "$(ls -A "$U/cgi-bin" | tr '\n' ' ')" = ".htconsent admin config " "no temporary file is left beside it"
check test -s "$U/data/.consent-setup-token" "the token file is in data/"
check test "$(sqlite3 "$U/data/consent.db" 'PRAGMA user_version')" = "$want" "the database in data/, at the schema's version"
check test "$(mode "$U/data/consent.db")" = 600 "the database is the owner's alone (0600)"
at "$U" api GET setup
expect_status 200 "GET setup again: the same"
at "$U" admin_setup owner "$PW" || exit 1
ok "the first owner set up with the token read from data/, signed in"
check test ! -e "$U/data/.consent-setup-token" "the token file is gone"

# --- the endpoints and consentctl read the same file --------------------------------
(cd "$U/cgi-bin" && unset CONSENT_DB && ctl site add up1 --name Up --domain example.com) > /dev/null
check test $? = 0 "consentctl in cgi-bin/ adds a site to the upload's database"
at "$U" api GET sites
expect_json '[.sites[].key]' '["up1"]' "the dashboard sees it"
(cd / && env -i REQUEST_METHOD=GET QUERY_STRING=site_key=up1 HTTP_ORIGIN=https://example.com \
    SCRIPT_FILENAME="$U/cgi-bin/config" "$U/cgi-bin/config") > "$T/out" 2> "$T/stderr"
check grep -q '^Status: 200' "$T/out" "the config endpoint beside it answers for the site"

# --- a newer release uploaded over it -------------------------------------------------
sqlite3 "$U/data/consent.db" 'PRAGMA user_version = 4'
upload "$U"
check grep -qx 'CONSENT_DB=../data/consent.db' "$U/cgi-bin/.htconsent" "an upload keeps the settings file (it is in no archive)"
at "$U" api GET session
expect_status 200 "the session goes on over the older database"
at "$U" sign_in owner "$PW" "$(totp "$SECRET" $(($(date +%s) + 30)))"
expect_status 200 "the next sign-in"
expect_json .upgraded true "says it upgraded the database"
check test "$(sqlite3 "$U/data/consent.db" 'PRAGMA user_version')" = "$want" "to the schema's version"
at "$U" api GET sites
expect_json '[.sites[].key]' '["up1"]' "the records kept"

# --- where a settings file is there but cannot be used -----------------------------------
B=$T/bad
upload "$B"
printf 'CONSENT_DB=../data/consent.db\nCONSENT_DBPATH=x\n' > "$B/cgi-bin/.htconsent"
at "$B" api GET setup
expect_error 503 "The settings file cgi-bin/.htconsent cannot be used (line 2: unknown setting CONSENT_DBPATH): correct it or delete it, then reload this page."
check test ! -e "$B/data/consent.db" "nothing created"
check grep -q CONSENT_DBPATH "$B/cgi-bin/.htconsent" "the file left as it was"

# --- the environment names the database: nothing written -----------------------------
E=$T/env
upload "$E"
(CGI_EXTRA=(SCRIPT_FILENAME="$E/cgi-bin/admin"); BUILD=$E; api GET setup)
expect_status 200 "GET setup with CONSENT_DB in the environment"
check test ! -e "$E/cgi-bin/.htconsent" "writes no settings file"
check test ! -e "$E/data/consent.db" "and creates nothing in data/"

# --- where the program cannot write ----------------------------------------------------
if [ "$(id -u)" != 0 ] || ! setpriv --reuid=65534 --regid=65534 --clear-groups true 2> /dev/null; then
	skip "the permission cases: they run the program as another user (root and setpriv)"
	exit 0
fi
# as_nobody DIR: the program in DIR/cgi-bin runs as uid 65534, as a server
# runs it as the file's owner (suEXEC) or as its own user.
as_nobody() {
	mv "$1/cgi-bin/admin" "$1/admin.bin"
	printf '#!/bin/sh\nexec setpriv --reuid=65534 --regid=65534 --clear-groups %s/admin.bin\n' "$1" \
	    > "$1/cgi-bin/admin"
	chmod 755 "$1/cgi-bin/admin"
}

# Run as the upload's owner (suEXEC).
S=$T/suexec
upload "$S"
as_nobody "$S"
chown -R 65534:65534 "$S"
chmod 555 "$S/data"
at "$S" api GET setup
expect_error 503 "The dashboard cannot write the folder data/ of your upload, where the database goes. Set data/ to mode 755 (read, write and execute for its owner) with your FTP client. Then reload this page."
chmod 755 "$S/data"
chmod 555 "$S/cgi-bin"
at "$S" api GET setup
expect_error 503 "The dashboard cannot write its settings file into the folder cgi-bin/ of your upload. Create the file cgi-bin/.htconsent there with your FTP client, holding the one line \"CONSENT_DB=../data/consent.db\" (or set the folder to mode 755: read, write and execute for its owner). Then reload this page."
check test ! -e "$S/data/consent.db" "nothing created in data/ before the settings file is there"
printf 'CONSENT_DB=../data/consent.db\n' > "$S/cgi-bin/.htconsent"
at "$S" api GET setup
expect_status 200 "with the file uploaded as the answer said: setup"
check test "$(stat -c %u "$S/data/consent.db")" = 65534 "the database is the program's user's"

# Run as the web server's user, not the upload's owner (no suEXEC).
W=$T/www
upload "$W"
as_nobody "$W"
at "$W" api GET setup
expect_error 503 "The dashboard cannot write the folder data/ of your upload, where the database goes. The web server runs the programs as another user than yours (the host does not use suEXEC): set data/ to mode 777 with your FTP client so that it can write there, or ask your host to run CGI programs as your own user. Then reload this page."
no_paths "the answer names no folder of the server"
chmod 777 "$W/data"
at "$W" api GET setup
expect_error 503 "The dashboard cannot write its settings file into the folder cgi-bin/ of your upload. Create the file cgi-bin/.htconsent there with your FTP client, holding the one line \"CONSENT_DB=../data/consent.db\". Then reload this page."
printf 'CONSENT_DB=../data/consent.db\n' > "$W/cgi-bin/.htconsent"
at "$W" api GET setup
expect_status 200 "with data/ 777 and the file uploaded: setup"
expect_json .token_file '"data/.consent-setup-token"' "naming the token file in data/"
