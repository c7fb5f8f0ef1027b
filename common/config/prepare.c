/* prepare.c: the one config path: answers prepared at publish time, stamped, read by every endpoint. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/defaults.h"
#include "base/limits.h"
#include "base/log.h"
#include "config/prepare.h"

const char *
prepare_stamp(void)
{
	static char stamp[48];

	if (stamp[0] == '\0')
		snprintf(stamp, sizeof(stamp), "r%d-%.16s", RESOLVE_VERSION, defaults_hash());
	return stamp;
}

/* ---- the skeleton ---- */

static const cJSON *
member(const cJSON *obj, const char *name, size_t len)
{
	const cJSON *e;

	if (!cJSON_IsObject(obj))
		return NULL;
	for (e = obj->child; e != NULL; e = e->next)  /* the first, as cJSON_GetObjectItem */
		if (e->string != NULL && strncmp(e->string, name, len) == 0 && e->string[len] == '\0')
			return e;
	return NULL;
}

/* dst's member of that name (len bytes), added as an empty array or
 * object when absent; NULL when out of memory or the name is too long. */
static cJSON *
dst_member(cJSON *dst, const char *name, size_t len, int array)
{
	char key[64];
	cJSON *m;

	if (len >= sizeof(key))
		return NULL;
	memcpy(key, name, len);
	key[len] = '\0';
	if ((m = cJSON_GetObjectItemCaseSensitive(dst, key)) != NULL)
		return m;
	return array ? cJSON_AddArrayToObject(dst, key) : cJSON_AddObjectToObject(dst, key);
}

/*
 * Copy into dst what path (one entry of resolve_reads) names in src: a
 * member ("a"), a member of a member ("a.b"), that member of every element
 * of an array ("a[].b": dst's array keeps one object per element, so that
 * positions agree), or every member name of an object ("a.*": an empty
 * object for an object, null for anything else).  0, or -1 when out of
 * memory.
 */
static int
copy_path(cJSON *dst, const cJSON *src, const char *path)
{
	const char *dot = strchr(path, '.');
	size_t len = dot ? (size_t)(dot - path) : strlen(path);
	const cJSON *s, *e;
	cJSON *d, *c;
	int i;

	if (len == 1 && path[0] == '*') {
		for (e = cJSON_IsObject(src) ? src->child : NULL; e != NULL; e = e->next) {
			if (e->string == NULL || cJSON_GetObjectItemCaseSensitive(dst, e->string) != NULL)
				continue;
			c = cJSON_IsObject(e) ? cJSON_CreateObject() : cJSON_CreateNull();
			if (c == NULL || !cJSON_AddItemToObject(dst, e->string, c)) {
				cJSON_Delete(c);
				return -1;
			}
		}
		return 0;
	}
	if (len > 2 && path[len - 2] == '[' && path[len - 1] == ']') {
		if (!cJSON_IsArray(s = member(src, path, len - 2)) || dot == NULL)
			return 0;
		if ((d = dst_member(dst, path, len - 2, 1)) == NULL)
			return -1;
		for (e = s->child, i = 0; e != NULL; e = e->next, i++) {
			if ((c = cJSON_GetArrayItem(d, i)) == NULL &&
			    ((c = cJSON_CreateObject()) == NULL || !cJSON_AddItemToArray(d, c))) {
				cJSON_Delete(c);
				return -1;
			}
			if (cJSON_IsObject(e) && copy_path(c, e, dot + 1) != 0)
				return -1;
		}
		return 0;
	}
	if ((s = member(src, path, len)) == NULL)
		return 0;
	if (dot == NULL) {
		if (cJSON_GetObjectItemCaseSensitive(dst, s->string) != NULL)
			return 0;
		c = cJSON_Duplicate(s, 1);
		if (c == NULL || !cJSON_AddItemToObject(dst, s->string, c)) {
			cJSON_Delete(c);
			return -1;
		}
		return 0;
	}
	if (!cJSON_IsObject(s))
		return 0;
	if ((d = dst_member(dst, path, len, 0)) == NULL)
		return -1;
	return copy_path(d, s, dot + 1);
}

/* The skeleton of doc: this build's stamp and every member resolve_reads
 * names, nothing else.  New object or NULL. */
static cJSON *
skeleton_of(const cJSON *doc)
{
	cJSON *out = cJSON_CreateObject();

	if (out == NULL || cJSON_AddStringToObject(out, "stamp", prepare_stamp()) == NULL)
		goto fail;
	for (size_t i = 0; resolve_reads[i] != NULL; i++)
		if (copy_path(out, doc, resolve_reads[i]) != 0)
			goto fail;
	return out;
fail:
	cJSON_Delete(out);
	return NULL;
}

