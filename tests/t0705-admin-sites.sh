#!/bin/bash
# t0705-admin-sites.sh: the dashboard's sites, domains, pause, configs and preview (ADMIN.md 5-7, docs/admin-api.md).
. "$(dirname "$0")/setup.sh"
. "$TOP/tests/admin.sh"

PW=Owner-pass-9x7kq!
admin_store_prepare
admin_setup owner "$PW" || exit 1
OWNER_COOKIE=$COOKIE OWNER_CSRF=$CSRF
as() { eval "COOKIE=\$${1}_COOKIE CSRF=\$${1}_CSRF"; }

# --- sites ---------------------------------------------------------------------
api POST sites '{"key":"shop","name":"Shop","domains":["https://WWW.Shop.example:443/x"],"retention_days":30}'
expect_status 201 "an owner of every site creates a site"
expect_api_headers "POST sites has the API's headers"
expect_json '[.key, .name, .tier, .paused, .version, .retention_days, .role]' \
    '["shop","Shop","free",false,0,30,"owner"]' "the new site: free, unpaused, unpublished, its retention"
expect_json .domains '["www.shop.example"]' "its domain normalised as domain add does"
expect_json .script_tag \
    '"<script src=\"https://dash.example.test/sdk/consent.js\" data-site-key=\"shop\"></script>"' \
    "the script tag to paste, from the dashboard's own origin"
api POST sites '{"key":"shop","name":"Again"}'
expect_error 409 "Site already exists"
api POST sites '{"key":"bad key","name":"X"}'
expect_error 400 "key must be 1-64 characters of A-Za-z0-9_-"
api POST sites '{"key":"x","name":"X","tier":"gold"}'
expect_error 400 "tier must be free or paid"
api POST sites '{"key":"x","name":"X","mau_cap":-1}'
expect_status 400 "a negative cap is refused"
api POST sites '{"key":"x","name":"X\u0007"}'
expect_status 400 "a name with a control character is refused (consentctl's rule)"
api POST sites '{"key":"x","name":"X","domains":["not a host"]}'
expect_error 400 "domains must be host names such as example.com"
api GET sites/x
expect_error 404 "Site not found"
ctl site show x > /dev/null 2>&1
check test $? -ne 0 "no refused site was created"
api POST sites '{"key":"other","name":"Other","tier":"paid","mau_cap":null}'
expect_json '[.tier, .mau_cap]' '["paid",null]' "a paid site without a cap of its own"

api CONSENT_BASE_URL=https://consent.example.net/ GET sites/shop
expect_json .script_tag \
    '"<script src=\"https://consent.example.net/sdk/consent.js\" data-site-key=\"shop\"></script>"' \
    "CONSENT_BASE_URL gives the script tag's base"
api CONSENT_BASE_URL='https://consent.example.net/x"><script>' GET sites/shop
expect_json .script_tag \
    '"<script src=\"https://dash.example.test/sdk/consent.js\" data-site-key=\"shop\"></script>"' \
    "a CONSENT_BASE_URL that is no URL is not used"
api REQUEST_URI=/~customer/consent/admin/api/sites/shop GET sites/shop
expect_json .script_tag \
    '"<script src=\"https://dash.example.test/~customer/consent/sdk/consent.js\" data-api=\"https://dash.example.test/~customer/consent\" data-site-key=\"shop\"></script>"' \
    "the API served under a folder (a release uploaded there): the tag's base is that folder, data-api names it"
api REQUEST_URI=/admin/api/sites/shop GET sites/shop
expect_json .script_tag \
    '"<script src=\"https://dash.example.test/sdk/consent.js\" data-site-key=\"shop\"></script>"' \
    "the API at /admin/api/ of the host: no folder, no data-api"
api REQUEST_URI='/a%22b/admin/api/sites/shop' GET sites/shop
expect_json .script_tag \
    '"<script src=\"https://dash.example.test/sdk/consent.js\" data-site-key=\"shop\"></script>"' \
    "a folder with other characters is not used"
api CONSENT_BASE_URL=https://consent.example.net/sub/ GET sites/shop
expect_json .script_tag \
    '"<script src=\"https://consent.example.net/sub/sdk/consent.js\" data-api=\"https://consent.example.net/sub\" data-site-key=\"shop\"></script>"' \
    "CONSENT_BASE_URL with a path: data-api names it (the SDK's API is otherwise its src's origin)"
