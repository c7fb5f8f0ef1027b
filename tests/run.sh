#!/bin/sh
# run.sh [-j N]: run every unit program and black-box test, count their lines.
#
# Each test prints one line per check: "ok - ...", "not ok - ..." or
# "skip - ..." (TAP's "ok N - name # SKIP" counts as skipped).  A program that exits non-zero without a "not ok" line counts
# as one failure, so a crash is never silent.  The last line is
# "N passed, N failed, N skipped".  Exit status 1 if anything failed or
# nothing passed.
#
# -j N       run up to N files at once (default TEST_JOBS, else 1; make's
#            test targets pass the number of cores).  Each file has its
#            own folder and database (tests/setup.sh) and its output goes
#            to a log of its own; the results are printed in file order,
#            each file's as soon as it and those before it are done, with
#            the seconds it took.  A test file with a line "# serial: WHY"
#            in its leading comment (it measures time, memory or load, or
#            keeps every core busy itself) runs alone, after every other
#            file has finished (so that the pool drains once, not once per
#            serial file), the serial files one by one in file order.
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
jobs=${TEST_JOBS:-1}
while [ $# -gt 0 ]; do
	case $1 in
	-j) jobs=${2:-}; shift; [ $# -gt 0 ] && shift ;;
	-j*) jobs=${1#-j}; shift ;;
	*) echo "usage: run.sh [-j N]" >&2; exit 2 ;;
	esac
done
case $jobs in
'' | *[!0-9]* | 0) echo "run.sh: -j wants a number of files at once, 1 or more (got '$jobs')" >&2; exit 2 ;;
esac
pass=0 fail=0 skip=0
logs=$(mktemp -d "${TMPDIR:-/tmp}/consent-run.XXXXXX") || exit 1
n=0
store=${CONSENT_TEST_STORE:-sqlite}
pg_dir=

# The summary's prefix names how the binaries ran: "sanitized: ",
# "postgres: ", "fcgi: ", "sanitized postgres fcgi: "...
mode=${SANITIZED:+sanitized}
[ "$store" = postgres ] && mode="${mode:+$mode }postgres"
[ "${CONSENT_TEST_MODE:-cgi}" = fcgi ] && mode="${mode:+$mode }fcgi"

# The cluster's servers are in sessions of their own, so an interrupt
# reaches only the tests: this stops them, after the files still running.
cleanup() {
	k=0
	while [ "$k" -lt "$n" ]; do
		[ -f "$logs/$k.rc" ] || eval "kill \${pid_$k:-} 2>/dev/null"
		k=$((k + 1))
	done
	wait
	rm -rf "$logs"
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

# count NAME STATUS LOG SECONDS: print a file's failures, skips and line,
# and add its counts to the totals.
count() {
	name=$1 rc=$2 log=$3 secs=$4
	p=$(grep '^ok ' "$log" | grep -vc '# SKIP')
	f=$(grep -c '^not ok ' "$log")
	s=$(grep -cE '^skip |^ok .*# SKIP' "$log")
	grep -E '^(not ok|skip) |^ok .*# SKIP' "$log" | sed "s|^|$name: |"
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "$name: not ok - exited with status $rc"
		tail -n 20 "$log" | sed "s|^|    |"
		f=1
	fi
	printf '%-40s %4d passed %3d failed %3d skipped %6s s\n' "$name" "$p" "$f" "$s" "$secs"
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
}

# add KIND PATH NAME: the next file to run (KIND unit or test).
add() {
	selected "$3" || return 0
	serial=0
	[ "$1" = test ] && awk 'NR > 1 && !/^#/ { exit } /^# serial: / { f = 1; exit }
	    END { exit !f }' "$2" && serial=1
	eval "kind_$n=\$1 path_$n=\$2 name_$n=\$3 serial_$n=$serial"
	n=$((n + 1))
}

for u in "$BUILD"/tests/unit/test_*; do
	[ -x "$u" ] || continue
	case "$u" in *.c) continue ;; esac
	add unit "$u" "$(basename "$u")"
done
for t in "$top"/tests/t[0-9]*.sh; do
	[ -f "$t" ] || continue
	add test "$t" "$(basename "$t" .sh)"
done

# run_one KIND PATH: one file in place of the shell (started with & in a
# subshell of its own), its output on stdout and stderr.
run_one() {
	if [ "$1" = test ]; then
		exec bash "$2"
	elif [ "${VALGRIND:-0}" = 1 ]; then
		exec valgrind -q --error-exitcode=99 --leak-check=full \
		    --errors-for-leak-kinds=definite,indirect "$2"
	else
		exec "$2"
	fi
}

# start K: file K in the background, its output in $logs/K.log and then
# its exit status in $logs/K.rc; a signal to it goes on to the file.
start() {
	_kind='' _path=''
	eval "_kind=\$kind_$1 _path=\$path_$1"
	(
		t0=$(date +%s%N)
		run_one "$_kind" "$_path" > "$logs/$1.log" 2>&1 < /dev/null &
		c=$!
		trap 'kill $c 2>/dev/null; wait $c; exit 143' INT TERM HUP
		wait $c
		rc=$?
		t1=$(date +%s%N)
		echo $(((t1 - t0) / 100000000)) | sed 's/.$/.&/; s/^\./0./' > "$logs/$1.secs"
		echo $rc > "$logs/$1.rc.new"
		mv "$logs/$1.rc.new" "$logs/$1.rc"
	) &
	eval "pid_$1=\$! started_$1=1"
}

# Files start in order, up to $jobs at once, the serial ones last and
# alone; each file's result is printed once it and every file before it
# are done.
k=0
while [ "$k" -lt "$n" ]; do eval "started_$k=0"; k=$((k + 1)); done
shown=0 first=0
while [ "$shown" -lt "$n" ]; do
	running=0
	k=$shown
	while [ "$k" -lt "$n" ]; do
		eval "[ \$started_$k = 1 ]" && [ ! -f "$logs/$k.rc" ] && running=$((running + 1))
		k=$((k + 1))
	done
	# The next parallel file while a place is free; once none is left and
	# nothing runs, the next serial one.
	k=$first serial_left=''
	while [ "$k" -lt "$n" ] && [ "$running" -lt "$jobs" ]; do
		if eval "[ \$started_$k = 0 ]"; then
			if eval "[ \$serial_$k = 0 ]"; then
				start "$k"
				running=$((running + 1))
			elif [ -z "$serial_left" ]; then
				serial_left=$k
			fi
		fi
		k=$((k + 1))
	done
	while [ "$first" -lt "$n" ] && eval "[ \$started_$first = 1 ]"; do first=$((first + 1)); done
	if [ "$running" = 0 ] && [ -n "$serial_left" ]; then
		only_serial=1 k=$first
		while [ "$k" -lt "$n" ]; do
			eval "[ \$started_$k = 0 ] && [ \$serial_$k = 0 ]" && only_serial=0
			k=$((k + 1))
		done
		[ "$only_serial" = 1 ] && start "$serial_left"
	fi
	done_one=0
	while [ "$shown" -lt "$n" ] && [ -f "$logs/$shown.rc" ]; do
		_name=''
		eval "_name=\$name_$shown"
		count "$_name" "$(cat "$logs/$shown.rc")" "$logs/$shown.log" "$(cat "$logs/$shown.secs")"
		rm -f "$logs/$shown.log"
		shown=$((shown + 1)) done_one=1
	done
	[ "$done_one" = 1 ] || sleep 0.1
done

echo "${mode:+$mode: }$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
