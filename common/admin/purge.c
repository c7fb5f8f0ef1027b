/* purge.c: the entries past a site's retention and the monthly-visitor rows of months that are over, for consentctl purge and the dashboard alike. */
#include <time.h>

#include "admin/purge.h"
#include "admin/seal.h"
#include "base/limits.h"

void
purge_cutoff(time_t now, int64_t days, char out[32])
{
	time_t t = now - (time_t)days * 86400;
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(out, 32, "%Y-%m-%dT%H:%M:%S.000Z", &tm);
}

void
purge_month(time_t now, char out[8])
{
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(out, 8, "%Y-%m", &tm);
}

/* A pause between batches, so that waiting writers take the lock. */
static void
breathe(void)
{
	nanosleep(&(struct timespec){ 0, 2000000L }, NULL);
}

int
purge_entries(struct store *st, const char *key, const char *cutoff, int64_t max,
              void (*progress)(void *arg, int64_t done), void *arg, int64_t *done)
{
	int64_t n;
	int rc;

	*done = 0;
	if ((rc = seal_site(st, key, NULL)) != STORE_OK)
		return rc;
	do {
		if ((rc = store_purge_entries(st, key, cutoff, PURGE_BATCH, 0, &n)) != STORE_OK)
			return rc;
		*done += n;
		if (progress != NULL)
			progress(arg, *done);
		if (n > 0)
			breathe();
	} while (n > 0 && (max == 0 || *done < max));
	return STORE_OK;
}

int
purge_visitors(struct store *st, const char *month, int64_t *done)
{
	int64_t n;
	int rc;

	*done = 0;
	do {
		if ((rc = store_purge_visitors(st, month, PURGE_BATCH, 0, &n)) != STORE_OK)
			return rc;
		*done += n;
		if (n > 0)
			breathe();
	} while (n > 0);
	return STORE_OK;
}
