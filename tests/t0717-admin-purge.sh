#!/bin/bash
# t0717-admin-purge.sh: the dashboard's purge clears what `consentctl purge
# KEY` clears (issue 26, common/admin/purge.c): the same log, twice, once
# purged by consentctl and once by POST sites/{key}/purge, leaves the same
# entries, seals, pruned leaves, monthly-visitor rows (those of months
# that are over, every site's) and counts, and the same audit records; on
# either store (the rows aged and the old month's rows added with SQL).
. "$(dirname "$0")/setup.sh"
. "$TOP/tests/admin.sh"
. "$TOP/tests/ctl-helpers.sh"

PW=Owner-pass-9x7kq!
admin_store_prepare
admin_setup owner "$PW" || exit 1
site shop
ctl site add other --name Other --domain other.example > /dev/null
ctl site set shop --retention-days 30 > /dev/null

# Five entries of shop, the first three from 2020; monthly-visitor rows of
# a month that is over, of both sites.
fill() {
	local i
	for i in 1 2 3 4 5; do
		cgi POST consent "" "{\"site_key\":\"shop\",\"anon_id\":\"v$i\",\"categories\":{\"necessary\":true},\"event_type\":\"initial\",\"event_action\":\"opt_in\"}"
		[ "$(cat "$T/status")" = 201 ] || notok "entry v$i: $(cat "$T/status") $(cat "$T/body")"
	done
	db "UPDATE consent_log SET created_at = '2020-01-0' || (id % 7 + 1) || 'T00:00:00.000Z' WHERE id IN (SELECT id FROM consent_log ORDER BY id LIMIT 3)"
	db "INSERT INTO mau_visitors (site_id, month, anon_id_hash) SELECT id, '2020-01', 'h-' || site_key FROM sites"
}
# What a purge leaves (the times and digests of the entries aside: the
# endpoint stamps them when each run stores them).
state() {
	db "SELECT s.site_key, l.anon_id_hash, l.event_type, l.seal_id IS NOT NULL FROM consent_log AS l JOIN sites AS s ON s.id = l.site_id ORDER BY 2"
	echo "seals:"
	db "SELECT site_id, seq, tree_size FROM consent_seals ORDER BY 1, 2"
	echo "pruned: $(db "SELECT count(*) FROM consent_pruned")"
	echo "visitor rows:"
	db "SELECT site_id, month, anon_id_hash FROM mau_visitors ORDER BY 1, 2, 3"
	echo "counts:"
	db "SELECT site_id, month, sum(visitors) FROM mau_counts GROUP BY 1, 2 ORDER BY 1, 2"
	echo "audit:"
	db "SELECT coalesce(site_id, 0), detail FROM audit_log WHERE action = 'purge' AND id > $audit_from ORDER BY id"
}
reset() {
	db "DELETE FROM consent_pruned" "DELETE FROM consent_log" "DELETE FROM consent_seals" \
	    "DELETE FROM mau_visitors" "DELETE FROM mau_counts"
}

audit_from=$(db "SELECT coalesce(max(id), 0) FROM audit_log")
fill
run purge shop --dry-run
check grep -q "^shop: 3 entries older than 30 days" "$T/out" "consentctl's dry run: 3 entries"
check grep -qx "monthly visitors: 2 rows of months before $(date -u +%Y-%m)" "$T/out" "consentctl's dry run: 2 visitor rows"
ctl purge shop > /dev/null
check test $? = 0 "consentctl purge shop"
state > "$T/by-ctl"
check grep -qx "pruned: 3" "$T/by-ctl" "consentctl: three leaves pruned"
check test "$(db "SELECT count(*) FROM mau_visitors WHERE month = '2020-01'")" = 0 "consentctl: the old month's rows are gone"

reset
audit_from=$(db "SELECT coalesce(max(id), 0) FROM audit_log")
fill
api POST sites/shop/purge '{"dry_run":true}'
expect_json '[.entries, .visitor_rows]' '[3,2]' "the dashboard's dry run: the same 3 entries and 2 visitor rows"
api POST sites/shop/purge '{}'
expect_json '[.purged, .visitor_rows, .remaining, .done]' '[3,2,0,true]' "the dashboard's purge: the entries, then the visitor rows"
state > "$T/by-api"
if diff "$T/by-ctl" "$T/by-api" > "$T/diff"; then
	ok "both leave the same database (entries, seals, pruned leaves, visitor rows, counts, audit records)"
else
	notok "the dashboard's purge leaves another database than consentctl's: $(cat "$T/diff")"
fi
api POST sites/shop/purge '{}'
expect_json '[.purged, .visitor_rows, .done]' '[0,0,true]' "again: nothing left to purge"
check test "$(ctl consent verify shop --json | jq .ok)" = true "the log still verifies"
