#!/bin/bash
# t0957-store-differential.sh: the SQLite and PostgreSQL stores given the
# same generated sequence of operations answer the same (issue 28's
# differential harnesses; the suite compares them on fixed cases, t0180).
#
# A seeded generator (awk) writes STORE_OPS operations (default 60): sites
# added, changed, paused and resumed, configs published, consent POSTs of
# visitors from a small pool (valid, invalid, unknown site, every category
# choice), config GETs in several regions and languages, scripts reports,
# seals, erasures, exports, statistics, verification, purges.  Each runs on
# a SQLite database through the SQLite build (the repository's bin/ and
# cgi-bin/) and on a PostgreSQL database through the PostgreSQL build
# ($BUILD in the PostgreSQL pass), and what each answers (status and body,
# or exit status and output, times, hashes and ids masked, since the two
# runs happen at different moments) must be the same, operation by
# operation.  The seed is printed; a sequence on which the stores differed
# is kept as tests/fuzz-regressions/stores/SEED.ops (replayed here every
# run, with the fix).  STORE_SEED=N replays one seed.
#
# STORE_SECONDS=N (the long run, outside make check): new sequences, seed
# after seed from the first, until N seconds have passed; each run appends
# one line to the ledger fuzz/stores.txt (committed):
#
#   DATE WALL-SECONDS CPU-SECONDS SEQUENCES OPERATIONS FIRST-SEED DIFFERED
#
# (CPU: this script's children, the two builds' programs and the shell
# tools; the PostgreSQL server's and pgbouncer's own time is not counted.)
#
# It needs the PostgreSQL pass (make test-pg, make check's third pass) and
# the SQLite build beside it; otherwise it skips.
. "$(dirname "$0")/setup.sh"

if ! store_is_postgres; then
	skip "store differential: runs in the PostgreSQL pass (make test-pg, make check)"
	exit 0
fi
if fcgi_mode; then
	skip "store differential: CGI mode only"
	exit 0
fi
SQ=$TOP
if [ "$(cd "$BUILD" && pwd)" = "$SQ" ] || [ ! -x "$SQ/bin/consentctl" ] || [ ! -x "$SQ/cgi-bin/consent" ]; then
	skip "store differential: no SQLite build beside the PostgreSQL one (make all)"
	exit 0
fi
PGDB=$CONSENT_DB
SQDB=$T/sqlite.db
CONSENT_DB=$SQDB "$SQ/bin/consentctl" init > /dev/null 2>&1 ||
	{ notok "store differential: consentctl init of the SQLite database"; exit 0; }

