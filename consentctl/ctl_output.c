/* ctl_output.c: how consentctl prints: plain values, records, tables, JSON, CSV. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(row, name);

	return cJSON_IsString(v) ? v->valuestring : "";
}

int64_t
ctl_int_of(const cJSON *row, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(row, name);

	return cJSON_IsNumber(v) ? (int64_t)v->valuedouble : -1;
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

/* One CSV field (RFC 4180 2.6, 2.7): quoted when it holds a comma, quote,
 * CR or LF, with quotes doubled. */
static void
csv_field(const char *s)
{
	if (strpbrk(s, ",\"\r\n") == NULL) {
		fputs(s, stdout);
		return;
	}
	putchar('"');
	for (; *s != '\0'; s++) {
		if (*s == '"')
			putchar('"');
		putchar(*s);
	}
	putchar('"');
}

/* The CSV title line: every column of the export, in the store's order
 * (CONTRACT 3), required ones first. */
void
ctl_csv_header(void)
{
	size_t i;

	for (i = 0; i < store_export_ncolumns; i++)
		printf("%s%s", i > 0 ? "," : "", store_export_columns[i].name);
	fputs("\r\n", stdout);
}

/* Row callback of export: a CSV record, CRLF-terminated (RFC 4180 2.1).
 * Absent and null fields are empty; booleans true/false; categories and
 * numbers as JSON text. */
int
ctl_export_csv(const cJSON *row, void *arg)
{
	size_t i;

	(void)arg;
	for (i = 0; i < store_export_ncolumns; i++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(row, store_export_columns[i].name);
		char *t;

		if (i > 0)
			putchar(',');
		if (v == NULL || cJSON_IsNull(v))
			continue;
		if (cJSON_IsString(v)) {
			csv_field(v->valuestring);
			continue;
		}
		if ((t = cJSON_PrintUnformatted(v)) == NULL)
			return ctl_say(STORE_ERROR, "out of memory");
		csv_field(t);
		free(t);
	}
	fputs("\r\n", stdout);
	return 0;
}

/* Row callback of export: one JSON object per line. */
int
ctl_export_jsonl(const cJSON *row, void *arg)
{
	char *t = cJSON_PrintUnformatted(row);

	(void)arg;
	if (t == NULL)
		return ctl_say(STORE_ERROR, "out of memory");
	puts(t);
	free(t);
	return 0;
}

/* A log row as the export gives it (categories parsed; no id, no pruned):
 * a new object, or NULL when out of memory. */
cJSON *
ctl_export_row(const cJSON *row)
{
	cJSON *e = cJSON_CreateObject(), *v;
	const cJSON *m;

	if (e == NULL)
		return NULL;
	cJSON_ArrayForEach(m, row) {
		if (strcmp(m->string, "id") == 0 || strcmp(m->string, "pruned") == 0)
			continue;
		if (strcmp(m->string, "categories") == 0 && cJSON_IsString(m) &&
		    (v = cJSON_Parse(m->valuestring)) != NULL)
			;
		else
			v = cJSON_Duplicate(m, 1);
		if (v == NULL || !cJSON_AddItemToObject(e, m->string, v)) {
			cJSON_Delete(v);
			cJSON_Delete(e);
			return NULL;
		}
	}
	return e;
}

int
ctl_print_verdict(const char *failure, const char *noun, int64_t id, int64_t seal, cJSON *found)
{
	int failed = failure[0] != '\0', rc;
	cJSON *out = cJSON_CreateObject(), *m;

	if (out == NULL || found == NULL) {
		cJSON_Delete(out);
		cJSON_Delete(found);
		return ctl_say(EXIT_FAIL, "out of memory");
	}
	cJSON_AddBoolToObject(out, "ok", !failed);
	if (failed) {
		cJSON_AddStringToObject(out, "error", failure);
		if (id > 0)
			cJSON_AddNumberToObject(out, noun, (double)id);
		if (seal > 0)
			cJSON_AddNumberToObject(out, "seal", (double)seal);
	} else {
		while ((m = found->child) != NULL)
			cJSON_AddItemToObject(out, m->string, cJSON_DetachItemViaPointer(found, m));
	}
	cJSON_Delete(found);
	rc = ctl_print_json(out);
	cJSON_Delete(out);
	return rc == EXIT_OK && failed ? EXIT_FAIL : rc;
}
