/* ctl_proof.c: consentctl consent seal, verify, head, receipt, find, erase, and purge. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "ctl.h"
#include "config/defaults.h"
#include "base/hash.h"
#include "proof/proof.h"
#include "config/resolve.h"

/* ---- seal ---- */

/* store_seal_fn: the tree over the leaves, and the seal's hash. */
static int
make_seal(void *arg, const char *key, const struct store_leaf *l, size_t n,
          struct store_seal *s)
{
	const char **d = malloc(n * sizeof(*d));
	struct proof_seal ps;
	int rc = -1;

	(void)arg;
	if (d == NULL)
		return ctl_say(-1, "out of memory");
	for (size_t i = 0; i < n; i++)
		d[i] = l[i].digest;
	if (proof_tree_root(d, n, s->root) == 0) {
		memset(&ps, 0, sizeof(ps));
		ps.seq = s->seq;
		memcpy(ps.sealed_at, s->sealed_at, sizeof(ps.sealed_at));
		ps.tree_size = (int64_t)n;
		memcpy(ps.root, s->root, 65);
		memcpy(ps.prev, s->prev, 65);
		s->tree_size = (int64_t)n;
		rc = proof_seal_hash(key, &ps, s->hash);
	}
	free(d);
	return rc;
}

int
ctl_seal_site(struct ctl *c, const char *key)
{
	int64_t sealed, sealed_any = 0;
	int rc, tries = 0;

	do {
		/* The first seal looks back SEAL_SLACK_SECONDS before the last
		 * one's last entry (entries committed late); the next ones of
		 * this run go on where the one before ended. */
		rc = store_seal(c->st, key, SEAL_ENTRIES_MAX, sealed_any == 0 ?
		    SEAL_SLACK_SECONDS : 0, make_seal, NULL, &sealed);
		sealed_any += rc == STORE_OK ? sealed : 0;
		if (rc == STORE_EXISTS && ++tries < 5)   /* another sealer went first */
			continue;
		if (rc != STORE_OK)
			return rc == STORE_EXISTS
			    ? ctl_say(EXIT_FAIL, "seal of %s: another seal ran at the same time; "
			        "run it again", key)
			    : ctl_store_failed(rc, key);
		/* A full seal may have left more; a partial one took all there
		 * were, and entries arriving meanwhile wait for the next run (else
		 * a steady stream of consents would keep this loop going). */
	} while (rc == STORE_EXISTS || sealed == SEAL_ENTRIES_MAX);
	return EXIT_OK;
}

static int
seal_each(const char *key, int64_t days, void *arg)
{
	(void)days;
	return ctl_seal_site(arg, key) == EXIT_OK ? 0 : STORE_ERROR;
}

int
cmd_consent_seal(struct ctl *c)
{
	if (c->noperands == 1 && ctl_check_key(c->operands[0]) != 0)
		return EXIT_USAGE;
	if (ctl_store(c) == NULL)
		return EXIT_FAIL;
	if (c->noperands == 1)
		return ctl_seal_site(c, c->operands[0]);
	return store_site_keys(c->st, seal_each, c) == STORE_OK ? EXIT_OK : EXIT_FAIL;
}

/* ---- verify ---- */

