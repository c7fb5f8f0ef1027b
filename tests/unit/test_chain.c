/* test_chain.c: making seals and walking a chain of them (chain.c): every link checked, the first fault named. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "proof/chain.h"
#include "unit.h"

#define SEALS 3

/* A log of three seals over plain arrays: seal 1 has 3 leaves, seal 2 has
 * 5, seal 3 has 2 (a seal covers the entries stored since the one before,
 * so a later seal may well be smaller). */
static const size_t sizes[SEALS] = { 3, 5, 2 };
static char digest[10][65];
static const char *leaf[10];

/* What the leaves callback hands out, and how the test bends it. */
struct log {
	size_t extra;     /* leaves handed out beyond the seal's, from seal 2 on */
	int64_t drop;     /* seal whose last leaf is withheld, 0 none */
	int64_t fail;     /* seal whose leaves "fail the caller's check", 0 none */
	int64_t asked;    /* the last seq asked for */
};

/* chain_leaves_fn over the arrays above. */
static int
leaves(void *arg, int64_t seq, struct chain_leaves *l)
{
	struct log *g = arg;
	size_t first = 0, n;

	g->asked = seq;
	if (seq == g->fail)
		return 7;
	for (int64_t s = 1; s < seq; s++)
		first += sizes[s - 1];
	n = sizes[seq - 1] - (seq == g->drop) + (seq >= 2 ? g->extra : 0);
	for (size_t i = 0; i < n; i++)
		if (chain_leaves_add(l, leaf[(first + i) % 10]) != 0)
			return -1;
	return 0;
}

/* The seal rows of the log with key "demo", as store_seals() gives them. */
static cJSON *
make_seals(void)
{
	cJSON *seals = cJSON_CreateArray();
	char prev[65], hash[65];
	size_t first = 0;

	memcpy(prev, proof_no_seal, 65);
	for (int i = 0; i < SEALS; i++) {
		struct proof_seal s = { i + 1, "", 0, "", "" };
		cJSON *row = cJSON_CreateObject();

		snprintf(s.sealed_at, sizeof(s.sealed_at), "2026-11-2%dT10:00:00.000Z", i + 1);
		memcpy(s.prev, prev, 65);
		if (chain_seal("demo", leaf + first, sizes[i], &s, hash) != 0)
			return NULL;
		cJSON_AddNumberToObject(row, "seq", (double)s.seq);
		cJSON_AddStringToObject(row, "sealed_at", s.sealed_at);
		cJSON_AddNumberToObject(row, "tree_size", (double)s.tree_size);
		cJSON_AddStringToObject(row, "root", s.root);
		cJSON_AddStringToObject(row, "prev", s.prev);
		cJSON_AddStringToObject(row, "hash", hash);
		cJSON_AddItemToArray(seals, row);
		memcpy(prev, hash, 65);
		first += sizes[i];
	}
	return seals;
}

/* Member name of seal seq (1-based) set to the text v. */
static void
set_text(cJSON *seals, int seq, const char *name, const char *v)
{
	cJSON_ReplaceItemInObjectCaseSensitive(cJSON_GetArrayItem(seals, seq - 1), name,
	    cJSON_CreateString(v));
}

static void
set_number(cJSON *seals, int seq, const char *name, double v)
{
	cJSON_ReplaceItemInObjectCaseSensitive(cJSON_GetArrayItem(seals, seq - 1), name,
	    cJSON_CreateNumber(v));
}

static const char *
text(const cJSON *seals, int seq, const char *name)
{
	return cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(seals, seq - 1), name)->valuestring;
}

/* Rehash seal seq over its fields as they are now: a seal rewritten to be
 * consistent in itself. */
