#!/bin/bash
# t0715-admin-log.sh: the dashboard's trackers, consent log, export, receipt,
# erasure, proof, purge, report and backup (issue 26, docs/admin-api.md):
# each answer equal to consentctl's on the same database, the roles, the
# re-authentication, paging and filters over a generated log.
. "$(dirname "$0")/setup.sh"
. "$TOP/tests/admin.sh"
. "$TOP/tests/ctl-helpers.sh"

use_test_clock
NOW=$(date +%s)
export CONSENT_TEST_NOW=$NOW
PW=Owner-pass-9x7kq!
admin_store_prepare
admin_setup owner "$PW" || exit 1
OWNER_COOKIE=$COOKIE OWNER_CSRF=$CSRF
if store_is_postgres; then
	check test "$(db "SELECT count(*) FROM pg_indexes WHERE indexname = 'consent_log_site_created'")" = 1 \
	    "PostgreSQL: the index of the log's page is in the schema"
fi
as() { eval "COOKIE=\$${1}_COOKIE CSRF=\$${1}_CSRF"; }
later() { CONSENT_TEST_NOW=$((CONSENT_TEST_NOW + ${1:-31})); }
reauth() {
	later
	api POST session/reauth "$(jq -cn --arg p "$PW" --arg c "$(totp "$SECRET")" '{password: $p, totp: $c}')"
	expect_status 200 "re-authenticated"
}

site shop
ctl site add other --name Other --domain other.example > /dev/null
for u in ed:editor vi:viewer; do
	as OWNER
	api POST users "{\"username\":\"${u%:*}\",\"password\":\"Member-pass-4j8w\",\"roles\":{\"shop\":\"${u#*:}\"}}"
	expect_status 201 "a ${u#*:} of shop is added"
	sign_in "${u%:*}" Member-pass-4j8w
	eval "${u%:*}_COOKIE=\$COOKIE ${u%:*}_CSRF=\$CSRF"
done
as OWNER

# --- a generated log ----------------------------------------------------------
XSS='"><img src=x onerror=alert(1)><script>alert(2)</script>'
entry() { # ANON_ID EVENT ACTION COUNTRY [GPC]
	cgi HTTP_CF_IPCOUNTRY="$4" ${5:+HTTP_SEC_GPC=1} HTTP_USER_AGENT="Mozilla/5.0 $XSS" \
	    POST consent "" "$(jq -cn --arg a "$1" --arg e "$2" --arg x "$3" --arg p "https://example.com/?q=$XSS" \
	    '{site_key: "shop", anon_id: $a, categories: {necessary: true, analytics: ($x == "opt_in")},
	      event_type: $e, page_url: $p} + (if $x == "" then {} else {event_action: $x} end)')"
	[ "$(cat "$T/status")" = 201 ] || notok "consent of $1: $(cat "$T/status") $(cat "$T/body")"
}
for i in $(seq 1 12); do
	case $((i % 3)) in
	0) entry "v$i" initial opt_in DE gpc ;;
	1) entry "v$i" update opt_out FR ;;
	2) entry "v$i" impression "" DE ;;
	esac
done
entry alice initial opt_in DE
entry alice update opt_out DE
ctl consent export shop > "$T/ctl.jsonl"
check test "$(wc -l < "$T/ctl.jsonl")" = 14 "14 entries stored"

# --- the log: pages, filters, roles -------------------------------------------
api GET sites/shop/consents
expect_status 200 "GET consents: an owner reads the log"
expect_json '.entries | length' 14 "the whole log in one page of the default 50"
expect_json 'has("next")' false "no next page"
check test "$(jq -c '[.entries[] | del(.id)] | reverse | .[]' "$T/body")" = "$(jq -c . "$T/ctl.jsonl")" \
    "its rows, newest first, are consent export's, with id"
jq -c '.entries[] | .id' "$T/body" > "$T/ids"
all=""
cursor=""
pages=0
while :; do
	api GET "sites/shop/consents?limit=5${cursor:+&cursor=$cursor}"
	all="$all$(jq -c '.entries[] | .id' "$T/body")
"
	pages=$((pages + 1))
	cursor=$(jq -r '.next // empty' "$T/body")
	[ -z "$cursor" ] || [ $pages -gt 5 ] && break
