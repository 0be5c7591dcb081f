/* graph.h -- the build graph: rules, edges and pools.
 *
 * Owns: the one representation every emitter prints (ninja, make,
 * compile_commands.json). Paths are relative to the build directory and
 * stored unescaped; rule commands use ninja's variable syntax (${in},
 * ${out}, ${NAME}) with "$$" for a literal dollar, and per-edge variable
 * values are already shell-quoted. Emitters escape paths and translate
 * variables; nothing else.
 */
#ifndef CUGEN_GRAPH_H
#define CUGEN_GRAPH_H

#include <glib.h>

#include "kinds.h"
#include "util.h"

/* EdgeKind and its names: kinds.h, the one table. */

typedef struct {
	char *name;
	char *command;
	char *description;
	char *depfile;
	char *deps;       /* "gcc" or NULL */
	char *pool;       /* NULL, "console" or a Pool name */
	char *pool_kind;  /* the pool edges.c chose (the planner may merge device and host) */
	char *canon;      /* the command the shard manifest hashes, when not this one */
	gboolean generator;
	gboolean restat;
	gboolean copy;    /* it copies a file and runs no compiler (a device
	                   * edge's host stub): plan.c prices it near zero */
	int split_compile; /* a device rule's nvcc --split-compile (the planner's tail split), else 0 */
} Rule;

typedef struct {
	char *name;
	int depth;
	char *why;        /* one line for `cugen plan` */
} Pool;

typedef struct Graph Graph;

/* A list of interned strings. Its fields are named as GPtrArray's, so
 * g_ptr_array_index() reads it; it lives in the graph's arena and is
 * changed only through graph.c. */
typedef struct {
	gpointer *pdata;
	guint len;
	guint cap;
} PathList;

/* The nvcc device steps an edge runs, a set: what the planner prices and
 * groups (cost.c, plan.c) by role, never by a file's name. 0 for every
 * other edge (front ends, host compiles, fatbins, stub copies, ...). */
enum {
	TOOL_PP = 1,     /* the device view's preprocess (gcc -E -D__CUDA_ARCH__) */
	TOOL_CICC = 2,   /* cicc (or cicc --device-syntax-only: a stub edge) */
	TOOL_PTXAS = 4,  /* ptxas: the edge makes a SASS image (a cubin) */
	TOOL_LTO = 8,    /* cicc -lto: an LTO-IR image, never split */
};

/* What one TU's device compile for one arch is known by, whichever way
 * its steps are grouped: shared by its device, cicc and pp edges. The
 * measurements of each step are under these names (history.h), the tail
 * split knows the compile by its image. Interned paths, in the graph's
 * arena. */
typedef struct {
	const char *image;    /* the whole device edge's first output: D/sm_ID.cubin,
	                       * D/compute_ID.ptx (PTX only) or D/compute_ID.ltoir */
	const char *cubin;    /* D/sm_ID.cubin where ptxas makes one, else NULL */
	const char *ptx;      /* D/compute_ID.ptx: cicc's output when ptxas runs apart */
	const char *ii;       /* D/ID.ii: the preprocess's output when it runs apart */
} DevUnit;

/* Path lists are interned strings (graph_intern), created on first use:
 * NULL means empty (EDGE_LEN). Edges and their lists live in the graph's
 * arena: they go with the graph. */
typedef struct Edge Edge;
struct Edge {
	EdgeKind kind;
	Rule *rule;           /* NULL for phony */
	PathList *outs;
	PathList *implicit_outs;
	PathList *ins;
	PathList *implicit_ins;
	PathList *order_ins;
	PathList *vars;       /* alternating name, value (interned) */
	const char *target;   /* owning target name, or NULL */
	const char *source;   /* project-relative source, or NULL */
	const char *arch;     /* "sm_80" for device edges, or NULL (interned) */
	const char *image_in; /* a ptxas-only dev edge's PTX when the fatbin embeds it
	                       * too: an image of the edge's for the shard manifest */
	guint tools;          /* the device steps it runs (TOOL_*), or 0 */
	const DevUnit *unit;  /* the device compile it is part of, or NULL */
	Graph *graph;
	guint serial;         /* the order it was made in (graph_edge): 0 .. n-1, an
	                       * id the planner keeps its estimates by (plan_int.h) */
};

