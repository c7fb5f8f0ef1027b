/* configdoc.c: publish-time validation of a site's config document (CONTRACT 4). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "input/configdoc.h"
#include "base/limits.h"
#include "base/nitems.h"
#include "input/valid.h"

/* Consent models a category or region may name (spec 2.3). */
static const char *const models[] = {
	"opt_in", "opt_out", "notice", "notice_required", "notice_only", "exempt",
};
#define MODELS_TEXT "opt_in, opt_out, notice, notice_required, notice_only, exempt"


/* The Google Consent Mode v2 types googleConsentMode may map (SDK.md 7). */
static const char *const consent_mode_types[] = {
	"ad_storage", "ad_user_data", "ad_personalization", "analytics_storage",
	"functionality_storage", "personalization_storage", "security_storage",
};
#define CONSENT_MODE_TYPES_TEXT "ad_storage, ad_user_data, ad_personalization, " \
	"analytics_storage, functionality_storage, personalization_storage, " \
	"security_storage"

/*
 * ISO 3166-1 alpha-2: the 249 officially assigned codes, plus XK (Kosovo,
 * user-assigned but sent by CDNs and GeoIP databases).  XX and T1, which
 * the edge uses for "unknown", are not countries.
 */
static const char countries[] =
	"ADAEAFAGAIALAMAOAQARASATAUAWAXAZ"
	"BABBBDBEBFBGBHBIBJBLBMBNBOBQBRBSBTBVBWBYBZ"
	"CACCCDCFCGCHCICKCLCMCNCOCRCUCVCWCXCYCZ"
	"DEDJDKDMDODZ" "ECEEEGEHERESET" "FIFJFKFMFOFR"
	"GAGBGDGEGFGGGHGIGLGMGNGPGQGRGSGTGUGWGY" "HKHMHNHRHTHU"
	"IDIEILIMINIOIQIRISIT" "JEJMJOJP" "KEKGKHKIKMKNKPKRKWKYKZ"
	"LALBLCLILKLRLSLTLULVLY"
	"MAMCMDMEMFMGMHMKMLMMMNMOMPMQMRMSMTMUMVMWMXMYMZ"
	"NANCNENFNGNINLNONPNRNUNZ" "OM" "PAPEPFPGPHPKPLPMPNPRPSPTPWPY" "QA"
	"RERORSRURW" "SASBSCSDSESGSHSISJSKSLSMSNSOSRSSSTSVSXSYSZ"
	"TCTDTFTGTHTJTKTLTMTNTOTRTTTVTWTZ" "UAUGUMUSUYUZ" "VAVCVEVGVIVNVU"
	"WFWS" "XK" "YEYT" "ZAZMZW";

/* Write the message into err and return -1. */
static int fail(char *err, size_t errsz, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
fail(char *err, size_t errsz, const char *fmt, ...)
{
	va_list ap;

	if (errsz == 0)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err, errsz, fmt, ap);
	va_end(ap);
	return -1;
}

/* Characters (UTF-8 code points) of s: every byte but continuation bytes. */
static size_t
chars(const char *s)
{
	size_t n = 0;

	for (; *s != '\0'; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	return n;
}

/* 1 to CATEGORY_ID_MAX characters of a-z0-9_- */
static int
valid_category_id(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > CATEGORY_ID_MAX)
		return 0;
	return strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_-") == n;
}

static int
valid_model(const cJSON *v)
{
	size_t i;

	if (!cJSON_IsString(v))
		return 0;
	for (i = 0; i < nitems(models); i++)
		if (strcmp(v->valuestring, models[i]) == 0)
			return 1;
	return 0;
}

/* Two upper-case letters naming an assigned country. */
static int
valid_country(const char *s, size_t n)
{
	size_t i;

	if (n != 2 || s[0] < 'A' || s[0] > 'Z' || s[1] < 'A' || s[1] > 'Z')
		return 0;
	for (i = 0; countries[i] != '\0'; i += 2)
		if (countries[i] == s[0] && countries[i + 1] == s[1])
			return 1;
	return 0;
}

