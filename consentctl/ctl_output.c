/* ctl_output.c: how consentctl prints: plain values, records, tables, JSON, CSV. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "admin/export.h"
#include "admin/verify.h"
#include "ctl.h"

/* A value as plain text (caller frees): strings as they are, null "-",
 * booleans yes/no, anything else as compact JSON. */
static char *
plain(const cJSON *v)
{
	if (cJSON_IsString(v))
		return strdup(v->valuestring);
	if (v == NULL || cJSON_IsNull(v))
		return strdup("-");
	if (cJSON_IsBool(v))
		return strdup(cJSON_IsTrue(v) ? "yes" : "no");
	return cJSON_PrintUnformatted(v);
}

/* plain(v) on stdout: 0 or EXIT_FAIL. */
static int
print_plain(const cJSON *v)
{
	char *t = plain(v);

	if (t == NULL)
		return ctl_say(EXIT_FAIL, "out of memory");
	fputs(t, stdout);
	free(t);
	return 0;
}

const char *
ctl_text_of(const cJSON *row, const char *name)
{
	return export_text_of(row, name);
}

int64_t
ctl_int_of(const cJSON *row, const char *name)
{
	return export_int_of(row, name);
}

/* Print a JSON document on stdout (formatted): 0 or EXIT_FAIL. */
int
ctl_print_json(const cJSON *doc)
{
	char *text = cJSON_Print(doc);

	if (text == NULL)
		return ctl_say(EXIT_FAIL, "out of memory");
	puts(text);
	free(text);
	return EXIT_OK;
}

/*
 * One object as aligned "key  value" lines.  Nested objects are flattened
 * to dotted keys (by_event_type.initial); arrays print their items
 * separated by spaces ("-" when empty).
 */
static int
print_object(const cJSON *obj, const char *prefix, int width)
{
	const cJSON *v, *e;
	char key[128];

	cJSON_ArrayForEach(v, obj) {
		snprintf(key, sizeof(key), "%s%s%s", prefix, *prefix ? "." : "", v->string);
		if (cJSON_IsObject(v)) {
			if (print_object(v, key, width) != 0)
				return EXIT_FAIL;
			continue;
		}
		printf("%-*s  ", width, key);
		if (!cJSON_IsArray(v)) {
			if (print_plain(v) != 0)
				return EXIT_FAIL;
		} else if (v->child == NULL) {
			fputs("-", stdout);
		} else {
			cJSON_ArrayForEach(e, v) {
				if (e != v->child)
					putchar(' ');
				if (print_plain(e) != 0)
					return EXIT_FAIL;
			}
		}
		putchar('\n');
	}
	return EXIT_OK;
}

/* Width of the longest key print_object() will print. */
static int
key_width(const cJSON *obj, int prefix)
{
	const cJSON *v;
	int w = 0, n;

	cJSON_ArrayForEach(v, obj) {
		n = prefix + (int)strlen(v->string);
		if (cJSON_IsObject(v))
			n = key_width(v, n + 1);
		if (n > w)
			w = n;
	}
	return w;
}

/* An object, as JSON with --json, else as aligned lines. */
int
ctl_print_record(const struct ctl *c, const cJSON *obj)
{
	if (c->given & OPT_JSON)
		return ctl_print_json(obj);
	return print_object(obj, "", key_width(obj, 0));
}

/* One cell: padded to width and two spaces, or the last one and a newline. */
static void
table_cell(const char *text, int width, int last)
{
	if (last)
		printf("%s\n", text);
	else
		printf("%-*s  ", width, text);
}

/*
 * Rows as aligned columns under a title line, or nothing when there are no
 * rows.  The last column is not padded, so it may hold anything (names).
 */
static int
print_table(const cJSON *rows, const struct ctl_column *cols, size_t ncols)
{
	int width[16] = {0};
	const cJSON *row;
	size_t i;
	int n;

	if (cJSON_GetArraySize(rows) == 0 || ncols > 16)
		return EXIT_OK;
	for (i = 0; i < ncols; i++)
		width[i] = (int)strlen(cols[i].title);
	cJSON_ArrayForEach(row, rows) {
		for (i = 0; i < ncols; i++) {
			char *t = plain(cJSON_GetObjectItemCaseSensitive(row, cols[i].key));

			if (t == NULL)
				return ctl_say(EXIT_FAIL, "out of memory");
			if ((n = (int)strlen(t)) > width[i])
				width[i] = n;
			free(t);
		}
	}
	for (i = 0; i < ncols; i++)
		table_cell(cols[i].title, width[i], i + 1 == ncols);
	cJSON_ArrayForEach(row, rows) {
		for (i = 0; i < ncols; i++) {
			char *t = plain(cJSON_GetObjectItemCaseSensitive(row, cols[i].key));

			if (t == NULL)
				return ctl_say(EXIT_FAIL, "out of memory");
			table_cell(t, width[i], i + 1 == ncols);
			free(t);
		}
	}
	return EXIT_OK;
}

/* Row callback: keep a copy of every row in the array arg. */
int
ctl_collect(const cJSON *row, void *arg)
{
	cJSON *copy = cJSON_Duplicate(row, 1);

	if (copy == NULL || !cJSON_AddItemToArray(arg, copy)) {
		cJSON_Delete(copy);
		return ctl_say(STORE_ERROR, "out of memory");
	}
	return 0;
}

/* A list command's rows: with --json one array, else a table. */
int
ctl_print_rows(const struct ctl *c, const cJSON *rows, const struct ctl_column *cols,
           size_t ncols)
{
	if (c->given & OPT_JSON)
		return ctl_print_json(rows);
	return print_table(rows, cols, ncols);
}

/* export.h's writer: bytes to stdout. */
int
ctl_stdout_write(void *arg, const char *buf, size_t n)
{
	(void)arg;
	return fwrite(buf, 1, n, stdout) == n ? 0 : -1;
}

int
ctl_print_verdict(const char *failure, const char *noun, int64_t id, int64_t seal, cJSON *found)
{
	return ctl_print_verdict_json(verdict_object(failure, noun, id, seal, found),
	    failure[0] != '\0');
}

int
ctl_print_verdict_json(cJSON *out, int failed)
{
	int rc;

	if (out == NULL)
		return ctl_say(EXIT_FAIL, "out of memory");
	rc = ctl_print_json(out);
	cJSON_Delete(out);
	return rc == EXIT_OK && failed ? EXIT_FAIL : rc;
}
