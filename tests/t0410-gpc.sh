#!/bin/bash
# t0410-gpc.sh: the consent endpoint records Global Privacy Control (Sec-GPC: 1,
# SDK.md 7); consent export (JSONL, CSV) and stats show it.
. "$(dirname "$0")/setup.sh"
. "$(dirname "$0")/ctl-helpers.sh"

site s1
site s2
entry() { # ANON_ID: a decision body for s1
	printf '{"site_key":"s1","anon_id":"%s","categories":{"necessary":true,"analytics":false},"event_type":"initial","event_action":"opt_out"}' "$1"
}

# --- the endpoint: exactly "1" is true ----------------------------------------
cgi HTTP_SEC_GPC=1 POST consent "" "$(entry with-gpc)"
expect_status 201 "Sec-GPC: 1: 201"
cgi HTTP_SEC_GPC=0 POST consent "" "$(entry gpc-zero)"
expect_status 201 "Sec-GPC: 0: 201"
cgi POST consent "" "$(entry no-header)"
expect_status 201 "no Sec-GPC header: 201"
for v in "" "true" "1 " " 1" "11" "yes"; do
	cgi HTTP_SEC_GPC="$v" POST consent "" "$(entry "odd-$v")"
	expect_status 201 "Sec-GPC: '$v': 201"
done
cgi HTTP_SEC_GPC=1 POST consent "" '{"site_key":"s1","anon_id":"imp","categories":{},"event_type":"impression"}'
expect_status 201 "an impression with Sec-GPC: 1: 201"
cgi HTTP_SEC_GPC=1 POST consent "" '{"site_key":"s1","anon_id":"bad","categories":{"nope":true},"event_type":"initial"}'
expect_status 400 "a refused entry with Sec-GPC: 1: 400, nothing stored"

hash() { printf '%s' "$1" | sha256sum | cut -d' ' -f1; }
check test "$(db "SELECT gpc FROM consent_log WHERE anon_id_hash = '$(hash with-gpc)'")" = 1 "Sec-GPC: 1 stored as 1"
check test "$(db "SELECT gpc FROM consent_log WHERE anon_id_hash = '$(hash gpc-zero)'")" = 0 "Sec-GPC: 0 stored as 0"
check test "$(db "SELECT gpc FROM consent_log WHERE anon_id_hash = '$(hash no-header)'")" = 0 "no header stored as 0 (recorded: not sent)"
check test "$(db "SELECT count(*) FROM consent_log WHERE gpc = 0")" = 8 "every value but exactly 1 is false"
check test "$(db "SELECT count(*) FROM consent_log WHERE gpc IS NULL")" = 0 "the endpoint never stores NULL"

# --- export: JSONL ---------------------------------------------------------------
run consent export s1
check test "$rc" = 0 -a "$(wc -l < "$T/out" | tr -d ' ')" = 10 "export: ten entries"
check test "$(jq -s -c 'map(.gpc)' "$T/out")" = '[true,false,false,false,false,false,false,false,false,true]' "JSONL: gpc is a boolean on every entry, in storage order"
check test "$(jq -s -c --arg h "$(hash with-gpc)" 'map(select(.anon_id_hash == $h) | .gpc)' "$T/out")" = '[true]' "JSONL: the entry sent with Sec-GPC: 1 says true"
check test "$(jq -s -c --arg h "$(hash no-header)" 'map(select(.anon_id_hash == $h) | .gpc)' "$T/out")" = '[false]' "JSONL: the entry without the header says false"

# --- export: CSV -----------------------------------------------------------------
run consent export s1 --format csv
head -n 1 "$T/out" | tr -d '\r' | tr ',' '\n' > "$T/cols"
check test "$(wc -l < "$T/cols" | tr -d ' ')" = 28 "CSV: 28 columns"
check test "$(sed -n 24p "$T/cols")" = gpc "CSV: gpc is the 24th column, after the 23 of version 2"
check test "$(sed 1d "$T/out" | tr -d '\r' | awk -F, '{ print $(NF - 4) }' | tr '\n' ' ')" = "true false false false false false false false false true " "CSV: gpc true/false per entry (before config_sha256, digest, seal, builtin_sha256)"

# --- stats -----------------------------------------------------------------------
run stats s1 --json
check test "$(jq -c '[.by_gpc, .gpc_percent]' "$T/out")" = '[{"sent":2,"not_sent":8,"not_recorded":0},20]' "stats --json: counts by signal and its share in percent"
run stats s1
check grep -q '^by_gpc.sent  *2$' "$T/out" "stats (plain): by_gpc.sent"
check grep -q '^by_gpc.not_sent  *8$' "$T/out" "stats (plain): by_gpc.not_sent"
check grep -q '^gpc_percent  *20$' "$T/out" "stats (plain): gpc_percent"
cgi HTTP_SEC_GPC=1 POST consent "" "$(entry third)"
check test "$(ctl stats s1 --json | jq -c '.gpc_percent')" = 27.3 "gpc_percent has one decimal (3 of 11)"
run stats s2 --json
check test "$(jq -c '[.by_gpc, .gpc_percent]' "$T/out")" = '[{"sent":0,"not_sent":0,"not_recorded":0},null]' "stats of a site without entries: zeros, percent null"
db "INSERT INTO consent_log (site_id, created_at, anon_id_hash, categories, event_type, published_version, device_type)
    VALUES (2, '2026-01-01T00:00:00.000Z', '$(hash old)', '{}', 'impression', 0, 'desktop')"
check test "$(ctl stats s2 --json | jq -c '[.by_gpc, .gpc_percent]')" = '[{"sent":0,"not_sent":0,"not_recorded":1},null]' "an entry without the column's value counts as not recorded"
check test "$(ctl consent export s2 | jq -c .gpc)" = null "JSONL: not recorded is null"
check test "$(ctl consent export s2 --format csv | sed -n 2p | tr -d '\r' | awk -F, '{ print $NF }')" = "" "CSV: not recorded is empty"
db "INSERT INTO consent_log (site_id, created_at, anon_id_hash, categories, event_type, published_version, device_type, gpc)
    VALUES (2, '2026-01-01T00:00:00.000Z', '$(hash x)', '{}', 'impression', 0, 'desktop', 2)" 2>/dev/null
check test "$(db "SELECT count(*) FROM consent_log WHERE gpc = 2")" = 0 "the schema refuses a gpc other than 0, 1 or NULL"
