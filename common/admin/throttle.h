/* throttle.h: when a sign-in attempt is evaluated and when it waits (ADMIN.md 2), as a pure function. */
#ifndef CONSENT_THROTTLE_H
#define CONSENT_THROTTLE_H

#include <time.h>

/*
 * The schedule.  The first THROTTLE_FREE failures of an account, or of a
 * client address, within THROTTLE_WINDOW seconds cost nothing; after them
 * each further try waits 1 s after the latest failure, then 2, 4, 8 ...
 * up to THROTTLE_DELAY_MAX.  The cap bounds what an attacker who keeps
 * failing on purpose makes the account's owner wait; with it, one who
 * tries the moment each try is allowed has at most 69 failures evaluated
 * in any hour (test_throttle simulates it).  An account's failures are
 * never evaluated more than THROTTLE_ACCOUNT_MAX times an hour, whatever
 * the delays (NIST SP 800-63B 5.2.2 caps them at 100).
 */
#define THROTTLE_FREE 5
#define THROTTLE_DELAY_MAX 60
#define THROTTLE_WINDOW 3600
#define THROTTLE_ACCOUNT_MAX 100

/* One account's, or one address's, failed sign-ins in the THROTTLE_WINDOW
 * seconds before now, as the store counts them. */
struct throttle_failures {
	unsigned count;	/* how many */
	time_t first;	/* the earliest of them (the 100-an-hour ceiling's end) */
	time_t latest;	/* the latest of them (the delay's start) */
};

enum throttle_verdict {
	THROTTLE_EVALUATE = 0,	/* check the credentials */
	THROTTLE_WAIT		/* answer 429 with Retry-After, checking nothing */
};

/* The wait, in seconds, after count failures within the window: 0 for up
 * to THROTTLE_FREE - 1, then 1, 2, 4 ... THROTTLE_DELAY_MAX. */
long throttle_delay(unsigned count);

/*
 * Whether to evaluate a sign-in attempt now, given the failures recorded
 * for the user name as typed (an account's or not: a 429 then tells
 * nothing of which names exist) and for the client's address (NULL: none
 * counted).  THROTTLE_WAIT while either is
 * within its delay after its latest failure, or the account has
 * THROTTLE_ACCOUNT_MAX failures in the window; *retry_after is then the
 * seconds until both allow a try (1 to THROTTLE_WINDOW).  A wait refuses
 * the attempt whatever its credentials: the right password is refused
 * too, or the delays would tell a guesser when it was right.  A window
 * whose latest failure is THROTTLE_WINDOW seconds old or more counts as
 * none.  THROTTLE_EVALUATE sets *retry_after to 0.
 */
enum throttle_verdict throttle_check(const struct throttle_failures *account,
                                     const struct throttle_failures *address, time_t now,
                                     long *retry_after);

#endif
