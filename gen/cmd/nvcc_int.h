/* nvcc_int.h -- what nvcc.c (the command line, the one-TU build) and
 * nvccshard.c (shards and combine through the environment) share. */
#ifndef CUGEN_NVCC_INT_H
#define CUGEN_NVCC_INT_H

#include <glib.h>

typedef enum { NV_LOCAL, NV_SHARD, NV_COMBINE } NvMode;

/* The mode the environment asks for; *why set (mode NV_LOCAL) where it
 * asks for two, or for a shard without CUGEN_ARCHS. */
NvMode nvcc_mode(const char **why);
/* The shard key of a compile: its one-TU project's text and the source's
 * bytes. */
char *nvcc_key(const char *project, const char *source, GError **err);
/* TMPDIR/cugen-nvcc-shard-KEY, made empty, locked by *lock. */
char *nvcc_fixed_scratch(const char *key, int *lock, GError **err);
/* Remove it (unless keep) and its lock. */
void nvcc_release_scratch(const char *dir, int *lock, gboolean keep);
/* BUILDDIR/shard copied to CUGEN_SHARD_DIR/KEY (over an older one). */
gboolean nvcc_store_shard(const char *shard, const char *key, GError **err);
/* The CUGEN_COMBINE directories' KEY subdirectories that exist. */
GPtrArray *nvcc_find_shards(const char *key);
/* The words of CUGEN_ARCHS among project_archs (cugen's arch ids). */
char *nvcc_shard_archs(const char *project_archs);

#endif
