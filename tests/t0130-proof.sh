#!/bin/bash
# t0130-proof.sh: the tamper-evident log (issue 11).  Entries written by 16
# concurrent processes are sealed and verify; then each kind of change made
# behind the service's back through sqlite3 (a byte of any stored field of a
# sealed entry, a deleted entry, an inserted row, an edited seal or config,
# a rewritten chain) makes `consentctl consent verify` fail and name the
# entry or seal (on PostgreSQL, through psql on a copy of the database).
# An independent verifier (tools/verify-export.py, standard Python) checks
# the export and the seals as a third party would.
. "$(dirname "$0")/setup.sh"
. "$(dirname "$0")/ctl-helpers.sh"

N=${PROOF_POSTS:-160}   # consent POSTs, from 16 workers
site pr
site other
ctl config publish pr "$TOP/tests/fixtures/config-test.json" >/dev/null
jq '.content.translations.de.banner.title = "Cookies hier, Version 2"' "$TOP/tests/fixtures/config-test.json" | ctl config publish pr - >/dev/null

# One consent POST with every field, as a web server runs the endpoint
# ($CGI_BIN: the CGI program, or FastCGI in that mode).
post() { # ANON_ID [SITE]
	body="{\"site_key\":\"${2:-pr}\",\"anon_id\":\"$1\",\"categories\":{\"necessary\":true,\"analytics\":true},\"event_type\":\"initial\",\"event_action\":\"partial\",\"config_version\":2,\"region\":\"gdpr\",\"consent_model\":\"opt_in\",\"regulation\":\"gdpr\",\"time_to_action_ms\":1234.5,\"interaction\":\"customize\",\"preferences_opened\":true,\"banner_load_time_ms\":87,\"banner_position\":\"bottom-full\",\"page_url\":\"https://example.com/p?x=$1\",\"sdk_version\":\"0.9.0\",\"language\":\"de-DE\",\"resolved_language\":\"de\"}"
	printf '%s' "$body" | env -i REQUEST_METHOD=POST CONTENT_LENGTH=${#body} \
	    CONTENT_TYPE=application/json HTTP_ORIGIN=https://example.com HTTP_SEC_GPC=1 \
	    HTTP_CF_IPCOUNTRY=DE HTTP_USER_AGENT="Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0" \
	    REMOTE_ADDR=127.0.0.1 CONSENT_DB="$CONSENT_DB" \
	    ${ASAN_OPTIONS:+ASAN_OPTIONS=$ASAN_OPTIONS} ${UBSAN_OPTIONS:+UBSAN_OPTIONS=$UBSAN_OPTIONS} \
	    "$CGI_BIN/consent" | sed -n '1s/^Status: \([0-9]*\).*/\1/p'
}
export -f post
export BUILD CONSENT_DB CGI_BIN
# In FastCGI mode the writers are four processes on one socket.
fcgi_mode && fcgi_proc_start consent 4

# --- 16 concurrent writers ---------------------------------------------------------
seq "$N" | xargs -P 16 -I{} bash -c 'post v-{}' > "$T/statuses"
check test "$(grep -c '^201$' "$T/statuses")" = "$N" "$N consents from 16 concurrent processes: all 201"
check test "$(db 'SELECT count(*) FROM consent_log WHERE length(digest) = 64')" = "$N" "every entry was stored with its digest"
run consent verify pr
check test "$rc" = 0 "verify before any seal: exit 0 (unsealed entries are checked too)"
check grep -q "^pr: $N entries verified (0 sealed, $N not sealed yet), 0 seals" "$T/out" "verify counts the unsealed entries"
run consent head pr
fails 1 "pr has no seal yet (consentctl consent seal pr)" "head before any seal"

run consent seal
succeeds "" "consent seal (every site): exit 0, silent"
check test "$(db 'SELECT count(*) FROM consent_log WHERE seal_id IS NULL')" = 0 "every entry is sealed"
for i in 1 2 3 4 5; do post "late-$i" >/dev/null; done
post "elsewhere" other >/dev/null
run consent seal pr
succeeds "" "consent seal pr: exit 0"
check test "$(db "SELECT count(*) FROM consent_log WHERE seal_id IS NULL")" = 1 "seal KEY seals that site only"
run consent seal pr
check test "$rc:$(db 'SELECT count(*) FROM consent_seals')" = "0:2" "a seal with nothing new adds no seal"
post "unsealed-1" >/dev/null
run consent verify pr --json
check test "$rc" = 0 "verify --json: exit 0"
check test "$(jq -c '[.ok, .entries, .sealed, .unsealed, .seals, .pruned, .head.seq, .head.tree_size]' "$T/out")" = "[true,$((N + 6)),$((N + 5)),1,2,0,2,5]" "verify --json: counts and head"
head2=$(jq -r .head.hash "$T/out")
run consent head pr
check test "$(jq -r .hash "$T/out"):$(jq -r .seq "$T/out"):$(jq -r .site_key "$T/out")" = "$head2:2:pr" "head prints the latest seal as one JSON line"
check test "$(wc -l < "$T/out" | tr -d ' ')" = 1 "head: one line, to append to a file"
run consent head pr --all
check test "$(jq -s -c 'map(.seq)' "$T/out"):$(sed -n 2p "$T/out" | jq -r .prev)" = "[1,2]:$(sed -n 1p "$T/out" | jq -r .hash)" "head --all: the chain, each naming the one before"
check test "$(sed -n 1p "$T/out" | jq -r .prev)" = 0000000000000000000000000000000000000000000000000000000000000000 "the first seal names 64 zeros"
run consent verify pr --head "$head2"
check test "$rc" = 0 "verify --head with the recorded head: exit 0"

# --- the export carries each entry's digest and seal -------------------------------
run consent export pr
check test "$(jq -s -c '[length, (map(.digest | length) | unique), (map(.seal) | unique)]' "$T/out")" = "[$((N + 6)),[64],[null,1,2]]" "export: digest and seal on every entry"
check test "$(jq -s -r 'map(.config_sha256) | unique | .[]' "$T/out")" = "$(db "SELECT sha256 FROM configs WHERE version = 2 AND site_id = (SELECT id FROM sites WHERE site_key = 'pr')")" "export: config_sha256 names the published document"
check test "$(db "SELECT sha256 FROM configs WHERE version = 2 AND site_id = 1")" = "$(db "SELECT document FROM configs WHERE version = 2 AND site_id = 1" | tr -d '\n' | sha256sum | cut -c1-64)" "configs.sha256 is the SHA-256 of the document"
cp "$T/out" "$T/entries.jsonl"
ctl consent head pr --all > "$T/seals.jsonl"
if command -v python3 >/dev/null 2>&1; then
	check python3 "$TOP/tools/verify-export.py" pr "$T/entries.jsonl" "$T/seals.jsonl" "$head2" "a third party's verifier (tools/verify-export.py) accepts the export and the seals"
	jq -c 'if .anon_id_hash == "'"$(printf v-7 | sha256sum | cut -c1-64)"'" then .page_url = "https://example.com/forged" else . end' "$T/entries.jsonl" > "$T/forged.jsonl"
	if python3 "$TOP/tools/verify-export.py" pr "$T/forged.jsonl" "$T/seals.jsonl" > "$T/py" 2>&1; then notok "the third party's verifier refuses a changed entry"
	else check grep -q "its fields do not match its digest" "$T/py" "the third party's verifier refuses a changed entry"; fi
	sed 1d "$T/seals.jsonl" > "$T/seals-cut.jsonl"
	if python3 "$TOP/tools/verify-export.py" pr "$T/entries.jsonl" "$T/seals-cut.jsonl" >/dev/null 2>&1; then notok "... and a broken chain"; else ok "... and a broken chain"; fi
else
	skip "python3 is not installed: the third party's verifier is not run"
fi

# --- tampering ----------------------------------------------------------------------
# PostgreSQL: the good state is a database of its own (restored from a dump
# of the test database, which pgbouncer keeps connections to), each copy a
# CREATE DATABASE from it as a template; consentctl reaches a copy directly
# (port 5432).  The SQL runs as the superuser with foreign keys unchecked
# (session_replication_role): SQLite does not check them either, and the
# rows tampered with are the same.
pg_copy() { # NAME: a new database, a copy of the good state
	pg_psql postgres -q -c "CREATE DATABASE \"$1\" TEMPLATE \"$good\" OWNER consent"
}
pg_conn() { echo "host=$CONSENT_PG_DIR port=5432 dbname=$1 user=consent"; }
if store_is_postgres; then
	good=${PG_DB}_good
	pg_psql postgres -q -c "CREATE DATABASE \"$good\" OWNER consent" &&
	    pg_dump_db | pg_psql "$good" -q > /dev/null 2> "$T/sqlerr" ||
	    notok "PostgreSQL: a copy of the database to tamper with: $(head -c 300 "$T/sqlerr")"
else
	db 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
	cp "$CONSENT_DB" "$T/good.db"
fi
victim=$(db "SELECT id FROM consent_log WHERE anon_id_hash = '$(printf v-42 | sha256sum | cut -c1-64)'")
vseal=$(db "SELECT s.seq FROM consent_log l JOIN consent_seals s ON s.id = l.seal_id WHERE l.id = $victim")
# tamper DESC SQL...: on a fresh copy; verify must exit 1 and name what it says.
# (PostgreSQL: SQLite's printf('%064d', N) is lpad('N', 64, '0').)
tamper() {
	local what=$1 want=$2 desc=$3; shift 3
	if store_is_postgres; then
		local bad=${PG_DB}_bad
		pg_copy "$bad" > /dev/null 2> "$T/sqlerr" || { notok "$desc: no copy: $(cat "$T/sqlerr")"; return; }
		if ! pg_psql "$bad" -q -c 'SET session_replication_role = replica' \
		    -c "$(printf '%s' "$*" | sed "s/printf('%064d', \([0-9]*\))/lpad('\1', 64, '0')/g")" > /dev/null 2> "$T/sqlerr"; then
			notok "$desc: psql refused: $(cat "$T/sqlerr")"
			pg_drop_db "$bad" > /dev/null
			return
		fi
		ctl --db "$(pg_conn "$bad")" consent verify pr --json > "$T/vout" 2> "$T/verr"
		local vrc=$? got
		pg_drop_db "$bad" > /dev/null
	else
		cp "$T/good.db" "$T/bad.db"
		rm -f "$T/bad.db-wal" "$T/bad.db-shm"
		if ! sqlite3 "$T/bad.db" "$@" 2> "$T/sqlerr"; then notok "$desc: sqlite3 refused: $(cat "$T/sqlerr")"; return; fi
		ctl --db "$T/bad.db" consent verify pr --json > "$T/vout" 2> "$T/verr"
		local vrc=$? got
	fi
	got=$(jq -r ".$what" "$T/vout" 2>/dev/null)
	if [ "$vrc" = 1 ] && [ "$(jq -r .ok "$T/vout")" = false ] && [ "$got" = "$want" ]; then
		ok "$desc: verify fails, naming $what $want"
	else
		notok "$desc: exit $vrc, $(head -c 300 "$T/vout") $(cat "$T/verr")"
	fi
}
# One byte of each stored field of a sealed entry (a different character in
# text, the next value of a number or a flag).
flip() { echo "CASE WHEN substr($1, 2, 1) = 'x' THEN substr($1, 1, 1) || 'y' || substr($1, 3) ELSE substr($1, 1, 1) || 'x' || substr($1, 3) END"; }
for col in created_at anon_id_hash categories event_action region consent_model regulation \
    interaction banner_position page_url sdk_version language resolved_language browser os country digest; do
	tamper entry "$victim" "a byte of $col of a sealed entry" "UPDATE consent_log SET $col = $(flip $col) WHERE id = $victim"
done
tamper entry "$victim" "event_type of a sealed entry" "UPDATE consent_log SET event_type = 'update' WHERE id = $victim"
tamper entry "$victim" "device_type of a sealed entry" "UPDATE consent_log SET device_type = 'mobile' WHERE id = $victim"
for col in config_version published_version time_to_action_ms banner_load_time_ms; do
	tamper entry "$victim" "$col of a sealed entry" "UPDATE consent_log SET $col = $col + 1 WHERE id = $victim"
done
for col in preferences_opened gpc; do
	tamper entry "$victim" "$col of a sealed entry" "UPDATE consent_log SET $col = 1 - $col WHERE id = $victim"
done
tamper entry "$victim" "config_id of a sealed entry (another version's texts)" "UPDATE consent_log SET config_id = (SELECT id FROM configs WHERE site_id = 1 AND version = 1) WHERE id = $victim"
tamper entry "$victim" "categories rewritten as equivalent JSON" "UPDATE consent_log SET categories = replace(categories, ':', ': ') WHERE id = $victim"
tamper seal "$vseal" "a sealed entry deleted" "DELETE FROM consent_log WHERE id = $victim"
tamper seal "$vseal" "a sealed entry moved to another site" "UPDATE consent_log SET site_id = 2 WHERE id = $victim"
tamper seal "$vseal" "a sealed entry's seal_id cleared" "UPDATE consent_log SET seal_id = NULL WHERE id = $victim"
tamper seal "$vseal" "a row inserted among sealed ones (a copy, between two)" \
    "INSERT INTO consent_log (site_id, created_at, anon_id_hash, categories, event_type, published_version, device_type, digest, seal_id)
     SELECT site_id, created_at, anon_id_hash, categories, event_type, published_version, device_type, digest, seal_id FROM consent_log WHERE id = $victim"
tamper seal 1 "two sealed entries swapped in time" \
    "UPDATE consent_log SET created_at = CASE id WHEN 1 THEN (SELECT created_at FROM consent_log WHERE id = 2) ELSE (SELECT created_at FROM consent_log WHERE id = 1) END,
       digest = CASE id WHEN 1 THEN (SELECT digest FROM consent_log WHERE id = 2) ELSE (SELECT digest FROM consent_log WHERE id = 1) END WHERE id IN (1, 2)"
for col in sealed_at root prev hash; do
	tamper seal 1 "a byte of $col of seal 1" "UPDATE consent_seals SET $col = $(flip $col) WHERE seq = 1 AND site_id = 1"
done
tamper seal 2 "tree_size of seal 2" "UPDATE consent_seals SET tree_size = tree_size - 1 WHERE seq = 2 AND site_id = 1"
tamper seal 1 "seal 1 deleted" "DELETE FROM consent_seals WHERE seq = 1 AND site_id = 1; UPDATE consent_log SET seal_id = NULL WHERE seal_id = 1"
tamper error "1 entries are in no seal of the site and not unsealed (their seal_id names no seal of it)" \
    "a row hidden behind a seal_id of no seal" \
    "INSERT INTO consent_log (site_id, created_at, anon_id_hash, categories, event_type, published_version, device_type, digest, seal_id)
     VALUES (1, '2020-01-01T00:00:00.000Z', printf('%064d', 1), '{}', 'initial', 0, 'desktop', printf('%064d', 2), 999)"
tamper error "config version 1: its document does not match its SHA-256" "the document of a published version edited" \
    "UPDATE configs SET document = replace(document, 'Cookies here', 'Cookies there') WHERE site_id = 1 AND version = 1"
tamper entry "$(db "SELECT id FROM consent_log WHERE seal_id IS NULL AND site_id = 1")" "a byte of an unsealed entry" \
    "UPDATE consent_log SET page_url = $(flip page_url) WHERE seal_id IS NULL AND site_id = 1"

# A whole chain rewritten after an entry was removed: consistent in itself,
# caught only by a head recorded elsewhere (verify --head).
rewrite="DELETE FROM consent_log WHERE id = $victim; UPDATE consent_log SET seal_id = NULL; DELETE FROM consent_seals"
if store_is_postgres; then
	rewritten=$(pg_conn "${PG_DB}_rewritten")
	pg_copy "${PG_DB}_rewritten" && pg_psql "${PG_DB}_rewritten" -q -c "$rewrite"
else
	rewritten=$T/rewritten.db
	cp "$T/good.db" "$rewritten"
	sqlite3 "$rewritten" "$rewrite"
fi
ctl --db "$rewritten" consent seal pr
ctl --db "$rewritten" consent verify pr > /dev/null 2>&1
check test $? = 0 "a chain rewritten from scratch is consistent in itself"
ctl --db "$rewritten" consent verify pr --head "$head2" > "$T/out" 2> "$T/err"; rc=$?
fails 1 "verify pr: the recorded head $head2 is not in the chain of seals" "... but verify --head with the head recorded earlier fails"
if store_is_postgres; then
	pg_drop_db "${PG_DB}_rewritten" > /dev/null
	pg_drop_db "$good" > /dev/null
fi

# The original is untouched and still verifies.
run consent verify pr --head "$head2"
check test "$rc" = 0 "the real log still verifies"

# --- usage ------------------------------------------------------------------------------
run consent verify pr --head abc
fails 2 "invalid --head 'abc': the 64 hex digits of a seal's hash" "verify --head must be a hash"
run consent verify nosuch
fails 1 "unknown site: nosuch" "verify of an unknown site"
run consent seal nosuch
fails 1 "unknown site: nosuch" "seal of an unknown site"
run consent seal pr other
fails 2 "usage: consentctl consent seal [KEY]" "seal takes one KEY at most"
run consent head pr --json
fails 2 "consent head does not take --json" "head prints JSON lines already"

# --- verify and seal while writers write ---------------------------------------------
# Each verify reads one snapshot: entries arriving or sealed meanwhile are
# neither missed nor counted twice.
seq 200 300 | xargs -P 8 -I{} bash -c 'post w-{}' > "$T/statuses2" &
writers=$!
bad=0 runs=0
while kill -0 "$writers" 2>/dev/null; do
	ctl consent seal pr 2>> "$T/seal-err" || bad=$((bad + 1))
	ctl consent verify pr > /dev/null 2>> "$T/verify-err" || bad=$((bad + 1))
	runs=$((runs + 1))
done
wait "$writers"
check test "$bad:$(grep -c '^201$' "$T/statuses2")" = "0:101" "$runs seals and verifies while 8 writers wrote 101 entries: all succeeded $(cat "$T/verify-err" "$T/seal-err" | head -c 200)"
ctl consent seal pr
run consent verify pr
check test "$rc" = 0 "the log verifies after the concurrent run"

# --- late entries --------------------------------------------------------------------------
# An entry committed after a seal can be older than the seal's last entry
# (its time is taken before it waits for the write lock): the next seal
# looks back SEAL_SLACK_SECONDS (300) and takes it.  One older still is left
# unsealed, and verify still checks and counts it.
if command -v python3 >/dev/null 2>&1; then
	last=$(db "SELECT last_created_at FROM consent_seals WHERE site_id = 1 ORDER BY seq DESC LIMIT 1")
	late() { # SECONDS_BEFORE_LAST ANON_ID: a row as the endpoint would store it, digest and all
		python3 - "$TOP/tools/verify-export.py" "$last" "$1" "$2" <<'PY'
import sys, datetime, hashlib
src = open(sys.argv[1]).read().replace("\nmain()\n", "\n")
ns = {}
exec(src, ns)
t = datetime.datetime.strptime(sys.argv[2], "%Y-%m-%dT%H:%M:%S.%fZ") - datetime.timedelta(seconds=int(sys.argv[3]))
at = t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (t.microsecond // 1000)
e = {"created_at": at, "anon_id_hash": hashlib.sha256(sys.argv[4].encode()).hexdigest(),
     "categories": '{"necessary":true}', "event_type": "impression", "published_version": 0,
     "device_type": "desktop", "gpc": 0}
d = ns["entry_digest"]("pr", e)
print("INSERT INTO consent_log (site_id, created_at, anon_id_hash, categories, event_type, "
      "published_version, device_type, gpc, digest) VALUES (1, '%s', '%s', '%s', 'impression', 0, "
      "'desktop', 0, '%s');" % (at, e["anon_id_hash"], e["categories"], d))
PY
	}
	db "$(late 200 late-within)"
	db "$(late 900 late-beyond)"
	run consent verify pr --json
	check test "$rc:$(jq -c .unsealed "$T/out")" = "0:2" "two late entries, digested as the endpoint does: verify checks them, not sealed yet"
	ctl consent seal pr
	if store_is_postgres; then true=t; else true=1; fi   # how a true condition prints
	check test "$(db "SELECT seal_id IS NOT NULL FROM consent_log WHERE anon_id_hash = '$(printf late-within | sha256sum | cut -c1-64)'")" = $true "the next seal takes one 200 s older than the last sealed entry"
	check test "$(db "SELECT seal_id IS NULL FROM consent_log WHERE anon_id_hash = '$(printf late-beyond | sha256sum | cut -c1-64)'")" = $true "one 900 s older is left unsealed"
	run consent verify pr --json
	check test "$rc:$(jq -c '[.ok, .unsealed]' "$T/out")" = "0:[true,1]" "verify: the log holds, the old one counted as not sealed yet"
else
	skip "python3 is not installed: late entries not made"
fi
