/* toolkit.h -- the CUDA toolkit as probed.
 *
 * Owns: finding nvcc ([toolchain] cuda, $CUDA_PATH, $CUDA_HOME, PATH,
 * /usr/local/cuda), its version and supported GPU codes, the host
 * compiler's version, running `nvcc --dryrun` for a flag set, and the probe
 * cache kept in BUILDDIR/.cugen/probe.ini (re-probed when the toolkit or
 * host compiler changes, keyed by the exact nvcc arguments).
 */
#ifndef CUGEN_TOOLKIT_H
#define CUGEN_TOOLKIT_H

#include <glib.h>

#include "arch.h"
#include "config.h"

#define PROBE_NAME "cugenprobe"

typedef struct {
	char *root;          /* absolute toolkit root */
	char *nvcc;          /* root/bin/nvcc */
	char *version;       /* "13.0.88" */
	GPtrArray *codes;    /* "sm_75", ... as nvcc --list-gpu-code prints */
	char *host_cc;       /* host compiler nvcc uses (ccbin, else gcc) */
	char *host_version;  /* its -dumpfullversion */
	char *fingerprint;   /* changes when any of the above may change */
	char *ccbin;         /* [toolchain] ccbin, "" if unset */
	/* the host tools the build runs: [toolchain] cc, cxx, ar, objcopy,
	 * or for a cross target those beside ccbin that the INI leaves unset */
	char *cc, *cxx, *ar, *objcopy;
	char *target;        /* the target directory's name: x86_64-linux, sbsa-linux, ... */
	gboolean cross;      /* it is not this machine's */
	GKeyFile *cache;     /* the cache as read */
	GKeyFile *out;       /* the cache to write: what this run used */
	gboolean probed;     /* nvcc was asked (the cache was stale) */
	guint dryruns;       /* nvcc --dryrun calls made (not cached) */
} Toolkit;

/* Find and probe the toolkit; reads BUILDDIR/.cugen/probe.ini if present.
 * For a cross target it checks the toolkit's targets/ directory and the
 * cross compiler (run only with -dumpmachine), and takes the cc, cxx, ar
 * and objcopy of the cross toolchain that the INI leaves unset (tk->cc,
 * ...; the Config is not changed). */
Toolkit *toolkit_probe(const Config *c, const char *builddir, GError **err);
/* The toolkit no cugen.ini names: $CUDA_PATH's, $CUDA_HOME's, nvcc on
 * PATH's, /usr/local/cuda; NULL with err for none. */
char *toolkit_default_root(GError **err);
/* This machine's target directory name (x86_64-linux, sbsa-linux, ...). */
const char *toolkit_host_target(void);
void toolkit_free(Toolkit *tk);
/* What arch sets need of it (arch.h): its codes, root and cross target. */
ArchToolkit toolkit_archs(const Toolkit *tk);

/* Output of `nvcc --dryrun ARGS PROBE.cu -o PROBE.o` (stderr), or with
 * dlink `nvcc --dryrun ARGS PROBE.o -o PROBE_dlink.o`, with the temporary
 * directory written as @PROBEDIR@. Cached. On failure the error quotes
 * nvcc's own message. */
char *toolkit_dryrun(Toolkit *tk, GPtrArray *args, gboolean dlink, GError **err);

/* The probe cache's new text (to be staged into the build directory). */
GString *toolkit_cache_text(Toolkit *tk);
char *toolkit_cache_path(const char *builddir);

#endif
