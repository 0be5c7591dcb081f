/* imagehash.h -- what makes two GPU images the same.
 *
 * Owns: a fatbin entry's bytes as they were before fatbinary compressed
 * them (zstd, or lz4 with -compress-mode=speed), the sha256 of those
 * bytes (what cuobjdump would extract), and the normalised hash of an
 * ELF image: every section but .note.nv.tkinfo, which records the tools'
 * command lines, temporary file names included (with -G nvcc's own
 * output differs from run to run there, and only there).
 */
#ifndef CUGEN_IMAGEHASH_H
#define CUGEN_IMAGEHASH_H

#include <glib.h>

/* Uncompressed images larger than this are refused (a bound for
 * untrusted input; real images are far smaller). */
#define IMAGE_MAX_BYTES (1024ull * 1024 * 1024)

/* The bytes of a compressed payload: algo "zstd" or "lz4", csize stored
 * bytes, usize the recorded uncompressed size (0: not recorded). NULL
 * with err set for another algorithm or damaged data. */
GBytes *image_uncompress(const char *algo, const guint8 *data, gsize csize, guint64 usize, GError **err);

/* sha256 of an ELF image's sections but .note.nv.tkinfo (names, types,
 * flags and contents, in order), or of the bytes themselves when they
 * are no ELF file. */
char *image_norm_sha256(const guint8 *data, gsize len);

#endif
