#!/bin/bash
# t0100-consentctl.sh: consentctl init, site, domain and the command line itself (CONTRACT 3).
. "$(dirname "$0")/setup.sh"
. "$(dirname "$0")/ctl-helpers.sh"

# --- init ------------------------------------------------------------------
run init
succeeds "" "init again on an initialised database: exit 0, silent"
schema_v=$(sed -n 's/^PRAGMA user_version = \([0-9]*\);.*/\1/p' "$TOP/schema.sql")
ntables=$(grep -c '^CREATE TABLE IF NOT EXISTS' "$TOP/schema.sql")
if store_is_postgres; then
	skip "WAL mode on after init: SQLite only (journal_mode)"
	check test "$(db 'SELECT version FROM schema_version')" = "$schema_v" "schema_version is the schema's"
	check test "$(db "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'")" = $((ntables + 1)) "all $ntables tables and schema_version"
else
	check test "$(db 'PRAGMA journal_mode')" = wal "WAL mode on after init"
	check test "$(db 'PRAGMA user_version')" = "$schema_v" "user_version is the schema's"
	check test "$(db "SELECT count(*) FROM sqlite_master WHERE type = 'table'")" = "$ntables" "all $ntables tables"
fi
snap
run init
check test "$rc" = 0 "init a third time: exit 0"
unchanged "a third init changes nothing"

# The database files named by --db below are SQLite's on both stores:
# consentctl holds both, and its command line is the same for each.
fresh="$T/sub/fresh.db"
mkdir -p "$T/sub"
run --db "$fresh" init
succeeds "" "init --db creates a new database"
check test "$(sqlite3 "$fresh" 'PRAGMA journal_mode')" = wal "the new database is in WAL mode"
run init --db "$T/after.db"
check test "$rc" = 0 -a -f "$T/after.db" "--db after the command word"
run --db "$T/nodir/x.db" init
fails 1 "database $T/nodir/x.db: unable to open database file" "init in a missing directory: exit 1"

sqlite3 "$fresh" 'PRAGMA user_version = 99'
sqlite3 "$fresh" .dump > "$T/fresh.before"
run --db "$fresh" init
fails 1 "the database is newer than this consentctl (schema version 99); left unchanged" "newer user_version refused"
check test "$(sqlite3 "$fresh" 'PRAGMA user_version')" = 99 "user_version left at 99"
sqlite3 "$fresh" .dump | cmp -s - "$T/fresh.before" && ok "newer database unchanged" || notok "newer database unchanged"
if store_is_postgres; then
	# The same refusal by the PostgreSQL store (its schema_version table).
	db 'UPDATE schema_version SET version = 99'
	snap
	run init
	check test "$rc:$(grep -c . "$T/err")" = 1:1 "PostgreSQL: a newer schema_version refused, one line ($(head -c 160 "$T/err"))"
	check grep -q 'the database is newer than this consentctl (schema version 99); left unchanged$' "$T/err" \
	    "PostgreSQL: the line says the database is newer, and never repeats the connection string"
	unchanged "PostgreSQL: the newer database unchanged"
	db "UPDATE schema_version SET version = $schema_v"
fi

# --- which database --------------------------------------------------------
run --db "$T/missing.db" site list
fails 1 "database $T/missing.db: No such file or directory" "a missing database is an error for other commands"
check test ! -e "$T/missing.db" "and is not created"
CONSENT_DB="$fresh" run site add envsite --name Env --db "$T/after.db"
check test "$(sqlite3 "$T/after.db" 'SELECT site_key FROM sites')" = envsite "--db wins over CONSENT_DB"
(CONSENT_DB="$T/after.db"; export CONSENT_DB; ctl site list --json) > "$T/out"
check test "$(jq -r '.[0].key' "$T/out")" = envsite "CONSENT_DB names the database without --db"
run --db "$T/after.db" --db "$T/after.db" site list
fails 2 "option --db given twice" "--db twice: usage error"
run --db= init
fails 2 "option --db needs a database: a path or a connection string" "an empty --db is refused (not a temporary database)"
run site --db="$T/after.db" list --json
check test "$(jq -r '.[0].key' "$T/out")" = envsite "--db=PATH between the command words"

# --- site add --------------------------------------------------------------
run site list
succeeds "" "site list of no sites prints nothing"
run site list --json
succeeds "[]" "site list --json of no sites is []"

