/* prepared.c: differential: the answer prepared at publish time against the
 * document resolved afresh, byte for byte, for any document and visitor.
 *
 * What cgi-bin/config does both ways (prepare.c): a valid document is
 * published (publish_prepare: checked, printed, prepared for every region
 * and language); a request picks a region and a language on the stored
 * skeleton (resolve_pick) and answers the stored row through
 * resolve_stored, or, without a prepared row, resolves the stored text now
 * (resolve_config).  The two must be the same bytes, and the same as
 * resolving the document before it was printed.  t0215 checks this on
 * fixed documents and visitors; here both are fuzzed.  Then the same through
 * a SQLite store, as the endpoint reads it: published with its answers,
 * read back (store_site_get, prepare_site, prepare_answer).
 *
 * Input (the config harness's format, so its corpus seeds this one): line 1
 * the query string (region=, lang=), line 2 Accept-Language, line 3 the
 * country, line 4 the subdivision ("~": absent), then the document's JSON
 * text.  A document that publishing refuses is only checked to be refused.
 * A query parameter fuzz_oom=N (not one the endpoint knows) makes the N-th
 * cJSON allocation from there on fail, and every one after it: then
 * nothing is compared, but nothing may crash or leak on the way out of
 * memory (LeakSanitizer).
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "admin/publish.h"
#include "base/limits.h"
#include "config/prepare.h"
#include "config/resolve.h"
#include "fuzz.h"
#include "visitor.h"
#include "http/http.h"
#include "input/geo.h"
#include "store/store_admin.h"

/* Publishing and answering with allocations failing: whatever comes back
 * is released, nothing is checked but the sanitizers'. */
static void
out_of_memory(cJSON *doc, const struct visitor *v)
{
	struct site_facts facts = { "Fuzz site", 0, 7, 0 };
	char name[] = "Fuzz site";
	struct publish pub;
	struct publish_check why;
	struct site site;
	struct served sv;
	const char *region, *lang;
	cJSON *skel;

	if (publish_prepare(doc, &pub, &why) == PUBLISH_OK) {
		cJSON_Delete(resolve_config(doc, v, &facts));
		if (pub.prep.rows.skeleton != NULL &&
		    (skel = resolve_document(pub.prep.rows.skeleton)) != NULL) {
			if (resolve_pick(skel, v, &region, &lang) == 0 && pub.prep.rows.n > 0)
				cJSON_Delete(resolve_stored(pub.text, pub.prep.rows.script_rules,
				    pub.prep.rows.a[0].answer, &facts));
			cJSON_Delete(skel);
		}
		memset(&site, 0, sizeof(site));
		site.name = name;
		site.document = pub.text;
		if (prepare_site(&site, &sv) == 0)
			cJSON_Delete(prepare_answer(NULL, &site, &sv, v));
		prepare_site_free(&sv);
	}
	publish_free(&pub);
	memset(&site, 0, sizeof(site));
	site.name = name;
	if (prepare_site(&site, &sv) == 0)
		cJSON_Delete(prepare_answer(NULL, &site, &sv, v));
	prepare_site_free(&sv);
}

/* The printed 200 body; FUZZ_CHECK that it could be made. */
static char *
printed(cJSON *body)
{
	char *s;

	FUZZ_CHECK(body != NULL);
	s = cJSON_PrintUnformatted(body);
	FUZZ_CHECK(s != NULL);
	cJSON_Delete(body);
	return s;
}

/*
 * A SQLite database of one site, "fuzz", for the stored answers: made in
 * $TMPDIR (else /tmp) at the first input, made anew every 500 inputs (every
 * publish adds a version), removed at exit.
 */
static struct store *st;
static char st_path[4096];
static unsigned st_uses;

static void
store_gone(void)
{
	if (st != NULL)
		store_close(st);
	st = NULL;
	if (st_path[0] != '\0') {
		char side[4200];
		unlink(st_path);
		snprintf(side, sizeof(side), "%s-wal", st_path);
		unlink(side);
		snprintf(side, sizeof(side), "%s-shm", st_path);
		unlink(side);
	}
}

