#!/bin/bash
# t0133-purge.sh: retention and purge (issue 11): `site set --retention-days`,
# `purge [KEY] [--dry-run]` deletes entries older than the site's retention
# in batches, leaving every seal verifiable (the purged entries' leaves
# stay), and drops the monthly-visitor rows of months that are over.  The
# old entries come from a version-3 database upgraded by init (so they have
# digests and seals, as on a real host): a SQLite file on both stores,
# whose rows on PostgreSQL are then copied into the test database, where
# the rest runs.
. "$(dirname "$0")/setup.sh"
. "$(dirname "$0")/ctl-helpers.sh"

pgdb=$CONSENT_DB
export CONSENT_DB="$T/p.db"
sqlite3 "$CONSENT_DB" < "$TOP/tests/fixtures/schema-v3.sql"
sqlite3 "$CONSENT_DB" 'PRAGMA journal_mode = WAL' >/dev/null
old=$(date -u -d '-400 days' +%Y-%m-%d)
recent=$(date -u -d '-10 days' +%Y-%m-%d)
month=$(date -u +%Y-%m)
db <<SQL
INSERT INTO sites (id, site_key, name, created_at) VALUES
  (1, 'keep', 'Keeps a year', '2025-01-01T00:00:00.000Z'), (2, 'all', 'Keeps all', '2025-01-01T00:00:00.000Z');
INSERT INTO domains VALUES (1, 'example.com'), (2, 'example.com');
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1200)
INSERT INTO consent_log (site_id, created_at, anon_id_hash, categories, event_type,
    published_version, device_type, page_url)
SELECT 1 + (i % 2), printf('%sT00:%02d:%02d.000Z', CASE WHEN i <= 800 THEN '$old' ELSE '$recent' END,
    (i / 60) % 60, i % 60), printf('%064x', i), '{"analytics":true}', 'initial', 0, 'desktop',
    'https://example.com/' || i
FROM n;
INSERT INTO mau_visitors SELECT site_id, substr(created_at, 1, 7), anon_id_hash FROM consent_log;
INSERT OR IGNORE INTO mau_visitors SELECT site_id, '$month', anon_id_hash FROM consent_log WHERE id % 10 = 0;
INSERT INTO mau_counts SELECT site_id, month, count(*) FROM mau_visitors GROUP BY site_id, month;
SQL
ctl init || notok "init"
check test "$(db 'SELECT count(*) FROM consent_log WHERE seal_id IS NOT NULL')" = 1200 "1200 entries, sealed by the upgrade"
# PostgreSQL: the upgraded rows into the test database.  The monthly
# counts, to compare after the purge (PostgreSQL: every slot's).
if store_is_postgres; then
	export CONSENT_DB=$pgdb
	check pg_from_sqlite "$T/p.db" sites domains consent_seals consent_log mau_visitors mau_counts \
	    "PostgreSQL: the upgraded rows copied into the test database"
	mau_counts="SELECT string_agg(site_id || month || slot || ':' || visitors, ',' ORDER BY site_id, month, slot) FROM mau_counts"
else
	mau_counts="SELECT group_concat(site_id || month || visitors) FROM mau_counts"
fi
visitors_now=$(db "SELECT count(*) FROM mau_visitors WHERE month = '$month'")
visitors_past=$(db "SELECT count(*) FROM mau_visitors WHERE month < '$month'")
counts=$(db "$mau_counts")

# --- site set --retention-days -------------------------------------------------------
for bad in 0 -1 abc 36501 1.5 ""; do
	run site set keep --retention-days "$bad"
	fails 2 "invalid retention '$bad': a number of days 1-36500, or none" "--retention-days '$bad' is refused"
done
run site set keep --retention-days 365
succeeds "" "site set --retention-days 365"
check test "$(ctl site show keep --json | jq -c '[.retention_days, .name]')" = '[365,"Keeps a year"]' "site show: retention_days, the rest unchanged"
check test "$(ctl site show all --json | jq -c .retention_days)" = null "default: null (unlimited)"
run site set all --retention-days 30
run site set all --retention-days none
check test "$(ctl site show all --json | jq -c .retention_days)" = null "--retention-days none clears it"

# --- dry run ------------------------------------------------------------------------------
snap
run purge --dry-run
check test "$rc" = 0 -a ! -s "$T/err" "purge --dry-run: exit 0"
check grep -q "^keep: 400 entries older than 365 days (before $(date -u -d '-365 days' +%Y-%m-%d)T" "$T/out" "dry run: what would go, per site with a retention"
check grep -q "^monthly visitors: $visitors_past rows of months before $month$" "$T/out" "dry run: the monthly-visitor rows of months that are over"
check test "$(grep -c '^all:' "$T/out")" = 0 "a site without retention is not named"
unchanged "purge --dry-run changes nothing"

# --- purge -----------------------------------------------------------------------------------
run purge keep
succeeds "" "purge keep: exit 0, silent when not on a terminal"
check test "$(db 'SELECT count(*) FROM consent_log WHERE site_id = 1')" = 200 "keep: its 400 old entries are gone, 200 recent stay"
check test "$(db "SELECT count(*) FROM consent_log WHERE site_id = 1 AND created_at < '$recent'")" = 0 "no entry older than the retention is left"
check test "$(db 'SELECT count(*) FROM consent_log WHERE site_id = 2')" = 600 "all: untouched"
check test "$(db 'SELECT count(*) FROM consent_pruned')" = 400 "every purged sealed entry left its leaf"
check test "$(db "SELECT count(*) FROM mau_visitors WHERE month < '$month'")" = 0 -a "$visitors_past" -ge 800 "past months' visitors dropped"
check test "$(db "SELECT count(*) FROM mau_visitors WHERE month = '$month'")" = "$visitors_now" "this month's visitors kept"
check test "$(db "$mau_counts")" = "$counts" "the monthly counts are kept"
for k in keep all; do
	run consent verify $k
	check test "$rc" = 0 "verify $k after the purge: exit 0"
done
check test "$(ctl consent verify keep | head -n 1)" = "keep: 200 entries verified (200 sealed, 0 not sealed yet), 1 seals, 400 pruned leaves" "verify: the seal keeps its purged leaves"
cgi GET config "site_key=keep"
expect_status 200 "config still answers"
snap
run purge
succeeds "" "purge again: nothing left to do"
unchanged "a second purge changes nothing"
# On a terminal, purge shows its progress on stderr (script(1) gives it one).
if command -v script >/dev/null 2>&1; then
	ctl site set all --retention-days 1 >/dev/null
	script -qec "$BUILD/bin/consentctl --db '$CONSENT_DB' purge all" /dev/null > "$T/tty" 2>&1
	check grep -q "purge all: 600 of 600 entries" "$T/tty" "on a terminal: progress, entries done of the total"
	check test "$(db 'SELECT count(*) FROM consent_log WHERE site_id = 2')" = 0 "retention of 1 day: all's old entries purged"
else
	skip "script(1) is not installed: progress on a terminal not tested"
fi
run purge nosuch
fails 1 "unknown site: nosuch" "purge of an unknown site"
run purge keep all
fails 2 "usage: consentctl purge [KEY] [--dry-run]" "purge takes one KEY at most"
