#!/bin/bash
# t0702-admin-throttle.sh: failed sign-ins throttled per account and per
# address (ADMIN.md 2, common/admin/throttle.h): five free, then each try
# waits 1, 2, 4 ... 60 s (429 with Retry-After, checking nothing, the
# right password refused too), never more than 100 failures an account an
# hour evaluated; 1,000 wrong passwords cost no Argon2 work once throttled.
# Runs the test build's clock (tests/admin-clock, CONSENT_TEST_NOW).
. "$(dirname "$0")/setup.sh"
if fcgi_mode; then
	skip "$(basename "$0" .sh): the test clock's program runs as CGI only (the FastCGI pass runs cgi-bin/admin in the other files)"
	exit 0
fi
ADMIN_PROG=../tests/admin-clock
. "$TOP/tests/admin.sh"
store_is_postgres && export CONSENT_DATA_DIR=$T

export CONSENT_TEST_NOW=2000000000
PW=Owner-pass-9x7kq!
admin_setup owner "$PW" || exit 1
api POST users '{"username":"ed","password":"Editor-pass-3k9q","roles":{}}'
expect_status 201 "an account without a second factor to guess at"
COOKIE= CSRF=

wrong() { # NAME [ADDRESS]: one wrong password at CONSENT_TEST_NOW
	api REMOTE_ADDR="${2:-192.0.2.1}" POST session "{\"username\":\"$1\",\"password\":\"wrong-password-xyz\"}"
}

# Five free failures, then the waits.
for i in 1 2 3 4 5; do
	wrong ed
	expect_error 401 "Invalid credentials" > "$T/r"; sed "s|^\(not \)\{0,1\}ok - |&failure $i: |" "$T/r"
done
wrong ed
expect_error 429 "Too many attempts: try again later"
expect_header Retry-After 1 "the sixth try waits 1 s after the fifth failure"
sign_in ed Editor-pass-3k9q
expect_status 429 "the right password is refused while throttled"
check test -z "$(header Set-Cookie)" "and gets no cookie"

# 1,000 wrong passwords in the same second: all refused unchecked.
start=$(date +%s%N)
n429=0 other=0
for i in $(seq 1000); do
	wrong ed
	if [ "$(cat "$T/status")" = 429 ]; then n429=$((n429 + 1)); else other=$((other + 1)); fi
done
ms=$(( ($(date +%s%N) - start) / 1000000 ))
check test "$n429" -eq 1000 "1,000 wrong passwords while throttled: all 429 ($n429; other $other)"
# One Argon2id hash at m=19 MiB takes 50-100 ms: 1,000 of them would take
# over 50 s.  The answers checked nothing, so the loop took about the time
# of 1,000 process starts.
check test "$ms" -lt $((1000 * 25)) "the loop hashed nothing ($ms ms for 1,000 requests)"

# The delays grow: 1, 2, 4, 8 ... after each evaluated failure, up to 60.
t=$CONSENT_TEST_NOW
want=1
for i in 6 7 8 9 10 11 12 13; do
	t=$((t + want))
	CONSENT_TEST_NOW=$t wrong ed
	expect_status 401 "at the end of the wait failure $i is evaluated" > "$T/r"
	[ "$i" = 6 ] || [ "$i" = 13 ] && cat "$T/r"
	grep -q '^not ok' "$T/r" && cat "$T/r"
	CONSENT_TEST_NOW=$t wrong ed
	case $i in
	6) want=2 ;; 7) want=4 ;; 8) want=8 ;; 9) want=16 ;; 10) want=32 ;; *) want=60 ;;
	esac
	expect_header Retry-After "$want" "after failure $i the wait is $want s"
done
t=$((t + 60))
CONSENT_TEST_NOW=$t sign_in ed Editor-pass-3k9q
expect_status 200 "the right password signs in once the wait is over"
COOKIE= CSRF=

# Another account is not throttled by ed's failures, but the address is:
# a guesser that moves from name to name meets the address's waits.
CONSENT_TEST_NOW=$t wrong owner 198.51.100.7
expect_error 401 "Invalid credentials"
for name in a b c d e; do CONSENT_TEST_NOW=$t wrong "$name" 198.51.100.9; done
CONSENT_TEST_NOW=$t wrong f 198.51.100.9
expect_status 429 "six names from one address: the address waits"

# The hourly ceiling: a guesser that tries the moment each try is allowed,
# for two hours, has at most 100 failures of one account evaluated in any
# hour (throttle.h: the 60 s cap allows 69; NIST's ceiling is 100).
t=$((t + 7200))
start_t=$t
: > "$T/evaluated"
while [ "$t" -lt $((start_t + 7200)) ]; do
	CONSENT_TEST_NOW=$t api REMOTE_ADDR=203.0.113.$((t % 200 + 1)) POST session '{"username":"owner","password":"wrong-password-xyz"}'
	if [ "$(cat "$T/status")" = 401 ]; then
		echo "$t" >> "$T/evaluated"
		t=$((t + 1))
	else
		ra=$(header Retry-After)
		t=$((t + ${ra:-1}))
	fi
done
max=$(awk '{ a[NR] = $1 } END { m = 0; j = 1; for (i = 1; i <= NR; i++) { while (a[i] - a[j] >= 3600) j++; if (i - j + 1 > m) m = i - j + 1 } print m }' "$T/evaluated")
total=$(wc -l < "$T/evaluated")
check test "$max" -le 100 "at most 100 failures of one account evaluated in any hour ($max; $total in two hours)"
check test "$max" -ge 20 "the guesser did get tries evaluated ($max in an hour)"