done
check test "$pages" = 3 "limit 5: three pages"
check test "$(printf '%s' "$all" | grep -c .)|$(printf '%s' "$all" | sort -u | grep -c .)" = "14|14" \
    "the pages hold every entry once"
check test "$(printf '%s' "$all" | grep .)" = "$(cat "$T/ids")" "in the order of the one page"
api GET "sites/shop/consents?country=FR"
expect_json '[.entries[] | .country] | unique' '["FR"]' "country=FR: only FR"
expect_json '.entries | length' 4 "country=FR: the 4"
api GET "sites/shop/consents?event=initial&gpc=true"
expect_json '[.entries[] | [.event_type, .gpc]] | unique' '[["initial",true]]' "event and gpc filters"
api GET "sites/shop/consents?action=opt_out&limit=2"
expect_json '[(.entries | length), has("next")]' '[2,true]' "action filter, paged"
api GET "sites/shop/consents?from=2000-01-01&to=2001-01-01"
expect_json '.entries' '[]' "a period without entries"
api GET "sites/shop/consents?limit=2"
api GET "sites/shop/consents?to=2000-01-01&cursor=$(jq -r .next "$T/body")"
expect_json '.entries' '[]' "a cursor does not reach past the period's end"
api GET "sites/shop/consents?version=0"
expect_json '.entries | length' 14 "version 0: the built-in config's entries"
for bad in "limit=0" "limit=101" "country=fr" "event=x" "gpc=1" "from=yesterday" \
    "cursor=abc" "cursor=$(printf '2026-01-01T00:00:00.000Z/1 OR 1=1' | base64 -w0 | tr '+/' '-_' | tr -d =)"; do
	api GET "sites/shop/consents?$bad"
	expect_status 400 "consents?$bad: 400"
done
api GET "sites/shop/consents?page_url=$XSS"
expect_json '.entries[0].page_url' "$(jq -cn --arg p "https://example.com/?q=$XSS" '$p')" \
    "an XSS string in a page URL is a JSON string, unchanged"
for who in vi ed; do
	as $who
	api GET sites/shop/consents
	expect_error 403 Forbidden "a ${who} reads no row of the log"
	api GET "sites/shop/receipt?anon_id=alice"
	expect_error 403 Forbidden "a ${who} reads no receipt"
	api GET sites/shop/consents/export
	expect_error 403 Forbidden "a ${who} exports nothing"
done
api GET sites/other/consents
expect_error 404 "Site not found" "no role on a site: it does not exist"
as OWNER

# --- export ---------------------------------------------------------------------
later 400
api GET sites/shop/consents/export
expect_error 403 "Re-authentication required" "export: re-authentication first"
reauth
API_TYPE=application/x-ndjson api GET sites/shop/consents/export
expect_status 200 "an owner exports JSONL"
expect_header Content-Disposition 'attachment; filename="consents-shop.jsonl"' "a download"
# A complete export ends with its mark (docs/admin-api.md), after exactly
# consentctl's bytes.
check test "$(tail -n 1 "$T/body")" = "# export complete: 14 entries" "JSONL: the last line marks it complete, with its count"
head -n -1 "$T/body" > "$T/api.jsonl"
check cmp -s "$T/api.jsonl" "$T/ctl.jsonl" "its bytes before the mark are consent export's"
ctl consent export shop --format csv > "$T/ctl.csv"
API_TYPE="text/csv; charset=utf-8" api GET "sites/shop/consents/export?format=csv"
check test "$(tail -n 1 "$T/body")" = "$(printf '# export complete: 14 entries\r')" "CSV: the last line (CRLF) marks it complete"
head -n -1 "$T/body" > "$T/api.csv"
check cmp -s "$T/api.csv" "$T/ctl.csv" "CSV: its bytes before the mark are consent export --format csv's"
# An export failing midway (the test program's fault: its first write cut
# in half, then failing) is short and has no mark: it cannot pass for a
# complete one.  The program installed has no such hook.
check test "$(grep -c -a CONSENT_TEST_FAULT "$BUILD/cgi-bin/admin")" = 0 "cgi-bin/admin never reads CONSENT_TEST_FAULT"
check test "$(grep -c -a CONSENT_TEST_FAULT "$BUILD/tests/admin-clock")" != 0 "the test program does"
for f in jsonl csv; do
	API_TYPE=$([ $f = csv ] && echo "text/csv; charset=utf-8" || echo application/x-ndjson) \
	    api CONSENT_TEST_FAULT=export GET "sites/shop/consents/export?format=$f"
	expect_status 200 "$f: a failure after the headers cannot change the status"
	check test "$(wc -c < "$T/body")" -lt "$(wc -c < "$T/ctl.$f")" "$f cut midway: short"
	check test "$(grep -c '^# export complete' "$T/body")" = 0 "$f cut midway: no mark"
