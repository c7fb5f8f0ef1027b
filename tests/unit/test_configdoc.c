/* test_configdoc.c: configdoc_validate(), the publish-time checks of CONTRACT 4. */
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "input/configdoc.h"
#include "config/defaults.h"
#include "base/limits.h"
#include "unit.h"

static char msg[300];

/* "ok", or the first problem configdoc_validate() names in the JSON text. */
static const char *
v(const char *text)
{
	cJSON *doc = cJSON_Parse(text);
	int rc;

	if (doc == NULL)
		return "(test JSON does not parse)";
	rc = configdoc_validate(doc, msg, sizeof(msg));
	cJSON_Delete(doc);
	if (rc == 0)
		return msg[0] == '\0' ? "ok" : "(ok, but a message was written)";
	return msg;
}

/* Documents built from one categories array and a tail of other keys. */
#define CATS "\"categories\":[{\"id\":\"necessary\",\"name\":\"N\",\"consentModel\":\"exempt\"}," \
	"{\"id\":\"analytics\",\"name\":\"A\",\"description\":\"d\",\"consentModel\":\"opt_in\"}]"
#define DOC(tail) "{" CATS tail "}"

static void
test_valid(void)
{
	cJSON *builtin = defaults_config();
	char *def = builtin ? cJSON_Print(builtin) : NULL;

	CHECK_STR(v(DOC("")), "ok", "categories only");
	CHECK_STR(def ? v(def) : "(no defaults)", "ok", "the built-in defaults, every language, are valid");
	CHECK(def != NULL && strlen(def) <= CONFIG_FILE_MAX,
	    "the built-in defaults, printed, are no longer than a publish reads (CONFIG_FILE_MAX)");
	cJSON_free(def);
	cJSON_Delete(builtin);
	CHECK_STR(v(DOC(",\"regions\":[{\"id\":\"gdpr\",\"countries\":[\"DE\",\"FR\",\"GB\"],"
	    "\"consentModel\":\"opt_in\",\"defaultLanguage\":\"en\"},"
	    "{\"id\":\"us\",\"countries\":[\"US\"],\"subdivisions\":[\"US-CA\",\"US-VA\"],"
	    "\"consentModel\":\"opt_out\",\"categoryModels\":{\"analytics\":\"opt_out\"}},"
	    "{\"id\":\"default\",\"countries\":[\"*\"],\"consentModel\":\"notice_only\"}],"
	    "\"scriptRules\":[{\"pattern\":\"google-analytics.com\",\"category\":\"analytics\"}],"
	    "\"content\":{\"defaultLanguage\":\"en\",\"translations\":{\"en\":{\"banner\":"
	    "{\"title\":\"T\"},\"modelOverrides\":{\"opt_out\":{\"title\":\"O\"}},"
	    "\"ui\":{\"required\":\"R\"},\"categories\":{\"analytics\":{\"name\":\"A\"}}},"
	    "\"de-AT\":{}}},\"appearance\":{\"theme\":\"dark\"},"
	    "\"consentRules\":{\"honorGpc\":true},\"unknownKey\":[1,2,3]")),
	    "ok", "the CONTRACT 4 example, with an unknown key");
	CHECK_STR(v(DOC(",\"regions\":[]")), "ok", "no regions");
	CHECK_STR(v(DOC(",\"regions\":[{\"id\":\"x\",\"countries\":[]}]")), "ok",
	    "a region with no countries");
	CHECK_STR(v("{\"categories\":[{\"id\":\"a-b_9\",\"name\":\"\"}]}"), "ok",
	    "id of a-z0-9_-, empty name, no consentModel");
	CHECK_STR(v(DOC(",\"regions\":[{\"id\":\"k\",\"countries\":[\"XK\"]}]")), "ok",
	    "XK (Kosovo) is accepted");
}

