#!/bin/bash
# t0110-consentctl-config.sh: consentctl config publish and show (CONTRACT 3, 4).
. "$(dirname "$0")/setup.sh"
. "$(dirname "$0")/ctl-helpers.sh"

site s1
site s2
cats='"categories":[{"id":"necessary","name":"Necessary","consentModel":"exempt"},{"id":"analytics","name":"Analytics","consentModel":"opt_in"}]'
cat > "$T/doc.json" <<JSON
{
  "appearance": {"position": "center-modal", "theme": "dark"},
  $cats,
  "regions": [
    {"id": "gdpr", "countries": ["DE", "FR", "GB"], "consentModel": "opt_in", "defaultLanguage": "de"},
    {"id": "us_state_laws", "countries": ["US"], "subdivisions": ["US-CA"], "consentModel": "opt_out",
     "categoryModels": {"analytics": "opt_out"}},
    {"id": "default", "countries": ["*"], "consentModel": "notice_only"}
  ],
  "content": {"defaultLanguage": "en", "translations": {"en": {"banner": {"title": "Hi"}}}},
  "consentRules": {"honorGpc": true, "expiryDays": 365},
  "scriptRules": [{"pattern": "google-analytics.com", "category": "analytics"}],
  "myOwnKey": {"kept": [1, 2.5, "three", null]}
}
JSON

# --- show before anything is published: the built-in defaults ----------------
run config show s1
check test "$rc" = 0 "config show of an unpublished site: exit 0"
check test "$(jq -cS . "$T/out")" = "$(defaults_doc | jq -cS .)" "config show of an unpublished site prints the built-in defaults"
check test "$(jq -c '[.categories[] | select(.id == "necessary") | .consentModel]' "$T/out")" = '["exempt"]' "the defaults have an exempt necessary category"
check test "$(jq -c '[.regions[].id]' "$T/out")" = '["gdpr","us_state_laws","default"]' "the defaults' regions"

# --- publish: versions 1, 2, 3 ------------------------------------------------
run config publish s1 "$T/doc.json"
succeeds 1 "first publish prints 1"
run config show s1
check test "$(jq -cS . "$T/out")" = "$(jq -cS . "$T/doc.json")" "config show prints the published document, unknown keys kept"
run config publish s1 - < "$T/doc.json"
succeeds 2 "publish from stdin prints 2"
jq '.appearance.theme = "light"' "$T/doc.json" > "$T/doc3.json"
run config publish s1 "$T/doc3.json"
succeeds 3 "third publish prints 3"
check test "$(ctl config show s1 | jq -r .appearance.theme)" = light "config show follows the latest version"
if store_is_postgres; then
	check test "$(db "SELECT string_agg(version::text, ',' ORDER BY version) FROM configs WHERE site_id = (SELECT id FROM sites WHERE site_key = 's1')")" = "1,2,3" "every version is kept"
else
	check test "$(db "SELECT group_concat(version) FROM (SELECT version FROM configs WHERE site_id = (SELECT id FROM sites WHERE site_key = 's1') ORDER BY version)")" = "1,2,3" "every version is kept"
fi
check test "$(db "SELECT c.version FROM sites s JOIN configs c ON c.id = s.config_id WHERE s.site_key = 's1'")" = 3 "the site points at version 3"
run site show s1 --json
check test "$(jq -r .version "$T/out")" = 3 "site show has version 3"
check test "$(jq -r '.published_at | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z$")' "$T/out")" = true "site show has published_at"
run config publish s2 "$T/doc.json"
succeeds 1 "versions count per site"
check test "$(ctl config show s2 | jq -r .appearance.theme)" = dark "each site has its own document"
check test "$(db "SELECT document FROM configs WHERE version = 1 AND site_id = (SELECT id FROM sites WHERE site_key = 's2')")" = "$(jq -c . "$T/doc.json")" "the document is stored as compact JSON"

# --- refused documents: nothing published, the first problem named -----------
snap
refuse() { # DESC MESSAGE JSON
	printf '%s' "$3" > "$T/bad.json"
	run config publish s1 "$T/bad.json"
	fails 1 "invalid config: $2" "refused: $1"
}
refuse "not an object" "config must be a JSON object" '[1,2]'
refuse "no categories" "categories is required" '{"regions":[]}'
refuse "empty categories" "categories must be an array of 1-50 categories" '{"categories":[]}'
refuse "bad category id" "categories[2].id must be 1-50 characters of a-z0-9_-" \
    '{"categories":[{"id":"a","name":"A"},{"id":"b","name":"B"},{"id":"Bad Id","name":"C"}]}'
