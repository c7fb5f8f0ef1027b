/* install.c: the dashboard's first run and upgrades, over store_init(). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "admin/install.h"
#include "base/hash.h"
#include "base/log.h"
#include "config/defaults.h"
#include "config/prepare.h"
#include "store/store_admin.h"

/* store_preparer: a stored document prepared again (consentctl init's). */
static int
prepare_one(void *arg, const char *document, struct store_prepared *out)
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
release_one(void *arg, struct store_prepared *out)
{
	prepare_free(arg);
	memset(out, 0, sizeof(*out));
}

/* The built-in texts of this build, recorded under their hash (receipts). */
static int
record_builtin(struct store *st)
{
	size_t len;
	char *pieces = defaults_pieces(&len), sha[65];
	int rc = STORE_ERROR;

	if (pieces == NULL)
		return STORE_ERROR;
	if (hash_sha256_hex(pieces, len, sha) == 0 && strcmp(sha, defaults_hash()) == 0)
		rc = store_builtin_record(st, sha, pieces, len);
	else
		log_error("the built-in texts of this build do not match their hash");
	free(pieces);
	return rc;
}

int
admin_install(struct store *st, int *upgraded)
{
	int64_t from = 0, to = 0;
	struct prepared prep;
	struct store_preparer p = { prepare_one, release_one, &prep };
	int rc;

	*upgraded = 0;
	if ((rc = store_init(st, &from)) == STORE_EXISTS)
		log_error("the database is newer than this program (schema version %lld)",
		    (long long)from);
	if (rc != STORE_OK)
		return -1;
	if (from > 0 && from < 4) {
		log_error("the database (schema version %lld) needs `consentctl init` first",
		    (long long)from);
		return -1;
	}
	/* A second look tells an upgrade from a current database. */
	if (from > 0 && store_init(st, &to) != STORE_OK)
		return -1;
	if (from > 0 && to == from)
		return 0;
	memset(&prep, 0, sizeof(prep));
	rc = store_config_prepare_live(st, &p);
	prepare_free(&prep);
	if (rc != STORE_OK || record_builtin(st) != STORE_OK)
		return -1;
	*upgraded = from > 0;
	return 0;
}