static void
test_document(void)
{
	CHECK_STR(v("[]"), "config must be a JSON object", "array document");
	CHECK_STR(v("\"x\""), "config must be a JSON object", "string document");
	CHECK_STR(v("null"), "config must be a JSON object", "null document");
	CHECK_STR(v("{}"), "categories is required", "no categories");
	CHECK_STR(v("{\"categories\":{}}"), "categories must be an array of 1-50 categories",
	    "categories an object");
	CHECK_STR(v("{\"categories\":[]}"), "categories must be an array of 1-50 categories",
	    "categories empty");
	CHECK_STR(v(DOC(",\"appearance\":[]")), "appearance must be an object",
	    "appearance an array");
	CHECK_STR(v(DOC(",\"consentRules\":true")), "consentRules must be an object",
	    "consentRules a boolean");
	CHECK(configdoc_validate(NULL, msg, sizeof(msg)) == -1, "NULL document refused");
}

/* consentRules.googleConsentModeAdvanced: a boolean, and true only with the
 * denied defaults Google's tags need. */
static void
test_advanced(void)
{
	const char *needs = "consentRules.googleConsentModeAdvanced needs "
	    "consentRules.googleConsentMode true or mapping analytics_storage, ad_storage, "
	    "ad_user_data and ad_personalization: Google's tags take a type without a "
	    "default as granted";

	CHECK_STR(v(DOC(",\"consentRules\":{\"googleConsentModeAdvanced\":false}")), "ok",
	    "false alone");
	CHECK_STR(v(DOC(",\"consentRules\":{\"googleConsentMode\":true,"
	    "\"googleConsentModeAdvanced\":true}")), "ok", "true with the default mapping");
	CHECK_STR(v(DOC(",\"consentRules\":{\"googleConsentModeAdvanced\":true,"
	    "\"googleConsentMode\":{\"analytics_storage\":\"analytics\",\"ad_storage\":\"analytics\","
	    "\"ad_user_data\":\"analytics\",\"ad_personalization\":\"analytics\"}}")), "ok",
	    "true with a mapping of the four types");
	CHECK_STR(v(DOC(",\"consentRules\":{\"googleConsentModeAdvanced\":1}")),
	    "consentRules.googleConsentModeAdvanced must be a boolean", "a number");
	CHECK_STR(v(DOC(",\"consentRules\":{\"googleConsentModeAdvanced\":\"yes\","
	    "\"googleConsentMode\":true}")),
	    "consentRules.googleConsentModeAdvanced must be a boolean", "a string");
	CHECK_STR(v(DOC(",\"consentRules\":{\"googleConsentModeAdvanced\":true}")), needs,
	    "true without Consent Mode");
	CHECK_STR(v(DOC(",\"consentRules\":{\"googleConsentModeAdvanced\":true,"
	    "\"googleConsentMode\":false}")), needs, "true with Consent Mode off");
	CHECK_STR(v(DOC(",\"consentRules\":{\"googleConsentModeAdvanced\":true,"
	    "\"googleConsentMode\":{\"analytics_storage\":\"analytics\",\"ad_storage\":\"analytics\","
	    "\"ad_user_data\":\"analytics\"}}")), needs, "a mapping without ad_personalization");
	CHECK_STR(v(DOC(",\"consentRules\":{\"googleConsentModeAdvanced\":true,"
	    "\"googleConsentMode\":{\"ads_storage\":\"analytics\"}}")),
	    "consentRules.googleConsentMode names no Consent Mode type: ads_storage (the types are "
	    "ad_storage, ad_user_data, ad_personalization, analytics_storage, functionality_storage, "
	    "personalization_storage, security_storage)", "the mapping's own problems first");
}

