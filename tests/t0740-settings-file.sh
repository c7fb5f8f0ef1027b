#!/bin/bash
# t0740-settings-file.sh: the settings file .htconsent (ADMIN.md 9,
# docs/deploy.md "The settings file"): found beside the program through
# SCRIPT_FILENAME, else in the working folder; the environment overrides
# it; relative paths are relative to its folder; a file that cannot be
# used is one line in the log and the compiled-in settings; a FastCGI
# process reads it once; consentctl reads it from the working folder or
# --settings.  The programs are copies in an upload folder, as a customer's.
. "$(dirname "$0")/setup.sh"
needs_sqlite "the test's databases are files beside the programs"
mode_independent

U=$T/up
mkdir -p "$U/cgi-bin" "$U/data" "$T/elsewhere"
cp "$BUILD/cgi-bin/config" "$U/cgi-bin/"
CONSENT_DB=$U/data/consent.db ctl init > /dev/null &&
    CONSENT_DB=$U/data/consent.db ctl site add up1 --name Up --domain example.com > /dev/null &&
    CONSENT_DB=$U/data/consent.db ctl config publish up1 "$TOP/tests/fixtures/config-test.json" > /dev/null ||
    notok "the upload folder's database"
site t1       # only in the test's own database ($CONSENT_DB)
conf=$U/cgi-bin/.htconsent

# req DIR [VAR=value...]: GET config?site_key=$SITE by the copy
# $U/cgi-bin/config run from folder DIR as a server runs a CGI program,
# with SCRIPT_FILENAME unless NOSF=1 and no CONSENT_* but those given.
# Leaves $T/status, $T/body and $T/stderr.
req() {
	local _dir=$1 _e
	shift
	set -- REQUEST_METHOD=GET QUERY_STRING="site_key=${SITE:-up1}" GATEWAY_INTERFACE=CGI/1.1 \
	    SERVER_PROTOCOL=HTTP/1.1 REMOTE_ADDR=127.0.0.1 HTTP_ORIGIN=https://example.com \
	    PATH="$PATH" "$@"
	[ "${NOSF:-0}" = 1 ] || set -- SCRIPT_FILENAME="$U/cgi-bin/config" "$@"
	for _e in ASAN_OPTIONS UBSAN_OPTIONS; do
		eval "[ -n \"\${$_e+x}\" ] && set -- \"\$@\" $_e=\"\$$_e\""
	done
	(cd "$_dir" && _wrap env -i "$@" ${PRE[@]+"${PRE[@]}"} "$U/cgi-bin/config") > "$T/out" 2> "$T/stderr"
	_e=$?
	[ "$_e" = 0 ] || notok "config exited with status $_e: $(tail -n 3 "$T/stderr" | tr '\n' ' ')"
	split_answer
}
PRE=()

# The CGI answer in $T/out into $T/status and $T/body.
split_answer() {
	sed -n 's/^Status: \([0-9][0-9][0-9]\).*/\1/p' "$T/out" | head -n 1 > "$T/status"
	awk 'b { print } /^\r?$/ { b = 1 }' "$T/out" > "$T/body"
}

# log_is N DESC: stderr holds N lines saying the file is not used.
log_is() {
	local _n
	_n=$(grep -c 'the settings file is not used' "$T/stderr")
	if [ "$_n" = "$1" ]; then ok "$2"; else notok "$2: $_n such lines: $(head -c 300 "$T/stderr")"; fi
}

# --- no file: the compiled-in settings, silently, as before ---------------------------
req "$T/elsewhere" CONSENT_DB="$U/data/consent.db"
expect_status 200 "no settings file: the environment's CONSENT_DB"
check test ! -s "$T/stderr" "no settings file: nothing in the log"

# --- beside the program: dirname(SCRIPT_FILENAME) -----------------------------------------
printf '# written by hand\n\nCONSENT_DB=../data/consent.db\n' > "$conf"
req "$T/elsewhere"
expect_status 200 "the file beside the program names the database, relative to its folder"
expect_json '.site_name' '"Up"' "the upload folder's site answers"
check test ! -s "$T/stderr" "a good file: nothing in the log"
SITE=t1 req "$T/elsewhere"
expect_status 404 "a site of another database is not found there"

