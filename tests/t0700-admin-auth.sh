#!/bin/bash
# t0700-admin-auth.sh: the dashboard's first run, signing in and out, its
# second factor, sessions and accounts (ADMIN.md 2-5, docs/admin-api.md).
. "$(dirname "$0")/setup.sh"
# The test clock (tests/admin-clock): each deliberate failure below counts
# towards the sign-in throttle (t0702), so the clock moves past its waits
# (later) rather than the test sleeping through them.
. "$TOP/tests/admin.sh"
. "$TOP/tests/ctl-helpers.sh"
use_test_clock
export CONSENT_TEST_NOW=$(($(date +%s) - 100000))
later() { CONSENT_TEST_NOW=$((CONSENT_TEST_NOW + ${1:-61})); }

PW=Owner-pass-9x7kq!
TOKEN_FILE=$(dirname "$CONSENT_DB")/.consent-setup-token
store_is_postgres && { export CONSENT_DATA_DIR=$T; TOKEN_FILE=$T/.consent-setup-token; }

# --- ADMIN.md 3: the first run --------------------------------------------------
if store_is_postgres; then
	check test ! -e "$TOKEN_FILE" "consentctl init wrote no token without CONSENT_DATA_DIR (PostgreSQL)"
	ctl init > /dev/null
fi
check test -s "$TOKEN_FILE" "consentctl init wrote the setup token beside the database"
check test "$(stat -c %a "$TOKEN_FILE")" = 600 "the token's file is mode 0600"
rm -f "$TOKEN_FILE"
api GET setup
expect_status 200 "GET setup while no account exists"
expect_json .needed true "it says setup is needed"
expect_json .token_file "\"$TOKEN_FILE\"" "and names the token's file"
expect_api_headers "GET setup has the API's headers"
check test -s "$TOKEN_FILE" "the first request made the missing token file"
TOKEN=$(cat "$TOKEN_FILE")
check test "${#TOKEN}" -eq 43 "the token is 43 characters of base64url (32 bytes)"

for r in "GET session" "GET users" "GET account/sessions" "GET audit" "POST session/reauth" \
    "POST session" "DELETE users/owner"; do
	api ${r% *} "${r#* }" '{}'
	expect_error 404 "Setup required"
done

setup_body() { jq -cn --arg t "$1" --arg u "$2" --arg p "$3" '{token: $t, username: $u, password: $p}'; }
api POST setup "$(setup_body wrong-token-wrong-token-wrong-token-wrongxx owner "$PW")"
expect_error 403 "Invalid setup token"
api CONTENT_TYPE=text/plain POST setup "$(setup_body "$TOKEN" owner "$PW")"
expect_error 415 "Content-Type must be application/json"
api HTTP_SEC_FETCH_SITE=cross-site POST setup "$(setup_body "$TOKEN" owner "$PW")"
expect_error 403 "Cross-site request refused"
api HTTP_ORIGIN=https://evil.example POST setup "$(setup_body "$TOKEN" owner "$PW")"
expect_error 403 "Cross-site request refused"
api POST setup "$(setup_body "$TOKEN" owner 012345678910)"
expect_status 400 "a common password is refused at setup"
api POST setup "$(setup_body "$TOKEN" 'Owner!' "$PW")"
expect_status 400 "a user name outside a-z0-9._@- is refused"
check test -s "$TOKEN_FILE" "the refused attempts left the token's file"
api GET session
expect_error 404 "Setup required"

api POST setup "$(setup_body "$TOKEN" owner "$PW")"
expect_status 201 "POST setup with the token creates the first owner"
expect_json .username '"owner"' "the answer names the owner"
check grep -q '^otpauth://totp/.*secret=' <(jq -r .otpauth "$T/body") "with the otpauth URI"
expect_json '.recovery_codes | length' 10 "and ten recovery codes"
SECRET=$(jq -r .secret "$T/body")
jq -r '.recovery_codes[]' "$T/body" > "$T/recovery"
check test ! -e "$TOKEN_FILE" "the token's file is deleted after setup"
api POST setup "$(setup_body "$TOKEN" owner2 "$PW")"
expect_error 404 "Not found"
api GET setup
expect_error 404 "Not found"
COOKIE= api GET session
expect_error 401 "Not signed in"
check test ! -e "$TOKEN_FILE" "no token file once an account exists"
echo stale > "$TOKEN_FILE"
api GET setup
expect_error 404 "Not found"
check test ! -e "$TOKEN_FILE" "a token file left once an account exists is deleted (consentctl user add)"

