/* replay.c: a main() for a harness without libFuzzer.
 *
 *   cc ... fuzz/replay.c fuzz/HARNESS.c libcommon.a ... -o replay-HARNESS
 *   replay-HARNESS FILE-OR-DIRECTORY...
 *
 * Feeds every file named, and every regular file directly inside every
 * directory named (in name order), to LLVMFuzzerTestOneInput, each in an
 * exact-size allocation so that AddressSanitizer or valgrind sees any read
 * past it.  Each name goes to stderr before its run, so a crash says which
 * input it was.  Prints "N inputs" on stdout and exits 0; a missing file is
 * status 2; a crash is whatever the crash makes it.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static size_t ran;

static int
replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL, *data;
	size_t len = 0, cap = 0, n;

	if (f == NULL) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	for (;;) {
		if (len == cap) {
			unsigned char *nb;
			cap = cap ? cap * 2 : 4096;
			if ((nb = realloc(buf, cap)) == NULL)
				abort();
			buf = nb;
		}
		if ((n = fread(buf + len, 1, cap - len, f)) == 0)
			break;
		len += n;
	}
	if (ferror(f)) {
		fprintf(stderr, "replay: %s: read error\n", path);
		fclose(f);
		free(buf);
		return -1;
	}
	fclose(f);
	/* exactly len bytes: libFuzzer's inputs are not padded either */
	if ((data = malloc(len ? len : 1)) == NULL)
		abort();
	if (len > 0)
		memcpy(data, buf, len);
	free(buf);
	fprintf(stderr, "replay: %s\n", path);
	LLVMFuzzerTestOneInput(data, len);
	free(data);
	ran++;
	return 0;
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
replay_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0, i;
	int rc = 0;

	if (d == NULL) {
		fprintf(stderr, "replay: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if (n == cap) {
			char **nn;
			cap = cap ? cap * 2 : 64;
			if ((nn = realloc(names, cap * sizeof(*names))) == NULL)
				abort();
			names = nn;
		}
		if ((names[n] = malloc(strlen(dir) + strlen(de->d_name) + 2)) == NULL)
			abort();
		sprintf(names[n], "%s/%s", dir, de->d_name);
		n++;
	}
	closedir(d);
	if (n > 0)
		qsort(names, n, sizeof(*names), by_name);
	for (i = 0; i < n; i++) {
		struct stat st;
		if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode) && replay_file(names[i]) != 0)
			rc = -1;
		free(names[i]);
	}
	free(names);
	return rc;
}

int
main(int argc, char **argv)
{
	int rc = 0;

	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) != 0) {
			fprintf(stderr, "replay: %s: %s\n", argv[i], strerror(errno));
			rc = 2;
		} else if (S_ISDIR(st.st_mode)) {
			if (replay_dir(argv[i]) != 0)
				rc = 2;
		} else if (replay_file(argv[i]) != 0) {
			rc = 2;
		}
	}
	printf("%zu inputs\n", ran);
	return rc;
}
