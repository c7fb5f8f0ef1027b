#!/bin/bash
# t0150-users.sh: consentctl user (ADMIN.md 2): the dashboard's accounts,
# their roles, passwords and second factors; secrets printed once and
# stored only as hashes; the store's own checks (tests/unit/test_accounts)
# on this store; a version-4 database upgraded to the accounts' tables
# with every row kept.
. "$(dirname "$0")/setup.sh"
. "$(dirname "$0")/ctl-helpers.sh"

sha() { printf '%s' "$1" | sha256sum | cut -d' ' -f1; }
good='correct horse battery staple 9'
site s1

# --- what the operator types ---------------------------------------------------------
run user add alice
fails 2 "user add needs --role owner|editor|viewer" "add: --role is required"
run user add alice --role admin
fails 2 "invalid role 'admin': owner, editor or viewer" "add: an unknown role refused"
for bad in Alice 'a b' '' 'a/b' "$(printf 'a%.0s' $(seq 65))"; do
	run user add "$bad" --role viewer
	fails 2 "invalid user name '$bad': 1-64 characters of a-z0-9._@-" "add: user name '${bad:0:20}' refused"
done
run user add alice --role viewer --site 'bad key'
fails 2 "invalid site key 'bad key': 1-64 characters of A-Za-z0-9_-" "add: a malformed site key refused"
run user add alice --role viewer --site nosuch
fails 1 "unknown site: nosuch" "add: a site that does not exist refused"
run user add alice --role viewer --password-stdin <<< 'short'
fails 2 "password refused: Password too short: at least 12 characters" "add: a short password refused"
run user add alice --role viewer --password-stdin <<< 'qwerty123456'
fails 2 "password refused: Password is too common" "add: a common password refused"
run user add alice --role viewer --password-stdin < /dev/null
fails 2 "--password-stdin: no password on standard input" "add: no password on stdin refused"
run user add alice --role viewer --password-stdin <<< "$(printf 'x%.0s' $(seq 129))"
fails 2 "password refused: Password too long: at most 128 characters" "add: a long password refused"
run user list --role owner
fails 2 "user list does not take --role" "list takes no --role"
check test "$(db 'SELECT count(*) FROM admin_accounts')" = 0 "nothing added by a refused command"

# --- an owner without a password: reset code, factor, recovery codes ----------------------
before=$(date +%s)
run user add alice --role owner --json
check test "$rc" = 0 "add an owner: exit 0"
check test ! -s "$T/err" "add an owner: nothing on stderr"
cp "$T/out" "$T/alice.json"
secret=$(jq -r .secret "$T/alice.json")
code=$(jq -r .reset_code "$T/alice.json")
check test "$(jq -r .username "$T/alice.json")" = alice "add: the name"
check test "$(jq -r .otpauth "$T/alice.json")" = "otpauth://totp/Consent:alice?secret=$secret&issuer=Consent&algorithm=SHA1&digits=6&period=30" \
    "add an owner: the otpauth URI, issuer Consent, the account's name"
check grep -Eqx '[A-Z2-7]{32}' <<< "$secret" "add an owner: a 160-bit base32 secret"
check test "$(jq '.recovery_codes | length' "$T/alice.json")" = 10 "add an owner: ten recovery codes"
check test "$(jq -r '.recovery_codes[]' "$T/alice.json" | grep -Ecx '[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}')" = 10 "add an owner: codes xxxx-xxxx-xxxx"
check test "$(jq -r '.recovery_codes[]' "$T/alice.json" | sort -u | wc -l)" = 10 "add an owner: ten different codes"
check grep -Eqx '[A-Za-z0-9_-]{43}' <<< "$code" "add without a password: a 256-bit reset code"
check test "$(db "SELECT coalesce(password, 'none') || ':' || totp_secret || ':' || totp_confirmed || ':' || coalesce(totp_last_step, -1) FROM admin_accounts WHERE name = 'alice'")" = "none:$secret:0:-1" \
    "stored: no password, the secret unconfirmed, no step"
