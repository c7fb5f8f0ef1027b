#!/bin/bash
# t0120-consentctl-data.sh: consentctl sync, consent export, scripts list, stats (CONTRACT 3).
. "$(dirname "$0")/setup.sh"
. "$(dirname "$0")/ctl-helpers.sh"

site s1
site s2
site empty
uuid_re='^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$'

# --- sync start, show ----------------------------------------------------------
run sync start s1
check test "$rc" = 0 -a ! -s "$T/err" "sync start: exit 0"
id=$(cat "$T/out")
check test "$(grep -c . "$T/out")" = 1 "sync start prints one line"
if printf '%s' "$id" | grep -Eq "$uuid_re"; then ok "sync start prints a lower-case v4 UUID"; else notok "sync start prints a lower-case v4 UUID: '$id'"; fi
id2=$(ctl sync start s1)
check test "$id" != "$id2" "two syncs get different ids"
run sync show "$id" --json
check test "$rc" = 0 "sync show --json"
check test "$(jq -c 'keys' "$T/out")" = '["created_at","error","finished_at","page_url","site_key","status","sync_id"]' "sync show --json keys"
check test "$(jq -c '[.sync_id, .site_key, .status, .error, .page_url, .finished_at]' "$T/out")" = "[\"$id\",\"s1\",\"pending\",null,null,null]" "a new sync is pending"
run sync show "$id"
check grep -q '^status  *pending$' "$T/out" "sync show (plain) says pending"
check grep -q "^sync_id  *$id\$" "$T/out" "sync show (plain) names the sync"
run sync show "$(printf '%s' "$id" | tr a-f A-F)" --json
check test "$(jq -r .sync_id "$T/out")" = "$id" "an upper-case sync id is found"
db "UPDATE syncs SET status = 'failed', error = 'scan timed out', finished_at = '2026-01-01T00:00:00.000Z' WHERE sync_id = '$id2'"
check test "$(ctl sync show "$id2" --json | jq -c '[.status, .error, .finished_at]')" = '["failed","scan timed out","2026-01-01T00:00:00.000Z"]' "a failed sync shows its error and time"
snap
for bad in "{$id}" "urn:uuid:$id" "$(printf '%s' "$id" | tr -d -)" "x" "" "$id "; do
	run sync show "$bad"
	fails 2 "invalid sync id '$bad': a UUID such as 123e4567-e89b-42d3-a456-426614174000" "sync show '$bad' refused"
done
run sync show 123e4567-e89b-42d3-a456-426614174000
fails 1 "unknown sync: 123e4567-e89b-42d3-a456-426614174000" "an unknown sync"
run sync start nope
fails 1 "unknown site: nope" "sync start for an unknown site"
run sync start s1 --json
fails 2 "sync start does not take --json" "sync start --json is a usage error"
unchanged "refused sync commands changed nothing"

# --- consent export ------------------------------------------------------------
h1=$(printf 1 | sha256sum | cut -d' ' -f1)
h2=$(printf 2 | sha256sum | cut -d' ' -f1)
h3=$(printf 3 | sha256sum | cut -d' ' -f1)
# (PostgreSQL's char(N) is chr(N).)
if store_is_postgres; then char=chr; else char=char; fi
db "INSERT INTO consent_log (site_id, created_at, anon_id_hash, categories, event_type, event_action,
      published_version, config_version, region, consent_model, regulation, time_to_action_ms,
      interaction, preferences_opened, banner_load_time_ms, banner_position, page_url, sdk_version,
      language, resolved_language, browser, os, device_type, country) VALUES
  (1, '2026-01-01T00:00:00.000Z', '$h1', '{\"analytics\":true,\"necessary\":true}', 'initial', 'opt_in',
      3, 3, 'gdpr', 'opt_in', NULL, 1234.5, 'accept_all', 1, NULL, NULL,
      'https://x.test/a,b\"c' || $char(10) || 'd', NULL, 'de-DE', NULL, 'Chrome', 'Windows', 'desktop', 'DE'),
  (1, '2026-02-01T12:00:00.000Z', '$h2', '{}', 'impression', NULL,
      0, NULL, NULL, NULL, NULL, NULL, 'say \"hi\"', NULL, NULL, NULL,
      NULL, '1,2', NULL, NULL, 'Samsung Internet', NULL, 'mobile', NULL),
  (1, '2026-02-01T12:00:00.500Z', '$h3', '{\"analytics\":false}', 'update', 'opt_out',
      3, NULL, NULL, NULL, 'us_state_laws', NULL, NULL, 0, 87, 'bottom-full',
      'cr' || $char(13) || 'here', NULL, NULL, 'en', NULL, NULL, 'tablet', NULL),
  (2, '2026-01-15T00:00:00.000Z', '$h1', '{}', 'impression', NULL,
      0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'desktop', NULL)"