done
api GET "sites/shop/consents/export?format=xml"
expect_status 400 "format=xml: 400"

# --- receipt and erasure --------------------------------------------------------
ctl consent seal shop > /dev/null
ctl consent receipt shop --anon-id alice --json > "$T/ctl-receipt"
api GET "sites/shop/receipt?anon_id=alice"
expect_status 200 "an owner reads alice's receipt"
check test "$(jq -S . "$T/body")" = "$(jq -S . "$T/ctl-receipt")" "it is consent receipt --json's"
expect_json '.entries | length' 2 "alice's two entries"
expect_json '[.entries[].proof | type] | unique' '["object"]' "each with its inclusion proof"
api GET "sites/shop/receipt"
expect_status 400 "receipt without anon_id: 400"

as ed
api POST sites/shop/erase '{"anon_id":"alice","confirm":"ERASE"}'
expect_error 403 Forbidden "an editor erases nothing"
as OWNER
later 400
api POST sites/shop/erase '{"anon_id":"alice","confirm":"ERASE"}'
expect_error 403 "Re-authentication required" "erase: re-authentication first"
ctl consent find shop --anon-id alice | wc -l > "$T/n"
check test "$(cat "$T/n")" = 2 "nothing erased by the refused requests"
reauth
api POST sites/shop/erase '{"anon_id":"alice","confirm":"yes"}'
expect_status 400 "erase without the typed confirmation: 400"
api POST sites/shop/erase '{"anon_id":"alice","confirm":"ERASE"}'
expect_status 200 "an owner erases alice"
expect_json .erased 2 "her two entries"
H=$(printf alice | sha256sum | cut -c1-64)
if ! store_is_postgres; then
	db=$CONSENT_DB
	if cat "$db" "$db-wal" 2>/dev/null | grep -qa "$H"; then
		notok "alice's hash is still in the database files"
	else
		ok "no byte of alice's hash is left in the database files"
	fi
fi
api GET "audit?site=shop&limit=200"
check test "$(jq -r '.entries[] | select(.action == "consent.erase") | .detail | tostring' "$T/body")" = '{"entries":2}' \
    "the erasure is in the audit trail with its count, not the visitor"
grep -q "$H\|alice" "$T/body" && notok "the audit trail names the visitor" || ok "the audit trail does not name the visitor"

# --- proof: seal, verify ----------------------------------------------------------
entry late initial opt_in DE
as vi
api GET sites/shop/proof
expect_status 200 "a viewer reads the proof status"
expect_json '[.seals, .unsealed, .entries]' '[1,1,13]' "one seal, one entry not sealed yet"
check test "$(jq -c .head "$T/body")" = "$(ctl consent head shop | jq -c .)" "the head is consent head's line"
api POST sites/shop/seal '{}'
expect_error 403 Forbidden "a viewer does not seal"
as ed
api POST sites/shop/seal '{}'
expect_status 200 "an editor seals"
expect_json '[.sealed, .head.seq]' '[1,2]' "the entry sealed, the second seal the head"
api POST sites/shop/verify '{}'
expect_json '[.done, .ok, .entries, .seals]' '[true,true,13,2]' "verify: the log holds"
ctl consent verify shop --json > "$T/ctl-verify"
check test "$(jq -c 'del(.done)' "$T/body")" = "$(jq -c . "$T/ctl-verify")" "its verdict is consent verify --json's"
api POST sites/shop/verify "{\"head\":\"$(jq -r .head.hash "$T/ctl-verify")\"}"
expect_json .ok true "a recorded head in the chain"
api POST sites/shop/verify "{\"head\":\"$(printf %064d 0)\"}"
expect_json '[.ok, .error]' '[false,"the recorded head 0000000000000000000000000000000000000000000000000000000000000000 is not in the chain of seals"]' \
    "a head not in the chain fails"
