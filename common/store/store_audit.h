/* store_audit.h: the audit trail (ADMIN.md 8): recording a change, listing the records, their seals. */
#ifndef CONSENT_STORE_AUDIT_H
#define CONSENT_STORE_AUDIT_H

/*
 * Every change made through the dashboard or consentctl is one record,
 * written by the store after the change succeeded (store_audit_add): id,
 * at (the store's clock, as the consent log's times), actor, site_key
 * (none for records of no site: accounts, sign-ins, setup), action, detail
 * (a JSON object or none; it never names a visitor), version (a config's,
 * or none), and its digest: the SHA-256 of the record's canonical encoding
 * (store_audit_digest, consent-log(5) "consent-audit/1"), computed here
 * from what is stored, in the same transaction.
 *
 * The records of each site are a log of their own, and those of no site
 * another: each is sealed as the consent log is (a chain of Merkle tree
 * heads, proof/chain.h), so that a site's owners can verify every record
 * they may read without seeing any other.  A chain is named in its seals'
 * hashes by store_audit_chain(): "audit:KEY", or "audit" for no site.
 *
 * Like store_admin.h's, these functions are store_admin.c's over the
 * backends' admin tables (store_admin_fns.h): the endpoints link none.
 * Each returns STORE_OK, STORE_NOTFOUND (an unknown site key), or
 * STORE_ERROR (reported).
 */

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "store/store_admin.h"

/*
 * Record one change: actor (1-AUDIT_ACTOR_MAX bytes: an account name,
 * "consentctl:" and the system user, or "setup"), site_key (NULL: a
 * record of no site), action (1-AUDIT_ACTION_MAX bytes, "site.add"),
 * detail_json (a JSON object of at most AUDIT_DETAIL_MAX bytes, or NULL),
 * version (a config version, or -1 for none).  Its own short write
 * transaction.  STORE_ERROR (reported) for text out of bounds, control
 * characters in actor or action, or a detail that is not a JSON object.
 */
int store_audit_add(struct store *st, const char *actor, const char *site_key,
                    const char *action, const char *detail_json, int64_t version);

/* Which records a listing gives, newest first. */
struct store_audit_filter {
	const char *site_key;  /* only this site's (STORE_NOTFOUND: no such site) */
	int no_site;           /* only the records of no site (site_key NULL) */
	int64_t before;        /* only ids below this (keyset pagination); 0: from the newest */
	size_t limit;          /* at most this many, 1-AUDIT_LIST_MAX */
};

/*
 * The records the filter selects, newest first, as rows: id, at, actor,
 * site_key (absent for none), action, detail (the JSON value, absent for
 * none), version (absent for none), seal (the seq of its seal, absent
 * while not sealed).  With neither site_key nor no_site: every record.
 * The next page: before = the last row's id.
 */
int store_audit_list(struct store *st, const struct store_audit_filter *f,
                     store_row_fn fn, void *arg);

/*
 * The rows for verification (store_audit_record_columns): id, at, actor,
 * site_key, action, detail (the stored text), version, digest, seal.
 * store_audit_leaves: the records of the chain's seal seq in tree order
 * (by id; STORE_NOTFOUND: no such seal); store_audit_unsealed: those not
 * sealed yet, by id; store_audit_count: how many records the chain has.
 * site_key NULL: the chain of no site.
 */
extern const struct store_column store_audit_record_columns[];
extern const size_t store_audit_record_ncolumns;
int store_audit_leaves(struct store *st, const char *site_key, int64_t seq,
                       store_row_fn fn, void *arg);
int store_audit_unsealed(struct store *st, const char *site_key, store_row_fn fn, void *arg);
int store_audit_count(struct store *st, const char *site_key, int64_t *n);

/* The chain's seals by seq, as store_seals() gives a site's: seq,
 * sealed_at, tree_size, root, prev, hash. */
int store_audit_seals(struct store *st, const char *site_key, store_row_fn fn, void *arg);

/*
 * Seal at most max of the chain's unsealed records (the oldest, by id), as
 * store_seal() seals entries: fn gets the chain's name
 * (store_audit_chain) as key, the leaves (each record's id, at and
 * digest) and the seal to make.  *sealed receives how many (0: nothing to
 * seal).  STORE_EXISTS when another sealer went first (run it again).
 */
int store_audit_seal(struct store *st, const char *site_key, size_t max, store_seal_fn fn,
                     void *arg, int64_t *sealed);

/* The digest of a record row (the members of store_audit_record_columns;
 * detail as the stored text): 0, or -1 (reported). */
int store_audit_digest(const cJSON *row, char out[65]);

/* The name of a chain in its seals' hashes: "audit:KEY", or "audit" for
 * site_key NULL. */
#define STORE_AUDIT_CHAIN_MAX (sizeof("audit:") + 64)
void store_audit_chain(const char *site_key, char out[STORE_AUDIT_CHAIN_MAX]);

#endif
