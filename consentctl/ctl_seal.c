/* ctl_seal.c: consentctl consent seal and consent head: sealing the consent log, and the seals an operator records. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl.h"
#include "admin/seal.h"

/* ---- seal ---- */

int
ctl_seal_site(struct ctl *c, const char *key, int64_t *total)
{
	int rc = seal_site(c->st, key, total);

	if (rc == STORE_EXISTS)
		return ctl_say(EXIT_FAIL, "seal of %s: another seal ran at the same time; "
		    "run it again", key);
	return rc == STORE_OK ? EXIT_OK : ctl_store_failed(rc, key);
}

int
ctl_seal_each(const char *key, int64_t days, void *arg)
{
	(void)days;
	return ctl_seal_site(arg, key, NULL) == EXIT_OK ? 0 : STORE_ERROR;
}

/* store_key_fn of consent seal: a site sealed, and its audit record when
 * entries were (ADMIN.md 8; a run that found nothing to seal changed
 * nothing). */
static int
seal_recorded(const char *key, int64_t days, void *arg)
{
	struct ctl *c = arg;
	int64_t n = 0;
	cJSON *detail;
	int rc;

	(void)days;
	if (ctl_seal_site(c, key, &n) != EXIT_OK)
		return STORE_ERROR;
	if (n == 0)
		return 0;
	if ((detail = cJSON_CreateObject()) == NULL ||
	    cJSON_AddNumberToObject(detail, "entries", (double)n) == NULL) {
		cJSON_Delete(detail);
		return ctl_say(STORE_ERROR, "out of memory");
	}
	rc = ctl_audit(c, key, c->cmd->audit, detail, -1);
	cJSON_Delete(detail);
	return rc == EXIT_OK ? 0 : STORE_ERROR;
}

int
cmd_consent_seal(struct ctl *c)
{
	if (c->noperands == 1 && ctl_check_key(c->operands[0]) != 0)
		return EXIT_USAGE;
	if (ctl_store(c) == NULL)
		return EXIT_FAIL;
	c->audit.skip = 1;   /* one record a site sealed, written here */
	if (c->noperands == 1)
		return seal_recorded(c->operands[0], -1, c) == 0 ? EXIT_OK : EXIT_FAIL;
	return store_site_keys(c->st, seal_recorded, c) == STORE_OK ? EXIT_OK : EXIT_FAIL;
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