api POST sites/shop/verify '{"leaves":1}'
expect_json '[.done, .next, .checked, .seals]' '[false,2,1,2]' "verify in steps: the first seal, then the next"
api POST sites/shop/verify "$(jq -c '{from: .next, sealed, pruned, leaves: 1}' "$T/body")"
check test "$(jq -c 'del(.done)' "$T/body")" = "$(jq -c . "$T/ctl-verify")" "the last step's verdict is consent verify --json's"
db "UPDATE consent_log SET country = 'US' WHERE id = (SELECT min(id) FROM consent_log)"
api POST sites/shop/verify '{}'
expect_json '.ok' false "a changed entry fails verification"
db "UPDATE consent_log SET country = 'DE' WHERE id = (SELECT min(id) FROM consent_log)"

# --- trackers -------------------------------------------------------------------
cgi POST scripts "" "$(jq -cn --arg s "https://evil.example/x.js?$XSS" '{site_key: "shop", page_url: "https://example.com/p", timestamp: 1763800000,
    scripts: [{src: "https://mc.yandex.ru/metrika/tag.js", domain: "mc.yandex.ru", category: null, blocked: false},
              {src: $s, domain: "evil.example", category: null, blocked: false}]}')"
expect_status 200 "two scripts reported"
as vi
api GET sites/shop/scripts
expect_status 200 "a viewer reads the inventory"
check test "$(jq -c '[.scripts[] | del(.covered)]' "$T/body")" = "$(ctl scripts list shop --json | jq -c .)" \
    "its rows are scripts list --json's"
expect_json '[.scripts[] | .covered]' '[false,false]' "no rule covers them yet"
api GET sites/shop/rules
check test "$(jq -c .rules "$T/body")" = "$(ctl scripts rules shop --json 2>/dev/null | jq -c .)" "GET rules: scripts rules --json's"
api POST sites/shop/rules '{}'
expect_error 403 Forbidden "a viewer publishes no rule"
api POST sites/shop/syncs '{}'
expect_error 403 Forbidden "a viewer starts no sync"
as ed
api POST sites/shop/rules '{}'
expect_status 201 "an editor publishes the rules"
expect_json '[.version, (.rules | length > 0)]' '[1,true]' "as version 1"
ctl config show shop 2>/dev/null | jq -e '.scriptRules[] | select(.pattern == "mc.yandex.ru")' > /dev/null
check test $? = 0 "the published config has a rule for mc.yandex.ru"
api GET sites/shop/scripts
expect_json '[.scripts[] | select(.domain == "mc.yandex.ru") | .covered]' '[true]' "now covered"
check test "$(jq -r '.scripts[] | select(.domain == "evil.example") | .last_src' "$T/body")" = "https://evil.example/x.js?$XSS" \
    "an XSS string in a reported source is a JSON string, unchanged"
api POST sites/shop/rules '{}'
expect_json '[.version, .rules]' '[null,[]]' "nothing more to publish"
api POST sites/shop/syncs '{}'
expect_status 201 "an editor starts a sync"
SYNC=$(jq -r .sync_id "$T/body")
expect_json '[.status, .fragment]' "[\"pending\",\"#consent-sync=$SYNC\"]" "pending, with the fragment to open"
api GET "sites/shop/syncs/$SYNC"
check test "$(jq -c . "$T/body")" = "$(ctl sync show "$SYNC" --json | jq -c .)" "GET syncs/{id}: sync show --json's"
api GET "sites/shop/syncs/not-a-uuid"
expect_error 404 "Sync not found"
as OWNER
api GET "sites/other/syncs/$SYNC"
expect_error 404 "Sync not found" "another site's sync is not found"
api GET "audit?site=shop&limit=200"
expect_json '[.entries[] | .action] | map(select(. == "rules.publish" or . == "sync.start" or . == "consent.seal")) | unique' \
    '["consent.seal","rules.publish","sync.start"]' "rules, sync and seal are in the audit trail"

# --- report ---------------------------------------------------------------------
as vi
api GET sites/shop/report
expect_status 200 "a viewer reads the report"
ctl report shop --json > "$T/ctl-report"
check test "$(jq -c 'del(.generated_at)' "$T/body")" = "$(jq -c 'del(.generated_at)' "$T/ctl-report")" \
    "its figures are report --json's"
