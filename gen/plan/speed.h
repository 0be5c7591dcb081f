/* speed.h -- how fast this machine runs a build's jobs, against the
 * machine whose seconds the first plan's guesses are (planknobs.h's
 * SCAN_COSTS and DEFAULT_COSTS: the CI box, 2 cores).
 *
 * Owns: the speed probe (a fixed piece of compiler-like work -- a
 * search tree of random keys built and searched, then sorted -- run on as
 * many threads at once as the build runs jobs, so that cores shared with
 * other jobs, a lower all-core clock and a shared cache count), its
 * ratio to the reference machine's figure, and where a plan's speed comes
 * from: the profile's speed key, CUGEN_SPEED, the build directory's last
 * setup (plan.ini), a new probe. */
#ifndef CUGEN_SPEED_H
#define CUGEN_SPEED_H

#include <glib.h>

typedef struct {
	double speed;       /* this machine's CPU seconds per reference second */
	double probe_cpu;   /* the probe's CPU seconds per job (0: no probe ran) */
	int probe_jobs;     /* ... on this many threads at once (in: how many) */
	const char *from;   /* "the profile's speed", "CUGEN_SPEED", ... */
	gboolean used;      /* a guess of the graph costed last was scaled by it */
} Speed;

/* Runs the probe on jobs threads at once; the median thread's CPU
 * seconds into *cpu; returns the speed (rounded to 0.05, from 0.25 to
 * 8). */
double speed_probe(int jobs, double *cpu);

/* The speed a plan's guesses are scaled by, once one is needed: s's
 * where given (s->speed > 0), else kept's (the build directory's last
 * probe: its speed, CPU seconds and jobs), else a probe now on
 * s->probe_jobs threads (the plan's jobs, at most the machine's cores). */
void speed_settle(Speed *s, const Speed *kept);

#endif
