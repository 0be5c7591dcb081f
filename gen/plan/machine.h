/* machine.h -- the machine a build is planned for.
 *
 * Owns: usable cores (affinity mask, cgroup v2 cpu.max, v1 quota), memory
 * (MemAvailable, cgroup memory.max) and CI detection. */
#ifndef CUGEN_MACHINE_H
#define CUGEN_MACHINE_H

#include <glib.h>

typedef struct {
	int cores;             /* usable cores */
	const char *cores_from;/* "affinity", "cgroup cpu.max", ... */
	guint64 memory;        /* usable bytes */
	const char *memory_from;
	const char *ci;        /* "GitHub Actions", ..., or NULL */
} Machine;

void machine_probe(Machine *m);

#endif
