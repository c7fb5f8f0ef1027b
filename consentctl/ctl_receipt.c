/* ctl_receipt.c: consentctl consent receipt: what one visitor was shown and chose, with the proof of each entry. */
#include <stdio.h>

#include "admin/receipt.h"
#include "ctl.h"

/* The receipt (receipt_make(), the dashboard's too): JSON with --json,
 * else each entry as aligned lines. */
int
cmd_consent_receipt(struct ctl *c)
{
	const char *key = c->operands[0];
	cJSON *doc = NULL;
	const cJSON *e, *entries;
	char hash[65], err[512];
	int rc;

	if ((rc = ctl_visitor_args(c, hash)) != EXIT_OK)
		return rc;
	if ((rc = receipt_make(c->st, key, hash, &doc, err, sizeof(err))) != STORE_OK) {
		if (err[0] != '\0')
			return ctl_say(EXIT_FAIL, "%s", err);
		return ctl_store_failed(rc, key);
	}
	if (c->given & OPT_JSON) {
		rc = ctl_print_json(doc);
	} else {
		int i = 0, n;

		entries = cJSON_GetObjectItemCaseSensitive(doc, "entries");
		n = cJSON_GetArraySize(entries);
		printf("receipt of %s for the visitor %s: %d entries\n", key, hash, n);
		rc = EXIT_OK;
		cJSON_ArrayForEach(e, entries) {
			printf("\n-- entry %d of %d\n", ++i, n);
			if (rc == EXIT_OK)
				rc = ctl_print_record(c, e);
		}
	}
	cJSON_Delete(doc);
	return rc;
}