# --- ADMIN.md 2: signing in -------------------------------------------------------
sign_in owner "$PW" 000000
expect_error 401 "Invalid credentials"
cp "$T/body" "$T/wrong-code"
sign_in owner wrong-password-xyz "$(totp "$SECRET")"
expect_error 401 "Invalid credentials"
cp "$T/body" "$T/wrong-pw"
sign_in nobody "$PW" "$(totp "$SECRET")"
expect_error 401 "Invalid credentials"
check cmp -s "$T/body" "$T/wrong-pw" "an unknown user and a wrong password get the same bytes"
check cmp -s "$T/body" "$T/wrong-code" "a wrong code gets the same bytes too"
sign_in owner "$(head -c 600 /dev/zero | tr '\0' a)" "$(totp "$SECRET")"
expect_error 401 "Invalid credentials"

later
CODE=$(totp "$SECRET")
sign_in owner "$PW" "$CODE"
expect_status 200 "the owner signs in with the password and a TOTP code"
expect_api_headers "the sign-in answer has the API's headers"
SC=$(header Set-Cookie)
check test -n "$COOKIE" "a session cookie is set"
check test "${#COOKIE}" -eq 43 "its value is 32 bytes as base64url"
check grep -qE '^__Host-consent_admin=[A-Za-z0-9_-]{43}; Path=/; Secure; HttpOnly; SameSite=Strict$' <(echo "$SC") \
    "the cookie is __Host- with Path=/, Secure, HttpOnly, SameSite=Strict"
check test -z "$(echo "$SC" | grep -i domain)" "the cookie has no Domain"
expect_json .user '"owner"' "the answer names the user"
expect_json .roles '{"*":"owner"}' "and the roles"
check test "$CSRF" != "$COOKIE" "the CSRF token is not the cookie's value"
check test "${#CSRF}" -eq 43 "the CSRF token is 43 characters"
A_COOKIE=$COOKIE A_CSRF=$CSRF
check test "$(db "SELECT count(*) FROM admin_sessions WHERE token_hash = '$(printf '%s' "$COOKIE" | sha256sum | cut -d' ' -f1)'")" = 1 \
    "the session is stored as the SHA-256 of its token"
check test "$(db "SELECT count(*) FROM admin_sessions WHERE token_hash = '$COOKIE' OR id = '$COOKIE' OR csrf = '$COOKIE'")" = 0 \
    "and the token itself is nowhere in its row"
check grep -q '^\$argon2id\$v=19\$m=19456,t=2,p=1\$' <<< "$(db "SELECT password FROM admin_accounts WHERE name = 'owner'")" \
    "the password setup stored is Argon2id (m=19456, t=2, p=1) in the PHC form"
api GET session
expect_status 200 "GET session with the cookie"
expect_json .csrf "\"$A_CSRF\"" "gives the session's CSRF token"

# RFC 6238 5.2: the code of an accepted step is refused again.
sign_in owner "$PW" "$CODE"
expect_error 401 "Invalid credentials"
ok "a replayed TOTP code is refused (above)"

# A recovery code, once.
RC=$(head -n 1 "$T/recovery")
later
sign_in owner "$PW" "$RC"
expect_status 200 "a recovery code signs in"
check test "$COOKIE" != "$A_COOKIE" "signing in again makes a new session token"
B_COOKIE=$COOKIE B_CSRF=$CSRF
later
sign_in owner "$PW" "$RC"
expect_error 401 "Invalid credentials"
COOKIE=$A_COOKIE CSRF=$A_CSRF api GET session
expect_status 200 "the account's other session stays after a new sign-in"

