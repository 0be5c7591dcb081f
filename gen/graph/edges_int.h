/* edges_int.h -- what the files that make the build edges share; not
 * for other modules (they use edges.h).
 *
 * Owns: the context of one graph being made (Ctx), the per-target state
 * of that graph (TState: resolve.c's findings, borrowed, then what the
 * graph makes) and per arch (TArch), and the helpers the files share.
 * The files: edges.c (the driver, names, data copies, phony targets,
 * regeneration), ruletext.c (rendering argv into rule commands, the
 * fragments of templates/rule-text.in, paths), recipe.c (the rules of
 * the per-arch CUDA recipe), tuedges.c (each TU's edges: CUDA split =
 * arch and split = tu, host C/C++) and link.c (archives, device links,
 * links). None calls back into edges.c.
 */
#ifndef CUGEN_EDGES_INT_H
#define CUGEN_EDGES_INT_H

#include "edges.h"
#include "pipeline.h"
#include "resolve.h"

/* Every edge's tools write each declared output under NAME.tmp and
 * rename it into place last (ruletext.c: "outputs written whole"). */
#define TMP ".tmp"
/* `cugen exec` logs each step's peak memory and CPU time here. */
#define EDGE_LOG ".cugen/edges.log"

/* Per target, for one graph: what resolve.c found (borrowed, not
 * changed: every field from t to stub_arch), then what this graph makes. */
typedef struct {
	Target *t;
	ArchSet *project;      /* the target's pinned arch set */
	ArchSet *build;        /* the subset built */
	Pipeline *pipe;        /* NULL without CUDA sources or in tu mode */
	gboolean tu;           /* one nvcc per TU */
	gboolean has_cuda;     /* own CUDA sources */
	gboolean uses_toolkit; /* it or a dependency names a toolkit library (uses_toolkit_libs) */
	gboolean links_cuda;   /* it or a dependency has CUDA code, or links one of
			        * the toolkit's libraries (libs = cublas): its host
			        * TUs get the toolkit's headers, its link cudart */
	GPtrArray *nvcc_args;  /* flag set without gencodes (dryrun, tu, compdb) */
	gboolean seeded;       /* cugen seeds module ids (resolve_seed) */
	GPtrArray *includes;   /* -I paths relative to the build dir (own + inherited) */
	GPtrArray *defines;    /* NAME[=VALUE] (own + inherited public ones; borrowed) */
	GPtrArray *user_libs;  /* libs to link it with (collect_user_libs; borrowed) */
	GPtrArray *objects;    /* own object files */
	GPtrArray *dl_items;   /* per own object, in order: its per-arch device-link
			        * object prefix (rdc TU), "" (host-only) or NULL (whole) */
	GHashTable *dl_archives; /* static rdc library: arch id -> per-arch archive */
	char *output;          /* library or executable, NULL for object targets */
	Edge *out_edge;        /* the edge that makes it */
	char *stub_arch;       /* id of the arch whose dev edge writes the stub */
	Dlink *dlink;          /* device link of an executable or shared library */
	char *dlink_obj;       /* device_link = yes: the device-link object */
	GHashTable *rules;     /* "fe", "fatbin", "host", "syntax" -> Rule*: rendered once */
	char *compdb_prefix;   /* nvcc command for compile_commands.json, less the file */
	struct TArch *archs;   /* per built arch (cuda_tu_arch), made on the first TU */
	guint narchs;
} TState;

/* What every TU of a target repeats per arch: looked up once. */
typedef struct TArch {
	char *id;              /* "80" (arch_id) */
	const char *name;      /* "sm_80" or "compute_80" (interned) */
	PipeArch *pa;
	Rule *dev, *pp, *stub; /* rendered on the first TU that needs them */
	Rule *dev_split;       /* dev with the planner's tail split */
	Rule *cicc[2], *ptxas[2]; /* ptxas edges: cicc and ptxas apart (1: split) */
	GPtrArray *outs;       /* x->arch_outs' list for name */
} TArch;

typedef struct {
	const Resolved *r;
	const Config *c;
	Toolkit *tk;
	const EdgeInputs *in;
	const Grouping *opt;    /* the grouping built */
	Graph *g;
	GHashTable *state;     /* Target* -> TState* */
	GHashTable *arch_outs; /* "sm_80" -> GPtrArray* of device outputs (interned) */
	GHashTable *objnames;  /* O prefixes in use */
	char *nvvm_shim;       /* BUILDDIR-relative nvvm dir for nvlink -dlto, or NULL */
	gboolean shim_made;
	const char *cache;     /* the device compile cache directory, or NULL (Config's) */
	char *cugen_q;
	gboolean canon;        /* rendering a device edge's canonical text (recipe.c) */
	gboolean plan_only;    /* a candidate the planner weighs (edges_lower): the
	                        * CUDA recipe's rules carry what the planner reads
	                        * and no command (recipe.c's plan_rule) */
	GraphInfo *info;
	GHashTable *data_outs;  /* data copies made (project-relative paths) */
} Ctx;

/* ruletext.c */
char *ed_rel(Ctx *x, const char *abs);
GPtrArray *ed_nvcc_head(Ctx *x, const char *mode);
void ed_render_arg(GString *out, const char *arg);
void ed_render(GString *out, GPtrArray *argv);
void ed_render_words(GString *out, const char *words);
/* Append fragment NAME of templates/rule-text.in, its @KEY@s from the
 * pairs of strings that follow (NULL ends them), with @CUGEN@ (x's
 * program, quoted; x may be NULL for fragments without it), @LOG@ and
 * @TMP@. */
void ed_frag(Ctx *x, GString *c, const char *name, ...) G_GNUC_NULL_TERMINATED;
void ed_publish(GString *c, const char *path);
const char *ed_cugen_q(Ctx *x);
void ed_measured(Ctx *x, GString *c);

/* recipe.c */
Rule *ed_make_cu_fe_rule(Ctx *x, TState *s);
Rule *ed_cu_pp_rule(Ctx *x, PipeArch *pa);
Rule *ed_cu_dev_rule(Ctx *x, TState *s, PipeArch *pa, const Arch *a, int sc);
Rule *ed_cu_cicc_rule(Ctx *x, PipeArch *pa, int sc);
Rule *ed_cu_ptxas_rule(Ctx *x, PipeArch *pa, const Arch *a, int sc);
Rule *ed_cu_stub_rule(Ctx *x, const char *id);
gboolean ed_stub_from_pp(const Ctx *x);
Rule *ed_make_cu_syntax_stub_rule(Ctx *x, TState *s);
Rule *ed_make_cu_fatbin_rule(Ctx *x, TState *s);
Rule *ed_make_cu_host_rule(Ctx *x, TState *s);

/* tuedges.c */
void ed_cuda_tu_arch(Ctx *x, TState *s, Source *src, const char *in, const char *O);
void ed_cuda_tu_whole(Ctx *x, TState *s, Source *src, const char *in, const char *O);
void ed_host_tu(Ctx *x, TState *s, Source *src, const char *in, const char *O);

/* link.c */
gboolean ed_target_output(Ctx *x, TState *s, GError **err);

#endif
