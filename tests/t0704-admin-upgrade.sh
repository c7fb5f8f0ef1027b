#!/bin/bash
# t0704-admin-upgrade.sh: the dashboard's first run creates a missing
# database, and upgrades an older one as consentctl init does, saying so
# (ADMIN.md 3 and 9): at the setup routes while it has no account tables,
# at the next sign-in once it has accounts.
. "$(dirname "$0")/setup.sh"
needs_sqlite "the database is made older with sqlite3 (PRAGMA user_version)"
. "$TOP/tests/admin.sh"
db() { sqlite3 "$CONSENT_DB" "$1"; }
want=$(sed -n 's/^PRAGMA user_version = \([0-9]*\);.*/\1/p' "$TOP/schema.sql")
PW=Owner-pass-9x7kq!

# No database at all: setup is required, and GET setup creates it.
rm -f "$CONSENT_DB" "$T/.consent-setup-token"
api GET session
expect_error 404 "Setup required"
check test ! -e "$CONSENT_DB" "a route other than setup creates no database"
api GET setup
expect_status 200 "GET setup on a missing database"
check test "$(db 'PRAGMA user_version')" = "$want" "it created the database at the schema's version"
check test -s "$T/.consent-setup-token" "and the setup token beside it"
expect_json .upgraded null "a new database is not an upgrade"

# A database as version 4 left it: no account tables.
ctl site add demo --name Demo > /dev/null
for t in $(db "SELECT name FROM sqlite_master WHERE type = 'table' AND (name LIKE 'admin_%' OR name LIKE 'audit_%')"); do
	db "DROP TABLE $t"
done
db 'PRAGMA user_version = 4'
api GET session
expect_error 404 "Setup required"
api GET setup
expect_status 200 "GET setup on a version-4 database"
expect_json .upgraded true "says it upgraded the database"
check test "$(db 'PRAGMA user_version')" = "$want" "to the schema's version"
check test "$(db "SELECT count(*) FROM sqlite_master WHERE name = 'admin_accounts'")" = 1 "with the account tables"
check test "$(db "SELECT count(*) FROM sites WHERE site_key = 'demo'")" = 1 "keeping its sites"

# Four setups at once with the right token: one owner, whichever wins.
token=$(cat "$T/.consent-setup-token")
for i in 1 2 3 4; do
	printf '{"token":"%s","username":"racer%s","password":"%s"}' "$token" "$i" "$PW" > "$T/race$i"
	env -i CONSENT_DB="$CONSENT_DB" REQUEST_METHOD=POST PATH_INFO=/setup HTTPS=on \
	    HTTP_HOST=$ADMIN_HOST CONTENT_TYPE=application/json \
	    CONTENT_LENGTH="$(wc -c < "$T/race$i")" "$BUILD/cgi-bin/admin" < "$T/race$i" > "$T/race$i.out" &
done
wait
check test "$(grep -l '^Status: 201' "$T"/race?.out | wc -l)" = 1 "four setups at once with the token: one 201"
check test "$(db 'SELECT count(*) FROM admin_accounts')" = 1 "and one account"
db "DELETE FROM admin_accounts"   # start again for the rest
api GET setup
expect_status 200 "with no account left, setup is open again"
check test -s "$T/.consent-setup-token" "with a new token"
admin_setup owner "$PW" || exit 1
expect_json .upgraded null "the sign-in after it upgrades nothing more"

# Newer programs over a database with accounts: the next sign-in upgrades it.
db 'PRAGMA user_version = 4'
api GET session
expect_status 200 "a session goes on over the older database"
sign_in owner wrong-password-xyz "$(totp "$SECRET" $(($(date +%s) + 30)))"
expect_error 401 "Invalid credentials"
check test "$(db 'PRAGMA user_version')" = 4 "a failed sign-in upgrades nothing"
sign_in owner "$PW" "$(totp "$SECRET" $(($(date +%s) + 30)))"
expect_status 200 "the next sign-in"
expect_json .upgraded true "says it upgraded the database"
check test "$(db 'PRAGMA user_version')" = "$want" "to the schema's version"