api HTTPS=off GET sites/shop
expect_json .script_tag \
    '"<script src=\"http://dash.example.test/sdk/consent.js\" data-site-key=\"shop\"></script>"' \
    "http:// when the server says the request is not HTTPS"
api HTTP_HOST='evil.example"><script>' GET sites/shop
expect_json .script_tag null "a Host that is no host gives no script tag"

api PATCH sites/shop '{"name":"Shop 2","tier":"paid","mau_cap":500,"retention_days":null}'
expect_status 200 "PATCH sites/{key}"
expect_json '[.name, .tier, .mau_cap, .retention_days]' '["Shop 2","paid",500,null]' \
    "name, tier, cap changed and retention cleared"
check test "$(ctl site show shop --json | jq -c '[.name, .tier, .mau_cap]')" = '["Shop 2","paid",500]' \
    "consentctl site show sees the change"
api PATCH sites/shop '{}'
expect_error 400 "name, tier, mau_cap or retention_days is required"
api PATCH sites/shop '{"mau_cap":1.5}'
expect_status 400 "a cap that is no integer is refused"
api PATCH sites/shop '{"tier":"free","mau_cap":null}'
expect_json '[.tier, .mau_cap]' '["free",null]' "back to free without a cap of its own"

api GET sites
expect_json '[.sites[] | [.key, .role]]' '[["other","owner"],["shop","owner"]]' \
    "GET sites lists them with the account's role"

# --- domains ---------------------------------------------------------------------
api POST sites/shop/domains '{"domain":"HTTPS://Shop.Example:8443/path?q"}'
expect_status 201 "POST sites/{key}/domains"
expect_json .domain '"shop.example"' "answers the domain as stored"
api POST sites/shop/domains '{"domain":"shop.example"}'
expect_error 409 "Domain already registered"
api POST sites/shop/domains '{"domain":"exa mple.com"}'
expect_error 400 "domain must be a host name such as example.com"
api GET sites/shop/domains
expect_json .domains '["shop.example","www.shop.example"]' "GET sites/{key}/domains"
api DELETE sites/shop/domains '{"domain":"https://shop.example/"}'
expect_status 200 "DELETE sites/{key}/domains, normalised the same way"
api DELETE sites/shop/domains '{"domain":"shop.example"}'
expect_error 404 "Domain not found"
api POST sites/nosuch/domains '{"domain":"a.example"}'
expect_error 404 "Site not found"

# --- pause and resume: the config endpoint follows ----------------------------------
ORIGIN=https://www.shop.example cgi GET config "site_key=shop"
expect_status 200 "the config endpoint answers for the site"
api POST sites/shop/pause '{}'
expect_status 200 "POST sites/{key}/pause"
expect_json .paused true "the site is paused"
ORIGIN=https://www.shop.example cgi GET config "site_key=shop"
expect_error 403 "Site is paused"
api POST sites/shop/resume '{}'
expect_json .paused false "POST sites/{key}/resume"
ORIGIN=https://www.shop.example cgi GET config "site_key=shop"
expect_status 200 "the config endpoint answers again"

# --- configs: built-in, publish, list, read, restore -----------------------------------
api GET sites/shop/configs
expect_json . '{"live":0,"versions":[]}' "nothing published yet"
api GET sites/shop/configs/builtin
expect_json .version 0 "configs/builtin: version 0"
jq -S .document "$T/body" > "$T/builtin.json"
ctl config show shop | jq -S . > "$T/show.json"
check cmp -s "$T/builtin.json" "$T/show.json" "the built-in document is consentctl config show's"
api GET sites/shop/configs/live
jq -S .document "$T/body" > "$T/live.json"
check cmp -s "$T/builtin.json" "$T/live.json" "live with nothing published: the built-in document"
api GET sites/shop/configs/01
expect_error 404 "Version not found"

