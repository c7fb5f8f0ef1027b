#!/bin/bash
# t0118-google-tags.sh: Google's tags strict by default (issue 29 b): the
# built-in rules hold googletagmanager.com until marketing is allowed, and
# consentRules.googleConsentModeAdvanced is checked at publish and served in
# the answer's config, whose scriptRules stay the document's array
# (CONTRACT 5.6) on the prepared answers and the resolved ones alike: the
# SDK is what lets Google's tags load at once (tests/browser/google.test.mjs).
. "$(dirname "$0")/setup.sh"
. "$(dirname "$0")/ctl-helpers.sh"

# --- the built-in rules -----------------------------------------------------------
site b1
cgi GET config "site_key=b1"
expect_json '[.scriptRules[] | select(.pattern == "googletagmanager.com") | .category]' '["marketing"]' \
    "the built-in config holds googletagmanager.com (the container and gtag.js) until marketing"
expect_json '.config.consentRules.googleConsentModeAdvanced' 'null' "advanced is not the default"

# --- a published document, without and with the setting ----------------------------
cats='"categories":[{"id":"necessary","name":"Necessary","consentModel":"exempt"},{"id":"analytics","name":"Analytics","consentModel":"opt_in"},{"id":"marketing","name":"Marketing","consentModel":"opt_in"}]'
rules='"scriptRules":[{"pattern":"googletagmanager.com","category":"marketing"},{"pattern":"*.Google-Analytics.com","category":"analytics"},{"pattern":"analytics.google.com","category":"analytics"},{"pattern":"www.googletagmanager.com","category":"marketing"},{"pattern":"notgoogle-analytics.com","category":"analytics"},{"pattern":"google.com","category":"marketing"},{"pattern":"doubleclick.net","category":"marketing"},{"pattern":"googletagmanager.com.example","category":"analytics"}]'
doc_rules=$(printf '{%s}' "$rules" | jq -c .scriptRules)

publish() { # KEY CONSENT_RULES_JSON
	printf '{%s,%s,"consentRules":%s}' "$cats" "$rules" "$2" > "$T/doc.json"
	run config publish "$1" "$T/doc.json"
	succeeds 1 "published: $2"
}
site s1
publish s1 '{"googleConsentMode":true}'
cgi GET config "site_key=s1"
expect_json '.scriptRules' "$doc_rules" "without the setting: the document's rules"

site s2
publish s2 '{"googleConsentMode":true,"googleConsentModeAdvanced":true}'
cgi GET config "site_key=s2"
expect_json '.scriptRules' "$doc_rules" \
    "advanced: scriptRules is the document's array, the rules of Google's tag hosts with it (CONTRACT 5.6)"
expect_json '.config.consentRules.googleConsentModeAdvanced' 'true' "the setting is in the config the SDK reads"
cgi GET config "site_key=s2" "" HTTP_CF_IPCOUNTRY=DE
expect_json '.scriptRules' "$doc_rules" "the same for another visitor"
check test "$(db "SELECT count(*) FROM config_answers a JOIN sites s ON s.config_id = a.config_id WHERE s.site_key = 's2'")" -gt 0 \
    "the answers were prepared (the endpoint served them)"
check test "$(db "SELECT script_rules FROM config_skeletons k JOIN sites s ON s.config_id = k.config_id WHERE s.site_key = 's2'" | jq -c .)" = "$doc_rules" \
    "the prepared scriptRules are the document's array"
db "DELETE FROM config_answers; DELETE FROM config_skeletons;"
cgi GET config "site_key=s2"
expect_json '.scriptRules' "$doc_rules" "resolved per request: the document's array too"

site s3
publish s3 '{"googleConsentMode":true,"googleConsentModeAdvanced":false}'
cgi GET config "site_key=s3"
expect_json '[.scriptRules, .config.consentRules.googleConsentModeAdvanced]' "[$doc_rules,false]" \
    "googleConsentModeAdvanced false: served as published"

# --- refused at publish --------------------------------------------------------------
needs="consentRules.googleConsentModeAdvanced needs consentRules.googleConsentMode true or mapping analytics_storage, ad_storage, ad_user_data and ad_personalization: Google's tags take a type without a default as granted"
refuse() { # DESC MESSAGE CONSENT_RULES_JSON
	printf '{%s,%s,"consentRules":%s}' "$cats" "$rules" "$3" > "$T/doc.json"
	run config publish s3 "$T/doc.json"
	fails 1 "invalid config: $2" "refused: $1"
}
refuse "advanced without Consent Mode" "$needs" '{"googleConsentModeAdvanced":true}'
refuse "advanced with Consent Mode off" "$needs" '{"googleConsentModeAdvanced":true,"googleConsentMode":false}'
refuse "advanced with a mapping that leaves ad_storage out" "$needs" \
    '{"googleConsentModeAdvanced":true,"googleConsentMode":{"analytics_storage":"analytics","ad_user_data":"marketing","ad_personalization":"marketing"}}'
refuse "advanced not a boolean" "consentRules.googleConsentModeAdvanced must be a boolean" \
    '{"googleConsentModeAdvanced":"yes","googleConsentMode":true}'
check test "$(ctl config show s3 | jq -c .consentRules)" = '{"googleConsentMode":true,"googleConsentModeAdvanced":false}' \
    "nothing refused was published"
