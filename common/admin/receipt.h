/* receipt.h: a visitor's receipt: each entry, what it was shown, its digest and its inclusion proof, checked. */
#ifndef CONSENT_RECEIPT_H
#define CONSENT_RECEIPT_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "store/store_admin.h"

/*
 * The receipt of the visitor anon_id_hash on site key, read in one
 * snapshot: {"site_key","anon_id_hash","entries":[{"entry","shown",
 * "digest","proof"|null,"note"?}]} (docs/proof.md), each inclusion proof
 * and each config's SHA-256 checked before it is put in.  STORE_OK with
 * *out (caller owns); STORE_NOTFOUND for an unknown site; STORE_ERROR,
 * with what failed in err ("" when the store reported it itself).
 */
int receipt_make(struct store *st, const char *key, const char *anon_id_hash, cJSON **out,
                 char *err, size_t errsz);

#endif
