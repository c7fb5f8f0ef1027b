#!/bin/bash
# t0500-scripts.sh: POST /functions/v1/scripts, inventory, categories, syncs (spec 4.3, 7; CONTRACT 7).
. "$(dirname "$0")/setup.sh"

site s1
site s2
site s3
ctl site add paused1 --name Paused --domain example.com >/dev/null
ctl site pause paused1 >/dev/null

report() { # site entries-json [extra-members]
	printf '{"site_key":"%s","page_url":"https://example.com/p","timestamp":1763800000%s,"scripts":%s}' "$1" "${3:+,$3}" "$2"
}
rec() { # site domain jq-expression: the field of one record in `scripts list --json`
	ctl scripts list "$1" --json | jq -c --arg d "$2" ".[] | select(.domain == \$d) | $3"
}
e() { # domain [category-json] [blocked] [src]
	printf '{"src":"%s","domain":"%s","category":%s,"blocked":%s}' "${4:-https://$1/x.js}" "$1" "${2:-null}" "${3:-false}"
}

# --- success, upsert and counts ---------------------------------------------
cgi POST scripts "" "$(report s1 "[$(e www.google-analytics.com),$(e cdn.example.org '"functional"' true)]")"
expect_status 200 "report: 200"
expect_json '.' '{"success":true}' "body {\"success\":true}"
expect_header Access-Control-Allow-Origin "https://example.com" "CORS echoes the Origin"
expect_header Cache-Control "private, no-store" "Cache-Control"
check test "$(ctl scripts list s1 --json | jq length)" = 2 "two records"
check test "$(rec s1 www.google-analytics.com '[.category,.blocked,.seen_count]')" = '["analytics",false,1]' "parent-domain match: www.google-analytics.com is analytics"
check test "$(rec s1 cdn.example.org '[.category,.blocked]')" = '["functional",true]' "unknown domain: the client's guess when it is a category id"
first=$(rec s1 cdn.example.org .first_seen)
sleep 0.01
cgi POST scripts "" "$(report s1 "[$(e CDN.Example.org null false https://cdn.example.org/v2.js),$(e cdn.example.org null false https://cdn.example.org/v3.js)]")"
expect_status 200 "second report: 200"
check test "$(rec s1 cdn.example.org '[.category,.blocked,.seen_count,.last_src]')" = '["functional",false,2,"https://cdn.example.org/v3.js"]' "upsert: lower-cased, counted once per report, last src and blocked, previous category kept"
check test "$(rec s1 cdn.example.org .first_seen)" = "$first" "first_seen kept"
check test "$(rec s1 cdn.example.org '.last_seen > .first_seen')" = true "last_seen moves"
check test "$(ctl scripts list s1 --json | jq length)" = 2 "no duplicate record"
for i in 1 2 3; do cgi POST scripts "" "$(report s1 "[$(e cdn.example.org)]")"; done
check test "$(rec s1 cdn.example.org .seen_count)" = 5 "seen_count over repeated reports"

# --- category precedence -----------------------------------------------------
cgi POST scripts "" "$(report s1 "[$(e connect.facebook.net '"analytics"')]")"
check test "$(rec s1 connect.facebook.net .category)" = '"marketing"' "built-in database over the client's guess"
cgi POST scripts "" "$(report s1 "[$(e googletagmanager.com)]")"
check test "$(rec s1 googletagmanager.com .category)" = '"functional"' "googletagmanager.com is functional"
cgi POST scripts "" "$(report s1 "[$(e widget.example.net '"advertising"')]")"
check test "$(rec s1 widget.example.net .category)" = 'null' "a guess that is no category id is ignored"
cgi POST scripts "" "$(report s1 "[$(e widget.example.net '"marketing"')]")"
cgi POST scripts "" "$(report s1 "[$(e widget.example.net null)]")"
check test "$(rec s1 widget.example.net .category)" = '"marketing"' "no guess keeps the previous category"
cgi POST scripts "" "$(report s1 "[$(e notgoogle-analytics.com)]")"
check test "$(rec s1 notgoogle-analytics.com .category)" = 'null' "look-alike domain is not matched"
cgi POST scripts "" "$(report s1 "[$(e google-analytics.com.evil.net)]")"
check test "$(rec s1 google-analytics.com.evil.net .category)" = 'null' "suffix look-alike is not matched"
cgi POST scripts "" "$(report s1 "[$(e a.b.doubleclick.net)]")"
check test "$(rec s1 a.b.doubleclick.net .category)" = '"marketing"' "deep subdomain matched on a parent"

# --- syncs ---------------------------------------------------------------------
sync=$(ctl sync start s1)
check sh -c "echo '$sync' | grep -Eq '^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\$'" "sync start prints a v4 UUID"
check test "$(ctl sync show "$sync" --json | jq -r .status)" = pending "new sync is pending"
upper=$(echo "$sync" | tr a-f A-F)
cgi POST scripts "sync_id=$upper" "$(report s1 "[]")"
expect_status 200 "report with an upper-case sync_id: 200"
check test "$(ctl sync show "$sync" --json | jq -r .status)" = complete "sync complete"
sync2=$(ctl sync start s1)
cgi POST scripts "sync_id=$sync2" "$(report s1 "[]" '"error":"CSP blocked the scan"')"
check test "$(ctl sync show "$sync2" --json | jq -c '[.status,.error]')" = '["failed","CSP blocked the scan"]' "sync failed with the error text"
# Issue 10, defect 3: a finished sync is not rewritten by a later report.
done1=$(ctl sync show "$sync" --json | jq -c '[.status,.error,.finished_at,.page_url]')
sleep 0.01
cgi POST scripts "sync_id=$sync" "{\"site_key\":\"s1\",\"page_url\":\"https://example.com/later\",\"timestamp\":1,\"scripts\":[],\"error\":\"late\"}"
expect_status 200 "a report for a complete sync: still 200"
check test "$(ctl sync show "$sync" --json | jq -c '[.status,.error,.finished_at,.page_url]')" = "$done1" "a complete sync keeps its status, time and page"
failed1=$(ctl sync show "$sync2" --json | jq -c '[.status,.error,.finished_at,.page_url]')
cgi POST scripts "sync_id=$sync2" "$(report s1 "[]")"
check test "$(ctl sync show "$sync2" --json | jq -c '[.status,.error,.finished_at,.page_url]')" = "$failed1" "a failed sync stays failed"
sync3=$(ctl sync start s2)
cgi POST scripts "sync_id=$sync3" "$(report s1 "[]")"
expect_status 200 "sync of another site: still 200"
check test "$(ctl sync show "$sync3" --json | jq -r .status)" = pending "sync of another site is left alone"
cgi POST scripts "sync_id=00000000-0000-4000-8000-000000000000" "$(report s1 "[]")"
expect_status 200 "unknown well-formed sync_id: 200, nothing changes"
sync4=$(ctl sync start s1)
sync5=$(ctl sync start s1)
cgi POST scripts "sync_id=$sync4" "$(report s1 "[]" "\"sync_id\":\"$sync5\"")"
check test "$(ctl sync show "$sync4" --json | jq -r .status)/$(ctl sync show "$sync5" --json | jq -r .status)" = complete/pending "query sync_id wins over the body's"
cgi POST scripts "" "$(report s1 "[]" "\"sync_id\":\"$sync5\"")"
check test "$(ctl sync show "$sync5" --json | jq -r .status)" = complete "deprecated body sync_id still works"
for bad in "{$sync}" "urn:uuid:$sync" "$(echo "$sync" | tr -d -)" "${sync%?}" "${sync}0" "12345" "" "%zz" "$(echo "$sync" | sed 's/^./g/')"; do
	cgi POST scripts "sync_id=$bad" "$(report s1 "[]")"
	expect_error 400 "Invalid sync_id format" "sync_id '$bad' refused"
