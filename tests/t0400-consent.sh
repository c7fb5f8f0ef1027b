#!/bin/bash
# t0400-consent.sh: POST /functions/v1/consent, checks and storage (spec 4.2, 7; CONTRACT 7).
. "$(dirname "$0")/setup.sh"
. "$(dirname "$0")/ctl-helpers.sh"

site s1
ctl site add paused1 --name Paused --domain example.com >/dev/null
ctl site pause paused1 >/dev/null

rows() { ctl consent export s1 | wc -l | tr -d ' '; }
good='"site_key":"s1","anon_id":"visitor-1","categories":{"necessary":true,"analytics":false},"event_type":"initial"'

# --- the success path -------------------------------------------------------
cgi POST consent "" "{$good}"
expect_status 201 "valid decision: 201"
expect_json '.' '{"success":true}' "body {\"success\":true}"
expect_header Content-Type "application/json; charset=utf-8" "Content-Type"
expect_header Cache-Control "private, no-store" "Cache-Control"
expect_header Access-Control-Allow-Origin "https://example.com" "CORS echoes the Origin"
check test "$(rows)" = 1 "one row stored"
ctl consent export s1 > "$T/export"
check test "$(jq -r .anon_id_hash "$T/export")" = "$(printf '%s' visitor-1 | sha256sum | cut -d' ' -f1)" "anon_id_hash is the hex SHA-256 of the raw id"
check test "$(jq -c .categories "$T/export")" = '{"necessary":true,"analytics":false}' "categories stored as sent"
check test "$(jq -r .event_type "$T/export")" = initial "event_type stored"
check test "$(jq -c '[.config_version, .published_version, .device_type, .browser, .os, .country]' "$T/export")" = '[null,0,"desktop",null,null,null]' "no UA, no country, unpublished: defaults"
check test "$(jq -r '.created_at | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z$")' "$T/export")" = true "created_at is UTC ISO 8601"
if store_is_postgres; then
	pg_dump_db > "$T/dump.sql" || notok "pg_dump of the test database"
	check test -s "$T/dump.sql" -a "$(grep -c visitor-1 "$T/dump.sql")" = 0 "the raw anon_id is nowhere in a pg_dump of the database"
else
	check sh -c "! grep -q visitor-1 '$CONSENT_DB' '$CONSENT_DB-wal'" "the raw anon_id is nowhere in the database files"
fi
check sh -c "! grep -q visitor-1 '$T/stderr'" "the raw anon_id is not logged"

# Every optional field is stored as sent.
full='"site_key":"s1","anon_id":"v-full","categories":{"analytics":true},"event_type":"update","event_action":"partial","config_version":7,"region":"gdpr","consent_model":"notice_only","regulation":"gdpr","time_to_action_ms":1234.5,"interaction":"save_preferences","preferences_opened":true,"banner_load_time_ms":18,"banner_position":"bottom-full","page_url":"https://example.com/a?b=1","sdk_version":"1.4.2","language":"de-DE","resolved_language":"de"'
cgi POST consent "" "{$full}"
expect_status 201 "every optional field: 201"
ctl consent export s1 | tail -n 1 > "$T/e2"
check test "$(jq -c '[.event_action,.config_version,.region,.consent_model,.regulation,.time_to_action_ms,.interaction,.preferences_opened,.banner_load_time_ms,.banner_position,.page_url,.sdk_version,.language,.resolved_language]' "$T/e2")" = '["partial",7,"gdpr","notice_only","gdpr",1234.5,"save_preferences",true,18,"bottom-full","https://example.com/a?b=1","1.4.2","de-DE","de"]' "optional fields exported as sent"

# text/plain bodies (navigator.sendBeacon) are parsed as JSON too.
cgi CONTENT_TYPE=text/plain POST consent "" "{$good}"
expect_status 201 "text/plain body: 201"

# --- enrichment: User-Agent and country -------------------------------------
ua_iphone='Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1'
ua_win='Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0'
ua_tab='Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Safari/537.36'
ua_ipad='Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'
ua_fx='Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0'
enrich() { # UA country-header expected-json
	ctl site add "e$4" --name E --domain example.com >/dev/null
	cgi HTTP_USER_AGENT="$1" HTTP_CF_IPCOUNTRY="$2" POST consent "" "{\"site_key\":\"e$4\",\"anon_id\":\"x\",\"categories\":{},\"event_type\":\"impression\"}"
	check test "$(ctl consent export "e$4" | jq -c '[.browser,.os,.device_type,.country]')" = "$3" "enrichment: $3"
}
enrich "$ua_iphone" de '["Safari","iOS","mobile","DE"]' 1
enrich "$ua_win" FR '["Edge","Windows","desktop","FR"]' 2
enrich "$ua_tab" US '["Samsung Internet","Android","tablet","US"]' 3
enrich "$ua_ipad" XX '["Safari","iPadOS","tablet",null]' 4
enrich "$ua_fx" 'D1' '["Firefox","Linux","desktop",null]' 5

