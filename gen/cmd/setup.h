/* setup.h -- generating a build directory, shared by `cugen setup`,
 * `cugen plan` and `cugen combine`. See setup.c. */
#ifndef CUGEN_SETUP_H
#define CUGEN_SETUP_H

#include "config.h"
#include "edges.h"
#include "graph.h"
#include "history.h"
#include "machine.h"
#include "options.h"
#include "plan.h"
#include "toolkit.h"


typedef struct {
	Config *c;
	Toolkit *tk;
	Resolved *resolved;    /* what each target is (resolve.c), for every graph */
	Graph *g;
	GraphInfo info;
	Machine m;
	Plan plan;
	History *history;
	struct EnvFlags *env;  /* the environment's flags (envflags.h) */
	char *builddir;
	EdgeInputs in;
	gboolean gated;        /* build.ninja is a gate over .cugen/full.ninja */
	struct EarlySpec *early; /* the shard spec, made on a thread while the plan is made */
} Generated;

gboolean setup_parse_args(int *argc, char ***argv, SetupArgs *a, const char *cmd,
			  gboolean plan, GError **err);
gboolean setup_generate(SetupArgs *a, Generated *gen, GError **err);
/* The project's arch set as build files and shard specs name it. */
char *setup_project_archs(const Generated *gen);
/* What the summary line says after its counts: ", flags from the
 * environment (...)", ", one nvcc per TU for 'k' (flag '-X')", the
 * choices that make code differ from plain nvcc's (summary.c). */
char *setup_summary_notes(const Generated *gen);
/* Write the build directory's files, all or nothing. */
gboolean setup_write(SetupArgs *a, Generated *gen, GError **err);
void setup_args_clear(SetupArgs *a);
void setup_generated_clear(Generated *gen);

#endif
