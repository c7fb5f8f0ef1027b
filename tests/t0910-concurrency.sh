#!/bin/bash
# t0910-concurrency.sh: 500 consent POSTs from 16 parallel workers, config
# reads and scripts reports interleaved, one database (issue 4; CONTRACT 7).
#
# Every request must be answered (201 / 200), every entry stored exactly once,
# the monthly visitor count must equal the distinct visitors although pairs of
# requests of one visitor race each other, and the file must pass
# integrity_check (SQLite).  CONC_POSTS and CONC_WORKERS change the size.
# serial: 16 writers at once: the load is the test
. "$(dirname "$0")/setup.sh"
. "$(dirname "$0")/ctl-helpers.sh"

N=${CONC_POSTS:-500}      # consent POSTs
P=${CONC_WORKERS:-16}     # parallel workers (xargs -P)
PAIRS=$((N / 4))          # visitors 1..PAIRS send two entries at once
VISITORS=$((N - PAIRS))
REPORTS=$((N / 10))       # scripts reports
SYNCS=$((REPORTS < 10 ? REPORTS : 10))   # syncs closed by the first reports

ctl site add conc --name Conc --domain example.com --tier paid >/dev/null
for s in $(seq "$SYNCS"); do ctl sync start conc; done > "$T/syncs"

# visitor I: the anon_id of consent POST I.  Posts 2k-1 and 2k (k <= PAIRS)
# share one visitor and are queued next to each other, so they run at once.
visitor() {
	if [ "$1" -le $((2 * PAIRS)) ]; then echo "v-$((($1 + 1) / 2))"; else echo "v-$(($1 - PAIRS))"; fi
}

# One request as a web server makes it; appends "KIND I EXIT STATUS" to the
# results (short appends are atomic).  Under VALGRIND=1 every 25th request
# runs under valgrind: the whole load under valgrind would take many minutes.
# In FastCGI mode $CGI_BIN/KIND sends it to KIND's processes, several on
# one socket (valgrind, if asked, wraps them all), and EXIT is the
# request's FastCGI status.
cat > "$T/job.sh" <<'EOF'
kind=$1 i=$2
case $kind in
consent)
	method=POST query=
	if [ "$i" -le $((2 * PAIRS)) ]; then v=$(((i + 1) / 2)); else v=$((i - PAIRS)); fi
	if [ $((i % 2)) = 0 ]; then ev=update a=true; else ev=initial a=false; fi
	body="{\"site_key\":\"conc\",\"anon_id\":\"v-$v\",\"categories\":{\"necessary\":true,\"analytics\":$a},\"event_type\":\"$ev\",\"page_url\":\"https://example.com/p/$i\"}" ;;
config)
	method=GET query="site_key=conc" body= ;;
scripts)
	method=POST
	sync=$(sed -n "${i}p" "$T/syncs")
	query=${sync:+sync_id=$sync}
	body="{\"site_key\":\"conc\",\"page_url\":\"https://example.com/s/$i\",\"timestamp\":1763800000000,\"scripts\":[{\"domain\":\"www.google-analytics.com\",\"blocked\":false},{\"domain\":\"cdn$((i % 5)).example.net\",\"src\":\"https://cdn$((i % 5)).example.net/$i.js\",\"blocked\":true}]}" ;;
esac
vg=
if [ "${VALGRIND:-0}" = 1 ] && [ $((i % 25)) = 0 ] && [ "$CONSENT_TEST_MODE" != fcgi ]; then
	vg="$(command -v valgrind) -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect"