# --- config link --------------------------------------------------------------
ctl config publish s1 "$TOP/tests/fixtures/config-test.json" >/dev/null
ctl config publish s1 "$TOP/tests/fixtures/config-test.json" >/dev/null
cgi POST consent "" '{"site_key":"s1","anon_id":"v2","categories":{"ads":true},"event_type":"initial","config_version":2}'
expect_status 201 "category of the published config: 201"
check test "$(ctl consent export s1 | tail -n 1 | jq -c '[.config_version,.published_version]')" = '[2,2]' "config link: published version 2 stored"
check test "$(db 'SELECT c.version FROM consent_log l JOIN configs c ON c.id = l.config_id ORDER BY l.id DESC LIMIT 1')" = 2 "config id links to the published row"

# --- errors of spec section 7 ------------------------------------------------
n0=$(rows)
cgi POST consent "" '{"site_key":"s1","anon_id":"v","categories":{"analytics":true,"foo":true,"necessary":true,"bar":false},"event_type":"initial"}'
expect_error 400 "Invalid category ids: foo, bar" "unknown category ids listed in request order"
cgi POST consent "" '{"site_key":"s1","anon_id":"v","categories":{"foo":true},"event_type":"impression"}'
expect_status 201 "impression skips the category check"
n0=$((n0 + 1))
cgi POST consent "" '{"site_key":"nosuch","anon_id":"v","categories":{},"event_type":"initial"}'
expect_error 404 "Site not found" "unknown site: 404"
cgi POST consent "" '{"site_key":"paused1","anon_id":"v","categories":{},"event_type":"initial"}'
expect_error 403 "Site is paused" "paused site: 403"
ORIGIN=https://evilexample.com cgi POST consent "" "{$good}"
expect_error 403 "Origin not registered for this site" "look-alike origin: 403"
ORIGIN=https://example.com.evil.net cgi POST consent "" "{$good}"
expect_error 403 "Origin not registered for this site" "suffix look-alike origin: 403"
ORIGIN=https://shop.example.com cgi POST consent "" '{"site_key":"s1","anon_id":"v","categories":{},"event_type":"impression"}'
expect_status 201 "subdomain origin: 201"
n0=$((n0 + 1))
ORIGIN= cgi POST consent "" "{$good}"
expect_error 403 "Missing Origin header" "no Origin: 403"
cgi GET consent ""
expect_error 405 "Method not allowed" "GET: 405"
expect_header Allow "POST, OPTIONS" "405 names the allowed methods"
cgi PUT consent "" "{$good}"
expect_error 405 "Method not allowed" "PUT: 405"
cgi OPTIONS consent ""
expect_status 204 "OPTIONS: 204"
cgi POST consent "" '{"site_key":"s1",'
expect_error 400 "Invalid JSON body" "invalid JSON: 400"
cgi POST consent "" '[1,2]'
expect_error 400 "Invalid JSON body" "JSON array: 400"
cgi POST consent "" '"text"'
expect_error 400 "Invalid JSON body" "JSON string: 400"
cgi POST consent "" ''
expect_error 400 "Invalid JSON body" "empty body: 400"
cgi POST consent "" "{$good} x"
expect_error 400 "Invalid JSON body" "trailing garbage: 400"
cgi CONTENT_LENGTH=500 POST consent "" "{$good}"
expect_error 400 "Request body is incomplete" "CONTENT_LENGTH larger than the body: 400"
cgi CONTENT_LENGTH= POST consent "" "{$good}"
expect_error 400 "Invalid JSON body" "missing CONTENT_LENGTH reads no body: 400"
cgi CONTENT_LENGTH=12abc POST consent "" "{$good}"
expect_error 400 "Invalid Content-Length" "malformed CONTENT_LENGTH: 400"
cgi CONTENT_LENGTH=65537 POST consent "" "{$good}"
expect_error 413 "Payload too large" "CONTENT_LENGTH over 64 KiB: 413"
cgi CONTENT_LENGTH=99999999999999999999999 POST consent "" "{$good}"
expect_error 413 "Payload too large" "absurd CONTENT_LENGTH: 413"
cgi POST consent "" '{"anon_id":"v","categories":{},"event_type":"initial"}'
expect_error 400 "site_key is required" "no site_key: 400"
cgi POST consent "" '{"site_key":5,"anon_id":"v","categories":{},"event_type":"initial"}'
expect_error 400 "site_key must be a string" "numeric site_key: 400"
cgi POST consent "" '{"site_key":"s 1","anon_id":"v","categories":{},"event_type":"initial"}'
expect_error 400 "site_key must be 1 to 64 characters of A-Za-z0-9_-" "malformed site_key: 400"

