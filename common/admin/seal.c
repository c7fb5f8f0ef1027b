/* seal.c: sealing a site's consent log in runs of SEAL_ENTRIES_MAX entries. */
#include <stdlib.h>
#include <string.h>

#include "admin/seal.h"
#include "base/limits.h"
#include "base/log.h"
#include "proof/chain.h"

int
seal_make(void *arg, const char *key, const struct store_leaf *l, size_t n,
          struct store_seal *s)
{
	const char **d = malloc(n * sizeof(*d));
	struct proof_seal ps;
	int rc;

	(void)arg;
	if (d == NULL) {
		log_error("out of memory");
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		d[i] = l[i].digest;
	memset(&ps, 0, sizeof(ps));
	ps.seq = s->seq;
	memcpy(ps.sealed_at, s->sealed_at, sizeof(ps.sealed_at));
	memcpy(ps.prev, s->prev, 65);
	if ((rc = chain_seal(key, d, n, &ps, s->hash)) == 0) {
		memcpy(s->root, ps.root, 65);
		s->tree_size = ps.tree_size;
	}
	free(d);
	return rc;
}

int
seal_site(struct store *st, const char *key, int64_t *total)
{
	int64_t sealed, sealed_any = 0;
	int rc, tries = 0;

	do {
		/* The first seal looks back SEAL_SLACK_SECONDS before the last
		 * one's last entry (entries committed late); the next ones of
		 * this run go on where the one before ended. */
		rc = store_seal(st, key, SEAL_ENTRIES_MAX, sealed_any == 0 ?
		    SEAL_SLACK_SECONDS : 0, seal_make, NULL, &sealed);
		sealed_any += rc == STORE_OK ? sealed : 0;
		if (rc == STORE_EXISTS && ++tries < 5)   /* another sealer went first */
			continue;
		if (rc != STORE_OK)
			return rc;
		/* A full seal may have left more; a partial one took all there
		 * were, and entries arriving meanwhile wait for the next run (else
		 * a steady stream of consents would keep this loop going). */
	} while (rc == STORE_EXISTS || sealed == SEAL_ENTRIES_MAX);
	if (total != NULL)
		*total = sealed_any;
	return STORE_OK;
}
