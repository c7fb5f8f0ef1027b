/* resolve.c: region, consent models, language and texts for one visitor. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "defaults.h"
#include "lang.h"
#include "limits.h"
#include "log.h"
#include "resolve.h"

static const char *const banner_keys[] = {
	"title", "description", "acceptAllText", "rejectAllText",
	"customizeText", "savePreferencesText", "closeText",
};
#define BANNER_KEYS (sizeof(banner_keys) / sizeof(banner_keys[0]))

/* Iterate over the members of a possibly NULL array or object
 * (cJSON_ArrayForEach dereferences it unguarded). */
#define EACH(e, parent) for ((e) = first((parent)); (e) != NULL; (e) = (e)->next)

static const cJSON *
first(const cJSON *parent)
{
	return parent ? parent->child : NULL;
}

/* The string member name of obj, or NULL. */
static const char *
str_of(const cJSON *obj, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static const cJSON *
obj_of(const cJSON *obj, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);

	return cJSON_IsObject(v) ? v : NULL;
}

static const cJSON *
arr_of(const cJSON *obj, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);

	return cJSON_IsArray(v) ? v : NULL;
}

/* Whether the array arr holds the string s. */
static int
holds(const cJSON *arr, const char *s)
{
	const cJSON *e;

	EACH(e, arr)
		if (cJSON_IsString(e) && strcmp(e->valuestring, s) == 0)
			return 1;
	return 0;
}

static int
subdivision_ok(const cJSON *region, const struct geo *g)
{
	const cJSON *subs = arr_of(region, "subdivisions");
	char code[sizeof(g->country) + sizeof(g->subdivision) + 1];

	if (subs == NULL || cJSON_GetArraySize(subs) == 0)
		return 1;
	if (g->subdivision[0] == '\0')
		return 0;
	snprintf(code, sizeof(code), "%s-%s", g->country, g->subdivision);
	return holds(subs, code);
}

static int
is_catch_all(const cJSON *region)
{
	const char *id = str_of(region, "id");

	return holds(arr_of(region, "countries"), "*") || (id && strcmp(id, "default") == 0);
}

/*
 * CONTRACT 5.1: the parameter names a region (else "default", else none);
 * without it, the first region in document order holding the country (and
 * the subdivision, where the region lists them), else the catch-all.
 */
const cJSON *
resolve_region(const cJSON *doc, const struct visitor *v)
{
	const cJSON *regions = arr_of(doc, "regions"), *r;

	if (regions == NULL)
		return NULL;
	if (v->region != NULL) {
		const cJSON *fallback = NULL;
		EACH(r, regions) {
			const char *id = str_of(r, "id");
			if (id == NULL)
				continue;
			if (strcmp(id, v->region) == 0)
				return r;
			if (fallback == NULL && strcmp(id, "default") == 0)
				fallback = r;
		}
		return fallback;
	}
	if (v->geo.country[0] != '\0') {
		EACH(r, regions) {
			if (holds(arr_of(r, "countries"), v->geo.country) && subdivision_ok(r, &v->geo))
				return r;
		}
	}
	EACH(r, regions) {
		if (cJSON_IsObject(r) && is_catch_all(r))
			return r;
	}
	return NULL;
}

/* CONTRACT 5.2: the consent model of one category under region (may be NULL). */
static const char *
category_model(const cJSON *cat, const cJSON *region)
{
	const char *own = str_of(cat, "consentModel");
	const char *id = str_of(cat, "id");
	const char *m;

	if (own != NULL && strcmp(own, "exempt") == 0)
		return own;
	if (region != NULL) {
		if (id != NULL && (m = str_of(obj_of(region, "categoryModels"), id)) != NULL)
			return m;
		if ((m = str_of(region, "consentModel")) != NULL)
			return m;
	}
	return own ? own : "opt_in";
}

/* The translation object of language lang in doc, or NULL. */
static const cJSON *
translation(const cJSON *doc, const char *lang)
{
	if (lang == NULL)
		return NULL;
	return obj_of(obj_of(obj_of(doc, "content"), "translations"), lang);
}

