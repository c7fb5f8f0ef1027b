/* proof.c: differential: the C proof code (proof.c, chain.c) on generated
 * logs and seals, checked against itself here and against
 * tools/verify-export.py by tests/t0956-proof-differential.sh.
 *
 * The input drives a generator (not a parser): a site key, up to 48
 * entries whose 26 fields are null, text (ASCII, control characters,
 * quotes, multi-byte UTF-8), integers, fractions, booleans or a categories
 * object, created_at times that often tie, seals over runs of them (the
 * leaves of a seal in tree order: created_at, then storage order), some
 * entries left unsealed, and at most one change after sealing: a field of
 * an entry, a seal's root, prev, hash, tree_size or seq, an entry moved to
 * another seal.  The C code digests each entry as the export gives it
 * (proof_row_digest; and, where the row could be one the consent endpoint
 * stores, as that entry, proof_entry_digest: the same digest), seals
 * (chain_seal), builds every inclusion proof and
 * walks the chain (chain_walk, each leaf checked against its row):
 * unchanged, everything must verify and every proof hold; changed, the walk
 * must find a fault.
 *
 * With FUZZ_PROOF_OUT set to a folder, each input also writes there what
 * verify-export.py reads: entries.jsonl (the export, each row with its
 * digest and seal), seals.jsonl, receipt.json (every sealed entry with its
 * proof), key, verdict ("ok SEALS HEAD" or "fault TEXT": the log) and
 * receipt-verdict ("ok" or "fault": the receipt's proofs), so that the two
 * implementations can be compared on the corpus.
 */
#include <stdio.h>
#include <string.h>

#include "base/nitems.h"
#include "fuzz.h"
#include "proof/chain.h"
#include "proof/proof.h"

#define ENTRIES_MAX 48

struct gen {
	const uint8_t *p;
	size_t n;
};

/* The next byte of the input, 0 once it is used up. */
static unsigned
byte(struct gen *g)
{
	if (g->n == 0)
		return 0;
	g->n--;
	return *g->p++;
}

/* Characters a text field is made of: what a request may bring. */
static const char *const pieces[] = {
	"a", "Z", "0", " ", "-", ".", "/", ":", "\"", "\\", "\t", "\n", "\x01", "\x7f",
	"\xc3\xa9", "\xe2\x80\xa8", "\xf0\x9f\x98\x80", "\xe4\xb8\xad", "%", "{", "}",
};

static cJSON *
text(struct gen *g)
{
	char buf[128];
	size_t len = 0, want = byte(g) % 12;

	for (size_t i = 0; i < want; i++) {
		const char *s = pieces[byte(g) % nitems(pieces)];
		size_t l = strlen(s);
		if (len + l >= sizeof(buf))
			break;
		memcpy(buf + len, s, l);
		len += l;
	}
	buf[len] = '\0';
	return cJSON_CreateString(buf);
}

static cJSON *
categories(struct gen *g)
{
	static const char *const names[] = { "necessary", "analytics", "marketing",
	    "preferences", "x\xc3\xa9", "a\"b" };
	cJSON *o = cJSON_CreateObject();
	size_t n = byte(g) % 5;

	for (size_t i = 0; o != NULL && i < n; i++) {
		const char *name = names[byte(g) % nitems(names)];
		if (cJSON_GetObjectItemCaseSensitive(o, name) == NULL)
			cJSON_AddBoolToObject(o, name, byte(g) & 1);
	}
	return o;
}

/* One field's value: null, text, an integer, a fraction or a boolean. */
static cJSON *
value(struct gen *g)
{
	unsigned k = byte(g) % 6;
	int32_t i;

	switch (k) {
	case 0:
		return cJSON_CreateNull();
	case 1:
	case 2:
		return text(g);
	case 3:
		i = (int32_t)(byte(g) | byte(g) << 8 | byte(g) << 16 | (uint32_t)byte(g) << 24);
		return cJSON_CreateNumber(i);
	case 4:
		return cJSON_CreateNumber((double)(int)(byte(g) | byte(g) << 8) / 1000.0);
	default:
		return cJSON_CreateBool(byte(g) & 1);
	}
}

