/* envflags.h -- the build environment's flags, read as CMake reads them.
 *
 * Owns: the variables (CPPFLAGS, CFLAGS, CXXFLAGS, LDFLAGS, CUDAFLAGS,
 * CUDAARCHS, CUDAHOSTCXX), their values for one setup, and keeping them:
 * a variable set in the environment (even empty) is taken and recorded in
 * BUILDDIR/.cugen/env.ini; one not set takes the recorded value. So the
 * regeneration ninja runs, in whatever environment ninja has, writes the
 * graph the first setup wrote, as CMake's cache keeps CFLAGS. Where each
 * value goes is config.c's (and cugen.ini(5)'s).
 */
#ifndef CUGEN_ENVFLAGS_H
#define CUGEN_ENVFLAGS_H

#include <glib.h>

typedef enum {
	ENV_CPPFLAGS, ENV_CFLAGS, ENV_CXXFLAGS, ENV_LDFLAGS, ENV_CUDAFLAGS, ENV_CUDAARCHS, ENV_CUDAHOSTCXX,
	ENV_COUNT
} EnvVar;

typedef struct EnvFlags {
	char *value[ENV_COUNT];   /* NULL: neither set nor recorded */
	gboolean recorded[ENV_COUNT]; /* taken from env.ini, not the environment */
} EnvFlags;

#define ENV_RECORD ".cugen/env.ini"

/* The values for a setup of builddir. */
EnvFlags *envflags_read(const char *builddir);
void envflags_free(EnvFlags *e);
/* The value of v, or "" (never NULL). */
const char *envflags_get(const EnvFlags *e, EnvVar v);
const char *envflags_name(EnvVar v);
/* env.ini's text (sealed). */
GString *envflags_record(const EnvFlags *e);
/* The names of the variables with a non-empty value, space separated
 * ("CFLAGS LDFLAGS"), or "" */
char *envflags_used(const EnvFlags *e);


#endif
