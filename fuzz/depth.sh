#!/bin/sh
# depth.sh SECONDS [HARNESS...]: the long runs (issue 28: an hour of CPU per
# harness in all, spread over as many sessions as it takes).
#
# Runs each harness in turn, one fuzzer process at a time, under nice -n 19
# (the machine is shared), through fuzz/run.sh with FUZZ_MERGE=1, so that
# after each run the committed seeds and the grown corpus are minimised
# (-merge=1) into fuzz/corpus/H/, ready to commit.  Each run appends one line
# to the ledger fuzz/depth.txt (committed):
#
#   DATE HARNESS CPU-SECONDS EXECUTIONS CORPUS-AFTER-MERGE FINDING
#
# and the cumulative table (CPU time, executions, what is left of the hour)
# is printed at the end: fuzz/depth.sh 0 prints it without running anything.
# Exit status 1 when a run found something (the input is in
# fuzz/out/crashes/H/; save it under tests/fuzz-regressions/H/ with the fix).
set -u
cd "$(dirname "$0")/.."
secs=${1:-}
case $secs in
''|*[!0-9]*) echo "usage: fuzz/depth.sh SECONDS [HARNESS...]" >&2; exit 2 ;;
esac
shift
all=$(for f in fuzz/*.c; do h=${f##*/}; h=${h%.c}; [ "$h" = replay ] || printf '%s ' "$h"; done)
ledger=fuzz/depth.txt
status=0
if [ "$secs" -gt 0 ]; then
	for h in ${*:-$all}; do
		FUZZ_MERGE=1 FUZZ_JOBS=1 nice -n 19 sh fuzz/run.sh "$secs" "$h" > /dev/null 2>&1
		line=$(cat "fuzz/out/logs/$h.result" 2>/dev/null)
		execs=$(printf '%s\n' "$line" | sed -n 's/.* execs=\([0-9]*\) .*/\1/p')
		cpu=$(printf '%s\n' "$line" | sed -n 's/.* cpu=\([0-9]*\).*/\1/p')
		finding=none
		case $line in
		*crash=no*) ;;
		*) finding=$(printf '%s\n' "$line" | sed -n 's/.*crash=yes (\([^)]*\)).*/\1/p')
		   finding=$(basename "${finding:-unknown}"); status=1 ;;
		esac
		printf '%s %s %s %s %s %s\n' "$(date -u +%Y-%m-%dT%H:%MZ)" "$h" "${cpu:-0}" \
		    "${execs:-0}" "$(ls "fuzz/corpus/$h" | wc -l | tr -d ' ')" "$finding" >> "$ledger"
		echo "depth: $line"
	done
fi
# The cumulative table: the ledger's lines summed per harness (lines
# starting with # are notes).
awk '!/^#/ && NF >= 6 { cpu[$2] += $3; ex[$2] += $4; n[$2]++; if ($5 != "-") corp[$2] = $5; if ($6 != "none") f[$2]++ }
    END {
	printf "%-8s %5s %10s %14s %7s %8s %10s\n", "harness", "runs", "cpu s", "executions", "corpus", "findings", "hour left"
	for (h in cpu) {
		left = 3600 - cpu[h]; if (left < 0) left = 0
		printf "%-8s %5d %10d %14d %7d %8d %10d\n", h, n[h], cpu[h], ex[h], corp[h], f[h] + 0, left
	}
    }' "$ledger" 2>/dev/null | { IFS= read -r head; echo "$head"; sort; }
exit $status
