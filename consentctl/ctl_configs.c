/* ctl_configs.c: consentctl init and config: the schema, and publishing and showing configs. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "admin/publish.h"
#include "ctl.h"
#include "config/defaults.h"
#include "config/prepare.h"
#include "proof/proof.h"

/* The store's preparer for init: a stored document prepared again; arg
 * holds what was prepared until the store has written it.  0, 1 (nothing
 * to store for it) or -1, as store_preparer asks. */
static int
prepare_stored(void *arg, const char *document, struct store_prepared *out)
{
	struct prepared *p = arg;
	cJSON *doc = cJSON_ParseWithOpts(document, NULL, 1);
	enum prepare_result rc = PREPARE_PER_REQUEST;

	memset(p, 0, sizeof(*p));
	if (cJSON_IsObject(doc) && (rc = prepare_document(doc, p)) == PREPARE_OK)
		*out = p->rows;
	cJSON_Delete(doc);
	return rc == PREPARE_OK ? 0 : rc == PREPARE_PER_REQUEST ? 1 : -1;
}

static void
release_stored(void *arg, struct store_prepared *out)
{
	prepare_free(arg);
	memset(out, 0, sizeof(*out));
}

/*
 * Create or upgrade the schema, then prepare every published version again
 * (schema.sql, config_answers): a database from before those tables gets
 * them, and answers follow the built-in texts of this build.
 */
/* store_digest_fn: an old entry's digest, as the consent endpoint makes it. */
static int
digest_old(void *arg, const char *key, const cJSON *row, char out[65])
{
	(void)arg;
	return proof_row_digest(key, row, out);
}

/*
 * The upgrade to schema version 4 (the proof of the log): every entry
 * stored before it gets its digest, computed from its stored fields as the
 * consent endpoint computes it now, and every site its first seals.
 */
static int
upgrade_proof(struct ctl *c)
{
	int64_t done;

	if (store_digest_missing(c->st, DIGEST_BATCH, digest_old, NULL, &done) != STORE_OK)
		return STORE_ERROR;
	return store_site_keys(c->st, ctl_seal_each, c);
}

/* The message and exit status of what publish.c answered for site key:
 * EXIT_OK for PUBLISH_OK, else EXIT_FAIL after its message (invalid
 * documents are worded by the caller). */
static int
publish_failed(enum publish_result r, const char *key)
{
	switch (r) {
	case PUBLISH_OK:
		return EXIT_OK;
	case PUBLISH_NOMEM:
		return ctl_say(EXIT_FAIL, "out of memory");
	case PUBLISH_BUILD:
		return ctl_say(EXIT_FAIL, "the built-in texts of this build do not match their hash "
		    "%s (a build error)", defaults_hash());
	case PUBLISH_NOSITE:
		return ctl_store_failed(STORE_NOTFOUND, key);
	default:
		return EXIT_FAIL;
	}
}

int
ctl_record_builtin(struct ctl *c)
{
	return publish_failed(publish_record_builtin(c->st), "") == EXIT_OK ? STORE_OK
	    : STORE_ERROR;
}

int
cmd_init(struct ctl *c)
{
	struct store *st = ctl_store(c);
	int64_t from = 0;
	int rc;

	if (st == NULL)
		return EXIT_FAIL;
	rc = store_init(st, &from);
	if (rc == STORE_EXISTS)
		return ctl_say(EXIT_FAIL, "the database is newer than this consentctl (schema "
		    "version %lld); left unchanged", (long long)from);
	if (rc == STORE_OK) {
		struct prepared prep;
		struct store_preparer p = { prepare_stored, release_stored, &prep };

		memset(&prep, 0, sizeof(prep));
		rc = store_config_prepare_live(st, &p);
		prepare_free(&prep);
	}
	if (rc == STORE_OK && from > 0 && from < 4)
		rc = upgrade_proof(c);
	if (rc == STORE_OK)
		rc = ctl_record_builtin(c);
	return rc == STORE_OK ? EXIT_OK : ctl_store_failed(rc, "");
}

