/* store_seal.c: the protocol of store_seal(), once for both backends, over each backend's statements. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/log.h"
#include "store/store_ops.h"

int
store_leaf_set(struct store_leaf *l, int64_t id, const char *created_at, const char *digest)
{
	l->id = id;
	if (created_at == NULL || digest == NULL || strlen(digest) != 64 ||
	    strlen(created_at) >= sizeof(l->created_at)) {
		log_error("entry %lld has no digest (consentctl init upgrades the database)",
		    (long long)id);
		return -1;
	}
	memcpy(l->created_at, created_at, strlen(created_at) + 1);
	memcpy(l->digest, digest, 65);
	return 0;
}

/*
 * The leaves a new seal takes, read in one read transaction of the
 * backend's (no write lock): the previous seal and up to max unsealed
 * entries, oldest first, from the last seal's last entry less slack
 * seconds on.  *leaf receives a new array (caller frees).
 */
static int
seal_read(struct store *st, const struct store_sealer *b, int64_t site, size_t max,
          int slack, struct store_seal *s, struct store_leaf **leaf, size_t *n)
{
	char hash[66] = "", from[40] = "";
	int64_t last = 0;
	int rc = STORE_ERROR;

	*leaf = NULL;
	*n = 0;
	if (b->read_begin(st) != 0)
		return STORE_ERROR;
	if (b->last(st, site, slack, &last, hash, from) != STORE_OK)
		goto out;
	s->seq = last + 1;
	if (last == 0) {
		memset(s->prev, '0', 64);
		s->prev[64] = '\0';
	} else if (strlen(hash) != 64) {
		log_error("seal %lld has no hash", (long long)last);
		goto out;
	} else {
		memcpy(s->prev, hash, 65);
	}
	if ((*leaf = calloc(max > 0 ? max : 1, sizeof(**leaf))) == NULL) {
		log_error("out of memory");
		goto out;
	}
	rc = b->leaves(st, site, max, from, *leaf, n);
out:
	b->read_end(st);
	if (rc != STORE_OK) {
		free(*leaf);
		*leaf = NULL;
		*n = 0;
	}
	return rc;
}

int
store_seal_run(struct store *st, const struct store_sealer *b, const char *key, size_t max,
               int slack, store_seal_fn fn, void *arg, int64_t *sealed)
{
	struct store_leaf *leaf = NULL;
	struct store_seal s;
	int64_t site, last, marked;
	size_t n = 0;
	int rc;

	*sealed = 0;
	memset(&s, 0, sizeof(s));
	if ((rc = b->site_id(st, key, &site)) != STORE_OK)
		return rc;
	if ((rc = seal_read(st, b, site, max, slack, &s, &leaf, &n)) != STORE_OK || n == 0)
		goto done;
	clock_now(s.sealed_at, NULL);
	if (fn(arg, key, leaf, n, &s) != 0) {
		rc = STORE_ERROR;
		goto done;
	}
	if ((rc = b->write_begin(st, key)) != STORE_OK)
		goto done;
	/* Another sealer may have gone first: then this seal is not the next. */
	if ((rc = b->last_seq(st, site, &last)) != STORE_OK)
		goto fail;
	if (last != s.seq - 1) {
		rc = STORE_EXISTS;
		goto fail;
	}
	if ((rc = b->add(st, site, &s, leaf, n, &marked)) != STORE_OK)
		goto fail;
	if (marked != (int64_t)n) {   /* erased or sealed meanwhile */
		rc = STORE_EXISTS;
		goto fail;
	}
	rc = STORE_ERROR;
	if (b->commit(st) != 0)
		goto done;
	*sealed = (int64_t)n;
	rc = STORE_OK;
	goto done;
fail:
	b->rollback(st);
done:
	free(leaf);
	return rc;
}
