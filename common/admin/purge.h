/* purge.h: what a retention or a month that is over lets go: one purge for consentctl and the dashboard. */
#ifndef CONSENT_PURGE_H
#define CONSENT_PURGE_H

#include <stdint.h>
#include <time.h>

#include "store/store_admin.h"

/* The UTC time days before now, in the stored form; the UTC month of now
 * ("YYYY-MM"), before which the monthly-visitor rows are over. */
void purge_cutoff(time_t now, int64_t days, char out[32]);
void purge_month(time_t now, char out[8]);

/*
 * The entries of site key stored before cutoff: sealed first, so that each
 * leaves its leaf, then deleted PURGE_BATCH at a time with a short pause
 * between batches (waiting writers take the lock), until none is left or
 * at least max are deleted (0: no bound); progress(arg, deleted so far)
 * after each batch when given.  *done: how many were deleted.  STORE_OK;
 * STORE_EXISTS when other sealers went first (seal_site()); STORE_ERROR.
 */
int purge_entries(struct store *st, const char *key, const char *cutoff, int64_t max,
                  void (*progress)(void *arg, int64_t done), void *arg, int64_t *done);

/* The monthly-visitor rows of every site of the months before month (the
 * counts stay), PURGE_BATCH at a time: *done rows.  STORE_OK or
 * STORE_ERROR. */
int purge_visitors(struct store *st, const char *month, int64_t *done);

#endif