# --- ADMIN.md 4: sessions ------------------------------------------------------------
COOKIE=$A_COOKIE CSRF=$A_CSRF
api GET account/sessions
expect_status 200 "GET account/sessions"
expect_json '.sessions | length' 2 "lists the account's two sessions"
expect_json '[.sessions[] | select(.current)] | length' 1 "one of them the current one"
B_ID=$(jq -r '.sessions[] | select(.current | not) | .id' "$T/body")
api DELETE "account/sessions/$B_ID"
expect_status 200 "DELETE account/sessions/{id} ends the other session"
COOKIE=$B_COOKIE CSRF=$B_CSRF api GET session
expect_error 401 "Not signed in"
api DELETE "account/sessions/$B_ID"
expect_error 404 "Session not found"

# Re-authentication.
later
api POST session/reauth '{"password":"wrong-password-xyz"}'
expect_error 401 "Invalid credentials"
later
api POST session/reauth "$(jq -cn --arg p "$PW" --arg c "$(totp "$SECRET")" '{password: $p, totp: $c}')"
expect_status 200 "POST session/reauth with the password and a code"

# A password change ends the other sessions, not this one.
later 3
sign_in owner "$PW" "$(head -n 2 "$T/recovery" | tail -n 1)"
C_COOKIE=$COOKIE C_CSRF=$CSRF
COOKIE=$A_COOKIE CSRF=$A_CSRF
NEWPW=Another-pass-5r8zw
api POST account/password "$(jq -cn --arg p "$PW" '{password: $p, new: "short"}')"
expect_status 400 "a new password under 12 characters is refused"
later 3
api POST account/password "$(jq -cn --arg p wrong-password-xyz --arg n "$NEWPW" '{password: $p, new: $n}')"
expect_error 401 "Invalid credentials"
later 61
api POST account/password "$(jq -cn --arg p "$PW" --arg n "$NEWPW" '{password: $p, new: $n}')"
expect_status 200 "POST account/password changes the password"
api GET session
expect_status 200 "the session that changed it stays"
COOKIE=$C_COOKIE CSRF=$C_CSRF api GET session
expect_error 401 "Not signed in"
later
sign_in owner "$PW" "$(head -n 3 "$T/recovery" | tail -n 1)"
expect_error 401 "Invalid credentials"
later
sign_in owner "$NEWPW" "$(head -n 3 "$T/recovery" | tail -n 1)"
expect_status 200 "the new password signs in"
PW=$NEWPW
A_COOKIE=$COOKIE A_CSRF=$CSRF

# Sign-out.
api DELETE session
expect_status 200 "DELETE session signs out"
check grep -q '^__Host-consent_admin=; .*Max-Age=0' <(header Set-Cookie) "and clears the cookie"
api GET session
expect_error 401 "Not signed in"

# --- ADMIN.md 5: accounts ------------------------------------------------------------
later
sign_in owner "$PW" "$(head -n 4 "$T/recovery" | tail -n 1)"
ctl site add demo --name Demo > /dev/null
api POST users '{"username":"ed","password":"Editor-pass-3k9q","roles":{"demo":"editor"}}'
expect_status 201 "an owner of every site adds an editor"
expect_json .roles '{"demo":"editor"}' "with its roles"
api POST users '{"username":"ed","password":"Editor-pass-3k9q","roles":{}}'
expect_error 409 "User exists"
api POST users '{"username":"x","password":"Editor-pass-3k9q","roles":{"nosuchsite":"viewer"}}'
expect_error 404 "Site not found"
api POST users '{"username":"x","password":"Editor-pass-3k9q","roles":{"demo":"admin"}}'
expect_status 400 "an unknown role is refused"
api POST users '{"username":"so","password":"Siteowner-pass-7w","roles":{"demo":"owner"}}'
expect_status 201 "and a site's owner"
api GET users
expect_status 200 "GET users"
expect_json '[.users[].username] | sort' '["ed","owner","so"]' "lists every account"
OWNER_COOKIE=$COOKIE OWNER_CSRF=$CSRF

