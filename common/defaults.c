/* defaults.c: the built-in config served to sites with nothing published (CONTRACT 5.6). */
#include <string.h>

#include <cjson/cJSON.h>

#include "defaults.h"
#include "lang.h"
#include "limits.h"

/* Embedded by tools/embed-texts.sh (gen/defaults_data.c): the document
 * without its texts, and each language's translation with its code, in the
 * same order, NULL-terminated; the SHA-256 of them all (gen/defaults_hash.c). */
extern const char defaults_base[];
extern const char *const defaults_lang_codes[];
extern const char *const defaults_lang_texts[];
extern const char defaults_sha256[];

const char *
defaults_hash(void)
{
	return defaults_sha256;
}

const char *
defaults_language(size_t i)
{
	for (size_t n = 0; n < i; n++)
		if (defaults_lang_codes[n] == NULL)
			return NULL;
	return defaults_lang_codes[i];
}

/* The index of the built-in language a document's language code matches
 * as a visitor's would (CONTRACT 5.3, lang.c: sv-SE is sv), 0 (en) when
 * none does. */
static int
index_of(const char *code)
{
	size_t n = 0;
	int i;

	while (defaults_lang_codes[n] != NULL)
		n++;
	i = lang_negotiate(defaults_lang_codes, n, code, NULL, NULL, NULL);
	return i > 0 ? i : 0;
}

/* A new, empty content.translations in doc (replacing any), or NULL. */
static cJSON *
fresh_translations(cJSON *doc)
{
	cJSON *content = cJSON_GetObjectItemCaseSensitive(doc, "content");
	cJSON *tr;

	if (!cJSON_IsObject(content))
		return NULL;
	cJSON_DeleteItemFromObjectCaseSensitive(content, "translations");
	if ((tr = cJSON_CreateObject()) == NULL || !cJSON_AddItemToObject(content, "translations", tr)) {
		cJSON_Delete(tr);
		return NULL;
	}
	return tr;
}

/* Add language i to tr: its parsed texts, or an empty object when !texts. */
static int
add_language(cJSON *tr, int i, int texts)
{
	cJSON *t = texts ? cJSON_Parse(defaults_lang_texts[i]) : cJSON_CreateObject();

	if (!cJSON_IsObject(t) || !cJSON_AddItemToObject(tr, defaults_lang_codes[i], t)) {
		cJSON_Delete(t);
		return -1;
	}
	return 0;
}

/* The document with every language, its texts parsed or not. */
static cJSON *
assemble(int texts)
{
	cJSON *doc = cJSON_Parse(defaults_base), *tr;

	if ((tr = fresh_translations(doc)) == NULL)
		goto fail;
	for (int i = 0; defaults_lang_codes[i] != NULL; i++)
		if (add_language(tr, i, texts) != 0)
			goto fail;
	return doc;
fail:
	cJSON_Delete(doc);
	return NULL;
}

cJSON *
defaults_config(void)
{
	return assemble(1);
}

cJSON *
defaults_skeleton(void)
{
	return assemble(0);
}

int
defaults_texts(cJSON *doc, const char *lang)
{
	char code[LANG_TAG_MAX + 1];
	int i = -1;
	cJSON *tr;

	/* lang may be a member name of the translations about to go. */
	if (lang != NULL && strlen(lang) < sizeof(code)) {
		strcpy(code, lang);
		i = index_of(code);
	}
	if ((tr = fresh_translations(doc)) == NULL || add_language(tr, 0, 1) != 0)
		return -1;
	return i > 0 ? add_language(tr, i, 1) : 0;
}