/* CONTRACT 5.3: the resolved language, a string owned by doc or static. */
static const char *
resolve_language(const cJSON *doc, const cJSON *region, const struct visitor *v)
{
	const cJSON *content = obj_of(doc, "content");
	const cJSON *tr = obj_of(content, "translations"), *e;
	const char *avail[LANGS_MAX];
	const char *content_default = str_of(content, "defaultLanguage");
	size_t n = 0;
	int i;

	EACH(e, tr) {
		if (n < LANGS_MAX && e->string != NULL && cJSON_IsObject(e))
			avail[n++] = e->string;
	}
	i = lang_negotiate(avail, n, v->lang, v->accept,
	    region ? str_of(region, "defaultLanguage") : NULL, content_default);
	if (i >= 0)
		return avail[i];
	return content_default ? content_default : "en";
}

/* Copy every string member of src into dst, replacing what dst had. */
static int
overlay_strings(cJSON *dst, const cJSON *src)
{
	const cJSON *e;

	EACH(e, src) {
		if (e->string == NULL || !cJSON_IsString(e))
			continue;
		cJSON *s = cJSON_CreateString(e->valuestring);
		if (s == NULL)
			return -1;
		if (cJSON_GetObjectItemCaseSensitive(dst, e->string) != NULL)
			cJSON_ReplaceItemInObjectCaseSensitive(dst, e->string, s);
		else
			cJSON_AddItemToObject(dst, e->string, s);
	}
	return 0;
}

/*
 * CONTRACT 5.4: exactly the seven banner keys, each from the first of the
 * resolved language, the document's default language, built-in English;
 * then the resolved language's override for the region's model on top.
 */
static cJSON *
resolve_content(const cJSON *doc, const cJSON *builtin, const char *lang,
                const char *model)
{
	const cJSON *sources[3];
	const cJSON *over = NULL;
	cJSON *out = cJSON_CreateObject();

	if (out == NULL)
		return NULL;
	sources[0] = obj_of(translation(doc, lang), "banner");
	sources[1] = obj_of(translation(doc, str_of(obj_of(doc, "content"), "defaultLanguage")), "banner");
	sources[2] = obj_of(translation(builtin, "en"), "banner");
	if (model != NULL)
		over = obj_of(obj_of(translation(doc, lang), "modelOverrides"), model);
	for (size_t k = 0; k < BANNER_KEYS; k++) {
		const char *s = str_of(over, banner_keys[k]);
		for (size_t i = 0; s == NULL && i < 3; i++)
			s = str_of(sources[i], banner_keys[k]);
		if (cJSON_AddStringToObject(out, banner_keys[k], s ? s : "") == NULL) {
			cJSON_Delete(out);
			return NULL;
		}
	}
	return out;
}

/* CONTRACT 5.5: the language's ui over the built-in labels. */
static cJSON *
resolve_ui(const cJSON *doc, const cJSON *builtin, const char *lang)
{
	const cJSON *base = obj_of(translation(builtin, lang), "ui");
	cJSON *out = cJSON_CreateObject();

	if (out == NULL)
		return NULL;
	if (overlay_strings(out, obj_of(translation(builtin, "en"), "ui")) != 0 ||
	    overlay_strings(out, base) != 0 ||
	    overlay_strings(out, obj_of(translation(doc, lang), "ui")) != 0)
		goto fail;
	if (cJSON_GetObjectItemCaseSensitive(out, "required") == NULL &&
	    cJSON_AddStringToObject(out, "required", "Required") == NULL)
		goto fail;
	return out;
fail:
	cJSON_Delete(out);
	return NULL;
}

static cJSON *
resolve_categories(const cJSON *doc, const cJSON *region, const char *lang)
{
	const cJSON *texts = obj_of(translation(doc, lang), "categories");
	const cJSON *cat;
	cJSON *out = cJSON_CreateArray();

	if (out == NULL)
		return NULL;
	EACH(cat, arr_of(doc, "categories")) {
		const char *id = str_of(cat, "id");
		const cJSON *t;
		const char *name, *desc;
		cJSON *c;

		if (id == NULL)
			continue;
		t = obj_of(texts, id);
		name = str_of(t, "name") ? str_of(t, "name") : str_of(cat, "name");
		desc = str_of(t, "description") ? str_of(t, "description") : str_of(cat, "description");
		if ((c = cJSON_CreateObject()) == NULL)
			goto fail;
		cJSON_AddItemToArray(out, c);
		if (cJSON_AddStringToObject(c, "id", id) == NULL ||
		    cJSON_AddStringToObject(c, "name", name ? name : id) == NULL ||
		    cJSON_AddStringToObject(c, "description", desc ? desc : "") == NULL ||
		    cJSON_AddStringToObject(c, "consentModel", category_model(cat, region)) == NULL)
			goto fail;
	}
	return out;
fail:
	cJSON_Delete(out);
	return NULL;
}

