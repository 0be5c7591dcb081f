/* resolve.h -- what each target is, before any edge is made.
 *
 * Owns: per target, its arch sets (the project's pinned set and the
 * subset built), its nvcc flag set and nvcc's own steps for it (the
 * --dryrun pipeline, parsed; or the one-nvcc-per-TU fallback and the
 * flag to blame), its -I, -D and -l lists (own and inherited), whether
 * it uses CUDA or the toolkit's libraries, the arch whose stub the host
 * compile takes; the check that the tools the build will run exist; and
 * every FILE:LINE error of these. Done once per setup (resolve_project);
 * edges.c reads the result, for every graph the planner weighs, and
 * changes none of it.
 */
#ifndef CUGEN_RESOLVE_H
#define CUGEN_RESOLVE_H

#include "arch.h"
#include "config.h"
#include "pipeline.h"
#include "toolkit.h"

typedef struct {
	Target *t;
	ArchSet *project;      /* the target's pinned arch set (NULL without device code) */
	ArchSet *build;        /* the subset built */
	Pipeline *pipe;        /* NULL without CUDA sources or in tu mode */
	gboolean tu;           /* one nvcc per TU */
	gboolean has_cuda;     /* own CUDA sources */
	gboolean uses_toolkit; /* it or a dependency names a toolkit library */
	gboolean links_cuda;   /* it or a dependency has CUDA code, or links one of
			        * the toolkit's libraries (libs = cublas): its host
			        * TUs get the toolkit's headers, its link cudart */
	GPtrArray *nvcc_args;  /* flag set without gencodes (dryrun, tu, compdb) */
	GPtrArray *includes;   /* -I paths relative to the build dir (own + inherited) */
	GPtrArray *defines;    /* NAME[=VALUE] (own + inherited public ones; borrowed) */
	GPtrArray *user_libs;  /* libs to link it with (borrowed from Config) */
	char *stub_arch;       /* id of the arch whose dev edge writes the stub */
	gboolean seeded;       /* cugen seeds the module ids (no -frandom-seed of
			        * the user's): see resolve_seed */
} RTarget;

typedef struct Resolved Resolved;
struct Resolved {
	const Config *c;
	Toolkit *tk;
	const char *builddir;  /* absolute */
	int split_compile;     /* the profile's nvcc --split-compile (0: none) */
	gboolean relative;     /* the build directory is inside the project */
	char *cudart_dir;      /* the toolkit's library directory for the target */
	GPtrArray *order;      /* Target*: dependencies first (config_target_order) */
	GHashTable *targets;   /* Target* -> RTarget* */
	/* targets that fell back to one nvcc per TU, in threes: the name,
	 * the flag to blame (or ""), and why ("nvcc --dryrun: ...") */
	GPtrArray *fallbacks;
	GHashTable *toolkit_libs; /* libs name -> "1" (the toolkit has it) or "" */
};

/* Resolve every target of c, in dependency order; NULL (and err, at the
 * INI line to blame where there is one) for the first that cannot be. */
Resolved *resolve_project(const Config *c, Toolkit *tk, const char *builddir, int split_compile, GError **err);
void resolved_free(Resolved *r);
const RTarget *resolved_target(const Resolved *r, const Target *t);

/* The -frandom-seed value of target t's TU FILE (a path or a
 * placeholder): what makes its module id deterministic (resolve.c). */
char *resolve_seed(const Config *c, const Target *t, const char *file);
/* With relative module ids, the host compiler's words that make the
 * names host objects record (__FILE__, debug info) the same in every
 * layout: -ffile-prefix-map=SRC/= (the project as the commands name it:
 * its files become project-relative) and -fdebug-prefix-map=BUILDDIR=.
 * (the compilation directory); for a preprocess alone,
 * -fmacro-prefix-map=SRC/=; none with module_id = absolute. */
GPtrArray *resolve_prefix_maps(const Resolved *r, gboolean preprocess);
/* A path for commands: relative to the build directory when that is
 * inside the project (the checkout's location then does not matter),
 * else absolute. */
char *resolve_rel(const Resolved *r, const char *abs);
/* An nvcc command's first words: MODE (-c, -dlink), the target directory
 * of a cross build and the host compiler. */
GPtrArray *resolve_nvcc_head(const Resolved *r, const char *mode);
/* Append the target's nvcc flags, then its host flags (and -fPIC), each
 * behind -Xcompiler. */
void resolve_target_flags(GPtrArray *a, const Target *t);
/* args with set's gencodes of kind, after -std. */
GPtrArray *resolve_with_gencode(GPtrArray *args, const ArchSet *set, GencodeKind kind);
/* Relocatable device code or device LTO in t or what it links statically;
 * and whether t (an executable or shared library) needs a device link. */
gboolean target_has_rdc(Target *t);
gboolean target_has_lto(Target *t);
gboolean target_needs_dlink(Target *t);

#endif