/* ---- publish time ---- */

/* Keep s (from cJSON_Print or strdup; may be NULL) to free with p: s, or
 * NULL when s is NULL or cannot be kept (then freed). */
static char *
own(struct prepared *p, char *s)
{
	char **grown;

	if (s == NULL)
		return NULL;
	if ((grown = realloc(p->owned, (p->nowned + 1) * sizeof(*grown))) == NULL) {
		free(s);
		return NULL;
	}
	p->owned = grown;
	p->owned[p->nowned++] = s;
	return s;
}

void
prepare_free(struct prepared *p)
{
	for (size_t i = 0; i < p->nowned; i++)
		free(p->owned[i]);
	free(p->owned);
	free(p->a);
	memset(p, 0, sizeof(*p));
}

/* Printed JSON of v, kept by p; NULL when out of memory.  Deletes v. */
static char *
own_json(struct prepared *p, cJSON *v)
{
	char *s = v ? cJSON_PrintUnformatted(v) : NULL;

	cJSON_Delete(v);
	return own(p, s);
}

/* Append the answer for region (may be NULL) and lang to p: 0 or -1. */
static int
prepare_one(struct prepared *p, const cJSON *doc, const cJSON *builtin,
            const cJSON *region, const char *lang)
{
	const cJSON *id = region ? cJSON_GetObjectItemCaseSensitive(region, "id") : NULL;
	struct store_answer *a = &p->a[p->rows.n];

	a->answer = own_json(p, resolve_part(doc, builtin, region, lang));
	a->region = own(p, strdup(cJSON_IsString(id) ? id->valuestring : ""));
	a->language = own(p, strdup(lang));
	p->rows.n++;
	return a->answer && a->region && a->language ? 0 : -1;
}

enum prepare_result
prepare_document(const cJSON *doc, struct prepared *p)
{
	const cJSON *content = cJSON_GetObjectItemCaseSensitive(doc, "content");
	const cJSON *rules = cJSON_GetObjectItemCaseSensitive(doc, "scriptRules");
	const cJSON *regions = cJSON_GetObjectItemCaseSensitive(doc, "regions"), *r, *q, *e;
	const cJSON *fallback_item = cJSON_GetObjectItemCaseSensitive(content, "defaultLanguage");
	const char *langs[LANGS_MAX + 1];
	const char *fallback = cJSON_IsString(fallback_item) ? fallback_item->valuestring : "en";
	size_t nl = 0, nr = 1;
	cJSON *builtin = NULL;
	enum prepare_result rc = PREPARE_NOMEM;

	memset(p, 0, sizeof(*p));
	if (!cJSON_IsArray(regions))
		regions = NULL;
	if (!cJSON_IsArray(rules))
		rules = NULL;
	/* The languages resolve_language() can answer: the first LANGS_MAX
	 * translations, and the fallback when it is not one of them. */
	e = cJSON_GetObjectItemCaseSensitive(content, "translations");
	for (e = cJSON_IsObject(e) ? e->child : NULL; e != NULL; e = e->next) {
		if (nl < LANGS_MAX && e->string != NULL && cJSON_IsObject(e)) {
			size_t i = 0;
			while (i < nl && strcmp(langs[i], e->string) != 0)
				i++;
			if (i == nl)
				langs[nl++] = e->string;
		}
	}
	for (size_t i = 0; i < nl && fallback != NULL; i++)
		if (strcmp(langs[i], fallback) == 0)
			fallback = NULL;
	if (fallback != NULL)
		langs[nl++] = fallback;
	/* Every region needs an id of its own, or the stored answers could not
	 * tell them apart: such a document is resolved per request instead. */
	for (r = regions ? regions->child : NULL; r != NULL; r = r->next) {
		const cJSON *id = cJSON_GetObjectItemCaseSensitive(r, "id");
		if (!cJSON_IsString(id) || id->valuestring[0] == '\0')
			return PREPARE_PER_REQUEST;
		for (q = regions->child; q != r; q = q->next)
			if (strcmp(cJSON_GetObjectItemCaseSensitive(q, "id")->valuestring,
			    id->valuestring) == 0)
				return PREPARE_PER_REQUEST;
		nr++;
	}
	if (nr * nl > PREPARED_ANSWERS_MAX)
		return PREPARE_PER_REQUEST;
	if ((builtin = defaults_config()) == NULL ||
	    (p->rows.skeleton = own_json(p, skeleton_of(doc))) == NULL ||
	    (p->rows.script_rules = own(p, rules ? cJSON_PrintUnformatted(rules)
	        : strdup("[]"))) == NULL ||
	    (p->a = calloc(nr * nl, sizeof(*p->a))) == NULL)
		goto out;
	p->rows.a = p->a;
	for (size_t i = 0; i < nl; i++) {
		if (prepare_one(p, doc, builtin, NULL, langs[i]) != 0)
			goto out;
		for (r = regions ? regions->child : NULL; r != NULL; r = r->next)
			if (prepare_one(p, doc, builtin, r, langs[i]) != 0)
				goto out;
	}
	rc = PREPARE_OK;
out:
	if (rc != PREPARE_OK) {
		log_error("out of memory preparing the config");
		prepare_free(p);
	}
	cJSON_Delete(builtin);
	return rc;
}

