/* ctl_scripts.c: consentctl sync and scripts: tracker syncs and the script inventory. */
#include <stdio.h>
#include <string.h>

#include "ctl.h"
#include "uuid.h"

int
cmd_sync_start(struct ctl *c)
{
	const char *key = c->operands[0];
	char id[UUID_LEN + 1];
	int rc;

	if (ctl_check_key(key) != 0)
		return EXIT_USAGE;
	if (uuid_v4(id) != 0)
		return ctl_say(EXIT_FAIL, "no random numbers for a sync id");
	if (ctl_store(c) == NULL)
		return EXIT_FAIL;
	rc = store_sync_start(c->st, key, id);
	if (rc == STORE_EXISTS)  /* 2^-122: a broken random number generator */
		return ctl_say(EXIT_FAIL, "sync id %s exists already", id);
	if (rc != STORE_OK)
		return ctl_store_failed(rc, key);
	puts(id);
	return EXIT_OK;
}

int
cmd_sync_show(struct ctl *c)
{
	char id[UUID_LEN + 1];
	cJSON *sync = NULL;
	int rc;

	if (uuid_canonical(c->operands[0], id) != 0)
		return ctl_say(EXIT_USAGE, "invalid sync id '%s': a UUID such as "
		    "123e4567-e89b-42d3-a456-426614174000", c->operands[0]);
	if (ctl_store(c) == NULL)
		return EXIT_FAIL;
	rc = store_sync_show(c->st, id, &sync);
	if (rc == STORE_NOTFOUND)
		return ctl_say(EXIT_FAIL, "unknown sync: %s", id);
	if (rc != STORE_OK)
		return ctl_store_failed(rc, "");
	rc = ctl_print_record(c, sync);
	cJSON_Delete(sync);
	return rc;
}

int
cmd_scripts_list(struct ctl *c)
{
	static const struct ctl_column cols[] = {
		{"DOMAIN", "domain"}, {"CATEGORY", "category"}, {"BLOCKED", "blocked"},
		{"SEEN", "seen_count"}, {"FIRST_SEEN", "first_seen"},
		{"LAST_SEEN", "last_seen"},
	};
	const char *key = c->operands[0];
	cJSON *rows;
	int rc;

	if (ctl_check_key(key) != 0)
		return EXIT_USAGE;
	if (ctl_store(c) == NULL)
		return EXIT_FAIL;
	if ((rows = cJSON_CreateArray()) == NULL)
		return ctl_say(EXIT_FAIL, "out of memory");
	if ((rc = store_scripts_list(c->st, key, ctl_collect, rows)) == STORE_OK)
		rc = ctl_print_rows(c, rows, cols, sizeof(cols) / sizeof(cols[0]));
	else
		rc = ctl_store_failed(rc, key);
	cJSON_Delete(rows);
	return rc;
}

