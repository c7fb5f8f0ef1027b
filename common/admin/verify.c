/* verify.c: a site's consent log verified: every digest, tree and seal recomputed, at once or in steps (consentctl consent verify, the dashboard). */
#include <stdio.h>
#include <string.h>

#include "admin/export.h"
#include "admin/verify.h"
#include "base/hash.h"
#include "proof/chain.h"

static int
fail_entry(struct verify *k, const cJSON *row, const char *what)
{
	const cJSON *id = cJSON_GetObjectItemCaseSensitive(row, "id");
	const cJSON *at = cJSON_GetObjectItemCaseSensitive(row, "created_at");

	k->entry = cJSON_IsNumber(id) ? (int64_t)id->valuedouble : 0;
	snprintf(k->failure, sizeof(k->failure), "entry %lld (%s): %s", (long long)k->entry,
	    cJSON_IsString(at) ? at->valuestring : "?", what);
	return 1;
}

/* Whether the row's stored digest is that of its fields: 0, 1 (failure
 * recorded), or STORE_ERROR. */
static int
check_digest(struct verify *k, const cJSON *row)
{
	const cJSON *d = cJSON_GetObjectItemCaseSensitive(row, "digest");
	char want[65];

	if (!cJSON_IsString(d) || strlen(d->valuestring) != 64)
		return fail_entry(k, row, "it has no digest");
	if (proof_row_digest(k->key, row, want) != 0)
		return STORE_ERROR;
	if (strcmp(want, d->valuestring) != 0)
		return fail_entry(k, row, "its fields do not match its digest");
	return 0;
}

/* store_row_fn over a seal's leaves: check live ones, keep every digest. */
static int
check_leaf(const cJSON *row, void *arg)
{
	struct verify *k = arg;
	const cJSON *d = cJSON_GetObjectItemCaseSensitive(row, "digest");
	int rc;

	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(row, "pruned"))) {
		k->pruned++;
	} else {
		if ((rc = check_digest(k, row)) != 0)
			return rc;
		k->live++;
	}
	if (!cJSON_IsString(d) || strlen(d->valuestring) != 64)
		return fail_entry(k, row, "its leaf has no digest");
	return chain_leaves_add(k->leaves, d->valuestring) == 0 ? 0 : STORE_ERROR;
}

/* chain_leaves_fn: the leaves of the site's seal seq, each checked
 * (check_leaf): 0, 1 (failure recorded) or a store code. */
static int
seal_leaves(void *arg, int64_t seq, struct chain_leaves *l)
{
	struct verify *k = arg;

	k->leaves = l;
	return store_seal_leaves(k->st, k->key, seq, check_leaf, k);
}

static int
check_unsealed(const cJSON *row, void *arg)
{
	struct verify *k = arg;
	int rc = check_digest(k, row);

	if (rc == 0)
		k->unsealed++;
	return rc;
}

/* store_row_fn over the published versions: the stored SHA-256 of each. */
static int
check_config(const cJSON *row, void *arg)
{
	struct verify *k = arg;
	const char *doc = export_text_of(row, "document");
	char sha[65];

	if (hash_sha256_hex(doc, strlen(doc), sha) != 0)
		return STORE_ERROR;
	if (strcmp(sha, export_text_of(row, "sha256")) != 0) {
		snprintf(k->failure, sizeof(k->failure),
		    "config version %lld: its document does not match its SHA-256",
		    (long long)export_int_of(row, "version"));
		return 1;
	}
	return 0;
}

/* store_builtin_fn: whether a record of built-in texts is the bytes its key
 * is the SHA-256 of: STORE_OK, 1 (failure recorded), or STORE_ERROR. */
static int
check_builtin(void *arg, const char *sha256, const char *pieces, size_t len,
              const char *recorded_at)
{
	struct verify *k = arg;
	char sha[65];

	if (hash_sha256_hex(pieces, len, sha) != 0)
		return STORE_ERROR;
	if (strcmp(sha, sha256) != 0) {
		snprintf(k->failure, sizeof(k->failure), "built-in texts %.64s (recorded %.32s): "
		    "their pieces do not match their SHA-256", sha256, recorded_at);
		return 1;
	}
	return STORE_OK;
}

/*
 * The chain of seals with their leaves (chain_walk_part), the first fault in
 * k->failure and the seal it names in k->seal.  *found_head: the chain
 * holds --head.  0 (a fault is recorded, not returned), or a store code.
 */
static int
check_chain(struct verify *k, const cJSON *seals, int64_t from, int64_t budget, int *found_head)
{
	struct chain_walk w;
	int rc = chain_walk_part(k->key, seals, k->head, from, budget, seal_leaves, k, &w,
	    &k->next);

	if (rc != 0 && k->failure[0] == '\0')
		return rc;
	if (w.fault != CHAIN_OK) {
		k->seal = w.seq;
		if (w.fault != CHAIN_LEAF)
			chain_fault_text(&w, "entries", k->failure, sizeof(k->failure));
		return 0;
	}
	*found_head = w.found_head;
	return 0;
}

