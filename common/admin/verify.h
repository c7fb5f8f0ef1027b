/* verify.h: a site's consent log verified, at once (consentctl consent verify) or in steps (the dashboard). */
#ifndef CONSENT_VERIFY_H
#define CONSENT_VERIFY_H

#include <stdint.h>

#include <cjson/cJSON.h>

#include "proof/chain.h"
#include "store/store_admin.h"

/* What verify found so far; the first failure ends it. */
struct verify {
	struct store *st;
	const char *key;
	const char *head;      /* a seal hash recorded elsewhere, or NULL */
	char failure[400];     /* "" while everything holds */
	int64_t entry;         /* the entry the failure names, or 0 */
	int64_t seal;          /* the seal it names, or 0 */
	struct chain_leaves *leaves;  /* the current seal's, the chain walk's */
	int64_t live, pruned, unsealed, total;
	int64_t builtin_missing;  /* entries naming built-in texts not recorded */
	int64_t next;          /* a step: the seal the next one starts at; 0: done */
	cJSON *seals;          /* the site's seal rows (owned: verify_clear()) */
};

/*
 * Recompute every digest, tree and seal of site key, in one snapshot:
 * configs and built-in texts, then the chain of seals with their leaves
 * (chain_walk_part(): from seal from on in full, the ones before by their
 * hashes; at most about budget leaves, 0: no bound), then, once the chain
 * is walked to its end, the entries not sealed yet and the count of
 * entries (none may hide outside both).  live and pruned: the leaves the
 * steps before counted (0 for a whole run).  STORE_OK with the first mismatch
 * in k->failure ("" when none) and k->next the next step's seal (0: the
 * verdict is complete); else a store code (reported).  verify_clear(k)
 * after either.
 */
int verify_site(struct store *st, const char *key, const char *head, int64_t from,
                int64_t budget, int64_t live, int64_t pruned, struct verify *k);
void verify_clear(struct verify *k);

/* consent verify --json's object of a complete verification (a new
 * object, NULL when out of memory). */
cJSON *verify_verdict(const struct verify *k);

/* {"ok":true, found's members} or {"ok":false,"error":failure, noun:id
 * (when > 0), "seal" (when > 0)}: a new object, found consumed; NULL when
 * out of memory. */
cJSON *verdict_object(const char *failure, const char *noun, int64_t id, int64_t seal,
                      cJSON *found);

#endif
