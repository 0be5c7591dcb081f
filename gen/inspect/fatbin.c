/* fatbin.c -- fatbin containers, their entries, and bare cubins; see
 * fatbin.h for the layout.
 *
 * Every field read from the input is checked against the container it
 * belongs to before use, so corrupt input gives an error, never a read
 * outside the buffer. An image is hashed uncompressed (imagehash.c), as
 * cuobjdump would extract it; the stored bytes have a hash of their own.
 */
#include "fatbin.h"

#include <string.h>

#include "imagehash.h"
#include "util.h"

#define CONTAINER_HDR 16
#define ENTRY_HDR 64

const char *const fatbin_sections[] = { ".nv_fatbin", "__nv_relfatbin",
					NULL };

void fatbin_image_free(FatbinImage *img)
{
	if (!img)
		return;
	g_free(img->kind_name);
	g_free(img->arch);
	g_free(img->name);
	g_free(img->sha256);
	g_free(img->stored_sha256);
	g_free(img->norm_sha256);
	g_free(img);
}

static char *kind_name(guint kind)
{
	switch (kind) {
	case FATBIN_KIND_PTX:
		return g_strdup("ptx");
	case FATBIN_KIND_ELF:
		return g_strdup("elf");
	case FATBIN_KIND_NVVM:
		return g_strdup("nvvm");
	default:
		return g_strdup_printf("kind%u", kind);
	}
}

/* nvcc's names: sm_NN for SASS, compute_NN for PTX, lto_NN for LTO-IR,
 * with the arch-specific ('a') or family ('f') suffix. */
static char *arch_name(guint kind, guint sm, const char *suffix)
{
	const char *prefix = kind == FATBIN_KIND_PTX    ? "compute_"
			     : kind == FATBIN_KIND_NVVM ? "lto_"
							: "sm_";
	return g_strdup_printf("%s%u%s", prefix, sm, suffix);
}

gboolean fatbin_is_fatbin(const void *data, gsize len)
{
	return len >= 4 && cg_rd32(data) == FATBIN_MAGIC;
}

/* The image's identity: the sha256 and the normalised hash
 * (imagehash.h) of its bytes, uncompressed (csize: the stored bytes of a
 * compressed payload, 0 when not recorded). */
static gboolean image_hashes(FatbinImage *img, gsize csize, GError **err)
{
	const guint8 *bytes = img->payload;
	gsize n = img->size;
	g_autoptr(GBytes) plain = NULL;
	/* LTO-IR entries carry the zstd bit over bytes of another format
	 * (flag 0x10000, no zstd magic): those are hashed as stored */
	static const guint8 zstd_magic[4] = { 0x28, 0xb5, 0x2f, 0xfd };
	gboolean opaque = img->compressed && strcmp(img->compression, "zstd") == 0 &&
			  (img->size < 4 || memcmp(img->payload, zstd_magic, 4) != 0);
	if (img->compressed && strcmp(img->compression, "unknown") != 0 && !opaque) {
		if (!csize || csize > img->size)
			csize = img->size;
		plain = image_uncompress(img->compression, img->payload, csize, img->uncompressed_size, err);
		if (!plain)
			return FALSE;
		bytes = g_bytes_get_data(plain, &n);
	}
	img->hashed_stored = img->compressed && !plain;
	img->sha256 = g_compute_checksum_for_data(G_CHECKSUM_SHA256, bytes, n);
	img->norm_sha256 = img->kind == FATBIN_KIND_ELF ? image_norm_sha256(bytes, n) : g_strdup(img->sha256);
	return TRUE;
}

