/* report.c: consentctl report: the period, the document from the store's figures, the HTML page. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/limits.h"
#include "base/log.h"
#include "admin/report.h"
#include "admin/scriptrules.h"
#include "base/nitems.h"
#include "config/defaults.h"
#include "input/valid.h"
#include "input/valid.h"

static const char *const actions[] = {"opt_in", "opt_out", "partial", "acknowledge"};
#define NACTIONS (nitems(actions))

/* ---- the period ---- */

/* A date "YYYY-MM-DD" from 1970 on (valid_utc_time's rules) as the time of
 * its midnight UTC in *t: 0, or -1. */
static int
day_time(const char *s, time_t *t)
{
	char iso[32];
	struct tm tm;

	if (strlen(s) != 10 || !valid_utc_time(s, iso) || strncmp(s, "1970", 4) < 0)
		return -1;
	memset(&tm, 0, sizeof(tm));
	tm.tm_year = atoi(s) - 1900;            /* four digits, checked above */
	tm.tm_mon = atoi(s + 5) - 1;
	tm.tm_mday = atoi(s + 8);
	*t = timegm(&tm);
	return 0;
}

/* The UTC date of t as "YYYY-MM-DD". */
static void
day_text(time_t t, char out[11])
{
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(out, 11, "%Y-%m-%d", &tm);
}

int
report_period(const char *since, const char *until, const char *today,
              struct report_period *p, char *err, size_t errsz)
{
	time_t a, b;
	double days;

	memset(p, 0, sizeof(*p));
	if (since != NULL && day_time(since, &a) != 0) {
		snprintf(err, errsz, "invalid --since '%s': a date YYYY-MM-DD (UTC) from 1970 on", since);
		return -1;
	}
	if (until != NULL && day_time(until, &b) != 0) {
		snprintf(err, errsz, "invalid --until '%s': a date YYYY-MM-DD (UTC) from 1970 on", until);
		return -1;
	}
	if (until == NULL && day_time(today, &b) != 0) {
		snprintf(err, errsz, "the clock says %s", today);
		return -1;
	}
	if (since == NULL)
		a = b - (time_t)(REPORT_DAYS_DEFAULT - 1) * 86400;
	if (a > b) {
		snprintf(err, errsz, "--since %s is after --until %s", since != NULL ? since : "",
		    until != NULL ? until : today);
		return -1;
	}
	days = difftime(b, a) / 86400 + 1;
	if (days > REPORT_DAYS_MAX) {
		snprintf(err, errsz, "the period has %.0f days; a report covers at most %d",
		    days, REPORT_DAYS_MAX);
		return -1;
	}
	p->days = (int)days;
	day_text(a, p->since);
	day_text(b, p->until);
	snprintf(p->from, sizeof(p->from), "%sT00:00:00.000Z", p->since);
	day_text(b + 86400, p->to);   /* the day after: the end is excluded */
	snprintf(p->to + 10, sizeof(p->to) - 10, "T00:00:00.000Z");
	return 0;
}

/* ---- the document ---- */

static int64_t
count_of(const cJSON *obj, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);

	return cJSON_IsNumber(v) ? (int64_t)v->valuedouble : 0;
}

/* n of whole as a percentage with one decimal, or null when whole is 0. */
static cJSON *
share(int64_t n, int64_t whole)
{
	if (whole <= 0)
		return cJSON_CreateNull();
	return cJSON_CreateNumber(round(1000.0 * (double)n / (double)whole) / 10);
}

static int
add(cJSON *obj, const char *name, cJSON *v)
{
	if (v == NULL || !cJSON_AddItemToObject(obj, name, v)) {
		cJSON_Delete(v);
		return -1;
	}
	return 0;
}

/* NAME_percent beside each action count of a group: its share of the
 * group's decisions. */
static int
add_shares(cJSON *group)
{
	int64_t whole = count_of(group, "decisions");
	char name[32];
	size_t i;

	for (i = 0; i < NACTIONS; i++) {
		snprintf(name, sizeof(name), "%s_percent", actions[i]);
		if (add(group, name, share(count_of(group, actions[i]), whole)) != 0)
			return -1;
	}
	return 0;
}

/* A group with zero of everything: a day or a month without entries. */
static cJSON *
empty_day(const char *day)
{
	static const char *const zero[] = {"impressions", "decisions", "opt_in", "opt_out",
	    "partial", "acknowledge"};
	cJSON *o = cJSON_CreateObject();
	size_t i;

	if (o == NULL || cJSON_AddStringToObject(o, "day", day) == NULL)
		goto fail;
	for (i = 0; i < nitems(zero); i++)
		if (cJSON_AddNumberToObject(o, zero[i], 0) == NULL)
			goto fail;
	return o;
fail:
	cJSON_Delete(o);
	return NULL;
}

