/* store_prepare.c: a published config prepared again, once for both backends' store_config_prepare_live. */
#include <string.h>

#include "store/store_ops.h"

int
store_prepare_config(struct store *st, const struct store_preparer *p, int64_t config_id,
                     const char *document, store_put_prepared_fn put)
{
	struct store_prepared prep;
	int made, stored;

	memset(&prep, 0, sizeof(prep));
	if ((made = p->prepare(p->arg, document, &prep)) < 0)
		return STORE_ERROR;
	stored = put(st, config_id, made == 0 ? &prep : NULL);
	if (made == 0)
		p->release(p->arg, &prep);
	return stored == STORE_OK ? STORE_OK : STORE_ERROR;
}