# gen SEED N: the operations, one a line
gen() {
	awk -v seed="$1" -v n="$2" 'BEGIN {
	srand(seed)
	split("s1 s2 nosuch", keys, " ")
	split("necessary analytics marketing functional", cats, " ")
	split("initial update impression initial bogus", evs, " ")
	split("de-DE,de;q=0.9 fr en-US pt-BR ja", langs, " ")
	split("DE FR US BR JP XX", countries, " ")
	split("gdpr us_state_laws default nowhere", regions, " ")
	print "ctl site add s1 --name One --domain example.com"
	print "ctl site add s2 --name Two --domain example.com --tier paid"
	for (i = 0; i < n; i++) {
		k = keys[1 + int(rand() * 3)]
		r = rand()
		if (r < 0.40) {
			body = sprintf("{\"site_key\":\"%s\",\"anon_id\":\"v%d\",\"event_type\":\"%s\",\"categories\":{", k, int(rand() * 6), evs[1 + int(rand() * 5)])
			sep = ""
			for (c = 1; c <= 4; c++) if (rand() < 0.7) { body = body sep sprintf("\"%s\":%s", cats[c], rand() < 0.5 ? "true" : "false"); sep = "," }
			body = body "}"
			if (rand() < 0.5) body = body sprintf(",\"page_url\":\"https://example.com/p%d\"", int(rand() * 3))
			if (rand() < 0.3) body = body sprintf(",\"time_to_action_ms\":%d", int(rand() * 5000))
			body = body "}"
			printf "post consent %s %s %s\n", langs[1 + int(rand() * 5)], countries[1 + int(rand() * 6)], body
		} else if (r < 0.55) {
			q = "site_key=" k
			if (rand() < 0.4) q = q "&region=" regions[1 + int(rand() * 4)]
			if (rand() < 0.4) q = q "&lang=" substr(langs[1 + int(rand() * 5)], 1, 2)
			printf "get config %s %s %s\n", langs[1 + int(rand() * 5)], countries[1 + int(rand() * 6)], q
		} else if (r < 0.62) {
			printf "post scripts en DE {\"site_key\":\"%s\",\"page_url\":\"https://example.com/\",\"scripts\":[{\"src\":\"https://www.google-analytics.com/analytics.js\",\"blocked\":%s},{\"src\":\"https://cdn%d.example.net/x.js\",\"blocked\":false}]}\n", k, rand() < 0.5 ? "true" : "false", int(rand() * 3)
		} else if (r < 0.67) {
			printf "ctl config publish %s %s\n", k, rand() < 0.5 ? "tests/fixtures/config-test.json" : "bench/fixtures/config.json"
		} else if (r < 0.72) {
			print "ctl consent seal " k
		} else if (r < 0.76) {
			printf "ctl consent erase %s --anon-id v%d\n", k, int(rand() * 6)
		} else if (r < 0.79) {
			print (rand() < 0.5 ? "ctl site pause " : "ctl site resume ") k
		} else if (r < 0.82) {
			printf "ctl site set %s --mau-cap %s --retention-days %s\n", k, rand() < 0.5 ? "none" : int(rand() * 4), rand() < 0.5 ? "none" : 1 + int(rand() * 30)
		} else if (r < 0.86) {
			print "ctl consent export " k
		} else if (r < 0.90) {
			print "ctl stats " k " --json"
		} else if (r < 0.93) {
			print "ctl consent verify " k
		} else if (r < 0.96) {
			printf "ctl consent find %s --anon-id v%d\n", k, int(rand() * 6)
		} else if (r < 0.98) {
			print "ctl scripts list " k " --json"
		} else {
			print "ctl purge " k " --dry-run"
		}
	}
	print "ctl consent export s1"
	print "ctl consent export s2"
	print "ctl stats s1 --json"
	print "ctl stats s2 --json"
	print "ctl site list --json"
	}'
}

# Times, 64-hex hashes, UUIDs and durations differ between two runs; the
# rest must not.
mask() {
	sed -E -e 's/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z/TIME/g' \
	    -e 's/[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:.]+/TIME/g' \
	    -e 's/[0-9a-f]{64}/HASH/g' \
	    -e 's/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/UUID/g' \
	    -e 's/[0-9]+(\.[0-9]+)? ?(ms|s)\b/DURATION/g' \
	    -e 's/"month":"[0-9-]+"/"month":"MONTH"/g'
}

# run BUILDDIR DB OPSFILE: each operation's answer, one block each
run() {
	local b=$1 db=$2 n=0 kind rest what ep lang country arg
	while IFS= read -r line; do
		n=$((n + 1))
		kind=${line%% *}
		rest=${line#* }
		echo "== $n: $line"
		case $kind in
		ctl)
			# shellcheck disable=SC2086
			(cd "$TOP" && CONSENT_DB=$db "$b/bin/consentctl" $rest 2>&1; echo "exit $?") | mask ;;
		post|get)
			read -r ep lang country arg <<< "$rest"
			if [ "$kind" = post ]; then
				BUILD=$b CONSENT_DB=$db cgi HTTP_ACCEPT_LANGUAGE="$lang" HTTP_CF_IPCOUNTRY="$country" POST "$ep" "" "$arg"
			else
				BUILD=$b CONSENT_DB=$db cgi HTTP_ACCEPT_LANGUAGE="$lang" HTTP_CF_IPCOUNTRY="$country" GET "$ep" "$arg"
			fi
			echo "status $(cat "$T/status")"
			mask < "$T/body"
			echo ;;
		esac
	done < "$3"
}