/* Every day of the period, in order: the store's row for a day with
 * entries, a row of zeros for the others; each with its shares. */
static cJSON *
every_day(const cJSON *rows, const struct report_period *p)
{
	cJSON *out = cJSON_CreateArray(), *d;
	const cJSON *r = rows != NULL ? rows->child : NULL;
	char day[11];
	time_t t;
	int i;

	if (out == NULL || day_time(p->since, &t) != 0)
		goto fail;
	for (i = 0; i < p->days; i++, t += 86400) {
		const char *have;

		day_text(t, day);
		have = r != NULL ? cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "day")) : NULL;
		if (have != NULL && strcmp(have, day) == 0) {
			d = cJSON_Duplicate(r, 1);
			r = r->next;
		} else {
			d = empty_day(day);
		}
		if (d == NULL || !cJSON_AddItemToArray(out, d)) {
			cJSON_Delete(d);
			goto fail;
		}
		if (add_shares(d) != 0)
			goto fail;
	}
	return out;
fail:
	cJSON_Delete(out);
	return NULL;
}

/* The position of category id in the config's categories, or a number
 * after all of them. */
static int
category_rank(const cJSON *config, const char *id)
{
	const cJSON *c;
	int i = 0;

	cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(config, "categories")) {
		const char *cid = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "id"));

		if (cid != NULL && strcmp(cid, id) == 0)
			return i;
		i++;
	}
	return i + 1;
}

/* The categories in the config's order (those it lacks after them, by
 * id, as the store gave them), each with percent: allowed of visitors. */
static int
order_categories(cJSON *cats, const cJSON *config)
{
	cJSON *sorted = cJSON_CreateArray(), *c;
	int n = cJSON_GetArraySize(cats), rank, best, i;

	if (sorted == NULL)
		return -1;
	while (cats->child != NULL) {
		cJSON *pick = NULL;

		best = 1 << 30;
		for (c = cats->child, i = 0; c != NULL && i < n; c = c->next, i++) {
			rank = category_rank(config, cJSON_GetStringValue(
			    cJSON_GetObjectItemCaseSensitive(c, "category")));
			if (rank < best) {
				best = rank;
				pick = c;
			}
		}
		cJSON_DetachItemViaPointer(cats, pick);
		cJSON_AddItemToArray(sorted, pick);
	}
	while ((c = cJSON_DetachItemFromArray(sorted, 0)) != NULL) {
		cJSON_AddItemToArray(cats, c);
		if (add(c, "percent", share(count_of(c, "allowed"), count_of(c, "visitors"))) != 0) {
			cJSON_Delete(sorted);
			return -1;
		}
	}
	cJSON_Delete(sorted);
	return 0;
}

/* mau: {cap, months: [{month, visitors, percent_of_cap}]} for every month
 * the period touches; cap null for a paid site (no cap applies). */
static cJSON *
months(const cJSON *rows, const struct report_period *p, const struct site *site, int64_t cap)
{
	cJSON *out = cJSON_CreateObject(), *arr, *m;
	const cJSON *r = rows != NULL ? rows->child : NULL;
	char month[8];
	int y = atoi(p->since), mo = atoi(p->since + 5);

	if (out == NULL ||
	    add(out, "cap", site->free_tier ? cJSON_CreateNumber((double)cap) : cJSON_CreateNull()) != 0 ||
	    (arr = cJSON_AddArrayToObject(out, "months")) == NULL)
		goto fail;
	for (;;) {
		int64_t visitors = 0;
		const char *have;

		snprintf(month, sizeof(month), "%04d-%02d", y, mo);
		if (strncmp(month, p->until, 7) > 0)
			break;
		have = r != NULL ? cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "month")) : NULL;
		if (have != NULL && strcmp(have, month) == 0) {
			visitors = count_of(r, "visitors");
			r = r->next;
		}
		if ((m = cJSON_CreateObject()) == NULL || !cJSON_AddItemToArray(arr, m)) {
			cJSON_Delete(m);
			goto fail;
		}
		if (cJSON_AddStringToObject(m, "month", month) == NULL ||
		    cJSON_AddNumberToObject(m, "visitors", (double)visitors) == NULL ||
		    add(m, "percent_of_cap", site->free_tier ? share(visitors, cap)
		                                             : cJSON_CreateNull()) != 0)
			goto fail;
		if (++mo > 12) {
			mo = 1;
			y++;
		}
	}
	return out;
fail:
	cJSON_Delete(out);
	return NULL;
}

/* rule beside each script record: the config's first scriptRules pattern
 * that matches its domain as the SDK matches (SDK.md 5), or null: no rule
 * covers it. */
