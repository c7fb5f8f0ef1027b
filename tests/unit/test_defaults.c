/* test_defaults.c: the built-in default config (common/config/defaults.json, CONTRACT 4 and 5.6). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "config/defaults.h"
#include "base/hash.h"
#include "base/nitems.h"
#include "input/tracker.h"
#include "unit.h"

/* The built-in categories; every language's texts are test_texts.c's. */
static const char *const cat_ids[] = { "necessary", "functional", "analytics", "marketing" };

/* CONTRACT 5.6: the EU 27, IS, LI, NO, GB and CH. */
static const char *const gdpr_codes[] = {
	"AT", "BE", "BG", "HR", "CY", "CZ", "DK", "EE", "FI", "FR", "DE", "GR", "HU",
	"IE", "IT", "LV", "LT", "LU", "MT", "NL", "PL", "PT", "RO", "SK", "SI", "ES",
	"SE", "IS", "LI", "NO", "GB", "CH",
};


/* Whether the item is a string with at least one character. */
static int
nonempty(const cJSON *item)
{
	return cJSON_IsString(item) && item->valuestring[0] != '\0';
}

/* CONTRACT 4: the consentModel values a category or region may name. */
static int
valid_model(const char *s)
{
	static const char *const models[] = {
		"opt_in", "opt_out", "notice", "notice_required", "notice_only", "exempt",
	};
	size_t i;

	for (i = 0; s != NULL && i < nitems(models); i++)
		if (strcmp(s, models[i]) == 0)
			return 1;
	return 0;
}

/* CONTRACT 4: a category id is 1-50 characters of a-z0-9_-. */
static int
valid_id(const char *s)
{
	size_t n = strlen(s);

	return n >= 1 && n <= 50 && strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_-") == n;
}

/* The element of doc's array group (categories, regions) whose id is id, or NULL. */
static const cJSON *
by_id(const cJSON *doc, const char *group, const char *id)
{
	const cJSON *e;

	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(doc, group)) {
		const char *eid = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "id"));
		if (eid != NULL && strcmp(eid, id) == 0)
			return e;
	}
	return NULL;
}

#define category(doc, id) by_id((doc), "categories", (id))
#define region(doc, id) by_id((doc), "regions", (id))

/* Whether the region's countries are exactly the n codes (any order, no repeats). */
static int
countries_are(const cJSON *r, const char *const *codes, size_t n)
{
	const cJSON *list = cJSON_GetObjectItemCaseSensitive(r, "countries");
	const cJSON *c;
	size_t i, hits;

	if (!cJSON_IsArray(list) || (size_t)cJSON_GetArraySize(list) != n)
		return 0;
	for (i = 0; i < n; i++) {
		hits = 0;
		cJSON_ArrayForEach(c, list)
			if (cJSON_IsString(c) && strcmp(c->valuestring, codes[i]) == 0)
				hits++;
		if (hits != 1)
			return 0;
	}
	return 1;
}

static void
test_shape(const cJSON *doc)
{
	static const char *const objects[] = { "appearance", "content", "consentRules" };
	static const char *const arrays[] = { "categories", "regions", "scriptRules" };
	char what[128];
	size_t i;

	CHECK(cJSON_IsObject(doc), "defaults parse as a JSON object");
	for (i = 0; i < nitems(objects); i++) {
		snprintf(what, sizeof(what), "%s is an object", objects[i]);
		CHECK(cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(doc, objects[i])), what);
	}
	for (i = 0; i < nitems(arrays); i++) {
		snprintf(what, sizeof(what), "%s is an array", arrays[i]);
		CHECK(cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(doc, arrays[i])), what);
	}
}