/* ISO 3166-2: a country, "-", then 1 to 3 upper-case letters or digits. */
static int
valid_subdivision(const char *s)
{
	size_t n = strlen(s);

	if (n < 4 || n > 6 || s[2] != '-' || !valid_country(s, 2))
		return 0;
	return strspn(s + 3, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") == n - 3;
}

/* A BCP 47 tag as far as lookup needs: 1-35 of A-Za-z0-9 and "-". */
static int
valid_lang_tag(const char *s)
{
	size_t n = strlen(s);

	return n >= 1 && n <= LANG_TAG_MAX && strspn(s,
	    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-") == n;
}

static int
valid_lang(const cJSON *v)
{
	return cJSON_IsString(v) && valid_lang_tag(v->valuestring);
}

/*
 * Every string and every member name of the document, at any depth, is
 * UTF-8 text without control characters (valid_text_chars(): texts may hold
 * tab, CR and LF, names may not): the config endpoint serves them under
 * charset=utf-8.  path (pathsz bytes) holds where v is; a problem is named
 * by it.
 */
static int
check_texts(const cJSON *v, char *path, size_t pathsz, char *err, size_t errsz)
{
	size_t len = strlen(path);
	const cJSON *e;
	int i = 0;

	if (cJSON_IsString(v) && valid_text_chars(v->valuestring, VALID_TEXT_SPACE) < 0)
		return fail(err, errsz, "%s must be UTF-8 text without control characters",
		    *path ? path : "config");
	cJSON_ArrayForEach(e, v) {
		if (cJSON_IsObject(v) && valid_text_chars(e->string, 0) < 0)
			return fail(err, errsz, "%s has a key that is not UTF-8 text "
			    "without control characters", *path ? path : "config");
		if (cJSON_IsObject(v))
			snprintf(path + len, pathsz - len, "%s%s", len ? "." : "", e->string);
		else
			snprintf(path + len, pathsz - len, "[%d]", i++);
		if (check_texts(e, path, pathsz, err, errsz) != 0)
			return -1;
		path[len] = '\0';
	}
	return 0;
}

/* The category of the document whose id is id, or NULL. */
static const cJSON *
find_category(const cJSON *cats, const char *id)
{
	const cJSON *c;

	cJSON_ArrayForEach(c, cats) {
		const cJSON *cid = cJSON_GetObjectItemCaseSensitive(c, "id");

		if (cJSON_IsString(cid) && strcmp(cid->valuestring, id) == 0)
			return c;
	}
	return NULL;
}

static int
check_categories(const cJSON *cats, char *err, size_t errsz)
{
	const cJSON *c;
	int i = 0;

	if (cats == NULL)
		return fail(err, errsz, "categories is required");
	if (!cJSON_IsArray(cats) || cJSON_GetArraySize(cats) < 1 ||
	    cJSON_GetArraySize(cats) > CATEGORIES_MAX)
		return fail(err, errsz, "categories must be an array of 1-%d categories",
		    CATEGORIES_MAX);
	cJSON_ArrayForEach(c, cats) {
		const cJSON *id = cJSON_GetObjectItemCaseSensitive(c, "id");
		const cJSON *v;

		if (!cJSON_IsObject(c))
			return fail(err, errsz, "categories[%d] must be an object", i);
		if (!cJSON_IsString(id) || !valid_category_id(id->valuestring))
			return fail(err, errsz,
			    "categories[%d].id must be 1-%d characters of a-z0-9_-",
			    i, CATEGORY_ID_MAX);
		if (find_category(cats, id->valuestring) != c)
			return fail(err, errsz, "duplicate category id: %s", id->valuestring);
		if (!cJSON_IsString(cJSON_GetObjectItemCaseSensitive(c, "name")))
			return fail(err, errsz, "categories[%d].name must be a string", i);
		v = cJSON_GetObjectItemCaseSensitive(c, "description");
		if (v != NULL && !cJSON_IsString(v))
			return fail(err, errsz, "categories[%d].description must be a string", i);
		v = cJSON_GetObjectItemCaseSensitive(c, "consentModel");
		if (v != NULL && !valid_model(v))
			return fail(err, errsz, "categories[%d].consentModel must be one of: "
			    MODELS_TEXT, i);
		i++;
	}
	return 0;
}

static int
check_region(const cJSON *r, int i, const cJSON *cats, char *err, size_t errsz)
{
	const cJSON *v, *e;
	int j;

	v = cJSON_GetObjectItemCaseSensitive(r, "countries");
	if (!cJSON_IsArray(v))
		return fail(err, errsz, "regions[%d].countries must be an array", i);
	j = 0;
	cJSON_ArrayForEach(e, v) {
		if (!cJSON_IsString(e) || (strcmp(e->valuestring, "*") != 0 &&
		    !valid_country(e->valuestring, strlen(e->valuestring))))
			return fail(err, errsz, "regions[%d].countries[%d] must be an "
			    "ISO 3166-1 alpha-2 code or \"*\"", i, j);
		j++;
	}
	v = cJSON_GetObjectItemCaseSensitive(r, "subdivisions");
	if (v != NULL && !cJSON_IsArray(v))
		return fail(err, errsz, "regions[%d].subdivisions must be an array", i);
	j = 0;
	cJSON_ArrayForEach(e, v) {
		if (!cJSON_IsString(e) || !valid_subdivision(e->valuestring))
			return fail(err, errsz, "regions[%d].subdivisions[%d] must be an "
			    "ISO 3166-2 code such as US-CA", i, j);
		j++;
	}
	v = cJSON_GetObjectItemCaseSensitive(r, "consentModel");
	if (v != NULL && !valid_model(v))
		return fail(err, errsz, "regions[%d].consentModel must be one of: "
		    MODELS_TEXT, i);
	v = cJSON_GetObjectItemCaseSensitive(r, "categoryModels");
	if (v != NULL && !cJSON_IsObject(v))
		return fail(err, errsz, "regions[%d].categoryModels must be an object", i);
	cJSON_ArrayForEach(e, v) {
		if (find_category(cats, e->string) == NULL)
			return fail(err, errsz, "regions[%d].categoryModels names no "
			    "category: %s", i, e->string);
		if (!valid_model(e))
			return fail(err, errsz, "regions[%d].categoryModels.%s must be "
			    "one of: " MODELS_TEXT, i, e->string);
	}
	v = cJSON_GetObjectItemCaseSensitive(r, "defaultLanguage");
	if (v != NULL && !valid_lang(v))
		return fail(err, errsz, "regions[%d].defaultLanguage must be a "
		    "language tag", i);
	return 0;
}

static int
check_regions(const cJSON *regions, const cJSON *cats, char *err, size_t errsz)
{
	const cJSON *r, *q;
	int i = 0;

	if (regions == NULL)
		return 0;
	if (!cJSON_IsArray(regions) || cJSON_GetArraySize(regions) > REGIONS_MAX)
		return fail(err, errsz, "regions must be an array of at most %d regions",
		    REGIONS_MAX);
	cJSON_ArrayForEach(r, regions) {
		const cJSON *id = cJSON_GetObjectItemCaseSensitive(r, "id");

		if (!cJSON_IsObject(r))
			return fail(err, errsz, "regions[%d] must be an object", i);
		if (!cJSON_IsString(id) || id->valuestring[0] == '\0' ||
		    chars(id->valuestring) > TOKEN_MAX)
			return fail(err, errsz, "regions[%d].id must be a string of "
			    "1-%d characters", i, TOKEN_MAX);
		for (q = regions->child; q != r; q = q->next) {
			const cJSON *qid = cJSON_GetObjectItemCaseSensitive(q, "id");

			if (strcmp(qid->valuestring, id->valuestring) == 0)
				return fail(err, errsz, "duplicate region id: %s",
				    id->valuestring);
		}
		if (check_region(r, i, cats, err, errsz) != 0)
			return -1;
		i++;
	}
	return 0;
}

/* An object whose members are all strings, at path; absent is fine. */
static int
check_strings(const cJSON *obj, const char *path, char *err, size_t errsz)
{
	const cJSON *e;

	if (obj == NULL)
		return 0;
	if (!cJSON_IsObject(obj))
		return fail(err, errsz, "%s must be an object", path);
	cJSON_ArrayForEach(e, obj)
		if (!cJSON_IsString(e))
			return fail(err, errsz, "%s.%s must be a string", path, e->string);
	return 0;
}

/* An object of objects of strings (modelOverrides, categories). */
static int
check_string_maps(const cJSON *obj, const char *path, char *err, size_t errsz)
{
	const cJSON *e;
	char sub[CONFIG_PATH_MAX];

	if (obj == NULL)
		return 0;
	if (!cJSON_IsObject(obj))
		return fail(err, errsz, "%s must be an object", path);
	cJSON_ArrayForEach(e, obj) {
		snprintf(sub, sizeof(sub), "%s.%s", path, e->string);
		if (check_strings(e, sub, err, errsz) != 0)
			return -1;
	}
	return 0;
}

/* The parts of one translation (CONTRACT 4) and the shape of each: an
 * object of strings, or an object of such objects. */
static const struct {
	const char *key;
	int (*check)(const cJSON *, const char *, char *, size_t);
} translation_parts[] = {
	{"banner", check_strings},
	{"modelOverrides", check_string_maps},
	{"ui", check_strings},
	{"categories", check_string_maps},
};

/* content: defaultLanguage, and translations whose texts are all strings. */
static int
check_content(const cJSON *content, char *err, size_t errsz)
{
	const cJSON *v, *t;
	char path[CONFIG_PATH_MAX];
	size_t i;

	if (content == NULL)
		return 0;
	if (!cJSON_IsObject(content))
		return fail(err, errsz, "content must be an object");
	v = cJSON_GetObjectItemCaseSensitive(content, "defaultLanguage");
	if (v != NULL && !valid_lang(v))
		return fail(err, errsz, "content.defaultLanguage must be a language tag");
	v = cJSON_GetObjectItemCaseSensitive(content, "translations");
	if (v == NULL)
		return 0;
	if (!cJSON_IsObject(v))
		return fail(err, errsz, "content.translations must be an object");
	cJSON_ArrayForEach(t, v) {
		if (!valid_lang_tag(t->string))
			return fail(err, errsz, "content.translations.%s: a translation's key "
			    "must be a language tag", t->string);
		if (!cJSON_IsObject(t))
			return fail(err, errsz, "content.translations.%s must be an object",
			    t->string);
		for (i = 0; i < nitems(translation_parts); i++) {
			snprintf(path, sizeof(path), "content.translations.%s.%s", t->string,
			    translation_parts[i].key);
			if (translation_parts[i].check(cJSON_GetObjectItemCaseSensitive(t,
			    translation_parts[i].key), path, err, errsz) != 0)
				return -1;
		}
	}
	return 0;
}

static int
check_script_rules(const cJSON *rules, const cJSON *cats, char *err, size_t errsz)
{
	const cJSON *r;
	int i = 0;

	if (rules == NULL)
		return 0;
	if (!cJSON_IsArray(rules))
		return fail(err, errsz, "scriptRules must be an array");
	cJSON_ArrayForEach(r, rules) {
		const cJSON *pattern = cJSON_GetObjectItemCaseSensitive(r, "pattern");
		const cJSON *cat = cJSON_GetObjectItemCaseSensitive(r, "category");

		if (!cJSON_IsObject(r))
			return fail(err, errsz, "scriptRules[%d] must be an object", i);
		if (!cJSON_IsString(pattern) || pattern->valuestring[0] == '\0')
			return fail(err, errsz, "scriptRules[%d].pattern must be a "
			    "non-empty string", i);
		if (!cJSON_IsString(cat))
			return fail(err, errsz, "scriptRules[%d].category must be a string", i);
		if (find_category(cats, cat->valuestring) == NULL)
			return fail(err, errsz, "scriptRules[%d].category names no "
			    "category: %s", i, cat->valuestring);
		i++;
	}
	return 0;
}

/* Append name to the list in buf (bufsz bytes, *len used), after ", " when
 * it is not the first; what does not fit is cut, never overflows. */
static void
list_add(char *buf, size_t bufsz, size_t *len, const char *name)
{
	int w;

	if (*len + 1 >= bufsz)
		return;
	w = snprintf(buf + *len, bufsz - *len, "%s%s", *len > 0 ? ", " : "", name);
	if (w > 0)
		*len += (size_t)w < bufsz - *len ? (size_t)w : bufsz - *len - 1;
}

static int
consent_mode_type(const char *s)
{
	for (size_t i = 0; i < nitems(consent_mode_types); i++)
		if (strcmp(s, consent_mode_types[i]) == 0)
			return 1;
	return 0;
}

/*
 * consentRules.googleConsentMode (SDK.md 7): absent, true, false, or an
 * object mapping Consent Mode types to category ids of the document.  Every
 * unknown type is named in one message, then every unknown category id
 * (each once), so one publish attempt shows all the typos of a kind.
 */
static int
check_consent_mode(const cJSON *gcm, const cJSON *cats, char *err, size_t errsz)
{
	const cJSON *e, *p;
	char names[256];
	size_t len = 0;

	if (gcm == NULL || cJSON_IsBool(gcm))
		return 0;
	if (!cJSON_IsObject(gcm))
		return fail(err, errsz, "consentRules.googleConsentMode must be true, false "
		    "or an object mapping Consent Mode types to category ids");
	names[0] = '\0';
	cJSON_ArrayForEach(e, gcm)
		if (!consent_mode_type(e->string))
			list_add(names, sizeof(names), &len, e->string);
	if (len > 0)
		return fail(err, errsz, "consentRules.googleConsentMode names no Consent "
		    "Mode type: %s (the types are " CONSENT_MODE_TYPES_TEXT ")", names);
	cJSON_ArrayForEach(e, gcm)
		if (!cJSON_IsString(e))
			return fail(err, errsz, "consentRules.googleConsentMode.%s must be a "
			    "category id (a string)", e->string);
	cJSON_ArrayForEach(e, gcm) {
		if (find_category(cats, e->valuestring) != NULL)
			continue;
		for (p = gcm->child; p != e; p = p->next)
			if (strcmp(p->valuestring, e->valuestring) == 0)
				break;
		if (p == e)
			list_add(names, sizeof(names), &len, e->valuestring);
	}
	if (len > 0)
		return fail(err, errsz, "consentRules.googleConsentMode names no category: %s",
		    names);
	return 0;
}

/*
 * consentRules.googleConsentModeAdvanced (docs/sdk.md, "Google's tags"): absent
 * or a boolean; true lets Google's tags load before consent with the
 * denied defaults, so it needs those defaults: googleConsentMode true, or
 * a mapping of the four types Google's tags would otherwise take as
 * granted.
 */
static int
check_advanced(const cJSON *rules, char *err, size_t errsz)
{
	static const char *const needed[] = {
		"analytics_storage", "ad_storage", "ad_user_data", "ad_personalization",
	};
	const cJSON *adv = cJSON_GetObjectItemCaseSensitive(rules, "googleConsentModeAdvanced");
	const cJSON *gcm = cJSON_GetObjectItemCaseSensitive(rules, "googleConsentMode");

	if (adv == NULL || cJSON_IsFalse(adv))
		return 0;
	if (!cJSON_IsTrue(adv))
		return fail(err, errsz, "consentRules.googleConsentModeAdvanced must be a boolean");
	if (cJSON_IsTrue(gcm))
		return 0;
	for (size_t i = 0; i < nitems(needed); i++)
		if (!cJSON_IsObject(gcm) ||
		    cJSON_GetObjectItemCaseSensitive(gcm, needed[i]) == NULL)
			return fail(err, errsz, "consentRules.googleConsentModeAdvanced needs "
			    "consentRules.googleConsentMode true or mapping analytics_storage, "
			    "ad_storage, ad_user_data and ad_personalization: Google's tags take "
			    "a type without a default as granted");
	return 0;
}

/* consentRules: honorGpc a boolean, expiryDays an integer 1..EXPIRY_DAYS_MAX,
 * googleConsentMode and googleConsentModeAdvanced as above; each optional. */
static int
check_consent_rules(const cJSON *rules, const cJSON *cats, char *err, size_t errsz)
{
	const cJSON *v;

	if (rules == NULL)
		return 0;
	if (!cJSON_IsObject(rules))
		return fail(err, errsz, "consentRules must be an object");
	v = cJSON_GetObjectItemCaseSensitive(rules, "honorGpc");
	if (v != NULL && !cJSON_IsBool(v))
		return fail(err, errsz, "consentRules.honorGpc must be a boolean");
	v = cJSON_GetObjectItemCaseSensitive(rules, "expiryDays");
	/* the range first: only then is the cast defined */
	if (v != NULL && !(cJSON_IsNumber(v) && v->valuedouble >= 1 &&
	    v->valuedouble <= EXPIRY_DAYS_MAX &&
	    v->valuedouble == (double)(int)v->valuedouble))
		return fail(err, errsz, "consentRules.expiryDays must be an integer "
		    "from 1 to %d", EXPIRY_DAYS_MAX);
	if (check_consent_mode(cJSON_GetObjectItemCaseSensitive(rules,
	    "googleConsentMode"), cats, err, errsz) != 0)
		return -1;
	return check_advanced(rules, err, errsz);
}

int
configdoc_validate(const cJSON *doc, char *err, size_t errsz)
{
	const cJSON *cats, *v;
	char path[CONFIG_PATH_MAX];

	if (errsz > 0)
		err[0] = '\0';
	if (!cJSON_IsObject(doc))
		return fail(err, errsz, "config must be a JSON object");
	path[0] = '\0';
	if (check_texts(doc, path, sizeof(path), err, errsz) != 0)
		return -1;
	cats = cJSON_GetObjectItemCaseSensitive(doc, "categories");
	if (check_categories(cats, err, errsz) != 0 ||
	    check_regions(cJSON_GetObjectItemCaseSensitive(doc, "regions"), cats,
	        err, errsz) != 0 ||
	    check_content(cJSON_GetObjectItemCaseSensitive(doc, "content"),
	        err, errsz) != 0 ||
	    check_script_rules(cJSON_GetObjectItemCaseSensitive(doc, "scriptRules"),
	        cats, err, errsz) != 0)
		return -1;
	v = cJSON_GetObjectItemCaseSensitive(doc, "appearance");
	if (v != NULL && !cJSON_IsObject(v))
		return fail(err, errsz, "appearance must be an object");
	return check_consent_rules(cJSON_GetObjectItemCaseSensitive(doc,
	    "consentRules"), cats, err, errsz);
}
