/* chain.h: a sealed log's chain of seals: making a seal, and walking the chain to check it. */
#ifndef CONSENT_CHAIN_H
#define CONSENT_CHAIN_H

/*
 * A sealed log (the consent log; any other log sealed the same way) is a
 * chain of seals (proof.h, docs/proof.md, consent-log(5)): seal n
 * has seq n, tree_size the number of its leaves, root the tree over their
 * digests (proof_tree_root), prev the hash of seal n - 1 (proof_no_seal for
 * the first), and hash that of its fields (proof_seal_hash).  Nothing here
 * reads the store: the seals come as rows, the leaves of each from the
 * caller, who checks each leaf against what it stands for.
 */

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "proof/proof.h"

/* The digests of one seal's leaves, in tree order: owned copies. */
struct chain_leaves {
	char **digests;
	size_t n, cap;
};

/* Append a copy of digest.  0, or -1 (out of memory, reported). */
int chain_leaves_add(struct chain_leaves *l, const char *digest);
/* Free the digests held; l is empty and reusable after. */
void chain_leaves_free(struct chain_leaves *l);

/*
 * Seal the leaves: s->seq, s->sealed_at and s->prev given, s->tree_size
 * and s->root set from the n >= 1 digests, the seal's hash into hash.  0,
 * or -1 (reported).
 */
int chain_seal(const char *key, const char *const *digests, size_t n,
               struct proof_seal *s, char hash[65]);

/* What the walk found wrong; the first one ends it. */
enum chain_fault {
	CHAIN_OK = 0,
	CHAIN_MALFORMED,  /* a seal row lacks a member, or its seq is out of sequence */
	CHAIN_LEAF,       /* the leaves callback stopped the walk (its own record says why) */
	CHAIN_SIZE,       /* tree_size is not the number of the seal's leaves */
	CHAIN_ROOT,       /* root is not the tree over the leaves */
	CHAIN_PREV,       /* prev is not the hash of the seal before */
	CHAIN_HASH        /* hash is not that of the seal's fields */
};

/* Where the walk stopped, and what it saw. */
struct chain_walk {
	enum chain_fault fault;
	int64_t seq;         /* the seal at fault, 0 when none */
	int64_t tree_size;   /* CHAIN_SIZE: what the seal states ... */
	size_t leaves;       /* ... and how many leaves are there */
	int found_head;      /* a seal's hash is the head asked for */
};

/*
 * The leaves of seal seq, appended to l in tree order; 0, or non-zero to
 * stop the walk (a leaf failing the caller's own check, or an error), which
 * chain_walk() returns as it is.
 */
typedef int (*chain_leaves_fn)(void *arg, int64_t seq, struct chain_leaves *l);

/*
 * Walk the seals of the log with this key in order: seals is an array of
 * seal rows (members seq, sealed_at, tree_size, root, prev, hash, as
 * store_seals() gives them), each checked against the leaves fn hands out
 * for it and the seal before.  head, when not NULL, is a seal hash recorded
 * elsewhere: w->found_head says whether a seal of the chain has it.
 * Returns 0 with w->fault CHAIN_OK (all hold) or the first fault; fn's
 * non-zero return (w->fault CHAIN_LEAF); or -1 (reported: memory, a leaf
 * digest that is not hex).
 */
int chain_walk(const char *key, const cJSON *seals, const char *head,
               chain_leaves_fn fn, void *arg, struct chain_walk *w);

/*
 * chain_walk() in steps: the seals before from (1: none) are checked by
 * their fields' hash and their link to the seal before, without their
 * leaves; from seal from on, in full, until the leaves checked reach
 * budget (0: no bound).  *next (may be NULL) receives the seal the next
 * step starts at, 0 when the walk reached the end (or stopped at a fault).
 * found_head covers the seals walked.
 */
int chain_walk_part(const char *key, const cJSON *seals, const char *head, int64_t from,
                    int64_t budget, chain_leaves_fn fn, void *arg, struct chain_walk *w,
                    int64_t *next);

/*
 * The fault as one line ("seal 3: its root does not match its entries"),
 * noun naming the leaves ("entries"); "" for CHAIN_OK.
 */
void chain_fault_text(const struct chain_walk *w, const char *noun, char *buf, size_t size);

#endif
