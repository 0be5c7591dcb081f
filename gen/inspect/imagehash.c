/* imagehash.c -- image bytes and hashes; see imagehash.h. */
#include "imagehash.h"

#include <lz4.h>
#include <string.h>
#include <zstd.h>

#include "elf.h"
#include "util.h"

GBytes *image_uncompress(const char *algo, const guint8 *data, gsize csize, guint64 usize, GError **err)
{
	if (g_strcmp0(algo, "zstd") == 0) {
		unsigned long long n = ZSTD_getFrameContentSize(data, csize);
		if (n == ZSTD_CONTENTSIZE_ERROR) {
			cg_error(err, "damaged zstd data in a fatbin entry");
			return NULL;
		}
		if (n == ZSTD_CONTENTSIZE_UNKNOWN)
			n = usize;
		if (n == 0 || n > IMAGE_MAX_BYTES || (usize && n != usize)) {
			cg_error(err, "a compressed fatbin entry of %llu bytes uncompressed (recorded: %" G_GUINT64_FORMAT
				      ")", n, usize);
			return NULL;
		}
		guint8 *out = g_malloc(n);
		size_t got = ZSTD_decompress(out, n, data, csize);
		if (ZSTD_isError(got) || got != n) {
			g_free(out);
			cg_error(err, "damaged zstd data in a fatbin entry");
			return NULL;
		}
		return g_bytes_new_take(out, n);
	}
	if (g_strcmp0(algo, "lz4") == 0) {
		if (usize == 0 || usize > IMAGE_MAX_BYTES || csize > (gsize)LZ4_MAX_INPUT_SIZE) {
			cg_error(err, "an lz4 fatbin entry without a usable uncompressed size (%" G_GUINT64_FORMAT ")",
				 usize);
			return NULL;
		}
		guint8 *out = g_malloc(usize);
		int got = LZ4_decompress_safe((const char *)data, (char *)out, (int)csize, (int)usize);
		if (got < 0 || (guint64)got != usize) {
			g_free(out);
			cg_error(err, "damaged lz4 data in a fatbin entry");
			return NULL;
		}
		return g_bytes_new_take(out, usize);
	}
	cg_error(err, "a fatbin entry compressed in an unknown way");
	return NULL;
}

char *image_norm_sha256(const guint8 *data, gsize len)
{
	g_autoptr(ElfFile) elf = elf_is_elf(data, len) ? elf_open(data, len, NULL) : NULL;
	if (!elf)
		return g_compute_checksum_for_data(G_CHECKSUM_SHA256, data, len);
	GChecksum *sum = g_checksum_new(G_CHECKSUM_SHA256);
	/* of the header, what says which code it is (not where sections lie) */
	char head[96];
	int hn = g_snprintf(head, sizeof head, "elf %u %u %u %u\n", elf->type, elf->machine, elf->abiversion,
			    elf->flags);
	g_checksum_update(sum, (const guchar *)head, hn);
	for (guint i = 0; i < elf->sections->len; i++) {
		const ElfSection *s = &g_array_index(elf->sections, ElfSection, i);
		if (s->name && strcmp(s->name, ".note.nv.tkinfo") == 0)
			continue;
		const guint8 *d = NULL;
		gsize n = 0;
		if (!elf_section_data(elf, s, &d, &n, NULL))
			n = 0;
		hn = g_snprintf(head, sizeof head, "%u %" G_GUINT64_FORMAT " %" G_GSIZE_FORMAT "\n", s->type,
				    s->flags, n);
		g_checksum_update(sum, (const guchar *)(s->name ? s->name : ""), -1);
		g_checksum_update(sum, (const guchar *)head, hn);
		if (n)
			g_checksum_update(sum, d, n);
	}
	char *r = g_strdup(g_checksum_get_string(sum));
	g_checksum_free(sum);
	return r;
}