/*
 * The part of the 200 body that depends only on the region (may be NULL)
 * and the language: sdkCategories, resolvedRegion, resolvedLanguage,
 * resolvedContent and resolvedUi, in that order.  New object or NULL.
 */
static cJSON *
answer_of(const cJSON *doc, const cJSON *builtin, const cJSON *region, const char *lang)
{
	const char *rid = region ? str_of(region, "id") : NULL;
	cJSON *out, *item;

	if ((out = cJSON_CreateObject()) == NULL)
		return NULL;
	if ((item = resolve_categories(doc, region, lang)) == NULL ||
	    !cJSON_AddItemToObject(out, "sdkCategories", item))
		goto fail_item;
	item = rid ? cJSON_CreateString(rid) : cJSON_CreateNull();
	if (item == NULL || !cJSON_AddItemToObject(out, "resolvedRegion", item))
		goto fail_item;
	if (cJSON_AddStringToObject(out, "resolvedLanguage", lang) == NULL)
		goto fail;
	if ((item = resolve_content(doc, builtin, lang, region ? str_of(region, "consentModel") : NULL)) == NULL ||
	    !cJSON_AddItemToObject(out, "resolvedContent", item))
		goto fail_item;
	if ((item = resolve_ui(doc, builtin, lang)) == NULL ||
	    !cJSON_AddItemToObject(out, "resolvedUi", item))
		goto fail_item;
	return out;
fail_item:
	cJSON_Delete(item);
fail:
	cJSON_Delete(out);
	return NULL;
}

/*
 * The 200 body (spec 4.1) in its order: config, the members of answer, the
 * site's facts, scriptRules.  Takes config, answer and rules (each may be
 * NULL after a failed allocation, which fails the whole) and frees them.
 */
static cJSON *
assemble(cJSON *config, cJSON *answer, cJSON *rules, const struct site_facts *site)
{
	cJSON *out = cJSON_CreateObject(), *item;

	if (out == NULL || config == NULL || answer == NULL || rules == NULL)
		goto fail;
	if (!cJSON_AddItemToObject(out, "config", config))
		goto fail;
	config = NULL;
	while ((item = answer->child) != NULL) {
		cJSON_DetachItemViaPointer(answer, item);
		if (!cJSON_AddItemToObject(out, item->string, item)) {
			cJSON_Delete(item);
			goto fail;
		}
	}
	if (cJSON_AddBoolToObject(out, "showBranding", site->free_tier) == NULL ||
	    cJSON_AddNumberToObject(out, "version", (double)site->version) == NULL ||
	    cJSON_AddStringToObject(out, "site_name", site->name ? site->name : "") == NULL)
		goto fail;
	if (!cJSON_AddItemToObject(out, "scriptRules", rules))
		goto fail;
	cJSON_Delete(answer);
	return out;
fail:
	cJSON_Delete(out);
	cJSON_Delete(config);
	cJSON_Delete(answer);
	cJSON_Delete(rules);
	return NULL;
}

cJSON *
resolve_config(const cJSON *doc, const struct visitor *v, const struct site_facts *site)
{
	cJSON *owned = NULL, *out;
	const cJSON *builtin, *region, *rules;
	const char *lang;

	if (site->doc_is_builtin)
		builtin = doc;
	else if ((builtin = owned = defaults_config()) == NULL)
		return NULL;
	region = resolve_region(doc, v);
	lang = resolve_language(doc, region, v);
	rules = arr_of(doc, "scriptRules");
	out = assemble(cJSON_CreateObjectReference(doc->child),
	    answer_of(doc, builtin, region, lang),
	    rules ? cJSON_CreateArrayReference(rules->child) : cJSON_CreateArray(), site);
	cJSON_Delete(owned);
	return out;
}