XSS='<img src=x onerror=alert(1)>'
doc() { # TITLE: a document with English, German and Arabic texts, a gdpr region
	jq -cn --arg t "$1" '{
	  categories: [{id: "necessary", name: "Necessary", consentModel: "exempt"},
	               {id: "analytics", name: "Analytics", description: "Counting visits", consentModel: "opt_in"}],
	  regions: [{id: "gdpr", countries: ["DE", "FR", "EG"], consentModel: "opt_in", defaultLanguage: "de"},
	            {id: "default", countries: ["*"], consentModel: "notice_only"}],
	  content: {defaultLanguage: "en", translations: {
	    en: {banner: {title: $t, description: "We use cookies."}},
	    de: {banner: {title: "Cookies hier", acceptAllText: "Alle akzeptieren"},
	         categories: {analytics: {name: "Statistik"}}},
	    ar: {banner: {title: "ملفات تعريف الارتباط", rejectAllText: "رفض الكل"},
	         ui: {required: "مطلوب"}}}},
	  consentRules: {honorGpc: true},
	  scriptRules: [{pattern: "google-analytics.com", category: "analytics"}]}'
}
doc "$XSS" > "$T/v1.json"
BAD=$(jq -c '.categories[1].id = "Bad!"' "$T/v1.json")
api POST sites/shop/configs "{\"document\":$BAD}"
expect_status 400 "an invalid document is refused"
expect_json .path '"categories[1].id"' "naming the member's path"
printf '%s' "$BAD" > "$T/bad.json"
ctl config publish shop "$T/bad.json" 2> "$T/ctl-err" > /dev/null
check test "$(jq -r .error "$T/body")" = "$(sed -n 's/^consentctl: invalid config: //p' "$T/ctl-err")" \
    "with config publish's own message"
api POST sites/shop/configs '{"document":{"categories":[]},"restore":1}'
expect_error 400 "Either document or restore is required"
api GET sites/shop/configs
expect_json .live 0 "nothing was published by the refusals"

api POST sites/shop/configs "{\"document\":$(cat "$T/v1.json")}"
expect_status 201 "POST sites/{key}/configs publishes"
expect_json .version 1 "as version 1"
api GET sites/shop/configs
expect_json '[.live, (.versions | length), .versions[0].version, .versions[0].by]' '[1,1,1,"owner"]' \
    "the version listed with its publisher"
check grep -Eq '^[0-9]{4}-[0-9]{2}-[0-9]{2}T' <(jq -r '.versions[0].published_at' "$T/body") \
    "and its time"
check test "$(jq -r '.versions[0].sha256' "$T/body")" = "$(jq -cj . "$T/v1.json" | sha256sum | cut -d' ' -f1)" \
    "and the SHA-256 of the document as stored"
api GET sites/shop/configs/1
check test "$(jq -S .document "$T/body")" = "$(jq -S . "$T/v1.json")" "GET configs/1: the document published"
expect_json .by '"owner"' "with who published it"
expect_json .document.content.translations.en.banner.title "$(jq -cn --arg t "$XSS" '$t')" \
    "a published text holding markup comes back unchanged"
check grep -qF '"title":"<img src=x onerror=alert(1)>"' "$T/body" "as a JSON string, byte for byte"
ORIGIN=https://www.shop.example cgi GET config "site_key=shop&lang=en"
expect_json .resolvedContent.title "$(jq -cn --arg t "$XSS" '$t')" \
    "and the config endpoint serves it as the same text"

doc "Version two" > "$T/v2.json"
ctl config publish shop "$T/v2.json" > /dev/null
api GET sites/shop/configs
expect_json '[.versions[].version]' '[2,1]' "newest first"
check grep -q '^consentctl:' <(jq -r '.versions[0].by' "$T/body") "a version consentctl published names it"
CTL_BY=$(jq -r '.versions[0].by' "$T/body")
api GET "audit?site=shop"
check test "$(jq -r '[.entries[] | select(.action == "config.publish" and .version == 2)][0].actor' "$T/body")" \
    = "$CTL_BY" "as its audit record names it"
check test "$(jq -r '[.entries[] | select(.action == "config.publish" and .version == 1)][0].actor' "$T/body")" \
    = owner "the dashboard's publish is recorded with its version and account"

