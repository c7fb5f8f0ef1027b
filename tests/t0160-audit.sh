#!/bin/bash
# t0160-audit.sh: the audit trail (ADMIN.md 8): consentctl records each of
# its changes (actor, site, action, version, detail; an erasure names no
# visitor), `audit list`, `audit seal` and `audit verify`, which names the
# first record or seal that was changed, removed or moved.
. "$(dirname "$0")/setup.sh"
. "$(dirname "$0")/ctl-helpers.sh"

actor="consentctl:$(id -un)"
count() { db "SELECT count(*) FROM audit_log"; }
# The newest record as JSON (audit list --json), or that of jq filter $1.
last() { ctl audit list --json | jq -c "${1:-.[0]}"; }
record_is() { # JQ-EXPRESSION WANT DESC: on the newest record
	local _got
	_got=$(last | jq -c "$1")
	check test "$_got" = "$2" "$3 (got $_got)"
}

# --- each change is recorded, once it is done ---------------------------------
check test "$(count)" = 0 "a new database has no audit record (init is not one)"
ctl site add shop --name Shop --domain example.com --tier paid >/dev/null
record_is '[.actor, .site_key, .action, .detail, .version]' \
    "[\"$actor\",\"shop\",\"site.add\",{\"name\":\"Shop\",\"tier\":\"paid\",\"domains\":[\"example.com\"]},null]" \
    "site add: actor, site, action and what was set"
ctl site set shop --mau-cap 500 --retention-days 395 >/dev/null
record_is '[.action, .detail]' '["site.set",{"mau_cap":500,"retention_days":395}]' "site set: the fields given"
ctl site pause shop >/dev/null
record_is '[.action, .site_key, .detail]' '["site.pause","shop",null]' "site pause"
ctl site resume shop >/dev/null
record_is '.action' '"site.resume"' "site resume"
ctl domain add shop WWW.Shop.Example >/dev/null
record_is '[.action, .detail.host]' '["domain.add","www.shop.example"]' "domain add: the host as stored"
ctl domain remove shop www.shop.example >/dev/null
record_is '[.action, .detail.host]' '["domain.remove","www.shop.example"]' "domain remove"
ctl config publish shop "$TOP/tests/fixtures/config-test.json" >/dev/null
record_is '[.action, .version]' '["config.publish",1]' "config publish: the version"
sync=$(ctl sync start shop)
record_is '[.action, .detail.sync_id]' "[\"sync.start\",\"$sync\"]" "sync start: the sync id"
cgi POST scripts "" '{"site_key":"shop","page_url":"https://shop.example/","timestamp":1763800000,"scripts":[{"src":"https://mc.yandex.ru/x.js","domain":"mc.yandex.ru","category":null,"blocked":false}]}'
ctl scripts rules shop --publish >/dev/null
record_is '[.action, .version, .site_key]' '["rules.publish",2,"shop"]' "scripts rules --publish: the version it published"

# An erasure: the count, never the visitor.
anon=visitor-3f9a7c21-secret
anon_hash=$(printf '%s' "$anon" | sha256sum | cut -c1-64)
cgi POST consent "" "{\"site_key\":\"shop\",\"anon_id\":\"$anon\",\"categories\":{\"necessary\":true},\"event_type\":\"initial\"}"
ctl consent erase shop --anon-id "$anon" >/dev/null
record_is '[.action, .detail]' '["consent.erase",{"entries":1}]' "consent erase: the number of entries"
check test "$(db "SELECT count(*) FROM audit_log WHERE detail LIKE '%$anon%' OR detail LIKE '%$anon_hash%' OR actor LIKE '%$anon%'")" = 0 \
    "no audit record holds the visitor's id or its hash"

# Seal and purge: one record per site where something was sealed or deleted.
cgi POST consent "" '{"site_key":"shop","anon_id":"v-old","categories":{"necessary":true},"event_type":"initial"}'
ctl consent seal
record_is '[.action, .site_key, .detail]' '["consent.seal","shop",{"entries":1}]' "consent seal: the entries sealed"
n=$(count)
ctl consent seal
check test "$(count)" = "$n" "a seal with nothing to seal is not recorded"
db "UPDATE consent_log SET created_at = '2020-01-01T00:00:00.000Z'"
db "INSERT INTO mau_visitors (site_id, month, anon_id_hash) VALUES ((SELECT id FROM sites WHERE site_key = 'shop'), '2020-01', '$anon_hash')"
ctl purge --dry-run >/dev/null
check test "$(count)" = "$n" "purge --dry-run is not recorded"
ctl purge
check test "$(ctl audit list --site shop --json | jq -c '.[0] | [.action, .detail]')" = '["purge",{"entries":1}]' \
    "purge: the site's entries deleted"
