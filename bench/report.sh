#!/bin/sh
# report.sh: time `consentctl report` over a log of BENCH_ROWS (1,000,000)
# entries of one site in the last 30 days (bench/report.sql, the database
# cached in build/bench/ while its inputs do not change), BENCH_REPORT_N (5)
# runs each of --json and the HTML page (with BENCH_COLD=1, as root, one
# run after dropping the kernel's page cache first).  Prints each run's wall
# time and the median.
# Not part of make check: the issue's target is under 5 s on this machine.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
ROWS=${BENCH_ROWS:-1000000}
N=${BENCH_REPORT_N:-5}
CTL=${BENCH_CTL:-$top/tools/consentctl}
db=$top/build/bench/report-$ROWS.db
say() { printf 'bench/report: %s\n' "$*" >&2; }
[ -x "$CTL" ] || { say "build consentctl first (make)"; exit 1; }
mkdir -p build/bench
stamp=$( { cat schema.sql bench/report.sql; echo "$ROWS"; date -u +%Y-%m-%d; } | cksum)
if [ ! -f "$db" ] || [ "$(cat "$db.stamp" 2>/dev/null)" != "$stamp" ]; then
	say "generating $ROWS consent entries (cached in build/bench/ for today)"
	rm -f "$db" "$db".*
	"$CTL" --db "$db.tmp" init >/dev/null
	"$CTL" --db "$db.tmp" site add bench --name "Bench site" --domain bench.example >/dev/null
	sqlite3 -bail -cmd ".parameter set @rows $ROWS" "$db.tmp" < bench/report.sql >/dev/null
	rm -f "$db.tmp-wal" "$db.tmp-shm"
	mv "$db.tmp" "$db"
	echo "$stamp" > "$db.stamp"
fi
since=$(date -u -d '-30 days' +%Y-%m-%d)
entries=$("$CTL" --db "$db" report bench --since "$since" --json | jq .totals.entries)
say "$entries entries in the period $since to today"
if [ "${BENCH_COLD:-0}" = 1 ]; then
	sync; echo 3 > /proc/sys/vm/drop_caches
	s=$(date +%s.%N); "$CTL" --db "$db" report bench --since "$since" --json >/dev/null; e=$(date +%s.%N)
	say "cold cache, --json: $(echo "$e - $s" | bc) s"
fi
for mode in --json html; do
	: > build/bench/report-times
	i=0
	while [ "$i" -lt "$N" ]; do
		s=$(date +%s.%N)
		if [ "$mode" = html ]; then
			"$CTL" --db "$db" report bench --since "$since" > build/bench/report.html
		else
			"$CTL" --db "$db" report bench --since "$since" --json > /dev/null
		fi
		e=$(date +%s.%N)
		echo "$e - $s" | bc >> build/bench/report-times
		i=$((i + 1))
	done
	say "$mode: $(sort -n build/bench/report-times | tr '\n' ' ')s; median $(sort -n build/bench/report-times | sed -n "$(( (N + 1) / 2 ))p") s"
done