/* CONTRACT 4 publish-time rules for categories, and the four built-in ones. */
static void
test_categories(const cJSON *doc)
{
	const cJSON *cats = cJSON_GetObjectItemCaseSensitive(doc, "categories");
	const cJSON *c, *model;
	char what[128];
	size_t i;
	int ok = 1;

	CHECK(cJSON_GetArraySize(cats) == (int)nitems(cat_ids), "4 categories");
	cJSON_ArrayForEach(c, cats) {
		const cJSON *id = cJSON_GetObjectItemCaseSensitive(c, "id");
		if (!cJSON_IsString(id) || !valid_id(id->valuestring) ||
		    category(doc, id->valuestring) != c ||
		    !nonempty(cJSON_GetObjectItemCaseSensitive(c, "name")) ||
		    !nonempty(cJSON_GetObjectItemCaseSensitive(c, "description")) ||
		    !valid_model(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c,
		    "consentModel"))))
			ok = 0;
	}
	CHECK(ok, "categories: unique valid ids, name, description, valid consentModel");
	for (i = 0; i < nitems(cat_ids); i++) {
		c = category(doc, cat_ids[i]);
		model = cJSON_GetObjectItemCaseSensitive(c, "consentModel");
		snprintf(what, sizeof(what), "category %s is %s", cat_ids[i],
		    i == 0 ? "exempt" : "opt_in");
		CHECK(c != NULL && cJSON_IsString(model) &&
		    strcmp(model->valuestring, i == 0 ? "exempt" : "opt_in") == 0, what);
	}
}

/* CONTRACT 4 publish-time rules for regions, and CONTRACT 5.6's three. */
static void
test_regions(const cJSON *doc)
{
	static const char *const us[] = { "US" };
	static const char *const star[] = { "*" };
	const cJSON *regions = cJSON_GetObjectItemCaseSensitive(doc, "regions");
	const cJSON *r, *c, *model;
	int ok = 1;

	cJSON_ArrayForEach(r, regions) {
		const cJSON *id = cJSON_GetObjectItemCaseSensitive(r, "id");
		const cJSON *countries = cJSON_GetObjectItemCaseSensitive(r, "countries");
		model = cJSON_GetObjectItemCaseSensitive(r, "consentModel");
		if (!cJSON_IsString(id) || region(doc, id->valuestring) != r ||
		    !cJSON_IsArray(countries) ||
		    (model != NULL && !valid_model(cJSON_GetStringValue(model))))
			ok = 0;
		cJSON_ArrayForEach(c, countries) {
			const char *s = cJSON_GetStringValue(c);
			if (s == NULL || !(strcmp(s, "*") == 0 || (strlen(s) == 2 &&
			    s[0] >= 'A' && s[0] <= 'Z' && s[1] >= 'A' && s[1] <= 'Z')))
				ok = 0;
		}
	}
	CHECK(ok, "regions: unique ids, ISO 3166-1 alpha-2 or *, valid consentModel");
	CHECK(cJSON_GetArraySize(regions) == 3, "3 regions");
	r = region(doc, "gdpr");
	CHECK(r != NULL && countries_are(r, gdpr_codes, nitems(gdpr_codes)),
	    "gdpr holds exactly the EU 27, IS, LI, NO, GB and CH (32)");
	model = cJSON_GetObjectItemCaseSensitive(r, "consentModel");
	CHECK(cJSON_IsString(model) && strcmp(model->valuestring, "opt_in") == 0,
	    "gdpr is opt_in");
	r = region(doc, "us_state_laws");
	CHECK(r != NULL && countries_are(r, us, 1), "us_state_laws is the whole US");
	model = cJSON_GetObjectItemCaseSensitive(r, "consentModel");
	CHECK(cJSON_IsString(model) && strcmp(model->valuestring, "opt_out") == 0,
	    "us_state_laws is opt_out");
	CHECK_STR(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "defaultLanguage")),
	    "en", "us_state_laws: defaultLanguage en, the language of its one country");
	CHECK(!cJSON_HasObjectItem(region(doc, "gdpr"), "defaultLanguage"),
	    "gdpr: no defaultLanguage (24 official languages and more, none dominant)");
	r = region(doc, "default");
	CHECK(!cJSON_HasObjectItem(r, "defaultLanguage"),
	    "default: no defaultLanguage (the rest of the world)");
	CHECK(r != NULL && countries_are(r, star, 1), "default region is \"*\"");
	CHECK(r != NULL && cJSON_GetArrayItem(regions, 2) == r,
	    "default region is last (catch-all after the named ones)");
}

