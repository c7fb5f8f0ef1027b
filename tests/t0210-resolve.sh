#!/bin/bash
# t0210-resolve.sh: GET config resolved by region, language and model (CONTRACT 5, 6).
. "$(dirname "$0")/setup.sh"

site r1
ctl config publish r1 "$TOP/tests/fixtures/config-test.json" >/dev/null
site d1   # nothing published: the built-in defaults

get() { cgi "$@" GET config "site_key=${SITE:-r1}${Q:+&$Q}"; }
region_is() { expect_json '.resolvedRegion' "$1" "$2"; }

# --- region by parameter -----------------------------------------------------
Q="region=us_state_laws" get HTTP_CF_IPCOUNTRY=DE
region_is '"us_state_laws"' "region parameter overrides the country header"
Q="region=nowhere" get
region_is '"default"' "unknown region parameter: the region default"
Q="region=gdpr" get REMOTE_ADDR=198.51.100.7
region_is '"gdpr"' "region parameter: no detection"

# --- region by header, server variable and subdivision -------------------------
get HTTP_CF_IPCOUNTRY=fr
region_is '"gdpr"' "CF-IPCountry fr: gdpr (upper-cased)"
get HTTP_CLOUDFRONT_VIEWER_COUNTRY=GB
region_is '"gdpr"' "CloudFront header: gdpr"
get HTTP_X_VERCEL_IP_COUNTRY=BR
region_is '"brazil"' "Vercel header: brazil"
get HTTP_X_COUNTRY_CODE=US
region_is '"us_state_laws"' "X-Country-Code US, no subdivision: us_state_laws"
get HTTP_CF_IPCOUNTRY=US HTTP_CF_REGION_CODE=CA
region_is '"california"' "US + region CA: the subdivision region first"
get HTTP_CF_IPCOUNTRY=US HTTP_CF_REGION_CODE=TX
region_is '"us_state_laws"' "US + region TX: the country region"
get HTTP_CF_IPCOUNTRY=JP
region_is '"default"' "country in no region: catch-all"
get HTTP_CF_IPCOUNTRY=XX
region_is '"default"' "XX: unknown, catch-all"
get HTTP_CF_IPCOUNTRY=T1
region_is '"default"' "T1 (Tor): unknown, catch-all"
get HTTP_CF_IPCOUNTRY=DEU
region_is '"default"' "three letters do not count"
get GEOIP_COUNTRY_CODE=DE
region_is '"gdpr"' "lighttpd mod_maxminddb variable"
get MM_COUNTRY_CODE=US
region_is '"us_state_laws"' "Apache mod_maxminddb variable"
get CONSENT_COUNTRY_HEADER=HTTP_X_MY_COUNTRY HTTP_X_MY_COUNTRY=de HTTP_CF_IPCOUNTRY=US
region_is '"gdpr"' "CONSENT_COUNTRY_HEADER picks the trusted header"
get CONSENT_COUNTRY_HEADER=none HTTP_CF_IPCOUNTRY=DE
region_is '"default"' "CONSENT_COUNTRY_HEADER=none trusts no header"
get
region_is '"default"' "nothing known: catch-all"

