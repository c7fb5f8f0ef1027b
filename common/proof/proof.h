/* proof.h: the proof of the consent log: entry digests, Merkle trees (RFC 9162 2.1), seals. */
#ifndef CONSENT_PROOF_H
#define CONSENT_PROOF_H

/*
 * Everything a third party needs to check the log is defined here and in
 * docs/proof.md, consent-log(5), and nothing here reads the store:
 * the consent endpoint digests an entry before it is stored, consentctl
 * builds trees and seals from what the store hands out.
 *
 *   entry digest  SHA-256 of the entry's canonical encoding (below)
 *   leaf hash     SHA-256(0x00 || the 32 bytes of the entry digest)
 *   node hash     SHA-256(0x01 || left || right)
 *   tree          RFC 9162 2.1.1: the leaves of n > 1 entries split at the
 *                 largest power of two k < n; no odd node is duplicated
 *   seal hash     SHA-256 of the seal's canonical encoding; each seal names
 *                 the previous one's hash (64 zeros for the first)
 *
 * All hashes cross this interface as 64 lower-case hex characters.
 */

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "store/store.h"

/* The number of fields of the canonical encoding of an entry. */
#define PROOF_FIELDS 27

/* The field names in the order of the encoding: site_key, the 24 export
 * columns of schema version 3 in their order, config_sha256, builtin_sha256. */
extern const char *const proof_field_names[PROOF_FIELDS];

/*
 * The digest of an entry about to be stored (e->created_at and
 * e->config_sha256 set) of the site with this key, into out.  0, or -1
 * (reported).
 */
int proof_entry_digest(const char *site_key, const struct consent_entry *e, char out[65]);

/*
 * The digest of an entry as the store or an export gives it: a row whose
 * members are named as the export's columns (categories as the stored JSON
 * text or as the object; booleans true/false or 1/0; absent members null).
 * 0, or -1 (reported).
 */
int proof_row_digest(const char *site_key, const cJSON *row, char out[65]);

/* The root of the Merkle tree over n >= 1 entry digests (hex), in order.
 * 0, or -1 (reported: a digest that is not 64 hex digits, memory). */
int proof_tree_root(const char *const *digests, size_t n, char root[65]);

/*
 * The inclusion proof of leaf m of the tree over the n digests (RFC 9162
 * 2.1.3.1): *path receives a new array of hex node hashes, from the leaf's
 * sibling up (caller frees it with free(), the strings are inside it), and
 * *len their count.  0, or -1 (reported).
 */
int proof_inclusion(const char *const *digests, size_t n, size_t m, char (**path)[65],
                    size_t *len);

/* Whether path proves that digest is leaf m of a tree of size n with this
 * root (RFC 9162 2.1.3.2): 1 or 0. */
int proof_inclusion_ok(const char *digest, size_t m, size_t n,
                       const char (*path)[65], size_t len, const char *root);

/* A seal: a tree head of one site, chained to the previous one. */
struct proof_seal {
	int64_t seq;             /* 1, 2, ... per site */
	char sealed_at[32];      /* UTC ISO 8601 with milliseconds */
	int64_t tree_size;       /* entries in its tree */
	char root[65];           /* the tree's root */
	char prev[65];           /* the previous seal's hash, 64 zeros for seq 1 */
};

/* The hash of a seal of the site with this key.  0, or -1 (reported). */
int proof_seal_hash(const char *site_key, const struct proof_seal *s, char out[65]);

/* The hash that seq 1 names as its previous one: 64 zeros. */
extern const char proof_no_seal[65];

#endif