api GET "sites/shop/report?from=2001-01-01&to=2001-01-02"
expect_error 404 "No consent entries in the period"
api GET "sites/shop/report?from=nope"
expect_status 400 "a malformed date: 400"

# --- purge ----------------------------------------------------------------------
as OWNER
ctl site set shop --retention-days 1 > /dev/null
db "UPDATE consent_log SET created_at = '2020-01-01T00:00:00.000Z' WHERE id IN (SELECT id FROM consent_log ORDER BY id LIMIT 3)"
as ed
api POST sites/shop/purge '{"dry_run":true}'
expect_error 403 Forbidden "an editor does not purge"
as OWNER
reauth
api POST sites/shop/purge '{"dry_run":true}'
expect_status 200 "purge dry run"
expect_json .entries 3 "three entries past the retention"
api POST sites/shop/purge '{}'
expect_json '[.purged, .remaining, .done]' '[3,0,true]' "purged in one batch"
api POST sites/shop/verify '{}'
expect_json .ok true "the log still verifies after the purge"

# --- backup -----------------------------------------------------------------------
later 400
api GET backup
expect_error 403 "Re-authentication required" "backup: re-authentication first"
reauth
if store_is_postgres; then
	api GET backup
	expect_status 501 "no backup of a PostgreSQL database here"
else
	API_TYPE=application/vnd.sqlite3 api GET backup
	expect_status 200 "an owner of every site downloads a backup"
	case $(header Content-Disposition) in
	'attachment; filename="consent-'*'.sqlite3"') ok "as a download" ;;
	*) notok "as a download: $(header Content-Disposition)" ;;
	esac
	cp "$T/body" "$T/backup.sqlite3"
	check test "$(sqlite3 "$T/backup.sqlite3" 'PRAGMA integrity_check')" = ok "a valid SQLite database"
	for t in consent_log consent_seals sites configs admin_accounts; do
		check test "$(sqlite3 "$T/backup.sqlite3" "SELECT count(*) FROM $t")" = \
		    "$(sqlite3 "$CONSENT_DB" "SELECT count(*) FROM $t")" "the backup holds $t's rows"
	done
	check test "$(CONSENT_DB=$T/backup.sqlite3 ctl consent export shop | md5sum)" = "$(ctl consent export shop | md5sum)" \
	    "its log exports the same"
	as ed
	api GET backup
	expect_error 403 Forbidden "only an owner of every site downloads a backup"
fi

# --- a filtered page's walk is bounded --------------------------------------------
# 25,000 newer entries none of which a filter matches: the first page looks
# at 20,000 of them and answers none with a next, the second finds the rest.
as OWNER
if store_is_postgres; then
	db "INSERT INTO consent_log (site_id, created_at, anon_id_hash, categories, event_type,
	        published_version, device_type, country)
	    SELECT (SELECT id FROM sites WHERE site_key = 'shop'),
	        format('2099-01-01T00:00:%s.%sZ', lpad((i / 1000)::text, 2, '0'), lpad((i % 1000)::text, 3, '0')),
	        lpad(to_hex(i), 64, '0'), '{\"necessary\":true}', 'impression', 0, 'desktop', 'DE'
	    FROM generate_series(1, 25000) AS i"
else
	db "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 25000)
	    INSERT INTO consent_log (site_id, created_at, anon_id_hash, categories, event_type,
	        published_version, device_type, country)
	    SELECT (SELECT id FROM sites WHERE site_key = 'shop'), printf('2099-01-01T00:00:%02d.%03dZ', i / 1000, i % 1000),
	        printf('%064x', i), '{\"necessary\":true}', 'impression', 0, 'desktop', 'DE' FROM n"
fi
api GET "sites/shop/consents?country=FR"
expect_json '[(.entries | length), has("next")]' '[0,true]' \
    "a filter matching none of 20,000 entries: an empty page with next"
api GET "sites/shop/consents?country=FR&cursor=$(jq -r .next "$T/body")"
fr=$(db "SELECT count(*) FROM consent_log WHERE country = 'FR'")
expect_json '[(.entries | length), has("next"), ([.entries[] | .country] | unique)]' "[$fr,false,[\"FR\"]]" \
    "its next page walks on and finds the rest"
api GET "sites/shop/consents"
expect_json '[(.entries | length), .entries[0].created_at]' '[50,"2099-01-01T00:00:25.000Z"]' \
    "unfiltered, a page is the newest 50"
