/* store_rows.c: the one row builder of both backends: described columns as JSON, over a cursor. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "store/store_rows.h"

/*
 * A fraction as the shortest decimal that reads back as the same double
 * (cJSON prints 15 digits and calls that equal when it is merely close): an
 * export then carries exactly what is stored, and what the entry's digest
 * covers (consent-log(5)).  NULL when out of memory.
 */
static cJSON *
exact_number(double d)
{
	char text[40];

	if (!isfinite(d))
		return cJSON_CreateNull();
	for (int digits = 15; digits <= 17; digits++) {
		snprintf(text, sizeof(text), "%.*g", digits, d);
		if (strtod(text, NULL) == d)
			break;
	}
	return cJSON_CreateRaw(text);
}

/* The JSON value of a cell as its column is described, or NULL when out of
 * memory. */
static cJSON *
cell_json(const struct store_cell *v, const struct store_column *col)
{
	cJSON *j;

	switch (v->type) {
	case SC_NULL:
		return cJSON_CreateNull();
	case SC_INT:
		if (col->type == ST_BOOL)
			return cJSON_CreateBool(v->i != 0);
		return cJSON_CreateNumber((double)v->i);
	case SC_REAL:
		if (col->type == ST_BOOL)
			return cJSON_CreateBool(v->r != 0);
		return exact_number(v->r);
	default:
		if (v->text == NULL)
			return NULL;
		/* Text that should be JSON but is not is kept as a string, so an
		 * export never loses what was stored. */
		if (col->type == ST_JSON && (j = cJSON_Parse(v->text)) != NULL)
			return j;
		return cJSON_CreateString(v->text);
	}
}

cJSON *
store_row(const struct store_cursor *c, const struct store_column *cols, size_t n)
{
	struct store_cell v;
	cJSON *row = NULL, *j;
	size_t i;

	if ((size_t)c->ncolumns(c) != n) {
		log_error("store: a statement has %d columns, its description %zu",
		    c->ncolumns(c), n);
		return NULL;
	}
	for (i = 0; i < n; i++) {
		const char *name = c->name(c, (int)i);
		if (name == NULL || strcmp(name, cols[i].name) != 0) {
			log_error("store: column %zu is named %s, described as %s",
			    i, name ? name : "(none)", cols[i].name);
			return NULL;
		}
	}
	if ((row = cJSON_CreateObject()) == NULL)
		goto oom;
	for (i = 0; i < n; i++) {
		c->cell(c, (int)i, &v);
		if (cols[i].optional && v.type == SC_NULL)
			continue;
		if ((j = cell_json(&v, &cols[i])) == NULL)
			goto oom;
		if (!cJSON_AddItemToObject(row, cols[i].name, j)) {
			cJSON_Delete(j);
			goto oom;
		}
	}
	return row;
oom:
	log_error("out of memory");
	cJSON_Delete(row);
	return NULL;
}

int
store_walk(struct store_cursor *c, const struct store_column *cols, size_t n,
           store_row_fn fn, void *arg)
{
	cJSON *row;
	int rc;

	while ((rc = c->next(c)) == 1) {
		if ((row = store_row(c, cols, n)) == NULL)
			return STORE_ERROR;
		rc = fn(row, arg);
		cJSON_Delete(row);
		if (rc != 0)
			return rc;
	}
	return rc == 0 ? STORE_OK : STORE_ERROR;
}

int
store_one_row(struct store_cursor *c, const struct store_column *cols, size_t n, cJSON **out)
{
	int rc;

	*out = NULL;
	if ((rc = c->next(c)) != 1)
		return rc == 0 ? STORE_NOTFOUND : STORE_ERROR;
	*out = store_row(c, cols, n);
	return *out != NULL ? STORE_OK : STORE_ERROR;
}
