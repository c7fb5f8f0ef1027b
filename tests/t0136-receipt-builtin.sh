#!/bin/bash
# t0136-receipt-builtin.sh: a receipt shows each entry the built-in texts in
# force when it was stored (issue 11), across an upgrade of the binaries
# that changes them: every entry records its build's defaults hash
# (builtin_sha256, covered by its digest), init and config publish record
# that build's texts (builtin_texts), verify checks them, and an entry whose
# texts were never recorded, or that records none, says so.
. "$(dirname "$0")/setup.sh"
. "$(dirname "$0")/ctl-helpers.sh"

hash() { printf '%s' "$1" | sha256sum | cut -c1-64; }
# The pieces of a record as a file, and a file's bytes as a record's: the
# sqlite3 shell's writefile and readfile; on PostgreSQL through base64 (the
# text crosses exactly; the statement on stdin, for its size).
pieces_of() { # SHA FILE
	if store_is_postgres; then
		db "SELECT encode(convert_to(pieces, 'UTF8'), 'base64') FROM builtin_texts WHERE sha256 = '$1'" | base64 -d > "$2"
	else
		db "SELECT writefile('$2', CAST(pieces AS BLOB)) FROM builtin_texts WHERE sha256 = '$1'" >/dev/null
	fi
}
file_text() { # FILE: an SQL expression of its text
	if store_is_postgres; then
		echo "convert_from(decode('$(base64 -w0 < "$1")', 'base64'), 'UTF8')"
	else
		echo "CAST(readfile('$1') AS TEXT)"
	fi
}

