#!/bin/bash
# t0930-faults.sh: full disk, read-only database, and files that are not a
# usable database (issue 4; CONTRACT 2, 7).
#
# The writing endpoints answer 500 "Internal server error" with one line on
# stderr naming the cause; config answers 200 when it can still read, else the
# same 500; consentctl fails with one line.  Afterwards the database passes
# integrity_check, the earlier rows are intact and writes work again once the
# fault is gone.
#
# Full disk: `ulimit -f` (works for any user: SQLite's writes fail with EFBIG,
# SIGXFSZ ignored), and a full 1 MiB tmpfs when root may mount.  Read-only:
# chmod of the file and its folder, as an unprivileged user (setpriv to
# nobody when the test runs as root, who ignores file modes), and a read-only
# bind mount when root may mount.  Each is skipped with a line saying why
# when the machine cannot do it.
. "$(dirname "$0")/setup.sh"
# PostgreSQL's faults (the server or pgbouncer down, stopped, frozen) are
# t0190-postgres's.
needs_sqlite "a full disk, a read-only database and unusable database files are faults of a SQLite file"

# --- running the binaries under a fault -------------------------------------------
# FSIZE=N: the binary runs under `ulimit -f N` (KiB); its output goes through
# pipes so that only its database writes meet the limit.  PRE=(cmd...): the
# binary runs behind cmd (setpriv).  Both keep setup.sh's valgrind wrapping.
eval "orig_wrap() $(declare -f _wrap | sed 1d)"
PRE=()
FSIZE=
_wrap() {
	if [ -n "$FSIZE" ]; then
		_limited "$@" 3>&1 | cat
		return "$(cat "$T/limited.rc")"
	elif [ ${#PRE[@]} -gt 0 ]; then
		"${PRE[@]}" env VALGRIND="${VALGRIND:-0}" bash -c "$(declare -f orig_wrap); orig_wrap \"\$@\"" wrap "$@"
	else
		orig_wrap "$@"
	fi
}
# fault: after FSIZE or PRE changed.  In FastCGI mode the endpoints'
# processes are started again under the fault (prlimit for the file size,
# their stderr through a pipe so that the log does not meet the limit).
fault() {
	local ep
	fcgi_mode || return 0
	FCGI_PRE=(${PRE[@]+"${PRE[@]}"})
	[ -n "$FSIZE" ] && FCGI_PRE+=(prlimit --fsize=$((FSIZE * 1024)))
	FCGI_ERRPIPE=${FSIZE:+1}
	for ep in config consent scripts; do fcgi_proc_start "$ep"; done
}
# release: in FastCGI mode the processes close the database before it is
# copied or its mount goes away (the next request starts new ones), and its
# WAL is checkpointed: the endpoints do not checkpoint when they close, and
# in CGI mode consentctl, the last connection to close, has done it.
release() {
	fcgi_mode || return 0
	fcgi_proc_stop config consent scripts
	sqlite3 "$CONSENT_DB" 'PRAGMA wal_checkpoint(TRUNCATE)' > /dev/null 2>&1 || :    # (not on a read-only mount)
}
_limited() {
	( trap '' XFSZ; ulimit -f "$FSIZE" || exit 98
	  export VALGRIND_OPTS=--vgdb=no    # valgrind's own shared-memory file
	  orig_wrap "$@" ) 2>&1 >&3 3>&- | cat >&2
	echo "${PIPESTATUS[0]}" > "$T/limited.rc"
}

# --- one good request per endpoint, and what a fault must look like --------------
n=0
request() { # ENDPOINT: a valid request; consent and scripts each add a row
	n=$((n + 1))
	case $1 in
	config) cgi GET config "site_key=s1" ;;
	consent) cgi HTTP_USER_AGENT="$UA" POST consent "" "{\"site_key\":\"s1\",\"anon_id\":\"v$n\",\"categories\":{\"necessary\":true,\"analytics\":false},\"event_type\":\"initial\",\"page_url\":\"https://example.com/$n\"}" ;;
	scripts) cgi POST scripts "" "{\"site_key\":\"s1\",\"page_url\":\"https://example.com/$n\",\"timestamp\":1763800000000,\"scripts\":[{\"domain\":\"d$n.example.net\",\"blocked\":false}]}" ;;
	esac
}
UA='Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0'
one_line() { # ENDPOINT: exactly one line on stderr, from that program
	[ "$(wc -l < "$T/stderr" | tr -d ' ')" = 1 ] && grep -q "^$1: ." "$T/stderr"
}
expect_500() { # ENDPOINT DESC
	request "$1"
	expect_error 500 "Internal server error" "$2: $1 answers 500"
	if one_line "$1"; then ok "$2: $1 logs one line ($(cut -c1-70 "$T/stderr"))"; else
		notok "$2: $1 logs one line: $(head -c 300 "$T/stderr" | tr '\n' '|')"; fi
}
expect_200_or_500() { # ENDPOINT DESC: a read may still work; if not, a clean 500
	request "$1"
	case $(cat "$T/status") in
	200) ok "$2: $1 still reads (200)" ;;
	500) expect_error 500 "Internal server error" "$2: $1 answers 500"
	     if one_line "$1"; then ok "$2: $1 logs one line"; else notok "$2: $1 logs one line: $(head -c 300 "$T/stderr")"; fi ;;
	*) notok "$2: $1 answers $(cat "$T/status"), want 200 or 500" ;;
	esac
}
expect_ctl_fails() { # DESC ARGS...: consentctl exits non-zero with one line
	local d=$1
	shift
	ctl "$@" > "$T/ctl.out" 2> "$T/ctl.err"
	rc=$?
	if [ "$rc" -ne 0 ] && [ "$(wc -l < "$T/ctl.err" | tr -d ' ')" = 1 ] && grep -q '^consentctl: .' "$T/ctl.err"; then
		ok "$d: consentctl $1 ${2-} fails with one line"
	else
		notok "$d: consentctl $1 ${2-}: exit $rc, stderr: $(head -c 300 "$T/ctl.err" | tr '\n' '|')"
	fi
}
rows=0
works_again() { # DESC: writes succeed, the earlier rows are intact, the file is whole
	request consent
	expect_status 201 "$1: consent writes again"
	[ "$(cat "$T/status")" = 201 ] && rows=$((rows + 1))
	request scripts
	expect_status 200 "$1: scripts writes again"
	check test "$(sqlite3 "$CONSENT_DB" 'PRAGMA integrity_check')" = ok "$1: integrity_check ok"
	ctl consent export s1 > "$T/export"
	check test "$(wc -l < "$T/export" | tr -d ' ')" = "$rows" "$1: $rows entries, none lost or added (export: $(wc -l < "$T/export" | tr -d ' '))"
	check cmp -s "$T/baseline" <(head -n "$(wc -l < "$T/baseline")" "$T/export") "$1: the earlier entries are intact"
}

