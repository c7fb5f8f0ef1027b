#!/bin/bash
# t0702-admin-throttle.sh: failed sign-ins throttled per account and per
# address (ADMIN.md 2, common/admin/throttle.h): five free, then each try
# waits 1, 2, 4 ... 60 s (429 with Retry-After, checking nothing, the
# right password refused too), never more than 100 failures an account an
# hour evaluated; 1,000 wrong passwords cost no Argon2 work once throttled.
# Runs the test build's clock (tests/admin-clock, CONSENT_TEST_NOW).
. "$(dirname "$0")/setup.sh"
. "$TOP/tests/admin.sh"
use_test_clock
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

# One wrong password to the program directly, without the helper's
# dozen processes (a thousand of them would take a minute): NAME ADDRESS;
# leaves "STATUS RETRY-AFTER" in $T/fast.
fast() {
	printf '{"username":"%s","password":"wrong-password-xyz"}' "$1" > "$T/fast-body"
	env -i CONSENT_DB="$CONSENT_DB" CONSENT_TEST_NOW="$CONSENT_TEST_NOW" REQUEST_METHOD=POST \
	    PATH_INFO=/session CONTENT_TYPE=application/json HTTPS=on HTTP_HOST=$ADMIN_HOST \
	    CONTENT_LENGTH="$(wc -c < "$T/fast-body")" REMOTE_ADDR="$2" \
	    ${CONSENT_DATA_DIR:+CONSENT_DATA_DIR="$CONSENT_DATA_DIR"} \
	    "$BUILD/tests/admin-clock" < "$T/fast-body" |
	    awk '/^Status:/ { s = $2 } /^Retry-After:/ { r = $2 } /^\r?$/ { exit }
	         END { sub(/\r/, "", r); print s, r }' > "$T/fast"
}

# 1,000 wrong passwords in the same second: all refused unchecked.  In
# ten rounds of 100, each after one evaluated wrong password (Argon2id,
# m = 19 MiB: a new name from a new address, so it is not throttled), so
# that the machine's load weighs on both sums alike.
hash_ns=0 wait_ns=0 n401=0 n429=0 other=0
for r in $(seq 10); do
	start=$(date +%s%N)
	fast "nobody$r" "192.0.2.$((100 + r))"
	hash_ns=$((hash_ns + $(date +%s%N) - start))
	[ "$(cut -d' ' -f1 "$T/fast")" = 401 ] && n401=$((n401 + 1))
	start=$(date +%s%N)
	for i in $(seq 100); do
		fast ed 192.0.2.1
		if [ "$(cut -d' ' -f1 "$T/fast")" = 429 ]; then n429=$((n429 + 1)); else other=$((other + 1)); fi
	done
	wait_ns=$((wait_ns + $(date +%s%N) - start))
done
per_hash=$((hash_ns / 10000)) per_wait=$((wait_ns / 1000000))
check test "$n401" -eq 10 "the ten evaluated wrong passwords are 401 ($per_hash us each)"
check test "$n429" -eq 1000 "1,000 wrong passwords while throttled: all 429 ($n429; other $other)"
# An answer that hashed would cost per_hash; these cost a process start
# and two small writes (the attempt recorded, then its result).
check test $((per_wait * 2)) -lt "$per_hash" \
    "the throttled answers hashed nothing ($per_wait us each, $per_hash us with a hash)"

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
# for an hour and a half, has at most 100 failures of one account evaluated in any
# hour (throttle.h: the 60 s cap allows 69; NIST's ceiling is 100).
t=$((t + 7200))
start_t=$t
: > "$T/evaluated"
while [ "$t" -lt $((start_t + 5400)) ]; do
	CONSENT_TEST_NOW=$t fast owner "203.0.113.$((t % 200 + 1))"
	read -r st ra < "$T/fast"
	if [ "$st" = 401 ]; then
		echo "$t" >> "$T/evaluated"
		t=$((t + 1))
	else
		t=$((t + ${ra:-1}))
	fi
done
max=$(awk '{ a[NR] = $1 } END { m = 0; j = 1; for (i = 1; i <= NR; i++) { while (a[i] - a[j] >= 3600) j++; if (i - j + 1 > m) m = i - j + 1 } print m }' "$T/evaluated")
total=$(wc -l < "$T/evaluated")
check test "$max" -le 100 "at most 100 failures of one account evaluated in any hour ($max; $total in 90 minutes)"
check test "$max" -ge 20 "the guesser did get tries evaluated ($max in an hour)"