static void
created_at(struct gen *g, char out[32])
{
	/* few distinct times, so that ties (storage order) are common */
	snprintf(out, 32, "2026-0%u-1%uT0%u:00:00.%03uZ", 1 + byte(g) % 2, byte(g) % 3,
	    byte(g) % 2, byte(g) % 4);
}

struct log {
	char key[20];
	cJSON *rows[ENTRIES_MAX];
	int seal[ENTRIES_MAX];         /* 0: not sealed */
	size_t n;
	cJSON *seals;                  /* the seal rows */
	int nseals;
	char head[65];
};

/* The leaves of seal seq in tree order: their rows' indexes. */
static size_t
leaves_of(const struct log *lg, int seq, size_t idx[ENTRIES_MAX])
{
	size_t n = 0;

	for (size_t i = 0; i < lg->n; i++) {
		const char *t;
		size_t j;

		if (lg->seal[i] != seq)
			continue;
		/* stable insertion by created_at */
		t = cJSON_GetObjectItemCaseSensitive(lg->rows[i], "created_at")->valuestring;
		for (j = n; j > 0 && strcmp(cJSON_GetObjectItemCaseSensitive(lg->rows[idx[j - 1]],
		    "created_at")->valuestring, t) > 0; j--)
			idx[j] = idx[j - 1];
		idx[j] = i;
		n++;
	}
	return n;
}

static const char *
digest_of(const cJSON *row)
{
	return cJSON_GetObjectItemCaseSensitive(row, "digest")->valuestring;
}

/* chain_walk's leaves: each row's digest recomputed from its fields must be
 * the digest it carries. */
static int
walk_leaves(void *arg, int64_t seq, struct chain_leaves *l)
{
	const struct log *lg = arg;
	size_t idx[ENTRIES_MAX], n = leaves_of(lg, (int)seq, idx);
	char d[65];

	for (size_t i = 0; i < n; i++) {
		FUZZ_CHECK(proof_row_digest(lg->key, lg->rows[idx[i]], d) == 0);
		if (strcmp(d, digest_of(lg->rows[idx[i]])) != 0)
			return 1;
		FUZZ_CHECK(chain_leaves_add(l, d) == 0);
	}
	return 0;
}

/* A text field of an entry from the row's member: 1 when it can be one
 * (text or null). */
static int
entry_text(const cJSON *row, const char *name, const char **out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(row, name);

	*out = cJSON_IsString(v) ? v->valuestring : NULL;
	return cJSON_IsString(v) || cJSON_IsNull(v);
}

/* A store value of an entry from the row's member: 1 when it can be one. */
static int
entry_value(const cJSON *row, const char *name, struct store_value *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(row, name);

	memset(out, 0, sizeof(*out));
	if (cJSON_IsString(v)) {
		out->type = SV_TEXT;
		out->text = v->valuestring;
	} else if (cJSON_IsBool(v)) {
		out->type = SV_INT;
		out->i = cJSON_IsTrue(v);
	} else if (cJSON_IsNumber(v) && v->valuedouble == (double)(int64_t)v->valuedouble) {
		out->type = SV_INT;
		out->i = (int64_t)v->valuedouble;
	} else if (cJSON_IsNumber(v)) {
		out->type = SV_REAL;
		out->r = v->valuedouble;
	} else if (!cJSON_IsNull(v)) {
		return 0;
	}
	return 1;
}

/* Where the row could be an entry the consent endpoint stores (its text
 * fields text or null, categories an object, published_version a number,
 * gpc 0 or 1), the entry's digest (proof_entry_digest, what the endpoint
 * stores) is the row's (proof_row_digest, what verify and an export use). */