check test "$(ctl audit list --no-site --json | jq -c '[.[] | [.action, .site_key, .detail]]')" = '[["purge",null,{"visitor_rows":1}]]' \
    "purge: the monthly-visitor rows, a record of no site (audit list --no-site)"

# consentctl user ...: records of no site naming the account (and its
# roles where they changed), as the dashboard's; never a code or secret.
ctl user add auditee --role viewer --site shop --password-stdin <<< 'Auditee-pass-8x2w' >/dev/null
record_is '[.actor, .site_key, .action, .detail]' "[\"$actor\",null,\"user.add\",{\"username\":\"auditee\",\"roles\":{\"shop\":\"viewer\"}}]" \
    "user add: the account and its roles"
ctl user role auditee --role editor --site shop >/dev/null
record_is '[.action, .detail]' '["user.role",{"username":"auditee","roles":{"shop":"editor"}}]' "user role: the account's roles now"
code=$(ctl user reset-password auditee --json | jq -r .reset_code)
record_is '[.action, .detail]' '["user.reset_password",{"username":"auditee"}]' "user reset-password: the account"
secret=$(ctl user reset-2fa auditee --json | jq -r .secret)
record_is '[.action, .detail]' '["user.reset_2fa",{"username":"auditee"}]' "user reset-2fa: the account"
check test "$(db "SELECT count(*) FROM audit_log WHERE detail LIKE '%$code%' OR detail LIKE '%$secret%'")" = 0 \
    "no record holds the reset code or the secret"
ctl user remove auditee
record_is '[.action, .detail]' '["user.remove",{"username":"auditee"}]' "user remove: the account"

# What changes nothing is not recorded.
n=$(count)
for cmd in "site list" "site show shop" "config show shop" "consent export shop" "consent verify shop" \
    "scripts rules shop" "stats shop" "audit list" "audit verify" "user list"; do
	ctl $cmd >/dev/null 2>&1
done
run site add shop --name Again
run domain remove shop nowhere.example
run config publish shop /nonexistent
check test "$(count)" = "$n" "reads and failed changes add no record"
others=$(ctl audit list --no-site --json | jq length)	# purge's and the users'
check test "$(ctl audit list --site shop --json | jq length)" = $((n - others)) "audit list --site: the site's records"
run audit list --site nope
fails 1 "unknown site: nope" "audit list --site of an unknown site"
run audit list --site shop --no-site
fails 2 "audit list takes --site or --no-site, not both" "--site and --no-site together"
ctl audit list > "$T/table"
check test "$(head -n 1 "$T/table" | tr -s ' ')" = "ID AT ACTOR SITE ACTION VERSION SEAL DETAIL" "audit list: a table, newest first"
check test "$(sed -n 2p "$T/table" | awk '{print $1}')" = "$n" "the newest first"

# --- sealed, verified ------------------------------------------------------------
run audit verify
check test "$rc:$(head -c 60 "$T/out")" = "0:audit: $n records verified (0 sealed, $n not sealed yet), 0 " \
    "verify before any seal: every record's digest checked"
run audit seal
succeeds "" "audit seal: exit 0, silent"
check test "$(db "SELECT count(*) FROM audit_log WHERE seal_id IS NULL")" = 0 "every record sealed"
check test "$(db "SELECT count(*) FROM audit_seals")" = 2 "one seal for the site's chain, one for the chain of no site"
run audit verify --json
check test "$rc:$(jq -c '[.ok, .records, .sealed, .unsealed, .seals]' "$T/out")" = "0:[true,$n,$n,0,2]" "audit verify: every record sealed and verified"
check test "$(jq -r '.chains | map(.chain) | join(" ")' "$T/out")" = "audit audit:shop" "the chains: no site, then each site"
ctl site pause shop >/dev/null
run audit verify
check test "$rc" = 0 "a record after the seal verifies as not sealed yet"
ctl audit seal
check test "$(db "SELECT max(seq) FROM audit_seals")" = 2 "the next seal of the site's chain is seq 2"
run audit verify --site shop --json
check test "$rc:$(jq -c '[.ok, .seals]' "$T/out")" = "0:[true,2]" "audit verify --site: that chain"
head=$(jq -r '.chains[0].head' "$T/out")
run audit verify --site shop --head "$head"
check test "$rc" = 0 "--head: the chain holds the head recorded"
nosite=$(db "SELECT hash FROM audit_seals WHERE site_id IS NULL")
run audit verify --site shop --head "$nosite"
fails 1 "audit verify: the recorded head $nosite is not in the chain of seals" "--head of another chain: refused"
run audit verify --head "$nosite"
check test "$rc" = 0 "--head without --site: any chain may hold it"
run audit verify --head nothex
fails 2 "invalid --head 'nothex': the 64 hex digits of a seal's hash" "--head malformed"