done
cgi POST scripts "" "$(report s1 "[]" '"sync_id":"nope"')"
expect_error 400 "Invalid sync_id format" "malformed body sync_id refused"

# --- errors of spec section 7 --------------------------------------------------
cgi GET scripts ""
expect_error 405 "Method not allowed" "GET: 405"
expect_header Allow "POST, OPTIONS" "405 names the allowed methods"
cgi OPTIONS scripts ""
expect_status 204 "OPTIONS: 204"
cgi POST scripts "" "$(report nosuch "[]")"
expect_error 404 "Site not found" "unknown site: 404"
ORIGIN= cgi POST scripts "" "$(report s1 "[]")"
expect_error 403 "Missing Origin header" "no Origin: 403"
ORIGIN=https://evilexample.com cgi POST scripts "" "$(report s1 "[]")"
expect_error 403 "Origin not registered for this site" "unregistered Origin: 403"
cgi POST scripts "" "$(report paused1 "[$(e cdn.example.org)]")"
expect_status 200 "paused site: reports still accepted"
cgi POST scripts "" '{"site_key":"s1"'
expect_error 400 "Invalid JSON body" "invalid JSON: 400"
cgi CONTENT_LENGTH=65537 POST scripts "" "$(report s1 "[]")"
expect_error 413 "Payload too large" "over 64 KiB: 413"
# (PostgreSQL: a database the cluster does not have, through pgbouncer.)
if store_is_postgres; then missing="host=$CONSENT_PG_DIR port=6432 dbname=${PG_DB}_missing user=consent"
else missing=$T/missing.db; fi
cgi CONSENT_DB="$missing" POST scripts "" "$(report s1 "[]")"
expect_error 500 "Internal server error" "missing database: 500"