static int
add_rules(cJSON *scripts, const cJSON *config)
{
	const cJSON *rules = cJSON_GetObjectItemCaseSensitive(config, "scriptRules"), *r;
	cJSON *s;

	cJSON_ArrayForEach(s, scripts) {
		const char *domain = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(s, "domain"));
		const char *found = NULL;

		cJSON_ArrayForEach(r, rules) {
			const char *pat = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "pattern"));

			if (domain != NULL && pat != NULL && scriptrules_match(domain, pat)) {
				found = pat;
				break;
			}
		}
		if (add(s, "rule", found ? cJSON_CreateString(found) : cJSON_CreateNull()) != 0)
			return -1;
	}
	return 0;
}

/* NAME_percent beside no_decision and each action count of the visitors'
 * outcomes: its share of the visitors asked, those who decided or were
 * shown the banner (the returning ones were not asked). */
static int
add_outcome_shares(cJSON *o)
{
	int64_t asked = count_of(o, "decided") + count_of(o, "no_decision");
	char name[32];
	size_t i;

	if (add(o, "asked", cJSON_CreateNumber((double)asked)) != 0 ||
	    add(o, "decided_percent", share(count_of(o, "decided"), asked)) != 0 ||
	    add(o, "no_decision_percent", share(count_of(o, "no_decision"), asked)) != 0)
		return -1;
	for (i = 0; i < NACTIONS; i++) {
		snprintf(name, sizeof(name), "%s_percent", actions[i]);
		if (add(o, name, share(count_of(o, actions[i]), asked)) != 0)
			return -1;
	}
	return 0;
}

/* Move member name of from into to (when absent, an empty object or
 * array as object says). */
static int
move(cJSON *from, cJSON *to, const char *name, int object)
{
	cJSON *v = cJSON_DetachItemFromObjectCaseSensitive(from, name);

	if (v == NULL)
		v = object ? cJSON_CreateObject() : cJSON_CreateArray();
	return add(to, name, v);
}

cJSON *
report_document(cJSON *figures, const struct report_period *p, const struct site *site,
                int64_t cap, const cJSON *config, const char *generated_at)
{
	static const char *const split_names[] = {"by_region", "by_device", "by_browser",
	    "by_position", "by_language"};
	cJSON *doc = cJSON_CreateObject(), *o, *totals, *gpc, *tta, *c, *b;
	size_t i;
	int64_t n;

	if (doc == NULL || figures == NULL)
		goto fail;
	/* site, period */
	if ((o = cJSON_AddObjectToObject(doc, "site")) == NULL ||
	    cJSON_AddStringToObject(o, "key", site->key) == NULL ||
	    cJSON_AddStringToObject(o, "name", site->name) == NULL ||
	    cJSON_AddStringToObject(o, "tier", site->free_tier ? "free" : "paid") == NULL ||
	    (o = cJSON_AddObjectToObject(doc, "period")) == NULL ||
	    cJSON_AddStringToObject(o, "since", p->since) == NULL ||
	    cJSON_AddStringToObject(o, "until", p->until) == NULL ||
	    cJSON_AddNumberToObject(o, "days", p->days) == NULL ||
	    cJSON_AddStringToObject(doc, "generated_at", generated_at) == NULL)
		goto fail;
	/* totals, and gpc out of them */
	totals = cJSON_DetachItemFromObjectCaseSensitive(figures, "totals");
	if (add(doc, "totals", totals) != 0 || add_shares(totals) != 0 ||
	    (gpc = cJSON_AddObjectToObject(doc, "gpc")) == NULL)
		goto fail;
	{
		int64_t sent = count_of(totals, "gpc_sent"), not_sent = count_of(totals, "gpc_not_sent");

		if (cJSON_AddNumberToObject(gpc, "sent", (double)sent) == NULL ||
		    cJSON_AddNumberToObject(gpc, "not_sent", (double)not_sent) == NULL ||
		    cJSON_AddNumberToObject(gpc, "not_recorded",
		    (double)count_of(totals, "gpc_not_recorded")) == NULL ||
		    add(gpc, "percent", share(sent, sent + not_sent)) != 0)
			goto fail;
		cJSON_DeleteItemFromObjectCaseSensitive(totals, "gpc_sent");
		cJSON_DeleteItemFromObjectCaseSensitive(totals, "gpc_not_sent");
		cJSON_DeleteItemFromObjectCaseSensitive(totals, "gpc_not_recorded");
	}
	/* what became of the visitors */
	if (move(figures, doc, "outcomes", 1) != 0 ||
	    add_outcome_shares(cJSON_GetObjectItemCaseSensitive(doc, "outcomes")) != 0)
		goto fail;
	/* every day */
	if (add(doc, "daily", every_day(cJSON_GetObjectItemCaseSensitive(figures, "daily"), p)) != 0)
		goto fail;
	/* the splits */
	for (i = 0; i < nitems(split_names); i++) {
		if (move(figures, doc, split_names[i], 0) != 0)
			goto fail;
		cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(doc, split_names[i]))
			if (add_shares(c) != 0)
				goto fail;
	}
	/* categories */
	if (move(figures, doc, "categories", 0) != 0 ||
	    order_categories(cJSON_GetObjectItemCaseSensitive(doc, "categories"), config) != 0)
		goto fail;
	/* time to action */
	tta = cJSON_DetachItemFromObjectCaseSensitive(figures, "time_to_action");
	if (add(doc, "time_to_action", tta) != 0)
		goto fail;
	n = count_of(tta, "count");
	cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(tta, "buckets"))
		if (add(b, "percent", share(count_of(b, "count"), n)) != 0)
			goto fail;
	/* monthly visitors against the cap, scripts */
	if (add(doc, "mau", months(cJSON_GetObjectItemCaseSensitive(figures, "mau"), p, site, cap)) != 0 ||
	    move(figures, doc, "scripts", 0) != 0 ||
	    add_rules(cJSON_GetObjectItemCaseSensitive(doc, "scripts"), config) != 0)
		goto fail;
	cJSON_Delete(figures);
	return doc;
