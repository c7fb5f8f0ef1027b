#!/bin/sh
# run.sh: run every unit program and black-box test, count their lines.
#
# Each test prints one line per check: "ok - ...", "not ok - ..." or
# "skip - ..." (TAP's "ok N - name # SKIP" counts as skipped).  A program that exits non-zero without a "not ok" line counts
# as one failure, so a crash is never silent.  The last line is
# "N passed, N failed, N skipped".  Exit status 1 if anything failed or
# nothing passed.
#
# BUILD      where the binaries are (default: the repository)
# VALGRIND=1 run every binary under valgrind (tests/setup.sh does the wrapping)
# CONSENT_TEST_MODE=fcgi  the black-box tests reach the endpoints through
#            FastCGI, one long-lived process each (tests/setup.sh)
# CONSENT_TEST_STORE=postgres  the tests store in PostgreSQL (default
#            sqlite): one cluster with its pgbouncer for the whole run
#            (tests/pg.sh) in a fresh folder, CONSENT_PG_DIR, stopped and
#            removed at the end; each test file gets a database of its own
#            (tests/setup.sh).  A cluster that does not start is one
#            failure, and nothing runs.
# TESTS      a space-separated subset, e.g. "t0100 test_ua"
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top}
export BUILD
pass=0 fail=0 skip=0
log=$(mktemp "${TMPDIR:-/tmp}/consent-run.XXXXXX")
store=${CONSENT_TEST_STORE:-sqlite}
pg_dir=

# The summary's prefix names how the binaries ran: "sanitized: ",
# "postgres: ", "fcgi: ", "sanitized postgres fcgi: "...
mode=${SANITIZED:+sanitized}
[ "$store" = postgres ] && mode="${mode:+$mode }postgres"
[ "${CONSENT_TEST_MODE:-cgi}" = fcgi ] && mode="${mode:+$mode }fcgi"

# The cluster's servers are in sessions of their own, so an interrupt
# reaches only the tests: this stops them.
cleanup() {
	rm -f "$log"
	[ -n "$pg_dir" ] || return 0
	if sh "$top/tests/pg.sh" stop "$pg_dir"; then
		rm -rf "$pg_dir"
	else
		echo "run.sh: the PostgreSQL test cluster in $pg_dir is left as it is" >&2
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

case $store in
sqlite) ;;
postgres)
	# Short: the sockets' paths must fit in 107 bytes.
	pg_dir=$(mktemp -d "${TMPDIR:-/tmp}/consent-pg.XXXXXX") || pg_dir=
	why="cannot make a folder in ${TMPDIR:-/tmp}"
	if [ -z "$pg_dir" ] || ! why=$(CONSENT_PG_NOSYNC=1 sh "$top/tests/pg.sh" start "$pg_dir" 2>&1); then
		# pg.sh stopped what it had started.
		echo "not ok - PostgreSQL test cluster: ${why#pg.sh: }"
		[ -n "$pg_dir" ] && rm -rf "$pg_dir"
		pg_dir=
		echo "${mode:+$mode: }0 passed, 1 failed, 0 skipped"
		exit 1
	fi
	CONSENT_PG_DIR=$pg_dir
	export CONSENT_PG_DIR
	;;
*)
	echo "not ok - CONSENT_TEST_STORE=$store: sqlite or postgres"
	echo "0 passed, 1 failed, 0 skipped"
	exit 1
	;;
esac

selected() {
	[ -z "${TESTS:-}" ] && return 0
	for _sel in $TESTS; do
		case "$1" in *"$_sel"*) return 0 ;; esac
	done
	return 1
}

count() { # name, exit status; reads $log
	name=$1 rc=$2
	p=$(grep '^ok ' "$log" | grep -vc '# SKIP')
	f=$(grep -c '^not ok ' "$log")
	s=$(grep -cE '^skip |^ok .*# SKIP' "$log")
	grep -E '^(not ok|skip) |^ok .*# SKIP' "$log" | sed "s|^|$name: |"
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "$name: not ok - exited with status $rc"
		tail -n 20 "$log" | sed "s|^|    |"
		f=1
	fi
	printf '%-40s %4d passed %3d failed %3d skipped\n' "$name" "$p" "$f" "$s"
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
}

for u in "$BUILD"/tests/unit/test_*; do
	[ -x "$u" ] || continue
	case "$u" in *.c) continue ;; esac
	name=$(basename "$u")
	selected "$name" || continue
	if [ "${VALGRIND:-0}" = 1 ]; then
		valgrind -q --error-exitcode=99 --leak-check=full \
		    --errors-for-leak-kinds=definite,indirect "$u" >"$log" 2>&1
	else
		"$u" >"$log" 2>&1
	fi
	count "$name" $?
done

for t in "$top"/tests/t[0-9]*.sh; do
	[ -f "$t" ] || continue
	name=$(basename "$t" .sh)
	selected "$name" || continue
	bash "$t" >"$log" 2>&1
	count "$name" $?
done

echo "${mode:+$mode: }$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
