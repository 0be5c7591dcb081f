/* capability.h -- the GPU compute capabilities that images run on.
 *
 * Owns: what one image covers (SASS sm_XY: X.Y up to the next major, the
 * arch-specific sm_XYa X.Y only, the family sm_XYf as sm_XY; PTX
 * compute_XY: X.Y and every later one, by JIT; LTO-IR: nothing until a
 * device link), the union of a build's or a shard's images, and how it
 * is said (a program: where each of its modules runs): "7.5-8.x, 9.0+" and, where it is one range, the conda-forge
 * cuda-arch spec a package of it declares (cuda-arch >=7.5,<9.0). */
#ifndef CUGEN_CAPABILITY_H
#define CUGEN_CAPABILITY_H

#include <glib.h>

/* Compute capabilities as major * 10 + minor (7.5 -> 75, 10.0 -> 100);
 * [lo, hi), hi CC_OPEN for no upper bound. */
#define CC_OPEN G_MAXINT
typedef struct {
	int lo, hi;
} CcRange;

/* What an image of nvcc's name (sm_80, sm_90a, sm_100f, compute_80)
 * runs on; FALSE for one that runs on nothing as it is (lto_80) or a
 * name that is none of these. */
gboolean cc_of_arch(const char *arch, CcRange *r);
/* Add r to the sorted, disjoint ranges u (merging). */
void cc_add(GArray *u, CcRange r);
/* The capabilities in both a and b (a program runs where every one of
 * its modules has an image). */
GArray *cc_intersect(const GArray *a, const GArray *b);
/* What the images of several modules cover together: per module (a key
 * per image: the TU it came from) the union of its images, then the
 * intersection over the modules that have a runnable image. arch[i] and
 * module[i] for i < n. */
GArray *cc_cover(const char *const *arch, const char *const *module, guint n);
/* The same, and in *limiting the module (one of module[]) that limits
 * it most: of those that lack a capability another module covers, the
 * one that covers least; NULL where no module limits the others. */
GArray *cc_cover_limited(const char *const *arch, const char *const *module, guint n, const char **limiting);
/* "7.5-8.x, 9.0+" ("" for none). */
char *cc_describe(const GArray *u);
/* "cuda-arch >=7.5,<9.0" for one range, NULL for none or several. */
char *cc_conda_spec(const GArray *u);

#endif
