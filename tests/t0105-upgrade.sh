#!/bin/bash
# t0105-upgrade.sh: `consentctl init` upgrades a database of the previous
# schema version (2, tests/fixtures/schema-v2.sql) with entries in it to the
# current one (3: consent_log.gpc; 4: the proof of the log, tested further by
# t0135-proof-upgrade; 5: the dashboard's tables, tested further by
# t0150-users), losing nothing.
#
# The old database is a SQLite file on both stores (consentctl holds both).
# On PostgreSQL, whose schema starts at the current version, the upgraded
# rows are then copied into the test database (as `consentctl migrate`
# would bring them: entries without gpc), and what consentctl and the
# endpoints show of them is checked there.
. "$(dirname "$0")/setup.sh"
. "$(dirname "$0")/ctl-helpers.sh"

if store_is_postgres; then
	check test "$(db 'SELECT version FROM schema_version')" = "$(sed -n 's/^PRAGMA user_version = \([0-9]*\);.*/\1/p' "$TOP/schema.sql")" \
	    "PostgreSQL: the schema is at the version SQLite databases are upgraded to (schema.sql's user_version)"
fi
pgdb=$CONSENT_DB
export CONSENT_DB="$T/old.db"
sqlite3 "$CONSENT_DB" < "$TOP/tests/fixtures/schema-v2.sql"
sqlite3 "$CONSENT_DB" 'PRAGMA journal_mode = WAL' >/dev/null
doc=$(jq -c . "$TOP/tests/fixtures/config-test.json")
month=$(date -u +%Y-%m)
# Two sites, a published config, 40 entries with and without optional fields,
# this month's visitors, script records and syncs, as version 2 stored them.
db <<SQL
INSERT INTO sites (id, site_key, name, tier, mau_cap, paused, created_at) VALUES
  (1, 'up1', 'Upgraded One', 'free', 500, 0, '2026-01-01T00:00:00.000Z'),
  (2, 'up2', 'Upgraded Two', 'paid', NULL, 1, '2026-01-02T00:00:00.000Z');
INSERT INTO domains VALUES (1, 'example.com'), (2, 'example.org');
INSERT INTO configs (id, site_id, version, document, published_at)
  VALUES (1, 1, 1, '$doc', '2026-01-03T00:00:00.000Z');
UPDATE sites SET config_id = 1 WHERE id = 1;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 40)
INSERT INTO consent_log (site_id, created_at, anon_id_hash, categories, event_type,
    event_action, config_id, published_version, config_version, region, consent_model,
    time_to_action_ms, interaction, preferences_opened, page_url, language,
    browser, os, device_type, country)
SELECT 1 + (i % 2), printf('$month-01T00:00:%02d.000Z', i), printf('%064x', i),
    CASE WHEN i % 3 = 0 THEN '{"analytics":true}' ELSE '{"analytics":false,"necessary":true}' END,
    CASE WHEN i % 4 = 0 THEN 'impression' ELSE 'initial' END,
    CASE WHEN i % 4 = 0 THEN NULL WHEN i % 3 = 0 THEN 'opt_in' ELSE 'opt_out' END,
    CASE WHEN i % 2 = 1 THEN 1 END, CASE WHEN i % 2 = 1 THEN 1 ELSE 0 END,
    CASE WHEN i % 5 = 0 THEN 1 END, 'gdpr', 'opt_in',
    CASE WHEN i % 2 = 0 THEN i * 10.5 END, 'accept_all', i % 2,
    'https://example.com/p' || i, 'de-DE', 'Firefox', 'Linux',
    CASE WHEN i % 7 = 0 THEN 'mobile' ELSE 'desktop' END, 'DE'
FROM n;
INSERT INTO mau_visitors SELECT site_id, '$month', anon_id_hash FROM consent_log;
INSERT INTO mau_counts SELECT site_id, '$month', count(*) FROM consent_log GROUP BY site_id;
INSERT INTO scripts VALUES
  (1, 'www.google-analytics.com', 'analytics', 1, '2026-01-01T00:00:00.000Z',
      '2026-01-05T00:00:00.000Z', 4, 'https://www.google-analytics.com/a.js', 'https://example.com/'),
  (2, 'cdn.example.net', NULL, 0, '2026-01-02T00:00:00.000Z', '2026-01-02T00:00:00.000Z', 1,
      NULL, 'https://example.org/');
