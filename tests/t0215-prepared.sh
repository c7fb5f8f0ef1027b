#!/bin/bash
# t0215-prepared.sh: the answers `config publish` prepares (schema.sql,
# config_answers) give exactly the bodies resolving the document gives, and
# `consentctl init` prepares the versions of a database from before them.
. "$(dirname "$0")/setup.sh"
. "$(dirname "$0")/ctl-helpers.sh"

site p1
ctl config publish p1 "$TOP/tests/fixtures/config-test.json" >/dev/null
site p2
ctl config publish p2 "$TOP/bench/fixtures/config.json" >/dev/null
site d1   # nothing published: nothing prepared

check test "$(db "SELECT count(*) FROM config_skeletons")" = 2 "publish stores a skeleton per version"
# config-test.json: 5 regions + none, 4 languages; the bench config: 4 + 1, 8.
check test "$(db "SELECT count(*) FROM config_answers a JOIN sites s ON s.config_id = a.config_id WHERE s.site_key = 'p1'")" = 24 "one answer per region (and none) and language"
check test "$(db "SELECT count(*) FROM config_answers a JOIN sites s ON s.config_id = a.config_id WHERE s.site_key = 'p2'")" = 40 "the bench config: 40 answers"

# Visitors across regions, subdivisions, parameters and languages.
visitors=(
	"HTTP_CF_IPCOUNTRY=DE HTTP_ACCEPT_LANGUAGE=de-DE,de;q=0.9"
	"HTTP_CF_IPCOUNTRY=FR HTTP_ACCEPT_LANGUAGE=fr-CA"
	"HTTP_CF_IPCOUNTRY=US HTTP_CF_REGION_CODE=CA HTTP_ACCEPT_LANGUAGE=en-US"
	"HTTP_CF_IPCOUNTRY=US HTTP_ACCEPT_LANGUAGE=es"
	"HTTP_CF_IPCOUNTRY=BR HTTP_ACCEPT_LANGUAGE=pt"
	"HTTP_CF_IPCOUNTRY=JP HTTP_ACCEPT_LANGUAGE=ja"
	"HTTP_ACCEPT_LANGUAGE=nl-BE,pl;q=0.5"
	"Q=region=us_state_laws&lang=pt-BR"
	"Q=region=nowhere&lang=xx"
	"Q=lang=DE HTTP_CF_IPCOUNTRY=IT"
	"HTTP_ACCEPT_LANGUAGE=zh-HK,es-MX;q=0.5"
	"Q=lang=ar-EG HTTP_CF_IPCOUNTRY=EG"
	""
)
bodies() { # OUTFILE: every site and visitor, one body per line
	: > "$1"
	for key in p1 p2 d1; do
		for vis in "${visitors[@]}"; do
			q=
			vars=()
			for w in $vis; do
				case $w in Q=*) q="&${w#Q=}" ;; *) vars+=("$w") ;; esac
			done
			cgi "${vars[@]}" GET config "site_key=$key$q"
			printf '%s %s\n' "$(cat "$T/status")" "$(cat "$T/body")" >> "$1"
		done
	done
}
bodies "$T/prepared"
check test "$(grep -c '^200 ' "$T/prepared")" = 39 "every visitor answered 200"
db "DELETE FROM config_answers; DELETE FROM config_skeletons;"
bodies "$T/resolved"
if cmp -s "$T/prepared" "$T/resolved"; then
	ok "prepared answers are byte for byte the resolved ones"
else
	notok "prepared answers are byte for byte the resolved ones"
	diff "$T/prepared" "$T/resolved" | head -n 6
fi

# A skeleton whose answer is missing falls back to resolving the document.
ctl init
db "DELETE FROM config_answers WHERE region = 'gdpr'"
bodies "$T/partial"
check cmp -s "$T/partial" "$T/resolved" "a missing answer: resolved from the document"

# A version-1 database (before the prepared tables) is upgraded by init.
# PostgreSQL has no older schema: there the tables are only emptied, and
# init prepares every published version all the same.
if store_is_postgres; then
	db "DELETE FROM config_answers; DELETE FROM config_skeletons;"
	ctl init
	skip "init upgrades user_version 1 to the current one: SQLite only (PostgreSQL's first schema is version 4)"
else
	db "DROP TABLE config_answers; DROP TABLE config_skeletons; PRAGMA user_version = 1;"
	ctl init
	check test "$(db 'PRAGMA user_version')" = "$(sed -n 's/^PRAGMA user_version = \([0-9]*\);.*/\1/p' "$TOP/schema.sql")" "init upgrades user_version 1 to the current one"
fi
check test "$(db "SELECT count(*) FROM config_answers")" = 64 "init prepares every published version"
bodies "$T/upgraded"
check cmp -s "$T/upgraded" "$T/resolved" "after the upgrade: the same bodies"

# Rows stamped by another build (its built-in texts or resolver differ: an
# upgrade before `consentctl init` ran) are ignored, never served.
# (PostgreSQL: the stamp's text replaced, which leaves the rest of the
# skeleton's bytes as they are; the stamp is there once.)
if store_is_postgres; then
	stamp=$(db "SELECT skeleton::jsonb ->> 'stamp' FROM config_skeletons LIMIT 1")
else
	stamp=$(db "SELECT json_extract(skeleton, '\$.stamp') FROM config_skeletons LIMIT 1")
fi
check sh -c "echo '$stamp' | grep -Eq '^r[0-9]+-[0-9a-f]{16}\$'" "the skeleton carries this build's stamp"
if store_is_postgres; then
	db "UPDATE config_skeletons SET skeleton = replace(skeleton, '\"stamp\":\"$stamp\"', '\"stamp\":\"r0-0000000000000000\"')"
else
	db "UPDATE config_skeletons SET skeleton = json_set(skeleton, '\$.stamp', 'r0-0000000000000000')"
fi
db "UPDATE config_answers SET answer = '{\"sdkCategories\":[],\"resolvedRegion\":\"stale\"}'"
bodies "$T/stale"
check cmp -s "$T/stale" "$T/resolved" "stale rows: every body resolved afresh, the same bytes"
if store_is_postgres; then
	db "UPDATE config_skeletons SET skeleton = replace(skeleton, '\"stamp\":\"r0-0000000000000000\"', '\"stamp\":\"$stamp\"')"
else
	db "UPDATE config_skeletons SET skeleton = json_set(skeleton, '\$.stamp', '$stamp')"
fi
bodies "$T/wrong"
check test "$(grep -c '"resolvedRegion":"stale"' "$T/wrong")" -gt 0 "this build's stamp: the stored rows are served (the stamp is what decides)"
ctl init
check test "$(db "SELECT count(*) FROM config_answers WHERE answer LIKE '%\"stale\"%'")" = 0 "init prepares the rows again"
bodies "$T/reinit"
check cmp -s "$T/reinit" "$T/resolved" "after init: the same bodies"

# Consent and scripts check categories against the skeleton.
cgi POST consent "" '{"site_key":"p2","anon_id":"v1","categories":{"analytics":true},"event_type":"initial"}'
expect_status 201 "consent with a category of the published config: 201"
cgi POST consent "" '{"site_key":"p2","anon_id":"v1","categories":{"nope":true},"event_type":"initial"}'
expect_status 400 "consent with an unknown category: 400"