check test "$(db "SELECT site_key || '=' || role FROM admin_roles WHERE account = 'alice'")" = "*=owner" "stored: owner of every site"
check test "$(db "SELECT hash FROM admin_recovery_codes WHERE account = 'alice' AND used_at IS NULL ORDER BY hash")" = \
    "$(jq -r '.recovery_codes[]' "$T/alice.json" | while read -r c; do sha "$c"; done | sort)" \
    "stored: the SHA-256 of each recovery code, unused"
check test "$(db "SELECT hash FROM admin_reset_codes WHERE account = 'alice'")" = "$(sha "$code")" "stored: the reset code's SHA-256"
exp=$(db "SELECT expires FROM admin_reset_codes WHERE account = 'alice'")
check test "$exp" -ge $((before + 86400)) -a "$exp" -le $(($(date +%s) + 86400)) "the reset code expires in 24 hours"
if store_is_postgres; then pg_dump_db > "$T/dump"; else db .dump > "$T/dump"; fi
leaked=$(jq -r '.recovery_codes[], .reset_code' "$T/alice.json" | while read -r c; do grep -cF -- "$c" "$T/dump"; done | sort -u)
check test "$leaked" = 0 "no recovery code and no reset code in the database as typed"

run user add alice --role viewer
fails 1 "user alice already exists" "add: a taken name refused"
run user add alice2 --role owner
check test "$(sed -n 's/^secret  *//p' "$T/out")" != "$secret" "add: each owner its own secret"
check grep -q '^reset_code  *[A-Za-z0-9_-]\{43\}$' "$T/out" "add without --json: the reset code on a line of its own"
check grep -q '^recovery_codes  *[a-z0-9-]\{14\}\( [a-z0-9-]\{14\}\)\{9\}$' "$T/out" "add without --json: the ten codes on one line"

# --- an editor with a password --------------------------------------------------------
run user add bob --role editor --site s1 --password-stdin <<< "$good"
succeeds "username  bob" "add an editor with --password-stdin: only the name printed"
check grep -q '^\$argon2id\$v=19\$m=19456,t=2,p=1\$' <<< "$(db "SELECT password FROM admin_accounts WHERE name = 'bob'")" \
    "the password stored as Argon2id (m=19456, t=2, p=1)"
check test "$(db "SELECT count(*) FROM admin_accounts WHERE name = 'bob' AND totp_secret IS NULL AND password_changed_at IS NOT NULL")" = 1 \
    "an editor: no second factor, the password's time"
check test "$(db "SELECT count(*) FROM admin_reset_codes WHERE account = 'bob'")" = 0 "a password given: no reset code"
if store_is_postgres; then pg_dump_db > "$T/dump"; else db .dump > "$T/dump"; fi
check test "$(grep -cF "$good" "$T/dump")" = 0 "the password itself is nowhere in the database"
run user add carol --role viewer --password-stdin <<< "${good}x"$'\r'
check test "$rc" = 0 "a password line ending in CRLF accepted"

# --- list --------------------------------------------------------------------------
run user list
check test "$(head -n 1 "$T/out" | tr -s ' ')" = "USER TOTP CREATED ROLES" "list: the title line"
check grep -Eq '^alice +yes +[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z +\{"\*":"owner"\}$' "$T/out" "list: alice, her factor, ISO time, roles"
check grep -Eq '^bob +no +.*\{"s1":"editor"\}$' "$T/out" "list: bob"
run user list --json
check test "$(jq -c '[.[] | [.username, .totp, .roles]]' "$T/out")" = '[["alice",true,{"*":"owner"}],["alice2",true,{"*":"owner"}],["bob",false,{"s1":"editor"}],["carol",false,{"*":"viewer"}]]' \
    "list --json: names, factor, roles, by name"
check test "$(jq -r '.[0].created_at' "$T/out" | grep -Ec '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$')" = 1 "list --json: created_at as UTC ISO 8601"

# --- role ---------------------------------------------------------------------------
run user role bob --role viewer
succeeds "" "role: viewer of every site"
check test "$(db "SELECT site_key || '=' || role FROM admin_roles WHERE account = 'bob' ORDER BY site_key")" = "$(printf '*=viewer\ns1=editor')" \
    "role: added beside the site's role"