run consent export s1
check test "$rc" = 0 -a ! -s "$T/err" "consent export: exit 0"
check test "$(wc -l < "$T/out" | tr -d ' ')" = 3 "one line per entry of the site"
check test "$(jq -s -c 'map(.anon_id_hash)' "$T/out")" = "[\"$h1\",\"$h2\",\"$h3\"]" "oldest first, only this site's entries"
required='["anon_id_hash","browser","builtin_sha256","categories","config_sha256","config_version","consent_model","country","created_at","device_type","digest","event_action","event_type","gpc","os","published_version","region","seal"]'
check test "$(sed -n 2p "$T/out" | jq -c 'del(.interaction, .sdk_version) | keys')" = "$required" "the required fields are always present"
check test "$(sed -n 2p "$T/out" | jq -c '[.event_action, .config_version, .region, .consent_model, .os, .country, .published_version, .gpc]')" = '[null,null,null,null,null,null,0,null]' "unsent required fields are null"
check test "$(sed -n 2p "$T/out" | jq -c '[.interaction, .sdk_version]')" = '["say \"hi\"","1,2"]' "sent optional fields are present"
check test "$(sed -n 1p "$T/out" | jq -c 'keys - '"$required")" = '["interaction","language","page_url","preferences_opened","time_to_action_ms"]' "optional fields appear only when sent"
check test "$(sed -n 1p "$T/out" | jq -c '[.categories, .preferences_opened, .time_to_action_ms, .config_version, .page_url]')" = '[{"analytics":true,"necessary":true},true,1234.5,3,"https://x.test/a,b\"c\nd"]' "categories is an object, preferences_opened a boolean, numbers numbers"
check test "$(sed -n 3p "$T/out" | jq -c '[.preferences_opened, .banner_load_time_ms, .banner_position, .regulation, .resolved_language]')" = '[false,87,"bottom-full","us_state_laws","en"]' "false and the other optional fields"
run consent export s1 --format jsonl
check test "$(cat "$T/out")" = "$(ctl consent export s1)" "--format jsonl is the default"

# --since
since() { # SINCE COUNT DESC
	run consent export s1 --since "$1"
	check test "$rc" = 0 -a "$(wc -l < "$T/out" | tr -d ' ')" = "$2" "$3"
}
since 2026-01-01 3 "--since a date includes that day"
since 2026-01-02 2 "--since a later date"
since 2026-02-01T12:00:00Z 2 "--since a time (inclusive)"
since 2026-02-01T12:00:00.5Z 1 "--since with one fraction digit (.500)"
since 2026-02-01T12:00:00.500Z 1 "--since with milliseconds (inclusive)"
since 2026-02-01T12:00:00.501Z 0 "--since after the last entry"
since 2024-02-29 3 "a leap day"
for bad in 2026-13-01 2026-02-30 2025-02-29 2026-1-1 2026-01-01T24:00:00Z "2026-01-01 00:00:00" \
    2026-01-01T00:00:00 2026-01-01T00:00:00.1234Z 2026-01-01T00:00:00.Z 2026-01-01T00:00Z \
    2026-01-01T00:00:00+01:00 yesterday "" 2026-01-01Z; do
	run consent export s1 --since "$bad"
	fails 2 "invalid --since '$bad': YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS[.mmm]Z (UTC)" "--since '$bad' refused"
done