# differ OPSFILE: "" when both stores answer the same, else the first
# operation where they do not
compare() {
	run "$SQ" "$SQDB" "$1" > "$T/sqlite.out" 2>&1
	run "$BUILD" "$PGDB" "$1" > "$T/pg.out" 2>&1
	if cmp -s "$T/sqlite.out" "$T/pg.out"; then
		return 0
	fi
	diff "$T/sqlite.out" "$T/pg.out" | head -n 8 | tr '\n' '|'
	return 1
}

fresh() { # new empty databases for the next sequence
	rm -f "$SQDB" "$SQDB"-wal "$SQDB"-shm
	CONSENT_DB=$SQDB "$SQ/bin/consentctl" init > /dev/null 2>&1
	pg_drop_db "$PG_DB" > /dev/null 2>&1
	PGDB=$(pg_new_db t0957 2> "$T/pg-new") || { notok "a PostgreSQL database: $(cat "$T/pg-new")"; exit 0; }
	PG_DB=${PGDB#*dbname=}
	PG_DB=${PG_DB%% *}
	CONSENT_DB=$PGDB "$BUILD/bin/consentctl" init > /dev/null 2>&1
}

# The saved sequences first, then a new one.
for f in "$TOP"/tests/fuzz-regressions/stores/*.ops; do
	[ -f "$f" ] || continue
	fresh
	if d=$(compare "$f"); then
		ok "store differential: saved sequence ${f##*/}: both stores answer the same"
	else
		notok "store differential: saved sequence ${f##*/}: the stores differ: $d"
	fi
done
[ -n "${STORE_KEEP:-}" ] && trap 'cp "$T/sqlite.out" "$T/pg.out" "$STORE_KEEP"/ 2>/dev/null; _cleanup' EXIT
seed=${STORE_SEED:-$(( $(date +%s) % 100000 ))}
ops=${STORE_OPS:-60}
secs=${STORE_SECONDS:-0}
case $secs in ''|*[!0-9]*) notok "store differential: STORE_SECONDS=$secs is not a number of seconds"; exit 0 ;; esac
first=$seed started=$(date +%s) seqs=0 answers=0 differed=0
while :; do
	gen "$seed" "$ops" > "$T/seq.ops"
	fresh
	seqs=$((seqs + 1))
	if d=$(compare "$T/seq.ops"); then
		n=$(grep -c '^== ' "$T/sqlite.out")
		answers=$((answers + n))
		[ "$secs" -eq 0 ] && ok "store differential: seed $seed, $ops operations ($n answers): both stores answer the same"
	else
		differed=$((differed + 1))
		mkdir -p "$TOP/fuzz/out/stores"
		cp "$T/seq.ops" "$TOP/fuzz/out/stores/$seed.ops"
		notok "store differential: seed $seed ($ops operations; kept in fuzz/out/stores/$seed.ops, save it under tests/fuzz-regressions/stores/): the stores differ: $d"
	fi
	[ $(($(date +%s) - started)) -lt "$secs" ] || break
	seed=$((seed + 1))
done
if [ "$secs" -gt 0 ]; then
	wall=$(($(date +%s) - started))
	# times (in this shell, not a pipeline's subshell): the shell's and
	# its children's user and system time, as "XmY.ZZZs" pairs; the
	# children's line is the second.
	times > "$T/times"
	cpu=$(sed -n 2p "$T/times" | awk '{ s = 0; for (i = 1; i <= 2; i++) { split($i, p, /[ms]/); s += p[1] * 60 + p[2] } printf "%d", s }')
	printf '%s %s %s %s %s %s %s\n' "$(date -u +%Y-%m-%dT%H:%MZ)" "$wall" "$cpu" "$seqs" \
	    "$((seqs * ops))" "$first" "$differed" >> "$TOP/fuzz/stores.txt"
	[ "$differed" -eq 0 ] &&
		ok "store differential: $seqs sequences of $ops operations from seed $first ($answers answers) in ${wall}s: both stores answered the same"
fi