# --- each field's type and limit at the boundary -----------------------------
field() { # JSON-members expected-status expected-error description
	cgi POST consent "" "{\"site_key\":\"s1\",$1}"
	if [ "$2" = 201 ]; then
		expect_status 201 "$4"
		n0=$((n0 + 1))
	else
		expect_error "$2" "$3" "$4"
	fi
}
base='"categories":{"analytics":true},"event_type":"initial"'
a100=$(printf 'a%.0s' $(seq 100))
field "\"anon_id\":\"$a100\",$base" 201 "" "anon_id of 100 characters: 201"
field "\"anon_id\":\"${a100}a\",$base" 400 "anon_id must be at most 100 characters" "anon_id of 101: 400"
u100=$(printf 'é%.0s' $(seq 100))
field "\"anon_id\":\"$u100\",$base" 201 "" "anon_id of 100 two-byte characters: 201"
field "\"anon_id\":\"${u100}é\",$base" 400 "anon_id must be at most 100 characters" "anon_id of 101 two-byte characters: 400"
field "\"anon_id\":\"\",$base" 400 "anon_id must not be empty" "empty anon_id: 400"
field "\"anon_id\":12,$base" 400 "anon_id must be a string" "numeric anon_id: 400"
field "$base" 400 "anon_id is required" "no anon_id: 400"
field '"anon_id":"v","event_type":"initial"' 400 "categories is required" "no categories: 400"
field '"anon_id":"v","categories":[],"event_type":"initial"' 400 "categories must be an object" "categories array: 400"
field '"anon_id":"v","categories":{"analytics":"yes"},"event_type":"initial"' 400 "categories.analytics must be a boolean" "non-boolean category: 400"
c50=$(for i in $(seq 50); do printf '"c%d":true,' "$i"; done | sed 's/,$//')
c51="$c50,\"c51\":true"
field "\"anon_id\":\"v\",\"categories\":{$c50},\"event_type\":\"impression\"" 201 "" "50 categories: 201"
field "\"anon_id\":\"v\",\"categories\":{$c51},\"event_type\":\"impression\"" 400 "categories must have at most 50 entries" "51 categories: 400"
field '"anon_id":"v","categories":{"analytics":true,"analytics":false},"event_type":"initial"' 400 "categories has a duplicate key: analytics" "duplicate category: 400"
field '"anon_id":"v","categories":{},"event_type":"click"' 400 "event_type must be one of: initial, update, impression" "bad event_type: 400"
field '"anon_id":"v","categories":{}' 400 "event_type is required" "no event_type: 400"
field "\"anon_id\":\"v\",$base,\"event_action\":\"maybe\"" 400 "event_action must be one of: opt_in, opt_out, partial, acknowledge" "bad event_action: 400"
field "\"anon_id\":\"v\",$base,\"consent_model\":\"implied\"" 400 "consent_model must be one of: opt_in, opt_out, notice, notice_required, notice_only" "bad consent_model: 400"
field "\"anon_id\":\"v\",$base,\"consent_model\":\"notice_required\"" 201 "" "consent_model notice_required: 201"
field "\"anon_id\":\"v\",$base,\"config_version\":\"3\"" 400 "config_version must be an integer from 0 to 2147483647" "string config_version is not coerced: 400"
field "\"anon_id\":\"v\",$base,\"config_version\":1.5" 400 "config_version must be an integer from 0 to 2147483647" "fractional config_version: 400"
field "\"anon_id\":\"v\",$base,\"config_version\":-1" 400 "config_version must be an integer from 0 to 2147483647" "negative config_version: 400"
field "\"anon_id\":\"v\",$base,\"config_version\":1e400" 400 "config_version must be an integer from 0 to 2147483647" "huge config_version: 400"
field "\"anon_id\":\"v\",$base,\"time_to_action_ms\":true" 400 "time_to_action_ms must be a number from 0 to 604800000" "boolean time_to_action_ms: 400"
field "\"anon_id\":\"v\",$base,\"preferences_opened\":1" 400 "preferences_opened must be a boolean" "numeric preferences_opened: 400"
i50=$(printf 'i%.0s' $(seq 50))
field "\"anon_id\":\"v\",$base,\"interaction\":\"$i50\"" 201 "" "interaction of 50: 201"
field "\"anon_id\":\"v\",$base,\"interaction\":\"${i50}i\"" 400 "interaction must be at most 50 characters" "interaction of 51: 400"
p2000="https://example.com/$(printf 'p%.0s' $(seq 1980))"
field "\"anon_id\":\"v\",$base,\"page_url\":\"$p2000\"" 201 "" "page_url of 2000: 201"
field "\"anon_id\":\"v\",$base,\"page_url\":\"${p2000}p\"" 400 "page_url must be at most 2000 characters" "page_url of 2001: 400"
field "\"anon_id\":\"v\",$base,\"event_action\":null" 201 "" "null optional field counts as absent"
field "\"anon_id\":\"v\",$base,\"unknown_field\":[1,2]" 201 "" "unknown fields are ignored"
field "\"anon_id\":\"v\",\"anon_id\":\"w\",$base" 400 "anon_id is given twice" "duplicate field: 400"
field "\"anon_id\":\"a\\u0000b\",$base" 400 "Invalid JSON body" "escaped NUL: 400"
field "\"anon_id\":\"a\\u0007b\",$base" 400 "anon_id must not contain control characters" "control character: 400"
field "\"anon_id\":\"$(printf 'a\377b')\",$base" 400 "anon_id must be valid UTF-8" "invalid UTF-8: 400"
# Issue 10, defect 5: C1 controls (U+0080 to U+009F) fall under the same rule
# as consentctl's, raw or escaped.
field "\"anon_id\":\"v\",$base,\"page_url\":\"$(printf 'https://example.com/\302\205x')\"" 400 "page_url must not contain control characters" "raw C1 control (NEL) in page_url: 400"
field "\"anon_id\":\"a\\u0090b\",$base" 400 "anon_id must not contain control characters" "escaped C1 control in anon_id: 400"
check test "$(rows)" = "$n0" "failed requests left no row"

