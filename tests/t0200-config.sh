#!/bin/bash
# t0200-config.sh: GET /functions/v1/config, errors and the response shape (spec 4.1, 7).
. "$(dirname "$0")/setup.sh"

site s1
ctl site add paused1 --name "Paused" --domain example.com >/dev/null
ctl site pause paused1 >/dev/null

# --- errors of spec section 7, word for word -------------------------------
cgi GET config ""
expect_error 400 "site_key is required" "no site_key: 400"
cgi GET config "site_key="
expect_error 400 "site_key is required" "empty site_key: 400"
cgi GET config "site_key=$(printf 'k%.0s' $(seq 65))"
expect_error 400 "site_key is required" "65-character site_key: 400"
cgi GET config "site_key=$(printf 'k%.0s' $(seq 64))"
expect_error 404 "Site not found" "64-character unknown site_key: 404"
cgi GET config "site_key=s%C3%A9"
expect_error 400 "site_key is required" "non-ASCII site_key: 400"
cgi GET config "site_key=s1%00"
expect_error 400 "site_key is required" "NUL in site_key: 400"
cgi GET config "site_key=s1%zz"
expect_error 400 "site_key is required" "broken escape in site_key: 400"
cgi GET config "site_key=s1%2"
expect_error 400 "site_key is required" "truncated escape in site_key: 400"
cgi GET config "site_key=a%20b"
expect_error 400 "site_key is required" "space in site_key: 400"
cgi GET config "site_key=nosuch"
expect_error 404 "Site not found" "unknown site: 404"
ORIGIN= cgi GET config "site_key=s1"
expect_error 403 "Missing Origin header" "no Origin: 403"
ORIGIN=https://other.org cgi GET config "site_key=s1"
expect_error 403 "Origin not registered for this site" "unregistered Origin: 403"
cgi GET config "site_key=paused1"
expect_error 403 "Site is paused" "paused site: 403"
ORIGIN= cgi GET config "site_key=paused1"
expect_error 403 "Missing Origin header" "Origin is checked before the pause"
cgi GET config "site_key=nosuch&site_key=s1"
expect_error 404 "Site not found" "first site_key wins"
# (PostgreSQL: a database the cluster does not have, through pgbouncer.)
if store_is_postgres; then missing="host=$CONSENT_PG_DIR port=6432 dbname=${PG_DB}_missing user=consent"
else missing=$T/missing.db; fi
cgi CONSENT_DB="$missing" GET config "site_key=s1"
expect_error 500 "Internal server error" "missing database: 500"
check grep -q "database" "$T/stderr" "missing database: one line on stderr"

# --- methods, CORS, headers -------------------------------------------------
cgi POST config "site_key=s1" '{}'
expect_error 405 "Method not allowed" "POST: 405"
expect_header Allow "GET, HEAD, OPTIONS" "405 names the allowed methods"
cgi DELETE config "site_key=s1"
expect_error 405 "Method not allowed" "DELETE: 405"
cgi OPTIONS config ""
expect_status 204 "OPTIONS preflight: 204"
check test ! -s "$T/body" "OPTIONS: no body"
expect_header Access-Control-Allow-Methods "GET, POST, OPTIONS" "preflight allows the methods"
expect_header Access-Control-Allow-Headers "authorization, x-client-info, apikey, content-type" "preflight allows the headers"
expect_header Access-Control-Max-Age "86400" "preflight max age"
expect_header Access-Control-Allow-Origin "https://example.com" "preflight echoes the Origin"

cgi GET config "site_key=s1"
expect_status 200 "published-nothing site: 200"
expect_header Content-Type "application/json; charset=utf-8" "Content-Type"
expect_header Cache-Control "private, no-store" "Cache-Control"
expect_header Access-Control-Allow-Origin "https://example.com" "CORS echoes the Origin"
expect_header Vary "Origin" "Vary: Origin"
check test "$(header Content-Length)" = "$(wc -c < "$T/body" | tr -d ' ')" "Content-Length matches the body"

cgi GET config "site_key=nosuch"
expect_header Access-Control-Allow-Origin "https://example.com" "CORS on errors too"
expect_header Cache-Control "private, no-store" "Cache-Control on errors too"
ORIGIN= cgi GET config "site_key=s1"
expect_header Access-Control-Allow-Origin "*" "no Origin: CORS *"
ORIGIN=null cgi GET config "site_key=s1"
expect_header Access-Control-Allow-Origin "*" "Origin null is not echoed"
expect_error 403 "Origin not registered for this site" "Origin null: not registered"
ORIGIN=$'https://example.com\r\nSet-Cookie: a=b' cgi GET config "site_key=s1"
expect_header Access-Control-Allow-Origin "*" "CR/LF Origin is not echoed"
check test "$(grep -ci '^Set-Cookie' "$T/headers")" = 0 "CR/LF Origin cannot add a header"
expect_error 403 "Origin not registered for this site" "CR/LF Origin: not registered"