# --- fields and limits at the boundary ----------------------------------------
n0=$(ctl scripts list s1 --json | jq length)
bad() { # body expected-error description
	cgi POST scripts "" "$1"
	expect_error 400 "$2" "$3"
}
bad '{"site_key":"s1","timestamp":1,"scripts":[]}' "page_url is required" "no page_url"
bad '{"site_key":"s1","page_url":"https://example.com/","scripts":[]}' "timestamp is required" "no timestamp"
bad '{"site_key":"s1","page_url":"https://example.com/","timestamp":1}' "scripts is required" "no scripts"
bad '{"site_key":"s1","page_url":"https://example.com/","timestamp":"1","scripts":[]}' "timestamp must be a number from 0 to 253402300799999" "string timestamp"
bad '{"site_key":"s1","page_url":"https://example.com/","timestamp":1,"scripts":{}}' "scripts must be an array" "scripts object"
bad '{"site_key":"s1","page_url":"https://example.com/","timestamp":1,"scripts":[1]}' "scripts[0] must be an object" "entry not an object"
bad "$(report s1 '[{"src":"x","category":null,"blocked":false}]')" "scripts[0].domain is required" "entry without domain"
bad "$(report s1 '[{"domain":"a.com","category":null}]')" "scripts[0].blocked is required" "entry without blocked"
bad "$(report s1 '[{"domain":"a.com","category":null,"blocked":"no"}]')" "scripts[0].blocked must be a boolean" "string blocked"
bad "$(report s1 '[{"domain":"a.com","category":7,"blocked":false}]')" "scripts[0].category must be a string" "numeric category"
bad "$(report s1 '[{"domain":"a b.com","blocked":false}]')" "scripts[0].domain must be a host name" "domain with a space"
# Issue 10, defect 2: a domain is parsed as a host: a port is dropped,
# anything that is not a host name is refused.
cgi POST scripts "" "$(report s3 "[$(e www.google-analytics.com:443)]")"
expect_status 200 "domain with a port: 200"
check test "$(ctl scripts list s3 --json | jq -c '[.[] | [.domain, .category]]')" = '[["www.google-analytics.com","analytics"]]' "the port is dropped: one record, categorised"
cgi POST scripts "" "$(report s3 "[$(e 'WWW.Google-Analytics.com.')]")"
check test "$(ctl scripts list s3 --json | jq -c '[.[] | [.domain, .seen_count]]')" = '[["www.google-analytics.com",2]]' "case and a trailing dot fold into the same record"
cgi POST scripts "" "$(report s3 "[$(e '[2001:DB8::1]:8443')]")"
check test "$(rec s3 '[2001:db8::1]' .seen_count)" = 1 "an IPv6 literal with a port: stored without it"
cgi POST scripts "" "$(report s3 "[$(e tag_manager.example.net)]")"
expect_status 200 "an underscore in a label: 200 (browsers allow it in URL.host)"
for d in ']..[:::' 'a..b.com' '.example.com' 'example.com:0' 'example.com:99999' 'example.com:' '[::1' '1.2.3.999' 'a:b:c'; do
	bad "$(report s3 "[$(e "$d")]")" "scripts[0].domain must be a host name" "domain '$d' refused"
done
check test "$(ctl scripts list s3 --json | jq length)" = 3 "refused domains stored nothing"
bad "$(report s1 '[]' '"error":17')" "error must be a string" "numeric error"
p500="https://example.com/$(printf 'p%.0s' $(seq 480))"
cgi POST scripts "" "{\"site_key\":\"s1\",\"page_url\":\"$p500\",\"timestamp\":1,\"scripts\":[]}"
expect_status 200 "page_url of 500: 200"
bad "{\"site_key\":\"s1\",\"page_url\":\"${p500}p\",\"timestamp\":1,\"scripts\":[]}" "page_url must be at most 500 characters" "page_url of 501"
err500=$(printf 'e%.0s' $(seq 500))
cgi POST scripts "" "$(report s1 "[]" "\"error\":\"$err500\"")"
expect_status 200 "error of 500: 200"
bad "$(report s1 "[]" "\"error\":\"${err500}e\"")" "error must be at most 500 characters" "error of 501"
src2000="https://cdn.example.org/$(printf 's%.0s' $(seq 1976))"
cgi POST scripts "" "$(report s1 "[$(e cdn.example.org null false "$src2000")]")"
expect_status 200 "src of 2000: 200"
bad "$(report s1 "[$(e cdn.example.org null false "${src2000}s")]")" "scripts[0].src must be at most 2000 characters" "src of 2001"
d500="$(printf 'd%.0s' $(seq 496)).com"
bad "$(report s1 "[$(e "$d500")]")" "scripts[0].domain must be a host name" "domain of 500 with a label of 496: not a host name"
bad "$(report s1 "[$(e "d$d500")]")" "scripts[0].domain must be at most 500 characters" "domain of 501"
d253="$(printf 'abcdefghi.%.0s' $(seq 25))com"
cgi POST scripts "" "$(report s1 "[$(e "$d253")]")"
expect_status 200 "a host name of 253 characters: 200"
hundred=$(for i in $(seq 100); do e "h$i.example.org"; printf ','; done | sed 's/,$//')
cgi POST scripts "" "$(report s1 "[$hundred]")"
expect_status 200 "100 entries: 200"
bad "$(report s1 "[$hundred,$(e h101.example.org)]")" "scripts must have at most 100 entries" "101 entries"
check test "$(ctl scripts list s1 --json | jq length)" = "$((n0 + 101))" "failed reports stored nothing"
check test "$(rec s1 h101.example.org .domain)" = "" "the 101st entry was not stored"