/* One entry at e (header and payload within [e, e + avail)). */
static FatbinImage *parse_entry(const guint8 *base, gsize at, gsize avail,
				gsize *used, GError **err)
{
	const guint8 *e = base + at;
	if (avail < ENTRY_HDR) {
		cg_error(err, "truncated fatbin entry header at offset %"
			 G_GSIZE_FORMAT, at);
		return NULL;
	}
	guint32 hsize = cg_rd32(e + 4);
	guint64 psize = cg_rd64(e + 8);
	if (hsize < ENTRY_HDR || hsize > avail) {
		cg_error(err, "bad fatbin entry header size %u at offset %"
			 G_GSIZE_FORMAT, hsize, at);
		return NULL;
	}
	if (psize > avail - hsize) {
		cg_error(err, "fatbin entry at offset %" G_GSIZE_FORMAT
			 " (%" G_GUINT64_FORMAT " bytes) runs past the end of "
			 "its fatbin", at, psize);
		return NULL;
	}
	guint32 noff = cg_rd32(e + 32), nlen = cg_rd32(e + 36);
	if (nlen && (noff > hsize || nlen > hsize - noff)) {
		cg_error(err, "bad name in the fatbin entry at offset %"
			 G_GSIZE_FORMAT, at);
		return NULL;
	}
	guint64 flags = cg_rd64(e + 40);
	const char *suffix = (flags & FATBIN_FLAG_ARCH_A) &&
					     (flags & FATBIN_FLAG_ARCH_F)
				     ? "af"
			     : (flags & FATBIN_FLAG_ARCH_A) ? "a"
			     : (flags & FATBIN_FLAG_ARCH_F) ? "f"
							    : "";
	FatbinImage *img = g_new0(FatbinImage, 1);
	img->kind = cg_rd16(e);
	img->kind_name = kind_name(img->kind);
	img->sm = cg_rd32(e + 28);
	img->arch = arch_name(img->kind, img->sm, suffix);
	img->flags = flags;
	img->size = psize;
	img->uncompressed_size = cg_rd64(e + 56);
	if (flags & FATBIN_FLAG_ZSTD)
		img->compression = "zstd";
	else if (flags & FATBIN_FLAG_LZ4)
		img->compression = "lz4";
	else if (img->uncompressed_size)
		img->compression = "unknown";
	img->compressed = img->compression != NULL;
	if (nlen) {
		char *n = g_strndup((const char *)e + noff, nlen);
		if (*n)
			img->name = n;
		else
			g_free(n);
	}
	img->payload = e + hsize;
	img->offset = at;
	img->stored_sha256 = g_compute_checksum_for_data(G_CHECKSUM_SHA256,
							 img->payload, psize);
	*used = hsize + psize;
	if (!image_hashes(img, cg_rd32(e + 16), err)) {
		fatbin_image_free(img);
		return NULL;
	}
	return img;
}

static gboolean all_zero(const guint8 *p, gsize n)
{
	for (gsize i = 0; i < n; i++)
		if (p[i])
			return FALSE;
	return TRUE;
}

gboolean fatbin_parse(const void *data, gsize len, GPtrArray *images,
		      GError **err)
{
	const guint8 *d = data;
	gsize pos = 0;
	while (pos < len) {
		gsize rest = len - pos;
		if (rest < 4 || cg_rd32(d + pos) != FATBIN_MAGIC) {
			/* zero padding between containers */
			gsize n = MIN(rest, 8);
			if (!all_zero(d + pos, n)) {
				cg_error(err, "no fatbin header at offset %"
					 G_GSIZE_FORMAT, pos);
				return FALSE;
			}
			pos += n;
			continue;
		}
		if (rest < CONTAINER_HDR) {
			cg_error(err, "truncated fatbin header at offset %"
				 G_GSIZE_FORMAT, pos);
			return FALSE;
		}
		guint16 version = cg_rd16(d + pos + 4);
		guint16 hsize = cg_rd16(d + pos + 6);
		guint64 body = cg_rd64(d + pos + 8);
		if (version != 1) {
			cg_error(err, "unsupported fatbin version %u at "
				 "offset %" G_GSIZE_FORMAT, version, pos);
			return FALSE;
		}
		if (hsize < CONTAINER_HDR || hsize > rest ||
		    body > rest - hsize) {
			cg_error(err, "truncated fatbin at offset %"
				 G_GSIZE_FORMAT " (%" G_GUINT64_FORMAT
				 " bytes of entries, %" G_GSIZE_FORMAT
				 " left)", pos, body, rest);
			return FALSE;
		}
		gsize p = pos + hsize, end = p + (gsize)body;
		while (p < end) {
			gsize used;
			FatbinImage *img = parse_entry(d, p, end - p, &used,
						       err);
			if (!img)
				return FALSE;
			img->container = pos;
			g_ptr_array_add(images, img);
			p += used;
		}
		/* The next container starts 8-aligned. */
		pos = end + ((8 - end % 8) % 8);
	}
	return TRUE;
}

