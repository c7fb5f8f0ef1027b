/* test_prepare.c: the one config path: prepared answers are byte for byte the resolved ones, and stale ones are ignored. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "base/nitems.h"
#include "config/prepare.h"
#include "config/resolve.h"
#include "store/store_admin.h"
#include "unit.h"

/* A document with every kind of region (a subdivision one among them),
 * model overrides, four languages and script rules. */
static const char doc_text[] =
	"{\"content\":{\"defaultLanguage\":\"en\",\"translations\":{"
	"\"en\":{\"banner\":{\"title\":\"Cookies here\",\"description\":\"We use cookies.\"},"
	"\"modelOverrides\":{\"opt_out\":{\"title\":\"Your privacy choices\",\"rejectAllText\":\"Do not sell\"}},"
	"\"ui\":{\"required\":\"Always on\"},\"categories\":{\"analytics\":{\"name\":\"Statistics\"}}},"
	"\"de\":{\"banner\":{\"title\":\"Cookies hier\"},\"modelOverrides\":{\"opt_in\":{\"rejectAllText\":\"Nur notwendige\"}},"
	"\"ui\":{\"required\":\"Immer aktiv\"},\"categories\":{\"analytics\":{\"name\":\"Statistik\"}}},"
	"\"fr\":{\"banner\":{\"title\":\"Des cookies\"}},\"pt-BR\":{\"banner\":{\"title\":\"Cookies aqui\"}}}},"
	"\"categories\":[{\"id\":\"necessary\",\"name\":\"Necessary\",\"consentModel\":\"exempt\"},"
	"{\"id\":\"analytics\",\"name\":\"Analytics\",\"consentModel\":\"opt_in\"},"
	"{\"id\":\"ads\",\"name\":\"Advertising\",\"consentModel\":\"opt_in\"}],"
	"\"regions\":[{\"id\":\"gdpr\",\"countries\":[\"DE\",\"FR\",\"GB\"],\"consentModel\":\"opt_in\",\"defaultLanguage\":\"de\"},"
	"{\"id\":\"california\",\"countries\":[\"US\"],\"subdivisions\":[\"US-CA\"],\"consentModel\":\"opt_out\","
	"\"categoryModels\":{\"analytics\":\"notice\"}},"
	"{\"id\":\"us_state_laws\",\"countries\":[\"US\"],\"consentModel\":\"opt_out\"},"
	"{\"id\":\"brazil\",\"countries\":[\"BR\"],\"defaultLanguage\":\"pt-BR\"},"
	"{\"id\":\"default\",\"countries\":[\"*\"],\"consentModel\":\"notice_only\"}],"
	"\"consentRules\":{\"honorGpc\":true},"
	"\"scriptRules\":[{\"pattern\":\"google-analytics.com\",\"category\":\"analytics\"}]}";

static const char *const regions[] = {
	NULL, "gdpr", "california", "us_state_laws", "brazil", "default", "nowhere",
};
static const char *const langs[] = { NULL, "de", "DE", "pt-BR", "pt", "xx" };
static const char *const accepts[] = {
	NULL, "de-DE,de;q=0.9", "fr-CA", "es, en;q=0.1", "nl-BE,pl;q=0.5",
};
static const char *const places[][2] = {
	{"", ""}, {"DE", ""}, {"US", "CA"}, {"US", "NY"}, {"BR", ""}, {"JP", ""},
};

/* A printed body, or a marker when there is none. */
static char *
printed(cJSON *body)
{
	char *s = body ? cJSON_PrintUnformatted(body) : NULL;

	cJSON_Delete(body);
	return s ? s : strdup("(no body)");
}

/*
 * The body resolved from the whole built-in document as the config path
 * sends it for a site with nothing published: its config holds the texts
 * of English and of the language resolved only.  Takes body.
 */
