/* options.h -- setup's command line as CMake, Meson and gcc users type it.
 *
 * Owns: the attached forms of the options that take a value (-Dcuda.archs=80,
 * -Bbuild, -Ssrc, -fFILE, -dMODE), options kept with the build directory
 * (every -D of earlier setups, from BUILDDIR/.cugen/args.ini, until a -U
 * KEY or --reset drops it, as CMake's cache and Meson's options keep
 * theirs), the -D that --prefix and --buildtype stand for,
 * --list-options, and the command line a regeneration runs; and the
 * parsed options themselves (SetupArgs).
 */
#ifndef CUGEN_OPTIONS_H
#define CUGEN_OPTIONS_H

#include <glib.h>

#include "machine.h"

/* The options of setup, plan and combine (setup.h). */
typedef struct {
	char *srcdir, *builddir, *file, *profile, *backend, *archs, *prefix, *buildtype;
	char **defines;        /* -D, then the kept ones merged in (options.h) */
	char **kept;           /* those of defines that came from the build directory */
	char **undefines;      /* -U SECTION.KEY */
	gboolean reset, list_options;
	char **debug;          /* -d MODE (timing, explain; modes only observe) */
	gboolean explain;      /* -d explain */
	char *trace, *costs;   /* plan --trace FILE [--costs BUILDDIR] */
	char **regen;          /* arguments the regeneration edge uses instead */
	gboolean verbose, json;
	const Machine *machine;/* plan for this machine instead of probing (no CI profile then) */
	gboolean no_history;   /* plan with the defaults, not the last build's measurements */
	gboolean whole_device; /* no ptxas edges: device edges run cicc and ptxas (combine
	                        * imports their images; a profile's ptxas_edges = no too) */
	gboolean writes;       /* setup_write follows: the shard spec may be made while the
	                        * plan is (setup.c's EarlySpec) */
} SetupArgs;


/* argv with each "-XVALUE" of the letters given as "-X" "VALUE" (argv
 * itself when there is none; the copy lives until the process exits). */
void options_split_attached(int *argc, char ***argv, const char *letters);
/* a->defines after --prefix and --buildtype's -D's, and with the kept
 * -D's of builddir in front (those -U names or --reset drops left out,
 * and those a new -D sets again). FALSE (and err) for a bad -U. */
gboolean options_merge(SetupArgs *a, const char *builddir, GError **err);
/* --list-options: what a setup of builddir keeps (the -D's, the
 * environment's flags), printed. */
void options_list(const SetupArgs *a, const char *builddir);

/* The arguments build.ninja's regeneration edge runs cugen with: the
 * same setup (or a->regen's, for combine). */
GPtrArray *options_regen_args(const SetupArgs *a, const char *ini, const char *builddir);

#endif