static void
test_categories(void)
{
	char big[8192];
	size_t n;
	int i;

	CHECK_STR(v("{\"categories\":[1]}"), "categories[0] must be an object", "number");
	CHECK_STR(v("{\"categories\":[{\"name\":\"N\"}]}"),
	    "categories[0].id must be 1-50 characters of a-z0-9_-", "no id");
	CHECK_STR(v("{" CATS ",\"categories\":0}"), "ok",
	    "a repeated key: the first one counts, as everywhere cJSON reads it");
	CHECK_STR(v("{\"categories\":[{\"id\":\"a\",\"name\":\"A\"},{\"id\":\"b\",\"name\":\"B\"},"
	    "{\"id\":\"Ads\",\"name\":\"C\"}]}"),
	    "categories[2].id must be 1-50 characters of a-z0-9_-", "upper case id");
	CHECK_STR(v("{\"categories\":[{\"id\":\"\",\"name\":\"A\"}]}"),
	    "categories[0].id must be 1-50 characters of a-z0-9_-", "empty id");
	CHECK_STR(v("{\"categories\":[{\"id\":\"a b\",\"name\":\"A\"}]}"),
	    "categories[0].id must be 1-50 characters of a-z0-9_-", "space in id");
	CHECK_STR(v("{\"categories\":[{\"id\":7,\"name\":\"A\"}]}"),
	    "categories[0].id must be 1-50 characters of a-z0-9_-", "number id");
	CHECK_STR(v("{\"categories\":[{\"id\":\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\","
	    "\"name\":\"A\"}]}"), "ok", "50-character id");
	CHECK_STR(v("{\"categories\":[{\"id\":\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\","
	    "\"name\":\"A\"}]}"), "categories[0].id must be 1-50 characters of a-z0-9_-",
	    "51-character id");
	CHECK_STR(v("{\"categories\":[{\"id\":\"analytics\",\"name\":\"A\"},"
	    "{\"id\":\"analytics\",\"name\":\"B\"}]}"), "duplicate category id: analytics",
	    "duplicate id");
	CHECK_STR(v("{\"categories\":[{\"id\":\"a\"}]}"), "categories[0].name must be a string",
	    "no name");
	CHECK_STR(v("{\"categories\":[{\"id\":\"a\",\"name\":null}]}"),
	    "categories[0].name must be a string", "null name");
	CHECK_STR(v("{\"categories\":[{\"id\":\"a\",\"name\":\"A\",\"description\":1}]}"),
	    "categories[0].description must be a string", "number description");
	CHECK_STR(v("{\"categories\":[{\"id\":\"a\",\"name\":\"A\",\"consentModel\":\"opt-in\"}]}"),
	    "categories[0].consentModel must be one of: opt_in, opt_out, notice, "
	    "notice_required, notice_only, exempt", "unknown model");
	CHECK_STR(v("{\"categories\":[{\"id\":\"a\",\"name\":\"A\",\"consentModel\":\"notice\"},"
	    "{\"id\":\"b\",\"name\":\"B\",\"consentModel\":\"notice_required\"},"
	    "{\"id\":\"c\",\"name\":\"C\",\"consentModel\":\"opt_out\"}]}"), "ok",
	    "every model name");

	/* 50 categories are fine, 51 are not (spec 8: consent maps hold 50). */
	n = (size_t)snprintf(big, sizeof(big), "{\"categories\":[");
	for (i = 0; i < 51; i++)
		n += (size_t)snprintf(big + n, sizeof(big) - n, "%s{\"id\":\"c%d\",\"name\":\"C\"}",
		    i ? "," : "", i);
	snprintf(big + n, sizeof(big) - n, "]}");
	CHECK_STR(v(big), "categories must be an array of 1-50 categories", "51 categories");
	n = (size_t)(strstr(big, ",{\"id\":\"c50\"") - big);
	snprintf(big + n, sizeof(big) - n, "]}");
	CHECK_STR(v(big), "ok", "50 categories");
}

