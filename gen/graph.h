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

typedef enum {
	EK_FE,        /* host preprocess + cudafe++ (module id, .cudafe1.cpp) */
	EK_DEV,       /* per TU per arch: preprocess + cicc (+ ptxas) */
	EK_DEVPP,     /* per TU per arch: the device preprocess alone (planner's pp_edges) */
	EK_STUB,      /* the host stub, from one arch's dev edge */
	EK_HOST,      /* host compile against a placeholder fatbin */
	EK_FATBIN,    /* fatbinary of one TU's images, objcopied into the host object */
	EK_NVCC,      /* split = tu: one nvcc -c per TU */
	EK_DLOBJ,     /* rdc: one arch's relocatable image in a host object */
	EK_NVLINK,    /* rdc: per target per arch device link */
	EK_DLFATBIN,  /* rdc: fatbinary -link of the linked images */
	EK_DLHOST,    /* rdc: host side of the device link (link.stub) */
	EK_CC,        /* C compile */
	EK_CXX,       /* C++ compile */
	EK_AR,        /* static library */
	EK_LINK,      /* executable or shared library */
	EK_MANIFEST,  /* shard manifest */
	EK_REGEN,     /* re-run cugen */
	EK_PHONY,
	EK_COUNT
} EdgeKind;

const char *edge_kind_name(EdgeKind k);

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
} Rule;

typedef struct {
	char *name;
	int depth;
	char *why;        /* one line for `cugen plan` */
} Pool;

typedef struct Graph Graph;

/* Path lists are interned strings (graph_intern), created on first use:
 * NULL means empty (EDGE_LEN). */
typedef struct Edge Edge;
struct Edge {
	EdgeKind kind;
	Rule *rule;           /* NULL for phony */
	GPtrArray *outs;
	GPtrArray *implicit_outs;
	GPtrArray *ins;
	GPtrArray *implicit_ins;
	GPtrArray *order_ins;
	GPtrArray *vars;      /* alternating name, value (interned) */
	const char *target;   /* owning target name, or NULL */
	const char *source;   /* project-relative source, or NULL */
	const char *arch;     /* "sm_80" for device edges, or NULL (interned) */
	Graph *graph;
	double cost;          /* estimated seconds (planner) */
	double memory;        /* estimated peak bytes (planner) */
	double level;         /* planner: cost of the longest chain from here */
	GPtrArray *succ;      /* planner: edges that use an output */
	int pending;          /* planner scratch */
	guint index;          /* planner scratch */
	guint npred;          /* planner: inputs made by other edges */
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
	GHashTable *outputs;  /* interned path -> Edge* (each path made once) */
	GStringChunk *strings;/* interned paths and values */
	GHashTable *interned; /* their set */
	GPtrArray *topo;      /* planner: edges, users before producers (plan.c) */
};

/* The one copy of s that the graph keeps (pointer-comparable). */
const char *graph_intern(Graph *g, const char *s);

typedef struct {
	char *file;       /* relative to the build directory */
	char *output;
	char *command;    /* the complete shell command */
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
void edge_out(Edge *e, const char *path);
void edge_implicit_out(Edge *e, const char *path);
void edge_in(Edge *e, const char *path);
void edge_implicit_in(Edge *e, const char *path);
void edge_order_in(Edge *e, const char *path);
void edge_var(Edge *e, const char *name, const char *value);
void edge_arch(Edge *e, const char *arch);
const char *edge_get_var(const Edge *e, const char *name);
Pool *graph_pool(Graph *g, const char *name, int depth, const char *why);
void graph_compdb(Graph *g, const char *file, const char *output, const char *command);
/* Register outputs; FALSE (and err) when a path is made by two edges. */
gboolean graph_check_outputs(Graph *g, GError **err);

/* Expand a rule command for one edge (all variables substituted). */
char *edge_command(const Edge *e);

#endif
