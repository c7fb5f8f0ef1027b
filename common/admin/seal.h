/* seal.h: sealing a site's consent log, the one way of consentctl and the dashboard. */
#ifndef CONSENT_SEAL_H
#define CONSENT_SEAL_H

#include <stddef.h>
#include <stdint.h>

#include "store/store_admin.h"

/* store_seal_fn: the tree over the leaves, and the seal's hash (the
 * consent log's seals and the audit trail's). */
int seal_make(void *arg, const char *key, const struct store_leaf *l, size_t n,
              struct store_seal *s);

/*
 * Seal every unsealed entry of site key, SEAL_ENTRIES_MAX at a time:
 * STORE_OK with *total (may be NULL) the number sealed; STORE_EXISTS when
 * other sealers went first five times (run it again); else the store's
 * code (STORE_NOTFOUND: no such site).
 */
int seal_site(struct store *st, const char *key, int64_t *total);

#endif
