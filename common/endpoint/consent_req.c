/* consent_req.c: the fields of a consent request, declared once. */
#include <stdio.h>
#include <string.h>

#include "endpoint/consent_req.h"
#include "base/limits.h"
#include "base/nitems.h"
#include "config/resolve.h"
#include "input/valid.h"

static const char *const event_types[] = { "initial", "update", "impression", NULL };
static const char *const event_actions[] = { "opt_in", "opt_out", "partial", "acknowledge", NULL };
static const char *const models[] = {
	"opt_in", "opt_out", "notice", "notice_required", "notice_only", NULL
};

/* The request body of spec 4.2 (limits: spec 8, limits.h). */
static const struct vfield fields[] = {
	{ "site_key",            V_STRING,  1, 1, SITE_KEY_MAX, 0, 0, NULL },
	{ "anon_id",             V_STRING,  1, 1, ANON_ID_MAX, 0, 0, NULL },
	{ "categories",          V_OBJECT,  1, 0, CATEGORIES_MAX, 0, 0, NULL },
	{ "event_type",          V_STRING,  1, 1, 0, 0, 0, event_types },
	{ "event_action",        V_STRING,  0, 1, 0, 0, 0, event_actions },
	{ "config_version",      V_INTEGER, 0, 0, 0, 0, VERSION_MAX, NULL },
	{ "region",              V_STRING,  0, 0, TOKEN_MAX, 0, 0, NULL },
	{ "consent_model",       V_STRING,  0, 1, 0, 0, 0, models },
	{ "regulation",          V_STRING,  0, 0, TOKEN_MAX, 0, 0, NULL },
	{ "time_to_action_ms",   V_NUMBER,  0, 0, 0, 0, MS_FIELD_MAX, NULL },
	{ "interaction",         V_STRING,  0, 0, INTERACTION_MAX, 0, 0, NULL },
	{ "preferences_opened",  V_BOOL,    0, 0, 0, 0, 0, NULL },
	{ "banner_load_time_ms", V_NUMBER,  0, 0, 0, 0, MS_FIELD_MAX, NULL },
	{ "banner_position",     V_STRING,  0, 0, TOKEN_MAX, 0, 0, NULL },
	{ "page_url",            V_STRING,  0, 0, CONSENT_PAGE_URL_MAX, 0, 0, NULL },
	{ "sdk_version",         V_STRING,  0, 0, TOKEN_MAX, 0, 0, NULL },
	{ "language",            V_STRING,  0, 0, LANG_TAG_MAX, 0, 0, NULL },
	{ "resolved_language",   V_STRING,  0, 0, LANG_TAG_MAX, 0, 0, NULL },
};
#define NFIELDS (nitems(fields))

static int
key_ok(const char *k)
{
	long chars = valid_text_chars(k, 0);

	return chars >= 1 && chars <= CATEGORY_ID_MAX;
}

int
consent_req_check(const cJSON *body, const cJSON *doc, char *err, size_t errsz)
{
	const cJSON *cats, *c;
	size_t o;
	int bad = 0, impression;

	if (valid_object(body, fields, NFIELDS, "", err, errsz) != 0)
		return -1;
	cats = valid_get(body, "categories");
	impression = strcmp(valid_get(body, "event_type")->valuestring, "impression") == 0;
	for (c = cats->child; c != NULL; c = c->next) {
		if (!key_ok(c->string)) {
			snprintf(err, errsz, "categories keys must be 1 to %d characters", CATEGORY_ID_MAX);
			return -1;
		}
		if (!cJSON_IsBool(c)) {
			snprintf(err, errsz, "categories.%s must be a boolean", c->string);
			return -1;
		}
	}
	if (impression)
		return 0;
	o = (size_t)snprintf(err, errsz, "Invalid category ids: ");
	for (c = cats->child; c != NULL; c = c->next) {
		int w;
		if (resolve_has_category(doc, c->string))
			continue;
		w = snprintf(err + o, errsz - o, "%s%s", bad ? ", " : "", c->string);
		if (w > 0 && (size_t)w < errsz - o)
			o += (size_t)w;
		bad = 1;
	}
	return bad ? -1 : 0;
}

/* An optional body member as a store value (absent: SV_NULL). */
static struct store_value
value(const cJSON *body, const char *name)
{
	const cJSON *v = valid_get(body, name);
	struct store_value sv = { SV_NULL, NULL, 0, 0 };

	if (cJSON_IsString(v)) {
		sv.type = SV_TEXT;
		sv.text = v->valuestring;
	} else if (cJSON_IsBool(v)) {
		sv.type = SV_INT;
		sv.i = cJSON_IsTrue(v);
	} else if (cJSON_IsNumber(v)) {
		/* checked to a finite range far inside int64_t: the cast is exact */
		if ((double)(int64_t)v->valuedouble == v->valuedouble) {
			sv.type = SV_INT;
			sv.i = (int64_t)v->valuedouble;
		} else {
			sv.type = SV_REAL;
			sv.r = v->valuedouble;
		}
	}
	return sv;
}

void
consent_req_entry(const cJSON *body, struct consent_entry *e)
{
	e->event_type = valid_get(body, "event_type")->valuestring;
	e->event_action = value(body, "event_action");
	e->config_version = value(body, "config_version");
	e->region = value(body, "region");
	e->consent_model = value(body, "consent_model");
	e->regulation = value(body, "regulation");
	e->time_to_action_ms = value(body, "time_to_action_ms");
	e->interaction = value(body, "interaction");
	e->preferences_opened = value(body, "preferences_opened");
	e->banner_load_time_ms = value(body, "banner_load_time_ms");
	e->banner_position = value(body, "banner_position");
	e->page_url = value(body, "page_url");
	e->sdk_version = value(body, "sdk_version");
	e->language = value(body, "language");
	e->resolved_language = value(body, "resolved_language");
}