later
sign_in ed Editor-pass-3k9q
expect_status 200 "an editor signs in with the password alone (no owner role, no factor)"
expect_json .roles '{"demo":"editor"}' "with its roles"
ED_COOKIE=$COOKIE ED_CSRF=$CSRF
api GET users
expect_error 403 "Forbidden"
api POST users '{"username":"y","password":"Editor-pass-3k9q","roles":{}}'
expect_error 403 "Forbidden"
api DELETE users/owner
expect_error 403 "Forbidden"
api GET audit
expect_error 403 "Forbidden"
api GET "audit?site=demo"
expect_error 403 "Forbidden"
api GET "audit?site=other"
expect_error 404 "Site not found"

# An owner added later enrols at the first sign-in.
later
sign_in so Siteowner-pass-7w
expect_status 403 "a site's owner without a factor gets no session"
expect_json .error '"Two-factor enrolment required"' "but the enrolment"
check grep -q '^otpauth://totp/' <(jq -r .otpauth "$T/body") "with its otpauth URI"
expect_json '.recovery_codes | length' 10 "and recovery codes"
check test -z "$(header Set-Cookie)" "and no cookie"
SO_SECRET=$(jq -r .secret "$T/body")
later
sign_in so Siteowner-pass-7w "$(totp "$SO_SECRET")"
expect_status 200 "the first sign-in with a code of it confirms the factor"
api GET "audit?site=demo"
expect_status 200 "a site's owner reads that site's audit records"
api GET audit
expect_error 403 "Forbidden"
later
sign_in so Siteowner-pass-7w
expect_error 401 "Invalid credentials"

SO_COOKIE=$COOKIE SO_CSRF=$CSRF

# A new password with the one-time code `consentctl user reset-password` prints.
RESET=$(ctl user reset-password so --json | jq -r .reset_code)
check test -n "$RESET" "consentctl user reset-password prints a code"
reset_body() { jq -cn --arg u "$1" --arg c "$2" --arg n "$3" '{username: $u, code: $c, new: $n}'; }
COOKIE= CSRF=
later
api POST account/reset "$(reset_body so "x$RESET" Siteowner-new-8r2q)"
expect_error 401 "Invalid credentials"
later
api POST account/reset "$(reset_body nobody "$RESET" Siteowner-new-8r2q)"
expect_error 401 "Invalid credentials"
api POST account/reset "$(reset_body so "$RESET" short)"
expect_status 400 "a reset to a password under the policy is refused"
later
api CONTENT_TYPE=text/plain POST account/reset "$(reset_body so "$RESET" Siteowner-new-8r2q)"
expect_error 415 "Content-Type must be application/json"
api POST account/reset "$(reset_body so "$RESET" Siteowner-new-8r2q)"
expect_status 200 "POST account/reset with the code sets the password"
COOKIE=$SO_COOKIE CSRF=$SO_CSRF api GET session
expect_error 401 "Not signed in"
later
api POST account/reset "$(reset_body so "$RESET" Siteowner-new-9t3w)"
expect_error 401 "Invalid credentials"
later
sign_in so Siteowner-new-8r2q "$(totp "$SO_SECRET")"
expect_status 200 "the new password signs in (the factor still asked)"
SO_COOKIE=$COOKIE SO_CSRF=$CSRF

COOKIE=$OWNER_COOKIE CSRF=$OWNER_CSRF
later
api POST session/reauth "$(jq -cn --arg p "$PW" --arg c "$(totp "$SECRET")" '{password: $p, totp: $c}')"
expect_status 200 "the owner re-authenticates (more than 5 minutes passed)"
api PATCH users/ed '{"roles":{"demo":"viewer"}}'
expect_status 200 "PATCH users/{name} changes the roles"
api PATCH users/owner '{"roles":{"demo":"owner"}}'
expect_error 409 "The last owner of every site cannot lose that role"
api DELETE users/owner
expect_error 409 "The last owner of every site cannot lose that role"
api DELETE users/nobody
expect_error 404 "User not found"
api PATCH users/so '{}'
expect_status 400 "PATCH users/{name} with nothing to change"