static void
test_regions(void)
{
	CHECK_STR(v(DOC(",\"regions\":{}")), "regions must be an array of at most 1000 regions",
	    "regions an object");
	CHECK_STR(v(DOC(",\"regions\":[\"gdpr\"]")), "regions[0] must be an object",
	    "region a string");
	CHECK_STR(v(DOC(",\"regions\":[{\"countries\":[]}]")),
	    "regions[0].id must be a string of 1-64 characters", "region without id");
	CHECK_STR(v(DOC(",\"regions\":[{\"id\":\"\",\"countries\":[]}]")),
	    "regions[0].id must be a string of 1-64 characters", "empty region id");
	CHECK_STR(v(DOC(",\"regions\":[{\"id\":\"a\",\"countries\":[]},"
	    "{\"id\":\"a\",\"countries\":[]}]")), "duplicate region id: a", "duplicate region");
	CHECK_STR(v(DOC(",\"regions\":[{\"id\":\"a\"}]")), "regions[0].countries must be an array",
	    "no countries");
	CHECK_STR(v(DOC(",\"regions\":[{\"id\":\"a\",\"countries\":\"DE\"}]")),
	    "regions[0].countries must be an array", "countries a string");
	CHECK_STR(v(DOC(",\"regions\":[{\"id\":\"a\",\"countries\":[]},"
	    "{\"id\":\"b\",\"countries\":[\"de\"]}]")),
	    "regions[1].countries[0] must be an ISO 3166-1 alpha-2 code or \"*\"",
	    "lower-case country");
	CHECK_STR(v(DOC(",\"regions\":[{\"id\":\"a\",\"countries\":[\"DE\",\"UK\"]}]")),
	    "regions[0].countries[1] must be an ISO 3166-1 alpha-2 code or \"*\"",
	    "UK is not a code (GB is)");
	CHECK_STR(v(DOC(",\"regions\":[{\"id\":\"a\",\"countries\":[\"DEU\"]}]")),
	    "regions[0].countries[0] must be an ISO 3166-1 alpha-2 code or \"*\"", "alpha-3");
	CHECK_STR(v(DOC(",\"regions\":[{\"id\":\"a\",\"countries\":[\"XX\"]}]")),
	    "regions[0].countries[0] must be an ISO 3166-1 alpha-2 code or \"*\"", "XX");
	CHECK_STR(v(DOC(",\"regions\":[{\"id\":\"a\",\"countries\":[\"**\"]}]")),
	    "regions[0].countries[0] must be an ISO 3166-1 alpha-2 code or \"*\"", "**");
	CHECK_STR(v(DOC(",\"regions\":[{\"id\":\"a\",\"countries\":[1]}]")),
	    "regions[0].countries[0] must be an ISO 3166-1 alpha-2 code or \"*\"", "number");
	CHECK_STR(v(DOC(",\"regions\":[{\"id\":\"a\",\"countries\":[\"AD\",\"ZW\"]}]")),
	    "ok", "first and last codes");
	CHECK_STR(v(DOC(",\"regions\":[{\"id\":\"a\",\"countries\":[\"US\"],"
	    "\"subdivisions\":\"US-CA\"}]")), "regions[0].subdivisions must be an array",
	    "subdivisions a string");
	CHECK_STR(v(DOC(",\"regions\":[{\"id\":\"a\",\"countries\":[\"US\"],"
	    "\"subdivisions\":[\"US-CA\",\"CA\"]}]")),
	    "regions[0].subdivisions[1] must be an ISO 3166-2 code such as US-CA",
	    "subdivision without country");
	CHECK_STR(v(DOC(",\"regions\":[{\"id\":\"a\",\"countries\":[\"US\"],"
	    "\"subdivisions\":[\"us-ca\"]}]")),
	    "regions[0].subdivisions[0] must be an ISO 3166-2 code such as US-CA", "lower case");
	CHECK_STR(v(DOC(",\"regions\":[{\"id\":\"a\",\"countries\":[\"US\"],"
	    "\"subdivisions\":[\"US-ABCD\"]}]")),
	    "regions[0].subdivisions[0] must be an ISO 3166-2 code such as US-CA", "too long");
	CHECK_STR(v(DOC(",\"regions\":[{\"id\":\"a\",\"countries\":[\"FR\"],"
	    "\"subdivisions\":[\"FR-75C\",\"GB-ENG\",\"ES-M\"]}]")), "ok",
	    "1-3 letters or digits");
	CHECK_STR(v(DOC(",\"regions\":[{\"id\":\"a\",\"countries\":[],\"consentModel\":\"gdpr\"}]")),
	    "regions[0].consentModel must be one of: opt_in, opt_out, notice, "
	    "notice_required, notice_only, exempt", "bad region model");
	CHECK_STR(v(DOC(",\"regions\":[{\"id\":\"a\",\"countries\":[],\"categoryModels\":[]}]")),
	    "regions[0].categoryModels must be an object", "categoryModels an array");
	CHECK_STR(v(DOC(",\"regions\":[{\"id\":\"a\",\"countries\":[],"
	    "\"categoryModels\":{\"analytics\":\"maybe\"}}]")),
	    "regions[0].categoryModels.analytics must be one of: opt_in, opt_out, notice, "
	    "notice_required, notice_only, exempt", "bad category model");
	CHECK_STR(v(DOC(",\"regions\":[{\"id\":\"a\",\"countries\":[],"
	    "\"categoryModels\":{\"marketing\":\"opt_out\"}}]")),
	    "regions[0].categoryModels names no category: marketing", "unknown category");
	CHECK_STR(v(DOC(",\"regions\":[{\"id\":\"a\",\"countries\":[],\"defaultLanguage\":\"\"}]")),
	    "regions[0].defaultLanguage must be a language tag", "empty language");
	CHECK_STR(v(DOC(",\"regions\":[{\"id\":\"a\",\"countries\":[],\"defaultLanguage\":\"e n\"}]")),
	    "regions[0].defaultLanguage must be a language tag", "space in language");
	CHECK_STR(v(DOC(",\"regions\":[{\"id\":\"a\",\"countries\":[\"DE\",\"UK\"]},"
	    "{\"id\":\"a\",\"countries\":[]}]")),
	    "regions[0].countries[1] must be an ISO 3166-1 alpha-2 code or \"*\"",
	    "the first problem is named, not a later one");
}

