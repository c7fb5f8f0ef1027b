#!/bin/bash
# t0703-admin-expiry.sh: a session ends after 30 minutes idle and 12 hours
# in all; sensitive actions need authentication within 5 minutes (ADMIN.md
# 4).  Runs the test build's clock (tests/admin-clock, CONSENT_TEST_NOW);
# cgi-bin/admin itself never reads it.
. "$(dirname "$0")/setup.sh"
if fcgi_mode; then
	skip "$(basename "$0" .sh): the test clock's program runs as CGI only (the FastCGI pass runs cgi-bin/admin in the other files)"
	exit 0
fi
ADMIN_PROG=../tests/admin-clock
. "$TOP/tests/admin.sh"
store_is_postgres && export CONSENT_DATA_DIR=$T

# In the past, so that the real clock's codes later are newer steps.
T0=$(($(date +%s) - 200000))
export CONSENT_TEST_NOW=$T0
PW=Owner-pass-9x7kq!
admin_setup owner "$PW" || exit 1
A_COOKIE=$COOKIE A_CSRF=$CSRF

at() { CONSENT_TEST_NOW=$1; }

# Idle: 30 minutes without a request ends it; each request moves it on.
at $((T0 + 1799)); api GET session
expect_status 200 "29:59 idle: still signed in"
at $((T0 + 1799 + 1799)); api GET session
expect_status 200 "a request moved the idle limit on"
at $((T0 + 1799 + 1799 + 1800)); api GET session
expect_error 401 "Not signed in"
at $((T0 + 1799 + 1799 + 1801)); api GET session
expect_error 401 "Not signed in"

# Absolute: 12 hours, however busy.
T1=$((T0 + 10000))
at $T1
sign_in owner "$PW" "$(totp "$SECRET" $T1)"
expect_status 200 "signed in again"
t=$T1
while [ $((t + 1500)) -lt $((T1 + 43200)) ]; do
	t=$((t + 1500)); at $t; api GET session
	[ "$(cat "$T/status")" = 200 ] || break
done
check test "$(cat "$T/status")" = 200 "busy for 11h35m: still signed in"
at $((T1 + 43199)); api GET session
expect_status 200 "at 11:59:59 still signed in"
at $((T1 + 43200)); api GET session
expect_error 401 "Not signed in"

# Re-authentication within 5 minutes for sensitive actions (R routes).
T2=$((T1 + 50000))
at $T2
sign_in owner "$PW" "$(totp "$SECRET" $T2)"
at $((T2 + 299))
api POST users '{"username":"ed","password":"Editor-pass-3k9q","roles":{}}'
expect_status 201 "4:59 after signing in a sensitive action is allowed"
at $((T2 + 300))
api POST users '{"username":"ed2","password":"Editor-pass-3k9q","roles":{}}'
expect_error 403 "Re-authentication required"
api PATCH users/ed '{"roles":{}}'
expect_error 403 "Re-authentication required"
api DELETE users/ed
expect_error 403 "Re-authentication required"
api POST account/password "$(jq -cn --arg p "$PW" '{password: $p, new: "Another-pass-5r8zw"}')"
expect_error 403 "Re-authentication required"
api POST session/reauth "$(jq -cn --arg p "$PW" --arg c "$(totp "$SECRET" $((T2 + 300)))" '{password: $p, totp: $c}')"
expect_status 200 "re-authenticated"
api DELETE users/ed
expect_status 200 "a sensitive action right after re-authenticating"
at $((T2 + 600))
api DELETE users/ed2
expect_error 403 "Re-authentication required"

# The shipped program ignores the test clock: a session made now is not
# expired by a CONSENT_TEST_NOW days ahead.
unset CONSENT_TEST_NOW
ADMIN_PROG=admin
sign_in owner "$PW" "$(totp "$SECRET" $(($(date +%s) + 30)))"
expect_status 200 "cgi-bin/admin signs in on the real clock"
api CONSENT_TEST_NOW=$(($(date +%s) + 86400 * 3)) GET session
expect_status 200 "cgi-bin/admin reads no CONSENT_TEST_NOW"
ADMIN_PROG=../tests/admin-clock
api CONSENT_TEST_NOW=$(($(date +%s) + 86400 * 3)) GET session
expect_error 401 "Not signed in"
ok "the test build does read it (above): the check could fail"