fail:
	log_error("out of memory");
	cJSON_Delete(figures);
	cJSON_Delete(doc);
	return NULL;
}

/* ---- the page ---- */

char *
report_html(const char *tmpl, const cJSON *doc)
{
	const char *mark = strstr(tmpl, REPORT_MARKER), *s;
	char *json = NULL, *out = NULL, *w;
	size_t n;

	if (mark == NULL) {
		log_error("the report template has no %s", REPORT_MARKER);
		return NULL;
	}
	if ((json = cJSON_PrintUnformatted(doc)) == NULL)
		goto oom;
	/* Each byte becomes at most 6 ("\u003c"). */
	n = strlen(tmpl) - strlen(REPORT_MARKER) + 6 * strlen(json) + 1;
	if ((out = malloc(n)) == NULL)
		goto oom;
	memcpy(out, tmpl, (size_t)(mark - tmpl));
	w = out + (mark - tmpl);
	for (s = json; *s != '\0'; s++) {
		const unsigned char *u = (const unsigned char *)s;

		if (*s == '<' || *s == '>' || *s == '&') {
			w += sprintf(w, "\\u%04x", (unsigned)*u);
		} else if (u[0] == 0xe2 && u[1] == 0x80 && (u[2] == 0xa8 || u[2] == 0xa9)) {
			w += sprintf(w, "\\u%04x", u[2] == 0xa8 ? 0x2028u : 0x2029u);
			s += 2;
		} else {
			*w++ = *s;
		}
	}
	strcpy(w, mark + strlen(REPORT_MARKER));
	free(json);
	return out;
oom:
	log_error("out of memory");
	free(json);
	free(out);
	return NULL;
}

void
report_now(char today[11], char iso[32])
{
	struct timespec ts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(today, 11, "%Y-%m-%d", &tm);
	strftime(iso, 32, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(iso + 19, 13, ".%03dZ", (int)(ts.tv_nsec / 1000000L) % 1000);
}

int
report_site(struct store *st, const char *key, const struct report_period *p,
            const char *cap_env, const char *at, cJSON **doc, int *cap_malformed,
            char *err, size_t errsz)
{
	cJSON *config = NULL, *fig = NULL;
	struct site site;
	int64_t cap;
	int rc;

	*doc = NULL;
	*cap_malformed = 0;
	err[0] = '\0';
	if ((rc = store_site_get(st, key, &site)) != STORE_OK)
		return rc;
	/* The built-in document without its texts is enough: the report reads
	 * its categories and scriptRules. */
	if ((config = site.document != NULL ? cJSON_Parse(site.document) : defaults_skeleton()) == NULL) {
		snprintf(err, errsz, "the stored config of %s is not valid JSON", key);
		rc = STORE_ERROR;
		goto out;
	}
	if ((rc = store_report(st, key, p->from, p->to, &fig)) != STORE_OK)
		goto out;
	cap = valid_cap_in_force(site.mau_cap, cap_env, cap_malformed);
	*cap_malformed = *cap_malformed && site.free_tier;
	if ((*doc = report_document(fig, p, &site, cap, config, at)) == NULL)
		rc = STORE_ERROR;
out:
	cJSON_Delete(config);
	store_site_clear(&site);
	return rc;
}
