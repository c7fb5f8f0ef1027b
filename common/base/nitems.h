/* nitems.h: the number of elements of an array (as OpenBSD's <sys/param.h> names it). */
#ifndef CONSENT_NITEMS_H
#define CONSENT_NITEMS_H

/* Only for a true array, never a pointer: sizeof would measure the pointer. */
#define nitems(a) (sizeof(a) / sizeof((a)[0]))

#endif
