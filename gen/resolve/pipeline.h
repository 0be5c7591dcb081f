/* pipeline.h -- nvcc's per-TU compile pipeline as command templates.
 *
 * Owns: parsing `nvcc --dryrun -c` output into the steps cugen runs as its
 * own edges (host preprocess, cudafe++, per-arch preprocess + cicc +
 * ptxas, fatbinary flags, host compile), replacing nvcc's temporary file
 * names with placeholders, and refusing any step or temporary file it does
 * not understand (the caller then falls back to split = tu).
 *
 * A template is a GPtrArray of argument strings; an argument may contain
 * placeholders written PH NAME PH, with NAME one of:
 *   O    the TU's directory of intermediate files (obj/TARGET/src/k.cu.p);
 *        the names inside are fixed (fe.cpp, id, sm_80.cubin, stub.c, ...)
 *   F    source file name as nvcc's --orig_src_file_name (k.cu)
 *   C    the path that seeds the module id (--orig_src_path_name)
 *   IN   the source file
 *   OUT  the edge's output
 *   STUB the host stub that cicc writes
 *   IDENT the device link's objects, as fatbinary --ident names them
 *        (with -lineinfo or -G: "a.o b.o ")
 */
#ifndef CUGEN_PIPELINE_H
#define CUGEN_PIPELINE_H

#include <glib.h>

#define PH '\x1d'
#define PH_S "\x1d"
#define P_O PH_S "O" PH_S
#define P_F PH_S "F" PH_S
#define P_C PH_S "C" PH_S
#define P_IN PH_S "IN" PH_S
#define P_OUT PH_S "OUT" PH_S
#define P_STUB PH_S "STUB" PH_S
#define P_IDENT PH_S "IDENT" PH_S

typedef struct {
	char *id;          /* "90a" */
	gboolean sass;     /* has a ptxas step */
	gboolean ptx;      /* nvcc embedded its PTX */
	gboolean lto;      /* cicc -lto (output .ltoir) */
	GPtrArray *pp;     /* gcc -E -D__CUDA_ARCH__=... */
	GPtrArray *cicc;
	GPtrArray *ptxas;  /* NULL without sass */
	GPtrArray *ptxcheck; /* a PTX-only arch's ptxas -arch=compute_NN, which
			      * nvcc 13 runs on the PTX to check it (no output) */
} PipeArch;

typedef struct {
	gboolean rdc;
	char *arch_list;       /* value of -D__CUDA_ARCH_LIST__ */
	GPtrArray *host_pp;    /* gcc -E (host view) */
	GPtrArray *cudafe;
	GPtrArray *archs;      /* PipeArch*, in nvcc's order */
	GPtrArray *fatbin;     /* fatbinary without images and outputs */
	GPtrArray *host_cc;    /* gcc -c of the .cudafe1.cpp, output OUT */
	char *math;            /* --cicc-cmdline value, for the record */
	GPtrArray *images;     /* "KIND:ID" (elf:80, ptx:90, nvvm:80) in nvcc's order */
} Pipeline;

/* The device link of one executable or shared library (`nvcc -dlink`):
 * per arch nvlink (inputs IN, output O/sm_ID.cubin, O/sm_ID.reg.c),
 * fatbinary -link, and the host compile of link.stub (FATBINFILE =
 * O/fatbin.c, REGISTERLINKBINARYFILE = REG, output OUT). */
#define P_REG PH_S "REG" PH_S

typedef struct {
	char *id;
	GPtrArray *nvlink;
} DlinkArch;

typedef struct {
	GPtrArray *archs;      /* DlinkArch* */
	GPtrArray *fatbin;     /* without images and output */
	GPtrArray *host;
	gboolean lto;
} Dlink;

Pipeline *pipeline_parse(const char *dryrun, GError **err);
Dlink *dlink_parse(const char *dryrun, GError **err);
void dlink_free(Dlink *d);
void pipeline_free(Pipeline *p);
PipeArch *pipeline_arch(Pipeline *p, const char *id);

/* Argument vectors with placeholders: a copy (strings copied), whether
 * an argument holds ph, and ph replaced by value in every argument. */
GPtrArray *argv_copy(GPtrArray *a);
gboolean argv_has(GPtrArray *argv, const char *ph);
/* Whether an argument is exactly arg. */
gboolean argv_contains(GPtrArray *argv, const char *arg);
void argv_subst(GPtrArray *argv, const char *ph, const char *value);

#endif