cgi HEAD config "site_key=s1"
expect_status 200 "HEAD: 200"
check test ! -s "$T/body" "HEAD: no body"
check test -n "$(header Content-Length)" "HEAD: Content-Length of the GET body"

# --- the 200 body -----------------------------------------------------------
cgi GET config "site_key=s1"
expect_json 'keys' '["config","resolvedContent","resolvedDirection","resolvedLanguage","resolvedRegion","resolvedUi","scriptRules","sdkCategories","showBranding","site_name","version"]' "every field of spec 4.1, and resolvedDirection"
expect_json 'keys_unsorted[3:5]' '["resolvedLanguage","resolvedDirection"]' "resolvedDirection right after resolvedLanguage"
expect_json '.resolvedDirection' '"ltr"' "English: ltr"
expect_json '.config.content.translations | keys' '["en"]' "nothing published, English: config holds the English texts only"
expect_json '.version' '0' "unpublished: version 0"
expect_json '.site_name' '"Site s1"' "site_name"
expect_json '.showBranding' 'true' "free tier shows branding"
expect_json '.config | keys | map(select(. == "appearance" or . == "content" or . == "categories" or . == "regions" or . == "consentRules")) | length' '5' "defaults hold the five groups"
expect_json '[.sdkCategories[] | select(.id == "necessary") | .consentModel]' '["exempt"]' "defaults: necessary is exempt"
expect_json '.resolvedContent | keys' '["acceptAllText","closeText","customizeText","description","rejectAllText","savePreferencesText","title"]' "resolvedContent has exactly the seven keys"
expect_json '[.resolvedContent[] | type] | unique' '["string"]' "resolvedContent values are strings"
expect_json '.resolvedUi.required | type' '"string"' "resolvedUi.required"
expect_json '.sdkCategories[0] | keys' '["consentModel","description","id","name"]' "category fields of spec 2.3"

ctl site set s1 --tier paid >/dev/null
cgi GET config "site_key=s1"
expect_json '.showBranding' 'false' "paid tier: no branding"

ctl config publish s1 "$TOP/tests/fixtures/config-test.json" >/dev/null
cgi GET config "site_key=s1"
expect_json '.version' '1' "published: version 1"
expect_json '.config.customKey' '{"kept":true}' "unknown keys returned as published"
expect_json '.scriptRules' '[{"pattern":"google-analytics.com","category":"analytics"},{"pattern":"doubleclick.net","category":"ads"}]' "scriptRules"
ctl config publish s1 "$TOP/tests/fixtures/config-test.json" >/dev/null
cgi GET config "site_key=s1"
expect_json '.version' '2' "published twice: version 2"
ctl config publish s1 "$TOP/tests/fixtures/config-noregions.json" >/dev/null
cgi GET config "site_key=s1"
expect_json '.version' '3' "version 3"
expect_json '.scriptRules' '[]' "no scriptRules: []"
expect_json '.resolvedRegion' 'null' "no regions: resolvedRegion null"
expect_json '[.sdkCategories[] | .consentModel]' '["exempt","opt_in"]' "no region: the category's own model, else opt_in"
expect_json '.resolvedLanguage' '"en"' "no translations: en"
expect_json '.resolvedContent.acceptAllText | length > 0' 'true' "gaps filled from built-in English"

# --- the monthly cap --------------------------------------------------------
ctl site add capped --name Capped --domain example.com --mau-cap 0 >/dev/null
cgi GET config "site_key=capped"
expect_status 200 "cap reached: 200"
expect_json '.' '{"disabled":true,"reason":"cap_exceeded"}' "cap reached: the disabled body"
ctl site set capped --tier paid >/dev/null
cgi GET config "site_key=capped"
expect_json '.version' '0' "paid site ignores the cap"
ctl site add envcap --name EnvCap --domain example.com >/dev/null
cgi CONSENT_MAU_CAP=0 GET config "site_key=envcap"
expect_json '.reason' '"cap_exceeded"' "CONSENT_MAU_CAP applies to sites without a cap"
cgi CONSENT_MAU_CAP=junk GET config "site_key=envcap"
expect_json '.version' '0' "malformed CONSENT_MAU_CAP: the default cap"

# --- hostile input ----------------------------------------------------------
long=$(head -c 9000 /dev/zero | tr '\0' 'a')
cgi HTTP_ACCEPT_LANGUAGE="$long" GET config "site_key=s1&lang=${long:0:300}"
expect_status 200 "9 KB Accept-Language and a 300-byte lang: still 200"
expect_json '.resolvedLanguage' '"en"' "overlong language inputs are ignored"
cgi GET config "site_key=envcap&region=${long:0:100}&lang=%ff%fe"
expect_status 200 "overlong region, invalid UTF-8 lang: 200"
expect_json '.resolvedRegion' '"default"' "overlong region: the default region"
cgi GET config "site_key=s1&lang=$long"
expect_error 400 "site_key is required" "query over 8 KiB is ignored whole"
cgi GET config "&&&=&site_key=s1&&"
expect_status 200 "stray separators in the query"
cgi GET config "$long"
expect_error 400 "site_key is required" "9 KB query without site_key"