int
verify_site(struct store *st, const char *key, const char *head, int64_t from, int64_t budget,
            int64_t live, int64_t pruned, struct verify *k)
{
	int rc, found_head = 0;

	memset(k, 0, sizeof(*k));
	k->live = live;
	k->pruned = pruned;
	k->st = st;
	k->key = key;
	k->head = head;
	if ((k->seals = cJSON_CreateArray()) == NULL)
		return STORE_ERROR;
	/* One moment of the log: entries arriving or being sealed meanwhile
	 * are neither counted twice nor missed. */
	if (store_snapshot(st, 1) != STORE_OK)
		return STORE_ERROR;
	rc = store_builtin_each(st, check_builtin, k);
	if (rc < 0 || (rc != STORE_OK && k->failure[0] == '\0'))
		goto out;
	if (k->failure[0] == '\0')
		rc = store_config_versions(st, key, check_config, k);
	if (rc < 0 || (rc != STORE_OK && k->failure[0] == '\0'))
		goto out;
	if (k->failure[0] == '\0' && (rc = store_seals(st, key, export_collect, k->seals)) != STORE_OK)
		goto out;
	if (k->failure[0] == '\0' &&
	    (rc = check_chain(k, k->seals, from, budget, &found_head)) != 0)
		goto out;
	if (k->next > 0 && k->failure[0] == '\0')   /* a step: the rest is the next one's */
		goto out;
	if (k->failure[0] == '\0' && (rc = store_unsealed(st, key, check_unsealed, k)) < 0)
		goto out;
	if (k->failure[0] == '\0') {
		if ((rc = store_consent_count(st, key, &k->total)) != STORE_OK)
			goto out;
		if (k->total != k->live + k->unsealed)
			snprintf(k->failure, sizeof(k->failure), "%lld entries are in no seal of "
			    "the site and not unsealed (their seal_id names no seal of it)",
			    (long long)(k->total - k->live - k->unsealed));
		else if (head != NULL && !found_head)
			snprintf(k->failure, sizeof(k->failure), "the recorded head %s is not in "
			    "the chain of seals", head);
	}
	if (k->failure[0] == '\0' &&
	    (rc = store_builtin_missing(st, key, &k->builtin_missing)) != STORE_OK)
		goto out;
	rc = STORE_OK;
out:
	store_snapshot(st, 0);
	if (rc != STORE_OK && k->failure[0] != '\0')   /* a failure recorded stopped a walk */
		rc = STORE_OK;
	return rc;
}

void
verify_clear(struct verify *k)
{
	cJSON_Delete(k->seals);
	k->seals = NULL;
}

cJSON *
verify_verdict(const struct verify *k)
{
	const cJSON *head = cJSON_GetArrayItem(k->seals, cJSON_GetArraySize(k->seals) - 1);
	cJSON *out = cJSON_CreateObject();

	if (out == NULL)
		return NULL;
	cJSON_AddNumberToObject(out, "entries", (double)k->total);
	cJSON_AddNumberToObject(out, "sealed", (double)k->live);
	cJSON_AddNumberToObject(out, "unsealed", (double)k->unsealed);
	cJSON_AddNumberToObject(out, "seals", cJSON_GetArraySize(k->seals));
	cJSON_AddNumberToObject(out, "pruned", (double)k->pruned);
	cJSON_AddNumberToObject(out, "builtin_not_recorded", (double)k->builtin_missing);
	cJSON_AddItemToObject(out, "head", head ? cJSON_Duplicate(head, 1) : cJSON_CreateNull());
	return verdict_object(k->failure, "entry", k->entry, k->seal, out);
}

cJSON *
verdict_object(const char *failure, const char *noun, int64_t id, int64_t seal, cJSON *found)
{
	int failed = failure[0] != '\0';
	cJSON *out = cJSON_CreateObject(), *m;

	if (out == NULL || found == NULL) {
		cJSON_Delete(out);
		cJSON_Delete(found);
		return NULL;
	}
	cJSON_AddBoolToObject(out, "ok", !failed);
	if (failed) {
		cJSON_AddStringToObject(out, "error", failure);
		if (id > 0)
			cJSON_AddNumberToObject(out, noun, (double)id);
		if (seal > 0)
			cJSON_AddNumberToObject(out, "seal", (double)seal);
	} else {
		while ((m = found->child) != NULL)
			cJSON_AddItemToObject(out, m->string, cJSON_DetachItemViaPointer(found, m));
	}
	cJSON_Delete(found);
	return out;
}