/* ---- request time ---- */

/* Whether the parsed skeleton carries this build's stamp. */
static int
fresh(const cJSON *skeleton)
{
	const cJSON *s = cJSON_GetObjectItemCaseSensitive(skeleton, "stamp");

	return cJSON_IsString(s) && strcmp(s->valuestring, prepare_stamp()) == 0;
}

int
prepare_site(const struct site *site, struct served *sv)
{
	memset(sv, 0, sizeof(*sv));
	if (site->document == NULL) {
		/* Nothing published: the built-in document, no text parsed yet. */
		if ((sv->doc = defaults_skeleton()) == NULL)
			log_error("the built-in config does not parse");
		return sv->doc != NULL ? 0 : -1;
	}
	if (site->skeleton != NULL) {
		/* The skeleton is a fraction of the document to parse. */
		if ((sv->doc = resolve_document(site->skeleton)) == NULL)
			return -1;
		if (fresh(sv->doc)) {
			sv->prepared = 1;
			return 0;
		}
		cJSON_Delete(sv->doc);  /* another build's: ignored */
	}
	return (sv->doc = resolve_document(site->document)) != NULL ? 0 : -1;
}

void
prepare_site_free(struct served *sv)
{
	cJSON_Delete(sv->doc);
	cJSON_Delete(sv->resolved);
	memset(sv, 0, sizeof(*sv));
}

/* The stored answer for v: 0 with *body set, 1 when there is none to use,
 * -1 on failure. */
static int
stored_answer(struct store *st, const struct site *site, const struct served *sv,
              const struct visitor *v, const struct site_facts *facts, cJSON **body)
{
	const char *region, *lang;
	char *answer = NULL;
	int rc;

	if (resolve_pick(sv->doc, v, &region, &lang) != 0)
		return 1;
	switch (store_config_answer(st, site->config_id, region, lang, &answer)) {
	case STORE_OK:
		break;
	case STORE_NOTFOUND:
		return 1;
	default:
		return -1;
	}
	*body = resolve_stored(site->document, site->script_rules, answer, facts);
	rc = *body != NULL ? 0 : -1;
	free(answer);
	return rc;
}

cJSON *
prepare_answer(struct store *st, const struct site *site, struct served *sv,
               const struct visitor *v)
{
	struct site_facts facts = { site->name, site->free_tier, site->version,
	    site->document == NULL };
	const cJSON *doc = sv->doc;
	cJSON *body = NULL;

	if (site->document == NULL) {
		/* The built-in document with the texts of the language picked
		 * (and English) only: a request parses one language of them all,
		 * and sends that one in config.content.translations. */
		const char *region, *lang;
		cJSON_Delete(sv->resolved);
		sv->resolved = NULL;
		if (resolve_pick(sv->doc, v, &region, &lang) != 0 ||
		    (sv->resolved = cJSON_Duplicate(sv->doc, 1)) == NULL ||
		    defaults_texts(sv->resolved, lang) != 0) {
			log_error("out of memory resolving the built-in config");
			return NULL;
		}
		return resolve_config(sv->resolved, v, &facts);
	}
	if (sv->prepared) {
		switch (stored_answer(st, site, sv, v, &facts, &body)) {
		case 0:
			return body;
		case -1:
			return NULL;
		}
		/* No row for this pick: the document, resolved now. */
		if (sv->resolved == NULL && (sv->resolved = resolve_document(site->document)) == NULL)
			return NULL;
		doc = sv->resolved;
	}
	return resolve_config(doc, v, &facts);
}