refuse "duplicate category" "duplicate category id: analytics" \
    '{"categories":[{"id":"analytics","name":"A"},{"id":"analytics","name":"B"}]}'
refuse "name not a string" "categories[0].name must be a string" '{"categories":[{"id":"a","name":5}]}'
refuse "bad consentModel" "categories[0].consentModel must be one of: opt_in, opt_out, notice, notice_required, notice_only, exempt" \
    '{"categories":[{"id":"a","name":"A","consentModel":"always"}]}'
refuse "bad country" 'regions[1].countries[0] must be an ISO 3166-1 alpha-2 code or "*"' \
    "{$cats,\"regions\":[{\"id\":\"a\",\"countries\":[\"DE\"]},{\"id\":\"b\",\"countries\":[\"Germany\"]}]}"
refuse "duplicate region" "duplicate region id: gdpr" \
    "{$cats,\"regions\":[{\"id\":\"gdpr\",\"countries\":[\"DE\"]},{\"id\":\"gdpr\",\"countries\":[\"FR\"]}]}"
refuse "bad subdivision" "regions[0].subdivisions[0] must be an ISO 3166-2 code such as US-CA" \
    "{$cats,\"regions\":[{\"id\":\"us\",\"countries\":[\"US\"],\"subdivisions\":[\"California\"]}]}"
refuse "bad region model" "regions[0].categoryModels.analytics must be one of: opt_in, opt_out, notice, notice_required, notice_only, exempt" \
    "{$cats,\"regions\":[{\"id\":\"us\",\"countries\":[\"US\"],\"categoryModels\":{\"analytics\":\"no\"}}]}"
refuse "script rule of no category" "scriptRules[0].category names no category: foo" \
    "{$cats,\"scriptRules\":[{\"pattern\":\"x.com\",\"category\":\"foo\"}]}"
refuse "empty pattern" "scriptRules[0].pattern must be a non-empty string" \
    "{$cats,\"scriptRules\":[{\"pattern\":\"\",\"category\":\"analytics\"}]}"
refuse "banner text not a string" "content.translations.en.banner.title must be a string" \
    "{$cats,\"content\":{\"translations\":{\"en\":{\"banner\":{\"title\":[]}}}}}"
refuse "first problem only" "categories[0].id must be 1-50 characters of a-z0-9_-" \
    '{"categories":[{"id":"X","name":"A"}],"scriptRules":[{"pattern":"x","category":"nope"}]}'

printf '{"categories": [' > "$T/bad.json"
run config publish s1 "$T/bad.json"
fails 1 "$T/bad.json: not valid JSON (at byte 16)" "truncated JSON refused"
printf '{"categories":[{"id":"a","name":"A"}]} {}' > "$T/bad.json"
run config publish s1 "$T/bad.json"
fails 1 "$T/bad.json: not valid JSON (at byte 39)" "trailing data after the document refused"
printf '{"categories":[{"id":"a","name":"A"}]}\0' > "$T/bad.json"
run config publish s1 "$T/bad.json"
fails 1 "$T/bad.json: not a JSON document (contains a NUL byte)" "NUL byte refused"
run config publish s1 - < /dev/null
fails 1 "-: not valid JSON (at byte 0)" "empty stdin refused"
run config publish s1 "$T/no-such-file.json"
fails 1 "cannot open $T/no-such-file.json: No such file or directory" "missing file"
run config publish s1 "$T"
check test "$rc" = 1 -a "$(wc -l < "$T/err")" = 1 "a directory is refused with one line"
{ printf '{"categories":[{"id":"a","name":"A"}],"pad":"'; head -c 1048576 /dev/zero | tr '\0' x; printf '"}'; } > "$T/big.json"
run config publish s1 "$T/big.json"
fails 1 "$T/big.json: larger than 1048576 bytes" "a file over 1 MiB is refused"
run config publish nope "$T/doc.json"
fails 1 "unknown site: nope" "publish to an unknown site"
run config publish "bad key" "$T/doc.json"
fails 2 "invalid site key 'bad key': 1-64 characters of A-Za-z0-9_-" "publish with a malformed key"
run config publish s1
fails 2 "usage: consentctl config publish KEY FILE|-" "publish without a file"
unchanged "no refused publish changed anything"

run config publish s1 "$T/doc.json"
succeeds 4 "after refusals the next version is 4"

# --- show failures --------------------------------------------------------------
run config show nope
fails 1 "unknown site: nope" "config show of an unknown site"
run config show s1 --json
fails 2 "config show does not take --json" "config show --json is a usage error"