run user role bob --site s1 --role none
succeeds "" "role none: removed"
check test "$(db "SELECT site_key || '=' || role FROM admin_roles WHERE account = 'bob'")" = "*=viewer" "role none: the other role kept"
run user role bob --site nosuch --role editor
fails 1 "unknown site: nosuch" "role on a site that does not exist refused"
run user role nobody --role editor
fails 1 "unknown user: nobody" "role of an unknown user refused"
run user role bob --role root
fails 2 "invalid role 'root': owner, editor or viewer (or none)" "role: an unknown role refused"

# --- reset-password: password cleared, sessions ended, a new code ------------------------
add_session() { # ACCOUNT N
	db "INSERT INTO admin_sessions (token_hash, id, account, csrf, created_at, last_seen, authenticated_at, address)
	    VALUES ('$(sha "token$2")', 'session$2', '$1', 'csrf', 1, 1, 1, '')"
}
add_session bob 1
add_session bob 2
add_session carol 3
run user reset-password bob --json
check test "$rc" = 0 "reset-password: exit 0"
bobcode=$(jq -r .reset_code "$T/out")
check test "$(db "SELECT coalesce(password, 'none') FROM admin_accounts WHERE name = 'bob'")" = none "reset-password: the old password no longer works"
check test "$(db "SELECT count(*) FROM admin_sessions WHERE account = 'bob'")" = 0 "reset-password: the account's sessions ended"
check test "$(db "SELECT count(*) FROM admin_sessions WHERE account = 'carol'")" = 1 "reset-password: another account's session untouched"
check test "$(db "SELECT hash FROM admin_reset_codes WHERE account = 'bob'")" = "$(sha "$bobcode")" "reset-password: the new code stored as its SHA-256"
run user reset-password bob --json
check test "$(db "SELECT hash FROM admin_reset_codes WHERE account = 'bob'")" = "$(sha "$(jq -r .reset_code "$T/out")")" "reset-password again: the earlier code replaced"
run user reset-password nobody
fails 1 "unknown user: nobody" "reset-password of an unknown user refused"

# --- reset-2fa: new secret and codes, sessions ended ------------------------------------------
db "UPDATE admin_accounts SET totp_confirmed = 1, totp_last_step = 99 WHERE name = 'alice'"
add_session alice 4
run user reset-2fa alice --json
check test "$rc" = 0 "reset-2fa: exit 0"
secret2=$(jq -r .secret "$T/out")
check test "$secret2" != "$secret" "reset-2fa: a new secret"
check test "$(db "SELECT totp_secret || ':' || totp_confirmed || ':' || coalesce(totp_last_step, -1) FROM admin_accounts WHERE name = 'alice'")" = "$secret2:0:-1" \
    "reset-2fa: stored unconfirmed, no step"
check test "$(db "SELECT hash FROM admin_recovery_codes WHERE account = 'alice' ORDER BY hash")" = \
    "$(jq -r '.recovery_codes[]' "$T/out" | while read -r c; do sha "$c"; done | sort)" \
    "reset-2fa: only the new codes' hashes"
check test "$(db "SELECT count(*) FROM admin_sessions WHERE account = 'alice'")" = 0 "reset-2fa: sessions ended"
run user reset-2fa nobody
fails 1 "unknown user: nobody" "reset-2fa of an unknown user refused"

# --- remove -------------------------------------------------------------------------
add_session alice 5
run user remove alice
succeeds "" "remove: exit 0, silent"
check test "$(db "SELECT (SELECT count(*) FROM admin_accounts WHERE name = 'alice') + (SELECT count(*) FROM admin_roles WHERE account = 'alice')
    + (SELECT count(*) FROM admin_recovery_codes WHERE account = 'alice') + (SELECT count(*) FROM admin_reset_codes WHERE account = 'alice')
    + (SELECT count(*) FROM admin_sessions WHERE account = 'alice')")" = 0 "remove: the account, roles, codes and sessions gone"
