/* pg_admin.c: the PostgreSQL store's admin table, apart from its request path. */
#include "store/pg/pg_store.h"

/*
 * What store_admin.c hands calls to (store_ops.h): the functions of
 * pg_schema.c, pg_sites.c, pg_configs.c, pg_log.c, pg_scripts.c,
 * pg_proof.c, pg_report.c, pg_builtin.c, pg_copy.c.  In an object of its own, named by no
 * other, so that only a program that links store_admin.c holds them.
 */
const struct store_admin_ops store_pg_admin_ops = {
#define STORE_FN(type, name, params, args) .name = pg_store_##name,
#include "store/store_admin_fns.h"
#undef STORE_FN
};