int
resolve_pick(const cJSON *skeleton, const struct visitor *v, const char **region,
             const char **lang)
{
	const cJSON *r = resolve_region(skeleton, v);

	*region = "";
	if (r != NULL && (*region = str_of(r, "id")) == NULL)
		return -1;
	*lang = resolve_language(skeleton, r, v);
	return 0;
}

cJSON *
resolve_stored(const char *document, const char *script_rules, const char *answer,
               const struct site_facts *site)
{
	cJSON *a = cJSON_ParseWithOpts(answer, NULL, 1);

	if (a != NULL && !cJSON_IsObject(a)) {
		cJSON_Delete(a);
		a = NULL;
	}
	if (a == NULL)
		log_error("a prepared config answer does not parse");
	return assemble(cJSON_CreateRaw(document), a, cJSON_CreateRaw(script_rules), site);
}

/* Copy of the string member name of src into dst, when src has one. */
static int
copy_string(cJSON *dst, const cJSON *src, const char *name)
{
	const char *s = str_of(src, name);

	return s == NULL || cJSON_AddStringToObject(dst, name, s) != NULL ? 0 : -1;
}

/* Copy of the array member name of src into dst, when src has one. */
static int
copy_array(cJSON *dst, const cJSON *src, const char *name)
{
	const cJSON *a = arr_of(src, name);
	cJSON *c;

	if (a == NULL)
		return 0;
	if ((c = cJSON_Duplicate(a, 1)) == NULL)
		return -1;
	cJSON_AddItemToObject(dst, name, c);
	return 0;
}

/*
 * The skeleton: every member resolve_region(), resolve_language() and
 * resolve_has_category() read, and nothing else, so that those give the
 * same answers on it as on the document.
 */
static cJSON *
skeleton_of(const cJSON *doc)
{
	const cJSON *content = obj_of(doc, "content"), *e;
	cJSON *out = cJSON_CreateObject(), *regions, *cats, *c, *tr, *o;

	if (out == NULL || (regions = cJSON_AddArrayToObject(out, "regions")) == NULL ||
	    (cats = cJSON_AddArrayToObject(out, "categories")) == NULL ||
	    (c = cJSON_AddObjectToObject(out, "content")) == NULL ||
	    copy_string(c, content, "defaultLanguage") != 0 ||
	    (tr = cJSON_AddObjectToObject(c, "translations")) == NULL)
		goto fail;
	EACH(e, arr_of(doc, "regions")) {
		if ((o = cJSON_CreateObject()) == NULL)
			goto fail;
		cJSON_AddItemToArray(regions, o);
		if (cJSON_IsObject(e) && (copy_string(o, e, "id") != 0 ||
		    copy_array(o, e, "countries") != 0 || copy_array(o, e, "subdivisions") != 0 ||
		    copy_string(o, e, "defaultLanguage") != 0))
			goto fail;
	}
	EACH(e, arr_of(doc, "categories")) {
		if ((o = cJSON_CreateObject()) == NULL)
			goto fail;
		cJSON_AddItemToArray(cats, o);
		if (copy_string(o, e, "id") != 0)
			goto fail;
	}
	EACH(e, obj_of(content, "translations")) {
		if (e->string == NULL)
			continue;
		o = cJSON_IsObject(e) ? cJSON_CreateObject() : cJSON_CreateNull();
		if (o == NULL)
			goto fail;
		cJSON_AddItemToObject(tr, e->string, o);
	}
	return out;
fail:
	cJSON_Delete(out);
	return NULL;
}

void
resolve_prepared_free(struct prepared *p)
{
	for (size_t i = 0; i < p->n; i++) {
		cJSON_free(p->a[i].answer);
		free(p->a[i].region);
		free(p->a[i].language);
	}
	free(p->a);
	cJSON_free(p->skeleton);
	cJSON_free(p->script_rules);
	memset(p, 0, sizeof(*p));
}

