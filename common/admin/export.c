/* export.c: the consent log's export as bytes (CSV, JSONL), buffered into a writer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "admin/export.h"
#include "base/log.h"
#include "store/store_admin.h"

/* n bytes into the buffer, handing it on when full. */
static void
put(struct export_out *o, const char *s, size_t n)
{
	while (n > 0 && !o->failed) {
		size_t room = sizeof(o->buf) - o->len, k = n < room ? n : room;

		memcpy(o->buf + o->len, s, k);
		o->len += k;
		s += k;
		n -= k;
		if (o->len == sizeof(o->buf)) {
			if (o->write(o->arg, o->buf, o->len) != 0)
				o->failed = 1;
			o->len = 0;
		}
	}
}

static void
puts_out(struct export_out *o, const char *s)
{
	put(o, s, strlen(s));
}

/* One CSV field (RFC 4180 2.6, 2.7): quoted when it holds a comma, quote,
 * CR or LF, with quotes doubled. */
static void
csv_field(struct export_out *o, const char *s)
{
	if (strpbrk(s, ",\"\r\n") == NULL) {
		puts_out(o, s);
		return;
	}
	put(o, "\"", 1);
	for (; *s != '\0'; s++) {
		if (*s == '"')
			put(o, "\"", 1);
		put(o, s, 1);
	}
	put(o, "\"", 1);
}

void
export_begin(struct export_out *o, int csv, int (*write)(void *, const char *, size_t),
             void *arg)
{
	size_t i;

	o->write = write;
	o->arg = arg;
	o->csv = csv;
	o->failed = 0;
	o->rows = 0;
	o->len = 0;
	if (!csv)
		return;
	/* Every column of the export, in the store's order (CONTRACT 3). */
	for (i = 0; i < store_export_ncolumns; i++) {
		if (i > 0)
			put(o, ",", 1);
		puts_out(o, store_export_columns[i].name);
	}
	put(o, "\r\n", 2);
}

/* A CSV record, CRLF-terminated (RFC 4180 2.1): absent and null fields
 * empty, booleans true/false, categories and numbers as JSON text. */
static int
csv_row(struct export_out *o, const cJSON *row)
{
	size_t i;

	for (i = 0; i < store_export_ncolumns; i++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(row, store_export_columns[i].name);
		char *t;

		if (i > 0)
			put(o, ",", 1);
		if (v == NULL || cJSON_IsNull(v))
			continue;
		if (cJSON_IsString(v)) {
			csv_field(o, v->valuestring);
			continue;
		}
		if ((t = cJSON_PrintUnformatted(v)) == NULL)
			return -1;
		csv_field(o, t);
		free(t);
	}
	put(o, "\r\n", 2);
	return 0;
}

int
export_row(const cJSON *row, void *arg)
{
	struct export_out *o = arg;
	char *t;

	if (o->csv) {
		if (csv_row(o, row) != 0)
			goto oom;
	} else {
		if ((t = cJSON_PrintUnformatted(row)) == NULL)
			goto oom;
		puts_out(o, t);
		put(o, "\n", 1);
		free(t);
	}
	o->rows++;
	return o->failed ? STORE_ERROR : 0;
oom:
	log_error("out of memory");
	o->failed = 1;
	return STORE_ERROR;
}

int
export_end(struct export_out *o)
{
	if (!o->failed && o->len > 0 && o->write(o->arg, o->buf, o->len) != 0)
		o->failed = 1;
	o->len = 0;
	return o->failed ? -1 : 0;
}

int
export_mark_complete(struct export_out *o)
{
	char line[64];
	int n = snprintf(line, sizeof(line), "# export complete: %lld entries%s",
	    (long long)o->rows, o->csv ? "\r\n" : "\n");

	if (o->failed || n < 0 || (size_t)n >= sizeof(line) || o->write(o->arg, line, (size_t)n) != 0)
		return -1;
	return 0;
}

cJSON *
export_entry(const cJSON *row)
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

const char *
export_text_of(const cJSON *row, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(row, name);

	return cJSON_IsString(v) ? v->valuestring : "";
}

int64_t
export_int_of(const cJSON *row, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(row, name);

	return cJSON_IsNumber(v) ? (int64_t)v->valuedouble : -1;
}

int
export_collect(const cJSON *row, void *arg)
{
	cJSON *copy = cJSON_Duplicate(row, 1);

	if (copy == NULL || !cJSON_AddItemToArray(arg, copy)) {
		cJSON_Delete(copy);
		return STORE_ERROR;
	}
	return 0;
}