# A database in a folder of its own, so that the folder can be made read-only.
mkdir "$T/db"
CONSENT_DB=$T/db/consent.db
ctl init >/dev/null
site s1
for i in 1 2 3; do request consent; rows=$((rows + 1)); done
request scripts
ctl consent export s1 > "$T/baseline"
check test "$(wc -l < "$T/baseline" | tr -d ' ')" = 3 "baseline: three entries"
as_root=0
[ "$(id -u)" = 0 ] && as_root=1
mounts_ok=0
if [ "$as_root" = 1 ] && mkdir "$T/probe" && mount -t tmpfs -o size=64k tmpfs "$T/probe" 2>/dev/null; then
	umount "$T/probe" && mounts_ok=1
fi
trap 'for m in "$T/tfs" "$T/db"; do mountpoint -q "$m" 2>/dev/null && umount "$m"; done; _cleanup' EXIT

# --- full disk: ulimit -f ----------------------------------------------------------
if (ulimit -f 0) 2>/dev/null; then
	FSIZE=0   # no file may grow: not even the -shm SQLite needs to read
	fault
	expect_500 consent "no file may grow"
	expect_500 scripts "no file may grow"
	expect_200_or_500 config "no file may grow"
	expect_ctl_fails "no file may grow" site add s9 --name S9
	FSIZE=
	fault
	works_again "after no file could grow"

	# 32 KiB: the -shm fits, a 100-entry report's WAL frames do not, so the
	# commit itself fails.
	big=$(for i in $(seq 100); do printf '%s{"domain":"tracker%03d.example-cdn.net","src":"https://tracker%03d.example-cdn.net/%s.js","blocked":true}' "${i#1}" "$i" "$i" "$(printf 'x%.0s' $(seq 440))"; done | sed 's/^[0-9]*{/{/; s/}[0-9]\{1,2\}{/},{/g')
	bigreport="{\"site_key\":\"s1\",\"page_url\":\"https://example.com/big\",\"timestamp\":1763800000000,\"scripts\":[$big]}"
	FSIZE=32
	fault
	cgi POST scripts "" "$bigreport"
	expect_error 500 "Internal server error" "32 KiB file size limit: a report too big for it answers 500"
	if one_line scripts; then ok "32 KiB file size limit: one line ($(cut -c1-70 "$T/stderr"))"; else notok "32 KiB limit: one line: $(head -c 300 "$T/stderr")"; fi
	FSIZE=
	fault
	check test "$(ctl scripts list s1 --json | jq '[.[] | select(.domain | startswith("tracker"))] | length')" = 0 "32 KiB file size limit: no entry of the failed report stored"
	cgi POST scripts "" "$bigreport"
	expect_status 200 "32 KiB file size limit lifted: the same report stored"
	check test "$(ctl scripts list s1 --json | jq '[.[] | select(.domain | startswith("tracker"))] | length')" = 100 "32 KiB file size limit lifted: all 100 entries"
	works_again "after the 32 KiB file size limit"