static struct store *
store(void)
{
	const char *tmp = getenv("TMPDIR");
	int64_t from;

	if (st != NULL && ++st_uses < 500)
		return st;
	if (st_path[0] == '\0')
		atexit(store_gone);
	store_gone();
	st_uses = 0;
	snprintf(st_path, sizeof(st_path), "%s/fuzz-prepared-%ld.db", tmp ? tmp : "/tmp",
	    (long)getpid());
	FUZZ_CHECK(store_open(&st, st_path, STORE_CREATE) == STORE_OK);
	FUZZ_CHECK(store_init(st, &from) == STORE_OK);
	FUZZ_CHECK(store_site_add(st, "fuzz", "Fuzz site", 0, -1, NULL, 0) == STORE_OK);
	return st;
}

/* Through the store as the config endpoint does it: published (its
 * answers stored), then read back (store_site_get, prepare_site) and
 * answered (prepare_answer: the stored row for the pick, else the
 * document resolved now), which is the stored text resolved now. */
static void
through_store(const struct publish *pub, const struct visitor *v)
{
	struct store *db = store();
	struct site site;
	struct served sv;
	struct site_facts facts;
	int64_t version;
	cJSON *doc;
	char *want, *got;

	FUZZ_CHECK(publish_store(db, "fuzz", pub, NULL, &version) == PUBLISH_OK);
	FUZZ_CHECK(store_site_get(db, "fuzz", &site) == STORE_OK);
	FUZZ_CHECK(site.version == version && site.document != NULL);
	FUZZ_CHECK(prepare_site(&site, &sv) == 0);
	FUZZ_CHECK(sv.prepared == (pub->prep.rows.skeleton != NULL));
	got = printed(prepare_answer(db, &site, &sv, v));
	facts.name = site.name;
	facts.free_tier = site.free_tier;
	facts.version = site.version;
	facts.doc_is_builtin = 0;
	FUZZ_CHECK((doc = resolve_document(site.document)) != NULL);
	want = printed(resolve_config(doc, v, &facts));
	FUZZ_CHECK(strcmp(got, want) == 0);
	cJSON_free(got);
	cJSON_free(want);
	cJSON_Delete(doc);
	prepare_site_free(&sv);
	store_site_clear(&site);
}

/* The stored row for region and lang, or NULL. */
static const char *
row(const struct store_prepared *rows, const char *region, const char *lang)
{
	for (size_t i = 0; i < rows->n; i++)
		if (strcmp(rows->a[i].region, region) == 0 &&
		    strcmp(rows->a[i].language, lang) == 0)
			return rows->a[i].answer;
	return NULL;
}

/* The endpoint's own path (prepare_site, prepare_answer) for a site whose
 * document has no prepared skeleton of this build (skeleton NULL, or
 * another build's): it resolves the stored text now, and answers want. */
static void
served(char *document, char *skeleton, const struct visitor *v,
       const struct site_facts *facts, const char *want)
{
	char name[] = "Fuzz site";
	struct site site;
	struct served sv;
	char *got;

	memset(&site, 0, sizeof(site));
	site.name = name;
	site.free_tier = facts->free_tier;
	site.version = facts->version;
	site.document = document;
	site.skeleton = skeleton;
	FUZZ_CHECK(prepare_site(&site, &sv) == 0);
	FUZZ_CHECK(sv.prepared == 0);
	/* Not prepared: no stored row is read, so no store is needed. */
	got = printed(prepare_answer(NULL, &site, &sv, v));
	FUZZ_CHECK(strcmp(got, want) == 0);
	cJSON_free(got);
	prepare_site_free(&sv);
}

/* A site with nothing published: the built-in document, resolved with
 * the texts of the language picked (and English). */
static void
builtin(const struct visitor *v)
{
	char name[] = "Fuzz site";
	struct site site;
	struct served sv;
	cJSON *body;

	memset(&site, 0, sizeof(site));
	site.name = name;
	FUZZ_CHECK(prepare_site(&site, &sv) == 0);
	body = prepare_answer(NULL, &site, &sv, v);
	FUZZ_CHECK(body != NULL);
	cJSON_Delete(body);
	prepare_site_free(&sv);
}

