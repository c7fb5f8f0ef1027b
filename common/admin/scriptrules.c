/* scriptrules.c: the scriptRules a site's recorded script domains call for (consentctl scripts rules). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "input/origin.h"
#include "config/resolve.h"
#include "admin/export.h"
#include "admin/scriptrules.h"
#include "config/defaults.h"
#include "store/store_admin.h"
#include "input/tracker.h"

/* A recorded domain the tracker database knows. */
struct known {
	const char *host;
	const char *entry;     /* the database domain that matched (static) */
	const char *category;  /* its category (static) */
	int covered;           /* a rule of the document matches it already */
};

/* A rule to suggest; the strings belong to the records or the database. */
struct rule {
	const char *pattern;
	const char *category;
};

/* A pattern matches as a registered domain matches an Origin's host. */
int
scriptrules_match(const char *host, const char *pattern)
{
	if (strncmp(pattern, "*.", 2) == 0)
		pattern += 2;
	return origin_matches(host, pattern);
}

/* Whether a rule of the document (an array, or NULL) matches host. */
static int
covered(const cJSON *rules, const char *host)
{
	const cJSON *r, *pattern;

	cJSON_ArrayForEach(r, rules) {
		pattern = cJSON_GetObjectItemCaseSensitive(r, "pattern");
		if (cJSON_IsString(pattern) && scriptrules_match(host, pattern->valuestring))
			return 1;
	}
	return 0;
}

/*
 * Whether a pattern of entry k's entry would reach a host of another
 * category: a recorded domain below it that the database puts elsewhere, or
 * a rule of the document below it with another category.
 */
static int
mixed(const struct known *v, size_t n, size_t k, const cJSON *rules)
{
	const char *entry = v[k].entry, *category = v[k].category;
	const cJSON *r, *pattern, *cat;
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(v[i].category, category) != 0 &&
		    scriptrules_match(v[i].host, entry))
			return 1;
	cJSON_ArrayForEach(r, rules) {
		pattern = cJSON_GetObjectItemCaseSensitive(r, "pattern");
		cat = cJSON_GetObjectItemCaseSensitive(r, "category");
		if (cJSON_IsString(pattern) && cJSON_IsString(cat) &&
		    strcmp(cat->valuestring, category) != 0 &&
		    scriptrules_match(pattern->valuestring, entry))
			return 1;
	}
	return 0;
}

static int
rule_cmp(const void *a, const void *b)
{
	const struct rule *x = a, *y = b;
	int c = strcmp(x->pattern, y->pattern);

	return c != 0 ? c : strcmp(x->category, y->category);
}

/* Append {"pattern", "category"} to the array: 0, or -1 out of memory. */
static int
add_rule(cJSON *array, const struct rule *r)
{
	cJSON *o = cJSON_CreateObject();

	if (o == NULL || cJSON_AddStringToObject(o, "pattern", r->pattern) == NULL ||
	    cJSON_AddStringToObject(o, "category", r->category) == NULL ||
	    !cJSON_AddItemToArray(array, o)) {
		cJSON_Delete(o);
		return -1;
	}
	return 0;
}

int
scriptrules_suggest(const cJSON *doc, const cJSON *records, cJSON **add,
                    cJSON **unknown)
{
	const cJSON *rules = cJSON_GetObjectItemCaseSensitive(doc, "scriptRules");
	const cJSON *rec, *domain;
	struct known *v = NULL;
	struct rule *out = NULL;
	size_t n = 0, nout = 0, cap, i;
	int rc = -1;

	*add = cJSON_CreateArray();
	*unknown = cJSON_CreateArray();
	cap = (size_t)cJSON_GetArraySize(records);
	if (*add == NULL || *unknown == NULL ||
	    (cap > 0 && ((v = calloc(cap, sizeof(*v))) == NULL ||
	    (out = calloc(cap, sizeof(*out))) == NULL)))
		goto out;
	if (!cJSON_IsArray(rules))
		rules = NULL;
	cJSON_ArrayForEach(rec, records) {
		domain = cJSON_GetObjectItemCaseSensitive(rec, "domain");
		if (n == cap || !cJSON_IsString(domain))
			continue;
		v[n].host = domain->valuestring;
		v[n].category = tracker_match(v[n].host, &v[n].entry);
		if (v[n].category == NULL)
			continue;
		v[n].covered = covered(rules, v[n].host);
		n++;
	}
	for (i = 0; i < n; i++) {
		if (v[i].covered)
			continue;
		out[nout].pattern = mixed(v, n, i, rules) ? v[i].host : v[i].entry;
		out[nout].category = v[i].category;
		nout++;
	}
	if (nout > 0)
		qsort(out, nout, sizeof(*out), rule_cmp);
	for (i = 0; i < nout; i++) {
		if (i > 0 && rule_cmp(&out[i - 1], &out[i]) == 0)
			continue;
		/* A group's pattern is a parent of hosts no rule matched, so no
		 * rule matches it either; checked all the same (SDK.md 5). */
		if (covered(rules, out[i].pattern))
			continue;
		if (add_rule(resolve_has_category(doc, out[i].category) ? *add : *unknown,
		    &out[i]) != 0)
			goto out;
	}
	rc = 0;
out:
	free(v);
	free(out);
	if (rc != 0) {
		log_error("out of memory");
		cJSON_Delete(*add);
		cJSON_Delete(*unknown);
		*add = *unknown = NULL;
	}
	return rc;
}

int
scriptrules_site(struct store *st, const char *key, cJSON **doc, cJSON **records,
                 cJSON **add, cJSON **unknown, char *err, size_t errsz)
{
	struct site site;
	int rc;

	*doc = *records = *add = *unknown = NULL;
	err[0] = '\0';
	if ((rc = store_site_get(st, key, &site)) != STORE_OK)
		return rc;
	*doc = site.document != NULL ? cJSON_Parse(site.document) : defaults_config();
	store_site_clear(&site);
	if (*doc == NULL) {
		snprintf(err, errsz, "the stored config of %s is not valid JSON", key);
		return STORE_ERROR;
	}
	if ((*records = cJSON_CreateArray()) == NULL) {
		snprintf(err, errsz, "out of memory");
		return STORE_ERROR;
	}
	if ((rc = store_scripts_list(st, key, export_collect, *records)) != STORE_OK)
		return rc;
	if (scriptrules_suggest(*doc, *records, add, unknown) != 0)
		return STORE_ERROR;
	return STORE_OK;
}

int
scriptrules_append(cJSON *doc, cJSON *add, char *err, size_t errsz)
{
	cJSON *rules = cJSON_GetObjectItemCaseSensitive(doc, "scriptRules"), *r;

	if (rules == NULL && (rules = cJSON_AddArrayToObject(doc, "scriptRules")) == NULL) {
		snprintf(err, errsz, "out of memory");
		return -1;
	}
	if (!cJSON_IsArray(rules)) {
		snprintf(err, errsz, "invalid config: scriptRules must be an array");
		return -1;
	}
	while ((r = cJSON_DetachItemFromArray(add, 0)) != NULL)
		if (!cJSON_AddItemToArray(rules, r)) {
			cJSON_Delete(r);
			snprintf(err, errsz, "out of memory");
			return -1;
		}
	return 0;
}
