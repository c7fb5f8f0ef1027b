/* setup_token.c: the setup token's file beside the database: made once, read, deleted after setup. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

#include "admin/setup_token.h"
#include "admin/token.h"
#include "base/io.h"
#include "base/log.h"
#include "base/settings_file.h"
#include "settings.h"   /* CONSENT_DB_DEFAULT */
#include "store/store_account.h"

int
setup_token_path(const char *db, char out[SETUP_TOKEN_PATH_MAX])
{
	const char *dir = NULL, *slash;
	size_t dlen;
	int n;

	if (db == NULL)
		db = store_default_path();
	if (store_is_conninfo(db)) {
		dir = io_env("CONSENT_DATA_DIR");
		db = settings_relative(CONSENT_DB_DEFAULT) != NULL ?
		    settings_relative(CONSENT_DB_DEFAULT) : CONSENT_DB_DEFAULT;
	}
	if (dir != NULL && *dir != '\0') {
		dlen = strlen(dir);
	} else if ((slash = strrchr(db, '/')) != NULL) {
		dir = db;
		dlen = slash == db ? 1 : (size_t)(slash - db);
	} else {
		dir = ".";
		dlen = 1;
	}
	n = snprintf(out, SETUP_TOKEN_PATH_MAX, "%.*s/%s", (int)dlen, dir, SETUP_TOKEN_FILE);
	if (n < 0 || n >= SETUP_TOKEN_PATH_MAX) {
		out[0] = '\0';
		return -1;
	}
	return 0;
}

int
setup_token_ensure(const char *db)
{
	return setup_token_ensure_mode(db, 0600);
}

int
setup_token_ensure_mode(const char *db, mode_t mode)
{
	char path[SETUP_TOKEN_PATH_MAX], token[TOKEN_LEN + 2];
	int fd, rc = 0;

	if (setup_token_path(db, path) != 0) {
		log_error("the setup token's path is too long");
		return -1;
	}
	if (access(path, F_OK) == 0)
		return 0;
	if (token_new(token) != 0)
		return -1;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		if (errno == EEXIST)
			return 0;
		log_error("cannot create %s: %s", path, strerror(errno));
		return -1;
	}
	strcat(token, "\n");
	/* The mode as asked, whatever the umask took from it. */
	if (fchmod(fd, mode) != 0 ||
	    write(fd, token, strlen(token)) != (ssize_t)strlen(token) || fsync(fd) != 0) {
		log_error("cannot write %s: %s", path, strerror(errno));
		unlink(path);
		rc = -1;
	}
	close(fd);
	explicit_bzero(token, sizeof(token));
	return rc;
}

int
setup_token_prepare(struct store *st, const char *db)
{
	const char *dir = io_env("CONSENT_DATA_DIR");
	int64_t n;

	if (db == NULL)
		db = store_default_path();
	if (store_is_conninfo(db) && (dir == NULL || *dir == '\0'))
		return 0;
	if (store_account_count(st, &n) != STORE_OK)
		return -1;
	return n == 0 ? setup_token_ensure(db) : 0;
}

int
setup_token_check(const char *db, const char *given)
{
	char path[SETUP_TOKEN_PATH_MAX], buf[TOKEN_LEN + 4];
	ssize_t n;
	int fd, ok;

	if (given == NULL || setup_token_path(db, path) != 0)
		return 0;
	if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	buf[strcspn(buf, "\r\n")] = '\0';
	ok = buf[0] != '\0' && token_equal(buf, given);
	explicit_bzero(buf, sizeof(buf));
	return ok;
}

int
setup_token_remove(const char *db)
{
	char path[SETUP_TOKEN_PATH_MAX];

	if (setup_token_path(db, path) != 0)
		return -1;
	if (unlink(path) != 0 && errno != ENOENT) {
		log_error("cannot delete %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

int
setup_token_claim(const char *db)
{
	char path[SETUP_TOKEN_PATH_MAX];

	if (setup_token_path(db, path) != 0)
		return -1;
	if (unlink(path) != 0) {
		if (errno != ENOENT)
			log_error("cannot delete %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}
