/* tracker_data.h: the table tools/gen-trackers.sh generates from common/input/trackers.tsv. */
#ifndef CONSENT_TRACKER_DATA_H
#define CONSENT_TRACKER_DATA_H

#include <stddef.h>

/* One row of common/input/trackers.tsv; both strings are lower case and static. */
struct tracker_entry {
	const char *domain;
	const char *category;
};

/* Every entry, sorted by domain in strcmp() order, domains unique. */
extern const struct tracker_entry tracker_table[];
extern const size_t tracker_table_len;

#endif
