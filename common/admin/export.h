/* export.h: the consent log's export as bytes (CSV, JSONL): one writer for consentctl and the dashboard. */
#ifndef CONSENT_EXPORT_H
#define CONSENT_EXPORT_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

/*
 * An export being written: rows (store_consent_export's) are turned into
 * lines in buf and handed to write() whenever buf fills, so that what is
 * held at once is buf whatever the size of the log.  CSV: RFC 4180, a
 * title line of store_export_columns, CRLF; JSONL: one compact object per
 * line, LF.
 */
struct export_out {
	int (*write)(void *arg, const char *buf, size_t n);  /* 0, or -1 */
	void *arg;
	int csv;
	int failed;           /* write() or memory failed: the rest is dropped */
	int64_t rows;         /* rows turned into lines so far */
	size_t len;
	char buf[16384];
};

/* Start an export (the CSV title line when csv) into write(arg). */
void export_begin(struct export_out *o, int csv, int (*write)(void *, const char *, size_t),
                  void *arg);
/* store_row_fn: one row as a line (arg: the struct export_out). */
int export_row(const cJSON *row, void *arg);
/* Hand on what is left: 0, or -1 when anything failed. */
int export_end(struct export_out *o);
/* After export_end() succeeded, the line that tells a complete export
 * from one cut short (docs/admin-api.md): "# export complete: N entries"
 * and the format's line end, N the rows written.  0, or -1. */
int export_mark_complete(struct export_out *o);

/* A log row (store_log_columns) as the export gives it: categories parsed,
 * no id, no pruned.  A new object, or NULL when out of memory. */
cJSON *export_entry(const cJSON *row);

/* store_row_fn: a copy of each row appended to the cJSON array arg
 * (STORE_ERROR when out of memory). */
int export_collect(const cJSON *row, void *arg);

/* A row's member: its text ("" when not a string), its integer (-1 when
 * not a number). */
const char *export_text_of(const cJSON *row, const char *name);
int64_t export_int_of(const cJSON *row, const char *name);

#endif