/* What verify found so far; the first failure ends it. */
struct check {
	const char *key;
	char failure[400];
	int64_t entry;         /* the entry the failure names, or 0 */
	int64_t seal;          /* the seal it names, or 0 */
	char **digests;        /* the current seal's leaves */
	size_t n, cap;
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
	if (k->n == k->cap) {
		size_t cap = k->cap ? k->cap * 2 : 1024;
		char **p = realloc(k->digests, cap * sizeof(*p));

		if (p == NULL)
			return ctl_say(STORE_ERROR, "out of memory");
		k->digests = p;
		k->cap = cap;
	}
	if ((k->digests[k->n] = strdup(d->valuestring)) == NULL)
		return ctl_say(STORE_ERROR, "out of memory");
	k->n++;
	return 0;
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

static void
drop_digests(struct check *k)
{
	for (size_t i = 0; i < k->n; i++)
		free(k->digests[i]);
	k->n = 0;
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

/* One seal against its leaves and the previous seal's hash: 0, 1 (failure
 * recorded) or STORE_ERROR. */
static int
check_seal(struct ctl *c, struct check *k, const cJSON *seal, int64_t seq, const char *prev)
{
	struct proof_seal s;
	char root[65], hash[65];
	int rc;

	k->seal = seq;
	if (seal_of(seal, &s) != 0 || s.seq != seq) {
		snprintf(k->failure, sizeof(k->failure), "seal %lld: malformed or out of sequence",
		    (long long)seq);
		return 1;
	}
	drop_digests(k);
	if ((rc = store_seal_leaves(c->st, k->key, seq, check_leaf, k)) != STORE_OK)
		return rc;
	if ((int64_t)k->n != s.tree_size) {
		snprintf(k->failure, sizeof(k->failure),
		    "seal %lld: it covers %lld entries, %zu are there", (long long)seq,
		    (long long)s.tree_size, k->n);
		return 1;
	}
	if (proof_tree_root((const char *const *)k->digests, k->n, root) != 0)
		return STORE_ERROR;
	if (strcmp(root, s.root) != 0) {
		snprintf(k->failure, sizeof(k->failure),
		    "seal %lld: its root does not match its entries", (long long)seq);
		return 1;
	}
	if (strcmp(s.prev, prev) != 0) {
		snprintf(k->failure, sizeof(k->failure),
		    "seal %lld: it does not name the hash of seal %lld", (long long)seq,
		    (long long)(seq - 1));
		return 1;
	}
	if (proof_seal_hash(k->key, &s, hash) != 0)
		return STORE_ERROR;
	if (strcmp(hash, text_of(seal, "hash")) != 0) {
		snprintf(k->failure, sizeof(k->failure),
		    "seal %lld: its hash does not match its fields", (long long)seq);
		return 1;
	}
	k->entry = 0;
	k->seal = 0;
	return 0;
}

/* store_row_fn over the published versions: the stored SHA-256 of each. */
static int
check_config(const cJSON *row, void *arg)
{
	struct check *k = arg;
	const char *doc = text_of(row, "document");
	char sha[65];

	if (hash_sha256_hex(doc, strlen(doc), sha) != 0)
		return STORE_ERROR;
	if (strcmp(sha, text_of(row, "sha256")) != 0) {
		snprintf(k->failure, sizeof(k->failure),
		    "config version %lld: its document does not match its SHA-256",
		    (long long)int_of(row, "version"));
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

/* The outcome: text (failure on stderr) or JSON on stdout. */
static int
verify_report(struct ctl *c, struct check *k, const cJSON *seals, int64_t total)
{
	const cJSON *head = cJSON_GetArrayItem(seals, cJSON_GetArraySize(seals) - 1);
	int failed = k->failure[0] != '\0';
	cJSON *out;
	int rc;

	if (!(c->given & OPT_JSON)) {
		if (failed)
			return ctl_say(EXIT_FAIL, "verify %s: %s", k->key, k->failure);
		printf("%s: %lld entries verified (%lld sealed, %lld not sealed yet), "
		    "%d seals, %lld pruned leaves\n", k->key, (long long)total,
		    (long long)k->live, (long long)k->unsealed, cJSON_GetArraySize(seals),
		    (long long)k->pruned);
		if (head != NULL)
			printf("head: seq %lld, tree_size %lld, sealed_at %s, hash %s\n",
			    (long long)int_of(head, "seq"), (long long)int_of(head, "tree_size"),
			    text_of(head, "sealed_at"), text_of(head, "hash"));
		if (k->builtin_missing > 0)
			printf("built-in texts not recorded: %lld entries name built-in texts that "
			    "no consentctl init or config publish of their build recorded; their "
			    "receipts show no texts\n", (long long)k->builtin_missing);
		return EXIT_OK;
	}
	if ((out = cJSON_CreateObject()) == NULL)
		return ctl_say(EXIT_FAIL, "out of memory");
	cJSON_AddBoolToObject(out, "ok", !failed);
	if (failed) {
		cJSON_AddStringToObject(out, "error", k->failure);
		if (k->entry > 0)
			cJSON_AddNumberToObject(out, "entry", (double)k->entry);
		if (k->seal > 0)
			cJSON_AddNumberToObject(out, "seal", (double)k->seal);
	} else {
		cJSON_AddNumberToObject(out, "entries", (double)total);
		cJSON_AddNumberToObject(out, "sealed", (double)k->live);
		cJSON_AddNumberToObject(out, "unsealed", (double)k->unsealed);
		cJSON_AddNumberToObject(out, "seals", cJSON_GetArraySize(seals));
		cJSON_AddNumberToObject(out, "pruned", (double)k->pruned);
		cJSON_AddNumberToObject(out, "builtin_not_recorded", (double)k->builtin_missing);
		cJSON_AddItemToObject(out, "head", head ? cJSON_Duplicate(head, 1) : cJSON_CreateNull());
	}
	rc = ctl_print_json(out);
	cJSON_Delete(out);
	return rc == EXIT_OK && failed ? EXIT_FAIL : rc;
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
	const cJSON *seal;
	char prev[65];
	int64_t seq = 0, total = 0;
	int rc = EXIT_FAIL, found_head = 0;

	if (ctl_check_key(key) != 0)
		return EXIT_USAGE;
	if (c->head != NULL && (strlen(c->head) != 64 || strspn(c->head, "0123456789abcdef") != 64))
		return ctl_say(EXIT_USAGE, "invalid --head '%s': the 64 hex digits of a seal's hash",
		    c->head);
	if (ctl_store(c) == NULL)
		return EXIT_FAIL;
	memset(&k, 0, sizeof(k));
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
	memcpy(prev, proof_no_seal, 65);
	cJSON_ArrayForEach(seal, seals) {
		if (k.failure[0] != '\0')
			break;
		if ((rc = check_seal(c, &k, seal, ++seq, prev)) != 0 && k.failure[0] == '\0') {
			rc = ctl_store_failed(rc, key);
			goto out;
		}
		memcpy(prev, text_of(seal, "hash"), strlen(text_of(seal, "hash")) == 64 ? 65 : 1);
		if (c->head != NULL && strcmp(c->head, text_of(seal, "hash")) == 0)
			found_head = 1;
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
	rc = verify_report(c, &k, seals, total);
out:
	store_snapshot(c->st, 0);
	drop_digests(&k);
	free(k.digests);
	cJSON_Delete(seals);
	return rc;
}

/* ---- head ---- */

/* A seal row as the line an operator records: the site key first. */
static int
print_seal(const char *key, const cJSON *seal)
{
	cJSON *line = cJSON_CreateObject();
	const cJSON *v;
	char *t = NULL;

	if (line != NULL && cJSON_AddStringToObject(line, "site_key", key) != NULL) {
		cJSON_ArrayForEach(v, seal)
			cJSON_AddItemToObject(line, v->string, cJSON_Duplicate(v, 1));
		t = cJSON_PrintUnformatted(line);
	}
	cJSON_Delete(line);
	if (t == NULL)
		return ctl_say(EXIT_FAIL, "out of memory");
	puts(t);
	free(t);
	return EXIT_OK;
}

int
cmd_consent_head(struct ctl *c)
{
	const char *key = c->operands[0];
	cJSON *seals = NULL;
	const cJSON *s;
	int rc;

	if (ctl_check_key(key) != 0)
		return EXIT_USAGE;
	if (ctl_store(c) == NULL)
		return EXIT_FAIL;
	if ((seals = cJSON_CreateArray()) == NULL)
		return ctl_say(EXIT_FAIL, "out of memory");
	if ((rc = store_seals(c->st, key, ctl_collect, seals)) != STORE_OK) {
		rc = ctl_store_failed(rc, key);
	} else if (cJSON_GetArraySize(seals) == 0) {
		rc = ctl_say(EXIT_FAIL, "%s has no seal yet (consentctl consent seal %s)", key, key);
	} else if (c->given & OPT_ALL) {
		rc = EXIT_OK;
		cJSON_ArrayForEach(s, seals)
			if (rc == EXIT_OK)
				rc = print_seal(key, s);
	} else {
		rc = print_seal(key, cJSON_GetArrayItem(seals, cJSON_GetArraySize(seals) - 1));
	}
	cJSON_Delete(seals);
	return rc;
}

/* ---- find and receipt ---- */

/* A log row as the export gives it (categories parsed; no id, no pruned):
 * a new object, or NULL when out of memory. */
static cJSON *
as_export(const cJSON *row)
{
	cJSON *e = cJSON_CreateObject(), *v;
	const cJSON *m;

	if (e == NULL)
		return NULL;
	cJSON_ArrayForEach(m, row) {
		if (strcmp(m->string, "id") == 0 || strcmp(m->string, "pruned") == 0)
			continue;
		if (strcmp(m->string, "categories") == 0 && cJSON_IsString(m) &&
		    (v = cJSON_Parse(m->valuestring)) != NULL)
			;
		else
			v = cJSON_Duplicate(m, 1);
		if (v == NULL || !cJSON_AddItemToObject(e, m->string, v)) {
			cJSON_Delete(v);
			cJSON_Delete(e);
			return NULL;
		}
	}
	return e;
}

/*
 * The operands of a command on one visitor's entries (find, receipt,
 * erase): the site key checked, the hash of --anon-id in hash, and the
 * store open.  EXIT_OK, EXIT_USAGE or EXIT_FAIL (reported).
 */
static int
visitor_args(struct ctl *c, char hash[65])
{
	int rc;

	if (ctl_check_key(c->operands[0]) != 0)
		return EXIT_USAGE;
	if ((rc = ctl_check_anon_id(c, hash)) != 0)
		return rc;
	if (ctl_store(c) == NULL)
		return EXIT_FAIL;
	return EXIT_OK;
}

static int
print_found(const cJSON *row, void *arg)
{
	cJSON *e = as_export(row);
	int rc;

	(void)arg;
	if (e == NULL)
		return ctl_say(STORE_ERROR, "out of memory");
	rc = ctl_export_jsonl(e, NULL);
	cJSON_Delete(e);
	return rc;
}

int
cmd_consent_find(struct ctl *c)
{
	const char *key = c->operands[0];
	char hash[65];
	int rc;

	if ((rc = visitor_args(c, hash)) != EXIT_OK)
		return rc;
	rc = store_consent_find(c->st, key, hash, print_found, NULL);
	return rc == STORE_OK ? EXIT_OK : ctl_store_failed(rc, key);
}

/* Copy of a member of the config answer, or null. */
static cJSON *
member_copy(const cJSON *obj, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);

	return v != NULL ? cJSON_Duplicate(v, 1) : cJSON_CreateNull();
}

/*
 * The built-in document in force for the entry (README "The built-in texts
 * of an entry"): that of its builtin_sha256 as recorded, checked against
 * it; the compiled one, with a note, for an entry that records none (stored
 * before schema version 4).  *builtin NULL with a note and 0: the entry
 * names built-in texts that were never recorded, nothing is shown.  0, or
 * -1 (reported).
 */
static int
builtin_of(struct ctl *c, const cJSON *entry, cJSON **builtin, const char **note)
{
	const char *sha = text_of(entry, "builtin_sha256");
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
			return ctl_say(-1, "the built-in texts do not parse");
		return 0;
	}
	if ((rc = store_builtin_get(c->st, sha, &pieces, &len)) == STORE_NOTFOUND) {
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
		ctl_say(-1, "built-in texts %s do not match their SHA-256 (consentctl consent "
		    "verify)", sha);
		goto fail;
	}
	if ((*builtin = defaults_from_pieces(pieces, len)) == NULL) {
		ctl_say(-1, "built-in texts %s do not parse", sha);
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
shown(struct ctl *c, const char *key, const struct site *site, const cJSON *entry)
{
	const char *note = NULL;
	cJSON *builtin = NULL;
	int64_t version = int_of(entry, "published_version");
	const char *lang = text_of(entry, "resolved_language");
	const char *country = text_of(entry, "country");
	struct site_facts facts;
	struct visitor v;
	char *document = NULL, sha[65] = "", mine[65];
	cJSON *doc = NULL, *answer = NULL, *out = NULL;
	int rc;

	if (version > 0) {
		if ((rc = store_config_version(c->st, key, version, &document, sha)) != STORE_OK) {
			if (rc == STORE_NOTFOUND)
				ctl_say(EXIT_FAIL, "%s has no config version %lld", key, (long long)version);
			return NULL;
		}
		if (hash_sha256_hex(document, strlen(document), mine) != 0)
			goto out;
		if (strcmp(mine, text_of(entry, "config_sha256")) != 0) {
			ctl_say(EXIT_FAIL, "config version %lld of %s is not the document the "
			    "entry names (consentctl consent verify %s)", (long long)version, key, key);
			goto out;
		}
	}
	if (builtin_of(c, entry, &builtin, &note) != 0)
		goto out;
	if (builtin == NULL) {
		if ((out = cJSON_CreateObject()) == NULL) {
			ctl_say(EXIT_FAIL, "out of memory");
			goto out;
		}
		cJSON_AddNumberToObject(out, "version", (double)version);
		cJSON_AddItemToObject(out, "config_sha256", version > 0 ? cJSON_CreateString(sha) : cJSON_CreateNull());
		cJSON_AddStringToObject(out, "builtin_sha256", text_of(entry, "builtin_sha256"));
		cJSON_AddStringToObject(out, "builtin_note", note);
		goto out;
	}
	memset(&v, 0, sizeof(v));
	v.region = *text_of(entry, "region") ? text_of(entry, "region") : NULL;
	v.lang = *lang ? lang : *text_of(entry, "language") ? text_of(entry, "language") : NULL;
	if (strlen(country) < sizeof(v.geo.country))
		memcpy(v.geo.country, country, strlen(country) + 1);
	memset(&facts, 0, sizeof(facts));
	facts.name = site->name;
	facts.free_tier = site->free_tier;
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
		ctl_say(EXIT_FAIL, "cannot resolve config version %lld of %s", (long long)version, key);
		goto out;
	}
	cJSON_AddNumberToObject(out, "version", (double)version);
	cJSON_AddItemToObject(out, "config_sha256", version > 0 ? cJSON_CreateString(sha) : cJSON_CreateNull());
	cJSON_AddItemToObject(out, "region", member_copy(answer, "resolvedRegion"));
	cJSON_AddItemToObject(out, "language", member_copy(answer, "resolvedLanguage"));
	cJSON_AddItemToObject(out, "content", member_copy(answer, "resolvedContent"));
	cJSON_AddItemToObject(out, "ui", member_copy(answer, "resolvedUi"));
	cJSON_AddItemToObject(out, "categories", member_copy(answer, "sdkCategories"));
	cJSON_AddItemToObject(out, "builtin_sha256", *text_of(entry, "builtin_sha256") ?
	    cJSON_CreateString(text_of(entry, "builtin_sha256")) : cJSON_CreateNull());
	if (note != NULL)
		cJSON_AddStringToObject(out, "builtin_note", note);
out:
	cJSON_Delete(builtin);
	cJSON_Delete(answer);
	cJSON_Delete(doc);
	free(document);
	return out;
}

/* The leaves of one seal, as verify collects them (no check failing). */
static int
collect_leaf(const cJSON *row, void *arg)
{
	struct check *k = arg;
	const cJSON *d = cJSON_GetObjectItemCaseSensitive(row, "digest");
	char **p;

	if (k->n == k->cap) {
		k->cap = k->cap ? k->cap * 2 : 1024;
		if ((p = realloc(k->digests, k->cap * sizeof(*p))) == NULL)
			return ctl_say(STORE_ERROR, "out of memory");
		k->digests = p;
	}
	if ((k->digests[k->n] = strdup(cJSON_IsString(d) ? d->valuestring : "")) == NULL)
		return ctl_say(STORE_ERROR, "out of memory");
	if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(row, "pruned")))
		k->live = int_of(row, "id") == k->entry ? (int64_t)k->n : k->live;
	k->n++;
	return 0;
}

/*
 * The inclusion proof of the entry in its seal (RFC 9162 2.1.3), checked
 * here before it is handed out: a new object, or NULL (reported).
 */
static cJSON *
inclusion(struct ctl *c, const char *key, const cJSON *row, const cJSON *seals)
{
	int64_t seq = int_of(row, "seal");
	const cJSON *seal = NULL, *s;
	struct check k;
	char (*path)[65] = NULL;
	size_t len = 0;
	cJSON *out = NULL, *arr;

	cJSON_ArrayForEach(s, seals)
		if (int_of(s, "seq") == seq)
			seal = s;
	if (seal == NULL) {
		ctl_say(EXIT_FAIL, "seal %lld of %s is missing", (long long)seq, key);
		return NULL;
	}
	memset(&k, 0, sizeof(k));
	k.entry = int_of(row, "id");
	k.live = -1;
	if (store_seal_leaves(c->st, key, seq, collect_leaf, &k) != STORE_OK)
		goto out;
	if (k.live < 0 || strcmp(k.digests[k.live], text_of(row, "digest")) != 0 ||
	    proof_inclusion((const char *const *)k.digests, k.n, (size_t)k.live, &path, &len) != 0 ||
	    !proof_inclusion_ok(text_of(row, "digest"), (size_t)k.live, k.n,
	        (const char (*)[65])path, len, text_of(seal, "root"))) {
		ctl_say(EXIT_FAIL, "entry %lld of %s is not in its seal %lld (consentctl consent "
		    "verify %s)", (long long)k.entry, key, (long long)seq, key);
		goto out;
	}
	if ((out = cJSON_CreateObject()) == NULL || (arr = cJSON_CreateArray()) == NULL) {
		cJSON_Delete(out);
		out = NULL;
		ctl_say(EXIT_FAIL, "out of memory");
		goto out;
	}
	cJSON_AddNumberToObject(out, "seal", (double)seq);
	cJSON_AddNumberToObject(out, "leaf_index", (double)k.live);
	cJSON_AddNumberToObject(out, "tree_size", (double)k.n);
	for (size_t i = 0; i < len; i++)
		cJSON_AddItemToArray(arr, cJSON_CreateString(path[i]));
	cJSON_AddItemToObject(out, "path", arr);
	cJSON_AddStringToObject(out, "root", text_of(seal, "root"));
	cJSON_AddStringToObject(out, "seal_hash", text_of(seal, "hash"));
	cJSON_AddStringToObject(out, "sealed_at", text_of(seal, "sealed_at"));
out:
	free(path);
	drop_digests(&k);
	free(k.digests);
	return out;
}

/* The receipt being built: one element per entry. */
struct receipt {
	struct ctl *c;
	const char *key;
	const struct site *site;
	const cJSON *seals;
	cJSON *entries;
};

static int
receipt_entry(const cJSON *row, void *arg)
{
	struct receipt *r = arg;
	cJSON *item = cJSON_CreateObject(), *e = as_export(row), *sh = NULL, *pr = NULL;

	if (item == NULL || e == NULL) {
		cJSON_Delete(item);
		cJSON_Delete(e);
		return ctl_say(STORE_ERROR, "out of memory");
	}
	cJSON_AddItemToObject(item, "entry", e);
	if ((sh = shown(r->c, r->key, r->site, row)) == NULL)
		goto fail;
	cJSON_AddItemToObject(item, "shown", sh);
	cJSON_AddStringToObject(item, "digest", text_of(row, "digest"));
	if (int_of(row, "seal") > 0) {
		if ((pr = inclusion(r->c, r->key, row, r->seals)) == NULL)
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
cmd_consent_receipt(struct ctl *c)
{
	const char *key = c->operands[0];
	struct receipt r;
	struct site site;
	cJSON *doc = NULL, *seals = NULL;
	const cJSON *e;
	char hash[65];
	int rc;

	if ((rc = visitor_args(c, hash)) != EXIT_OK)
		return rc;
	if (store_snapshot(c->st, 1) != STORE_OK)
		return EXIT_FAIL;
	if ((rc = store_site_get(c->st, key, &site)) != STORE_OK) {
		store_snapshot(c->st, 0);
		return ctl_store_failed(rc, key);
	}
	rc = EXIT_FAIL;
	if ((doc = cJSON_CreateObject()) == NULL || (seals = cJSON_CreateArray()) == NULL ||
	    cJSON_AddStringToObject(doc, "site_key", key) == NULL ||
	    cJSON_AddStringToObject(doc, "anon_id_hash", hash) == NULL) {
		ctl_say(EXIT_FAIL, "out of memory");
		goto out;
	}
	if (store_seals(c->st, key, ctl_collect, seals) != STORE_OK)
		goto out;
	r.c = c;
	r.key = key;
	r.site = &site;
	r.seals = seals;
	if ((r.entries = cJSON_AddArrayToObject(doc, "entries")) == NULL) {
		ctl_say(EXIT_FAIL, "out of memory");
		goto out;
	}
	if (store_consent_find(c->st, key, hash, receipt_entry, &r) != STORE_OK)
		goto out;
	if (c->given & OPT_JSON) {
		rc = ctl_print_json(doc);
	} else {
		int i = 0, n = cJSON_GetArraySize(r.entries);

		printf("receipt of %s for the visitor %s: %d entries\n", key, hash, n);
		rc = EXIT_OK;
		cJSON_ArrayForEach(e, r.entries) {
			printf("\n-- entry %d of %d\n", ++i, n);
			if (rc == EXIT_OK)
				rc = ctl_print_record(c, e);
		}
	}
out:
	store_snapshot(c->st, 0);
	cJSON_Delete(doc);
	cJSON_Delete(seals);
	store_site_clear(&site);
	return rc;
}

/* ---- erase ---- */

int
cmd_consent_erase(struct ctl *c)
{
	const char *key = c->operands[0];
	char hash[65];
	int64_t n;
	int rc;

	if ((rc = visitor_args(c, hash)) != EXIT_OK)
		return rc;
	if ((rc = store_consent_erase(c->st, key, hash, &n)) != STORE_OK)
		return ctl_store_failed(rc, key);
	printf("%lld\n", (long long)n);
	return EXIT_OK;
}

/* ---- purge ---- */

/* The UTC time days ago, in the stored form. */
static void
days_ago(int64_t days, char out[32])
{
	time_t t = time(NULL) - (time_t)days * 86400;
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(out, 32, "%Y-%m-%dT%H:%M:%S.000Z", &tm);
}

/* A pause between batches, so that waiting writers take the lock. */
static void
breathe(void)
{
	nanosleep(&(struct timespec){ 0, 2000000L }, NULL);
}

/* purge's walk over the sites: only one of them when a KEY was given. */
struct purge {
	struct ctl *c;
	const char *only;
};

static int
purge_site(const char *key, int64_t days, void *arg)
{
	struct purge *p = arg;
	struct ctl *c = p->c;
	int dry = (c->given & OPT_DRY_RUN) != 0, tty = isatty(2);
	int64_t total = 0, n, done = 0;
	char cutoff[32];

	if (days < 0 || (p->only != NULL && strcmp(p->only, key) != 0))
		return 0;
	days_ago(days, cutoff);
	if (store_purge_entries(c->st, key, cutoff, 0, 1, &total) != STORE_OK)
		return STORE_ERROR;
	if (dry) {
		printf("%s: %lld entries older than %lld days (before %s)\n", key,
		    (long long)total, (long long)days, cutoff);
		return 0;
	}
	/* Everything purged is sealed first, so that it leaves its leaf. */
	if (ctl_seal_site(c, key) != EXIT_OK)
		return STORE_ERROR;
	do {
		if (store_purge_entries(c->st, key, cutoff, PURGE_BATCH, 0, &n) != STORE_OK)
			return STORE_ERROR;
		done += n;
		if (tty)
			fprintf(stderr, "\rpurge %s: %lld of %lld entries", key, (long long)done,
			    (long long)total);
		breathe();
	} while (n > 0);
	if (tty)
		fputc('\n', stderr);
	return 0;
}

int
cmd_purge(struct ctl *c)
{
	const char *key = c->noperands == 1 ? c->operands[0] : NULL;
	int dry = (c->given & OPT_DRY_RUN) != 0;
	struct purge p = { c, key };
	char now[32], month[8];
	int64_t n, total = 0;
	int rc;

	if (key != NULL && ctl_check_key(key) != 0)
		return EXIT_USAGE;
	if (ctl_store(c) == NULL)
		return EXIT_FAIL;
	if (key != NULL) {
		struct site site;

		if ((rc = store_site_get(c->st, key, &site)) != STORE_OK)
			return ctl_store_failed(rc, key);
		store_site_clear(&site);
	}
	rc = store_site_keys(c->st, purge_site, &p);
	if (rc != STORE_OK)
		return EXIT_FAIL;
	/* Monthly visitors of months that are over: the count stays. */
	clock_now(now, month);
	if (dry) {
		if (store_purge_visitors(c->st, month, 0, 1, &total) != STORE_OK)
			return EXIT_FAIL;
		printf("monthly visitors: %lld rows of months before %s\n", (long long)total, month);
		return EXIT_OK;
	}
	do {
		if (store_purge_visitors(c->st, month, PURGE_BATCH, 0, &n) != STORE_OK)
			return EXIT_FAIL;
		breathe();
	} while (n > 0);
	return EXIT_OK;
}
