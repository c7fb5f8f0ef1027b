/* receipt.c: what one visitor was shown and chose, with the proof of each entry (consentctl consent receipt, the dashboard's receipt). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "admin/export.h"
#include "admin/receipt.h"
#include "base/hash.h"
#include "config/defaults.h"
#include "config/resolve.h"
#include "proof/chain.h"

/* The receipt being built: one element of entries per entry. */
struct receipt {
	struct store *st;
	const char *key;
	const struct site *site;
	const cJSON *seals;
	cJSON *entries;
	char *err;
	size_t errsz;
};

/* The first failure's message into r->err (later ones are dropped). */
static void say(struct receipt *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void
say(struct receipt *r, const char *fmt, ...)
{
	va_list ap;

	if (r->err[0] != '\0')
		return;
	va_start(ap, fmt);
	vsnprintf(r->err, r->errsz, fmt, ap);
	va_end(ap);
}

/* Copy of a member of the config answer, or null. */
static cJSON *
member_copy(const cJSON *obj, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);

	return v != NULL ? cJSON_Duplicate(v, 1) : cJSON_CreateNull();
}

/*
 * The built-in document in force for the entry (docs/proof.md "The
 * built-in texts of an entry"): that of its builtin_sha256 as recorded,
 * checked against it; the compiled one, with a note, for an entry that records none (stored
 * before schema version 4).  *builtin NULL with a note and 0: the entry
 * names built-in texts that were never recorded, nothing is shown.  0, or
 * -1 (reported).
 */
static int
builtin_of(struct receipt *r, const cJSON *entry, cJSON **builtin, const char **note)
{
	const char *sha = export_text_of(entry, "builtin_sha256");
	char *pieces = NULL, mine[65];
	size_t len;
	int rc;

	*builtin = NULL;
	*note = NULL;
	if (*sha == '\0') {
		*note = "the entry records no built-in texts (stored before schema version 4): "
		    "shown with the built-in texts of this consentctl, which may differ from "
		    "those in force when it was stored";
		if ((*builtin = defaults_config()) == NULL)
			return say(r, "the built-in texts do not parse"), -1;
		return 0;
	}
	if ((rc = store_builtin_get(r->st, sha, &pieces, &len)) == STORE_NOTFOUND) {
		*note = "built-in texts not recorded: the build that stored the entry never ran "
		    "consentctl init or config publish on this database, so the texts it was "
		    "shown cannot be given";
		return 0;
	}
	if (rc != STORE_OK)
		return -1;
	if (hash_sha256_hex(pieces, len, mine) != 0)
		goto fail;
	if (strcmp(mine, sha) != 0) {
		say(r, "built-in texts %s do not match their SHA-256 (consentctl consent "
		    "verify)", sha);
		goto fail;
	}
	if ((*builtin = defaults_from_pieces(pieces, len)) == NULL) {
		say(r, "built-in texts %s do not parse", sha);
		goto fail;
	}
	free(pieces);
	return 0;
fail:
	free(pieces);
	return -1;
}

/*
 * What the visitor was shown with this entry: the entry's published
 * version (the built-in document for 0) resolved by the config endpoint's
 * own resolver (resolve.c) over the built-in texts in force for the entry
 * (builtin_of()) for the entry's region and resolved language (its country
 * when it sent no region).  A new object or NULL (reported).
 */
