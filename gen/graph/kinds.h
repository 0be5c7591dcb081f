/* kinds.h -- the one table of edge kinds.
 *
 * Owns: every kind of edge cugen writes (EdgeKind), its name as `cugen
 * plan` and `cugen report` show it, the stems of the ninja rules that make
 * it (edges.c, combine.c and gate.c name their rules with the RULE_*
 * stems below, a per-arch rule adding "_ID", variants "_N"), whether its
 * edges are per arch, and the reverse: the kind and arch of an edge from
 * its rule's name and description, for reading a build.ninja back
 * (report.c). A new kind or rule stem goes here first.
 */
#ifndef CUGEN_KINDS_H
#define CUGEN_KINDS_H

#include <glib.h>

typedef enum {
	EK_FE,        /* host preprocess + cudafe++ (module id, .cudafe1.cpp) */
	EK_DEV,       /* per TU per arch: preprocess + cicc (+ ptxas) */
	EK_DEVPP,     /* per TU per arch: the device preprocess alone (planner's pp_edges) */
	EK_CICC,      /* per TU per arch: cicc alone, its PTX for a ptxas-only dev edge
	               * (planner's ptxas_edges) */
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
	EK_SYMLINK,   /* a versioned shared library's SONAME and link-name symbolic links */
	EK_RANK,      /* a stamp after a host compile, so that ninja >= 1.12 ranks the
	               * host compile with the device compiles (planner's host_rank) */
	EK_DATA,      /* a run-time file copied into the build directory (data =) */
	EK_MANIFEST,  /* shard manifest */
	EK_IMPORT,    /* combine: a shard's image put in place of a device edge's */
	EK_GATE,      /* the gate's edge over the full graph (gate.c) */
	EK_REGEN,     /* re-run cugen */
	EK_PHONY,
	EK_COUNT
} EdgeKind;

/* Rule stems. Per-arch ones take "_ID" (the arch's id: 90, 90a, 100f). */
#define RULE_FE          "cuda_fe"
#define RULE_DEV         "cuda_dev"        /* _ID: whole device edge */
#define RULE_PTXAS       "cuda_ptxas"      /* _ID: a dev edge running ptxas alone */
#define RULE_PP          "cuda_pp"         /* _ID */
#define RULE_CICC        "cuda_cicc"       /* _ID */
#define RULE_STUB        "cuda_stub"       /* _ID: from that arch's cicc; _syntax */
#define RULE_HOST        "cuda_host"
#define RULE_FATBIN      "cuda_fatbin"
#define RULE_NVCC        "cuda_nvcc"
#define RULE_DLOBJ       "cuda_dlobj"      /* _ID */
#define RULE_NVLINK      "cuda_nvlink"     /* _ID */
#define RULE_DLFATBIN    "cuda_dlink_fatbin"
#define RULE_DLHOST      "cuda_dlink_host"
#define RULE_CC          "cc"
#define RULE_CXX         "cxx"
#define RULE_AR          "ar"
#define RULE_LINK        "link"
#define RULE_SYMLINK     "symlink"
#define RULE_RANK        "cugen_rank"
#define RULE_DATA        "data"
#define RULE_MANIFEST    "cuda_manifest"
#define RULE_IMPORT      "cuda_import"
#define RULE_GATE        "gate"
#define RULE_REGEN       "regen"

/* "fe", "dev", "dev-pp", ... ("phony" for EK_PHONY). */
const char *edge_kind_name(EdgeKind k);
/* Whether the kind's edges are one per arch (dev, dev-pp, dev-cicc,
 * dlink-obj, nvlink). */
gboolean edge_kind_per_arch(EdgeKind k);

/* The kind of an edge whose rule is named rule (description: the rule's,
 * as build.ninja has it, or NULL), and in *arch its GPU arch for a
 * per-arch kind ("sm_90", from the description's sm_/compute_/lto_ word,
 * else sm_ID from the rule's name), else NULL. EK_COUNT for a rule cugen
 * does not write. */
EdgeKind edge_kind_of_rule(const char *rule, const char *description, char **arch);

#endif