# --- the environment overrides it ----------------------------------------------------
SITE=t1 req "$T/elsewhere" CONSENT_DB="$CONSENT_DB"
expect_status 200 "CONSENT_DB in the environment wins over the file"
req "$T/elsewhere" HTTP_CONSENT_DB="$CONSENT_DB"
expect_status 200 "a client's Consent-DB header (HTTP_CONSENT_DB) changes nothing"

# --- the working folder, without SCRIPT_FILENAME ---------------------------------------
NOSF=1 req "$T/elsewhere"
check test "$(cat "$T/status")" != 200 "no SCRIPT_FILENAME, no file in the working folder: not the file's database"
NOSF=1 req "$U/cgi-bin"
expect_status 200 "no SCRIPT_FILENAME: the working folder's file"

# --- an absolute path, the other settings, relative GeoIP path ---------------------------
printf 'CONSENT_DB = %s\r\nCONSENT_COUNTRY_HEADER=HTTP_X_MY_COUNTRY\r\n' "$U/data/consent.db" > "$conf"
req "$T/elsewhere" HTTP_X_MY_COUNTRY=de HTTP_CF_IPCOUNTRY=US
expect_status 200 "an absolute path, blanks around '=' and CR LF line ends"
expect_json '.resolvedRegion' '"gdpr"' "CONSENT_COUNTRY_HEADER from the file picks the trusted header"
printf 'CONSENT_DB=../data/consent.db\nCONSENT_GEOIP_DB=../data/none.mmdb\n' > "$conf"
req "$T/elsewhere" REMOTE_ADDR=198.51.100.7
check grep -qF "$U/cgi-bin/../data/none.mmdb" "$T/stderr" \
    "CONSENT_GEOIP_DB is relative to the file's folder (the log names $U/cgi-bin/../data/none.mmdb)"

# --- a file that cannot be used: one line, the compiled-in settings ---------------------
bad() { # DESC: $conf as written is refused
	req "$T/elsewhere"
	check test "$(cat "$T/status")" != 200 "$1: the file's database is not used"
	log_is 1 "$1: one line in the log"
}
good='CONSENT_DB=../data/consent.db'
printf '%s\nCONSENT_DBX=1\n' "$good" > "$conf"; bad "an unknown name"
check grep -q 'line 2: unknown setting CONSENT_DBX' "$T/stderr" "the line names the line and the name"
printf '%s\nCONSENT_TEST_NOW=1\n' "$good" > "$conf"; bad "a test-only name"
printf '%s\nHTTP_HOST=x\n' "$good" > "$conf"; bad "a CGI variable's name"
printf '%s\nCONSENT_SYNC\n' "$good" > "$conf"; bad "a line without '='"
printf 'CONSENT_DB="../data/consent.db"\n' > "$conf"; bad "a quoted value"
printf '%s\n%s\n' "$good" "$good" > "$conf"; bad "a name given twice"
printf '%s\nCONSENT_SYNC=\n' "$good" > "$conf"; bad "an empty value"
printf '%s\nCONSENT_BASE_URL=https://x/\001\n' "$good" > "$conf"; bad "a control character"
printf '%s\nCONSENT_SYNC=a\000b\n' "$good" > "$conf"; bad "a NUL byte"
{ echo "$good"; printf '# %01100d\n' 0; } > "$conf"; bad "a line over 1024 bytes"
check grep -q 'line 2: longer than 1024 bytes' "$T/stderr" "the overlong line is named"
{ echo "$good"; for i in $(seq 80); do printf '# %060d\n' "$i"; done; } > "$conf"; bad "a file over 4096 bytes"
printf '%s\n' "$good" > "$conf"
chmod 000 "$conf"
if [ "$(id -u)" != 0 ]; then
	bad "an unreadable file"
elif setpriv --reuid=65534 --regid=65534 --clear-groups true 2> /dev/null; then
	chmod 711 "$T"
	PRE=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	bad "an unreadable file (the program run as another user)"
	check grep -q '\.htconsent: Permission denied' "$T/stderr" "... which the line says"
	PRE=()
