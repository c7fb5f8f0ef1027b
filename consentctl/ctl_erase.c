/* ctl_erase.c: consentctl consent find and consent erase (one visitor's entries) and purge (entries past their retention). */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "admin/export.h"
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

/* The UTC time days ago, in the stored form. */
static void
days_ago(int64_t days, char out[32])
{
	time_t t = time(NULL) - (time_t)days * 86400;
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(out, 32, "%Y-%m-%dT%H:%M:%S.000Z", &tm);
}

/* A pause between batches, so that waiting writers take the lock. */
static void
breathe(void)
{
	nanosleep(&(struct timespec){ 0, 2000000L }, NULL);
}

/* purge's walk over the sites: only one of them when a KEY was given. */
struct purge {
	struct ctl *c;
	const char *only;
};

static int
purge_site(const char *key, int64_t days, void *arg)
{
	struct purge *p = arg;
	struct ctl *c = p->c;
	int dry = (c->given & OPT_DRY_RUN) != 0, tty = isatty(2);
	int64_t total = 0, n, done = 0;
	char cutoff[32];

	if (days < 0 || (p->only != NULL && strcmp(p->only, key) != 0))
		return 0;
	days_ago(days, cutoff);
	if (store_purge_entries(c->st, key, cutoff, 0, 1, &total) != STORE_OK)
		return STORE_ERROR;
	if (dry) {
		printf("%s: %lld entries older than %lld days (before %s)\n", key,
		    (long long)total, (long long)days, cutoff);
		return 0;
	}
	/* Everything purged is sealed first, so that it leaves its leaf. */
	if (ctl_seal_site(c, key, NULL) != EXIT_OK)
		return STORE_ERROR;
	do {
		if (store_purge_entries(c->st, key, cutoff, PURGE_BATCH, 0, &n) != STORE_OK)
			return STORE_ERROR;
		done += n;
		if (tty)
			fprintf(stderr, "\rpurge %s: %lld of %lld entries", key, (long long)done,
			    (long long)total);
		breathe();
	} while (n > 0);
	if (tty)
		fputc('\n', stderr);
	return purge_record(c, key, "entries", done) == EXIT_OK ? 0 : STORE_ERROR;
}

int
cmd_purge(struct ctl *c)
{
	const char *key = c->noperands == 1 ? c->operands[0] : NULL;
	int dry = (c->given & OPT_DRY_RUN) != 0;
	struct purge p = { c, key };
	char now[32], month[8];
	int64_t n, total = 0;
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
	clock_now(now, month);
	if (dry) {
		if (store_purge_visitors(c->st, month, 0, 1, &total) != STORE_OK)
			return EXIT_FAIL;
		printf("monthly visitors: %lld rows of months before %s\n", (long long)total, month);
		return EXIT_OK;
	}
	do {
		if (store_purge_visitors(c->st, month, PURGE_BATCH, 0, &n) != STORE_OK)
			return EXIT_FAIL;
		total += n;
		breathe();
	} while (n > 0);
	return purge_record(c, NULL, "visitor_rows", total);
}