static void
test_content(void)
{
	CHECK_STR(v(DOC(",\"content\":[]")), "content must be an object", "content an array");
	CHECK_STR(v(DOC(",\"content\":{\"defaultLanguage\":5}")),
	    "content.defaultLanguage must be a language tag", "number language");
	CHECK_STR(v(DOC(",\"content\":{\"translations\":[]}")),
	    "content.translations must be an object", "translations an array");
	CHECK_STR(v(DOC(",\"content\":{\"translations\":{\"en\":\"hello\"}}")),
	    "content.translations.en must be an object", "a translation a string");
	CHECK_STR(v(DOC(",\"content\":{\"translations\":{\"en\":{\"banner\":[]}}}")),
	    "content.translations.en.banner must be an object", "banner an array");
	CHECK_STR(v(DOC(",\"content\":{\"translations\":{\"en\":{\"banner\":{\"title\":1}}}}")),
	    "content.translations.en.banner.title must be a string", "number title");
	CHECK_STR(v(DOC(",\"content\":{\"translations\":{\"de\":{\"modelOverrides\":"
	    "{\"opt_out\":{\"title\":null}}}}}")),
	    "content.translations.de.modelOverrides.opt_out.title must be a string",
	    "null override");
	CHECK_STR(v(DOC(",\"content\":{\"translations\":{\"de\":{\"modelOverrides\":"
	    "{\"opt_out\":\"x\"}}}}")),
	    "content.translations.de.modelOverrides.opt_out must be an object",
	    "override a string");
	CHECK_STR(v(DOC(",\"content\":{\"translations\":{\"en\":{\"ui\":{\"required\":true}}}}")),
	    "content.translations.en.ui.required must be a string", "boolean ui label");
	CHECK_STR(v(DOC(",\"content\":{\"translations\":{\"en\":{\"categories\":"
	    "{\"analytics\":{\"name\":[]}}}}}")),
	    "content.translations.en.categories.analytics.name must be a string",
	    "array category name");
}

