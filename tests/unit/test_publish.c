/* test_publish.c: the one publish path of consentctl and the dashboard: checks naming the field, versions with their publisher. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "admin/publish.h"
#include "base/hash.h"
#include "config/defaults.h"
#include "store/store_admin.h"
#include "unit.h"

/* publish_check() of text: its message's start and its path. */
static void
check_named(const char *text, const char *message_start, const char *path, const char *what)
{
	cJSON *doc = cJSON_Parse(text);
	struct publish_check why;
	char msg[300];
	int rc = publish_check(doc, &why);

	snprintf(msg, sizeof(msg), "%s: refused", what);
	CHECK(rc == -1, msg);
	snprintf(msg, sizeof(msg), "%s: the validator's message", what);
	CHECK(strncmp(why.message, message_start, strlen(message_start)) == 0, msg);
	snprintf(msg, sizeof(msg), "%s: the path", what);
	CHECK_STR(why.path, path, msg);
	cJSON_Delete(doc);
}

/* store_row_fn: keep a copy of every row. */
static int
collect(const cJSON *row, void *arg)
{
	cJSON *copy = cJSON_Duplicate(row, 1);

	return copy != NULL && cJSON_AddItemToArray(arg, copy) ? 0 : -1;
}

static const char *
text_of(const cJSON *row, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(row, name);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static const char valid_text[] =
	"{\"categories\":[{\"id\":\"necessary\",\"name\":\"Necessary\",\"consentModel\":\"exempt\"},"
	"{\"id\":\"analytics\",\"name\":\"Analytics\",\"consentModel\":\"opt_in\"}],"
	"\"regions\":[{\"id\":\"gdpr\",\"countries\":[\"DE\"],\"consentModel\":\"opt_in\"}],"
	"\"content\":{\"translations\":{\"de\":{\"banner\":{\"title\":\"<img src=x onerror=alert(1)>\"}}}}}";

int
main(void)
{
	char dir[] = "/tmp/test_publish.XXXXXX", path[64], sha[65];
	struct store *st = NULL;
	struct publish p;
	struct publish_check why;
	struct site site;
	cJSON *doc, *rows;
	char *pieces = NULL;
	size_t len = 0;
	int64_t from = -1, version = 0;

	check_named("[1]", "config must be a JSON object", "", "not an object");
	check_named("{}", "categories is required", "categories", "a required member missing");
	check_named("{\"categories\":[{\"id\":\"necessary\",\"name\":\"N\",\"consentModel\":\"exempt\"},"
	    "{\"id\":\"Bad!\",\"name\":\"B\",\"consentModel\":\"opt_in\"}]}",
	    "categories[1].id must be", "categories[1].id", "an element's member");
	check_named("{\"categories\":[{\"id\":\"a\",\"name\":\"A\",\"consentModel\":\"opt_in\"},"
	    "{\"id\":\"a\",\"name\":\"A\",\"consentModel\":\"opt_in\"}]}",
	    "duplicate category id: a", "", "a message that names no member");
	check_named("{\"categories\":[{\"id\":\"a\",\"name\":\"A\",\"consentModel\":\"opt_in\"}],"
	    "\"content\":{\"translations\":{\"de\":{\"banner\":{\"title\":7}}}}}",
	    "content.translations.de.banner.title must be a string",
	    "content.translations.de.banner.title", "a text deep in the document");
	check_named("{\"categories\":[{\"id\":\"a\",\"name\":\"A\",\"consentModel\":\"opt_in\"}],"
	    "\"regions\":[{\"id\":\"r\",\"countries\":[\"DE\",\"Germany\"]}]}",
	    "regions[0].countries[1] must be", "regions[0].countries[1]", "an array in an array");

#ifdef STORE_POSTGRES
	printf("skip - test_publish: the store part needs a SQLite file, and this build stores "
	    "in PostgreSQL\n");
	UNIT_DONE();
#endif
	if (mkdtemp(dir) == NULL) {
		CHECK(0, "a temporary directory");
		UNIT_DONE();
	}
	snprintf(path, sizeof(path), "%s/consent.db", dir);
	CHECK(store_open(&st, path, STORE_CREATE) == STORE_OK && store_init(st, &from) == STORE_OK,
	    "a fresh database");
	if (st == NULL)
		UNIT_DONE();
	CHECK(store_site_add(st, "s1", "S1", 1, -1, NULL, 0) == STORE_OK, "a site");

	doc = cJSON_Parse("{\"categories\":[]}");
	CHECK(publish_prepare(doc, &p, &why) == PUBLISH_INVALID && p.text == NULL,
	    "an invalid document is not prepared");
	publish_free(&p);
	cJSON_Delete(doc);

	doc = cJSON_Parse(valid_text);
	CHECK(publish_prepare(doc, &p, &why) == PUBLISH_OK && p.text != NULL &&
	    p.prep.rows.skeleton != NULL, "a valid document is printed and prepared");
	CHECK(publish_store(st, "nosuch", &p, "alice", &version) == PUBLISH_NOSITE,
	    "an unknown site: PUBLISH_NOSITE");
	CHECK(publish_store(st, "s1", &p, "alice", &version) == PUBLISH_OK && version == 1,
	    "published as version 1");
	CHECK(store_builtin_get(st, defaults_hash(), &pieces, &len) == STORE_OK && len > 0,
	    "publishing recorded this build's built-in texts");
	free(pieces);
	CHECK(publish_store(st, "s1", &p, NULL, &version) == PUBLISH_OK && version == 2,
	    "published again as version 2, publisher unknown");
	CHECK(store_site_get(st, "s1", &site) == STORE_OK && site.version == 2 &&
	    site.skeleton != NULL && strcmp(site.document, p.text) == 0,
	    "the site serves version 2 as printed, with its prepared answers");
	store_site_clear(&site);

	rows = cJSON_CreateArray();
	CHECK(store_config_history(st, "s1", collect, rows) == STORE_OK &&
	    cJSON_GetArraySize(rows) == 2, "the history holds both versions");
	CHECK(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(rows, 0), "version")->valueint
	    == 2, "newest first");
	CHECK(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(rows, 0), "published_by") == NULL,
	    "no publisher given: none recorded");
	CHECK_STR(text_of(cJSON_GetArrayItem(rows, 1), "published_by"), "alice",
	    "version 1's publisher");
	CHECK(text_of(cJSON_GetArrayItem(rows, 1), "published_at") != NULL,
	    "version 1's time");
	CHECK(hash_sha256_hex(p.text, strlen(p.text), sha) == 0 &&
	    text_of(cJSON_GetArrayItem(rows, 1), "sha256") != NULL &&
	    strcmp(text_of(cJSON_GetArrayItem(rows, 1), "sha256"), sha) == 0,
	    "the SHA-256 of the document as stored");
	cJSON_Delete(rows);
	rows = cJSON_CreateArray();
	CHECK(store_config_history(st, "nosuch", collect, rows) == STORE_NOTFOUND,
	    "the history of an unknown site: STORE_NOTFOUND");
	cJSON_Delete(rows);

	publish_free(&p);
	cJSON_Delete(doc);
	store_close(st);
	unlink(path);
	snprintf(path, sizeof(path), "%s/consent.db-wal", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/consent.db-shm", dir);
	unlink(path);
	rmdir(dir);
	UNIT_DONE();
}