# --- region by MaxMind database, IPv4 and IPv6 ----------------------------------
if perl "$TOP/tests/fixtures/make-mmdb.pl" "$T/country.mmdb" country 2>/dev/null &&
   perl "$TOP/tests/fixtures/make-mmdb.pl" "$T/city.mmdb" city 2>/dev/null; then
	get CONSENT_GEOIP_DB="$T/country.mmdb" REMOTE_ADDR=192.0.2.10
	region_is '"gdpr"' "mmdb IPv4 192.0.2.10 (DE): gdpr"
	get CONSENT_GEOIP_DB="$T/country.mmdb" REMOTE_ADDR=2001:db8:1::5
	region_is '"gdpr"' "mmdb IPv6 2001:db8:1::5 (FR): gdpr"
	get CONSENT_GEOIP_DB="$T/city.mmdb" REMOTE_ADDR=198.51.100.9
	region_is '"california"' "mmdb City IPv4 US-CA: california"
	get CONSENT_GEOIP_DB="$T/city.mmdb" REMOTE_ADDR=2001:db8:2::1
	region_is '"us_state_laws"' "mmdb City IPv6 US-NY: us_state_laws"
	get CONSENT_GEOIP_DB="$T/country.mmdb" REMOTE_ADDR=203.0.113.4
	region_is '"default"' "registered_country only: unknown, catch-all"
	get CONSENT_GEOIP_DB="$T/country.mmdb" REMOTE_ADDR=10.1.2.3
	region_is '"default"' "address not in the database: catch-all"
	get CONSENT_GEOIP_DB="$T/country.mmdb" REMOTE_ADDR=not-an-ip
	region_is '"default"' "malformed REMOTE_ADDR: catch-all"
	get CONSENT_GEOIP_DB="$T/country.mmdb" REMOTE_ADDR=192.0.2.10 HTTP_CF_IPCOUNTRY=US
	region_is '"us_state_laws"' "a header comes before the database"
	get CONSENT_GEOIP_DB="$T/missing.mmdb" REMOTE_ADDR=192.0.2.10
	expect_status 200 "unreadable mmdb: still 200"
	region_is '"default"' "unreadable mmdb: catch-all"
else
	skip "mmdb fixtures: perl MaxMind::DB::Writer missing (Debian: libmaxmind-db-writer-perl)"
fi
if [ -f "$SHARED/data/geoip/GeoIP2-Country-Test.mmdb" ]; then
	get CONSENT_GEOIP_DB="$SHARED/data/geoip/GeoIP2-Country-Test.mmdb" REMOTE_ADDR=2.125.160.216
	region_is '"gdpr"' "MaxMind test database, IPv4 2.125.160.216 (GB): gdpr"
	get CONSENT_GEOIP_DB="$SHARED/data/geoip/GeoIP2-City-Test.mmdb" REMOTE_ADDR=2001:480:10::1
	region_is '"california"' "MaxMind test City database, IPv6 2001:480:10::1 (US-CA): california"
else
	skip "../shared/data/geoip not present: MaxMind test databases not used"
fi

# --- consent model per category ------------------------------------------------
get HTTP_CF_IPCOUNTRY=DE
expect_json '[.sdkCategories[] | [.id, .consentModel]]' '[["necessary","exempt"],["analytics","opt_in"],["ads","opt_in"]]' "gdpr: exempt stays, region model opt_in"
get HTTP_CF_IPCOUNTRY=US
expect_json '[.sdkCategories[] | [.id, .consentModel]]' '[["necessary","exempt"],["analytics","opt_out"],["ads","opt_out"]]' "us_state_laws: categoryModels and region model"
get HTTP_CF_IPCOUNTRY=US HTTP_CF_REGION_CODE=CA
expect_json '[.sdkCategories[] | .consentModel]' '["exempt","notice","opt_out"]' "california: categoryModels notice for analytics"
get HTTP_CF_IPCOUNTRY=BR
expect_json '[.sdkCategories[] | .consentModel]' '["exempt","opt_in","opt_in"]' "region without a model: the category's own"
get HTTP_CF_IPCOUNTRY=JP
expect_json '[.sdkCategories[] | .consentModel]' '["exempt","notice_only","notice_only"]' "catch-all notice_only"

# --- language --------------------------------------------------------------------
Q="lang=fr" get HTTP_ACCEPT_LANGUAGE=de HTTP_CF_IPCOUNTRY=DE
expect_json '.resolvedLanguage' '"fr"' "lang parameter first"
Q="lang=FR-ca" get
expect_json '.resolvedLanguage' '"fr"' "lang matched case-insensitively by primary subtag"
Q="lang=xx" get HTTP_ACCEPT_LANGUAGE="it, fr;q=0.5, de;q=0.9"
expect_json '.resolvedLanguage' '"de"' "unknown lang: Accept-Language by descending q"
get HTTP_ACCEPT_LANGUAGE="de;q=0, fr;q=0.1"
expect_json '.resolvedLanguage' '"fr"' "q=0 is never chosen"
get HTTP_ACCEPT_LANGUAGE="pt-br"
expect_json '.resolvedLanguage' '"pt-BR"' "Accept-Language pt-br matches pt-BR"
get HTTP_ACCEPT_LANGUAGE="it" HTTP_CF_IPCOUNTRY=DE
expect_json '.resolvedLanguage' '"de"' "no match: the region's defaultLanguage"
get HTTP_ACCEPT_LANGUAGE="it" HTTP_CF_IPCOUNTRY=BR
expect_json '.resolvedLanguage' '"pt-BR"' "brazil's defaultLanguage pt-BR"
get HTTP_ACCEPT_LANGUAGE="it" HTTP_CF_IPCOUNTRY=US
expect_json '.resolvedLanguage' '"en"' "no region default: content.defaultLanguage"
get HTTP_ACCEPT_LANGUAGE="q=;;,,;q=9, *"
expect_json '.resolvedLanguage' '"en"' "malformed Accept-Language is skipped"

