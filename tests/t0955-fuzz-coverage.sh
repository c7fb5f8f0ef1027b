#!/bin/sh
# t0955-fuzz-coverage.sh: `make fuzz-coverage` (fuzz/coverage.sh) measures
# what the fuzzing corpora reach: it builds every harness with clang's
# source-based coverage, replays the corpora, and prints lines and branches
# per harness and target file, then the lines never reached.  Here, on the
# committed corpora only, the figures are checked to be measured and
# consistent (the bar itself, 90% of lines and 80% of branches, is the
# fuzzing campaign's: fuzz/README.md); a coverage build that stopped
# working fails.  Plain pass only.
. "$(dirname "$0")/setup.sh"

if [ -n "${SANITIZED:-}" ] || [ "${VALGRIND:-0}" = 1 ] || [ "${CONSENT_TEST_STORE:-sqlite}" != sqlite ] ||
    [ "${CONSENT_TEST_MODE:-cgi}" != cgi ]; then
	skip "fuzz coverage: runs in the plain pass only"
	exit 0
fi
for t in clang llvm-profdata llvm-cov; do
	command -v "$t" >/dev/null 2>&1 && continue
	if [ "${CI:-}" = true ]; then
		notok "fuzz coverage: $t is not installed (sh tools/deps.sh): required when CI=true"
	else
		skip "fuzz coverage: $t is not installed (sh tools/deps.sh)"
	fi
	exit 0
done

FUZZ_COV_BUILD=$T/cov FUZZ_COV_OUT=$T/out FUZZ_COV_GROWN= COV_STRICT=0 \
    sh "$TOP/fuzz/coverage.sh" > "$T/cov.out" 2> "$T/cov.err"
rc=$?
check test "$rc" = 0 "fuzz/coverage.sh ran (exit $rc: $(tail -n 3 "$T/cov.err" | tr '\n' '|'))"

# Every harness's target files have a row: covered/count lines, a
# percentage, covered/count branches, a percentage, with covered <= count
# and some of each reached (a seed corpus reaches its parser's entry).
for f in "$TOP"/fuzz/*.c; do
	h=${f##*/}; h=${h%.c}
	[ "$h" = replay ] && continue
	rows=$(grep -c "^$h " "$T/out/coverage.txt")
	if [ "$rows" -lt 1 ]; then
		notok "coverage of $h: no row in the table"
		continue
	fi
	bad=$(awk -v h="$h" '$1 == h {
	    split($3, l, "/"); split($5, b, "/");
	    if (l[1] + 0 < 1 || l[1] + 0 > l[2] + 0 || b[1] + 0 > b[2] + 0) print $2 }' "$T/out/coverage.txt")
	check test -z "$bad" "coverage of $h: $rows target file(s) measured, lines and branches reached${bad:+ (wrong: $bad)}"
done
check grep -q '^unreached lines' "$T/cov.out" "the unreached lines are listed after the table"
