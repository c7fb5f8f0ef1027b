/* ctl_verify.c: consentctl consent verify: every digest, tree and seal of a site recomputed. */
#include <stdio.h>
#include <string.h>

#include "base/hash.h"
#include "ctl.h"
#include "proof/chain.h"

/* What verify found so far; the first failure ends it. */
struct check {
	struct ctl *c;
	const char *key;
	char failure[400];
	int64_t entry;         /* the entry the failure names, or 0 */
	int64_t seal;          /* the seal it names, or 0 */
	struct chain_leaves *leaves;  /* the current seal's, the chain walk's */
	int64_t live, pruned, unsealed;
	int64_t builtin_missing;  /* entries naming built-in texts not recorded */
};

static int
fail_entry(struct check *k, const cJSON *row, const char *what)
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
check_digest(struct check *k, const cJSON *row)
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
	struct check *k = arg;
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
	struct check *k = arg;

	k->leaves = l;
	return store_seal_leaves(k->c->st, k->key, seq, check_leaf, k);
}

static int
check_unsealed(const cJSON *row, void *arg)
{
	struct check *k = arg;
	int rc = check_digest(k, row);

	if (rc == 0)
		k->unsealed++;
	return rc;
}

/* store_row_fn over the published versions: the stored SHA-256 of each. */
static int
check_config(const cJSON *row, void *arg)
{
	struct check *k = arg;
	const char *doc = ctl_text_of(row, "document");
	char sha[65];

	if (hash_sha256_hex(doc, strlen(doc), sha) != 0)
		return STORE_ERROR;
	if (strcmp(sha, ctl_text_of(row, "sha256")) != 0) {
		snprintf(k->failure, sizeof(k->failure),
		    "config version %lld: its document does not match its SHA-256",
		    (long long)ctl_int_of(row, "version"));
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
	struct check *k = arg;
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
 * The chain of seals with their leaves (chain_walk), the first fault in
 * k->failure and the seal it names in k->seal.  *found_head: the chain
 * holds --head.  0 (a fault is recorded, not returned), or a store code.
 */
static int
check_chain(struct check *k, const cJSON *seals, int *found_head)
{
	struct chain_walk w;
	int rc = chain_walk(k->key, seals, k->c->head, seal_leaves, k, &w);

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

/* The verdict: text (failure on stderr) or JSON on stdout. */
static int
print_verdict(struct ctl *c, struct check *k, const cJSON *seals, int64_t total)
{
	const cJSON *head = cJSON_GetArrayItem(seals, cJSON_GetArraySize(seals) - 1);
	int failed = k->failure[0] != '\0';
	cJSON *out;

	if (!(c->given & OPT_JSON)) {
		if (failed)
			return ctl_say(EXIT_FAIL, "verify %s: %s", k->key, k->failure);
		printf("%s: %lld entries verified (%lld sealed, %lld not sealed yet), "
		    "%d seals, %lld pruned leaves\n", k->key, (long long)total,
		    (long long)k->live, (long long)k->unsealed, cJSON_GetArraySize(seals),
		    (long long)k->pruned);
		if (head != NULL)
			printf("head: seq %lld, tree_size %lld, sealed_at %s, hash %s\n",
			    (long long)ctl_int_of(head, "seq"), (long long)ctl_int_of(head, "tree_size"),
			    ctl_text_of(head, "sealed_at"), ctl_text_of(head, "hash"));
		if (k->builtin_missing > 0)
			printf("built-in texts not recorded: %lld entries name built-in texts that "
			    "no consentctl init or config publish of their build recorded; their "
			    "receipts show no texts\n", (long long)k->builtin_missing);
		return EXIT_OK;
	}
	if ((out = cJSON_CreateObject()) != NULL) {
		cJSON_AddNumberToObject(out, "entries", (double)total);
		cJSON_AddNumberToObject(out, "sealed", (double)k->live);
		cJSON_AddNumberToObject(out, "unsealed", (double)k->unsealed);
		cJSON_AddNumberToObject(out, "seals", cJSON_GetArraySize(seals));
		cJSON_AddNumberToObject(out, "pruned", (double)k->pruned);
		cJSON_AddNumberToObject(out, "builtin_not_recorded", (double)k->builtin_missing);
		cJSON_AddItemToObject(out, "head", head ? cJSON_Duplicate(head, 1) : cJSON_CreateNull());
	}
	return ctl_print_verdict(k->failure, "entry", k->entry, k->seal, out);
}

/*
 * Recompute every digest, tree and seal of the site, in one snapshot:
 * configs, then the chain of seals with their leaves, then the entries not
 * sealed yet, then the count of entries (none may hide outside both).  The
 * first mismatch is reported.
 */
int
cmd_consent_verify(struct ctl *c)
{
	const char *key = c->operands[0];
	struct check k;
	cJSON *seals = NULL;
	int64_t total = 0;
	int rc = EXIT_FAIL, found_head = 0;

	if (ctl_check_key(key) != 0)
		return EXIT_USAGE;
	if (c->head != NULL && ctl_check_head(c->head) != 0)
		return EXIT_USAGE;
	if (ctl_store(c) == NULL)
		return EXIT_FAIL;
	memset(&k, 0, sizeof(k));
	k.c = c;
	k.key = key;
	if ((seals = cJSON_CreateArray()) == NULL)
		return ctl_say(EXIT_FAIL, "out of memory");
	/* One moment of the log: entries arriving or being sealed meanwhile
	 * are neither counted twice nor missed. */
	if (store_snapshot(c->st, 1) != STORE_OK) {
		cJSON_Delete(seals);
		return EXIT_FAIL;
	}
	rc = store_builtin_each(c->st, check_builtin, &k);
	if (rc < 0 || (rc != STORE_OK && k.failure[0] == '\0')) {
		rc = ctl_store_failed(rc, key);
		goto out;
	}
	if (k.failure[0] == '\0')
		rc = store_config_versions(c->st, key, check_config, &k);
	if (rc < 0 || (rc != STORE_OK && k.failure[0] == '\0')) {
		rc = ctl_store_failed(rc, key);
		goto out;
	}
	if (k.failure[0] == '\0' && (rc = store_seals(c->st, key, ctl_collect, seals)) != STORE_OK) {
		rc = ctl_store_failed(rc, key);
		goto out;
	}
	if (k.failure[0] == '\0' && (rc = check_chain(&k, seals, &found_head)) != 0) {
		rc = ctl_store_failed(rc, key);
		goto out;
	}
	if (k.failure[0] == '\0' &&
	    (rc = store_unsealed(c->st, key, check_unsealed, &k)) < 0) {
		rc = ctl_store_failed(rc, key);
		goto out;
	}
	if (k.failure[0] == '\0') {
		if ((rc = store_consent_count(c->st, key, &total)) != STORE_OK) {
			rc = ctl_store_failed(rc, key);
			goto out;
		}
		if (total != k.live + k.unsealed)
			snprintf(k.failure, sizeof(k.failure), "%lld entries are in no seal of "
			    "the site and not unsealed (their seal_id names no seal of it)",
			    (long long)(total - k.live - k.unsealed));
		else if (c->head != NULL && !found_head)
			snprintf(k.failure, sizeof(k.failure), "the recorded head %s is not in "
			    "the chain of seals", c->head);
	}
	if (k.failure[0] == '\0' &&
	    (rc = store_builtin_missing(c->st, key, &k.builtin_missing)) != STORE_OK) {
		rc = ctl_store_failed(rc, key);
		goto out;
	}
	rc = print_verdict(c, &k, seals, total);
out:
	store_snapshot(c->st, 0);
	cJSON_Delete(seals);
	return rc;
}
