/* install.h: the dashboard's first run and upgrades: what `consentctl init` does to the database (ADMIN.md 3). */
#ifndef CONSENT_INSTALL_H
#define CONSENT_INSTALL_H

#include <sys/types.h>

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

/*
 * The first run of an uploaded release (ADMIN.md 3, 9), before the store
 * is opened: when neither the environment nor a settings file names the
 * database and the programs' folder has a data/ folder beside it
 * (../data), write the settings file there (CONSENT_DB=../data/consent.db,
 * mode 0600, a temporary file renamed into place) and read it, so that
 * the store is created in data/.  Otherwise nothing is done: an installed
 * build keeps its compiled-in path.  0 to go on; -1 with fix holding the
 * sentence the page shows (what to change, in paths relative to the
 * upload folder; logged too) when a settings file is there but cannot be
 * used, data/ cannot be written, or the file cannot be.  Either way the
 * process's umask gains 077: what the setup routes create is the owner's.
 */
#define INSTALL_FIX_MAX 600
int admin_install_settings(char fix[INSTALL_FIX_MAX]);

/*
 * The mode of a new setup token's file: 0600, or 0644 when
 * admin_install_settings() found the programs running as another user
 * than their folder's owner (a host without suEXEC): the file is then the
 * web server's user's, and the customer reads it by FTP as their own user.
 * On such a host every site's programs run as that one user, who could
 * read it anyway; the token is for one use and removed by the setup.
 */
mode_t admin_install_token_mode(void);

/*
 * The setup token's path as the page names it: relative to the upload
 * folder (data/.consent-setup-token) when it lies in the data/ folder
 * beside the programs' folder, else as it is (an installed build, whose
 * operator has a shell).  0, or -1 when it does not fit out (n bytes).
 */
int admin_install_shown(const char *path, char *out, size_t n);

#endif
