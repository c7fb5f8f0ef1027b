/* proof.c: entry digests, Merkle trees and inclusion proofs (RFC 9162 2.1), seal hashes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/canon.h"
#include "base/hash.h"
#include "base/log.h"
#include "proof/proof.h"

const char *const proof_field_names[PROOF_FIELDS] = {
	"site_key", "created_at", "anon_id_hash", "categories", "event_type",
	"event_action", "config_version", "published_version", "region",
	"consent_model", "browser", "os", "device_type", "country", "regulation",
	"time_to_action_ms", "interaction", "preferences_opened",
	"banner_load_time_ms", "banner_position", "page_url", "sdk_version",
	"language", "resolved_language", "gpc", "config_sha256", "builtin_sha256",
};

const char proof_no_seal[65] =
    "0000000000000000000000000000000000000000000000000000000000000000";

/* A field of the encoding: text, or a store value by its type. */
static void
put_value(struct canon *b, const char *name, const struct store_value *v)
{
	switch (v->type) {
	case SV_TEXT:
		canon_text(b, name, v->text);
		break;
	case SV_INT:
		canon_number(b, name, (double)v->i);
		break;
	case SV_REAL:
		canon_number(b, name, v->r);
		break;
	default:
		canon_null(b, name);
	}
}

static const char magic[] = "consent-entry/1\n";

int
proof_entry_digest(const char *site_key, const struct consent_entry *e, char out[65])
{
	const char *const *f = proof_field_names;
	struct canon b = { 0 };

	canon_str(&b, magic);
	canon_text(&b, f[0], site_key);
	canon_text(&b, f[1], e->created_at);
	canon_text(&b, f[2], e->anon_id_hash);
	canon_text(&b, f[3], e->categories);
	canon_text(&b, f[4], e->event_type);
	put_value(&b, f[5], &e->event_action);
	put_value(&b, f[6], &e->config_version);
	canon_number(&b, f[7], (double)e->published_version);
	put_value(&b, f[8], &e->region);
	put_value(&b, f[9], &e->consent_model);
	canon_text(&b, f[10], e->browser);
	canon_text(&b, f[11], e->os);
	canon_text(&b, f[12], e->device_type);
	canon_text(&b, f[13], e->country);
	put_value(&b, f[14], &e->regulation);
	put_value(&b, f[15], &e->time_to_action_ms);
	put_value(&b, f[16], &e->interaction);
	put_value(&b, f[17], &e->preferences_opened);
	put_value(&b, f[18], &e->banner_load_time_ms);
	put_value(&b, f[19], &e->banner_position);
	put_value(&b, f[20], &e->page_url);
	put_value(&b, f[21], &e->sdk_version);
	put_value(&b, f[22], &e->language);
	put_value(&b, f[23], &e->resolved_language);
	canon_number(&b, f[24], e->gpc != 0);
	canon_text(&b, f[25], e->config_sha256);
	canon_text(&b, f[26], e->builtin_sha256);
	return canon_sha256(&b, out);
}

/*
 * The member of row named name, searched from *next on and round: the
 * store's rows hold the fields in the encoding's order, so each is found at
 * once (a million rows are digested at an upgrade).
 */
static const cJSON *
member(const cJSON *row, const cJSON **next, const char *name)
{
	const cJSON *start = *next != NULL ? *next : row->child, *m = start;

	if (m == NULL)
		return NULL;
	do {
		if (m->string != NULL && strcmp(m->string, name) == 0) {
			*next = m->next;
			return m;
		}
		m = m->next != NULL ? m->next : row->child;
	} while (m != start);
	return NULL;
}

int
proof_row_digest(const char *site_key, const cJSON *row, char out[65])
{
	const cJSON *next = NULL;
	struct canon b = { 0 };

	canon_str(&b, magic);
	canon_text(&b, proof_field_names[0], site_key);
	for (size_t i = 1; i < PROOF_FIELDS; i++) {
		const char *name = proof_field_names[i];
		const cJSON *v = member(row, &next, name);
		char *json;

		if (cJSON_IsString(v)) {
			canon_text(&b, name, v->valuestring);
		} else if (cJSON_IsNumber(v)) {
			canon_number(&b, name, v->valuedouble);
		} else if (cJSON_IsRaw(v)) {   /* an exact fraction (sqlite_store.c) */
			canon_number(&b, name, strtod(v->valuestring, NULL));
		} else if (cJSON_IsBool(v)) {
			canon_number(&b, name, cJSON_IsTrue(v) ? 1 : 0);
		} else if (cJSON_IsObject(v) || cJSON_IsArray(v)) {
			if ((json = cJSON_PrintUnformatted(v)) == NULL) {
				b.err = 1;
				break;
			}
			canon_text(&b, name, json);
			cJSON_free(json);
		} else {
			canon_null(&b, name);
		}
	}
	return canon_sha256(&b, out);
}