# --format csv: RFC 4180, fixed columns, CRLF
run consent export s1 --format csv
check test "$rc" = 0 -a ! -s "$T/err" "consent export --format csv: exit 0"
{
	printf 'created_at,anon_id_hash,categories,event_type,event_action,config_version,published_version,region,consent_model,browser,os,device_type,country,regulation,time_to_action_ms,interaction,preferences_opened,banner_load_time_ms,banner_position,page_url,sdk_version,language,resolved_language,gpc,config_sha256,digest,seal,builtin_sha256\r\n'
	printf '2026-01-01T00:00:00.000Z,%s,"{""analytics"":true,""necessary"":true}",initial,opt_in,3,3,gdpr,opt_in,Chrome,Windows,desktop,DE,,1234.5,accept_all,true,,,"https://x.test/a,b""c\nd",,de-DE,,,,,,\r\n' "$h1"
	printf '2026-02-01T12:00:00.000Z,%s,{},impression,,,0,,,Samsung Internet,,mobile,,,,"say ""hi""",,,,,"1,2",,,,,,,\r\n' "$h2"
	printf '2026-02-01T12:00:00.500Z,%s,"{""analytics"":false}",update,opt_out,,3,,,,,tablet,,us_state_laws,,,false,87,bottom-full,"cr\rhere",,,en,,,,,\r\n' "$h3"
} > "$T/want.csv"
if cmp -s "$T/out" "$T/want.csv"; then ok "CSV: header, quoting of commas, quotes, LF and CR, CRLF records"; else notok "CSV differs: $(diff <(od -c "$T/want.csv") <(od -c "$T/out") | head -n 6 | tr '\n' ' ')"; fi
run consent export s1 --format csv --since 2026-02-01T12:00:00.1Z
check test "$(wc -l < "$T/out" | tr -d ' ')" = 2 "--since applies to CSV too"
run consent export empty --format csv
check test "$rc" = 0 -a "$(cat "$T/out")" = "$(head -n 1 "$T/want.csv")" "CSV of a site with no entries is the header"
run consent export empty
succeeds "" "JSONL of a site with no entries is empty"

snap
run consent export s1 --format xml
fails 2 "invalid format 'xml': jsonl or csv" "unknown --format"
run consent export nope
fails 1 "unknown site: nope" "export of an unknown site"
run consent export s1 --json
fails 2 "consent export does not take --json" "export --json is a usage error"
unchanged "export changes nothing"

# --- scripts list ----------------------------------------------------------------
db "INSERT INTO scripts VALUES
  (1, 'google-analytics.com', 'analytics', 1, '2026-01-01T00:00:00.000Z', '2026-01-03T00:00:00.000Z', 3,
      'https://www.google-analytics.com/analytics.js', 'https://example.com/'),
  (1, 'cdn.example.net', NULL, 0, '2026-01-02T00:00:00.000Z', '2026-01-02T00:00:00.000Z', 1,
      NULL, 'https://example.com/b')"
run scripts list s1 --json
check test "$rc" = 0 "scripts list --json"
check test "$(jq -c 'map(.domain)' "$T/out")" = '["cdn.example.net","google-analytics.com"]' "records ordered by domain"
check test "$(jq -c '.[0] | keys' "$T/out")" = '["blocked","category","domain","first_seen","last_page_url","last_seen","last_src","seen_count"]' "record keys"
check test "$(jq -c 'map([.category, .blocked, .seen_count])' "$T/out")" = '[[null,false,1],["analytics",true,3]]' "category string or null, blocked boolean, seen_count"
run scripts list s1
check test "$(head -n 1 "$T/out" | tr -s ' ')" = "DOMAIN CATEGORY BLOCKED SEEN FIRST_SEEN LAST_SEEN" "scripts list title line"
check grep -q '^google-analytics.com  *analytics  *yes  *3  *2026-01-01T00:00:00.000Z  *2026-01-03T00:00:00.000Z$' "$T/out" "scripts list line"
run scripts list empty --json
succeeds "[]" "no records: []"
run scripts list empty
succeeds "" "no records: nothing"
run scripts list nope
fails 1 "unknown site: nope" "scripts list of an unknown site"

# --- stats -------------------------------------------------------------------------
month=$(date -u +%Y-%m)
if store_is_postgres; then
	# This month's 2 over two of the 16 slots: the count is their sum.
	db "INSERT INTO mau_counts VALUES (1, '$month', 3, 1), (1, '$month', 12, 1), (1, '2001-01', 0, 99)"
else
	db "INSERT INTO mau_counts VALUES (1, '$month', 2), (1, '2001-01', 99)"
fi
run stats s1 --json
check test "$(jq -c . "$T/out")" = '{"mau":2,"entries":3,"by_event_type":{"initial":1,"update":1,"impression":1},"by_event_action":{"opt_in":1,"opt_out":1,"partial":0,"acknowledge":0},"by_gpc":{"sent":0,"not_sent":0,"not_recorded":3},"gpc_percent":null}' "stats --json"
run stats s1
check grep -q '^entries  *3$' "$T/out" "stats (plain) entries"
check grep -q '^by_event_type.initial  *1$' "$T/out" "stats (plain) flattens the counts"
run stats empty --json
check test "$(jq -c '[.mau, .entries, .by_event_type.initial]' "$T/out")" = '[0,0,0]' "stats of an empty site"
run stats nope
fails 1 "unknown site: nope" "stats of an unknown site"
run stats
fails 2 "usage: consentctl stats KEY [--json]" "stats without a key"