static void
entry_digest(const char *key, const cJSON *row)
{
	static const char *const values[] = { "event_action", "config_version", "region",
	    "consent_model", "regulation", "time_to_action_ms", "interaction",
	    "preferences_opened", "banner_load_time_ms", "banner_position", "page_url",
	    "sdk_version", "language", "resolved_language" };
	struct consent_entry e;
	struct store_value *v[nitems(values)];
	const cJSON *cats = cJSON_GetObjectItemCaseSensitive(row, "categories");
	const cJSON *pv = cJSON_GetObjectItemCaseSensitive(row, "published_version");
	const cJSON *gpc = cJSON_GetObjectItemCaseSensitive(row, "gpc");
	char *cat_text, a[65], b[65];
	int fits;

	memset(&e, 0, sizeof(e));
	v[0] = &e.event_action; v[1] = &e.config_version; v[2] = &e.region;
	v[3] = &e.consent_model; v[4] = &e.regulation; v[5] = &e.time_to_action_ms;
	v[6] = &e.interaction; v[7] = &e.preferences_opened; v[8] = &e.banner_load_time_ms;
	v[9] = &e.banner_position; v[10] = &e.page_url; v[11] = &e.sdk_version;
	v[12] = &e.language; v[13] = &e.resolved_language;
	fits = cJSON_IsObject(cats) && cJSON_IsNumber(pv) &&
	    pv->valuedouble == (double)(int64_t)pv->valuedouble &&
	    (cJSON_IsBool(gpc) || (cJSON_IsNumber(gpc) && (gpc->valuedouble == 0 ||
	    gpc->valuedouble == 1))) &&
	    entry_text(row, "created_at", &e.created_at) &&
	    entry_text(row, "anon_id_hash", &e.anon_id_hash) &&
	    entry_text(row, "event_type", &e.event_type) &&
	    entry_text(row, "browser", &e.browser) && entry_text(row, "os", &e.os) &&
	    entry_text(row, "device_type", &e.device_type) &&
	    entry_text(row, "country", &e.country) &&
	    entry_text(row, "config_sha256", &e.config_sha256) &&
	    entry_text(row, "builtin_sha256", &e.builtin_sha256);
	for (size_t i = 0; fits && i < nitems(values); i++)
		fits = entry_value(row, values[i], v[i]);
	if (!fits)
		return;
	e.published_version = (int64_t)pv->valuedouble;
	e.gpc = cJSON_IsTrue(gpc) || (cJSON_IsNumber(gpc) && gpc->valuedouble == 1);
	FUZZ_CHECK((cat_text = cJSON_PrintUnformatted(cats)) != NULL);
	e.categories = cat_text;
	FUZZ_CHECK(proof_entry_digest(key, &e, a) == 0);
	FUZZ_CHECK(proof_row_digest(key, row, b) == 0);
	FUZZ_CHECK(strcmp(a, b) == 0);
	cJSON_free(cat_text);
}

/* The row in another shape the store or an export may give: its members
 * in reverse order, some dropped (absent is null), a number as the exact
 * text SQLite's store hands out (cJSON raw): the same digest. */
static void
same_row(const char *key, const cJSON *row, const char *digest, unsigned how)
{
	cJSON *r = cJSON_CreateObject();
	char d[65];

	FUZZ_CHECK(r != NULL);
	for (const cJSON *m = row->child; m != NULL; m = m->next) {
		cJSON *c;
		char num[64];

		if ((how & 1) && cJSON_IsNull(m))
			continue;
		if ((how & 2) && cJSON_IsNumber(m)) {
			snprintf(num, sizeof(num), "%.17g", m->valuedouble);
			c = cJSON_CreateRaw(num);
		} else {
			c = cJSON_Duplicate(m, 1);
		}
		FUZZ_CHECK(c != NULL);
		/* each member first: the row reversed */
		FUZZ_CHECK(cJSON_AddItemToObject(r, m->string, c));
		cJSON_DetachItemViaPointer(r, c);
		FUZZ_CHECK(cJSON_InsertItemInArray(r, 0, c));
	}
	FUZZ_CHECK(proof_row_digest(key, r, d) == 0);
	FUZZ_CHECK(strcmp(d, digest) == 0);
	cJSON_Delete(r);
}