check test "$(db 'SELECT count(*) FROM admin_accounts')" = 3 "remove: the other accounts kept"
run user remove alice
fails 1 "unknown user: alice" "remove twice: unknown user"
run user remove 'Not a name'
fails 2 "invalid user name 'Not a name': 1-64 characters of a-z0-9._@-" "remove: a malformed name refused"

# --- the store's own checks on this store ------------------------------------------------
if [ -x "$BUILD/tests/unit/test_accounts" ]; then
	if store_is_postgres; then
		udb=$(pg_new_db t0150_unit) || notok "a second PostgreSQL database"
	else
		udb=$T/unit.db
	fi
	UNIT_ACCOUNTS_DB=$udb "$BUILD/tests/unit/test_accounts" > "$T/unit" 2>&1
	urc=$?
	sed -n 's/^\(ok\|not ok\) - /\1 - store: /p' "$T/unit"
	check test "$urc:$(grep -c '^ok - ' "$T/unit")" = "0:$(grep -c . "$T/unit")" "store: test_accounts ran clean on this store"
else
	notok "no $BUILD/tests/unit/test_accounts"
fi

# --- a version-4 database gets the accounts' tables, every row kept ----------------------
if store_is_postgres; then
	v4=$(pg_new_db t0150_v4) || notok "a PostgreSQL database for version 4"
	v4name=${v4#*dbname=}
	v4name=${v4name%% *}
	# As consent, which owns the tables of a real installation (the upgrade alters them).
	{ echo 'SET ROLE consent;'; sed '/^-- Version 5:/,$d; s/^INSERT INTO schema_version (version) VALUES (5);/INSERT INTO schema_version (version) VALUES (4);/' "$TOP/schema_pg.sql"; } |
	    pg_psql "$v4name" -q -v ON_ERROR_STOP=1 > /dev/null 2>&1
	pg_psql "$v4name" -q -c "GRANT ALL ON ALL TABLES IN SCHEMA public TO consent" > /dev/null 2>&1
	v4sql() { pg_psql "$v4name" -q -A -t -c "$1"; }
else
	v4=$T/v4.db
	{ sed '/^-- Version 5:/,$d' "$TOP/schema.sql"; echo 'PRAGMA user_version = 4;'; } | sqlite3 "$v4"
	v4sql() { sqlite3 "$v4" "$1"; }
fi
v4sql "INSERT INTO sites (site_key, name, created_at) VALUES ('old1', 'Old', '2026-01-01T00:00:00.000Z')" > /dev/null
v4sql "INSERT INTO domains (site_id, host) SELECT id, 'old.example' FROM sites" > /dev/null
check test "$(v4sql "SELECT count(*) FROM sites")" = 1 "a version-4 database with a site"
sites_before=$(v4sql "SELECT site_key, name, created_at FROM sites")
ctl --db "$v4" init > "$T/out" 2> "$T/err"
check test "$?:$(cat "$T/err")" = "0:" "init upgrades version 4"
if store_is_postgres; then
	check test "$(v4sql 'SELECT version FROM schema_version')" = 5 "PostgreSQL: schema_version 5"
	check test "$(v4sql "SELECT count(*) FROM information_schema.tables WHERE table_name LIKE 'admin\\_%'")" -ge 6 "PostgreSQL: the accounts' tables"
else
	check test "$(v4sql 'PRAGMA user_version')" = 5 "SQLite: user_version 5"
	check test "$(v4sql "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name LIKE 'admin\\_%' ESCAPE '\\'")" -ge 6 "SQLite: the accounts' tables"
fi
check test "$(v4sql "SELECT site_key, name, created_at FROM sites")" = "$sites_before" "the upgrade kept the site"
check test "$(v4sql "SELECT count(*) FROM domains")" = 1 "the upgrade kept the domain"
ctl --db "$v4" user add first --role owner --site old1 > /dev/null 2>&1
check test "$?:$(v4sql "SELECT role FROM admin_roles WHERE account = 'first'")" = "0:owner" "an account on the upgraded database"
ctl --db "$v4" init > /dev/null 2>&1
check test "$?:$(v4sql "SELECT count(*) FROM admin_accounts")" = "0:1" "init again: nothing lost"
