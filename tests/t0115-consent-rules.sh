#!/bin/bash
# t0115-consent-rules.sh: config publish checks consentRules: honorGpc,
# expiryDays and Google Consent Mode (SDK.md 7), naming what is wrong.
. "$(dirname "$0")/setup.sh"
. "$(dirname "$0")/ctl-helpers.sh"

site s1
cats='"categories":[{"id":"necessary","name":"Necessary","consentModel":"exempt"},{"id":"analytics","name":"Analytics","consentModel":"opt_in"},{"id":"ads","name":"Ads","consentModel":"opt_in"}]'
version=0
accept() { # DESC CONSENT_RULES_JSON
	printf '{%s,"consentRules":%s}' "$cats" "$2" > "$T/doc.json"
	run config publish s1 "$T/doc.json"
	version=$((version + 1))
	succeeds "$version" "accepted: $1"
}
refuse() { # DESC MESSAGE CONSENT_RULES_JSON
	printf '{%s,"consentRules":%s}' "$cats" "$3" > "$T/doc.json"
	run config publish s1 "$T/doc.json"
	fails 1 "invalid config: $2" "refused: $1"
}
types='ad_storage, ad_user_data, ad_personalization, analytics_storage, functionality_storage, personalization_storage, security_storage'

# --- accepted ---------------------------------------------------------------------
accept "googleConsentMode true" '{"googleConsentMode":true}'
accept "googleConsentMode false" '{"googleConsentMode":false}'
accept "a mapping of every type" '{"googleConsentMode":{"ad_storage":"ads","ad_user_data":"ads","ad_personalization":"ads","analytics_storage":"analytics","functionality_storage":"necessary","personalization_storage":"analytics","security_storage":"necessary"}}'
check test "$(ctl config show s1 | jq -c .consentRules.googleConsentMode.ad_user_data)" = '"ads"' "the mapping is published as given"
accept "a mapping of some types" '{"googleConsentMode":{"analytics_storage":"analytics"}}'
accept "an empty mapping" '{"googleConsentMode":{}}'
accept "no googleConsentMode" '{"honorGpc":false,"expiryDays":180}'
accept "expiryDays 1" '{"expiryDays":1}'
accept "expiryDays 3650" '{"expiryDays":3650}'
accept "expiryDays written 30.0" '{"expiryDays":30.0}'
accept "no consentRules at all" '{}'
run config publish s1 "$TOP/tests/fixtures/config-test.json"
version=$((version + 1))
succeeds "$version" "the test fixture (honorGpc, expiryDays) is accepted"

# --- refused: nothing published, the problem named ------------------------------
snap
refuse "an unknown type" "consentRules.googleConsentMode names no Consent Mode type: ads_storage (the types are $types)" \
    '{"googleConsentMode":{"ads_storage":"ads"}}'
refuse "every unknown type named" "consentRules.googleConsentMode names no Consent Mode type: Ad_Storage, wait_for_update (the types are $types)" \
    '{"googleConsentMode":{"Ad_Storage":"ads","analytics_storage":"analytics","wait_for_update":"ads"}}'
refuse "an unknown category" "consentRules.googleConsentMode names no category: marketing" \
    '{"googleConsentMode":{"ad_storage":"marketing","analytics_storage":"analytics"}}'
refuse "every unknown category named, each once" "consentRules.googleConsentMode names no category: marketing, functional" \
    '{"googleConsentMode":{"ad_storage":"marketing","ad_user_data":"marketing","functionality_storage":"functional","analytics_storage":"analytics"}}'
refuse "a category id that is not a string" "consentRules.googleConsentMode.ad_storage must be a category id (a string)" \
    '{"googleConsentMode":{"ad_storage":true}}'
refuse "a list of category ids" "consentRules.googleConsentMode.ad_storage must be a category id (a string)" \
    '{"googleConsentMode":{"ad_storage":["ads"]}}'
for bad in '"true"' '1' 'null' '["ad_storage"]'; do
	refuse "googleConsentMode $bad" "consentRules.googleConsentMode must be true, false or an object mapping Consent Mode types to category ids" \
	    "{\"googleConsentMode\":$bad}"
done
for bad in '"yes"' '1' 'null' '{}'; do
	refuse "honorGpc $bad" "consentRules.honorGpc must be a boolean" "{\"honorGpc\":$bad}"
done
for bad in 0 -1 3651 365.5 '"365"' 'null' 'true' 1e10; do
	refuse "expiryDays $bad" "consentRules.expiryDays must be an integer from 1 to 3650" "{\"expiryDays\":$bad}"
done
refuse "consentRules not an object" "consentRules must be an object" '[]'
refuse "first problem: honorGpc before googleConsentMode" "consentRules.honorGpc must be a boolean" \
    '{"honorGpc":"no","googleConsentMode":{"nope":"ads"}}'
unchanged "no refused publish changed anything"
