/* chain.c: making a seal over its leaves, and walking a chain of seals to check every link. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "proof/chain.h"

int
chain_leaves_add(struct chain_leaves *l, const char *digest)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 1024;
		char **p = realloc(l->digests, cap * sizeof(*p));

		if (p == NULL)
			goto oom;
		l->digests = p;
		l->cap = cap;
	}
	if ((l->digests[l->n] = strdup(digest)) == NULL)
		goto oom;
	l->n++;
	return 0;
oom:
	log_error("out of memory");
	return -1;
}

/* Forget the digests, keeping the room for the next seal's. */
static void
leaves_clear(struct chain_leaves *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->digests[i]);
	l->n = 0;
}

void
chain_leaves_free(struct chain_leaves *l)
{
	leaves_clear(l);
	free(l->digests);
	memset(l, 0, sizeof(*l));
}

int
chain_seal(const char *key, const char *const *digests, size_t n, struct proof_seal *s,
           char hash[65])
{
	if (proof_tree_root(digests, n, s->root) != 0)
		return -1;
	s->tree_size = (int64_t)n;
	return proof_seal_hash(key, s, hash);
}

/* A member of a seal row as text ("" when absent). */
static const char *
text_of(const cJSON *row, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(row, name);

	return cJSON_IsString(v) ? v->valuestring : "";
}

static int64_t
int_of(const cJSON *row, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(row, name);

	return cJSON_IsNumber(v) ? (int64_t)v->valuedouble : -1;
}

/* Fill a proof_seal from a seal row: 0, or -1 when a member is malformed. */
static int
seal_of(const cJSON *row, struct proof_seal *s)
{
	const char *at = text_of(row, "sealed_at"), *root = text_of(row, "root"),
	    *prev = text_of(row, "prev");

	memset(s, 0, sizeof(*s));
	s->seq = int_of(row, "seq");
	s->tree_size = int_of(row, "tree_size");
	if (strlen(at) >= sizeof(s->sealed_at) || strlen(root) != 64 || strlen(prev) != 64)
		return -1;
	memcpy(s->sealed_at, at, strlen(at) + 1);
	memcpy(s->root, root, 65);
	memcpy(s->prev, prev, 65);
	return 0;
}

/* The walk under way: what chain_walk() was given, and what it carries from
 * one seal to the next. */
struct walker {
	const char *key;
	chain_leaves_fn fn;
	void *arg;
	struct chain_leaves leaves;   /* the current seal's */
	char prev[65];                /* the hash of the seal before */
	int rc;                       /* fn's non-zero return, or -1 (reported) */
};

/* Seal w->seq, in row, against its leaves (only when leaves) and the seal
 * before: the fault, or CHAIN_OK with its hash in hash (unless k->rc was
 * set). */
static enum chain_fault
check_seal(struct walker *k, const cJSON *row, struct chain_walk *w, int leaves, char hash[65])
{
	struct chain_leaves *l = &k->leaves;
	struct proof_seal s;
	char root[65];

	if (seal_of(row, &s) != 0 || s.seq != w->seq)
		return CHAIN_MALFORMED;
	if (!leaves)
		goto links;
	leaves_clear(l);
	if ((k->rc = k->fn(k->arg, w->seq, l)) != 0)
		return CHAIN_LEAF;
	if ((int64_t)l->n != s.tree_size) {
		w->tree_size = s.tree_size;
		w->leaves = l->n;
		return CHAIN_SIZE;
	}
	if (proof_tree_root((const char *const *)l->digests, l->n, root) != 0)
		goto error;
	if (strcmp(root, s.root) != 0)
		return CHAIN_ROOT;
links:
	if (strcmp(s.prev, k->prev) != 0)
		return CHAIN_PREV;
	if (proof_seal_hash(k->key, &s, hash) != 0)
		goto error;
	if (strcmp(hash, text_of(row, "hash")) != 0)
		return CHAIN_HASH;
	return CHAIN_OK;
error:
	k->rc = -1;
	return CHAIN_OK;
}

int
chain_walk(const char *key, const cJSON *seals, const char *head, chain_leaves_fn fn,
           void *arg, struct chain_walk *w)
{
	return chain_walk_part(key, seals, head, 1, 0, fn, arg, w, NULL);
}

int
chain_walk_part(const char *key, const cJSON *seals, const char *head, int64_t from,
                int64_t budget, chain_leaves_fn fn, void *arg, struct chain_walk *w,
                int64_t *next)
{
	struct walker k = { key, fn, arg, { 0 }, "", 0 };
	const cJSON *row;
	char hash[65];
	int64_t checked = 0;

	memset(w, 0, sizeof(*w));
	if (next != NULL)
		*next = 0;
	memcpy(k.prev, proof_no_seal, 65);
	cJSON_ArrayForEach(row, seals) {
		int leaves = w->seq + 1 >= from;

		if (leaves && budget > 0 && checked >= budget) {
			if (next != NULL)
				*next = w->seq + 1;
			break;
		}
		w->seq++;
		if ((w->fault = check_seal(&k, row, w, leaves, hash)) != CHAIN_OK || k.rc != 0)
			break;
		if (leaves)
			checked += (int64_t)k.leaves.n;
		memcpy(k.prev, hash, 65);
		if (head != NULL && strcmp(head, hash) == 0)
			w->found_head = 1;
	}
	if (w->fault == CHAIN_OK)
		w->seq = 0;
	chain_leaves_free(&k.leaves);
	return k.rc;
}

void
chain_fault_text(const struct chain_walk *w, const char *noun, char *buf, size_t size)
{
	long long seq = (long long)w->seq;

	switch (w->fault) {
	case CHAIN_OK:
		snprintf(buf, size, "%s", "");
		break;
	case CHAIN_MALFORMED:
		snprintf(buf, size, "seal %lld: malformed or out of sequence", seq);
		break;
	case CHAIN_LEAF:
		snprintf(buf, size, "seal %lld: one of its %s failed its check", seq, noun);
		break;
	case CHAIN_SIZE:
		snprintf(buf, size, "seal %lld: it covers %lld %s, %zu are there", seq,
		    (long long)w->tree_size, noun, w->leaves);
		break;
	case CHAIN_ROOT:
		snprintf(buf, size, "seal %lld: its root does not match its %s", seq, noun);
		break;
	case CHAIN_PREV:
		snprintf(buf, size, "seal %lld: it does not name the hash of seal %lld", seq, seq - 1);
		break;
	case CHAIN_HASH:
		snprintf(buf, size, "seal %lld: its hash does not match its fields", seq);
		break;
	}
}