gboolean fatbin_is_cubin(const ElfFile *elf)
{
	return elf->machine == ELF_EM_CUDA;
}

/* The 'a'/'f' suffix of sm_<sm> in the "-arch sm_100f" (ptxas) or
 * "--arch=sm_100f" option text that .note.nv.tkinfo records. Sets *found
 * if the option was there at all. */
static const char *tkinfo_suffix(const guint8 *p, gsize n, guint sm,
				 gboolean *found)
{
	g_autofree char *pat = g_strdup_printf("arch sm_%u", sm);
	gsize plen = strlen(pat);
	*found = FALSE;
	for (gsize i = 0; i + plen <= n; i++) {
		if (memcmp(p + i, pat, 4) != 0 ||
		    (p[i + 4] != ' ' && p[i + 4] != '=') ||
		    memcmp(p + i + 5, pat + 5, plen - 5) != 0)
			continue;
		gsize j = i + plen;
		char c = j < n ? (char)p[j] : '\0';
		char next = j + 1 < n ? (char)p[j + 1] : '\0';
		gboolean end = c == ' ' || c == '\0' || c == ',';
		gboolean next_end = next == ' ' || next == '\0' || next == ',';
		if (end) {
			*found = TRUE;
			return "";
		}
		if ((c == 'a' || c == 'f') && next_end) {
			*found = TRUE;
			return c == 'a' ? "a" : "f";
		}
	}
	return "";
}

FatbinImage *fatbin_cubin_image(const ElfFile *elf, GError **err)
{
	/* e_flags: ABI version 8 (CUDA 12.8+) keeps the SM in bits 8-15 and
	 * the accelerator ('a') bit at 0x8; older ABIs the SM in the low
	 * byte and 'a' at 0x800. ptxas 13.0 sets neither 'a' bit, so the
	 * option text decides where it is there. */
	guint sm;
	gboolean accel;
	if (elf->abiversion >= 8) {
		sm = (elf->flags >> 8) & 0xff;
		accel = (elf->flags & 0x8) != 0;
	} else {
		sm = elf->flags & 0xff;
		accel = (elf->flags & 0x800) != 0;
	}
	if (sm == 0) {
		cg_error(err, "cubin without an SM number in its ELF flags "
			 "(0x%x)", elf->flags);
		return NULL;
	}
	const char *suffix = accel ? "a" : "";
	const ElfSection *note = elf_find_section(elf, ".note.nv.tkinfo");
	if (note) {
		const guint8 *nd;
		gsize nlen;
		gboolean found;
		if (!elf_section_data(elf, note, &nd, &nlen, err))
			return NULL;
		const char *s = tkinfo_suffix(nd, nlen, sm, &found);
		if (found && *s)
			suffix = s;
	}
	FatbinImage *img = g_new0(FatbinImage, 1);
	img->kind = FATBIN_KIND_ELF;
	img->kind_name = kind_name(img->kind);
	img->sm = sm;
	img->arch = arch_name(img->kind, sm, suffix);
	img->size = elf->len;
	img->payload = elf->data;
	img->stored_sha256 = g_compute_checksum_for_data(G_CHECKSUM_SHA256,
							 elf->data, elf->len);
	img->sha256 = g_strdup(img->stored_sha256);
	img->norm_sha256 = image_norm_sha256(elf->data, elf->len);
	return img;
}
