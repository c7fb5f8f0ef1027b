/* install.h: the dashboard's first run and upgrades: what `consentctl init` does to the database (ADMIN.md 3). */
#ifndef CONSENT_INSTALL_H
#define CONSENT_INSTALL_H

#include "store/store.h"

/*
 * Create or upgrade the schema of st (store_init) and, when it was older
 * than this program, prepare the published configs again and record the
 * built-in texts, as `consentctl init` does.  *upgraded is 1 when an
 * older database was upgraded (not a new one), else 0.  A database from
 * before the proof of the log (schema version 3 or older) needs its
 * digests and seals computed by `consentctl init`: -1 (logged) for it,
 * and for a database newer than this program.  0, or -1.
 */
int admin_install(struct store *st, int *upgraded);

#endif
