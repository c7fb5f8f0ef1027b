/* clock.c: the service's one notion of now: UTC ISO 8601 with milliseconds. */
#include <stdio.h>
#include <time.h>

#include "base/clock.h"

void
clock_now(char iso[32], char month[8])
{
	struct timespec ts;
	struct tm tm;
	size_t n;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	n = strftime(iso, 32, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(iso + n, 32 - n, ".%03dZ", (int)(ts.tv_nsec / 1000000L) % 1000);
	if (month != NULL)
		strftime(month, 8, "%Y-%m", &tm);
}
