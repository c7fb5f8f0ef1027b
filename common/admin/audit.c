/* audit.c: one chain of the audit trail recomputed: every record's digest, every tree and seal. */
#include <stdio.h>
#include <string.h>

#include "admin/audit.h"
#include "proof/chain.h"

/* The check under way. */
struct check {
	struct store *st;
	const char *key;
	struct audit_verdict *v;
	struct chain_leaves *leaves;   /* the current seal's, the chain walk's */
};

static int
fail_record(struct check *k, const cJSON *row, const char *what)
{
	const cJSON *id = cJSON_GetObjectItemCaseSensitive(row, "id");
	const cJSON *at = cJSON_GetObjectItemCaseSensitive(row, "at");

	k->v->record = cJSON_IsNumber(id) ? (int64_t)id->valuedouble : 0;
	snprintf(k->v->failure, sizeof(k->v->failure), "record %lld (%s): %s",
	    (long long)k->v->record, cJSON_IsString(at) ? at->valuestring : "?", what);
	return 1;
}

/* Whether the record's stored digest is that of its fields: 0, 1 (failure
 * recorded), or STORE_ERROR. */
static int
check_record(struct check *k, const cJSON *row)
{
	const cJSON *d = cJSON_GetObjectItemCaseSensitive(row, "digest");
	char want[65];

	if (!cJSON_IsString(d) || strlen(d->valuestring) != 64)
		return fail_record(k, row, "it has no digest");
	if (store_audit_digest(row, want) != 0)
		return STORE_ERROR;
	if (strcmp(want, d->valuestring) != 0)
		return fail_record(k, row, "its fields do not match its digest");
	return 0;
}

/* store_row_fn over a seal's records: each checked, its digest kept. */
static int
check_leaf(const cJSON *row, void *arg)
{
	struct check *k = arg;
	int rc;

	if ((rc = check_record(k, row)) != 0)
		return rc;
	k->v->sealed++;
	return chain_leaves_add(k->leaves,
	    cJSON_GetObjectItemCaseSensitive(row, "digest")->valuestring) == 0 ? 0 : STORE_ERROR;
}

/* chain_leaves_fn: the records of the chain's seal seq. */
static int
seal_leaves(void *arg, int64_t seq, struct chain_leaves *l)
{
	struct check *k = arg;

	k->leaves = l;
	return store_audit_leaves(k->st, k->key, seq, check_leaf, k);
}

static int
check_unsealed(const cJSON *row, void *arg)
{
	struct check *k = arg;
	int rc = check_record(k, row);

	if (rc == 0)
		k->v->unsealed++;
	return rc;
}

/* store_row_fn: keep a copy of every seal row in the array arg. */
static int
collect(const cJSON *row, void *arg)
{
	cJSON *copy = cJSON_Duplicate(row, 1);

	if (copy == NULL || !cJSON_AddItemToArray(arg, copy)) {
		cJSON_Delete(copy);
		return STORE_ERROR;
	}
	return 0;
}

/* The chain of seals with their records (chain_walk): 0 (a fault is
 * recorded in v, not returned), or a store code. */
static int
check_chain(struct check *k, const cJSON *seals)
{
	char chain[STORE_AUDIT_CHAIN_MAX];
	struct chain_walk w;
	int rc;

	store_audit_chain(k->key, chain);
	rc = chain_walk(chain, seals, NULL, seal_leaves, k, &w);
	if (rc != 0 && k->v->failure[0] == '\0')
		return rc;
	if (w.fault != CHAIN_OK) {
		k->v->seal = w.seq;
		if (w.fault != CHAIN_LEAF)
			chain_fault_text(&w, "records", k->v->failure, sizeof(k->v->failure));
	}
	return 0;
}

int
audit_verify(struct store *st, const char *site_key, struct audit_verdict *v)
{
	struct check k = { st, site_key, v, NULL };
	cJSON *seals = cJSON_CreateArray();
	const cJSON *last;
	int64_t total = 0;
	int rc;

	memset(v, 0, sizeof(*v));
	if (seals == NULL)
		return STORE_ERROR;
	if ((rc = store_audit_seals(st, site_key, collect, seals)) != STORE_OK)
		goto out;
	v->seals = cJSON_GetArraySize(seals);
	if ((last = cJSON_GetArrayItem(seals, (int)v->seals - 1)) != NULL)
		snprintf(v->head, sizeof(v->head), "%s",
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(last, "hash")));
	if ((rc = check_chain(&k, seals)) != 0 || v->failure[0] != '\0')
		goto out;
	rc = store_audit_unsealed(st, site_key, check_unsealed, &k);
	if (rc < 0 || v->failure[0] != '\0')
		goto out;
	if ((rc = store_audit_count(st, site_key, &total)) != STORE_OK)
		goto out;
	if (total != v->sealed + v->unsealed)
		snprintf(v->failure, sizeof(v->failure), "%lld records are in no seal of the chain "
		    "and not unsealed (their seal_id names no seal of it)",
		    (long long)(total - v->sealed - v->unsealed));
out:
	cJSON_Delete(seals);
	return v->failure[0] != '\0' ? STORE_OK : rc;
}