api POST sites/shop/configs '{"restore":1}'
expect_status 201 "restore: version 1 published again"
expect_json .version 3 "as version 3"
api GET sites/shop/configs/live
expect_json .version 3 "live is version 3"
check test "$(jq -S .document "$T/body")" = "$(jq -S . "$T/v1.json")" "holding version 1's document"
api POST sites/shop/configs '{"restore":99}'
expect_error 404 "Version not found"
api GET sites/shop/configs/99
expect_error 404 "Version not found"

# --- the preview is what the config endpoint answers once published -------------------
doc "Draft title" > "$T/draft.json"
DRAFT=$(cat "$T/draft.json")
preview() { # NAME BODY-MEMBERS
	api POST sites/shop/preview "$(jq -cn --argjson d "$DRAFT" --argjson v "$2" '{document: $d} + $v')"
	expect_status 200 "preview $1"
	jq -S . "$T/body" > "$T/preview-$1.json"
}
preview de '{"language":"de"}'
preview ar '{"language":"ar"}'
preview gdpr '{"region":"gdpr"}'
preview country '{"country":"EG","language":"ar"}'
preview none '{}'
api POST sites/shop/preview "$(jq -cn --argjson d "$BAD" '{document: $d, language: "de"}')"
expect_status 400 "an invalid draft is refused"
expect_json .path '"categories[1].id"' "naming the member"
api POST sites/shop/preview "$(jq -cn --argjson d "$DRAFT" '{document: $d, country: "Germany"}')"
expect_status 400 "a country that is no ISO code is refused"
api GET sites/shop/configs
expect_json .live 3 "a preview publishes nothing"

api POST sites/shop/configs "{\"document\":$DRAFT}"
expect_json .version 4 "the draft published"
endpoint() { # NAME QUERY [VAR=value...]
	local _n=$1 _q=$2
	shift 2
	ORIGIN=https://www.shop.example cgi "$@" GET config "site_key=shop${_q:+&$_q}"
	jq -S . "$T/body" > "$T/endpoint-$_n.json"
}
endpoint de "lang=de"
endpoint ar "lang=ar"
endpoint gdpr "region=gdpr"
endpoint country "lang=ar" HTTP_CF_IPCOUNTRY=EG
endpoint none ""
for n in de ar gdpr country none; do
	check cmp -s "$T/preview-$n.json" "$T/endpoint-$n.json" \
	    "preview $n: the whole answer is the config endpoint's after publishing"
done
check test "$(jq -c '[.resolvedLanguage, .resolvedDirection, .resolvedContent.title, .resolvedContent.rejectAllText, .resolvedUi.required]' "$T/preview-ar.json")" \
    = '["ar","rtl","ملفات تعريف الارتباط","رفض الكل","مطلوب"]' "the Arabic preview holds the Arabic texts, over English"
check test "$(jq -c .resolvedContent "$T/preview-ar.json")" != "$(jq -c .resolvedContent "$T/preview-de.json")" \
    "and they are not the German ones"
check test "$(jq -c '[.resolvedLanguage, .resolvedContent.title, .resolvedContent.acceptAllText]' "$T/preview-de.json")" \
    = '["de","Cookies hier","Alle akzeptieren"]' "the German preview holds the German texts"
check test "$(jq -c '[.resolvedRegion, .resolvedLanguage]' "$T/preview-gdpr.json")" = '["gdpr","de"]' \
    "the region's preview: its region and default language"
check test "$(jq -c '[.resolvedRegion, .version]' "$T/preview-country.json")" = '["gdpr",4]' \
    "the country's preview: the region of the country, the version it was published as"

# Pause and cap aside: the preview shows the banner the endpoint then withholds.
api PATCH sites/shop '{"mau_cap":0}'
ORIGIN=https://www.shop.example cgi GET config "site_key=shop"
expect_json . '{"disabled":true,"reason":"cap_exceeded"}' "a free site at its cap: the endpoint answers disabled"
api POST sites/shop/pause '{}'
api POST sites/shop/preview "$(jq -cn --argjson d "$DRAFT" '{document: $d, language: "de"}')"
expect_json .resolvedContent.title '"Cookies hier"' "a paused site at its cap still previews its draft"
api POST sites/shop/resume '{}'
api PATCH sites/shop '{"mau_cap":null}'
expect_json '[.paused, .mau_cap]' '[false,null]' "resumed, its own cap cleared"

