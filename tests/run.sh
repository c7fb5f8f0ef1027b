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
# TESTS      a space-separated subset, e.g. "t0100 test_ua"
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top}
export BUILD
pass=0 fail=0 skip=0
log=$(mktemp "${TMPDIR:-/tmp}/consent-run.XXXXXX")
trap 'rm -f "$log"' EXIT

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

# The summary's prefix names how the binaries ran: "sanitized: ",
# "fcgi: ", "sanitized fcgi: ".
mode=${SANITIZED:+sanitized}
[ "${CONSENT_TEST_MODE:-cgi}" = fcgi ] && mode="${mode:+$mode }fcgi"
echo "${mode:+$mode: }$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
