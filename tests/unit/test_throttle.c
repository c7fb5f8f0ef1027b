/* test_throttle.c: the sign-in throttle's schedule: delays, the hourly ceiling, the reset (throttle.c). */
#include <limits.h>
#include <stdio.h>

#include "unit.h"
#include "admin/throttle.h"

static const time_t now = 1800000000;

/* The verdict for an account's failures alone: the wait, 0 for evaluate. */
static long
acct(unsigned count, long first_ago, long latest_ago)
{
	struct throttle_failures a = { count, now - first_ago, now - latest_ago }, none = { 0, 0, 0 };
	long retry = -1;
	enum throttle_verdict v = throttle_check(&a, &none, now, &retry);

	if ((v == THROTTLE_EVALUATE) != (retry == 0))
		return -99;	/* the verdict and the wait disagree */
	return retry;
}

/* The same for an address's failures alone. */
static long
addr(unsigned count, long latest_ago)
{
	struct throttle_failures none = { 0, 0, 0 }, b = { count, now - latest_ago, now - latest_ago };
	long retry = -1;

	throttle_check(&none, &b, now, &retry);
	return retry;
}

static void
test_delays(void)
{
	CHECK(throttle_delay(0) == 0 && throttle_delay(4) == 0, "up to four failures: no wait");
	CHECK(throttle_delay(5) == 1, "after five: 1 s");
	CHECK(throttle_delay(6) == 2 && throttle_delay(7) == 4 && throttle_delay(8) == 8, "then doubling: 2, 4, 8");
	CHECK(throttle_delay(10) == 32, "after ten: 32 s");
	CHECK(throttle_delay(11) == THROTTLE_DELAY_MAX, "after eleven: the cap");
	CHECK(throttle_delay(99) == THROTTLE_DELAY_MAX && throttle_delay(UINT_MAX) == THROTTLE_DELAY_MAX,
	    "capped, however many");

	CHECK(acct(0, 0, 0) == 0, "no failures: evaluate");
	CHECK(acct(4, 10, 0) == 0, "four failures, the last just now: evaluate");
	CHECK(acct(5, 10, 0) == 1, "five, the last just now: wait 1 s");
	CHECK(acct(5, 10, 1) == 0, "five, the last 1 s ago: evaluate");
	CHECK(acct(6, 10, 0) == 2 && acct(6, 10, 1) == 1 && acct(6, 10, 2) == 0, "six: 2 s after the last");
	CHECK(acct(10, 100, 31) == 1 && acct(10, 100, 32) == 0, "ten: 32 s after the last");
	CHECK(acct(40, 3000, 0) == 60 && acct(40, 3000, 59) == 1 && acct(40, 3000, 60) == 0, "forty: the cap, 60 s");
	CHECK(addr(5, 0) == 1 && addr(6, 1) == 1 && addr(10, 32) == 0, "an address has the same schedule");
	CHECK(addr(4, 0) == 0, "four from an address: evaluate");
}

static void
test_both(void)
{
	struct throttle_failures a = { 7, now - 100, now }, b = { 10, now - 100, now - 10 };
	long retry = -1;

	CHECK(throttle_check(&a, &b, now, &retry) == THROTTLE_WAIT && retry == 22,
	    "account 4 s, address 22 s: wait the longer");
	a.latest = now - 30;
	b.latest = now - 40;
	CHECK(throttle_check(&a, &b, now, &retry) == THROTTLE_EVALUATE && retry == 0, "both past: evaluate");
	a.count = 4;
	b.count = 5;
	b.latest = now;
	CHECK(throttle_check(&a, &b, now, &retry) == THROTTLE_WAIT && retry == 1,
	    "a fresh account from a failing address waits");
	CHECK(throttle_check(&a, NULL, now, &retry) == THROTTLE_EVALUATE, "no address count: the account's alone");
}

static void
test_ceiling_and_reset(void)
{
	CHECK(acct(99, 3000, 100) == 0, "99 failures this hour, past the delay: evaluate");
	CHECK(acct(100, 3000, 100) == 600, "100 this hour: wait until the first leaves the hour");
	CHECK(acct(100, 3599, 100) == 1, "100, the first 3599 s ago: 1 s");
	CHECK(acct(150, 10, 5) == 3590, "150 within 10 s: wait the hour out");
	CHECK(addr(100, 100) == 0, "the ceiling is the account's: an address past its delay is evaluated");
	CHECK(acct(40, 3600, 3600) == 0, "forty, the latest an hour ago: reset, evaluate");
	CHECK(acct(100, 3700, 3600) == 0, "even a hundred, all over an hour ago: reset");
	CHECK(acct(40, 3599, 3599) == 0, "forty, the latest 3599 s ago: past the cap, evaluate");
	CHECK(acct(5, 0, -1000) == 1, "a latest failure in the future (clock set back): at most its delay");
	CHECK(acct(100, -5000, -1000) == 3600, "the ceiling waits at most an hour");
}

/*
 * An attacker who tries the moment each try is allowed, for three hours,
 * from one address and from a new address each time: the store's counts
 * as a sliding hour over the failures so far.
 */
static unsigned
simulate(int one_address, unsigned *first_hour, unsigned *max_hour)
{
	static time_t fails[100000];
	unsigned n = 0, i, total = 0;
	time_t t;

	*first_hour = *max_hour = 0;
	for (t = now; t < now + 3 * 3600; t++) {
		int tries;

		for (tries = 0; tries < 10; tries++) {	/* several requests in one second */
			struct throttle_failures a = { 0, 0, 0 }, none = { 0, 0, 0 };
			long retry;

			for (i = 0; i < n; i++) {
				if (fails[i] > t - THROTTLE_WINDOW) {
					if (a.count++ == 0)
						a.first = fails[i];
					a.latest = fails[i];
				}
			}
			if (throttle_check(&a, one_address ? &a : &none, t, &retry) != THROTTLE_EVALUATE)
				break;
			fails[n++] = t;
			total++;
			if (t < now + 3600)
				(*first_hour)++;
			if (a.count + 1 > *max_hour)
				*max_hour = a.count + 1;
		}
	}
	return total;
}

static void
test_schedule(void)
{
	unsigned first, max, total;
	char what[96];

	total = simulate(1, &first, &max);
	snprintf(what, sizeof(what), "one address: %u failures in the first hour (5 free, then the delays)", first);
	CHECK(first >= 60 && first <= 75, what);
	snprintf(what, sizeof(what), "at most %u in any hour, never above 100", max);
	CHECK(max <= THROTTLE_ACCOUNT_MAX, what);
	CHECK(total < 3 * THROTTLE_ACCOUNT_MAX, "three hours: under 300 evaluated");
	total = simulate(0, &first, &max);
	CHECK(first >= 60 && first <= 75 && max <= THROTTLE_ACCOUNT_MAX,
	    "a new address every try: the account's throttle alone, the same schedule");
}

int
main(void)
{
	test_delays();
	test_both();
	test_ceiling_and_reset();
	test_schedule();
	UNIT_DONE();
}
