/* throttle.c: the sign-in throttle's schedule (ADMIN.md 2). */
#include <stddef.h>

#include "admin/throttle.h"

long
throttle_delay(unsigned count)
{
	long d = 1;
	unsigned i;

	if (count < THROTTLE_FREE)
		return 0;
	for (i = THROTTLE_FREE; i < count && d < THROTTLE_DELAY_MAX; i++)
		d *= 2;
	return d < THROTTLE_DELAY_MAX ? d : THROTTLE_DELAY_MAX;
}

/* Seconds from now until f allows a try (0: now); ceiling is the most
 * failures it may hold in the window (0: none). */
static long
wait_for(const struct throttle_failures *f, time_t now, unsigned ceiling)
{
	long wait = 0, delay;

	if (f == NULL || f->count == 0 || f->latest <= now - THROTTLE_WINDOW)
		return 0;
	delay = throttle_delay(f->count);
	if (f->latest + delay > now)
		wait = (long)(f->latest + delay - now);
	if (wait > delay)
		wait = delay;	/* a latest failure in the future: the clock went back */
	if (ceiling > 0 && f->count >= ceiling) {
		time_t first = f->first > 0 && f->first <= f->latest ? f->first : f->latest;
		long until = first + THROTTLE_WINDOW > now ? (long)(first + THROTTLE_WINDOW - now) : 1;

		if (until > THROTTLE_WINDOW)
			until = THROTTLE_WINDOW;
		if (until > wait)
			wait = until;
	}
	return wait;
}

enum throttle_verdict
throttle_check(const struct throttle_failures *account, const struct throttle_failures *address,
               time_t now, long *retry_after)
{
	long a = wait_for(account, now, THROTTLE_ACCOUNT_MAX);
	long b = wait_for(address, now, 0);
	long wait = a > b ? a : b;

	*retry_after = wait;
	return wait > 0 ? THROTTLE_WAIT : THROTTLE_EVALUATE;
}