else
	skip "an unreadable file: root reads it anyway, and setpriv cannot run as another user"
fi
rm -f "$conf"
mkdir "$conf"
bad "a directory named .htconsent"
rmdir "$conf"

# --- FastCGI: the process environment and the file, read once per process ---------------
printf '%s\n' "$good" > "$conf"
(cd "$T/elsewhere" && env -i PATH="$PATH" SCRIPT_FILENAME="$U/cgi-bin/config" \
    ${ASAN_OPTIONS+ASAN_OPTIONS="$ASAN_OPTIONS"} "$FCGI_CLIENT" spawn -n 1 "$T/c.sock" \
    "$U/cgi-bin/config" > "$T/spawn" 2> "$T/fcgi.err" &)
i=0
while [ ! -s "$T/spawn" ] && [ "$i" -lt 500 ]; do sleep 0.01; i=$((i + 1)); done
freq() { # SITE [VAR=value...]
	local _s=$1
	shift
	env -i REQUEST_METHOD=GET QUERY_STRING="site_key=$_s" GATEWAY_INTERFACE=CGI/1.1 \
	    SERVER_PROTOCOL=HTTP/1.1 REMOTE_ADDR=127.0.0.1 HTTP_ORIGIN=https://example.com "$@" \
	    "$FCGI_CLIENT" request "$T/c.sock" > "$T/out" 2> "$T/stderr"
	split_answer
}
freq up1
expect_status 200 "FastCGI: the file beside the process's SCRIPT_FILENAME"
printf 'CONSENT_DB=%s\n' "$CONSENT_DB" > "$conf"
freq up1
expect_status 200 "FastCGI: a changed file is not read again by a running process"
freq up1 SCRIPT_FILENAME="$T/elsewhere/config"
expect_status 200 "FastCGI: a request's SCRIPT_FILENAME does not move the file"
freq t1 CONSENT_DB="$CONSENT_DB"
expect_status 200 "FastCGI: a request's CONSENT_DB param (the server's) overrides the file"
read -r pids < "$T/spawn"
kill -TERM $pids 2>/dev/null
i=0
while [ "$(wc -l < "$T/spawn")" -lt 2 ] && [ "$i" -lt 500 ]; do sleep 0.01; i=$((i + 1)); done
check grep -qx 'exit 0' "$T/spawn" "FastCGI: the process exits 0 on SIGTERM"

# --- consentctl: the working folder's file, or --settings -----------------------------
printf '%s\n' "$good" > "$conf"
run_ctl() { # DIR ARGS...: consentctl without CONSENT_DB, from DIR
	local _d=$1
	shift
	(cd "$_d" && unset CONSENT_DB && _wrap "$BUILD/bin/consentctl" "$@") > "$T/ctl.out" 2> "$T/ctl.err"
}
run_ctl "$U/cgi-bin" site list
check grep -q '^up1' "$T/ctl.out" "consentctl in the programs' folder: the file's database"
run_ctl "$T/elsewhere" --settings "$conf" site list
check grep -q '^up1' "$T/ctl.out" "consentctl --settings FILE from elsewhere"
run_ctl "$T/elsewhere" --settings "$T/elsewhere/none" site list
check test $? = 1 "consentctl --settings with a missing file fails"
check grep -q "the settings file $T/elsewhere/none cannot be used: No such file" "$T/ctl.err" "... and says why"
(cd "$U/cgi-bin" && _wrap "$BUILD/bin/consentctl" site list) > "$T/ctl.out" 2> "$T/ctl.err"
check grep -q '^t1' "$T/ctl.out" "consentctl: CONSENT_DB in the environment wins over the file"
printf '%s\nCONSENT_NOPE=1\n' "$good" > "$conf"
run_ctl "$U/cgi-bin" site list
check test $? = 1 "consentctl with a file it cannot use stops (exit 1)"
check grep -q 'line 2: unknown setting CONSENT_NOPE' "$T/ctl.err" "... naming the line"