else
	skip "full disk (ulimit -f): this shell cannot set a file size limit"
fi

# --- full disk: a full tmpfs ---------------------------------------------------------
if [ "$mounts_ok" = 1 ]; then
	saved=$CONSENT_DB saved_rows=$rows
	mkdir "$T/tfs"
	mount -t tmpfs -o size=1m,mode=0755 tmpfs "$T/tfs"
	release
	cp "$CONSENT_DB" "$T/tfs/consent.db"
	CONSENT_DB=$T/tfs/consent.db
	dd if=/dev/zero of="$T/tfs/reserve" bs=4k count=9 2>/dev/null
	dd if=/dev/zero of="$T/tfs/fill" bs=4k 2>/dev/null
	check test "$(df -k "$T/tfs" | awk 'NR == 2 { print $4 }')" = 0 "tmpfs is full"
	expect_500 consent "full tmpfs"
	expect_500 scripts "full tmpfs"
	expect_200_or_500 config "full tmpfs"
	expect_ctl_fails "full tmpfs" site add s9 --name S9
	rm "$T/tfs/reserve"   # 36 KiB: room for the -shm, not for the WAL
	expect_500 consent "tmpfs with 36 KiB left"
	grep -q 'full' "$T/stderr" && ok "tmpfs with 36 KiB left: the log line says the disk is full" || notok "tmpfs with 36 KiB left: log line: $(cat "$T/stderr")"
	expect_500 scripts "tmpfs with 36 KiB left"
	expect_200_or_500 config "tmpfs with 36 KiB left"
	rm "$T/tfs/fill"
	works_again "tmpfs after space is freed"
	CONSENT_DB=$saved
	release
	umount "$T/tfs"
	rows=$saved_rows    # the copy's new rows went with the tmpfs
else
	skip "full disk (tmpfs): not root, or mount is not permitted here"
fi

# --- read-only database: file and folder -----------------------------------------------
# The CGI user owns the folder (docs/deploy.md: chown -R www-data); root, who ignores
# modes, acts as nobody through setpriv.
ro_ok=1
if [ "$as_root" = 1 ]; then
	if command -v setpriv >/dev/null 2>&1 && id nobody >/dev/null 2>&1; then
		PRE=(setpriv --reuid="$(id -u nobody)" --regid="$(id -g nobody)" --clear-groups)
		fault
		chmod o+x "$T"
		chown -R nobody "$T/db"
	else
		ro_ok=0
	fi
