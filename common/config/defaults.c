/* defaults.c: the built-in config served to sites with nothing published (CONTRACT 5.6). */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "config/defaults.h"
#include "input/lang.h"
#include "base/limits.h"

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

/* Append name LF text to *buf at *at (sized exactly by the caller). */
static void
put_piece(char *buf, size_t *at, const char *name, const char *ext, const char *text)
{
	size_t n = strlen(name), e = strlen(ext), t = strlen(text);

	memcpy(buf + *at, name, n);
	memcpy(buf + *at + n, ext, e);
	buf[*at + n + e] = '\n';
	memcpy(buf + *at + n + e + 1, text, t);
	*at += n + e + 1 + t;
}

char *
defaults_pieces(size_t *len)
{
	static const char base_name[] = "defaults";
	size_t total = sizeof(base_name) - 1 + 6 + strlen(defaults_base), at = 0;
	char *buf;

	for (int i = 0; defaults_lang_codes[i] != NULL; i++)
		total += strlen(defaults_lang_codes[i]) + 6 + strlen(defaults_lang_texts[i]);
	if ((buf = malloc(total + 1)) == NULL)
		return NULL;
	put_piece(buf, &at, base_name, ".json", defaults_base);
	for (int i = 0; defaults_lang_codes[i] != NULL; i++)
		put_piece(buf, &at, defaults_lang_codes[i], ".json", defaults_lang_texts[i]);
	buf[at] = '\0';
	*len = at;
	return buf;
}

/*
 * One piece of pieces from *at: its name line, into name (without ".json"),
 * and its JSON value, parsed; *at moves past the value and the white space
 * after it.  The value, or NULL (malformed, memory).
 */
static cJSON *
next_piece(const char *pieces, size_t len, size_t *at, char *name, size_t name_size)
{
	const char *p = pieces + *at, *nl = memchr(p, '\n', len - *at), *end = NULL;
	size_t n;
	cJSON *v;

	if (nl == NULL || (n = (size_t)(nl - p)) < 6 || n - 5 >= name_size ||
	    memcmp(nl - 5, ".json", 5) != 0)
		return NULL;
	memcpy(name, p, n - 5);
	name[n - 5] = '\0';
	v = cJSON_ParseWithLengthOpts(nl + 1, len - *at - n - 1, &end, 0);
	if (v == NULL || end == NULL) {
		cJSON_Delete(v);
		return NULL;
	}
	while (end < pieces + len && (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r'))
		end++;
	*at = (size_t)(end - pieces);
	return v;
}

cJSON *
defaults_from_pieces(const char *pieces, size_t len)
{
	char name[LANG_TAG_MAX + 16];
	size_t at = 0;
	cJSON *doc, *tr = NULL, *t;

	doc = next_piece(pieces, len, &at, name, sizeof(name));
	if (doc == NULL || strcmp(name, "defaults") != 0 || (tr = fresh_translations(doc)) == NULL)
		goto fail;
	while (at < len) {
		if ((t = next_piece(pieces, len, &at, name, sizeof(name))) == NULL)
			goto fail;
		if (!cJSON_IsObject(t) || cJSON_GetObjectItemCaseSensitive(tr, name) != NULL ||
		    !cJSON_AddItemToObject(tr, name, t)) {
			cJSON_Delete(t);
			goto fail;
		}
	}
	if (!cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(tr, "en")))
		goto fail;
	return doc;
fail:
	cJSON_Delete(doc);
	return NULL;
}
