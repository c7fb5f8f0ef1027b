/* publish_check.c: whether a config document may be published, and which member is wrong (apart from publish.c, so that a fuzz harness links no store). */
#include <stdlib.h>
#include <string.h>

#include "admin/publish.h"
#include "input/configdoc.h"

/*
 * The member of doc that path names, segment by segment ("a.b[2].c"), or
 * NULL when one is missing or the path is malformed.  *parent_found is 1
 * when everything but the last segment was found (a required member that
 * is absent is still a place in the document).
 */
static const cJSON *
walk(const cJSON *doc, const char *path, int *parent_found)
{
	const cJSON *at = doc;
	char name[CONFIG_PATH_MAX];

	*parent_found = 0;
	while (*path != '\0') {
		const cJSON *next;
		size_t n;

		if (*path == '[') {
			char *end;
			long i = strtol(path + 1, &end, 10);
			if (end == path + 1 || *end != ']' || i < 0 || !cJSON_IsArray(at))
				return NULL;
			next = cJSON_GetArrayItem(at, (int)i);
			path = end + 1;
		} else {
			if (*path == '.')
				path++;
			n = strcspn(path, ".[");
			if (n == 0 || n >= sizeof(name) || !cJSON_IsObject(at))
				return NULL;
			memcpy(name, path, n);
			name[n] = '\0';
			next = cJSON_GetObjectItemCaseSensitive(at, name);
			path += n;
		}
		if (next == NULL) {
			*parent_found = *path == '\0';
			return NULL;
		}
		at = next;
	}
	*parent_found = 1;
	return at;
}

/* The path configdoc_validate()'s message begins with ("categories[2].id
 * must be ..."), when it is one: its first word (up to a space or a
 * colon) names a member of doc, or one that "is required" where it is
 * missing.  Else path is "". */
static void
message_path(const cJSON *doc, const char *message, char path[CONFIG_PATH_MAX])
{
	size_t n = strcspn(message, " :");
	int parent_found;

	path[0] = '\0';
	if (n == 0 || n >= CONFIG_PATH_MAX || message[n] == '\0')
		return;
	memcpy(path, message, n);
	path[n] = '\0';
	if (walk(doc, path, &parent_found) == NULL &&
	    !(parent_found && strcmp(message + n, " is required") == 0))
		path[0] = '\0';
}

int
publish_check(const cJSON *doc, struct publish_check *why)
{
	why->path[0] = '\0';
	if (configdoc_validate(doc, why->message, sizeof(why->message)) == 0) {
		why->message[0] = '\0';
		return 0;
	}
	if (cJSON_IsObject(doc))
		message_path(doc, why->message, why->path);
	return -1;
}
