/* publish.c: publishing a config document: check, prepare, record the built-in texts, store. */
#include <stdlib.h>
#include <string.h>

#include "admin/publish.h"
#include "base/hash.h"
#include "base/log.h"
#include "config/defaults.h"
#include "input/configdoc.h"

enum publish_result
publish_prepare(const cJSON *doc, struct publish *p, struct publish_check *why)
{
	memset(p, 0, sizeof(*p));
	if (publish_check(doc, why) != 0)
		return PUBLISH_INVALID;
	if ((p->text = cJSON_PrintUnformatted(doc)) == NULL ||
	    prepare_document(doc, &p->prep) == PREPARE_NOMEM) {
		log_error("out of memory");
		return PUBLISH_FAILED;
	}
	return PUBLISH_OK;
}

void
publish_free(struct publish *p)
{
	prepare_free(&p->prep);
	free(p->text);
	memset(p, 0, sizeof(*p));
}

enum publish_result
publish_record_builtin(struct store *st)
{
	size_t len;
	char *pieces = defaults_pieces(&len), sha[65];
	enum publish_result rc = PUBLISH_FAILED;

	if (pieces == NULL) {
		log_error("out of memory");
		return PUBLISH_FAILED;
	}
	if (hash_sha256_hex(pieces, len, sha) != 0)
		goto out;
	/* A build whose embedded texts are not what its hash was taken of
	 * would record texts under the wrong key. */
	if (strcmp(sha, defaults_hash()) != 0) {
		log_error("the built-in texts of this build do not match their hash %s "
		    "(a build error)", defaults_hash());
		goto out;
	}
	if (store_builtin_record(st, sha, pieces, len) == STORE_OK)
		rc = PUBLISH_OK;
out:
	free(pieces);
	return rc;
}

enum publish_result
publish_store(struct store *st, const char *key, const struct publish *p,
              const char *publisher, int64_t *version)
{
	enum publish_result rc;

	if ((rc = publish_record_builtin(st)) != PUBLISH_OK)
		return rc;
	switch (store_config_publish(st, key, p->text, &p->prep.rows, publisher, version)) {
	case STORE_OK:
		return PUBLISH_OK;
	case STORE_NOTFOUND:
		return PUBLISH_NOSITE;
	default:
		return PUBLISH_FAILED;
	}
}

/* The store's preparer: a stored document prepared again; arg holds what
 * was prepared until the store has written it.  0, 1 (nothing to store
 * for it) or -1, as store_preparer asks. */
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

int
publish_prepare_live(struct store *st)
{
	struct prepared prep;
	struct store_preparer p = { prepare_stored, release_stored, &prep };
	int rc;

	memset(&prep, 0, sizeof(prep));
	rc = store_config_prepare_live(st, &p);
	prepare_free(&prep);
	return rc;
}