/* Every scriptRules[].category names a category of the document. */
static void
test_script_rules(const cJSON *doc)
{
	const cJSON *rule;
	int ok = 1, n = 0;

	cJSON_ArrayForEach(rule, cJSON_GetObjectItemCaseSensitive(doc, "scriptRules")) {
		const char *cat = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(rule,
		    "category"));
		n++;
		if (!nonempty(cJSON_GetObjectItemCaseSensitive(rule, "pattern")) ||
		    cat == NULL || category(doc, cat) == NULL)
			ok = 0;
	}
	CHECK(ok && n > 0, "scriptRules: pattern and a category of the document");
}

/*
 * The built-in rules come from the tracker database (issue 29 c): the
 * database gives each pattern its category (the entry or a parent's), but
 * googletagmanager.com, a tag manager (functional there), which the rules
 * hold until marketing (docs/sdk.md, "Google's tags").
 */
static void
test_rules_from_trackers(const cJSON *doc)
{
	const cJSON *rule;
	char why[200] = "";

	cJSON_ArrayForEach(rule, cJSON_GetObjectItemCaseSensitive(doc, "scriptRules")) {
		const char *pat = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(rule, "pattern"));
		const char *cat = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(rule, "category"));
		const char *db = pat ? tracker_category(pat) : NULL;
		const char *want = db;

		if (pat != NULL && strcmp(pat, "googletagmanager.com") == 0)
			want = db != NULL && strcmp(db, "functional") == 0 ? "marketing" : "(functional there)";
		if (why[0] == '\0' && (want == NULL || cat == NULL || strcmp(want, cat) != 0))
			snprintf(why, sizeof(why), "%s: %s here, %s in the database", pat ? pat : "?",
			    cat ? cat : "?", db ? db : "nothing");
	}
	CHECK_STR(why[0] ? why : "ok", "ok", "every built-in rule has the tracker database's category");
}

static void
test_content(const cJSON *doc)
{
	const cJSON *content = cJSON_GetObjectItemCaseSensitive(doc, "content");
	const cJSON *dl = cJSON_GetObjectItemCaseSensitive(content, "defaultLanguage");
	const cJSON *tr = cJSON_GetObjectItemCaseSensitive(content, "translations");
	const cJSON *c;
	size_t i;

	CHECK(cJSON_IsString(dl) && strcmp(dl->valuestring, "en") == 0,
	    "content.defaultLanguage is en");
	CHECK(cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(tr, "en")) &&
	    tr->child != NULL && strcmp(tr->child->string, "en") == 0,
	    "translations: English first (test_texts.c checks every language)");
	/* The top-level categories carry the English texts. */
	i = 0;
	cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(doc, "categories")) {
		const cJSON *t = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(
		    cJSON_GetObjectItemCaseSensitive(tr, "en"), "categories"),
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "id")));
		const char *a = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "name"));
		const char *b = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(t, "name"));
		if (a != NULL && b != NULL && strcmp(a, b) == 0)
			i++;
	}
	CHECK(i == nitems(cat_ids), "category names match the English translation");
}

/* The pieces a request reads: the skeleton (no text) and one language's
 * texts with English, the same texts as the whole document's. */
