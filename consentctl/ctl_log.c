/* ctl_log.c: consentctl consent export and stats: reading the consent log. */
#include <stdio.h>
#include <string.h>

#include "admin/export.h"
#include "ctl.h"

int
cmd_consent_export(struct ctl *c)
{
	const char *key = c->operands[0];
	struct export_out out;
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
	export_begin(&out, csv, ctl_stdout_write, NULL);
	rc = store_consent_export(c->st, key, c->since != NULL ? since : NULL, export_row, &out);
	if (export_end(&out) != 0 && rc == STORE_OK)
		rc = STORE_ERROR;
	return rc == STORE_OK ? EXIT_OK : ctl_store_failed(rc, key);
}

int
cmd_stats(struct ctl *c)
{
	return ctl_show_site(c, store_stats);
}

