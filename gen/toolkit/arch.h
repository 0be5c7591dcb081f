/* arch.h -- GPU architecture sets.
 *
 * Owns: the arch syntax of cugen.ini (90, sm_90, 90a, 100f, compute_90,
 * all, all-major, native), the `ptx` key, checking archs against what the
 * toolkit supports, and the build subset chosen by a profile or --archs.
 */
#ifndef CUGEN_ARCH_H
#define CUGEN_ARCH_H

#include <glib.h>

#include "config.h"

/* One virtual architecture and what is generated from it. */
typedef struct {
	int num;        /* 90 for compute_90 / sm_90 / sm_90a */
	char suffix;    /* 0, 'a' or 'f' */
	gboolean sass;  /* sm_NN code */
	gboolean ptx;   /* compute_NN PTX embedded */
} Arch;

typedef struct {
	GArray *archs;  /* Arch, sorted by (num, suffix) */
	gboolean ptx_first; /* archset_gencode's code=[compute_NN,sm_NN] */
} ArchSet;

/* "90", "90a": the arch name without prefix. */
char *arch_id(const Arch *a);
/* "sm_90a" (sass) or "compute_90a" (PTX-only arch). */
char *arch_image_name(const Arch *a);

/* What a toolkit tells arch sets: the GPU codes it supports (sm_NN
 * strings), where `native` asks for the local GPUs (its
 * __nvcc_device_query) and whether the build is for another machine
 * (then `native` means nothing: an error). The toolkit's, borrowed. */
typedef struct ArchToolkit {
	GPtrArray *supported;
	const char *root;
	const char *cross_target;  /* NULL: a build for this machine */
} ArchToolkit;

/* Whether the toolkit compiles arch id ("80", "90a"); else FALSE with
 * *list (when given) the numbers it does compile, to free. */
gboolean arch_supported(const ArchToolkit *tk, const char *id, char **list);

/* Resolve a setting (archs + ptx) against what the toolkit supports and,
 * for `native`, the local GPUs. */
ArchSet *archset_resolve(const Setting *archs, const Setting *ptx,
			 const ArchToolkit *tk, GError **err);
/* The subset of set named by sel (a list of arch names); NULL sel = all.
 * Archs named in sel but not in set are skipped (other targets may have
 * them); archset_check_selection() reports names in no set at all. */
ArchSet *archset_select(const ArchSet *set, const Setting *sel);
gboolean archset_check_selection(const Setting *sel, GPtrArray *sets, GError **err);
gboolean archset_equal(const ArchSet *a, const ArchSet *b);
void archset_free(ArchSet *s);
/* The -gencode flags nvcc needs for the set: to compile (SASS and PTX as
 * the set says), to compile for device LTO (lto_NN), or to device-link
 * (sm_NN of the SASS archs). */
typedef enum { GENCODE_COMPILE, GENCODE_LTO, GENCODE_LINK } GencodeKind;
void archset_gencode(const ArchSet *s, GencodeKind kind, GPtrArray *argv);
/* "75 80 90" for messages. */
char *archset_describe(const ArchSet *s);

/* Query the local GPUs' compute capabilities ("90"); NULL with an error
 * when none can be found or the build is for another machine. */
GPtrArray *arch_query_native(const ArchToolkit *tk, GError **err);

#endif
