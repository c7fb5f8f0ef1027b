/* ctl_log.c: consentctl consent export and stats: reading the consent log. */
#include <stdio.h>
#include <string.h>

#include "ctl.h"

int
cmd_consent_export(struct ctl *c)
{
	const char *key = c->operands[0];
	char since[32];
	int csv = 0, rc;

	if (ctl_check_key(key) != 0 || (c->since != NULL && ctl_check_since(c->since, since) != 0))
		return EXIT_USAGE;
	if (c->format != NULL) {
		if (strcmp(c->format, "csv") == 0)
			csv = 1;
		else if (strcmp(c->format, "jsonl") != 0)
			return ctl_say(EXIT_USAGE, "invalid format '%s': jsonl or csv", c->format);
	}
	if (ctl_store(c) == NULL)
		return EXIT_FAIL;
	if (csv)
		ctl_csv_header();
	rc = store_consent_export(c->st, key, c->since != NULL ? since : NULL,
	    csv ? ctl_export_csv : ctl_export_jsonl, NULL);
	return rc == STORE_OK ? EXIT_OK : ctl_store_failed(rc, key);
}

int
cmd_stats(struct ctl *c)
{
	return ctl_show_site(c, store_stats);
}