#define EDGE_LEN(a) ((a) ? (a)->len : 0u)
#define EDGE_AT(a, i) ((const char *)g_ptr_array_index((a), (i)))

struct Graph {
	GPtrArray *rules;     /* Rule* */
	GHashTable *rule_by_command; /* dedupe identical rules */
	GPtrArray *edges;     /* Edge* */
	GPtrArray *pools;     /* Pool* */
	GPtrArray *defaults;  /* char*: default targets */
	GPtrArray *compdb;    /* CompdbEntry* */
	CgTable strings;      /* interned strings (in the arena), by hash */
	GSList *blocks;       /* the arena: edges, path lists, interned strings */
	char *arena;          /* free space in the current block */
	gsize arena_left;
};

/* The one copy of s that the graph keeps (pointer-comparable). */
const char *graph_intern(Graph *g, const char *s);
/* out[i] = graph_intern(g, s[i]) for n strings, their table slots
 * fetched from memory side by side: in a table of some 300,000 strings
 * (10,000 TUs) each new one is a cache miss, and a TU's two dozen paths
 * one after the other were a tenth of setup. */
void graph_intern_many(Graph *g, guint n, const char *const *s, const char **out);
/* What the graph knows of an interned string, kept just before it. */
typedef struct {
	Edge *maker;          /* the edge that makes it (graph_check_outputs) */
	guint32 len;          /* strlen */
	guint32 hash;
	guint32 plain;        /* only [A-Za-z0-9] and "_-+./=,%@": nothing any
			       * emitter escapes (ninja, make, shell, JSON, specs) */
} GraphStr;

static inline const GraphStr *graph_str(const char *interned)
{
	return (const GraphStr *)(const void *)interned - 1;
}

/* The edge that makes interned path p, once graph_check_outputs ran;
 * NULL for a source. */
static inline Edge *graph_maker(const char *p)
{
	return graph_str(p)->maker;
}

typedef struct {
	char *file;       /* relative to the build directory */
	char *output;
	const char *command; /* the shell command, or the part of it that a
			      * target's TUs share (interned) */
	char *args;          /* the rest, after a space, or NULL */
} CompdbEntry;

Graph *graph_new(void);
void graph_free(Graph *g);

/* A rule with this command (and settings); identical rules are shared. */
Rule *graph_rule(Graph *g, const char *stem, const char *command,
		 const char *description, const char *depfile, const char *deps,
		 const char *pool);
/* The same, with the command the shard manifest hashes (Rule.canon):
 * rules with the same command and another canon are not shared. */
Rule *graph_rule_canon(Graph *g, const char *stem, const char *command, const char *canon,
		       const char *description, const char *depfile, const char *deps,
		       const char *pool);
Edge *graph_edge(Graph *g, EdgeKind kind, Rule *rule);
/* A zeroed DevUnit in g's arena (it goes with the graph). */
DevUnit *graph_dev_unit(Graph *g);
void edge_out(Edge *e, const char *path);
void edge_implicit_out(Edge *e, const char *path);
void edge_in(Edge *e, const char *path);
void edge_implicit_in(Edge *e, const char *path);
void edge_order_in(Edge *e, const char *path);
void edge_var(Edge *e, const char *name, const char *value);
/* The same for strings graph_intern returned: no lookup (edges.c's
 * per-TU loop, where the same paths go to a dozen edges). */
void edge_out_interned(Edge *e, const char *s);
void edge_in_interned(Edge *e, const char *s);
void edge_implicit_in_interned(Edge *e, const char *s);
void edge_var_interned(Edge *e, const char *name, const char *value);
void edge_arch(Edge *e, const char *arch);
const char *edge_get_var(const Edge *e, const char *name);
Pool *graph_pool(Graph *g, const char *name, int depth, const char *why);
void graph_compdb(Graph *g, const char *file, const char *output, const char *command, const char *args);
void edge_remove_at(PathList *list, guint i);
/* Register outputs (graph_maker); FALSE (and err) when a path is made by
 * two edges. */
gboolean graph_check_outputs(Graph *g, GError **err);

/* Expand a rule command for one edge (all variables substituted). */
char *edge_command(const Edge *e);

#endif