/* What the proof code refuses: a digest that is not 64 hex digits, a leaf
 * past the tree. */
static void
refused(const char *const *digests, size_t n)
{
	const char *bad[2] = { digests[0], "not hex" };
	char root[65], (*path)[65] = NULL;
	size_t len;

	FUZZ_CHECK(proof_tree_root(bad, 2, root) == -1);
	FUZZ_CHECK(proof_inclusion(bad, 2, 0, &path, &len) == -1);
	FUZZ_CHECK(proof_inclusion(digests, n, n, &path, &len) == -1);
	FUZZ_CHECK(!proof_inclusion_ok("not hex", 0, 1, NULL, 0, digests[0]));
}

static void
generate(struct gen *g, struct log *lg)
{
	static const char keychars[] =
	    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-";
	size_t klen = 1 + byte(g) % 16, start = 0;
	char prev[65];

	for (size_t i = 0; i < klen; i++)
		lg->key[i] = keychars[byte(g) % (sizeof(keychars) - 1)];
	lg->key[klen] = '\0';
	lg->n = 1 + byte(g) % ENTRIES_MAX;
	for (size_t i = 0; i < lg->n; i++) {
		cJSON *row = cJSON_CreateObject();
		char t[32], d[65];

		FUZZ_CHECK(row != NULL);
		created_at(g, t);
		cJSON_AddStringToObject(row, "created_at", t);
		/* Half the entries shaped as the consent endpoint stores them
		 * (entry_digest then compares both digests), half anything. */
		int shaped = byte(g) & 1;

		for (size_t f = 2; f < PROOF_FIELDS; f++) {
			const char *name = proof_field_names[f];
			cJSON *v;

			if (f == 3 && (shaped || (byte(g) & 1)))
				v = categories(g);
			else if (shaped && strcmp(name, "published_version") == 0)
				v = cJSON_CreateNumber(byte(g));
			else if (shaped && strcmp(name, "gpc") == 0)
				v = cJSON_CreateBool(byte(g) & 1);
			else if (shaped && strstr(" anon_id_hash event_type browser os device_type "
			    "country config_sha256 builtin_sha256 ", name) != NULL &&
			    name[0] != '\0')
				v = byte(g) & 1 ? text(g) : cJSON_CreateNull();
			else
				v = value(g);
			FUZZ_CHECK(v != NULL);
			cJSON_AddItemToObject(row, proof_field_names[f], v);
		}
		FUZZ_CHECK(proof_row_digest(lg->key, row, d) == 0);
		entry_digest(lg->key, row);
		same_row(lg->key, row, d, byte(g));
		cJSON_AddStringToObject(row, "digest", d);
		lg->rows[i] = row;
	}
	/* Seals over runs of entries in storage order; the last run may stay
	 * unsealed. */
	lg->seals = cJSON_CreateArray();
	memcpy(prev, proof_no_seal, 65);
	while (start < lg->n) {
		size_t run = 1 + byte(g) % 12, idx[ENTRIES_MAX], n;
		const char *digests[ENTRIES_MAX];
		struct proof_seal s;
		char hash[65], root[65];
		cJSON *row;

		if (start + run > lg->n)
			run = lg->n - start;
		if (start + run == lg->n && lg->nseals > 0 && (byte(g) & 3) == 0)
			break;   /* not sealed yet */
		lg->nseals++;
		for (size_t i = start; i < start + run; i++)
			lg->seal[i] = lg->nseals;
		n = leaves_of(lg, lg->nseals, idx);
		for (size_t i = 0; i < n; i++)
			digests[i] = digest_of(lg->rows[idx[i]]);
		memset(&s, 0, sizeof(s));
		s.seq = lg->nseals;
		snprintf(s.sealed_at, sizeof(s.sealed_at), "2026-02-0%uT00:00:00.000Z", 1 + byte(g) % 9);
		memcpy(s.prev, prev, 65);
		FUZZ_CHECK(chain_seal(lg->key, digests, n, &s, hash) == 0);
		FUZZ_CHECK(s.tree_size == (int64_t)n);
		FUZZ_CHECK(proof_tree_root(digests, n, root) == 0 && strcmp(root, s.root) == 0);
		if (lg->nseals == 1)
			refused(digests, n);
		row = cJSON_CreateObject();
		FUZZ_CHECK(row != NULL);
		cJSON_AddNumberToObject(row, "seq", (double)s.seq);
		cJSON_AddStringToObject(row, "sealed_at", s.sealed_at);
		cJSON_AddNumberToObject(row, "tree_size", (double)s.tree_size);
		cJSON_AddStringToObject(row, "root", s.root);
		cJSON_AddStringToObject(row, "prev", s.prev);
		cJSON_AddStringToObject(row, "hash", hash);
		cJSON_AddItemToArray(lg->seals, row);
		memcpy(prev, hash, 65);
		start += run;
	}
	memcpy(lg->head, prev, 65);
	for (size_t i = 0; i < lg->n; i++) {
		if (lg->seal[i] != 0)
			cJSON_AddNumberToObject(lg->rows[i], "seal", lg->seal[i]);
		else
			cJSON_AddNullToObject(lg->rows[i], "seal");
	}
}