run site add demo --name "Demo, Inc."
succeeds "" "site add: exit 0, silent"
run site list --json
check test "$(jq -c '.[0] | [.key, .name, .tier, .mau_cap, .paused, .version]' "$T/out")" = '["demo","Demo, Inc.","free",null,false,0]' "new site: free, no cap of its own, active, version 0"
check test "$(jq -c '.[0] | keys' "$T/out")" = '["created_at","key","mau_cap","name","paused","tier","version"]' "site list --json record keys"
check test "$(jq -r '.[0].created_at | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z$")' "$T/out")" = true "created_at is UTC ISO 8601"

snap
run site add demo --name Other
fails 1 "site demo already exists" "duplicate site key: exit 1"
unchanged "duplicate site key changes nothing"

for bad in "bad key" "a/b" "caf$(printf '\303\251')" "$(printf 'a%.0s' $(seq 65))" "x.y" "" "a b"; do
	run site add --name X -- "$bad"
	fails 2 "invalid site key '$bad': 1-64 characters of A-Za-z0-9_-" "site key '$bad' refused"
done
run site add "$(printf 'k%.0s' $(seq 64))" --name "Sixty-four"
succeeds "" "64-character key accepted"
run site add --name Dash -- -x
succeeds "" "a key may start with - (after --)"
run site add A-z_09 --name Mixed --tier paid --mau-cap 0
succeeds "" "key of A-Za-z0-9_-, paid, cap 0 accepted"
check test "$(db "SELECT tier || ' ' || mau_cap FROM sites WHERE site_key = 'A-z_09'")" = "paid 0" "tier and cap stored"
snap

run site add t1 --name X --tier gold
fails 2 "invalid tier 'gold': free or paid" "--tier gold refused"
run site add t1 --name X --tier Free
fails 2 "invalid tier 'Free': free or paid" "--tier is case-sensitive"
for bad in -1 12x " 5" +5 1000000001 99999999999999999999 "" 0x10 1e3 "5 "; do
	run site add t1 --name X --mau-cap "$bad"
	fails 2 "invalid MAU cap '$bad': an integer 0-1000000000, or none" "--mau-cap '$bad' refused"
done
name_rule="invalid name: 1-200 characters of UTF-8 text without control characters"
bad_name() { # DESC NAME
	run site add t1 --name "$2"
	fails 2 "$name_rule" "name refused: $1"
}
bad_name "empty" ""
bad_name "201 characters" "$(printf 'n%.0s' $(seq 201))"
bad_name "tab" "$(printf 'a\tb')"
bad_name "newline" "$(printf 'a\nb')"
bad_name "escape" "$(printf 'a\033b')"
bad_name "C1 control U+0085" "$(printf 'a\302\205b')"
bad_name "invalid UTF-8" "$(printf 'bad \377 utf8')"
bad_name "overlong UTF-8" "$(printf 'overlong \300\257')"
bad_name "UTF-8 surrogate" "$(printf 'surrogate \355\240\200')"
bad_name "truncated UTF-8" "$(printf 'cut \303')"
run site add t1
fails 2 "site add needs --name NAME" "site add without --name"
run site add t1 --name X --name Y
fails 2 "option --name given twice" "--name twice"
run site add t1 --name X --domain "exa mple.com"
fails 2 "invalid domain 'exa mple.com': a host name such as example.com" "invalid --domain refused"
run site add t1 --name X --domain ok.example --domain ""
fails 2 "invalid domain '': a host name such as example.com" "empty --domain refused"
unchanged "no refused site add changed anything"

run site add t1 --name "$(printf 'n%.0s' $(seq 199))é"
succeeds "" "200-character name (counted in characters) accepted"
run site add t2 --name "Café Ünïcödé ☕" --mau-cap 1000000000 --tier free
succeeds "" "UTF-8 name and the largest cap accepted"
run site add t3 --name X --mau-cap none
succeeds "" "--mau-cap none accepted"
if store_is_postgres; then
	check test "$(db "SELECT coalesce(mau_cap::text, 'NULL') FROM sites WHERE site_key = 't3'")" = NULL "--mau-cap none stores no cap"
else
	check test "$(db "SELECT quote(mau_cap) FROM sites WHERE site_key = 't3'")" = NULL "--mau-cap none stores no cap"
fi