static void
differ(cJSON *doc, const struct visitor *v)
{
	struct site_facts facts = { "Fuzz site", 0, 7, 0 };
	char other[] = "{\"stamp\":\"r0-another-build\"}";
	struct publish pub;
	struct publish_check why;
	const cJSON *stamp;
	const char *region, *lang, *answer;
	cJSON *skel, *stored_doc;
	char *direct, *fresh, *stored;

	if (publish_prepare(doc, &pub, &why) != PUBLISH_OK) {
		FUZZ_CHECK(why.message[0] != '\0');
		publish_free(&pub);
		return;
	}
	/* The document as the store keeps it, resolved now ... */
	stored_doc = resolve_document(pub.text);
	FUZZ_CHECK(stored_doc != NULL);
	fresh = printed(resolve_config(stored_doc, v, &facts));
	/* ... is the document as published, resolved now. */
	direct = printed(resolve_config(doc, v, &facts));
	FUZZ_CHECK(strcmp(direct, fresh) == 0);
	if (pub.prep.rows.skeleton != NULL) {
		skel = resolve_document(pub.prep.rows.skeleton);
		FUZZ_CHECK(skel != NULL);
		stamp = cJSON_GetObjectItemCaseSensitive(skel, "stamp");
		FUZZ_CHECK(cJSON_IsString(stamp) && strcmp(stamp->valuestring, prepare_stamp()) == 0);
		/* Every region of a prepared document has an id: a pick. */
		FUZZ_CHECK(resolve_pick(skel, v, &region, &lang) == 0);
		/* The pick on the skeleton is the pick on the whole document. */
		{
			const char *r2, *l2;
			FUZZ_CHECK(resolve_pick(stored_doc, v, &r2, &l2) == 0);
			FUZZ_CHECK(strcmp(region, r2) == 0 && strcmp(lang, l2) == 0);
		}
		if ((answer = row(&pub.prep.rows, region, lang)) != NULL) {
			stored = printed(resolve_stored(pub.text, pub.prep.rows.script_rules,
			    answer, &facts));
			FUZZ_CHECK(strcmp(stored, fresh) == 0);
			cJSON_free(stored);
		}
		cJSON_Delete(skel);
	}
	served(pub.text, NULL, v, &facts, fresh);
	through_store(&pub, v);
	served(pub.text, other, v, &facts, fresh);
	cJSON_free(direct);
	cJSON_free(fresh);
	cJSON_Delete(stored_doc);
	publish_free(&pub);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_lines l;
	struct visitor v;
	char region[TOKEN_MAX + 1], lang[LANG_TAG_MAX + 1], oom[16];
	unsigned long want_oom;
	const char *q;
	char *text;
	cJSON *doc;
	int object;

	fuzz_split(data, size, 4, &l);
	q = l.s[0] ? l.s[0] : "";
	want_oom = 0;
	if (http_query_param(q, "fuzz_oom", oom, sizeof(oom)) == HTTP_PARAM_FOUND)
		want_oom = strtoul(oom, NULL, 10) % 10000000;
	fuzz_visitor_query(q, &v, region, lang);
	v.accept = l.s[1];
	if (l.s[2] != NULL)
		(void)geo_set(&v.geo, l.s[2], l.s[3]);

	text = fuzz_body(l.rest, l.rest_len);
	if (text[0] == '\0')
		builtin(&v);
	/* resolve_document logs what does not parse: look first. */
	doc = cJSON_Parse(text);
	object = cJSON_IsObject(doc);
	cJSON_Delete(doc);
	if (object && (doc = resolve_document(text)) != NULL) {
		if (want_oom != 0) {
			fuzz_cjson_fail_from(want_oom);
			out_of_memory(doc, &v);
			fuzz_cjson_fail_from(0);
		} else {
			differ(doc, &v);
		}
		cJSON_Delete(doc);
	}
	free(text);
	fuzz_lines_free(&l);
	return 0;
}