static cJSON *
narrowed(cJSON *body)
{
	const cJSON *lang = cJSON_GetObjectItemCaseSensitive(body, "resolvedLanguage");
	char *text = body ? cJSON_PrintUnformatted(body) : NULL;
	cJSON *out = text ? cJSON_Parse(text) : NULL, *tr, *e, *next;

	tr = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(out, "config"), "content"), "translations");
	for (e = tr ? tr->child : NULL; e != NULL; e = next) {
		next = e->next;
		if (strcmp(e->string, "en") != 0 &&
		    !(cJSON_IsString(lang) && strcmp(e->string, lang->valuestring) == 0))
			cJSON_Delete(cJSON_DetachItemViaPointer(tr, e));
	}
	cJSON_free(text);
	cJSON_Delete(body);
	return out;
}

/*
 * Every visitor against site key: the answer of the one config path
 * (prepare_site, prepare_answer) and the document resolved in full
 * (resolve_config).  Returns the visitors compared; *same counts the equal
 * bodies; the first difference is shown unless quiet.
 */
static int
compare(struct store *st, const char *key, int *same, int *prepared, int quiet)
{
	struct site site;
	struct served sv;
	cJSON *doc;
	int n = 0;

	*same = 0;
	if (store_site_get(st, key, &site) != STORE_OK)
		return 0;
	if (prepare_site(&site, &sv) != 0 || (doc = resolve_document(site.document)) == NULL) {
		store_site_clear(&site);
		return 0;
	}
	*prepared = sv.prepared;
	for (size_t r = 0; r < nitems(regions); r++)
	for (size_t l = 0; l < nitems(langs); l++)
	for (size_t a = 0; a < nitems(accepts); a++)
	for (size_t p = 0; p < nitems(places); p++) {
		struct site_facts facts = { site.name, site.free_tier, site.version,
		    site.document == NULL };
		struct visitor v;
		char *got, *want;

		memset(&v, 0, sizeof(v));
		v.region = regions[r];
		v.lang = langs[l];
		v.accept = accepts[a];
		if (v.region == NULL) {  /* a region parameter skips detection */
			strcpy(v.geo.country, places[p][0]);
			strcpy(v.geo.subdivision, places[p][1]);
		} else if (p > 0) {
			continue;
		}
		got = printed(prepare_answer(st, &site, &sv, &v));
		want = printed(site.document != NULL ? resolve_config(doc, &v, &facts)
		    : narrowed(resolve_config(doc, &v, &facts)));
		if (strcmp(got, want) == 0)
			(*same)++;
		else if (*same == n && !quiet)
			printf("# first difference: region %s lang %s accept %s country %s-%s\n"
			    "#  prepared %.300s\n#  resolved %.300s\n",
			    v.region ? v.region : "-", v.lang ? v.lang : "-",
			    v.accept ? v.accept : "-", v.geo.country, v.geo.subdivision, got, want);
		free(got);
		free(want);
		n++;
	}
	cJSON_Delete(doc);
	prepare_site_free(&sv);
	store_site_clear(&site);
	return n;
}

/* Publish text for key with rows (NULL: prepare it here). */
static int
publish(struct store *st, const char *key, const char *text, const struct store_prepared *rows)
{
	cJSON *doc = cJSON_Parse(text);
	struct prepared p;
	int64_t version;
	int rc = -1;

	memset(&p, 0, sizeof(p));
	if (doc != NULL && prepare_document(doc, &p) == PREPARE_OK &&
	    store_config_publish(st, key, text, rows ? rows : &p.rows, NULL, &version) == STORE_OK)
		rc = 0;
	prepare_free(&p);
	cJSON_Delete(doc);
	return rc;
}

