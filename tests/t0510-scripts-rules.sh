#!/bin/bash
# t0510-scripts-rules.sh: consentctl scripts rules KEY [--json | --publish]:
# from the script inventory the scripts endpoint keeps to the scriptRules a
# config lacks, and publishing them (issue 17; SDK.md 5 matching).
. "$(dirname "$0")/setup.sh"
. "$(dirname "$0")/ctl-helpers.sh"

site r1
report() { # SITE QUERY DOMAIN[=GUESS]...: one report through the endpoint
	local _site=$1 _query=$2 _e _d _g _list=""
	shift 2
	for _e in "$@"; do
		_d=${_e%%=*} _g=null
		case $_e in *=*) _g="\"${_e#*=}\"" ;; esac
		_list="$_list${_list:+,}{\"src\":\"https://$_d/x.js\",\"domain\":\"$_d\",\"category\":$_g,\"blocked\":false}"
	done
	cgi POST scripts "$_query" "{\"site_key\":\"$_site\",\"page_url\":\"https://example.com/\",\"timestamp\":1763800000,\"scripts\":[$_list]}"
}

# --- the operator's walk: a sync, the site opened with #consent-sync=ID -----------
sync=$(ctl sync start r1)
report r1 "sync_id=$sync" www.google-analytics.com ssl.google-analytics.com \
    script.hotjar.com vars.hotjar.com pixel.quantcast.com cmp.quantcast.com \
    www.googletagmanager.com a.b.doubleclick.net mc.yandex.ru \
    widget.example.net=marketing cdn.example.org
expect_status 200 "the sync's report: 200"
check test "$(ctl sync show "$sync" --json | jq -r .status)" = complete "the report closed the sync"
check test "$(ctl scripts list r1 --json | jq length)" = 11 "scripts list: 11 domains recorded"
check test "$(ctl scripts list r1 --json | jq -r '.[] | select(.domain == "widget.example.net") | .category')" = marketing "the client's guess is recorded for an unknown domain"

# Nothing published: the built-in defaults' rules cover google-analytics.com,
# googletagmanager.com, hotjar.com (script. and vars.) and doubleclick.net.
# quantcast: cmp.quantcast.com is necessary below
# marketing quantcast.com, so each host is its own rule.  mc.yandex.ru: the
# entry itself.  widget.example.net (a guess) and cdn.example.org (unknown)
# call for nothing.
want=$(printf '%s\t%s\n' cmp.quantcast.com necessary \
    mc.yandex.ru analytics pixel.quantcast.com marketing)
run scripts rules r1
succeeds "$want" "scripts rules: one pattern<TAB>category line per rule, by pattern"
run scripts rules r1 --json
check test "$rc" = 0 -a ! -s "$T/err" "scripts rules --json: exit 0"
check test "$(jq -r '.[] | "\(.pattern)\t\(.category)"' "$T/out")" = "$want" "--json: the same rules"
check test "$(jq -c '.[0] | keys' "$T/out")" = '["category","pattern"]' "--json: objects of pattern and category"

# --- publish ------------------------------------------------------------------------
snap
run scripts rules r1 --publish
succeeds 1 "scripts rules --publish prints the new version"
ctl config show r1 > "$T/doc"
nb=$(jq '.scriptRules | length' "$TOP/common/config/defaults.json")
check test "$(jq -c --argjson nb "$nb" '.scriptRules[:$nb]' "$T/doc")" = "$(jq -c .scriptRules "$TOP/common/config/defaults.json")" "the defaults' rules come first, unchanged"
check test "$(jq -r --argjson nb "$nb" '.scriptRules[$nb:][] | "\(.pattern)\t\(.category)"' "$T/doc")" = "$want" "the new rules are appended"
check test "$(jq -c 'del(.scriptRules)' "$T/doc")" = "$(defaults_doc | jq -c 'del(.scriptRules)')" "everything else is the document it started from"
cgi GET config "site_key=r1"
expect_json '[.version, (.scriptRules | length), .scriptRules[-1].pattern]' "[1,$((nb + 3)),\"pixel.quantcast.com\"]" "the config endpoint serves the new rules"
check test "$(db "SELECT count(*) FROM config_answers a JOIN sites s ON s.config_id = a.config_id WHERE s.site_key = 'r1'")" -gt 0 "the new version is prepared as config publish prepares it"

# A second time: nothing to add, nothing published.
run scripts rules r1
succeeds "" "scripts rules after publishing: nothing"
run scripts rules r1 --json
succeeds "[]" "--json after publishing: []"
snap
run scripts rules r1 --publish
check test "$rc" = 0 -a ! -s "$T/out" "--publish with nothing to add: exit 0, nothing on stdout"
check test "$(cat "$T/err")" = "consentctl: no rule to add to the config of r1; nothing published" "--publish with nothing to add says so on stderr"
unchanged "--publish with nothing to add publishes nothing"

# New scripts later: only what is new.
report r1 "" cdn.segment.com api.segment.io
run scripts rules r1
succeeds "$(printf 'segment.com\tanalytics\nsegment.io\tanalytics')" "new scripts: only their rules"
run scripts rules r1 --publish
succeeds 2 "publish them as version 2"
check test "$(ctl config show r1 | jq '.scriptRules | length')" = $((nb + 5)) "version 2 has two rules more"