/* Append the answer for region (may be NULL) and lang to p: 0 or -1. */
static int
prepare_one(struct prepared *p, const cJSON *doc, const cJSON *builtin,
            const cJSON *region, const char *lang)
{
	struct prepared_answer *a = &p->a[p->n];
	const char *rid = region ? str_of(region, "id") : "";
	cJSON *ans = answer_of(doc, builtin, region, lang);

	a->answer = ans ? cJSON_PrintUnformatted(ans) : NULL;
	cJSON_Delete(ans);
	a->region = strdup(rid);
	a->language = strdup(lang);
	p->n++;
	return a->answer && a->region && a->language ? 0 : -1;
}

int
resolve_prepare(const cJSON *doc, struct prepared *p)
{
	const cJSON *content = obj_of(doc, "content"), *rules = arr_of(doc, "scriptRules");
	const cJSON *regions = arr_of(doc, "regions"), *r, *q, *e;
	const char *langs[LANGS_MAX + 1];
	const char *fallback = str_of(content, "defaultLanguage");
	size_t nl = 0, nr = 1;
	cJSON *skel = NULL, *builtin = NULL, *empty = NULL;
	int rc = -1;

	memset(p, 0, sizeof(*p));
	/* The languages resolve_language() can answer: the first LANGS_MAX
	 * translations, and the fallback when it is not one of them. */
	EACH(e, obj_of(content, "translations")) {
		if (nl < LANGS_MAX && e->string != NULL && cJSON_IsObject(e)) {
			size_t i = 0;
			while (i < nl && strcmp(langs[i], e->string) != 0)
				i++;
			if (i == nl)
				langs[nl++] = e->string;
		}
	}
	if (fallback == NULL)
		fallback = "en";
	for (size_t i = 0; i < nl && fallback != NULL; i++)
		if (strcmp(langs[i], fallback) == 0)
			fallback = NULL;
	if (fallback != NULL)
		langs[nl++] = fallback;
	/* Every region needs an id of its own, or the stored answers could not
	 * tell them apart: such a document is resolved per request instead. */
	EACH(r, regions) {
		const char *id = str_of(r, "id");
		if (id == NULL || *id == '\0')
			return 1;
		for (q = regions->child; q != r; q = q->next)
			if (strcmp(str_of(q, "id"), id) == 0)
				return 1;
		nr++;
	}
	if (nr * nl > PREPARED_ANSWERS_MAX)
		return 1;
	if ((builtin = defaults_config()) == NULL || (skel = skeleton_of(doc)) == NULL ||
	    (p->skeleton = cJSON_PrintUnformatted(skel)) == NULL)
		goto out;
	if (rules != NULL)
		p->script_rules = cJSON_PrintUnformatted(rules);
	else if ((empty = cJSON_CreateArray()) != NULL)
		p->script_rules = cJSON_PrintUnformatted(empty);
	if (p->script_rules == NULL || (p->a = calloc(nr * nl, sizeof(*p->a))) == NULL)
		goto out;
	for (size_t i = 0; i < nl; i++) {
		if (prepare_one(p, doc, builtin, NULL, langs[i]) != 0)
			goto out;
		EACH(r, regions)
			if (prepare_one(p, doc, builtin, r, langs[i]) != 0)
				goto out;
	}
	rc = 0;
out:
	if (rc != 0) {
		log_error("out of memory preparing the config");
		resolve_prepared_free(p);
	}
	cJSON_Delete(empty);
	cJSON_Delete(skel);
	cJSON_Delete(builtin);
	return rc;
}

cJSON *
resolve_document(const char *published)
{
	cJSON *doc = published ? cJSON_ParseWithOpts(published, NULL, 1) : defaults_config();

	if (doc != NULL && !cJSON_IsObject(doc)) {
		cJSON_Delete(doc);
		doc = NULL;
	}
	if (doc == NULL)
		log_error("the %s config does not parse", published ? "published" : "built-in");
	return doc;
}

int
resolve_has_category(const cJSON *doc, const char *id)
{
	const cJSON *cat;

	EACH(cat, arr_of(doc, "categories")) {
		const char *cid = str_of(cat, "id");
		if (cid != NULL && strcmp(cid, id) == 0)
			return 1;
	}
	return 0;
}
