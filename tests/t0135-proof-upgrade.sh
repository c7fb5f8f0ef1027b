#!/bin/bash
# t0135-proof-upgrade.sh: `consentctl init` upgrades a version-3 database
# (tests/fixtures/schema-v3.sql) with entries in place to version 4: every
# entry keeps every field and gets its digest, every published version its
# SHA-256, every site a first seal; the log then verifies, nothing is lost.
#
# The version-3 database is a SQLite file on both stores (consentctl holds
# both).  On PostgreSQL the upgraded rows are then copied into the test
# database, and what follows the upgrade runs there: the PostgreSQL store
# reads every field back as SQLite stored it, so the digests SQLite's
# upgrade made verify there too, beside the endpoint's new ones.
. "$(dirname "$0")/setup.sh"
. "$(dirname "$0")/ctl-helpers.sh"

pgdb=$CONSENT_DB
export CONSENT_DB="$T/v3.db"
sqlite3 "$CONSENT_DB" < "$TOP/tests/fixtures/schema-v3.sql"
sqlite3 "$CONSENT_DB" 'PRAGMA journal_mode = WAL' >/dev/null
doc=$(jq -c . "$TOP/tests/fixtures/config-test.json")
db <<SQL
INSERT INTO sites (id, site_key, name, created_at) VALUES
  (1, 'u1', 'One', '2025-01-01T00:00:00.000Z'), (2, 'u2', 'Two', '2025-01-01T00:00:00.000Z'),
  (3, 'u3', 'Empty', '2025-01-01T00:00:00.000Z');
INSERT INTO domains VALUES (1, 'example.com'), (2, 'example.com');
INSERT INTO configs (id, site_id, version, document, published_at)
  VALUES (1, 1, 1, '$doc', '2025-01-03T00:00:00.000Z');
UPDATE sites SET config_id = 1 WHERE id = 1;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)
INSERT INTO consent_log (site_id, created_at, anon_id_hash, categories, event_type,
    event_action, config_id, published_version, config_version, region, consent_model,
    regulation, time_to_action_ms, interaction, preferences_opened, banner_load_time_ms,
    banner_position, page_url, sdk_version, language, resolved_language, browser, os,
    device_type, country, gpc)
SELECT 1 + (i % 2), printf('2025-%02d-01T00:%02d:%02d.%03dZ', 1 + i % 12, i / 60, i % 60, i),
    printf('%064x', i),
    CASE WHEN i % 3 = 0 THEN '{"analytics":true}' ELSE '{"analytics":false,"necessary":true}' END,
    CASE WHEN i % 4 = 0 THEN 'impression' ELSE 'initial' END,
    CASE WHEN i % 4 = 0 THEN NULL WHEN i % 3 = 0 THEN 'opt_in' ELSE 'opt_out' END,
    CASE WHEN i % 2 = 1 THEN 1 END, CASE WHEN i % 2 = 1 THEN 1 ELSE 0 END,
    CASE WHEN i % 5 = 0 THEN 1 END, 'gdpr', 'opt_in', CASE WHEN i % 6 = 0 THEN 'gdpr' END,
    CASE WHEN i % 2 = 0 THEN i * 10.5 ELSE i END, 'accept_all', i % 2,
    CASE WHEN i % 7 = 0 THEN 0.1 * i END, CASE WHEN i % 9 = 0 THEN 'bottom' END,
    'https://example.com/p' || i || CASE WHEN i % 10 = 0 THEN char(10) || 'ü,"q"' ELSE '' END,
    '0.9.0', 'de-DE', CASE WHEN i % 3 = 0 THEN 'de' END, 'Firefox', 'Linux',
    CASE WHEN i % 7 = 0 THEN 'mobile' ELSE 'desktop' END, 'DE',
    CASE WHEN i % 3 = 0 THEN NULL ELSE i % 2 END
FROM n;
SQL
check test "$(db 'PRAGMA user_version'):$(db 'SELECT count(*) FROM consent_log')" = "3:300" "a version-3 database with 300 entries"
cols=$(db "SELECT group_concat(name, ', ') FROM pragma_table_info('consent_log')")
db "SELECT $cols FROM consent_log ORDER BY id" > "$T/rows-before"