/*
 * Read all of path ("-": stdin), at most CONFIG_FILE_MAX bytes, as a new
 * NUL-terminated string in *out.  0 or EXIT_FAIL (reported).
 */
static int
read_file(const char *path, char **out)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0;
	int rc = EXIT_FAIL;

	*out = NULL;
	if (f == NULL)
		return ctl_say(EXIT_FAIL, "cannot open %s: %s", path, strerror(errno));
	if ((buf = malloc(CONFIG_FILE_MAX + 2)) == NULL) {
		ctl_say(EXIT_FAIL, "out of memory");
		goto out;
	}
	/* One byte more than allowed tells an oversized file apart. */
	while (n <= CONFIG_FILE_MAX && !feof(f) && !ferror(f))
		n += fread(buf + n, 1, CONFIG_FILE_MAX + 1 - n, f);
	if (ferror(f)) {
		ctl_say(EXIT_FAIL, "cannot read %s: %s", path, strerror(errno));
	} else if (n > CONFIG_FILE_MAX) {
		ctl_say(EXIT_FAIL, "%s: larger than %d bytes", path, CONFIG_FILE_MAX);
	} else if (memchr(buf, '\0', n) != NULL) {
		ctl_say(EXIT_FAIL, "%s: not a JSON document (contains a NUL byte)", path);
	} else {
		buf[n] = '\0';
		*out = buf;
		buf = NULL;
		rc = EXIT_OK;
	}
out:
	free(buf);
	if (f != stdin)
		fclose(f);
	return rc;
}

int
ctl_publish_json(struct ctl *c, const char *key, const cJSON *json)
{
	struct publish p;
	struct publish_check why;
	enum publish_result r;
	int64_t version;
	int rc = EXIT_FAIL;

	/* Checked and prepared before the database is opened. */
	if ((r = publish_prepare(json, &p, &why)) == PUBLISH_INVALID) {
		ctl_say(EXIT_FAIL, "invalid config: %s", why.message);
		goto out;
	}
	if (r != PUBLISH_OK) {
		publish_failed(r, key);
		goto out;
	}
	if (ctl_store(c) == NULL)
		goto out;
	if ((rc = publish_failed(publish_store(c->st, key, &p, ctl_actor(), &version), key))
	    != EXIT_OK)
		goto out;
	printf("%lld\n", (long long)version);
	c->audit.version = version;
out:
	publish_free(&p);
	return rc;
}

int
cmd_config_publish(struct ctl *c)
{
	const char *key = c->operands[0], *path = c->operands[1], *end = NULL;
	char *text = NULL;
	cJSON *json = NULL;
	int rc;

	if (ctl_check_key(key) != 0)
		return EXIT_USAGE;
	if ((rc = read_file(path, &text)) != EXIT_OK)
		return rc;
	if ((json = cJSON_ParseWithOpts(text, &end, 1)) == NULL)
		rc = ctl_say(EXIT_FAIL, "%s: not valid JSON (at byte %td)",
		    path, end != NULL ? end - text : (ptrdiff_t)0);
	else
		rc = ctl_publish_json(c, key, json);
	cJSON_Delete(json);
	free(text);
	return rc;
}

/* The published document, or the built-in defaults, formatted. */
int
cmd_config_show(struct ctl *c)
{
	const char *key = c->operands[0];
	struct site site;
	cJSON *doc;
	int rc;

	if (ctl_check_key(key) != 0)
		return EXIT_USAGE;
	if (ctl_store(c) == NULL)
		return EXIT_FAIL;
	if ((rc = store_site_get(c->st, key, &site)) != STORE_OK)
		return ctl_store_failed(rc, key);
	doc = site.document != NULL ? cJSON_Parse(site.document) : defaults_config();
	if (doc == NULL)
		rc = ctl_say(EXIT_FAIL, "the stored config of %s is not valid JSON", key);
	else
		rc = ctl_print_json(doc);
	cJSON_Delete(doc);
	store_site_clear(&site);
	return rc;
}

