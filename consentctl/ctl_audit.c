/* ctl_audit.c: consentctl audit list, seal and verify, and the records consentctl writes of its own changes (ADMIN.md 8). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "admin/audit.h"
#include "base/nitems.h"
#include "admin/seal.h"
#include "ctl.h"

/* ---- recording ---- */

int
ctl_audit_set(struct ctl *c, const char *name, cJSON *value)
{
	if (value != NULL && (c->audit.detail != NULL ||
	    (c->audit.detail = cJSON_CreateObject()) != NULL) &&
	    cJSON_AddItemToObject(c->audit.detail, name, value))
		return EXIT_OK;
	cJSON_Delete(value);
	return ctl_say(EXIT_FAIL, "out of memory");
}

int
ctl_audit(struct ctl *c, const char *site, const char *action, const cJSON *detail,
          int64_t version)
{
	char *text = NULL;
	int rc = STORE_ERROR;

	if (detail == NULL || (text = cJSON_PrintUnformatted(detail)) != NULL)
		rc = store_audit_add(c->st, ctl_actor(), site, action, text, version);
	free(text);
	if (rc == STORE_OK)
		return EXIT_OK;
	return ctl_say(EXIT_FAIL, "%s%s%s: done, but its audit record could not be written",
	    action, site != NULL ? " " : "", site != NULL ? site : "");
}

/* ---- list ---- */

int
cmd_audit_list(struct ctl *c)
{
	static const struct ctl_column cols[] = {
		{"ID", "id"}, {"AT", "at"}, {"ACTOR", "actor"}, {"SITE", "site_key"},
		{"ACTION", "action"}, {"VERSION", "version"}, {"SEAL", "seal"},
		{"DETAIL", "detail"},
	};
	struct store_audit_filter f = { c->site, (c->given & OPT_NO_SITE) != 0, 0, AUDIT_LIST_MAX };
	cJSON *rows, *page = NULL, *last;
	int rc = EXIT_FAIL, n;

	if (c->site != NULL && f.no_site)
		return ctl_say(EXIT_USAGE, "audit list takes --site or --no-site, not both");
	if (c->site != NULL && ctl_check_key(c->site) != 0)
		return EXIT_USAGE;
	if (ctl_store(c) == NULL)
		return EXIT_FAIL;
	if ((rows = cJSON_CreateArray()) == NULL)
		return ctl_say(EXIT_FAIL, "out of memory");
	/* Page by page (keyset, by id), newest first. */
	do {
		cJSON_Delete(page);
		if ((page = cJSON_CreateArray()) == NULL) {
			rc = ctl_say(EXIT_FAIL, "out of memory");
			goto out;
		}
		if ((rc = store_audit_list(c->st, &f, ctl_collect, page)) != STORE_OK) {
			rc = ctl_store_failed(rc, c->site != NULL ? c->site : "");
			goto out;
		}
		n = cJSON_GetArraySize(page);
		if ((last = cJSON_GetArrayItem(page, n - 1)) != NULL)
			f.before = ctl_int_of(last, "id");
		while (cJSON_GetArraySize(page) > 0)
			cJSON_AddItemToArray(rows, cJSON_DetachItemFromArray(page, 0));
	} while (n == AUDIT_LIST_MAX);
	rc = ctl_print_rows(c, rows, cols, nitems(cols));
out:
	cJSON_Delete(page);
	cJSON_Delete(rows);
	return rc;
}

/* ---- seal ---- */

/* Seal every record of one chain (NULL: of no site), SEAL_ENTRIES_MAX at
 * a time: EXIT_OK or EXIT_FAIL (reported). */
static int
seal_chain(struct ctl *c, const char *key)
{
	int64_t sealed;
	int rc, tries = 0;

	do {
		rc = store_audit_seal(c->st, key, SEAL_ENTRIES_MAX, seal_make, NULL, &sealed);
		if (rc == STORE_EXISTS && ++tries < 5)   /* another sealer went first */
			continue;
		if (rc == STORE_EXISTS)
			return ctl_say(EXIT_FAIL, "audit seal: another seal ran at the same time; "
			    "run it again");
		if (rc != STORE_OK)
			return ctl_store_failed(rc, key != NULL ? key : "");
	} while (rc == STORE_EXISTS || sealed == SEAL_ENTRIES_MAX);
	return EXIT_OK;
}

/* store_key_fn: seal_chain() on a site's chain. */
static int
seal_each(const char *key, int64_t days, void *arg)
{
	(void)days;
	return seal_chain(arg, key) == EXIT_OK ? 0 : STORE_ERROR;
}

int
cmd_audit_seal(struct ctl *c)
{
	if (ctl_store(c) == NULL)
		return EXIT_FAIL;
	if (seal_chain(c, NULL) != EXIT_OK)
		return EXIT_FAIL;
	return store_site_keys(c->st, seal_each, c) == STORE_OK ? EXIT_OK : EXIT_FAIL;
}

/* ---- verify ---- */

/* What verify found over the chains so far. */
struct verify {
	struct ctl *c;
	cJSON *chains;         /* one object a chain, for --json */
	int64_t sealed, unsealed, seals;
	int found_head;        /* a chain holds --head */
	char failure[600];     /* the first chain's fault, named */
	int64_t record, seal;
};

