/* ctl_sites.c: consentctl site and domain: sites, their tier, cap, pause and domains. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/nitems.h"
#include "ctl.h"

/* What site add and set record (ADMIN.md 8): the fields given, as
 * stored (the tier always with tier; cap and retention -1: none). */
static int
site_detail(struct ctl *c, int tier, int free_tier, int64_t cap, int64_t retention)
{
	int rc = EXIT_OK;

	if (c->name != NULL)
		rc = ctl_audit_set(c, "name", cJSON_CreateString(c->name));
	if (rc == EXIT_OK && (tier || c->tier != NULL))
		rc = ctl_audit_set(c, "tier", cJSON_CreateString(free_tier ? "free" : "paid"));
	if (rc == EXIT_OK && c->mau_cap != NULL)
		rc = ctl_audit_set(c, "mau_cap", cap >= 0 ? cJSON_CreateNumber((double)cap) :
		    cJSON_CreateNull());
	if (rc == EXIT_OK && c->retention != NULL)
		rc = ctl_audit_set(c, "retention_days", retention >= 0 ?
		    cJSON_CreateNumber((double)retention) : cJSON_CreateNull());
	return rc;
}

int
cmd_site_add(struct ctl *c)
{
	const char *key = c->operands[0];
	const char **hosts = NULL;
	char (*norm)[HOST_MAX + 1] = NULL;
	int free_tier = 1, rc = EXIT_USAGE;
	int64_t cap = -1;
	size_t i;

	if (ctl_check_key(key) != 0)
		return EXIT_USAGE;
	if (c->name == NULL)
		return ctl_say(EXIT_USAGE, "site add needs --name NAME");
	if (ctl_check_name(c->name) != 0 ||
	    (c->tier != NULL && ctl_check_tier(c->tier, &free_tier) != 0) ||
	    (c->mau_cap != NULL && ctl_check_cap(c->mau_cap, &cap) != 0))
		return EXIT_USAGE;
	if (c->ndomains > 0 && ((norm = calloc(c->ndomains, sizeof(*norm))) == NULL ||
	    (hosts = calloc(c->ndomains, sizeof(*hosts))) == NULL)) {
		rc = ctl_say(EXIT_FAIL, "out of memory");
		goto out;
	}
	for (i = 0; i < c->ndomains; i++) {
		if (ctl_check_domain(c->domains[i], norm[i]) != 0)
			goto out;
		hosts[i] = norm[i];
	}
	rc = EXIT_FAIL;
	if (ctl_store(c) == NULL)
		goto out;
	rc = store_site_add(c->st, key, c->name, free_tier, cap, hosts, c->ndomains);
	if (rc == STORE_EXISTS)
		rc = ctl_say(EXIT_FAIL, "site %s already exists", key);
	else if (rc != STORE_OK)
		rc = ctl_store_failed(rc, key);
	else if ((rc = site_detail(c, 1, free_tier, cap, -1)) == EXIT_OK)
		rc = ctl_audit_set(c, "domains", hosts != NULL ?
		    cJSON_CreateStringArray(hosts, (int)c->ndomains) : cJSON_CreateArray());
out:
	free(hosts);
	free(norm);
	return rc;
}

int
cmd_site_set(struct ctl *c)
{
	const char *key = c->operands[0];
	struct site_change ch = {c->name, -1, c->mau_cap != NULL, -1, c->retention != NULL, -1};
	int rc;

	if (ctl_check_key(key) != 0)
		return EXIT_USAGE;
	if (c->name == NULL && c->tier == NULL && c->mau_cap == NULL && c->retention == NULL)
		return ctl_say(EXIT_USAGE, "site set needs --name, --tier, --mau-cap or "
		    "--retention-days");
	if ((c->name != NULL && ctl_check_name(c->name) != 0) ||
	    (c->tier != NULL && ctl_check_tier(c->tier, &ch.free_tier) != 0) ||
	    (c->mau_cap != NULL && ctl_check_cap(c->mau_cap, &ch.mau_cap) != 0) ||
	    (c->retention != NULL && ctl_check_retention(c->retention, &ch.retention_days) != 0))
		return EXIT_USAGE;
	if (ctl_store(c) == NULL)
		return EXIT_FAIL;
	rc = store_site_set(c->st, key, &ch);
	if (rc != STORE_OK)
		return ctl_store_failed(rc, key);
	return site_detail(c, 0, ch.free_tier, ch.mau_cap, ch.retention_days);
}