static void
test_script_rules(void)
{
	CHECK_STR(v(DOC(",\"scriptRules\":{}")), "scriptRules must be an array", "an object");
	CHECK_STR(v(DOC(",\"scriptRules\":[\"x\"]")), "scriptRules[0] must be an object",
	    "a string rule");
	CHECK_STR(v(DOC(",\"scriptRules\":[{\"category\":\"analytics\"}]")),
	    "scriptRules[0].pattern must be a non-empty string", "no pattern");
	CHECK_STR(v(DOC(",\"scriptRules\":[{\"pattern\":\"\",\"category\":\"analytics\"}]")),
	    "scriptRules[0].pattern must be a non-empty string", "empty pattern");
	CHECK_STR(v(DOC(",\"scriptRules\":[{\"pattern\":\"x\"}]")),
	    "scriptRules[0].category must be a string", "no category");
	CHECK_STR(v(DOC(",\"scriptRules\":[{\"pattern\":\"x\",\"category\":\"analytics\"},"
	    "{\"pattern\":\"y\",\"category\":\"foo\"}]")),
	    "scriptRules[1].category names no category: foo", "unknown category");
}

/* A small err buffer gets a truncated, terminated message. */
static void
test_small_buffer(void)
{
	cJSON *doc = cJSON_Parse("{}");
	char small[9];

	memset(small, 'x', sizeof(small));
	CHECK(configdoc_validate(doc, small, sizeof(small)) == -1, "refused");
	CHECK_STR(small, "categori", "truncated and terminated");
	CHECK(configdoc_validate(doc, small, 0) == -1, "errsz 0 is fine");
	cJSON_Delete(doc);
}

/* Issue 10, defect 1: every string and key of a document is UTF-8 text
 * without control characters, and translation keys are language tags. */
static void
test_texts(void)
{
#define TR(body) DOC(",\"content\":{\"translations\":{" body "}}")
	CHECK_STR(v(TR("\"en\":{\"banner\":{\"title\":\"N\xff\xfe\"}}")),
	    "content.translations.en.banner.title must be UTF-8 text without control characters",
	    "invalid UTF-8 in a banner text refused");
	CHECK_STR(v(TR("\"en\":{\"banner\":{\"title\":\"T\xc0\xaf\"}}")),
	    "content.translations.en.banner.title must be UTF-8 text without control characters",
	    "an overlong form refused");
	CHECK_STR(v(TR("\"en\":{\"ui\":{\"required\":\"a\\u0001b\"}}")),
	    "content.translations.en.ui.required must be UTF-8 text without control characters",
	    "a C0 control character refused");
	CHECK_STR(v(TR("\"en\":{\"ui\":{\"required\":\"a\xc2\x85\"}}")),
	    "content.translations.en.ui.required must be UTF-8 text without control characters",
	    "a C1 control character (NEL) refused");
	CHECK_STR(v(TR("\"en\":{\"banner\":{\"description\":\"one\\ntwo\\tthree\"}}")),
	    "ok", "LF and tab in a text are fine");
	CHECK_STR(v(TR("\"T\xc0\xaf\":{}")),
	    "content.translations has a key that is not UTF-8 text without control characters",
	    "a translation key with an overlong form refused");
	CHECK_STR(v(TR("\"en\":{\"ui\":{\"x\\ny\":\"z\"}}")),
	    "content.translations.en.ui has a key that is not UTF-8 text without control characters",
	    "a key with LF refused");
	CHECK_STR(v(TR("\"e n\":{}")),
	    "content.translations.e n: a translation's key must be a language tag",
	    "a translation key that is not a language tag refused");
	CHECK_STR(v(TR("\"de-AT\":{},\"pt-BR\":{}")), "ok", "language tags are keys");
	CHECK_STR(v(DOC(",\"appearance\":{\"custom\":[\"ok\",\"N\xff\"]}")),
	    "appearance.custom[1] must be UTF-8 text without control characters",
	    "unknown keys are checked too, arrays included");
	CHECK_STR(v("{\"categories\":[{\"id\":\"necessary\",\"name\":\"N\xc2\x9f\"}]}"),
	    "categories[0].name must be UTF-8 text without control characters",
	    "a category name with a C1 control refused");
#undef TR
}

int
main(void)
{
	test_valid();
	test_advanced();
	test_texts();
	test_document();
	test_categories();
	test_regions();
	test_content();
	test_script_rules();
	test_small_buffer();
	UNIT_DONE();
}
