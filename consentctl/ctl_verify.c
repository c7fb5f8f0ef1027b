/* ctl_verify.c: consentctl consent verify: every digest, tree and seal of a site recomputed (verify.c). */
#include <stdio.h>

#include "admin/export.h"
#include "admin/verify.h"
#include "ctl.h"

/* The verdict: text (failure on stderr) or JSON on stdout. */
static int
print_verdict(struct ctl *c, struct verify *k)
{
	const cJSON *head = cJSON_GetArrayItem(k->seals, cJSON_GetArraySize(k->seals) - 1);
	int failed = k->failure[0] != '\0';

	if (!(c->given & OPT_JSON)) {
		if (failed)
			return ctl_say(EXIT_FAIL, "verify %s: %s", k->key, k->failure);
		printf("%s: %lld entries verified (%lld sealed, %lld not sealed yet), "
		    "%d seals, %lld pruned leaves\n", k->key, (long long)k->total,
		    (long long)k->live, (long long)k->unsealed, cJSON_GetArraySize(k->seals),
		    (long long)k->pruned);
		if (head != NULL)
			printf("head: seq %lld, tree_size %lld, sealed_at %s, hash %s\n",
			    (long long)export_int_of(head, "seq"), (long long)export_int_of(head, "tree_size"),
			    export_text_of(head, "sealed_at"), export_text_of(head, "hash"));
		if (k->builtin_missing > 0)
			printf("built-in texts not recorded: %lld entries name built-in texts that "
			    "no consentctl init or config publish of their build recorded; their "
			    "receipts show no texts\n", (long long)k->builtin_missing);
		return EXIT_OK;
	}
	return ctl_print_verdict_json(verify_verdict(k), failed);
}

/* Recompute every digest, tree and seal of the site, in one snapshot
 * (verify_site(), the dashboard's in steps); the first mismatch is
 * reported. */
int
cmd_consent_verify(struct ctl *c)
{
	const char *key = c->operands[0];
	struct verify k;
	int rc;

	if (ctl_check_key(key) != 0)
		return EXIT_USAGE;
	if (c->head != NULL && ctl_check_head(c->head) != 0)
		return EXIT_USAGE;
	if (ctl_store(c) == NULL)
		return EXIT_FAIL;
	if ((rc = verify_site(c->st, key, c->head, 1, 0, 0, 0, &k)) != STORE_OK)
		rc = ctl_store_failed(rc, key);
	else
		rc = print_verdict(c, &k);
	verify_clear(&k);
	return rc;
}