# --- roles (ADMIN.md 5) ------------------------------------------------------------------
api POST users '{"username":"ed","password":"Editor-pass-3k9q","roles":{"shop":"editor"}}'
expect_status 201 "an editor of shop"
api POST users '{"username":"vi","password":"Viewer-pass-8m2z","roles":{"shop":"viewer"}}'
expect_status 201 "a viewer of shop"
api POST users '{"username":"ot","password":"Other-pass-5t6y","roles":{"other":"editor"}}'
expect_status 201 "an editor of another site only"
api POST users '{"username":"so","password":"Siteowner-pass-7w","roles":{"shop":"owner"}}'
expect_status 201 "an owner of shop only"

sign_in ed Editor-pass-3k9q
api GET sites
expect_json '[.sites[] | [.key, .role]]' '[["shop","editor"]]' "an editor lists only its site"
api PATCH sites/shop '{"tier":"paid"}'
expect_error 403 "Forbidden"
api PATCH sites/shop '{"name":"Edited","mau_cap":10}'
expect_error 403 "Forbidden"
api PATCH sites/shop '{"name":"Edited"}'
expect_json .name '"Edited"' "an editor changes the name"
api POST sites/shop/configs "{\"document\":$DRAFT}"
expect_json .version 5 "an editor publishes"
api POST sites/shop/pause '{}'
expect_json .paused true "an editor pauses"
api POST sites/shop/resume '{}'
expect_json .paused false "and resumes"
api POST sites '{"key":"mine","name":"Mine"}'
expect_error 403 "Forbidden"
api GET sites/other
expect_error 404 "Site not found"

sign_in vi Viewer-pass-8m2z
api GET sites/shop
expect_json .role '"viewer"' "a viewer reads the site"
api GET sites/shop/configs/5
expect_status 200 "a viewer reads a version"
api POST sites/shop/preview "$(jq -cn --argjson d "$DRAFT" '{document: $d}')"
expect_status 200 "a viewer previews"
api POST sites/shop/configs "{\"document\":$DRAFT}"
expect_error 403 "Forbidden"
api POST sites/shop/configs '{"restore":1}'
expect_error 403 "Forbidden"
api POST sites/shop/domains '{"domain":"v.example"}'
expect_error 403 "Forbidden"
api POST sites/shop/pause '{}'
expect_error 403 "Forbidden"
api PATCH sites/shop '{"name":"Viewed"}'
expect_error 403 "Forbidden"

sign_in ot Other-pass-5t6y
for r in "GET sites/shop" "GET sites/shop/configs" "GET sites/shop/configs/live" "GET sites/shop/domains" \
    "PATCH sites/shop" "POST sites/shop/pause" "POST sites/shop/configs" "POST sites/shop/preview" \
    "DELETE sites/shop/domains"; do
	case $r in
	GET*) api GET "${r#* }" ;;
	*) api ${r% *} "${r#* }" "{\"name\":\"x\",\"domain\":\"x.example\",\"document\":$DRAFT}" ;;
	esac
	expect_error 404 "Site not found"
done
api GET sites
expect_json '[.sites[].key]' '["other"]' "an account without a role on shop does not see it"
api GET sites/nosuch
expect_error 404 "Site not found"

sign_in so Siteowner-pass-7w
SO_SECRET=$(jq -r .secret "$T/body")
sign_in so Siteowner-pass-7w "$(totp "$SO_SECRET")"
expect_status 200 "a site's owner signs in"
api PATCH sites/shop '{"tier":"paid","mau_cap":100}'
expect_json '[.tier, .mau_cap, .role]' '["paid",100,"owner"]' "a site's owner changes tier and cap"
api POST sites '{"key":"mine","name":"Mine"}'
expect_error 403 "Forbidden"
check test "$(ctl site list --json | jq -c '[.[].key]')" = '["other","shop"]' \
    "only owners of every site create sites"

# --- every change was recorded -----------------------------------------------------------
as OWNER
api GET "audit?site=shop"
expect_status 200 "the site's audit records"
for action in site.add site.set site.pause site.resume domain.add domain.remove config.publish; do
	check test "$(jq --arg a "$action" '[.. | objects | select(.action? == $a)] | length' "$T/body")" -gt 0 \
	    "the audit trail holds '$action'"
done
