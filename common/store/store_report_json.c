/* store_report_json.c: the report's figures as JSON from either backend's rows (consentctl report). */
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/nitems.h"
#include "store/store_report_json.h"

const int report_json_tta_bounds[TTA_NBOUNDS] = {0, 1000, 2000, 5000, 10000, 30000, 60000};
static const char *const tta_names[TTA_NBOUNDS] = {TTA_NAMES};

int
report_json_collect(const cJSON *row, void *arg)
{
	cJSON *copy = cJSON_Duplicate(row, 1);

	if (copy == NULL || !cJSON_AddItemToArray(arg, copy)) {
		cJSON_Delete(copy);
		log_error("out of memory");
		return STORE_ERROR;
	}
	return 0;
}

int
report_json_visitors(cJSON *out)
{
	static const char *const names[] = {"visitors", "decided", ACTION_NAMES, "no_decision",
	    "returning"};
	int64_t n[nitems(names)] = {0};
	cJSON *cats, *r, *next, *o, *totals = cJSON_GetObjectItemCaseSensitive(out, "totals");
	size_t i;

	cats = cJSON_GetObjectItemCaseSensitive(out, "categories");
	for (r = cats->child; r != NULL; r = next) {
		const char *outcome = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "outcome"));
		int64_t v = (int64_t)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(r, "visitors"));

		next = r->next;
		if (!cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(r, "category"))) {
			cJSON_DeleteItemFromObjectCaseSensitive(r, "outcome");
			continue;
		}
		n[0] += v;
		for (i = 2; i < nitems(names); i++)
			if (outcome != NULL && strcmp(outcome, names[i]) == 0)
				break;
		if (i < 2 + NACTION_NAMES || i == nitems(names))  /* an action, or a decision without */
			n[1] += v;
		if (i < nitems(names))
			n[i] += v;
		cJSON_Delete(cJSON_DetachItemViaPointer(cats, r));
	}
	if (cJSON_AddNumberToObject(totals, "visitors", (double)n[0]) == NULL ||
	    (o = cJSON_AddObjectToObject(out, "outcomes")) == NULL)
		goto oom;
	for (i = 0; i < nitems(names); i++)
		if (cJSON_AddNumberToObject(o, names[i], (double)n[i]) == NULL)
			goto oom;
	return STORE_OK;
oom:
	log_error("out of memory");
	return STORE_ERROR;
}

/* The bucket (report_json_tta_bounds) of the value of rank r (0 the
 * smallest) of the n times, below[i] of them below bound i
 * (below[TTA_NBOUNDS] = n). */
static size_t
bucket_of(const int64_t *below, int64_t r)
{
	size_t i = 0;

	while (i + 1 < TTA_NBOUNDS && below[i + 1] <= r)
		i++;
	return i;
}

/* The median of the n times to action (NULL for none) into tta: the mean
 * of the values of rank lo and hi (the same one when n is odd), read by
 * median from the buckets that hold them. */
static int
add_median(struct store *st, cJSON *tta, const int64_t *below,
           report_json_median_fn median, const void *arg)
{
	int64_t n = below[TTA_NBOUNDS], lo = (n - 1) / 2, hi = n / 2, skip_up, skip_down;
	struct report_json_median m;
	size_t first, last;
	double ms;
	int none;
	cJSON *v;

	if (n == 0)
		return cJSON_AddNullToObject(tta, "median_ms") != NULL ? STORE_OK : STORE_ERROR;
	first = bucket_of(below, lo);
	last = bucket_of(below, hi);
	skip_up = lo - below[first];
	skip_down = below[last + 1] - 1 - hi;
	m.take = hi - lo + 1;
	m.down = skip_down < skip_up;
	m.skip = m.down ? skip_down : skip_up;
	m.from = first > 0 ? report_json_tta_bounds[first] : -1;
	m.to = last + 1 < TTA_NBOUNDS ? report_json_tta_bounds[last + 1] : -1;
	if (median(st, arg, &m, &ms, &none) != STORE_OK)
		return STORE_ERROR;
	v = none ? cJSON_CreateNull() : cJSON_CreateNumber(ms);
	if (v == NULL || !cJSON_AddItemToObject(tta, "median_ms", v)) {
		cJSON_Delete(v);
		log_error("out of memory");
		return STORE_ERROR;
	}
	return STORE_OK;
}

int
report_json_add_tta(struct store *st, cJSON *out, report_json_median_fn median,
                    const void *arg)
{
	cJSON *totals = cJSON_GetObjectItemCaseSensitive(out, "totals"), *tta, *arr, *b;
	int64_t below[TTA_NBOUNDS + 1];
	size_t i;

	below[0] = 0;
	below[TTA_NBOUNDS] = (int64_t)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(totals, tta_names[0]));
	for (i = 1; i < TTA_NBOUNDS; i++)
		below[i] = (int64_t)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(totals, tta_names[i]));
	for (i = 0; i < TTA_NBOUNDS; i++)
		cJSON_DeleteItemFromObjectCaseSensitive(totals, tta_names[i]);
	if ((tta = cJSON_AddObjectToObject(out, "time_to_action")) == NULL ||
	    cJSON_AddNumberToObject(tta, "count", (double)below[TTA_NBOUNDS]) == NULL ||
	    add_median(st, tta, below, median, arg) != STORE_OK ||
	    (arr = cJSON_AddArrayToObject(tta, "buckets")) == NULL)
		goto fail;
	for (i = 0; i < TTA_NBOUNDS; i++) {
		if ((b = cJSON_CreateObject()) == NULL || !cJSON_AddItemToArray(arr, b)) {
			cJSON_Delete(b);
			goto fail;
		}
		if (cJSON_AddNumberToObject(b, "from_ms", report_json_tta_bounds[i]) == NULL ||
		    (i + 1 < TTA_NBOUNDS
		     ? cJSON_AddNumberToObject(b, "to_ms", report_json_tta_bounds[i + 1])
		     : cJSON_AddNullToObject(b, "to_ms")) == NULL ||
		    cJSON_AddNumberToObject(b, "count", (double)(below[i + 1] - below[i])) == NULL)
			goto fail;
	}
	return STORE_OK;
fail:
	log_error("report: time to action failed");
	return STORE_ERROR;
}
