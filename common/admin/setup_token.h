/* setup_token.h: the one-time token that lets the first owner be created (ADMIN.md 3). */
#ifndef CONSENT_SETUP_TOKEN_H
#define CONSENT_SETUP_TOKEN_H

#include <stddef.h>
#include <sys/types.h>

#include "store/store.h"

/* The file's name, in the data directory beside the database; the shipped
 * server configs refuse every dot file there, and the data directory. */
#define SETUP_TOKEN_FILE ".consent-setup-token"
#define SETUP_TOKEN_PATH_MAX 4096

/*
 * Where the token's file is for the database db (NULL: store_default_path()):
 * the directory of a database file; for a PostgreSQL connection string,
 * $CONSENT_DATA_DIR, else the directory of the compiled-in database path.
 * 0, or -1 when it does not fit out.
 */
int setup_token_path(const char *db, char out[SETUP_TOKEN_PATH_MAX]);

/*
 * Make the token's file if it is missing: a new token (token_new()) and a
 * line end, mode 0600, created exclusively (an existing file, or a link,
 * is left alone).  0 when the file exists afterwards, -1 (logged).
 * setup_token_ensure_mode() gives the new file mode instead (0644 where
 * the owner reads it under another user id: admin_install_token_mode()).
 */
int setup_token_ensure(const char *db);
int setup_token_ensure_mode(const char *db, mode_t mode);

/*
 * `consentctl init`'s part: when the open store st (of database db, NULL:
 * the default) has no account, ensure the token's file, as the
 * dashboard's first request does.  A PostgreSQL database without
 * $CONSENT_DATA_DIR names no data directory to the command line: nothing
 * is written then (the dashboard writes it beside its compiled-in path).
 * 0, or -1 (logged).
 */
int setup_token_prepare(struct store *st, const char *db);

/* Whether given is the token in the file, compared in constant time: 1,
 * or 0 (no file, an unreadable one, or another token). */
int setup_token_check(const char *db, const char *given);

/* Delete the file if it is there (an account exists): 0, or -1 (logged). */
int setup_token_remove(const char *db);

/* Take the token for one setup: delete its file, 0 only for the caller
 * whose unlink() removed it, so that of two requests with the token only
 * one goes on; -1 when it was gone already (or cannot be deleted). */
int setup_token_claim(const char *db);

#endif