run site add shop --name Shop --domain https://WWW.Example.com:443/x --domain example.org --domain EXAMPLE.ORG
succeeds "" "site add with domains"
if store_is_postgres; then
	check test "$(db "SELECT string_agg(host, ' ' ORDER BY host) FROM domains d JOIN sites s ON s.id = d.site_id WHERE s.site_key = 'shop'")" = "example.org www.example.com" "--domain values normalised, repeats stored once"
else
	check test "$(db "SELECT group_concat(host, ' ') FROM (SELECT host FROM domains d JOIN sites s ON s.id = d.site_id WHERE s.site_key = 'shop' ORDER BY host)")" = "example.org www.example.com" "--domain values normalised, repeats stored once"
fi

# --- site set, pause, resume ------------------------------------------------
run site set shop --name "New name" --tier paid --mau-cap 5000
succeeds "" "site set name, tier and cap"
run site show shop --json
check test "$(jq -c '[.name, .tier, .mau_cap]' "$T/out")" = '["New name","paid",5000]' "site set took effect"
run site set shop --tier free
check test "$(ctl site show shop --json | jq -c '[.name, .tier, .mau_cap]')" = '["New name","free",5000]' "site set changes only what is given"
run site set shop --mau-cap none
check test "$(ctl site show shop --json | jq -c '.mau_cap')" = null "site set --mau-cap none clears the cap"
snap
run site set nope --name X
fails 1 "unknown site: nope" "site set of an unknown site"
run site set shop
fails 2 "site set needs --name, --tier, --mau-cap or --retention-days" "site set with nothing to set"
run site set shop --tier gratis
fails 2 "invalid tier 'gratis': free or paid" "site set with a bad tier"
run site set shop --mau-cap -5
fails 2 "invalid MAU cap '-5': an integer 0-1000000000, or none" "site set with a bad cap"
run site set shop --name ""
fails 2 "$name_rule" "site set with an empty name"
run site set shop --domain example.net
fails 2 "site set does not take --domain" "site set --domain is a usage error"
unchanged "refused site set changed nothing"

run site pause shop
succeeds "" "site pause"
check test "$(ctl site show shop --json | jq -c .paused)" = true "paused"
run site pause shop
succeeds "" "pausing a paused site is fine"
run site resume shop
succeeds "" "site resume"
check test "$(ctl site show shop --json | jq -c .paused)" = false "active again"
snap
run site pause nope
fails 1 "unknown site: nope" "site pause of an unknown site"
run site resume nope
fails 1 "unknown site: nope" "site resume of an unknown site"
run site pause "no/pe"
fails 2 "invalid site key 'no/pe': 1-64 characters of A-Za-z0-9_-" "site pause of a malformed key"
unchanged "refused pause and resume changed nothing"

# --- site list, show -----------------------------------------------------------
run site list
check test "$rc" = 0 "site list"
check test "$(head -n 1 "$T/out" | tr -s ' ')" = "KEY TIER MAU_CAP PAUSED VERSION CREATED NAME" "site list title line"
check test "$(grep -c . "$T/out")" = 9 "a title and one line per site"
check grep -q '^shop  *free  *-  *no  *0  *[0-9T:.Z-]*  *New name$' "$T/out" "site list line of shop (name last, no cap shown as -)"
check test "$(ctl site list --json | jq -r 'map(.key) | join(" ")')" = "-x A-z_09 demo $(printf 'k%.0s' $(seq 64)) shop t1 t2 t3" "site list is ordered by key"

month=$(date -u +%Y-%m)
if store_is_postgres; then
	# This month's 42 over two of the 16 slots: the count is their sum.
	db "INSERT INTO mau_counts VALUES ((SELECT id FROM sites WHERE site_key = 'shop'), '$month', 0, 40),
	    ((SELECT id FROM sites WHERE site_key = 'shop'), '$month', 11, 2),
	    ((SELECT id FROM sites WHERE site_key = 'shop'), '2001-01', 3, 7)"
else
	db "INSERT INTO mau_counts VALUES ((SELECT id FROM sites WHERE site_key = 'shop'), '$month', 42),
	    ((SELECT id FROM sites WHERE site_key = 'shop'), '2001-01', 7)"
