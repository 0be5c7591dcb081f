/* fatbin.h -- the CUDA fatbinary container and the GPU images in it.
 *
 * Owns: parsing fatbins (bare .fatbin files, and the .nv_fatbin and
 * __nv_relfatbin sections of host ELF files, which may hold several
 * concatenated fatbins), naming each image's architecture ("sm_90a",
 * "compute_90", "lto_80"), and describing a bare cubin as an image.
 *
 * The layout, as nvcc/fatbinary 13.0 write it (all little-endian):
 *   container header (16 bytes): u32 magic 0xBA55ED50, u16 version (1),
 *     u16 header size, u64 size of the entries that follow;
 *   entry header (at least 64 bytes):
 *     +0 u16 kind (1 ptx, 2 elf, 8 nvvm/LTO-IR), +2 u16 (0x0101),
 *     +4 u32 entry header size, +8 u64 payload size (padded to 8),
 *     +16 u32 compressed size (exact, 0 if not compressed),
 *     +20 u32 offset of an options descriptor in the header (0: none),
 *     +24 u16 minor, +26 u16 major (PTX ISA version for ptx),
 *     +28 u32 SM number (80, 90, 100, ...),
 *     +32 u32 name offset, +36 u32 name length (an --ident, or the
 *     source file of -G images), +40 u64 flags (FATBIN_FLAG_*),
 *     +48 u64 (unknown), +56 u64 uncompressed size (0 if not compressed);
 *   then the payload; the next entry follows it. Containers within a
 *   section are 8-byte aligned.
 */
#ifndef CUGEN_FATBIN_H
#define CUGEN_FATBIN_H

#include <glib.h>

#include "elf.h"

#define FATBIN_MAGIC 0xBA55ED50u

enum {
	FATBIN_KIND_PTX = 1,
	FATBIN_KIND_ELF = 2,
	FATBIN_KIND_NVVM = 8,
};

/* Entry flags seen in nvcc 13.0 output. */
#define FATBIN_FLAG_64BIT 0x1ull
#define FATBIN_FLAG_DEBUG 0x2ull
#define FATBIN_FLAG_LINUX 0x10ull
#define FATBIN_FLAG_LZ4 0x2000ull  /* -compress-mode=speed */
#define FATBIN_FLAG_ZSTD 0x8000ull /* the default compression */
#define FATBIN_FLAG_ARCH_A 0x100000ull /* sm_90a, compute_100a */
#define FATBIN_FLAG_ARCH_F 0x200000ull /* sm_100f, compute_120f */

typedef struct {
	guint kind;	      /* FATBIN_KIND_* (others are kept as read) */
	char *kind_name;      /* "elf", "ptx", "nvvm", or "kindN" */
	guint sm;	      /* 80, 90, 100, ... */
	char *arch;	      /* "sm_90a", "compute_90", "lto_80" */
	guint64 flags;	      /* FATBIN_FLAG_* and others */
	gboolean compressed;
	const char *compression; /* "zstd", "lz4", "unknown" or NULL */
	guint64 size;	      /* stored payload bytes */
	guint64 uncompressed_size; /* as recorded; 0 if not recorded */
	char *name;	      /* the entry's name, or NULL */
	const guint8 *payload; /* the stored bytes, inside the input buffer */
	gsize offset;	      /* of the entry header in fatbin_parse()'s data */
	gsize container;      /* of its fatbin's header there: one per TU */
	char *sha256;	      /* of the image's bytes, uncompressed, lowercase hex */
	char *stored_sha256;  /* of the payload as stored (compressed or not) */
	gboolean hashed_stored; /* compressed, but in a format cugen does not
				 * read (LTO-IR): sha256 is of the stored bytes */
	char *norm_sha256;    /* normalised (imagehash.h): an ELF image without
			       * the tools' command lines */
} FatbinImage;

void fatbin_image_free(FatbinImage *img);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(FatbinImage, fatbin_image_free)

/* TRUE if data starts with the fatbin magic. */
gboolean fatbin_is_fatbin(const void *data, gsize len);

/* Parse the fatbins in data (a .fatbin file or a fatbin section: any
 * number of 8-byte aligned containers, with zero padding between them)
 * and append a FatbinImage for each entry to images, in order. Images
 * appended before an error stay in images. */
gboolean fatbin_parse(const void *data, gsize len, GPtrArray *images,
		      GError **err);

/* TRUE if elf is a CUDA device ELF (a cubin). */
gboolean fatbin_is_cubin(const ElfFile *elf);

/* A bare cubin as one image: kind elf, the architecture from e_flags
 * (the 'a'/'f' suffix from the ptxas/nvlink options recorded in
 * .note.nv.tkinfo, or the accelerator bit), the whole file as payload. */
FatbinImage *fatbin_cubin_image(const ElfFile *elf, GError **err);

/* Names of the host ELF sections that hold fatbins. */
extern const char *const fatbin_sections[];

#endif
