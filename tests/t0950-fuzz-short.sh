#!/bin/sh
# t0950-fuzz-short.sh: the short fuzzing run of CI (issue 4).  Every libFuzzer
# harness of fuzz/ (clang, -fsanitize=fuzzer,address,undefined) runs for
# FUZZ_SECONDS, two at a time, through fuzz/run.sh; a harness passes when it
# ran, executed inputs and found no crash, leak, timeout or out-of-memory.
#
# `make check` sets FUZZ_SECONDS=15 (FUZZ_CHECK_SECONDS) for its plain pass; `make test`, the
# sanitized pass and `make valgrind` leave it unset, and this test skips.
# A finding is kept in fuzz/out/crashes/HARNESS/: save it under
# tests/fuzz-regressions/HARNESS/ with the fix (fuzz/README.md).
# serial: two fuzzers at a time keep both cores busy for minutes
. "$(dirname "$0")/setup.sh"

secs=${FUZZ_SECONDS:-0}
if [ "$secs" = 0 ]; then
	skip "short fuzz run: FUZZ_SECONDS not set (make check sets it)"
	exit 0
fi
if [ -n "${SANITIZED:-}" ] || [ "${VALGRIND:-0}" = 1 ]; then
	skip "short fuzz run: runs in make check's plain pass only"
	exit 0
fi
if ! command -v "${CLANG:-clang}" >/dev/null 2>&1; then
	skip "short fuzz run: clang not installed (sudo sh tools/deps.sh)"
	exit 0
fi

FUZZ_JOBS=${FUZZ_JOBS:-2} sh "$TOP/fuzz/run.sh" "$secs" > "$T/fuzz.log" 2>&1
rc=$?
if [ "$rc" = 2 ]; then
	notok "short fuzz run: the harnesses did not build: $(tail -n 5 "$T/fuzz.log" | tr '\n' '|')"
	exit 0
fi
summary=$TOP/fuzz/out/summary.txt
for f in "$TOP"/fuzz/*.c; do
	h=${f##*/}
	h=${h%.c}
	[ "$h" = replay ] && continue
	line=$(grep "^$h " "$summary" 2>/dev/null)
	execs=$(printf '%s\n' "$line" | sed -n 's/.* execs=\([0-9]*\) .*/\1/p')
	case $line in
	*crash=no*)
		if [ "${execs:-0}" -gt 0 ]; then
			ok "fuzz $h: ${secs}s, $execs inputs, no crash"
		else
			notok "fuzz $h: ran no input: $line"
		fi ;;
	'') notok "fuzz $h: no result (fuzz/run.sh exit $rc)" ;;
	*) notok "fuzz $h: $line (log: fuzz/out/logs/$h.log)" ;;
	esac
done