fi
printf '%s' "$body" | env -i REQUEST_METHOD=$method QUERY_STRING="$query" \
    CONTENT_LENGTH=${#body} CONTENT_TYPE=application/json \
    HTTP_ORIGIN=https://example.com HTTP_USER_AGENT="Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0" \
    REMOTE_ADDR=127.0.0.1 CONSENT_DB="$CONSENT_DB" \
    ${ASAN_OPTIONS:+ASAN_OPTIONS=$ASAN_OPTIONS} ${UBSAN_OPTIONS:+UBSAN_OPTIONS=$UBSAN_OPTIONS} \
    $vg "$CGI_BIN/$kind" > "$T/out/$kind.$i" 2> "$T/err/$kind.$i"
rc=$?
echo "$kind $i $rc $(sed -n '1s/^Status: \([0-9]*\).*/\1/p' "$T/out/$kind.$i")" >> "$T/results"
EOF
mkdir "$T/out" "$T/err"

# The queue: consent POSTs in order, a config read after every 5th and a
# scripts report after every 10th.
for i in $(seq "$N"); do
	echo "consent $i"
	[ $((i % 5)) = 0 ] && echo "config $i"
	[ $((i % 10)) = 0 ] && echo "scripts $((i / 10))"
done > "$T/queue"
jobs=$(wc -l < "$T/queue" | tr -d ' ')

if fcgi_mode; then
	fcgi_proc_start consent 4
	fcgi_proc_start config 2
	fcgi_proc_start scripts 2
fi
start=$(date +%s)
T=$T PAIRS=$PAIRS BUILD=$BUILD CONSENT_DB=$CONSENT_DB VALGRIND=${VALGRIND:-0} \
    CGI_BIN=$CGI_BIN CONSENT_TEST_MODE=$CONSENT_TEST_MODE xargs -P "$P" -n 2 sh "$T/job.sh" < "$T/queue"
secs=$(($(date +%s) - start))

# --- every request answered ---------------------------------------------------
check test "$(wc -l < "$T/results" | tr -d ' ')" = "$jobs" "all $jobs requests ran"
check test "$(awk '$3 != 0' "$T/results" | wc -l | tr -d ' ')" = 0 "every process exited 0 (no crash, sanitizer or valgrind report)"
c201=$(awk '$1 == "consent" && $4 == 201' "$T/results" | wc -l | tr -d ' ')
if [ "$c201" = "$N" ]; then ok "all $N consent POSTs answered 201"; else
	notok "consent POSTs answered 201: $c201 of $N; others: $(awk '$1 == "consent" && $4 != 201 { print $4 }' "$T/results" | sort | uniq -c | tr '\n' ' ')"
fi
check test "$(awk '$1 == "config" && $4 == 200' "$T/results" | wc -l | tr -d ' ')" = $((N / 5)) "all $((N / 5)) interleaved config GETs answered 200"
check test "$(awk '$1 == "scripts" && $4 == 200' "$T/results" | wc -l | tr -d ' ')" = "$REPORTS" "all $REPORTS interleaved scripts reports answered 200"
errs=$(cat "$T"/err/* $(fcgi_mode && echo "$T"/fcgi/*.err) | sort | uniq -c | head -n 3 | tr '\n' ' ')
check test -z "$errs" "nothing logged on stderr${errs:+: $errs}"
check test "$(grep -l '"disabled"' "$T"/out/config.* 2>/dev/null | wc -l | tr -d ' ')" = 0 "config bodies are resolved configs"

# --- exactly the entries sent, once each ----------------------------------------
ctl consent export conc > "$T/export"
check test "$(wc -l < "$T/export" | tr -d ' ')" = "$N" "export holds exactly $N entries"
seq "$N" | sed 's|^|https://example.com/p/|' | sort > "$T/want.pages"
jq -r .page_url "$T/export" | sort > "$T/got.pages"
check cmp -s "$T/want.pages" "$T/got.pages" "each POST stored once: the export's page_urls are exactly the $N sent"
for i in $(seq "$N"); do visitor "$i"; done | sort | uniq -c | awk '{ print $2, $1 }' > "$T/want.visitors"
while read -r v n; do
	echo "$(printf '%s' "$v" | sha256sum | cut -d' ' -f1) $n"
done < "$T/want.visitors" | sort > "$T/want.hashes"
jq -r .anon_id_hash "$T/export" | sort | uniq -c | awk '{ print $2, $1 }' | sort > "$T/got.hashes"
check cmp -s "$T/want.hashes" "$T/got.hashes" "anon_id hashes: each of the $VISITORS visitors with its number of entries"
check test "$(jq -r 'select(.browser != "Firefox" or .os != "Linux" or .device_type != "desktop") | .page_url' "$T/export" | wc -l | tr -d ' ')" = 0 "every entry enriched (browser, os, device)"

# --- monthly active users: racing pairs counted once -----------------------------
check test "$(ctl site show conc --json | jq .mau)" = "$VISITORS" "MAU equals the $VISITORS distinct visitors"
if store_is_postgres; then
	# The month's count is the sum of its 16 slots.
	check test "$(db "SELECT ((SELECT sum(visitors) FROM mau_counts) = (SELECT count(*) FROM mau_visitors) AND (SELECT count(*) FROM mau_visitors) = (SELECT count(DISTINCT anon_id_hash) FROM consent_log))::int")" = 1 \
	    "mau_counts (the slots' sum) = rows of mau_visitors = distinct hashes in consent_log"
else
	check test "$(db "SELECT (SELECT visitors FROM mau_counts) = (SELECT count(*) FROM mau_visitors) AND (SELECT count(*) FROM mau_visitors) = (SELECT count(DISTINCT anon_id_hash) FROM consent_log)")" = 1 \
	    "mau_counts = rows of mau_visitors = distinct hashes in consent_log"
fi

# --- scripts: one record per domain, every sighting counted ----------------------
ctl scripts list conc --json > "$T/scripts"
check test "$(jq length "$T/scripts")" = 6 "scripts: one record per domain (6)"
check test "$(jq '[.[].seen_count] | add' "$T/scripts")" = $((2 * REPORTS)) "scripts: seen_count adds up to the $((2 * REPORTS)) sightings"
check test "$(jq -r '.[] | select(.domain == "www.google-analytics.com") | .seen_count' "$T/scripts")" = "$REPORTS" "scripts: the shared domain seen in all $REPORTS reports"
done_syncs=0
while read -r s; do
	[ "$(ctl sync show "$s" --json | jq -r .status)" = complete ] && done_syncs=$((done_syncs + 1))
done < "$T/syncs"
check test "$done_syncs" = "$SYNCS" "the $SYNCS syncs closed by concurrent reports are complete"

if store_is_postgres; then
	skip "PRAGMA integrity_check and foreign_key_check: SQLite only (PostgreSQL checks its foreign keys on every write)"
else
	check test "$(db 'PRAGMA integrity_check')" = ok "PRAGMA integrity_check is ok"
	check test "$(db 'PRAGMA foreign_key_check' | wc -l | tr -d ' ')" = 0 "PRAGMA foreign_key_check finds nothing"
fi
ok "figure: $jobs requests ($N consent, $((N / 5)) config, $REPORTS scripts) from $P workers in ${secs}s ($CONSENT_TEST_MODE)"