# --- a config without the category: named on stderr, left out ----------------------
site r2
ctl config publish r2 "$TOP/tests/fixtures/config-test.json" >/dev/null  # necessary, analytics, ads
report r2 "" connect.facebook.net script.hotjar.com ad.doubleclick.net
run scripts rules r2
check test "$rc" = 0 -a "$(cat "$T/out")" = "$(printf 'hotjar.com\tanalytics')" "only rules of the config's categories are printed"
check test "$(cat "$T/err")" = "consentctl: facebook.net marketing left out: the config of r2 has no category marketing" "the left-out rule is named on stderr"
run scripts rules r2 --json
check test "$(jq -c . "$T/out")" = '[{"pattern":"hotjar.com","category":"analytics"}]' "--json leaves it out too"
run scripts rules r2 --publish
check test "$rc:$(cat "$T/out")" = "0:2" "--publish publishes the others (version 2)"
check test "$(ctl config show r2 | jq -c '[.scriptRules[].pattern]')" = '["google-analytics.com","doubleclick.net","hotjar.com"]' "doubleclick.net (ads) covers ad.doubleclick.net; facebook.net is not added"
check test "$(ctl config show r2 | jq -c .customKey)" = '{"kept":true}' "the published document's own keys are kept"
run scripts rules r2 --publish
check test "$rc:$(cat "$T/out"):$(wc -l < "$T/err" | tr -d ' ')" = "0::2" "again: nothing published, the left-out rule and 'nothing' on stderr"

# --- what an existing rule covers (SDK.md 5) ----------------------------------------
site r3
cats='"categories":[{"id":"necessary","name":"N","consentModel":"exempt"},{"id":"analytics","name":"A"},{"id":"marketing","name":"M"}]'
printf '{%s,"scriptRules":[{"pattern":"*.Hotjar.COM","category":"analytics"},{"pattern":"ssl.google-analytics.com","category":"analytics"}]}' "$cats" > "$T/r3.json"
ctl config publish r3 "$T/r3.json" >/dev/null
report r3 "" script.hotjar.com ssl.google-analytics.com
run scripts rules r3
succeeds "" "a leading *. and letter case are ignored; an exact host rule covers its host"
report r3 "" www.google-analytics.com
run scripts rules r3
succeeds "$(printf 'google-analytics.com\tanalytics')" "a host no rule covers: its registrable entry"
report r3 "" hotjar.com.evil.net nothotjar.com
run scripts rules r3
succeeds "$(printf 'google-analytics.com\tanalytics')" "look-alikes call for nothing"

# A rule of the config below an entry, of another category: no collapse.
site r4
printf '{%s,"scriptRules":[{"pattern":"cmp.quantcast.com","category":"necessary"}]}' "$cats" > "$T/r4.json"
ctl config publish r4 "$T/r4.json" >/dev/null
report r4 "" pixel.quantcast.com
run scripts rules r4
succeeds "$(printf 'pixel.quantcast.com\tmarketing')" "an existing rule of another category below the entry keeps the host's own pattern"
report r4 "" a.quantserve.com b.quantserve.com
run scripts rules r4
succeeds "$(printf 'pixel.quantcast.com\tmarketing\nquantserve.com\tmarketing')" "hosts of one entry and one category collapse to it"

# --- nothing recorded, refusals ------------------------------------------------------
site empty
run scripts rules empty
succeeds "" "no scripts: nothing"
run scripts rules empty --json
succeeds "[]" "no scripts: []"
snap
run scripts rules empty --publish
check test "$rc:$(cat "$T/out")" = "0:" "no scripts: --publish publishes nothing"
run scripts rules nope
fails 1 "unknown site: nope" "unknown site"
run scripts rules nope --publish
fails 1 "unknown site: nope" "unknown site with --publish"
run scripts rules r1 --json --publish
fails 2 "scripts rules takes --json or --publish, not both" "--json and --publish together"
run scripts rules "bad key"
fails 2 "invalid site key 'bad key': 1-64 characters of A-Za-z0-9_-" "malformed key"
run scripts rules
fails 2 "usage: consentctl scripts rules KEY [--json | --publish]" "no key"
run scripts list r1 --publish
fails 2 "scripts list does not take --publish" "--publish belongs to scripts rules only"
unchanged "refusals changed nothing"

# A stored document that no longer passes publish's checks is not republished.
if store_is_postgres; then
	# (jsonb_set writes the document back in jsonb's spelling: still JSON.)
	db "UPDATE configs SET document = jsonb_set(document::jsonb, '{consentRules}', '{\"expiryDays\":0}')::text WHERE id = (SELECT config_id FROM sites WHERE site_key = 'r3')"
else
	db "UPDATE configs SET document = json_set(document, '$.consentRules', json('{\"expiryDays\":0}')) WHERE id = (SELECT config_id FROM sites WHERE site_key = 'r3')"
fi
snap
run scripts rules r3 --publish
fails 1 "invalid config: consentRules.expiryDays must be an integer from 1 to 3650" "--publish checks the new document as config publish does"
unchanged "a refused --publish changed nothing"