# --- content, overrides and UI ------------------------------------------------------
Q="lang=de" get HTTP_CF_IPCOUNTRY=DE
expect_json '.resolvedContent.title' '"Cookies hier"' "content in the resolved language"
expect_json '.resolvedContent.description' '"We use cookies."' "gap filled from the default language"
expect_json '.resolvedContent.rejectAllText' '"Nur notwendige"' "the language's override for opt_in applied"
expect_json '.resolvedUi.required' '"Immer aktiv"' "resolvedUi from the language"
expect_json '[.sdkCategories[] | select(.id == "analytics") | .name]' '["Statistik"]' "category name translated"
expect_json '[.sdkCategories[] | select(.id == "analytics") | .description]' '["Stats."]' "untranslated description: the category's own"
Q="lang=en" get HTTP_CF_IPCOUNTRY=US
expect_json '[.resolvedContent.title, .resolvedContent.rejectAllText, .resolvedContent.acceptAllText]' '["Your privacy choices","Do not sell or share","Accept all"]' "opt_out override on top of the banner"
Q="lang=en" get HTTP_CF_IPCOUNTRY=DE
expect_json '.resolvedContent.title' '"Cookies here"' "no override for opt_in in en"
Q="lang=fr" get
expect_json '[.resolvedContent.title, .resolvedContent.closeText]' '["Des cookies","Close"]' "fr: title, rest from the default language"
Q="lang=fr" get
expect_json '.resolvedUi.required' '"Obligatoire"' "resolvedUi falls back to the built-in label of the language"

# --- built-in defaults ------------------------------------------------------------
SITE=d1 get HTTP_CF_IPCOUNTRY=AT
region_is '"gdpr"' "defaults: AT is gdpr"
for c in BE BG CY CZ DE DK EE ES FI FR GR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK IS LI NO GB CH; do
	SITE=d1 get HTTP_CF_IPCOUNTRY=$c
	[ "$(jq -r .resolvedRegion < "$T/body")" = gdpr ] || notok "defaults: $c is not gdpr"
done
ok "defaults: the EU 27, IS, LI, NO, GB and CH are gdpr"
SITE=d1 get HTTP_CF_IPCOUNTRY=US HTTP_CF_REGION_CODE=CA
region_is '"us_state_laws"' "defaults: the whole US is us_state_laws"
SITE=d1 get HTTP_CF_IPCOUNTRY=US
expect_json '[.sdkCategories[] | .consentModel] | unique' '["exempt","opt_out"]' "defaults: US opt_out"
SITE=d1 get HTTP_CF_IPCOUNTRY=JP
region_is '"default"' "defaults: JP is default"
expect_json '[.sdkCategories[] | .id]' '["necessary","functional","analytics","marketing"]' "defaults: four categories"
for l in en de fr es it nl pt pl; do
	Q="lang=$l" SITE=d1 get
	[ "$(jq -r .resolvedLanguage < "$T/body")" = "$l" ] || notok "defaults: language $l not offered"
	[ "$(jq '[.resolvedContent[] | select(length > 0)] | length' < "$T/body")" = 7 ] || notok "defaults: $l has an empty banner text"
done
ok "defaults: banner texts in en de fr es it nl pt pl"
Q="lang=de" SITE=d1 get HTTP_CF_IPCOUNTRY=DE
check test "$(jq -r .resolvedContent.acceptAllText < "$T/body")" != "$(Q=lang=en SITE=d1 get; jq -r .resolvedContent.acceptAllText < "$T/body")" "defaults: German differs from English"
