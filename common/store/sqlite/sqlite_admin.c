/* sqlite_admin.c: the SQLite store's admin table, apart from its request path. */
#include "store/sqlite/sqlite_store.h"

/*
 * What store_admin.c hands calls to (store_ops.h): the functions of
 * sqlite_schema.c, sqlite_sites.c, sqlite_configs.c, sqlite_log.c,
 * sqlite_scripts.c, sqlite_proof.c, sqlite_report.c, sqlite_builtin.c,
 * sqlite_copy.c.  In an object of its own, named by no
 * other, so that only a program that links store_admin.c holds them.
 */
const struct store_admin_ops store_sqlite_admin_ops = {
#define STORE_FN(type, name, params, args) .name = sqlite_store_##name,
#include "store/store_admin_fns.h"
#undef STORE_FN
};
