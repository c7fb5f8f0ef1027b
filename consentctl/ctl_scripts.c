/* ctl_scripts.c: consentctl sync and scripts: tracker syncs and the script inventory. */
#include <stdio.h>
#include <string.h>

#include "ctl.h"
#include "admin/scriptrules.h"
#include "base/nitems.h"
#include "base/uuid.h"

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
	return ctl_audit_set(c, "sync_id", cJSON_CreateString(id));
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
		rc = ctl_print_rows(c, rows, cols, nitems(cols));
	else
		rc = ctl_store_failed(rc, key);
	cJSON_Delete(rows);
	return rc;
}

/* One "pattern<TAB>category" line per rule. */
static void
print_rules(const cJSON *rules)
{
	const cJSON *r;

	cJSON_ArrayForEach(r, rules)
		printf("%s\t%s\n",
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "pattern")),
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "category")));
}

/*
 * The scriptRules the site's recorded script domains call for and its
 * config (published, else the built-in defaults) lacks: scriptrules.h says
 * which.  Rules of a category the config does not have cannot be published:
 * each is named on stderr and left out of every output.  With --publish,
 * the config with those rules appended to scriptRules is published as a
 * new version (checked as config publish checks), and the version printed;
 * with nothing to add, nothing is published, stdout stays empty and one
 * line on stderr says so (exit 0).
 */
int
cmd_scripts_rules(struct ctl *c)
{
	const char *key = c->operands[0];
	int publish = (c->given & OPT_PUBLISH) != 0, rc;
	cJSON *records = NULL, *doc = NULL, *add = NULL, *unknown = NULL, *r;
	char err[256];

	if (ctl_check_key(key) != 0)
		return EXIT_USAGE;
	c->audit.skip = 1;   /* only a publish (below) changes something */
	if (publish && (c->given & OPT_JSON))
		return ctl_say(EXIT_USAGE, "scripts rules takes --json or --publish, not both");
	/* Only --publish writes: open for writing then, so that the read and
	 * the publish see one file. */
	if (publish && store_open(&c->st, c->db, STORE_WRITE) != STORE_OK) {
		c->st = NULL;
		return EXIT_FAIL;
	}
	if (ctl_store(c) == NULL)
		return EXIT_FAIL;
	rc = scriptrules_site(c->st, key, &doc, &records, &add, &unknown, err, sizeof(err));
	if (rc != STORE_OK) {
		rc = err[0] != '\0' ? ctl_say(EXIT_FAIL, "%s", err) : ctl_store_failed(rc, key);
		goto out;
	}
	cJSON_ArrayForEach(r, unknown) {
		const char *cat = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r,
		    "category"));

		ctl_say(0, "%s %s left out: the config of %s has no category %s",
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "pattern")),
		    cat, key, cat);
	}
	if (!publish && (c->given & OPT_JSON)) {
		rc = ctl_print_json(add);
		goto out;
	}
	if (!publish) {
		print_rules(add);
		rc = EXIT_OK;
		goto out;
	}
	if (cJSON_GetArraySize(add) == 0) {
		rc = ctl_say(EXIT_OK, "no rule to add to the config of %s; nothing published", key);
		goto out;
	}
	if (scriptrules_append(doc, add, err, sizeof(err)) != 0) {
		rc = ctl_say(EXIT_FAIL, "%s", err);
		goto out;
	}
	c->audit.skip = 0;
	rc = ctl_publish_json(c, key, doc);
out:
	cJSON_Delete(unknown);
	cJSON_Delete(add);
	cJSON_Delete(records);
	cJSON_Delete(doc);
	return rc;
}
