/* runner.h -- the machines CI jobs run on, by name.
 *
 * Owns: the runner table (templates/runners.ini: cores, memory, disk, job
 * time limit and the source of the figures), the RUNNER argument of
 * `cugen profile` (a table name, this-machine, or CORES:MEMORY), the
 * memory a build may use on a runner (the machine's less a reserve for
 * the OS and the CI agent), and durations ("6h", "90m", "none"). */
#ifndef CUGEN_RUNNER_H
#define CUGEN_RUNNER_H

#include <glib.h>

typedef struct {
	char *name;         /* as given: "github", "this-machine", "2:7G" */
	char *title;
	int cores;
	guint64 memory;     /* what the machine has */
	guint64 usable;     /* what a build may use */
	const char *usable_from;
	guint64 disk;       /* 0: unknown */
	double time_limit;  /* seconds a job may run; 0: no limit known */
	char *source;       /* where the figures come from */
} Runner;

/* The runner table's names, in file order (NULL-terminated array). */
GPtrArray *runner_names(void);
/* A table name, "this-machine" or CORES:MEMORY; NULL (and a usage error
 * naming the known runners) otherwise. */
Runner *runner_lookup(const char *spec, GError **err);
void runner_free(Runner *r);

#endif
