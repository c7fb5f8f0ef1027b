/* resolve.c: region, consent models, language and texts for one visitor. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/defaults.h"
#include "input/lang.h"
#include "base/limits.h"
#include "base/log.h"
#include "base/nitems.h"
#include "config/resolve.h"

static const char *const banner_keys[] = {
	"title", "description", "acceptAllText", "rejectAllText",
	"customizeText", "savePreferencesText", "closeText",
};
#define BANNER_KEYS (nitems(banner_keys))

/*
 * What resolve_pick() and resolve_has_category() read of a document, and
 * nothing else: resolve_region() reads the regions' id, countries and
 * subdivisions, resolve_language() the regions' defaultLanguage, the
 * content's defaultLanguage and which translations are objects, and
 * resolve_has_category() the categories' ids.  prepare.c cuts a document's
 * skeleton by this list, so the two answer alike on both; a resolver that
 * reads one more member adds it here (and bumps RESOLVE_VERSION).
 */
const char *const resolve_reads[] = {
	"regions[].id", "regions[].countries", "regions[].subdivisions",
	"regions[].defaultLanguage",
	"content.defaultLanguage", "content.translations.*",
	"categories[].id",
	NULL
};

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

/* The names of doc's translations that are objects, the first LANGS_MAX,
 * into avail: their count. */
static size_t
languages_of(const cJSON *doc, const char *avail[LANGS_MAX])
{
	const cJSON *e;
	size_t n = 0;

	EACH(e, obj_of(obj_of(doc, "content"), "translations")) {
		if (n < LANGS_MAX && e->string != NULL && cJSON_IsObject(e))
			avail[n++] = e->string;
	}
	return n;
}

/* CONTRACT 5.3: the resolved language, a string owned by doc or static. */
static const char *
resolve_language(const cJSON *doc, const cJSON *region, const struct visitor *v)
{
	const cJSON *content = obj_of(doc, "content");
	const char *avail[LANGS_MAX];
	const char *content_default = str_of(content, "defaultLanguage");
	size_t n = languages_of(doc, avail);
	int i;

	i = lang_negotiate(avail, n, v->lang, v->accept,
	    region ? str_of(region, "defaultLanguage") : NULL, content_default);
	if (i >= 0)
		return avail[i];
	return content_default ? content_default : "en";
}

/* Copy every string member of src into dst, replacing what dst had (in
 * its place).  0, or -1 when memory runs out (dst then holds part of src,
 * nothing is leaked). */
