#!/bin/bash
# t0430-purge-load.sh: a purge of 1,000,000 entries while consent requests
# keep arriving (issue 11): every request is answered 201, none takes a
# second or more, and the log still verifies afterwards.  The rows are
# generated in bulk with SQL in a version-3 database, which `consentctl
# init` upgrades (digests and seals for a million entries: the upgrade at
# scale too).  PURGE_ROWS changes the size.  About 40 s on the 2-vCPU
# machine of docs/performance.md.  The version-3 database is a SQLite file
# on both stores; on PostgreSQL its upgraded rows are then copied into the
# test database, where the purge and the requests run.
# serial: times requests while a purge runs
. "$(dirname "$0")/setup.sh"
. "$(dirname "$0")/ctl-helpers.sh"

# Under the sanitizers or valgrind, which look for memory errors rather than
# at scale, a tenth of it.
if [ "${SANITIZED:-0}" = 1 ] || [ "${VALGRIND:-0}" = 1 ]; then ROWS=${PURGE_ROWS:-100000}; else ROWS=${PURGE_ROWS:-1000000}; fi
pgdb=$CONSENT_DB
export CONSENT_DB="$T/big.db"
sqlite3 "$CONSENT_DB" < "$TOP/tests/fixtures/schema-v3.sql"
sqlite3 "$CONSENT_DB" 'PRAGMA journal_mode = WAL' >/dev/null
old=$(date -u -d '-800 days' +%Y-%m-%d)
t0=$(date +%s)
db <<SQL
INSERT INTO sites (id, site_key, name, created_at, tier) VALUES (1, 'big', 'Big', '2024-01-01T00:00:00.000Z', 'paid');
INSERT INTO domains VALUES (1, 'example.com');
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $ROWS)
INSERT INTO consent_log (site_id, created_at, anon_id_hash, categories, event_type,
    event_action, published_version, region, consent_model, device_type, browser, os, country,
    page_url, gpc)
SELECT 1, printf('%sT%02d:%02d:%02d.%03dZ', '$old', (i / 3600000) % 24, (i / 60000) % 60,
    (i / 1000) % 60, i % 1000), printf('%064x', i), '{"necessary":true,"analytics":false}',
    'initial', 'opt_out', 0, 'gdpr', 'opt_in', 'desktop', 'Firefox', 'Linux', 'DE',
    'https://example.com/page/' || (i % 1000), i % 2
FROM n;
SQL
t1=$(date +%s)
ctl init || notok "init"
t2=$(date +%s)
check test "$(db 'SELECT count(*) FROM consent_log WHERE seal_id IS NOT NULL AND digest IS NOT NULL')" = "$ROWS" "$ROWS generated entries, digested and sealed by the upgrade (generated in $((t1 - t0)) s, upgraded in $((t2 - t1)) s)"
if store_is_postgres; then
	export CONSENT_DB=$pgdb
	if pg_from_sqlite "$T/big.db" sites domains consent_seals consent_log; then
		ok "PostgreSQL: the upgraded rows copied into the test database (in $(($(date +%s) - t2)) s)"
	else
		notok "PostgreSQL: the upgraded rows copied into the test database"
	fi
fi
ctl site set big --retention-days 365

# Consent requests from 4 workers, one after another each, until the purge
# has ended; each appends "STATUS MILLISECONDS".
cat > "$T/worker.sh" <<'EOF'
w=$1 i=0
while [ ! -e "$T/purged" ] || [ $i -lt 5 ]; do
	i=$((i + 1))
	body="{\"site_key\":\"big\",\"anon_id\":\"w$w-$i\",\"categories\":{\"necessary\":true,\"analytics\":true},\"event_type\":\"initial\"}"
	s=$(date +%s%N)
	st=$(printf '%s' "$body" | env -i REQUEST_METHOD=POST CONTENT_LENGTH=${#body} \
	    CONTENT_TYPE=application/json HTTP_ORIGIN=https://example.com REMOTE_ADDR=127.0.0.1 \
	    CONSENT_DB="$CONSENT_DB" ${ASAN_OPTIONS:+ASAN_OPTIONS=$ASAN_OPTIONS} \
	    ${UBSAN_OPTIONS:+UBSAN_OPTIONS=$UBSAN_OPTIONS} "$CGI_BIN/consent" 2>>"$T/cgi-err" |
	    sed -n '1s/^Status: \([0-9]*\).*/\1/p')
	e=$(date +%s%N)
	echo "${st:-none} $(((e - s) / 1000000))" >> "$T/lat.$w"
done
EOF
export T CONSENT_DB BUILD CGI_BIN
fcgi_mode && fcgi_proc_start consent 4    # FastCGI: one process per worker
for w in 1 2 3 4; do bash "$T/worker.sh" $w & done
sleep 1
t3=$(date +%s%N)
ctl purge big 2> "$T/purge-err"
prc=$?
t4=$(date +%s%N)
touch "$T/purged"
wait
check test "$prc" = 0 "purge of $ROWS entries: exit 0 in $(((t4 - t3) / 1000000)) ms"
cat "$T"/lat.* > "$T/lat"
n=$(wc -l < "$T/lat" | tr -d ' ')
max=$(sort -k2 -n "$T/lat" | tail -n 1 | cut -d' ' -f2)
med=$(sort -k2 -n "$T/lat" | sed -n "$(((n + 1) / 2))p" | cut -d' ' -f2)
check test "$(grep -vc '^201 ' "$T/lat")" = 0 "$n consent requests during the purge: all answered 201"
# PostgreSQL: the purge's batches run in the server beside the requests on
# the same 2 cores (measured: a request at 1.3 s once while a 1M-row purge
# took 89 s); no lock holds a request up there (MVCC), so the bound checks
# that nothing waits on the purge, not the machine's load.
if store_is_postgres; then bound=3000; else bound=1000; fi
check test "$max" -lt "$bound" "no request took $bound ms or more (median $med ms, max $max ms)"
fcgi_mode && cat "$T/fcgi/consent.err" >> "$T/cgi-err"    # the processes' own stderr
check test ! -s "$T/cgi-err" "no request wrote to stderr"
check test "$(db "SELECT count(*) FROM consent_log WHERE created_at < '$(date -u -d '-365 days' +%Y-%m-%d)'")" = 0 "every entry older than the retention is gone"
check test "$(db 'SELECT count(*) FROM consent_log')" = "$n" "the entries sent during the purge are all there"
check test "$(db 'SELECT count(*) FROM consent_pruned')" = "$ROWS" "every purged entry left its leaf"
ctl consent seal big
t5=$(date +%s)
run consent verify big
t6=$(date +%s)
check test "$rc" = 0 "the log still verifies ($((t6 - t5)) s)"
check grep -q "^big: $n entries verified ($n sealed, 0 not sealed yet), .* $ROWS pruned leaves$" "$T/out" "verify: the new entries and the $ROWS pruned leaves"
if store_is_postgres; then
	skip "integrity_check ok: SQLite only (PRAGMA integrity_check)"
else
	check test "$(db 'PRAGMA integrity_check')" = ok "integrity_check ok"
fi