INSERT INTO syncs VALUES
  ('123e4567-e89b-42d3-a456-426614174000', 1, 'complete', NULL, 'https://example.com/',
   '2026-01-01T00:00:00.000Z', '2026-01-01T00:01:00.000Z'),
  ('223e4567-e89b-42d3-a456-426614174000', 2, 'pending', NULL, NULL, '2026-01-02T00:00:00.000Z', NULL);
SQL
check test "$(db 'PRAGMA user_version')" = 2 "the fixture is a version-2 database"
check test "$(db "SELECT count(*) FROM pragma_table_info('consent_log') WHERE name = 'gpc'")" = 0 "version 2 has no gpc column"
check test "$(db 'SELECT count(*) FROM consent_log')" = 40 "40 entries before the upgrade"

# Every table's rows on the columns it has now, in a fixed order; not the
# prepared answers, which init makes again for the published versions.
tables=$(db "SELECT name FROM sqlite_schema WHERE type = 'table'
    AND name NOT IN ('config_answers', 'config_skeletons') ORDER BY name")
dump_tables() { # OUTFILE
	: > "$1"
	for t in $tables; do
		cols=$(cat "$T/cols.$t")
		echo "== $t" >> "$1"
		db "SELECT $cols FROM $t ORDER BY $cols" >> "$1"
	done
}
for t in $tables; do
	db "SELECT group_concat(name, ', ') FROM pragma_table_info('$t')" > "$T/cols.$t"
done
dump_tables "$T/before"
counts() { for t in $tables; do printf '%s=%s ' "$t" "$(db "SELECT count(*) FROM $t")"; done; }
before_counts=$(counts)

# The endpoints of the new version refuse to work on the old schema, cleanly.
if store_is_postgres; then
	skip "consent before init: SQLite only (the endpoints of this build store in PostgreSQL, not in the old file)"
else
	cgi POST consent "" '{"site_key":"up1","anon_id":"early","categories":{"analytics":true},"event_type":"initial"}'
	expect_error 500 "Internal server error" "consent before init: 500"
	check test "$(db 'SELECT count(*) FROM consent_log')" = 40 "consent before init stored nothing"
fi

# --- the upgrade -------------------------------------------------------------------
run init
succeeds "" "init on a version-2 database: exit 0, silent"
check test "$(db 'PRAGMA user_version')" = 5 "user_version is now 5"
check test "$(db 'PRAGMA integrity_check')" = ok "integrity_check ok"
check test "$(db 'PRAGMA foreign_key_check' | wc -l | tr -d ' ')" = 0 "foreign_key_check clean"
check test "$(db 'PRAGMA journal_mode')" = wal "still WAL"
check test "$(db "SELECT type FROM pragma_table_info('consent_log') WHERE name = 'gpc'")" = INTEGER "consent_log has the gpc column"
check test "$(counts)" = "$before_counts" "every table keeps its row count"
dump_tables "$T/after"
if cmp -s "$T/before" "$T/after"; then
	ok "every row of every table is unchanged on its old columns"
else
	notok "rows changed: $(diff "$T/before" "$T/after" | head -n 4 | tr '\n' ' ')"
fi
check test "$(db 'SELECT count(*) FROM consent_log WHERE gpc IS NULL')" = 40 "old entries: gpc NULL (not recorded)"
check test "$(db 'SELECT count(*) FROM config_answers WHERE config_id = 1')" -gt 0 "init prepared the published version"

# PostgreSQL: the upgraded rows into the test database, with the seals of
# version 4 (its built-in texts are this build's: the test database has
# them already); its init prepares the published version there.
if store_is_postgres; then
	export CONSENT_DB=$pgdb
	check pg_from_sqlite "$T/old.db" $tables consent_seals "PostgreSQL: the upgraded rows copied into the test database"
	run init
	succeeds "" "PostgreSQL: init on the copied rows: exit 0, silent"
	check test "$(db 'SELECT count(*) FROM config_answers WHERE config_id = 1')" -gt 0 "PostgreSQL: init prepared the published version"
fi

# What consentctl shows of the old entries.
run consent export up1
check test "$rc" = 0 -a "$(wc -l < "$T/out" | tr -d ' ')" = 20 "export of up1: its 20 entries"
check test "$(jq -s -c 'map(.gpc) | unique' "$T/out")" = '[null]' "export: gpc null on every old entry"
if store_is_postgres; then
	check test "$(jq -s -r 'map(.anon_id_hash) | join(",")' "$T/out")" = "$(db "SELECT string_agg(anon_id_hash, ',' ORDER BY created_at, id) FROM consent_log WHERE site_id = 2 - 1")" "export: the same entries in order"
else
	check test "$(jq -s -r 'map(.anon_id_hash) | join(",")' "$T/out")" = "$(db "SELECT group_concat(anon_id_hash) FROM (SELECT anon_id_hash FROM consent_log WHERE site_id = 2 - 1 ORDER BY created_at, id)")" "export: the same entries in order"
fi
check test "$(sed -n 3p "$T/out" | jq -c '[.created_at, .categories, .event_type, .event_action, .published_version, .time_to_action_ms, .preferences_opened, .page_url, .country]')" = "[\"$month-01T00:00:06.000Z\",{\"analytics\":true},\"initial\",\"opt_in\",0,63,false,\"https://example.com/p6\",\"DE\"]" "export: fields of an old entry as stored"
check test "$(sed -n 5p "$T/out" | jq -c '[.categories, .config_version, .time_to_action_ms, .preferences_opened, .device_type]')" = '[{"analytics":false,"necessary":true},1,105,false,"desktop"]' "export: another old entry"
check test "$(sed -n 7p "$T/out" | jq -c '[.event_type, .device_type, .browser, .os, .language]')" = '["initial","mobile","Firefox","Linux","de-DE"]' "export: a third"
run consent export up2 --format csv
check test "$(sed -n 2p "$T/out" | tr -d '\r' | awk -F, '{ print $(NF - 6) "," $(NF - 5) "," $(NF - 4) }')" = "de-DE,," "CSV: an old entry has language, resolved_language (not sent), gpc (empty)"
run stats up2 --json
check test "$(jq -c '[.mau, .entries, .by_gpc, .gpc_percent]' "$T/out")" = '[20,20,{"sent":0,"not_sent":0,"not_recorded":20},null]' "stats: old entries are not recorded"
run site show up1 --json
check test "$(jq -c '[.name, .tier, .mau_cap, .version, .domains]' "$T/out")" = '["Upgraded One","free",500,1,["example.com"]]' "site show after the upgrade"
check test "$(ctl sync show 123e4567-e89b-42d3-a456-426614174000 --json | jq -c '[.status, .site_key]')" = '["complete","up1"]' "syncs kept"

# The endpoints work on the upgraded database.
cgi HTTP_SEC_GPC=1 POST consent "" '{"site_key":"up1","anon_id":"after","categories":{"analytics":true},"event_type":"initial"}'
expect_status 201 "consent after the upgrade: 201"
check test "$(ctl consent export up1 | tail -n 1 | jq -c '[.anon_id_hash, .gpc]')" = "[\"$(printf after | sha256sum | cut -d' ' -f1)\",true]" "a new entry records gpc true"
check test "$(ctl stats up1 --json | jq -c '[.entries, .by_gpc, .gpc_percent]')" = '[21,{"sent":1,"not_sent":0,"not_recorded":20},100]' "stats: the share counts recorded entries only"
cgi GET config "site_key=up1"
expect_status 200 "config after the upgrade: 200"
expect_json '.version' 1 "config: the published version"

# Running init again changes nothing.
snap
run init
succeeds "" "init again: exit 0"
unchanged "a second init changes nothing"

# A version-1 database (no gpc, no prepared tables) goes to 5 in one step
# (a SQLite file on both stores).
export CONSENT_DB="$T/v1.db"
sqlite3 "$CONSENT_DB" < "$TOP/tests/fixtures/schema-v2.sql"
db "DROP TABLE config_answers; DROP TABLE config_skeletons; PRAGMA user_version = 1;
    INSERT INTO sites (id, site_key, name, created_at) VALUES (1, 'v1', 'V1', '2026-01-01T00:00:00.000Z');
    INSERT INTO consent_log (site_id, created_at, anon_id_hash, categories, event_type, published_version, device_type)
    VALUES (1, '2026-01-01T00:00:00.000Z', printf('%064x', 7), '{}', 'impression', 0, 'desktop');"
run init
succeeds "" "init on a version-1 database"
check test "$(db 'PRAGMA user_version'):$(db 'SELECT count(*) FROM consent_log WHERE gpc IS NULL'):$(db "SELECT count(*) FROM sqlite_schema WHERE name IN ('config_answers', 'config_skeletons')")" = "5:1:2" "version 1 to 5: gpc added, entry kept, prepared tables created"
check test "$(db 'PRAGMA integrity_check')" = ok "version 1 to 5: integrity_check ok"