run init
succeeds "" "init upgrades it: exit 0, silent"
check test "$(db 'PRAGMA user_version')" = 5 "user_version 5 (the current)"
check test "$(db 'PRAGMA integrity_check')" = ok "integrity_check ok"
check test "$(db 'SELECT count(*) FROM consent_log')" = 300 "every entry kept"
check test "$(db 'SELECT count(*) FROM consent_log WHERE length(digest) = 64')" = 300 "every entry has its digest"
check test "$(db 'SELECT count(*) FROM consent_log WHERE seal_id IS NULL')" = 0 "every entry is sealed"
check test "$(db 'SELECT count(*) FROM consent_log WHERE builtin_sha256 IS NULL')" = 300 "old entries record no built-in texts (NULL: not recorded)"
check test "$(db 'SELECT count(*) FROM builtin_texts')" = 1 "the upgrade records this build's built-in texts"
check test "$(db "SELECT group_concat(s.site_key || ':' || c.seq || ':' || c.tree_size) FROM consent_seals c JOIN sites s ON s.id = c.site_id ORDER BY s.site_key")" = "u1:1:150,u2:1:150" "a first seal per site with entries, none for the empty one"
check test "$(db "SELECT sha256 FROM configs WHERE id = 1")" = "$(db "SELECT document FROM configs WHERE id = 1" | tr -d '\n' | sha256sum | cut -c1-64)" "the published version has its SHA-256"
db "SELECT $cols FROM consent_log ORDER BY id" > "$T/rows-after"
if cmp -s "$T/rows-before" "$T/rows-after"; then ok "every old column of every entry unchanged"; else notok "rows changed: $(diff "$T/rows-before" "$T/rows-after" | head -n 3)"; fi
if store_is_postgres; then
	# The built-in texts are this build's: the test database has them.
	export CONSENT_DB=$pgdb
	check pg_from_sqlite "$T/v3.db" sites domains configs consent_seals consent_log \
	    "PostgreSQL: the upgraded rows copied into the test database"
	run init
	succeeds "" "PostgreSQL: init on the copied rows: exit 0, silent"
fi
check test "$(ctl consent export u1 --format csv | head -n 1 | tr -d '\r')" = "created_at,anon_id_hash,categories,event_type,event_action,config_version,published_version,region,consent_model,browser,os,device_type,country,regulation,time_to_action_ms,interaction,preferences_opened,banner_load_time_ms,banner_position,page_url,sdk_version,language,resolved_language,gpc,config_sha256,digest,seal,builtin_sha256" "CSV: the new columns come last"
check test "$(ctl consent export u1 | wc -l | tr -d ' ')" = 150 "export of u1: its 150 entries"
for k in u1 u2; do
	run consent verify $k
	check test "$rc" = 0 "verify $k after the upgrade: exit 0"
	check grep -q "^$k: 150 entries verified (150 sealed, 0 not sealed yet), 1 seals, 0 pruned leaves$" "$T/out" "verify $k: 150 entries in one seal"
done
check test "$(ctl consent verify u3 | head -n 1)" = "u3: 0 entries verified (0 sealed, 0 not sealed yet), 0 seals, 0 pruned leaves" "verify of a site without entries"
if command -v python3 >/dev/null 2>&1; then
	ctl consent export u2 > "$T/e.jsonl"; ctl consent head u2 --all > "$T/s.jsonl"
	check python3 "$TOP/tools/verify-export.py" u2 "$T/e.jsonl" "$T/s.jsonl" "a third party verifies the upgraded entries (fractions, NULLs, LF, UTF-8, quotes)"
else
	skip "python3 is not installed"
fi

# The endpoint's digest of a new entry and init's digest of an old one agree:
# the new entry verifies beside the old ones, sealed or not.
cgi POST consent "" '{"site_key":"u1","anon_id":"new","categories":{"analytics":true},"event_type":"initial","time_to_action_ms":0.1}'
expect_status 201 "consent after the upgrade: 201"
run consent verify u1
check test "$rc" = 0 "verify with a new unsealed entry"
snap
run init
succeeds "" "init again: exit 0"
unchanged "a second init changes nothing (it does not seal)"
ctl consent seal u1
check test "$(ctl consent head u1 | jq -c '[.seq, .tree_size]')" = "[2,1]" "the next seal chains on"
run consent verify u1
check test "$rc" = 0 "verify after the second seal"
