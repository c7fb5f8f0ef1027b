/* ctl_erase.c: consentctl consent find and consent erase (one visitor's entries) and purge (entries past their retention). */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "admin/export.h"
#include "admin/purge.h"
#include "ctl.h"

/* ---- find ---- */

/* store_row_fn: the entry as a JSON line (arg: the struct export_out). */
static int
print_found(const cJSON *row, void *arg)
{
	cJSON *e = export_entry(row);
	int rc;

	if (e == NULL)
		return ctl_say(STORE_ERROR, "out of memory");
	rc = export_row(e, arg);
	cJSON_Delete(e);
	return rc;
}

int
cmd_consent_find(struct ctl *c)
{
	const char *key = c->operands[0];
	struct export_out out;
	char hash[65];
	int rc;

	if ((rc = ctl_visitor_args(c, hash)) != EXIT_OK)
		return rc;
	export_begin(&out, 0, ctl_stdout_write, NULL);
	rc = store_consent_find(c->st, key, hash, print_found, &out);
	if (export_end(&out) != 0 && rc == STORE_OK)
		rc = STORE_ERROR;
	return rc == STORE_OK ? EXIT_OK : ctl_store_failed(rc, key);
}

/* ---- erase ---- */

int
cmd_consent_erase(struct ctl *c)
{
	const char *key = c->operands[0];
	char hash[65];
	int64_t n;
	int rc;

	if ((rc = ctl_visitor_args(c, hash)) != EXIT_OK)
		return rc;
	if ((rc = store_consent_erase(c->st, key, hash, &n)) != STORE_OK)
		return ctl_store_failed(rc, key);
	printf("%lld\n", (long long)n);
	/* The record names no visitor: the count only. */
	return ctl_audit_set(c, "entries", cJSON_CreateNumber((double)n));
}

/* purge's audit record of what it deleted (ADMIN.md 8): site NULL for the
 * monthly-visitor rows of every site; nothing when nothing was deleted. */
static int
purge_record(struct ctl *c, const char *key, const char *what, int64_t n)
{
	cJSON *detail;
	int rc;

	if (n == 0)
		return EXIT_OK;
	if ((detail = cJSON_CreateObject()) == NULL ||
	    cJSON_AddNumberToObject(detail, what, (double)n) == NULL) {
		cJSON_Delete(detail);
		return ctl_say(EXIT_FAIL, "out of memory");
	}
	rc = ctl_audit(c, key, c->cmd->audit, detail, -1);
	cJSON_Delete(detail);
	return rc;
}

/* ---- purge ---- */

/* purge's walk over the sites: only one of them when a KEY was given. */
struct purge {
	struct ctl *c;
	const char *only;
	const char *key;     /* the site being purged, and its count */
	int64_t total;
};

/* purge_entries()'s progress on a terminal. */
static void
purge_progress(void *arg, int64_t done)
{
	struct purge *p = arg;

	fprintf(stderr, "\rpurge %s: %lld of %lld entries", p->key, (long long)done,
	    (long long)p->total);
}

static int
purge_site(const char *key, int64_t days, void *arg)
{
	struct purge *p = arg;
	struct ctl *c = p->c;
	int dry = (c->given & OPT_DRY_RUN) != 0, tty = isatty(2), rc;
	int64_t done = 0;
	char cutoff[32];

	if (days < 0 || (p->only != NULL && strcmp(p->only, key) != 0))
		return 0;
	purge_cutoff(time(NULL), days, cutoff);
	p->key = key;
	if (store_purge_entries(c->st, key, cutoff, 0, 1, &p->total) != STORE_OK)
		return STORE_ERROR;
	if (dry) {
		printf("%s: %lld entries older than %lld days (before %s)\n", key,
		    (long long)p->total, (long long)days, cutoff);
		return 0;
	}
	rc = purge_entries(c->st, key, cutoff, 0, tty ? purge_progress : NULL, p, &done);
	if (tty)
		fputc('\n', stderr);
	if (rc == STORE_EXISTS)
		ctl_say(EXIT_FAIL, "seal of %s: another seal ran at the same time; run it again", key);
	else if (rc != STORE_OK)
		ctl_store_failed(rc, key);
	if (rc != STORE_OK)
		return STORE_ERROR;
	return purge_record(c, key, "entries", done) == EXIT_OK ? 0 : STORE_ERROR;
}

int
cmd_purge(struct ctl *c)
{
	const char *key = c->noperands == 1 ? c->operands[0] : NULL;
	int dry = (c->given & OPT_DRY_RUN) != 0;
	struct purge p = { c, key, NULL, 0 };
	char month[8];
	int64_t total = 0;
	int rc;

	if (key != NULL && ctl_check_key(key) != 0)
		return EXIT_USAGE;
	if (ctl_store(c) == NULL)
		return EXIT_FAIL;
	c->audit.skip = 1;   /* one record a site purged, written here */
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
	purge_month(time(NULL), month);
	if (dry) {
		if (store_purge_visitors(c->st, month, 0, 1, &total) != STORE_OK)
			return EXIT_FAIL;
		printf("monthly visitors: %lld rows of months before %s\n", (long long)total, month);
		return EXIT_OK;
	}
	if (purge_visitors(c->st, month, &total) != STORE_OK)
		return EXIT_FAIL;
	return purge_record(c, NULL, "visitor_rows", total);
}