static void
rehash(cJSON *seals, int seq)
{
	const cJSON *row = cJSON_GetArrayItem(seals, seq - 1);
	struct proof_seal s = { seq, "", 0, "", "" };
	char hash[65];

	snprintf(s.sealed_at, sizeof(s.sealed_at), "%s", text(seals, seq, "sealed_at"));
	s.tree_size = (int64_t)cJSON_GetObjectItemCaseSensitive(row, "tree_size")->valuedouble;
	memcpy(s.root, text(seals, seq, "root"), 65);
	memcpy(s.prev, text(seals, seq, "prev"), 65);
	proof_seal_hash("demo", &s, hash);
	set_text(seals, seq, "hash", hash);
}

/* Walk a fresh copy of the log after bend() changed it; the walk's return. */
static int
walk(void (*bend)(cJSON *), struct log *g, const char *head, struct chain_walk *w)
{
	cJSON *seals = make_seals();
	int rc;

	if (bend != NULL)
		bend(seals);
	rc = chain_walk("demo", seals, head, leaves, g, w);
	cJSON_Delete(seals);
	return rc;
}

static void
bad_prev(cJSON *seals)
{
	char other[65];

	memcpy(other, text(seals, 1, "hash"), 65);
	other[0] = other[0] == 'a' ? 'b' : 'a';
	set_text(seals, 2, "prev", other);
	rehash(seals, 2);
}

static void
bad_root(cJSON *seals)
{
	char root[65];

	proof_tree_root(leaf + 4, 3, root);
	set_text(seals, 1, "root", root);
}

static void
shrunk(cJSON *seals)
{
	set_number(seals, 3, "tree_size", 1);
	rehash(seals, 3);
}

static void
bad_hash(cJSON *seals)
{
	set_text(seals, 3, "sealed_at", "2026-11-23T10:00:00.001Z");
}

static void
swapped(cJSON *seals)
{
	cJSON *first = cJSON_DetachItemFromArray(seals, 0);

	cJSON_AddItemToArray(seals, first);
}

static void
no_root(cJSON *seals)
{
	set_text(seals, 2, "root", "abc");
}