static int
overlay_strings(cJSON *dst, const cJSON *src)
{
	const cJSON *e;

	EACH(e, src) {
		if (e->string == NULL || !cJSON_IsString(e))
			continue;
		cJSON *s = cJSON_CreateString(e->valuestring), *old;
		if (s == NULL)
			return -1;
		if ((old = cJSON_GetObjectItemCaseSensitive(dst, e->string)) != NULL) {
			/* cJSON_ReplaceItemInObject would name s with a copy it
			 * does not check (cJSON 1.7.15): name it here. */
			size_t n = strlen(e->string) + 1;
			if ((s->string = cJSON_malloc(n)) == NULL) {
				cJSON_Delete(s);
				return -1;
			}
			memcpy(s->string, e->string, n);
			cJSON_ReplaceItemViaPointer(dst, old, s);
		} else if (!cJSON_AddItemToObject(dst, e->string, s)) {
			cJSON_Delete(s);
			return -1;
		}
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

/*
 * CONTRACT 5.5: the language's ui over the built-in labels: English's, then
 * those of the built-in language lang matches as a visitor's would (a
 * published "sv-SE" gets the Swedish labels, "zh-HK" the Traditional
 * Chinese ones).  builtin holds at least that language (defaults_texts()
 * picks it alike), so the answer is the same on the whole built-in
 * document and on the part a request parses.
 */
static cJSON *
resolve_ui(const cJSON *doc, const cJSON *builtin, const char *lang)
{
	const char *avail[LANGS_MAX];
	size_t n = languages_of(builtin, avail);
	int i = lang_negotiate(avail, n, lang, NULL, NULL, NULL);
	const cJSON *base = i >= 0 ? obj_of(translation(builtin, avail[i]), "ui") : NULL;
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

cJSON *
resolve_part(const cJSON *doc, const cJSON *builtin, const cJSON *region, const char *lang)
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
	if (cJSON_AddStringToObject(out, "resolvedLanguage", lang) == NULL ||
	    cJSON_AddStringToObject(out, "resolvedDirection", lang_direction(lang)) == NULL)
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
	return resolve_config_over(doc, NULL, v, site);
}

cJSON *
resolve_config_over(const cJSON *doc, const cJSON *builtin, const struct visitor *v,
                    const struct site_facts *site)
{
	cJSON *owned = NULL, *out;
	const cJSON *region, *rules;
	const char *lang;

	region = resolve_region(doc, v);
	lang = resolve_language(doc, region, v);
	/* The built-in texts of English and of this language: all it reads. */
	if (site->doc_is_builtin)
		builtin = doc;
	else if (builtin != NULL)
		;
	else if ((builtin = owned = defaults_skeleton()) == NULL ||
	    defaults_texts(owned, lang) != 0) {
		cJSON_Delete(owned);
		return NULL;
	}
	rules = arr_of(doc, "scriptRules");
	out = assemble(cJSON_CreateObjectReference(doc->child),
	    resolve_part(doc, builtin, region, lang),
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

/* The inside of a printed object: from after its "{" to before its "}";
 * NULL when text is not one. */
static const char *
members_of(const char *text, size_t *len)
{
	size_t n = text != NULL ? strlen(text) : 0;

	if (n < 2 || text[0] != '{' || text[n - 1] != '}')
		return NULL;
	*len = n - 2;
	return text + 1;
}

cJSON *
resolve_stored(const char *document, const char *script_rules, const char *answer,
               const struct site_facts *site)
{
	static const char head[] = "{\"config\":", tail[] = ",\"scriptRules\":";
	cJSON *facts = cJSON_CreateObject(), *out = NULL;
	char *printed = NULL, *text = NULL, *p;
	const char *a, *f;
	size_t alen = 0, flen = 0, dlen = strlen(document), rlen = strlen(script_rules);

	/* The answer was printed by cJSON (prepare.c), so its members are
	 * copied as they are: what parsing and printing them again would give. */
	if ((a = members_of(answer, &alen)) == NULL) {
		log_error("a prepared config answer is not a JSON object");
		goto done;
	}
	if (facts == NULL ||
	    cJSON_AddBoolToObject(facts, "showBranding", site->free_tier) == NULL ||
	    cJSON_AddNumberToObject(facts, "version", (double)site->version) == NULL ||
	    cJSON_AddStringToObject(facts, "site_name", site->name ? site->name : "") == NULL ||
	    (printed = cJSON_PrintUnformatted(facts)) == NULL ||
	    (f = members_of(printed, &flen)) == NULL)
		goto done;
	if ((text = malloc(sizeof(head) + dlen + 1 + alen + 1 + flen + sizeof(tail) + rlen + 2)) == NULL)
		goto done;
	p = text;
	memcpy(p, head, sizeof(head) - 1), p += sizeof(head) - 1;
	memcpy(p, document, dlen), p += dlen;
	if (alen > 0) {
		*p++ = ',';
		memcpy(p, a, alen), p += alen;
	}
	*p++ = ',';
	memcpy(p, f, flen), p += flen;
	memcpy(p, tail, sizeof(tail) - 1), p += sizeof(tail) - 1;
	memcpy(p, script_rules, rlen), p += rlen;
	*p++ = '}';
	*p = '\0';
	out = cJSON_CreateRaw(text);
done:
	free(text);
	cJSON_free(printed);
	cJSON_Delete(facts);
	return out;
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