# A second factor reset ends the account's sessions; its owner enrols anew.
api PATCH users/so '{"reset_2fa":true}'
expect_status 200 "PATCH users/{name} resets the second factor"
COOKIE=$SO_COOKIE CSRF=$SO_CSRF api GET session
expect_error 401 "Not signed in"
later
sign_in so Siteowner-new-8r2q "$(totp "$SO_SECRET")"
expect_status 403 "the old factor's code no longer signs in: enrol a new one"
expect_json .error '"Two-factor enrolment required"' "the answer is the enrolment"
COOKIE=$OWNER_COOKIE CSRF=$OWNER_CSRF
api DELETE users/ed
expect_status 200 "DELETE users/{name} removes an account"
COOKIE=$ED_COOKIE CSRF=$ED_CSRF api GET session
expect_error 401 "Not signed in" > "$T/r"; sed "s|^\(not \)\{0,1\}ok - |&a session of the removed account: |" "$T/r"
later
sign_in ed Editor-pass-3k9q
expect_error 401 "Invalid credentials"

# ADMIN.md 8: the changes are in the audit trail.
COOKIE=$OWNER_COOKIE CSRF=$OWNER_CSRF
api GET "audit?limit=200"
expect_status 200 "GET audit for an owner of every site"
for a in setup session.signin session.signout account.password account.session_end account.reset user.add user.change user.remove; do
	check jq -e --arg a "$a" '[.entries[] | select(.action == $a)] | length > 0' "$T/body" "the audit trail holds $a"
done
check jq -e '[.entries[] | select(.action == "setup")][0].actor == "owner"' "$T/body" \
    "setup is recorded as the new owner's"

# --- ADMIN.md 2: codes that are not six digits, and the sign-in log ----------------
later 3700
COOKIE= CSRF=
for c in " CODE" "CODE " "0CODE" "CODE0" "CODE:0:3" "CODE:3" "+CODE:1"; do
	later
	code=$(totp "$SECRET")
	case $c in
	*:*:*) c=${code:0:3}" "${code:3:3} ;;
	CODE:3) c=${code:0:3} ;;
	+CODE:1) c=+${code:1} ;;
	*) c=${c/CODE/$code} ;;
	esac
	COOKIE= CSRF= api REMOTE_ADDR=198.51.100.9 POST session "$(jq -cn --arg p "$PW" --arg c "$c" \
	    '{username: "owner", password: $p, totp: $c}')"
	expect_error 401 "Invalid credentials" > "$T/r"; sed "s|^\(not \)\{0,1\}ok - |&the code '$c' (the right one's digits, not six): |" "$T/r"
	check cmp -s "$T/body" "$T/wrong-pw" "the code '$c': the same bytes as a wrong password"
done
later 3700
COOKIE= CSRF= api REMOTE_ADDR=198.51.100.7 POST session '{"username":" Ówner.X ","password":"wrong-password-xyz"}'
expect_error 401 "Invalid credentials"
check test "$(db "SELECT at || '|' || username || '|' || address || '|' || result FROM admin_signins WHERE address = '198.51.100.7'")" \
    = "$CONSENT_TEST_NOW| Ówner.X |198.51.100.7|bad" "the attempt is logged: its time, the user name as typed, the address, the result"
COOKIE= CSRF= api REMOTE_ADDR=198.51.100.7 POST session "$(jq -cn --arg p "$PW" --arg c "$(totp "$SECRET")" '{username: "owner", password: $p, totp: $c}')"
expect_status 200 "the owner signs in"
check test "$(db "SELECT username || '|' || result FROM admin_signins WHERE address = '198.51.100.7' ORDER BY id DESC LIMIT 1")" \
    = "owner|ok" "the success is logged too"