static cJSON *
shown(struct receipt *r, const cJSON *entry)
{
	const char *note = NULL;
	cJSON *builtin = NULL;
	int64_t version = export_int_of(entry, "published_version");
	const char *lang = export_text_of(entry, "resolved_language");
	const char *country = export_text_of(entry, "country");
	const char *key = r->key;
	struct site_facts facts;
	struct visitor v;
	char *document = NULL, sha[65] = "", mine[65];
	cJSON *doc = NULL, *answer = NULL, *out = NULL;
	int rc;

	if (version > 0) {
		if ((rc = store_config_version(r->st, key, version, &document, sha)) != STORE_OK) {
			if (rc == STORE_NOTFOUND)
				say(r, "%s has no config version %lld", key, (long long)version);
			return NULL;
		}
		if (hash_sha256_hex(document, strlen(document), mine) != 0)
			goto out;
		if (strcmp(mine, export_text_of(entry, "config_sha256")) != 0) {
			say(r, "config version %lld of %s is not the document the "
			    "entry names (consentctl consent verify %s)", (long long)version, key, key);
			goto out;
		}
	}
	if (builtin_of(r, entry, &builtin, &note) != 0)
		goto out;
	if (builtin == NULL) {
		if ((out = cJSON_CreateObject()) == NULL) {
			say(r, "out of memory");
			goto out;
		}
		cJSON_AddNumberToObject(out, "version", (double)version);
		cJSON_AddItemToObject(out, "config_sha256", version > 0 ? cJSON_CreateString(sha) : cJSON_CreateNull());
		cJSON_AddStringToObject(out, "builtin_sha256", export_text_of(entry, "builtin_sha256"));
		cJSON_AddStringToObject(out, "builtin_note", note);
		goto out;
	}
	memset(&v, 0, sizeof(v));
	v.region = *export_text_of(entry, "region") ? export_text_of(entry, "region") : NULL;
	v.lang = *lang ? lang : *export_text_of(entry, "language") ? export_text_of(entry, "language") : NULL;
	if (strlen(country) < sizeof(v.geo.country))
		memcpy(v.geo.country, country, strlen(country) + 1);
	memset(&facts, 0, sizeof(facts));
	facts.name = r->site->name;
	facts.free_tier = r->site->free_tier;
	facts.version = version;
	/* Nothing published: the built-in document itself was served. */
	facts.doc_is_builtin = document == NULL;
	if (document == NULL) {
		doc = builtin;
		builtin = NULL;
	} else {
		doc = resolve_document(document);
	}
	if (doc == NULL || (answer = resolve_config_over(doc, builtin, &v, &facts)) == NULL ||
	    (out = cJSON_CreateObject()) == NULL) {
		say(r, "cannot resolve config version %lld of %s", (long long)version, key);
		goto out;
	}
	cJSON_AddNumberToObject(out, "version", (double)version);
	cJSON_AddItemToObject(out, "config_sha256", version > 0 ? cJSON_CreateString(sha) : cJSON_CreateNull());
	cJSON_AddItemToObject(out, "region", member_copy(answer, "resolvedRegion"));
	cJSON_AddItemToObject(out, "language", member_copy(answer, "resolvedLanguage"));
	cJSON_AddItemToObject(out, "content", member_copy(answer, "resolvedContent"));
	cJSON_AddItemToObject(out, "ui", member_copy(answer, "resolvedUi"));
	cJSON_AddItemToObject(out, "categories", member_copy(answer, "sdkCategories"));
	cJSON_AddItemToObject(out, "builtin_sha256", *export_text_of(entry, "builtin_sha256") ?
	    cJSON_CreateString(export_text_of(entry, "builtin_sha256")) : cJSON_CreateNull());
	if (note != NULL)
		cJSON_AddStringToObject(out, "builtin_note", note);
out:
	cJSON_Delete(builtin);
	cJSON_Delete(answer);
	cJSON_Delete(doc);
	free(document);
	return out;
}

/* The leaves of one seal, and where the entry sought is among them. */
struct leaf_find {
	struct chain_leaves l;
	int64_t entry;   /* its id */
	int64_t index;   /* its leaf index, -1 until found */
};

/* store_row_fn: every leaf's digest; the index of the live entry sought. */
static int
find_leaf(const cJSON *row, void *arg)
{
	struct leaf_find *f = arg;
	const cJSON *d = cJSON_GetObjectItemCaseSensitive(row, "digest");

	if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(row, "pruned")) &&
	    export_int_of(row, "id") == f->entry)
		f->index = (int64_t)f->l.n;
	return chain_leaves_add(&f->l, cJSON_IsString(d) ? d->valuestring : "") == 0 ? 0 : STORE_ERROR;
}

/*
 * The inclusion proof of the entry in its seal (RFC 9162 2.1.3), checked
 * here before it is handed out: a new object, or NULL (reported).
 */