/* HASH(prefix || a [|| c]) into out: 0 or -1. */
static int
node(unsigned char prefix, const unsigned char *a, const unsigned char *c,
     unsigned char out[32])
{
	unsigned char in[65];

	in[0] = prefix;
	memcpy(in + 1, a, 32);
	if (c != NULL)
		memcpy(in + 33, c, 32);
	return hash_sha256(in, c != NULL ? 65 : 33, out);
}

/* The largest power of two smaller than n (n >= 2). */
static size_t
split(size_t n)
{
	size_t k = 1;

	while (k * 2 < n)
		k *= 2;
	return k;
}

/* MTH(D[0:n]) over leaf hashes (RFC 9162 2.1.1): 0 or -1. */
static int
mth(const unsigned char (*leaf)[32], size_t n, unsigned char out[32])
{
	unsigned char l[32], r[32];
	size_t k;

	if (n == 1) {
		memcpy(out, leaf[0], 32);
		return 0;
	}
	k = split(n);
	if (mth(leaf, k, l) != 0 || mth(leaf + k, n - k, r) != 0)
		return -1;
	return node(1, l, r, out);
}

/* The leaf hashes of n hex digests as a new array, or NULL (reported). */
static unsigned char (*leaves(const char *const *digests, size_t n))[32]
{
	unsigned char (*leaf)[32] = malloc(n * sizeof(*leaf));
	unsigned char md[32];

	if (leaf == NULL) {
		log_error("out of memory");
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		if (digests[i] == NULL || hash_unhex(digests[i], md) != 0) {
			log_error("entry digest %zu of %zu is not 64 hex digits", i + 1, n);
			goto fail;
		}
		if (node(0, md, NULL, leaf[i]) != 0)
			goto fail;
	}
	return leaf;
fail:
	free(leaf);
	return NULL;
}

int
proof_tree_root(const char *const *digests, size_t n, char root[65])
{
	unsigned char (*leaf)[32], md[32];
	int rc = -1;

	if (n == 0 || (leaf = leaves(digests, n)) == NULL)
		return -1;
	if (mth((const unsigned char (*)[32])leaf, n, md) == 0) {
		hash_hex(md, root);
		rc = 0;
	}
	free(leaf);
	return rc;
}

/* PATH(m, D[0:n]) appended to path (RFC 9162 2.1.3.1): 0 or -1. */
static int
path_of(const unsigned char (*leaf)[32], size_t n, size_t m, char (*path)[65], size_t *len)
{
	unsigned char md[32];
	size_t k;

	if (n == 1)
		return 0;
	k = split(n);
	if (m < k) {
		if (path_of(leaf, k, m, path, len) != 0 || mth(leaf + k, n - k, md) != 0)
			return -1;
	} else {
		if (path_of(leaf + k, n - k, m - k, path, len) != 0 || mth(leaf, k, md) != 0)
			return -1;
	}
	hash_hex(md, path[(*len)++]);
	return 0;
}

int
proof_inclusion(const char *const *digests, size_t n, size_t m, char (**path)[65],
                size_t *len)
{
	unsigned char (*leaf)[32];
	int rc = -1;

	*path = NULL;
	*len = 0;
	if (m >= n || (leaf = leaves(digests, n)) == NULL)
		return -1;
	/* A path has at most 64 nodes (the tree's depth). */
	if ((*path = calloc(64, sizeof(**path))) == NULL)
		log_error("out of memory");
	else if ((rc = path_of((const unsigned char (*)[32])leaf, n, m, *path, len)) != 0) {
		free(*path);
		*path = NULL;
		*len = 0;
	}
	free(leaf);
	return rc;
}

int
proof_inclusion_ok(const char *digest, size_t m, size_t n, const char (*path)[65],
                   size_t len, const char *root)
{
	unsigned char r[32], p[32], md[32], want[32];
	size_t fn = m, sn;

	if (m >= n || hash_unhex(digest, md) != 0 || hash_unhex(root, want) != 0 ||
	    node(0, md, NULL, r) != 0)
		return 0;
	sn = n - 1;
	for (size_t i = 0; i < len; i++) {
		if (sn == 0 || hash_unhex(path[i], p) != 0)
			return 0;
		if ((fn & 1) || fn == sn) {
			if (node(1, p, r, r) != 0)
				return 0;
			if (!(fn & 1))
				while (!(fn & 1) && fn != 0) {
					fn >>= 1;
					sn >>= 1;
				}
		} else if (node(1, r, p, r) != 0) {
			return 0;
		}
		fn >>= 1;
		sn >>= 1;
	}
	return sn == 0 && memcmp(r, want, 32) == 0;
}

int
proof_seal_hash(const char *site_key, const struct proof_seal *s, char out[65])
{
	struct canon b = { 0 };
	char line[320];

	canon_str(&b, "consent-seal/1\n");
	canon_str(&b, "site_key=");
	canon_str(&b, site_key);
	snprintf(line, sizeof(line), "\nseq=%lld\nsealed_at=%s\ntree_size=%lld\nroot=%s\nprev=%s\n",
	    (long long)s->seq, s->sealed_at, (long long)s->tree_size, s->root, s->prev);
	canon_str(&b, line);
	return canon_sha256(&b, out);
}