fi
if [ "$ro_ok" = 1 ]; then
	snap() { ls -l "$T/db" | awk 'NR > 1 { print $1, $NF }' | tr '\n' ' '; }
	ctl site list > /dev/null     # a reader leaves the -wal and -shm behind
	before=$(snap)
	chmod 0444 "$CONSENT_DB"
	chmod 0555 "$T/db"
	expect_500 consent "read-only file and folder"
	expect_500 scripts "read-only file and folder"
	expect_200_or_500 config "read-only file and folder"
	expect_ctl_fails "read-only file and folder" site add s9 --name S9
	chmod 0755 "$T/db"
	chmod 0644 "$CONSENT_DB"
	# SQLite gives an empty -wal the mode of the database file when it opens
	# it; sqlite_db_open refuses a file it may not write before that can happen, so
	# the writes after the mode is restored succeed (sqlite_db.c).
	check test "$(snap)" = "$before" "read-only file and folder: no file created, the -wal and -shm keep their modes"
	works_again "read-only file and folder, modes restored"

	# Only the file read-only, the folder writable.
	before=$(snap)
	chmod 0444 "$CONSENT_DB"    # (FastCGI: the running processes must notice)
	expect_500 consent "read-only file"
	expect_500 scripts "read-only file"
	expect_200_or_500 config "read-only file"
	chmod 0644 "$CONSENT_DB"
	check test "$(snap)" = "$before" "read-only file: no file created, the -wal and -shm keep their modes"
	works_again "read-only file, mode restored"
	PRE=()
	fault
else
	skip "read-only database: running as root without setpriv or a nobody user"
fi

# --- read-only database: a read-only mount -------------------------------------------
if [ "$mounts_ok" = 1 ] && mount --bind "$T/db" "$T/db" 2>/dev/null; then
	if mount -o remount,bind,ro "$T/db" 2>/dev/null; then
		expect_500 consent "read-only mount"
		expect_500 scripts "read-only mount"
		expect_200_or_500 config "read-only mount"
		expect_ctl_fails "read-only mount" site add s9 --name S9
		release
		umount "$T/db"
		works_again "read-only mount, unmounted"
	else
		umount "$T/db"
		skip "read-only mount: remount read-only is not permitted here"
	fi
else
	skip "read-only mount: not root, or mount is not permitted here"
fi

# --- files that are not a usable database -----------------------------------------------
mkdir "$T/bad"
head -c 8192 /dev/urandom > "$T/bad/garbage.db"
printf 'SQLite format 3\000' > "$T/bad/header-only.db"
head -c 12288 "$CONSENT_DB" > "$T/bad/truncated.db"
: > "$T/bad/empty.db"
mkdir "$T/bad/directory.db"
cp "$T/bad/garbage.db" "$T/bad/garbage.copy"
cp "$T/bad/truncated.db" "$T/bad/truncated.copy"
for kind in garbage header-only truncated empty missing directory; do
	CONSENT_DB=$T/bad/$kind.db
	for ep in config consent scripts; do expect_500 "$ep" "$kind file"; done
	expect_ctl_fails "$kind file" site list
	expect_ctl_fails "$kind file" consent export s1
	expect_ctl_fails "$kind file" site add s9 --name S9
	case $kind in garbage | header-only | truncated | directory) expect_ctl_fails "$kind file" init ;; esac
done
check cmp -s "$T/bad/garbage.db" "$T/bad/garbage.copy" "garbage file left as it was"
check cmp -s "$T/bad/truncated.db" "$T/bad/truncated.copy" "truncated file left as it was"
check test ! -s "$T/bad/empty.db" "empty file left empty"
check test ! -e "$T/bad/missing.db" "missing file not created"
check test -z "$(ls -A "$T/bad/directory.db")" "directory left empty"
# (The truncated file is a WAL database: SQLite may make its -wal and -shm.)
check test -z "$(ls "$T/bad" | grep -v '^truncated' | grep -e '-wal$' -e '-shm$' -e '-journal$')" "no -wal, -shm or -journal beside the files that are not databases"
