#!/bin/sh
# t0900-fuzz-regressions.sh: every fuzz seed (fuzz/corpus/H/) and every
# input that once crashed (tests/fuzz-regressions/H/) replayed through its
# harness fuzz/H.c, linked without libFuzzer to fuzz/replay.c and the
# build's $BUILD/obj/libcommon.a.  In make check's second pass that library
# is the ASan+UBSan one and the driver is built with the same sanitizers;
# with VALGRIND=1 the driver runs under valgrind.  One line per harness and
# directory.
. "$(dirname "$0")/setup.sh"

lib=$BUILD/obj/libcommon.a
if [ ! -f "$lib" ]; then
	notok "libcommon.a not built ($lib)"
	exit 1
fi
CC=${CC:-cc}

# Link with the sanitizers the library was built with.
san=""
syms=$(nm "$lib" 2>/dev/null)
case $syms in *__asan_*) san="$san -fsanitize=address" ;; esac
case $syms in *__ubsan_*) san="$san -fsanitize=undefined -fno-sanitize-recover=all" ;; esac
[ -n "$san" ] && san="$san -fno-omit-frame-pointer"

# The Makefile's flags: the harnesses are held to the same warnings.
flags="-D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -iquote $TOP/common -iquote $TOP/fuzz
-std=c11 -Wall -Wextra -Werror -Wmissing-prototypes -Wstrict-prototypes
-Wmissing-declarations -Wshadow -Wpointer-arith -Wcast-qual -Wwrite-strings
-Wformat=2 -Wformat-security -Wvla -Wold-style-definition -Wnull-dereference
-Wundef -O1 -g"
libs="-lsqlite3 -lcjson -lcrypto -lmaxminddb -lm"

# replay HARNESS DIR WHAT: one ok / not ok line
replay() {
	_out=$(_wrap "$T/replay-$1" "$2" 2> "$T/replay.err")
	_rc=$?
	if [ "$_rc" -eq 0 ]; then
		ok "$1: $3 replayed ($_out)"
	else
		notok "$1: $3 exited with status $_rc at $(grep '^replay: ' "$T/replay.err" | tail -n 1 | cut -c 9-): $(grep -v '^replay: ' "$T/replay.err" | grep -m 3 -E 'ERROR|SUMMARY|runtime error|Invalid (read|write)|definitely lost|Assertion|abort' | tr '\n' ' ')"
	fi
}

n=0
for src in "$TOP"/fuzz/*.c; do
	h=$(basename "$src" .c)
	[ "$h" = replay ] && continue
	if [ "$h" = prepared ] && store_is_postgres; then
		# It stores its answers in a SQLite database (the endpoint's own
		# path), which a PostgreSQL build's store does not open.
		skip "prepared: a SQLite store's harness, replayed in the SQLite passes"
		continue
	fi
	n=$((n + 1))
	# shellcheck disable=SC2086
	if ! $CC $flags $san -o "$T/replay-$h" "$TOP/fuzz/replay.c" "$src" "$lib" $libs \
	    > "$T/cc.err" 2>&1; then
		notok "$h: harness does not build: $(head -n 5 "$T/cc.err" | tr '\n' ' ')"
		continue
	fi
	if [ -d "$TOP/fuzz/corpus/$h" ]; then
		replay "$h" "$TOP/fuzz/corpus/$h" seeds
	else
		notok "$h: no seeds in fuzz/corpus/$h"
	fi
	if [ -d "$TOP/tests/fuzz-regressions/$h" ]; then
		replay "$h" "$TOP/tests/fuzz-regressions/$h" "saved crash inputs"
	fi
done
[ "$n" -gt 0 ] || notok "no harnesses in fuzz/"

# A saved input whose harness is gone would silently stop being replayed.
for d in "$TOP"/tests/fuzz-regressions/*/; do
	[ -d "$d" ] || continue
	h=$(basename "$d")
	[ -f "$TOP/fuzz/$h.c" ] || notok "tests/fuzz-regressions/$h has no harness fuzz/$h.c"
done
