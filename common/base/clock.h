/* clock.h: the service's one notion of now: UTC ISO 8601 with milliseconds. */
#ifndef CONSENT_CLOCK_H
#define CONSENT_CLOCK_H

/* The current UTC time as "2026-11-22T10:00:00.123Z" and, unless month is
 * NULL, its month "2026-11". */
void clock_now(char iso[32], char month[8]);

#endif