# --- monthly active users and the cap, end to end ----------------------------
ctl site add cap3 --name Cap3 --domain example.com --mau-cap 3 >/dev/null
ctl site add paid3 --name Paid3 --domain example.com --tier paid --mau-cap 3 >/dev/null
for s in cap3 paid3; do
	for v in 1 2 2 3 4; do
		cgi GET config "site_key=$s"
		echo "$s $v $(jq -c '.disabled // false' < "$T/body")" >> "$T/cap"
		cgi POST consent "" "{\"site_key\":\"$s\",\"anon_id\":\"v$v\",\"categories\":{},\"event_type\":\"impression\"}"
	done
done
check test "$(grep cap3 "$T/cap" | cut -d' ' -f3 | tr '\n' ' ')" = "false false false false true " "free site with cap 3: served until the 3rd distinct visitor, then disabled"
check test "$(grep paid3 "$T/cap" | cut -d' ' -f3 | tr '\n' ' ')" = "false false false false false " "paid site: never disabled"
check test "$(ctl site show cap3 --json | jq .mau)" = 4 "site show counts this month's distinct visitors"

# --- concurrency: 200 parallel POSTs all stored -------------------------------
# (In FastCGI mode: four processes on one socket.)
ctl site add conc --name Conc --domain example.com --tier paid >/dev/null
fcgi_mode && fcgi_proc_start consent 4
for i in $(seq 200); do
	(
		b="{\"site_key\":\"conc\",\"anon_id\":\"p$i\",\"categories\":{\"analytics\":true},\"event_type\":\"initial\"}"
		printf '%s' "$b" | env -i REQUEST_METHOD=POST CONTENT_LENGTH=${#b} HTTP_ORIGIN=https://example.com \
		    CONSENT_DB="$CONSENT_DB" ${ASAN_OPTIONS:+ASAN_OPTIONS=$ASAN_OPTIONS} \
		    "$CGI_BIN/consent" 2>>"$T/conc.err" | head -n 1 > "$T/conc.$i"
	) &
done
wait
check test "$(cat "$T"/conc.* | grep -c '^Status: 201')" = 200 "200 parallel POSTs: all answered 201"
check test "$(ctl consent export conc | wc -l | tr -d ' ')" = 200 "200 parallel POSTs: all 200 rows exported"
if store_is_postgres; then
	skip "integrity_check ok after the burst: SQLite only (PRAGMA integrity_check)"
else
	check test "$(db 'PRAGMA integrity_check')" = ok "integrity_check ok after the burst"
fi