static void
test_pieces(const cJSON *doc)
{
	const cJSON *tr = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc,
	    "content"), "translations");
	cJSON *skel = defaults_skeleton(), *part;
	const cJSON *t, *e;
	size_t i, n = 0;
	int ok = 1;

	CHECK_STR(defaults_language(0), "en", "the first built-in language is en");
	for (i = 0; defaults_language(i) != NULL; i++)
		if (!cJSON_HasObjectItem(tr, defaults_language(i)))
			ok = 0;
	CHECK(ok && (int)i == cJSON_GetArraySize(tr) && defaults_language(i + 7) == NULL,
	    "defaults_language() lists the translations, in their order, then NULL");
	t = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(skel, "content"),
	    "translations");
	cJSON_ArrayForEach(e, t) {
		if (!cJSON_IsObject(e) || e->child != NULL)
			ok = 0;
		n++;
	}
	CHECK(skel != NULL && ok && n == i, "the skeleton: every language, as an empty object");
	e = cJSON_GetObjectItemCaseSensitive(skel, "regions");
	CHECK(cJSON_Compare(e, cJSON_GetObjectItemCaseSensitive(doc, "regions"), 1) &&
	    cJSON_Compare(cJSON_GetObjectItemCaseSensitive(skel, "categories"),
	    cJSON_GetObjectItemCaseSensitive(doc, "categories"), 1),
	    "the skeleton: the same regions and categories");
	CHECK(defaults_texts(skel, "de") == 0, "defaults_texts(de)");
	t = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(skel, "content"),
	    "translations");
	CHECK(cJSON_GetArraySize(t) == 2 && t->child != NULL &&
	    strcmp(t->child->string, "en") == 0 &&
	    cJSON_Compare(cJSON_GetObjectItemCaseSensitive(t, "en"),
	    cJSON_GetObjectItemCaseSensitive(tr, "en"), 1) &&
	    cJSON_Compare(cJSON_GetObjectItemCaseSensitive(t, "de"),
	    cJSON_GetObjectItemCaseSensitive(tr, "de"), 1),
	    "defaults_texts(de): en then de, the texts of the whole document");
	/* The language may be a name inside the translations it replaces. */
	t = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(skel, "content"),
	    "translations");
	CHECK(defaults_texts(skel, cJSON_GetArrayItem(t, 1)->string) == 0 &&
	    cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(
	    skel, "content"), "translations")) == 2,
	    "defaults_texts() with a name of the translations it replaces");
	CHECK(defaults_texts(skel, "xx") == 0 && defaults_texts(skel, NULL) == 0 &&
	    cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(
	    skel, "content"), "translations")) == 1,
	    "defaults_texts() of no built-in language: en only");
	part = defaults_skeleton();
	CHECK(part != NULL && defaults_texts(part, "sv-SE") == 0 &&
	    cJSON_HasObjectItem(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(
	    part, "content"), "translations"), "sv") &&
	    defaults_texts(part, "zh-HK") == 0 &&
	    cJSON_HasObjectItem(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(
	    part, "content"), "translations"), "zh-TW"),
	    "defaults_texts(sv-SE) holds sv, (zh-HK) zh-TW: the language a visitor's would match");
	cJSON_Delete(part);
	part = defaults_skeleton();
	CHECK(part != NULL && defaults_texts(part, "en") == 0 &&
	    cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(
	    part, "content"), "translations")) == 1, "defaults_texts(en): en once");
	cJSON_Delete(part);
	cJSON_Delete(skel);
}

/* The recorded form of the built-in texts: the bytes the build hashed, and
 * parsed back, the same document. */
static void
test_recorded(const cJSON *doc)
{
	size_t len = 0;
	char *pieces = defaults_pieces(&len), sha[65];
	cJSON *back = pieces ? defaults_from_pieces(pieces, len) : NULL;

	CHECK(pieces != NULL && strlen(pieces) == len && hash_sha256_hex(pieces, len, sha) == 0 &&
	    strcmp(sha, defaults_hash()) == 0, "defaults_pieces(): the bytes of defaults_hash()");
	CHECK(back != NULL && cJSON_Compare(back, doc, 1), "defaults_from_pieces(): defaults_config()");
	CHECK(pieces != NULL && defaults_from_pieces(pieces, len - 2) == NULL,
	    "defaults_from_pieces(): truncated pieces do not parse");
	CHECK(defaults_from_pieces("x.json\n{}", 9) == NULL,
	    "defaults_from_pieces(): the document must come first");
	cJSON_Delete(back);
	free(pieces);
}

int
main(void)
{
	cJSON *doc = defaults_config();
	cJSON *again = defaults_config();
	const char *hash = defaults_hash();

	CHECK(hash != NULL && strlen(hash) == 64 && strspn(hash, "0123456789abcdef") == 64,
	    "defaults_hash() is 64 hex digits");
	CHECK(doc != NULL, "defaults_config() parses");
	CHECK(again != NULL && again != doc, "defaults_config() returns a new tree each call");
	if (doc == NULL) {
		cJSON_Delete(again);
		UNIT_DONE();
	}
	test_shape(doc);
	test_categories(doc);
	test_regions(doc);
	test_script_rules(doc);
	test_rules_from_trackers(doc);
	test_content(doc);
	test_pieces(doc);
	test_recorded(doc);
	cJSON_Delete(doc);
	cJSON_Delete(again);
	UNIT_DONE();
}
