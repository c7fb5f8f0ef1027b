#!/bin/bash
# t0716-admin-stats.sh: the report's figures by the banner's resolved
# language and what became of each visitor, decisions apart from no
# decision (issue 26, docs/consentctl.md "The report"), from entries the
# consent endpoint stored: exact with report --json, and the dashboard's
# GET report the same document, on either store.
. "$(dirname "$0")/setup.sh"
. "$TOP/tests/admin.sh"

PW=Owner-pass-9x7kq!
admin_store_prepare
admin_setup owner "$PW" || exit 1
site shop

entry() { # ANON_ID EVENT ACTION LANGUAGE [INTERACTION]
	cgi POST consent "" "$(jq -cn --arg a "$1" --arg e "$2" --arg x "$3" --arg l "$4" --arg i "${5:-}" \
	    '{site_key: "shop", anon_id: $a, categories: {necessary: true, analytics: ($x == "opt_in")},
	      event_type: $e, page_url: "https://example.com/"}
	    + (if $x == "" then {} else {event_action: $x} end)
	    + (if $l == "" then {} else {resolved_language: $l} end)
	    + (if $i == "" then {} else {interaction: $i} end)')"
	[ "$(cat "$T/status")" = 201 ] || notok "entry of $1: $(cat "$T/status") $(cat "$T/body")"
}
# a1, a2: shown the banner, then opt-in, opt-out (de); a3, a4: shown it and
# never decided (fr, en); a5: a returning visitor's monthly impression only
# (decided before: not asked); a6: partial without an impression (en); a7:
# shown it, opt-in then opt-out (fr: its last decision counts); a8: a
# decision without an action, no language sent.
entry a1 impression "" de
entry a1 initial opt_in de
entry a2 impression "" de
entry a2 initial opt_out de
entry a3 impression "" fr
entry a4 impression "" en
entry a5 impression "" en returning_visitor
entry a6 initial partial en
entry a7 impression "" fr
entry a7 initial opt_in fr
entry a7 update opt_out fr
entry a8 initial "" ""

ctl report shop --json > "$T/report.json"
check test $? = 0 "report --json"
is() { # JQ VALUE DESC
	_got=$(jq -c "$1" "$T/report.json" 2>&1)
	if [ "$_got" = "$2" ]; then ok "$3"; else notok "$3: $1 is $_got, want $2"; fi
}
is .outcomes '{"visitors":8,"decided":5,"opt_in":1,"opt_out":2,"partial":1,"acknowledge":0,"no_decision":2,"returning":1,"asked":7,"decided_percent":71.4,"no_decision_percent":28.6,"opt_in_percent":14.3,"opt_out_percent":28.6,"partial_percent":14.3,"acknowledge_percent":0}' \
    "outcomes: each visitor once, by its last decision's action; no decision (shown, never decided) apart from refusals; the returning visitor not asked"
is '[.totals.visitors, .totals.impressions, .totals.decisions]' '[8,6,6]' "the totals' visitors are the outcomes' visitors"
is '[.by_language[] | [.key, .impressions, .decisions, .opt_in, .opt_out, .partial, .opt_out_percent]]' \
    '[["de",2,2,1,1,0,50],["fr",2,2,1,1,0,50],[null,0,1,0,0,0,0],["en",2,1,0,0,1,0]]' \
    "by language: the impressions and decisions of each resolved language (null: not sent), most decisions first"

# The dashboard's route is the same document (the chart and its table in
# the statistics view are drawn from it: t0635).
api GET sites/shop/report
expect_status 200 "GET report"
check test "$(jq -c 'del(.generated_at)' "$T/body")" = "$(jq -c 'del(.generated_at)' "$T/report.json")" \
    "the dashboard's report is report --json's, outcomes and by_language included"