int
main(void)
{
	struct log g;
	struct chain_walk w;
	cJSON *seals;
	char text_[200], root[65], hash[65];
	int rc;

	for (int i = 0; i < 10; i++) {
		char t[16];

		snprintf(t, sizeof(t), "entry %d", i);
		hash_sha256_hex(t, strlen(t), digest[i]);
		leaf[i] = digest[i];
	}

	/* chain_seal: the root of proof_tree_root, the hash of proof_seal_hash. */
	{
		struct proof_seal s = { 1, "2026-11-21T10:00:00.000Z", 0, "", "" }, t;

		memcpy(s.prev, proof_no_seal, 65);
		CHECK(chain_seal("demo", leaf, 3, &s, hash) == 0 && s.tree_size == 3,
		    "chain_seal seals three leaves, tree_size 3");
		proof_tree_root(leaf, 3, root);
		t = s;
		proof_seal_hash("demo", &t, text_);
		CHECK(strcmp(s.root, root) == 0 && strcmp(hash, text_) == 0,
		    "its root is the tree's, its hash the seal hash of its fields");
		CHECK(chain_seal("demo", leaf, 0, &s, hash) != 0, "no seal of no leaves");
	}

	/* A valid chain. */
	memset(&g, 0, sizeof(g));
	seals = make_seals();
	rc = chain_walk("demo", seals, text(seals, 2, "hash"), leaves, &g, &w);
	CHECK(seals != NULL && rc == 0 && w.fault == CHAIN_OK && w.seq == 0 && g.asked == 3,
	    "a valid chain of three seals (3, 5, 2 leaves) walks to its end");
	CHECK(w.found_head, "the hash of seal 2, recorded elsewhere, is found in the chain");
	chain_fault_text(&w, "entries", text_, sizeof(text_));
	CHECK_STR(text_, "", "no fault, no text");
	cJSON_Delete(seals);
	rc = walk(NULL, &g, proof_no_seal, &w);
	CHECK(rc == 0 && w.fault == CHAIN_OK && !w.found_head, "a head that no seal has is not found");
	rc = walk(NULL, &g, NULL, &w);
	CHECK(rc == 0 && w.fault == CHAIN_OK && !w.found_head, "no head asked for, none found");
	seals = cJSON_CreateArray();
	CHECK(chain_walk("demo", seals, NULL, leaves, &g, &w) == 0 && w.fault == CHAIN_OK,
	    "a log without seals is a valid chain");
	cJSON_Delete(seals);

	/* A broken prev link: seal 2 rewritten (and rehashed) to name another hash. */
	rc = walk(bad_prev, &g, NULL, &w);
	CHECK(rc == 0 && w.fault == CHAIN_PREV && w.seq == 2, "a broken prev link is found at seal 2");
	chain_fault_text(&w, "entries", text_, sizeof(text_));
	CHECK_STR(text_, "seal 2: it does not name the hash of seal 1", "and worded");

	/* A changed root. */
	rc = walk(bad_root, &g, NULL, &w);
	CHECK(rc == 0 && w.fault == CHAIN_ROOT && w.seq == 1, "a changed root is found at seal 1");
	chain_fault_text(&w, "entries", text_, sizeof(text_));
	CHECK_STR(text_, "seal 1: its root does not match its entries", "and worded");

	/* A tree size that shrank: seal 3 says 1 where 2 leaves are. */
	rc = walk(shrunk, &g, NULL, &w);
	CHECK(rc == 0 && w.fault == CHAIN_SIZE && w.seq == 3 && w.tree_size == 1 && w.leaves == 2,
	    "a tree size shrunk below the seal's leaves is found at seal 3");
	chain_fault_text(&w, "entries", text_, sizeof(text_));
	CHECK_STR(text_, "seal 3: it covers 1 entries, 2 are there", "and worded");
	g.drop = 2;
	rc = walk(NULL, &g, NULL, &w);
	CHECK(rc == 0 && w.fault == CHAIN_SIZE && w.seq == 2 && w.tree_size == 5 && w.leaves == 4,
	    "a leaf gone from seal 2 is found: it covers 5, 4 are there");
	g.drop = 0;
	g.extra = 1;
	rc = walk(NULL, &g, NULL, &w);
	CHECK(rc == 0 && w.fault == CHAIN_SIZE && w.seq == 2 && w.leaves == 6,
	    "a leaf inserted into seal 2 is found");
	g.extra = 0;

	/* A seal whose fields no longer give its hash. */
	rc = walk(bad_hash, &g, NULL, &w);
	CHECK(rc == 0 && w.fault == CHAIN_HASH && w.seq == 3, "a changed sealed_at is found by seal 3's hash");
	chain_fault_text(&w, "records", text_, sizeof(text_));
	CHECK_STR(text_, "seal 3: its hash does not match its fields", "and worded");

	/* Seals out of sequence, a malformed member. */
	g.asked = 0;
	rc = walk(swapped, &g, NULL, &w);
	CHECK(rc == 0 && w.fault == CHAIN_MALFORMED && w.seq == 1 && g.asked == 0,
	    "seals out of sequence are found before any leaf is read");
	g.asked = 0;
	rc = walk(no_root, &g, NULL, &w);
	CHECK(rc == 0 && w.fault == CHAIN_MALFORMED && w.seq == 2 && g.asked == 1,
	    "a root that is not 64 digits makes seal 2 malformed");
	chain_fault_text(&w, "entries", text_, sizeof(text_));
	CHECK_STR(text_, "seal 2: malformed or out of sequence", "and worded");

	/* The caller's own check of a leaf stops the walk with its code. */
	g.fail = 2;
	rc = walk(NULL, &g, NULL, &w);
	CHECK(rc == 7 && w.fault == CHAIN_LEAF && w.seq == 2,
	    "the leaves callback's non-zero return stops the walk at seal 2 and is returned");
	g.fail = 0;
	UNIT_DONE();
}
