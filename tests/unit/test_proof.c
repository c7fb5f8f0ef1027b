/* test_proof.c: entry digests, Merkle trees (RFC 9162 2.1) and seal hashes (proof.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "proof/proof.h"
#include "unit.h"

/* The digest of the text "leaf i", as hex, for tree tests. */
static void
leaf_digest(int i, char out[65])
{
	char text[32];

	snprintf(text, sizeof(text), "leaf %d", i);
	hash_sha256_hex(text, strlen(text), out);
}

/* HASH(prefix || a || b) of hex inputs, as hex (b NULL: a leaf). */
static void
h(int prefix, const char *a, const char *b, char out[65])
{
	unsigned char in[65], md[32];

	in[0] = (unsigned char)prefix;
	hash_unhex(a, in + 1);
	if (b != NULL)
		hash_unhex(b, in + 33);
	hash_sha256(in, b != NULL ? 65 : 33, md);
	hash_hex(md, out);
}

int
main(void)
{
	char d[40][65], root[65], want[65], l[8][65], n01[65], n23[65], n0123[65];
	const char *p[40];
	char (*path)[65] = NULL;
	size_t len;
	int all = 1;

	for (int i = 0; i < 40; i++) {
		leaf_digest(i, d[i]);
		p[i] = d[i];
	}
	/* The shapes of RFC 9162 2.1.1 by hand: leaf 0x00, node 0x01, the
	 * split at the largest power of two below n, no duplicated odd node. */
	for (int i = 0; i < 5; i++)
		h(0, d[i], NULL, l[i]);
	CHECK(proof_tree_root(p, 1, root) == 0 && strcmp(root, l[0]) == 0,
	    "one entry: the root is its leaf hash, SHA-256(0x00 || digest)");
	h(1, l[0], l[1], n01);
	CHECK(proof_tree_root(p, 2, root) == 0 && strcmp(root, n01) == 0,
	    "two entries: SHA-256(0x01 || leaf0 || leaf1)");
	h(1, n01, l[2], want);
	CHECK(proof_tree_root(p, 3, root) == 0 && strcmp(root, want) == 0,
	    "three entries: (0 1) then 2, the odd leaf promoted, not duplicated");
	h(1, l[2], l[3], n23);
	h(1, n01, n23, n0123);
	h(1, n0123, l[4], want);
	CHECK(proof_tree_root(p, 5, root) == 0 && strcmp(root, want) == 0,
	    "five entries: ((0 1) (2 3)) then 4");
	CHECK(proof_tree_root(p, 0, root) != 0, "no tree of nothing");
	{
		const char *bad[2] = { d[0], "xyz" };
		CHECK(proof_tree_root(bad, 2, root) != 0, "a digest that is not hex is refused");
	}

	/* Every leaf of every tree size up to 40 has a proof that leads to the
	 * root, and to no other tree's root, index or leaf (the
	 * size is not checked by the path: a seal states it, beside its root). */
	for (size_t n = 1; n <= 40; n++) {
		char other[65];

		proof_tree_root(p, n, root);
		proof_tree_root(p, n + 1 < 40 ? n + 1 : n - 1, other);
		for (size_t m = 0; m < n; m++) {
			int good;

			if (proof_inclusion(p, n, m, &path, &len) != 0) {
				all = 0;
				continue;
			}
			good = proof_inclusion_ok(d[m], m, n, (const char (*)[65])path, len, root);
			good = good && !proof_inclusion_ok(d[(m + 1) % 40], m, n, (const char (*)[65])path, len, root);
			good = good && (n == 1 || !proof_inclusion_ok(d[m], (m + 1) % n, n, (const char (*)[65])path, len, root));
			good = good && !proof_inclusion_ok(d[m], m, n, (const char (*)[65])path, len, other);
			if (len > 0) {
				path[0][0] = path[0][0] == '0' ? '1' : '0';
				good = good && !proof_inclusion_ok(d[m], m, n, (const char (*)[65])path, len, root);
			}
			all = all && good;
			free(path);
		}
	}
	CHECK(all, "inclusion proofs for every leaf of trees of 1 to 40 entries verify, and fail when anything changes");
	CHECK(proof_inclusion(p, 3, 3, &path, &len) != 0, "no proof for a leaf beyond the tree");
	CHECK(proof_inclusion(p, 5, 4, &path, &len) == 0 && len == 1 && strcmp(path[0], n0123) == 0,
	    "the proof of leaf 4 of 5 is the root of the first four");
	free(path);

	/* Entry digests: the canonical encoding of consent-log(5), by hand. */
	{
		struct consent_entry e;
		cJSON *row;
		char a[65], b[65];
		const char *text =
		    "consent-entry/1\n"
		    "site_key=s4:demo\ncreated_at=s24:2026-11-24T00:00:00.123Z\n"
		    "anon_id_hash=s3:abc\ncategories=s18:{\"analytics\":true}\n"
		    "event_type=s7:initial\nevent_action=s6:opt_in\nconfig_version=n3\n"
		    "published_version=n3\nregion=-\nconsent_model=-\nbrowser=s7:Firefox\n"
		    "os=-\ndevice_type=s7:desktop\ncountry=s2:DE\nregulation=-\n"
		    "time_to_action_ms=n0.10000000000000001\ninteraction=-\n"
		    "preferences_opened=n1\nbanner_load_time_ms=n0\nbanner_position=-\n"
		    "page_url=s6:x\ny\xc3\xbc\"\nsdk_version=-\nlanguage=-\nresolved_language=-\ngpc=n0\n"
		    "config_sha256=-\nbuiltin_sha256=s64:dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd\n";

		memset(&e, 0, sizeof(e));
		e.created_at = "2026-11-24T00:00:00.123Z";
		e.anon_id_hash = "abc";
		e.categories = "{\"analytics\":true}";
		e.event_type = "initial";
		e.event_action = (struct store_value){ SV_TEXT, "opt_in", 0, 0 };
		e.config_version = (struct store_value){ SV_INT, NULL, 3, 0 };
		e.published_version = 3;
		e.browser = "Firefox";
		e.device_type = "desktop";
		e.country = "DE";
		e.time_to_action_ms = (struct store_value){ SV_REAL, NULL, 0, 0.1 };
		e.preferences_opened = (struct store_value){ SV_INT, NULL, 1, 0 };
		e.banner_load_time_ms = (struct store_value){ SV_REAL, NULL, 0, -0.0 };
		e.page_url = (struct store_value){ SV_TEXT, "x\ny\xc3\xbc\"", 0, 0 };
		e.builtin_sha256 = "dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd";
		hash_sha256_hex(text, strlen(text), want);
		CHECK(proof_entry_digest("demo", &e, a) == 0 && strcmp(a, want) == 0,
		    "entry digest: SHA-256 of the documented encoding (lengths in bytes, %.17g, -0 as 0)");
		row = cJSON_Parse("{\"created_at\":\"2026-11-24T00:00:00.123Z\",\"anon_id_hash\":\"abc\","
		    "\"categories\":{\"analytics\":true},\"event_type\":\"initial\",\"event_action\":\"opt_in\","
		    "\"config_version\":3,\"published_version\":3,\"browser\":\"Firefox\",\"os\":null,"
		    "\"device_type\":\"desktop\",\"country\":\"DE\",\"time_to_action_ms\":0.1,"
		    "\"preferences_opened\":true,\"banner_load_time_ms\":0,\"page_url\":\"x\\ny\\u00fc\\\"\","
		    "\"gpc\":false,\"config_sha256\":null,\"builtin_sha256\":\"dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd\"}");
		CHECK(row != NULL && proof_row_digest("demo", row, b) == 0 && strcmp(b, want) == 0,
		    "the same digest from an export row (booleans as 1/0, absent as none, categories re-serialised)");
		cJSON_Delete(row);
		e.gpc = 1;
		CHECK(proof_entry_digest("demo", &e, a) == 0 && strcmp(a, want) != 0, "gpc changes the digest");
		e.gpc = 0;
		e.builtin_sha256 = NULL;
		CHECK(proof_entry_digest("demo", &e, a) == 0 && strcmp(a, want) != 0,
		    "builtin_sha256 changes the digest (none is written -)");
		e.builtin_sha256 = "dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd";
		CHECK(proof_entry_digest("demo2", &e, a) == 0 && strcmp(a, want) != 0, "the site key changes the digest");
	}

	/* Seal hashes. */
	{
		struct proof_seal s = { 7, "2026-11-24T00:00:00.000Z", 12, "", "" };
		char text[400], a[65];

		memset(s.root, 'a', 64);
		memcpy(s.prev, proof_no_seal, 65);
		snprintf(text, sizeof(text), "consent-seal/1\nsite_key=demo\nseq=7\n"
		    "sealed_at=2026-11-24T00:00:00.000Z\ntree_size=12\nroot=%s\nprev=%s\n", s.root, s.prev);
		hash_sha256_hex(text, strlen(text), want);
		CHECK(proof_seal_hash("demo", &s, a) == 0 && strcmp(a, want) == 0,
		    "seal hash: SHA-256 of the documented seal encoding");
	}
	UNIT_DONE();
}
