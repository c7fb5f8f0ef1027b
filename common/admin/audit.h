/* audit.h: the audit trail's chains checked (ADMIN.md 8): consentctl audit verify, and the dashboard. */
#ifndef CONSENT_AUDIT_H
#define CONSENT_AUDIT_H

#include <stdint.h>

#include "store/store_audit.h"

/* What the check of one chain found. */
struct audit_verdict {
	char failure[400];   /* the first fault, "" when the chain verifies */
	int64_t record;      /* the record the failure names, or 0 */
	int64_t seal;        /* the seal it names, or 0 */
	int64_t sealed;      /* records in the chain's seals, each checked */
	int64_t unsealed;    /* records not sealed yet, each checked */
	int64_t seals;
	char head[65];       /* the last seal's hash, "" without a seal */
};

/*
 * Check the chain of the site with this key (NULL: the records of no
 * site) as consentctl consent verify checks a site's log: each seal's
 * records (their digests recomputed from their fields, store_audit_digest),
 * its tree, its hash and its link to the seal before (proof/chain.h); then
 * each record not sealed yet; then that the chain has no record outside
 * both.  The first fault ends it, in v->failure ("record 12 (2026-...): its
 * fields do not match its digest", "seal 3: its root does not match its
 * records").  Run it inside store_snapshot() for one moment of the trail.
 * STORE_OK (whether or not the chain verified: v says), STORE_NOTFOUND
 * (no such site), or STORE_ERROR (reported).
 */
int audit_verify(struct store *st, const char *site_key, struct audit_verdict *v);

#endif
