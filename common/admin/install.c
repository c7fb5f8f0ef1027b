/* install.c: the dashboard's first run and upgrades, over store_init(). */
#include <stdint.h>

#include "admin/install.h"
#include "admin/publish.h"
#include "base/log.h"
#include "store/store_admin.h"

int
admin_install(struct store *st, int *upgraded)
{
	int64_t from = 0, to = 0;
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
	if (publish_prepare_live(st) != STORE_OK || publish_record_builtin(st) != PUBLISH_OK)
		return -1;
	*upgraded = from > 0;
	return 0;
}