static int
pause_site(struct ctl *c, int paused)
{
	const char *key = c->operands[0];
	int rc;

	if (ctl_check_key(key) != 0)
		return EXIT_USAGE;
	if (ctl_store(c) == NULL)
		return EXIT_FAIL;
	rc = store_site_pause(c->st, key, paused);
	return rc == STORE_OK ? EXIT_OK : ctl_store_failed(rc, key);
}

int
cmd_site_pause(struct ctl *c)
{
	return pause_site(c, 1);
}

int
cmd_site_resume(struct ctl *c)
{
	return pause_site(c, 0);
}

int
cmd_site_list(struct ctl *c)
{
	static const struct ctl_column cols[] = {
		{"KEY", "key"}, {"TIER", "tier"}, {"MAU_CAP", "mau_cap"},
		{"PAUSED", "paused"}, {"VERSION", "version"},
		{"CREATED", "created_at"}, {"NAME", "name"},
	};
	cJSON *rows = cJSON_CreateArray();
	int rc = EXIT_FAIL;

	if (rows == NULL)
		return ctl_say(EXIT_FAIL, "out of memory");
	if (ctl_store(c) != NULL && store_site_list(c->st, ctl_collect, rows) == STORE_OK)
		rc = ctl_print_rows(c, rows, cols, nitems(cols));
	cJSON_Delete(rows);
	return rc;
}

/* A site's record from fn (store_site_show, store_stats), printed. */
int
ctl_show_site(struct ctl *c, int (*fn)(struct store *, const char *, cJSON **))
{
	const char *key = c->operands[0];
	cJSON *rec = NULL;
	int rc;

	if (ctl_check_key(key) != 0)
		return EXIT_USAGE;
	if (ctl_store(c) == NULL)
		return EXIT_FAIL;
	if ((rc = fn(c->st, key, &rec)) != STORE_OK)
		return ctl_store_failed(rc, key);
	rc = ctl_print_record(c, rec);
	cJSON_Delete(rec);
	return rc;
}

int
cmd_site_show(struct ctl *c)
{
	return ctl_show_site(c, store_site_show);
}

/* domain add prints the host as stored, so the operator sees the result
 * of normalisation. */
int
cmd_domain_add(struct ctl *c)
{
	const char *key = c->operands[0];
	char host[HOST_MAX + 1];
	int rc;

	if (ctl_check_key(key) != 0 || ctl_check_domain(c->operands[1], host) != 0)
		return EXIT_USAGE;
	if (ctl_store(c) == NULL)
		return EXIT_FAIL;
	rc = store_domain_add(c->st, key, host);
	if (rc == STORE_EXISTS)
		return ctl_say(EXIT_FAIL, "domain %s is already registered for site %s", host, key);
	if (rc != STORE_OK)
		return ctl_store_failed(rc, key);
	puts(host);
	return ctl_audit_set(c, "host", cJSON_CreateString(host));
}

int
cmd_domain_remove(struct ctl *c)
{
	const char *key = c->operands[0];
	char host[HOST_MAX + 1];
	struct site site;
	int rc;

	if (ctl_check_key(key) != 0 || ctl_check_domain(c->operands[1], host) != 0)
		return EXIT_USAGE;
	if (ctl_store(c) == NULL)
		return EXIT_FAIL;
	rc = store_domain_remove(c->st, key, host);
	if (rc == STORE_OK)
		return ctl_audit_set(c, "host", cJSON_CreateString(host));
	if (rc != STORE_NOTFOUND)
		return ctl_store_failed(rc, key);
	/* Unknown site, or a domain it does not have: say which. */
	if ((rc = store_site_get(c->st, key, &site)) != STORE_OK)
		return ctl_store_failed(rc, key);
	store_site_clear(&site);
	return ctl_say(EXIT_FAIL, "domain %s is not registered for site %s", host, key);
}