fi
run site show shop --json
check test "$(jq -c 'keys' "$T/out")" = '["created_at","domains","key","mau","mau_cap","name","paused","published_at","retention_days","tier","version"]' "site show --json keys"
check test "$(jq -c '[.key, .domains, .mau, .version, .published_at]' "$T/out")" = '["shop",["example.org","www.example.com"],42,0,null]' "site show: domains, MAU of this month, unpublished"
run site show shop
check test "$rc" = 0 "site show (plain)"
check grep -q '^domains  *example.org www.example.com$' "$T/out" "plain show lists the domains on one line"
check grep -q '^mau  *42$' "$T/out" "plain show has the MAU"
check grep -q '^paused  *no$' "$T/out" "plain show says paused no"
check grep -q '^mau_cap  *-$' "$T/out" "plain show: no cap of its own is -"
run site show demo --json
check test "$(jq -c '[.domains, .mau]' "$T/out")" = '[[],0]' "site without domains or visitors"
run site show nope
fails 1 "unknown site: nope" "site show of an unknown site"
run site show nope --json
fails 1 "unknown site: nope" "site show --json of an unknown site"

# --- domain add, remove ------------------------------------------------------
run domain add demo https://WWW.Example.com:443/x
succeeds "www.example.com" "domain add prints the normalised host"
run domain add demo HTTP://Shop.Example.NET./path?q=1
succeeds "shop.example.net" "scheme, trailing dot, path and query removed"
run domain add demo Example.COM
succeeds "example.com" "a bare host is lower-cased"
check test "$(ctl site show demo --json | jq -c .domains)" = '["example.com","shop.example.net","www.example.com"]' "the hosts are stored normalised"
snap
run domain add demo https://example.com:8443
fails 1 "domain example.com is already registered for site demo" "a registered domain again (after normalisation)"
run domain add nope example.com
fails 1 "unknown site: nope" "domain add to an unknown site"
run domain add demo "exa mple.com"
fails 2 "invalid domain 'exa mple.com': a host name such as example.com" "domain add of a malformed host"
run domain add demo ""
fails 2 "invalid domain '': a host name such as example.com" "domain add of nothing"
run domain add demo
fails 2 "usage: consentctl domain add KEY HOST" "domain add without a host"
run domain remove demo other.example
fails 1 "domain other.example is not registered for site demo" "domain remove of an unregistered host"
run domain remove nope example.com
fails 1 "unknown site: nope" "domain remove from an unknown site"
unchanged "refused domain commands changed nothing"
run domain remove demo https://Example.com/
succeeds "" "domain remove normalises too"
check test "$(ctl site show demo --json | jq -c .domains)" = '["shop.example.net","www.example.com"]' "the host is gone"

# --- the command line ---------------------------------------------------------
run --help
check test "$rc" = 0 -a ! -s "$T/err" "--help: exit 0"
for c in "init" "site add KEY --name NAME" "site set KEY" "site pause KEY" "site resume KEY" \
    "site list" "site show KEY" "domain add KEY HOST" "domain remove KEY HOST" \
    "config publish KEY FILE" "config show KEY" "sync start KEY" "sync show SYNC_ID" \
    "consent export KEY" "scripts list KEY" "stats KEY"; do
	check grep -qF "consentctl $c" "$T/out" "--help lists '$c'"
done
run site show demo -h
check test "$rc" = 0 -a -s "$T/out" "-h anywhere prints the help"
run
fails 2 "no command (see consentctl --help)" "no command: exit 2"
run frobnicate
fails 2 "unknown command: frobnicate (see consentctl --help)" "unknown command"
run site frobnicate demo
fails 2 "unknown command: site frobnicate (see consentctl --help)" "unknown sub-command"
run site
fails 2 "unknown command: site (see consentctl --help)" "a command word alone"
run site list --verbose
fails 2 "unknown option --verbose (see consentctl --help)" "unknown option"
run site list extra
fails 2 "usage: consentctl site list [--json]" "extra operand"
run site show
fails 2 "usage: consentctl site show KEY [--json]" "missing operand"
run site pause demo --json
fails 2 "site pause does not take --json" "an option the command does not take"
run site show demo --json=yes
fails 2 "option --json takes no value" "a flag with a value"
run site add x --name
fails 2 "option --name needs a value" "an option without its value"
run site add x --name=Equals
succeeds "" "--option=value"
check test "$(ctl site show x --json | jq -r .name)" = Equals "--name=value stored"
run site add y --name --looks-like-an-option
succeeds "" "an option's value may start with --"
