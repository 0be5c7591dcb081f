/* jobserver.h -- GNU make's jobserver, as a client (jobserver.c). */
#ifndef CUGEN_JOBSERVER_H
#define CUGEN_JOBSERVER_H

#include <glib.h>

typedef struct {
	gboolean present;    /* MAKEFLAGS names one */
	int rfd, wfd;        /* ours, -1 when it cannot be reached */
	GByteArray *tokens;  /* the tokens taken, returned as they came */
} Jobserver;

/* Whether MAKEFLAGS names a jobserver. */
gboolean jobserver_present(void);
/* Take up to want - 1 tokens that are free now (never waits): the caller
 * holds one slot already. */
void jobserver_take(Jobserver *js, guint want);
/* The slots held: 1 + the tokens taken. */
guint jobserver_slots(const Jobserver *js);
/* Return every token taken, close what was opened. */
void jobserver_give_back(Jobserver *js);

#endif