int
main(void)
{
	char dir[] = "/tmp/test_prepare.XXXXXX", path[64];
	struct store *st = NULL;
	int n, same, prepared;
	int64_t from = -1;

#ifdef STORE_POSTGRES
	/* This program's store is a SQLite file; the PostgreSQL store's
	 * prepared rows are checked by t0215 on a PostgreSQL database. */
	printf("skip - test_prepare: a SQLite file, and this build stores in PostgreSQL\n");
	return 0;
#endif
	if (mkdtemp(dir) == NULL) {
		CHECK(0, "a temporary directory");
		UNIT_DONE();
	}
	snprintf(path, sizeof(path), "%s/consent.db", dir);
	CHECK(store_open(&st, path, STORE_CREATE) == STORE_OK && store_init(st, &from) == STORE_OK &&
	    from == 0,
	    "a fresh database");
	if (st == NULL)
		UNIT_DONE();
	store_site_add(st, "p1", "P1", 1, -1, NULL, 0);
	store_site_add(st, "d1", "D1", 0, -1, NULL, 0);
	store_site_add(st, "stale", "Stale", 1, -1, NULL, 0);
	store_site_add(st, "bogus", "Bogus", 1, -1, NULL, 0);
	CHECK(publish(st, "p1", doc_text, NULL) == 0, "publish a document with its prepared answers");

	n = compare(st, "p1", &same, &prepared, 0);
	CHECK(prepared == 1, "a published site is served from what was prepared");
	CHECK(n >= 150, "at least 150 visitors: region, lang, Accept-Language, country");
	CHECK(same == n, "prepared answers are byte for byte the resolved ones");
	n = compare(st, "d1", &same, &prepared, 0);
	CHECK(prepared == 0 && n >= 150 && same == n,
	    "nothing published: the whole defaults resolved alike, config holding en and the language resolved");

	/* Rows of another build (another stamp) with answers that are wrong:
	 * ignored, the document resolved afresh. */
	{
		cJSON *doc = cJSON_Parse(doc_text), *skel;
		struct prepared p;
		struct store_answer *bad;
		struct store_prepared rows;
		char *old = NULL;

		memset(&p, 0, sizeof(p));
		prepare_document(doc, &p);
		bad = calloc(p.rows.n, sizeof(*bad));
		skel = cJSON_Parse(p.rows.skeleton);
		if (bad != NULL && skel != NULL) {
			cJSON_ReplaceItemInObjectCaseSensitive(skel, "stamp", cJSON_CreateString("r0-0000000000000000"));
			old = cJSON_PrintUnformatted(skel);
			for (size_t i = 0; i < p.rows.n; i++) {
				bad[i] = p.rows.a[i];
				bad[i].answer = "{\"sdkCategories\":[],\"resolvedRegion\":\"stale\"}";
			}
			rows = p.rows;
			rows.a = bad;
			rows.skeleton = old;
			CHECK(publish(st, "stale", doc_text, &rows) == 0, "publish rows of another build");
			n = compare(st, "stale", &same, &prepared, 0);
			CHECK(prepared == 0 && n >= 150 && same == n,
			    "a stale stamp: the rows are ignored, every answer resolved afresh");
			rows.skeleton = p.rows.skeleton;
			CHECK(publish(st, "bogus", doc_text, &rows) == 0, "publish wrong answers under this build's stamp");
			n = compare(st, "bogus", &same, &prepared, 1);
			CHECK(prepared == 1 && same == 0, "this build's stamp: the stored answers are what is served");
		}
		cJSON_free(old);
		cJSON_Delete(skel);
		free(bad);
		prepare_free(&p);
		cJSON_Delete(doc);
	}
	{
		char prefix[16];
		const char *s = prepare_stamp();

		snprintf(prefix, sizeof(prefix), "r%d-", RESOLVE_VERSION);
		CHECK(strncmp(s, prefix, strlen(prefix)) == 0 && strlen(s) == strlen(prefix) + 16 &&
		    strspn(s + strlen(prefix), "0123456789abcdef") == 16,
		    "the stamp: the resolver version and 16 hex digits of the defaults' hash");
	}
	store_close(st);
	unlink(path);
	{
		char wal[80];
		snprintf(wal, sizeof(wal), "%s-wal", path);
		unlink(wal);
		snprintf(wal, sizeof(wal), "%s-shm", path);
		unlink(wal);
	}
	rmdir(dir);
	UNIT_DONE();
}
