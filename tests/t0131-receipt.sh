#!/bin/bash
# t0131-receipt.sh: consentctl consent receipt and find (issue 11).  Publish
# v1, consent, publish v2, consent: each entry's receipt shows the texts of
# its own version, in the entry's language and region, exactly as the config
# endpoint answered at the time, with its digest and, once sealed, an
# inclusion proof that leads to its seal's root.
. "$(dirname "$0")/setup.sh"
. "$(dirname "$0")/ctl-helpers.sh"

site rc
hash() { printf '%s' "$1" | sha256sum | cut -c1-64; }

# What the SDK does: ask the config, then send an entry with the answer's
# version, region and language.
visit() { # ANON_ID LANG COUNTRY OUTFILE
	cgi HTTP_CF_IPCOUNTRY="$3" GET config "site_key=rc&lang=$2"
	cp "$T/body" "$4"
	local region lang version
	region=$(jq -r .resolvedRegion "$4"); lang=$(jq -r .resolvedLanguage "$4"); version=$(jq -r .version "$4")
	cgi HTTP_CF_IPCOUNTRY="$3" POST consent "" "{\"site_key\":\"rc\",\"anon_id\":\"$1\",\"categories\":{\"necessary\":true,\"analytics\":false},\"event_type\":\"initial\",\"event_action\":\"opt_out\",\"config_version\":$version,\"region\":\"$region\",\"language\":\"$2\",\"resolved_language\":\"$lang\"}"
	expect_status 201 "consent of $1 ($2, $3): 201"
}

ctl config publish rc "$TOP/tests/fixtures/config-test.json" >/dev/null
visit alice de DE "$T/shown1"
visit bob fr FR "$T/shown-bob"
jq '.content.translations.de.banner.title = "Cookies hier (Version 2)"
  | .content.translations.de.categories.analytics.name = "Statistik v2"' \
    "$TOP/tests/fixtures/config-test.json" | ctl config publish rc - >/dev/null
visit alice de DE "$T/shown2"
check test "$(jq -r .resolvedContent.title "$T/shown1")|$(jq -r .resolvedContent.title "$T/shown2")" = "Cookies hier|Cookies hier (Version 2)" "the two versions show different texts"

# --- before the seal ------------------------------------------------------------------
run consent receipt rc --anon-id alice --json
check test "$rc" = 0 -a ! -s "$T/err" "receipt --json: exit 0"
cp "$T/out" "$T/r0"
check test "$(jq -c '[.site_key, .anon_id_hash, (.entries | length)]' "$T/r0")" = "[\"rc\",\"$(hash alice)\",2]" "receipt: the visitor's two entries, by the endpoint's hash"
check test "$(jq -c '[.entries[] | .proof]' "$T/r0")" = "[null,null]" "receipt before a seal: no proof"
check test "$(jq -r '.entries[0].note' "$T/r0")" = "not sealed yet: the next consentctl consent seal seals it" "receipt before a seal: a note says so"

ctl consent seal rc
run consent receipt rc --anon-id alice --json
cp "$T/out" "$T/r"
for i in 1 2; do
	e=".entries[$((i - 1))]"
	check test "$(jq -c "$e.shown.version" "$T/r")" = "$i" "entry $i: shows version $i"
	check test "$(jq -c "$e.entry.published_version" "$T/r")" = "$i" "entry $i: stored under version $i"
	check test "$(jq -c "$e.shown.content" "$T/r")" = "$(jq -c .resolvedContent "$T/shown$i")" "entry $i: title, description and buttons as the config endpoint answered"
	check test "$(jq -c "$e.shown.categories" "$T/r")" = "$(jq -c .sdkCategories "$T/shown$i")" "entry $i: each category's name, description and consent model as answered"
	check test "$(jq -c "$e.shown.ui" "$T/r")" = "$(jq -c .resolvedUi "$T/shown$i")" "entry $i: the dialog's texts as answered"
	check test "$(jq -c "[$e.shown.region, $e.shown.language]" "$T/r")" = "$(jq -c '[.resolvedRegion, .resolvedLanguage]' "$T/shown$i")" "entry $i: its region and language"
	check test "$(jq -r "$e.shown.config_sha256" "$T/r")" = "$(jq -r "$e.entry.config_sha256" "$T/r")" "entry $i: the document the entry names"
	check test "$(jq -r "$e.digest" "$T/r")" = "$(db "SELECT digest FROM consent_log WHERE anon_id_hash = '$(hash alice)' ORDER BY id LIMIT 1 OFFSET $((i - 1))")" "entry $i: its stored digest"
	check test "$(jq -c "[$e.proof.seal, $e.proof.tree_size, $e.proof.leaf_index]" "$T/r")" = "[1,3,$((i == 1 ? 0 : 2))]" "entry $i: its place in seal 1"
	check test "$(jq -r "$e.proof.seal_hash" "$T/r")" = "$(ctl consent head rc | jq -r .hash)" "entry $i: the seal's hash is the head"