/* Verify one chain (key NULL: of no site); a fault ends the walk (1). */
static int
verify_chain(struct verify *k, const char *key)
{
	char chain[STORE_AUDIT_CHAIN_MAX];
	struct audit_verdict v;
	cJSON *o;
	int rc;

	store_audit_chain(key, chain);
	if ((rc = audit_verify(k->c->st, key, k->c->head, &v)) != STORE_OK)
		return rc;
	k->found_head |= v.found_head;
	if (v.failure[0] != '\0') {
		snprintf(k->failure, sizeof(k->failure), "%s: %s", chain, v.failure);
		k->record = v.record;
		k->seal = v.seal;
		return 1;
	}
	k->sealed += v.sealed;
	k->unsealed += v.unsealed;
	k->seals += v.seals;
	if ((o = cJSON_CreateObject()) == NULL || !cJSON_AddItemToArray(k->chains, o)) {
		cJSON_Delete(o);
		return ctl_say(STORE_ERROR, "out of memory");
	}
	cJSON_AddItemToObject(o, "site_key", key != NULL ? cJSON_CreateString(key) : cJSON_CreateNull());
	cJSON_AddStringToObject(o, "chain", chain);
	cJSON_AddNumberToObject(o, "sealed", (double)v.sealed);
	cJSON_AddNumberToObject(o, "unsealed", (double)v.unsealed);
	cJSON_AddNumberToObject(o, "seals", (double)v.seals);
	cJSON_AddItemToObject(o, "head", v.head[0] != '\0' ? cJSON_CreateString(v.head) :
	    cJSON_CreateNull());
	return 0;
}

/* store_key_fn: verify_chain() on a site's chain. */
static int
verify_each(const char *key, int64_t days, void *arg)
{
	(void)days;
	return verify_chain(arg, key);
}

/* The verdict: text (failure on stderr) or JSON on stdout. */
static int
print_verdict(struct verify *k)
{
	int failed = k->failure[0] != '\0';
	const cJSON *ch;
	cJSON *out;

	if (!(k->c->given & OPT_JSON)) {
		if (failed)
			return ctl_say(EXIT_FAIL, "audit verify: %s", k->failure);
		printf("audit: %lld records verified (%lld sealed, %lld not sealed yet), %lld seals\n",
		    (long long)(k->sealed + k->unsealed), (long long)k->sealed,
		    (long long)k->unsealed, (long long)k->seals);
		cJSON_ArrayForEach(ch, k->chains)
			if (cJSON_IsString(cJSON_GetObjectItemCaseSensitive(ch, "head")))
				printf("head %s: %s\n", ctl_text_of(ch, "chain"), ctl_text_of(ch, "head"));
		return EXIT_OK;
	}
	if ((out = cJSON_CreateObject()) != NULL) {
		cJSON_AddNumberToObject(out, "records", (double)(k->sealed + k->unsealed));
		cJSON_AddNumberToObject(out, "sealed", (double)k->sealed);
		cJSON_AddNumberToObject(out, "unsealed", (double)k->unsealed);
		cJSON_AddNumberToObject(out, "seals", (double)k->seals);
		cJSON_AddItemReferenceToObject(out, "chains", k->chains);
	}
	return ctl_print_verdict(k->failure, "record", k->record, k->seal, out);
}

/*
 * Every chain (or the one of --site), in one snapshot: the chain of no
 * site first, then each site's by key.  The first fault ends it.  --head:
 * a seal hash recorded elsewhere, which one of the chains must hold.
 */
int
cmd_audit_verify(struct ctl *c)
{
	struct verify k;
	int rc;

	if (c->site != NULL && ctl_check_key(c->site) != 0)
		return EXIT_USAGE;
	if (c->head != NULL && ctl_check_head(c->head) != 0)
		return EXIT_USAGE;
	if (ctl_store(c) == NULL)
		return EXIT_FAIL;
	memset(&k, 0, sizeof(k));
	k.c = c;
	if ((k.chains = cJSON_CreateArray()) == NULL)
		return ctl_say(EXIT_FAIL, "out of memory");
	if (store_snapshot(c->st, 1) != STORE_OK) {
		cJSON_Delete(k.chains);
		return EXIT_FAIL;
	}
	if (c->site != NULL)
		rc = verify_chain(&k, c->site);
	else if ((rc = verify_chain(&k, NULL)) == 0)
		rc = store_site_keys(c->st, verify_each, &k);
	if (rc < 0 || (rc > 0 && k.failure[0] == '\0')) {
		rc = ctl_store_failed(rc, c->site != NULL ? c->site : "");
	} else {
		if (k.failure[0] == '\0' && c->head != NULL && !k.found_head)
			snprintf(k.failure, sizeof(k.failure), "the recorded head %s is not in the "
			    "chain%s of seals", c->head, c->site != NULL ? "" : "s");
		rc = print_verdict(&k);
	}
	store_snapshot(c->st, 0);
	cJSON_Delete(k.chains);
	return rc;
}