static cJSON *
inclusion(struct receipt *r, const cJSON *row)
{
	const char *key = r->key;
	int64_t seq = export_int_of(row, "seal");
	const cJSON *seal = NULL, *s;
	struct leaf_find f;
	char (*path)[65] = NULL;
	size_t len = 0;
	cJSON *out = NULL, *arr;

	cJSON_ArrayForEach(s, r->seals)
		if (export_int_of(s, "seq") == seq)
			seal = s;
	if (seal == NULL) {
		say(r, "seal %lld of %s is missing", (long long)seq, key);
		return NULL;
	}
	memset(&f, 0, sizeof(f));
	f.entry = export_int_of(row, "id");
	f.index = -1;
	if (store_seal_leaves(r->st, key, seq, find_leaf, &f) != STORE_OK)
		goto out;
	if (f.index < 0 || strcmp(f.l.digests[f.index], export_text_of(row, "digest")) != 0 ||
	    proof_inclusion((const char *const *)f.l.digests, f.l.n, (size_t)f.index, &path,
	        &len) != 0 ||
	    !proof_inclusion_ok(export_text_of(row, "digest"), (size_t)f.index, f.l.n,
	        (const char (*)[65])path, len, export_text_of(seal, "root"))) {
		say(r, "entry %lld of %s is not in its seal %lld (consentctl consent "
		    "verify %s)", (long long)f.entry, key, (long long)seq, key);
		goto out;
	}
	if ((out = cJSON_CreateObject()) == NULL || (arr = cJSON_CreateArray()) == NULL) {
		cJSON_Delete(out);
		out = NULL;
		say(r, "out of memory");
		goto out;
	}
	cJSON_AddNumberToObject(out, "seal", (double)seq);
	cJSON_AddNumberToObject(out, "leaf_index", (double)f.index);
	cJSON_AddNumberToObject(out, "tree_size", (double)f.l.n);
	for (size_t i = 0; i < len; i++)
		cJSON_AddItemToArray(arr, cJSON_CreateString(path[i]));
	cJSON_AddItemToObject(out, "path", arr);
	cJSON_AddStringToObject(out, "root", export_text_of(seal, "root"));
	cJSON_AddStringToObject(out, "seal_hash", export_text_of(seal, "hash"));
	cJSON_AddStringToObject(out, "sealed_at", export_text_of(seal, "sealed_at"));
out:
	free(path);
	chain_leaves_free(&f.l);
	return out;
}

static int
receipt_entry(const cJSON *row, void *arg)
{
	struct receipt *r = arg;
	cJSON *item = cJSON_CreateObject(), *e = export_entry(row), *sh = NULL, *pr = NULL;

	if (item == NULL || e == NULL) {
		cJSON_Delete(item);
		cJSON_Delete(e);
		say(r, "out of memory");
		return STORE_ERROR;
	}
	cJSON_AddItemToObject(item, "entry", e);
	if ((sh = shown(r, row)) == NULL)
		goto fail;
	cJSON_AddItemToObject(item, "shown", sh);
	cJSON_AddStringToObject(item, "digest", export_text_of(row, "digest"));
	if (export_int_of(row, "seal") > 0) {
		if ((pr = inclusion(r, row)) == NULL)
			goto fail;
		cJSON_AddItemToObject(item, "proof", pr);
	} else {
		cJSON_AddNullToObject(item, "proof");
		cJSON_AddStringToObject(item, "note", "not sealed yet: the next "
		    "consentctl consent seal seals it");
	}
	cJSON_AddItemToArray(r->entries, item);
	return 0;
fail:
	cJSON_Delete(item);
	return STORE_ERROR;
}

int
receipt_make(struct store *st, const char *key, const char *anon_id_hash, cJSON **out,
             char *err, size_t errsz)
{
	struct receipt r;
	struct site site;
	cJSON *doc = NULL, *seals = NULL;
	int rc;

	*out = NULL;
	err[0] = '\0';
	memset(&r, 0, sizeof(r));
	r.err = err;
	r.errsz = errsz;
	if (store_snapshot(st, 1) != STORE_OK)
		return STORE_ERROR;
	if ((rc = store_site_get(st, key, &site)) != STORE_OK) {
		store_snapshot(st, 0);
		return rc;
	}
	rc = STORE_ERROR;
	if ((doc = cJSON_CreateObject()) == NULL || (seals = cJSON_CreateArray()) == NULL ||
	    cJSON_AddStringToObject(doc, "site_key", key) == NULL ||
	    cJSON_AddStringToObject(doc, "anon_id_hash", anon_id_hash) == NULL) {
		say(&r, "out of memory");
		goto out;
	}
	if (store_seals(st, key, export_collect, seals) != STORE_OK)
		goto out;
	r.st = st;
	r.key = key;
	r.site = &site;
	r.seals = seals;
	if ((r.entries = cJSON_AddArrayToObject(doc, "entries")) == NULL) {
		say(&r, "out of memory");
		goto out;
	}
	if (store_consent_find(st, key, anon_id_hash, receipt_entry, &r) != STORE_OK)
		goto out;
	*out = doc;
	doc = NULL;
	rc = STORE_OK;
out:
	store_snapshot(st, 0);
	cJSON_Delete(doc);
	cJSON_Delete(seals);
	store_site_clear(&site);
	return rc;
}