/* A hex string with one digit changed. */
static void
flip(cJSON *item)
{
	char *s = item->valuestring;

	s[0] = s[0] == '0' ? '1' : '0';
}

/* At most one change after sealing; 1 when one was made that the walk
 * must find (a change to an unsealed entry is not one). */
static int
tamper(struct gen *g, struct log *lg)
{
	unsigned what = byte(g) % 10;
	size_t e = byte(g) % lg->n;
	cJSON *s = lg->nseals ? cJSON_GetArrayItem(lg->seals, (int)(byte(g) % (unsigned)lg->nseals)) : NULL;
	cJSON *v;

	switch (what) {
	case 1:   /* a field of an entry, its digest kept */
		if (lg->seal[e] == 0)
			return 0;
		v = cJSON_GetObjectItemCaseSensitive(lg->rows[e], "created_at");
		cJSON_SetValuestring(v, "2027-01-01T00:00:00.000Z");
		return 1;
	case 2:
		if (s == NULL)
			return 0;
		flip(cJSON_GetObjectItemCaseSensitive(s, "root"));
		return 1;
	case 3:
		if (s == NULL)
			return 0;
		flip(cJSON_GetObjectItemCaseSensitive(s, "prev"));
		return 1;
	case 4:
		if (s == NULL)
			return 0;
		flip(cJSON_GetObjectItemCaseSensitive(s, "hash"));
		return 1;
	case 5:
		if (s == NULL)
			return 0;
		v = cJSON_GetObjectItemCaseSensitive(s, "tree_size");
		cJSON_SetNumberValue(v, v->valuedouble + 1);
		return 1;
	case 6:   /* an entry moved to another seal */
		if (lg->seal[e] == 0 || lg->nseals < 2)
			return 0;
		lg->seal[e] = lg->seal[e] % lg->nseals + 1;
		cJSON_SetNumberValue(cJSON_GetObjectItemCaseSensitive(lg->rows[e], "seal"),
		    lg->seal[e]);
		return 1;
	case 7:
		if (s == NULL)
			return 0;
		v = cJSON_GetObjectItemCaseSensitive(s, "seq");
		cJSON_SetNumberValue(v, v->valuedouble + 1);
		return 1;
	default:
		return 0;
	}
}

static void
write_file(const char *dir, const char *name, const char *text)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FUZZ_CHECK((f = fopen(path, "w")) != NULL);
	fputs(text, f);
	FUZZ_CHECK(fclose(f) == 0);
}

/* Append the printed item and a newline to *buf (a string grown by
 * realloc). */