# The pieces of the built-in texts as the Makefile hashes them
# (tools/embed-texts.sh --hash), from the directory $1 of i18n files.
pieces() {
	printf 'defaults.json\n'; cat "$TOP/common/config/defaults.json"
	for f in en.json $(cd "$1" && LC_ALL=C ls ./*.json | sed 's|^\./||' | grep -vx en.json); do
		printf '%s\n' "$f"; cat "$1/$f"
	done
}
pieces "$TOP/common/config/i18n" > "$T/pieces-a"
A=$(sha256sum < "$T/pieces-a" | cut -c1-64)
check test "$(db "SELECT count(*) FROM builtin_texts")|$(db "SELECT sha256 FROM builtin_texts")" = "1|$A" "init records this build's built-in texts under their SHA-256"
pieces_of "$A" "$T/pieces-db"
check cmp -s "$T/pieces-a" "$T/pieces-db" "the recorded pieces are exactly the bytes the build hashed"

site bt
visit() { # ANON_ID LANG OUTFILE
	cgi GET config "site_key=bt&lang=$2"
	cp "$T/body" "$3"
	cgi POST consent "" "{\"site_key\":\"bt\",\"anon_id\":\"$1\",\"categories\":{\"necessary\":true},\"event_type\":\"initial\",\"event_action\":\"opt_in\",\"config_version\":$(jq .version "$3"),\"language\":\"$2\",\"resolved_language\":\"$(jq -r .resolvedLanguage "$3")\"}"
	expect_status 201 "consent of $1: 201"
}
# Give entry ID of the visitor the built-in texts SHA (or NULL) and its
# digest by the documented encoding (tools/verify-export.py), as a build
# with those texts would have stored it.
restamp() { # ANON_ID SHA|NULL
	local sha=null col=NULL
	[ "$2" = NULL ] || { sha="\"$2\""; col="'$2'"; }
	db "UPDATE consent_log SET builtin_sha256 = $col WHERE anon_id_hash = '$(hash "$1")'"
	ctl consent find bt --anon-id "$1" | jq -c ".builtin_sha256 = $sha" > "$T/row"
	d=$(python3 -c 'import sys, json; sys.path.insert(0, sys.argv[1]); import importlib; v = importlib.import_module("verify-export"); print(v.entry_digest("bt", json.load(open(sys.argv[2]))))' "$TOP/tools" "$T/row")
	db "UPDATE consent_log SET digest = '$d' WHERE anon_id_hash = '$(hash "$1")'"
}

# --- build A: nothing published, the built-in document is served --------------------
visit alice en "$T/shown-a"
check test "$(db "SELECT builtin_sha256 FROM consent_log WHERE anon_id_hash = '$(hash alice)'")" = "$A" "the entry records the build's built-in texts"
check test "$(ctl consent find bt --anon-id alice | jq -r .builtin_sha256)" = "$A" "find and the export carry builtin_sha256"

# --- build B: other built-in texts (a new title, a reworded label) --------------------
mkdir "$T/i18n-b"
cp "$TOP"/common/config/i18n/*.json "$T/i18n-b/"
jq '.banner.title = "We use cookies (build B)" | .ui.preferencesTitle = "Privacy choices (build B)"' "$TOP/common/config/i18n/en.json" > "$T/i18n-b/en.json"
pieces "$T/i18n-b" > "$T/pieces-b"
B=$(sha256sum < "$T/pieces-b" | cut -c1-64)
echo "INSERT INTO builtin_texts (sha256, pieces, recorded_at) VALUES ('$B', $(file_text "$T/pieces-b"), '2026-12-01T00:00:00.000Z')" | db
visit bob en "$T/shown-bob"
restamp bob "$B"
run consent verify bt
check test "$rc" = 0 "verify: both records and both entries match"

run consent receipt bt --anon-id alice --json
cp "$T/out" "$T/r-alice"
check test "$(jq -c '.entries[0].shown.content' "$T/r-alice")" = "$(jq -c .resolvedContent "$T/shown-a")" "entry of build A: A's texts, as the config endpoint answered"
check test "$(jq -c '.entries[0].shown.ui' "$T/r-alice")" = "$(jq -c .resolvedUi "$T/shown-a")" "entry of build A: A's labels"
check test "$(jq -r '.entries[0].shown.builtin_sha256' "$T/r-alice")|$(jq '.entries[0].shown | has("builtin_note")' "$T/r-alice")" = "$A|false" "entry of build A: names A, no note"
run consent receipt bt --anon-id bob --json
cp "$T/out" "$T/r-bob"
check test "$(jq -r '.entries[0].shown.content.title' "$T/r-bob")" = "We use cookies (build B)" "entry of build B: B's title, not this build's"
check test "$(jq -r '.entries[0].shown.ui.preferencesTitle' "$T/r-bob")" = "Privacy choices (build B)" "entry of build B: B's labels"
check test "$(jq -c '.entries[0].shown.content | del(.title)' "$T/r-bob")" = "$(jq -c '.resolvedContent | del(.title)' "$T/shown-bob")" "entry of build B: the rest as B has it"

# --- a published config's gaps are filled from the entry's built-in texts -------------
ctl config publish bt "$TOP/tests/fixtures/config-test.json" >/dev/null
visit carol en "$T/shown-carol"
restamp carol "$B"
run consent receipt bt --anon-id carol --json
check test "$(jq -r '.entries[0].shown.ui | [.required, .preferencesTitle] | join("|")' "$T/out")" = "Always on|Privacy choices (build B)" "published config: its own label, the gap from B's built-in texts"
check test "$(jq -r '.entries[0].shown.content.title' "$T/out")" = "$(jq -r .resolvedContent.title "$T/shown-carol")" "published config: its own title"

# --- init and publish record the texts of the running build --------------------------
db "DELETE FROM builtin_texts WHERE sha256 = '$A'"
ctl config publish bt "$TOP/tests/fixtures/config-test.json" >/dev/null
check test "$(db "SELECT count(*) FROM builtin_texts WHERE sha256 = '$A'")" = 1 "config publish records the running build's texts"
db "DELETE FROM builtin_texts WHERE sha256 = '$A'"
ctl init >/dev/null
check test "$(db "SELECT count(*) FROM builtin_texts WHERE sha256 = '$A'")" = 1 "init records them"
snap
ctl init >/dev/null
unchanged "a second init leaves the record as it is (INSERT OR IGNORE)"

# --- tampering ------------------------------------------------------------------------
db "UPDATE builtin_texts SET pieces = replace(pieces, 'build B', 'build C') WHERE sha256 = '$B'"
run consent verify bt
check test "$rc" = 1 "verify: a changed record fails"
check grep -q "built-in texts $B .*do not match their SHA-256" "$T/err" "verify names the record"
run consent receipt bt --anon-id bob --json
check test "$rc" = 1 "receipt refuses texts that do not match their key"
echo "UPDATE builtin_texts SET pieces = $(file_text "$T/pieces-b") WHERE sha256 = '$B'" | db
run consent verify bt
check test "$rc" = 0 "verify: restored"
db "UPDATE consent_log SET builtin_sha256 = '$A' WHERE anon_id_hash = '$(hash bob)'"
run consent verify bt
check test "$rc" = 1 "verify: an entry's builtin_sha256 is covered by its digest"
restamp bob "$B"

# --- texts never recorded, and an entry from before version 4 ------------------------
N=$(printf 'c%.0s' $(seq 64))
visit dave en "$T/shown-dave"
restamp dave "$N"
run consent verify bt
check test "$rc" = 0 "verify: texts not recorded is no mismatch"
check grep -q "built-in texts not recorded: 1 entries" "$T/out" "verify says how many entries name texts not recorded"
check test "$(ctl consent verify bt --json | jq .builtin_not_recorded)" = 1 "verify --json: builtin_not_recorded"
run consent receipt bt --anon-id dave --json
check test "$rc" = 0 "receipt of such an entry: exit 0"
check test "$(jq -c '.entries[0].shown | [.builtin_sha256, has("content"), has("ui"), has("categories")]' "$T/out")" = "[\"$N\",false,false,false]" "it shows no texts"
check test "$(jq -r '.entries[0].shown.builtin_note' "$T/out" | cut -c1-28)" = "built-in texts not recorded:" "it says the texts were not recorded"

visit erin en "$T/shown-erin"
restamp erin NULL
run consent verify bt
check test "$rc" = 0 "verify: an entry without builtin_sha256 (NULL, encoded -) verifies"
run consent receipt bt --anon-id erin --json
check test "$(jq -r '.entries[0].shown.builtin_sha256' "$T/out")" = null "an entry from before version 4: no built-in texts recorded"
check grep -q "stored before schema version 4" "$T/out" "its receipt says it uses this build's built-in texts"
check test "$(jq -c '.entries[0].shown.ui' "$T/out")" = "$(jq -c .resolvedUi "$T/shown-erin")" "and shows them"
run consent receipt bt --anon-id erin
check grep -q "stored before schema version 4" "$T/out" "the text receipt has the note too"

ctl consent seal bt
ctl consent export bt > "$T/export.jsonl"
ctl consent head bt --all > "$T/seals.jsonl"
check python3 "$TOP/tools/verify-export.py" bt "$T/export.jsonl" "$T/seals.jsonl" "verify-export.py checks the export with builtin_sha256"