done
check test "$(jq -r '.entries[1].shown.categories[] | select(.id == "analytics") | .name' "$T/r")" = "Statistik v2" "the second entry shows version 2's category name in German"
check test "$(jq -r '.entries[0].shown.categories[] | select(.id == "analytics") | .name' "$T/r")" = "Statistik" "the first still shows version 1's"
run consent receipt rc --anon-id bob --json
check test "$(jq -c '.entries[0].shown | [.version, .language, .content.title]' "$T/out")" = "$(jq -c '[.version, .resolvedLanguage, .resolvedContent.title]' "$T/shown-bob")" "bob's receipt: French, version 1"
if command -v python3 >/dev/null 2>&1; then
	check python3 "$TOP/tools/verify-export.py" --receipt "$T/r" "a third party checks the receipt's digests and inclusion proofs"
	jq '.entries[1].proof.path[0] = "'"$(printf '%064d' 0)"'"' "$T/r" > "$T/r-bad"
	if python3 "$TOP/tools/verify-export.py" --receipt "$T/r-bad" >/dev/null; then notok "a changed proof does not lead to the root"; else ok "a changed proof does not lead to the root"; fi
else
	skip "python3 is not installed: receipts not checked independently"
fi

# The text form: the same record, one aligned line per field.
run consent receipt rc --anon-id alice
check test "$rc" = 0 "receipt (text): exit 0"
check grep -q "^shown.content.title  *Cookies hier (Version 2)$" "$T/out" "receipt (text): the title shown"
check grep -q "^proof.root  *$(ctl consent head rc | jq -r .root)$" "$T/out" "receipt (text): the seal's root"

# --- find --------------------------------------------------------------------------------
run consent find rc --anon-id alice
check test "$rc" = 0 -a "$(wc -l < "$T/out" | tr -d ' ')" = 2 "find: one JSON line per entry"
check test "$(cat "$T/out")" = "$(ctl consent export rc | jq -c --arg h "$(hash alice)" 'select(.anon_id_hash == $h)')" "find: the visitor's lines of the export"
run consent find rc --anon-id nobody
succeeds "" "find of an unknown visitor: nothing"
run consent receipt rc --anon-id nobody --json
check test "$(jq -c '.entries' "$T/out")" = "[]" "receipt of an unknown visitor: no entry"

# --- usage -----------------------------------------------------------------------------------
run consent receipt rc
fails 2 "consent receipt needs --anon-id ID" "receipt without --anon-id"
run consent find rc --anon-id ""
fails 2 "invalid --anon-id: 1-100 characters of text without control characters" "find with an empty id"
run consent find rc --anon-id "$(printf 'a\tb')"
fails 2 "invalid --anon-id: 1-100 characters of text without control characters" "find with a control character"
run consent receipt nosuch --anon-id alice
fails 1 "unknown site: nosuch" "receipt of an unknown site"

# A receipt refuses to show texts of a document that is not the one the entry names.
db "UPDATE configs SET document = replace(document, 'Cookies hier', 'Kekse hier') WHERE version = 1"
run consent receipt rc --anon-id alice
check test "$rc" = 1 "receipt with a changed document: exit 1"
check grep -q "config version 1 of rc is not the document the entry names" "$T/err" "... saying which document"