static void
append_line(char **buf, size_t *len, const cJSON *item)
{
	char *s = cJSON_PrintUnformatted(item);
	size_t l;

	FUZZ_CHECK(s != NULL);
	l = strlen(s);
	FUZZ_CHECK((*buf = realloc(*buf, *len + l + 2)) != NULL);
	memcpy(*buf + *len, s, l);
	(*buf)[*len + l] = '\n';
	(*buf)[*len + l + 1] = '\0';
	*len += l + 1;
	cJSON_free(s);
}

/* Every sealed entry's inclusion proof, gathered into a receipt
 * (consentctl consent receipt --json's shape) when receipt is not NULL.
 * Returns 1 when each entry's fields give its digest and each proof leads
 * to its seal's root (what verify-export.py --receipt checks), else 0. */
static int
proofs(const struct log *lg, cJSON *receipt)
{
	cJSON *entries = receipt ? cJSON_AddArrayToObject(receipt, "entries") : NULL;
	int all = 1;
	char d[65];

	for (int seq = 1; seq <= lg->nseals; seq++) {
		size_t idx[ENTRIES_MAX], n = leaves_of(lg, seq, idx), len;
		const char *digests[ENTRIES_MAX];
		const cJSON *srow = cJSON_GetArrayItem(lg->seals, seq - 1);
		const char *root = cJSON_GetObjectItemCaseSensitive(srow, "root")->valuestring;
		char (*path)[65];

		for (size_t i = 0; i < n; i++)
			digests[i] = digest_of(lg->rows[idx[i]]);
		for (size_t m = 0; m < n; m++) {
			FUZZ_CHECK(proof_inclusion(digests, n, m, &path, &len) == 0);
			FUZZ_CHECK(proof_row_digest(lg->key, lg->rows[idx[m]], d) == 0);
			if (strcmp(d, digests[m]) != 0 ||
			    !proof_inclusion_ok(digests[m], m, n, (const char (*)[65])path, len, root))
				all = 0;
			/* the same path proves no other leaf, at no other index */
			if (n > 1) {
				FUZZ_CHECK(!proof_inclusion_ok(digests[m], (m + 1) % n, n,
				    (const char (*)[65])path, len, root) ||
				    strcmp(digests[m], digests[(m + 1) % n]) == 0);
			}
			FUZZ_CHECK(!proof_inclusion_ok(digests[m], n, n, (const char (*)[65])path, len, root));
			/* a path with one digit changed, or one node short, proves nothing */
			if (len > 0 && strcmp(d, digests[m]) == 0 &&
			    proof_inclusion_ok(digests[m], m, n, (const char (*)[65])path, len, root)) {
				char was = path[len - 1][7];

				path[len - 1][7] = was == 'a' ? 'b' : 'a';
				FUZZ_CHECK(!proof_inclusion_ok(digests[m], m, n,
				    (const char (*)[65])path, len, root));
				path[len - 1][7] = was;
				FUZZ_CHECK(!proof_inclusion_ok(digests[m], m, n,
				    (const char (*)[65])path, len - 1, root));
			}
			if (entries != NULL) {
				cJSON *item = cJSON_CreateObject(), *p = cJSON_CreateObject(), *arr;
				FUZZ_CHECK(item && p);
				cJSON_AddItemToObject(item, "entry", cJSON_Duplicate(lg->rows[idx[m]], 1));
				cJSON_AddNumberToObject(p, "seal", seq);
				cJSON_AddNumberToObject(p, "leaf_index", (double)m);
				cJSON_AddNumberToObject(p, "tree_size", (double)n);
				cJSON_AddStringToObject(p, "root", root);
				arr = cJSON_AddArrayToObject(p, "path");
				for (size_t k = 0; k < len; k++)
					cJSON_AddItemToArray(arr, cJSON_CreateString(path[k]));
				cJSON_AddItemToObject(item, "proof", p);
				cJSON_AddItemToArray(entries, item);
			}
			free(path);
		}
	}
	return all;
}