# --- tampering is found and named ----------------------------------------------
tampered() { # SQL UNDO-SQL MESSAGE DESC: verify fails with MESSAGE, then the change is undone
	db "$1"
	run audit verify
	fails 1 "audit verify: $3" "$4"
	db "$2"
	run audit verify
	check test "$rc" = 0 "$4: verifies again once undone"
}
at2=$(db "SELECT at FROM audit_log WHERE id = 2")
tampered "UPDATE audit_log SET action = 'site.resume' WHERE id = 2" \
    "UPDATE audit_log SET action = 'site.set' WHERE id = 2" \
    "audit:shop: record 2 ($at2): its fields do not match its digest" "a record's action changed"
tampered "UPDATE audit_log SET detail = '{\"mau_cap\":5000,\"retention_days\":395}' WHERE id = 2" \
    "UPDATE audit_log SET detail = '{\"mau_cap\":500,\"retention_days\":395}' WHERE id = 2" \
    "audit:shop: record 2 ($at2): its fields do not match its digest" "a record's detail changed"
tampered "UPDATE audit_log SET actor = 'someone' WHERE id = 2" \
    "UPDATE audit_log SET actor = '$actor' WHERE id = 2" \
    "audit:shop: record 2 ($at2): its fields do not match its digest" "a record's actor changed"
# Two records swapped (each keeps its digest): the order is covered.
at3=$(db "SELECT at FROM audit_log WHERE id = 3")
swap="UPDATE audit_log SET id = -1 WHERE id = 2; UPDATE audit_log SET id = 2 WHERE id = 3; UPDATE audit_log SET id = 3 WHERE id = -1"
tampered "$swap" "$swap" "audit:shop: record 2 ($at3): its fields do not match its digest" "two records reordered"
# A seal's fields.
tampered "UPDATE audit_seals SET hash = '$(printf '%064d' 7)' WHERE seq = 1 AND site_id IS NOT NULL" \
    "UPDATE audit_seals SET hash = '$(db "SELECT hash FROM audit_seals WHERE seq = 1 AND site_id IS NOT NULL")' WHERE seq = 1 AND site_id IS NOT NULL" \
    "audit:shop: seal 1: its hash does not match its fields" "a seal's hash (a head) changed"
tampered "UPDATE audit_seals SET prev = '$(printf '%064d' 1)' WHERE seq = 2" \
    "UPDATE audit_seals SET prev = '$(db "SELECT prev FROM audit_seals WHERE seq = 2")' WHERE seq = 2" \
    "audit:shop: seal 2: it does not name the hash of seal 1" "a seal's link to the one before changed"
# A record deleted (run last: it cannot be put back with its id by every store alike).
db "DELETE FROM audit_log WHERE id = 4"
run audit verify --json
check test "$rc:$(jq -c '[.ok, .seal, .error]' "$T/out")" = '1:[false,1,"audit:shop: seal 1: it covers '"$((n - others))"' records, '"$((n - others - 1))"' are there"]' \
    "a record deleted: its seal names it (--json)"
# An unsealed record changed (the seals gone: every record unsealed).
db "UPDATE audit_log SET seal_id = NULL"
db "DELETE FROM audit_seals"
run audit verify
check test "$rc" = 0 "every record unsealed: each digest verifies"
last_id=$(db "SELECT max(id) FROM audit_log")
db "UPDATE audit_log SET version = 9 WHERE id = $last_id"
run audit verify
check test "$rc:$(grep -c "record $last_id .*: its fields do not match its digest" "$T/err")" = 1:1 "an unsealed record changed: named"

# --- an older database gets the audit trail at init (a SQLite file on both stores)
old="$T/v3.db"
sqlite3 "$old" < "$TOP/tests/fixtures/schema-v3.sql"
sqlite3 "$old" "INSERT INTO sites (site_key, name, created_at) VALUES ('v3', 'Old', '2025-01-01T00:00:00.000Z')"
ctl --db "$old" init || notok "init upgrades a version-3 database"
ctl --db "$old" site pause v3 >/dev/null
check test "$(ctl --db "$old" audit list --json | jq -c '[.[] | [.site_key, .action]]')" = '[["v3","site.pause"]]' \
    "an upgraded database records changes"
run --db "$old" audit verify
check test "$rc" = 0 "and verifies them"

# --- a record that cannot be written fails the command, loudly ----------------
db "DROP TABLE audit_log"
run site resume shop
check test "$rc" = 1 "the record failing fails the command"
check grep -q "^consentctl: site.resume shop: done, but its audit record could not be written$" "$T/err" \
    "and says the change is done"
check test "$(ctl site show shop --json | jq .paused)" = false "the change itself is done"