static void
write_out(const char *dir, const struct log *lg, const struct chain_walk *w, int rc)
{
	cJSON *receipt = cJSON_CreateObject();
	char *buf = NULL, *r, fault[256], verdict[512];
	size_t len = 0;

	for (size_t i = 0; i < lg->n; i++)
		append_line(&buf, &len, lg->rows[i]);
	write_file(dir, "entries.jsonl", buf ? buf : "");
	free(buf);
	buf = NULL;
	len = 0;
	for (const cJSON *s = lg->seals->child; s != NULL; s = s->next)
		append_line(&buf, &len, s);
	write_file(dir, "seals.jsonl", buf ? buf : "");
	free(buf);
	FUZZ_CHECK(receipt != NULL);
	cJSON_AddStringToObject(receipt, "site_key", lg->key);
	write_file(dir, "receipt-verdict", proofs(lg, receipt) ? "ok\n" : "fault\n");
	FUZZ_CHECK((r = cJSON_PrintUnformatted(receipt)) != NULL);
	write_file(dir, "receipt.json", r);
	cJSON_free(r);
	cJSON_Delete(receipt);
	write_file(dir, "key", lg->key);
	chain_fault_text(w, "entries", fault, sizeof(fault));
	if (rc == 0 && w->fault == CHAIN_OK)
		snprintf(verdict, sizeof(verdict), "ok %d %s\n", lg->nseals, lg->head);
	else
		snprintf(verdict, sizeof(verdict), "fault %s\n",
		    w->fault == CHAIN_LEAF ? "an entry's fields do not match its digest" : fault);
	write_file(dir, "verdict", verdict);
}

/* chain_walk_part() from seal 1 in steps of at most budget leaves, each
 * step after the first taking the seals before it on their hashes: the
 * same verdict as the whole walk. */
static void
walk_in_steps(struct log *lg, int64_t budget, const struct chain_walk *whole, int whole_rc)
{
	struct chain_walk w;
	int64_t from = 1, next;
	int rc, found = 0;

	for (;;) {
		rc = chain_walk_part(lg->key, lg->seals, lg->head, from, budget, walk_leaves,
		    lg, &w, &next);
		FUZZ_CHECK(rc == 0 || rc == 1);
		found |= w.found_head;
		if (rc != 0 || w.fault != CHAIN_OK || next == 0)
			break;
		FUZZ_CHECK(next > from);
		from = next;
	}
	FUZZ_CHECK(rc == whole_rc && w.fault == whole->fault);
	if (rc == 0 && w.fault == CHAIN_OK)
		FUZZ_CHECK(found == whole->found_head);
	else
		FUZZ_CHECK(w.seq == whole->seq);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gen g = { data, size };
	struct log lg;
	struct chain_walk w;
	const char *out = getenv("FUZZ_PROOF_OUT");
	int changed, rc;

	memset(&lg, 0, sizeof(lg));
	generate(&g, &lg);
	changed = tamper(&g, &lg);
	rc = chain_walk(lg.key, lg.seals, lg.head, walk_leaves, &lg, &w);
	FUZZ_CHECK(rc == 0 || rc == 1);
	walk_in_steps(&lg, 1 + byte(&g) % 8, &w, rc);
	{
		char fault[256];

		chain_fault_text(&w, "entries", fault, sizeof(fault));
		FUZZ_CHECK((w.fault == CHAIN_OK) == (fault[0] == '\0'));
	}
	if (!changed) {
		FUZZ_CHECK(rc == 0 && w.fault == CHAIN_OK);
		FUZZ_CHECK(w.found_head);
		FUZZ_CHECK(proofs(&lg, NULL));
	} else {
		FUZZ_CHECK(rc != 0 || w.fault != CHAIN_OK);
	}
	if (out != NULL)
		write_out(out, &lg, &w, rc);
	for (size_t i = 0; i < lg.n; i++)
		cJSON_Delete(lg.rows[i]);
	cJSON_Delete(lg.seals);
	return 0;
}
