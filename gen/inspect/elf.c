/* elf.c -- ELF64 section tables and ar archive members; see elf.h.
 *
 * Every offset read from the input is checked against the buffer before
 * use, with overflow-safe arithmetic (in_range()), so truncated or corrupt
 * files give errors. Multi-byte fields are read with memcpy, never through
 * casts, so the buffer needs no particular alignment.
 */
#include "elf.h"

#include <string.h>

#include "util.h"

#define EHDR_SIZE 64
#define SHDR_SIZE 64
#define PHDR_SIZE 56
#define SHN_UNDEF 0
#define SHN_LORESERVE 0xff00
#define SHN_XINDEX 0xffff

/* [off, off + size) lies within [0, len). */
static gboolean in_range(guint64 off, guint64 size, gsize len)
{
	return off <= len && size <= len - off;
}

gboolean elf_is_elf(const void *data, gsize len)
{
	return len >= 4 && memcmp(data, "\177ELF", 4) == 0;
}

void elf_free(ElfFile *elf)
{
	if (!elf)
		return;
	g_array_unref(elf->sections);
	g_free(elf);
}

typedef struct {
	guint32 name;
	guint32 type;
	guint64 flags;
	guint64 offset;
	guint64 size;
	guint32 link;
} RawShdr;

static RawShdr read_shdr(const guint8 *p)
{
	RawShdr s;
	s.name = cg_rd32(p);
	s.type = cg_rd32(p + 4);
	s.flags = cg_rd64(p + 8);
	s.offset = cg_rd64(p + 24);
	s.size = cg_rd64(p + 32);
	s.link = cg_rd32(p + 40);
	return s;
}

ElfFile *elf_open(const void *data, gsize len, GError **err)
{
	const guint8 *d = data;
	if (!elf_is_elf(data, len)) {
		cg_error(err, "not an ELF file");
		return NULL;
	}
	if (len < EHDR_SIZE) {
		cg_error(err, "truncated ELF header (%" G_GSIZE_FORMAT
			 " bytes)", len);
		return NULL;
	}
	if (d[4] != 2) {
		cg_error(err, "unsupported ELF class %u (only 64-bit ELF)",
			 d[4]);
		return NULL;
	}
	if (d[5] != 1) {
		cg_error(err, "unsupported ELF byte order %u "
			 "(only little-endian ELF)", d[5]);
		return NULL;
	}
	guint64 phoff = cg_rd64(d + 0x20);
	guint16 phentsize = cg_rd16(d + 0x36);
	guint16 phnum = cg_rd16(d + 0x38);
	if (phnum && (phentsize < PHDR_SIZE ||
		      !in_range(phoff, (guint64)phnum * phentsize, len))) {
		cg_error(err, "ELF program header table (%u entries at offset %"
			 G_GUINT64_FORMAT ") lies outside the file (%"
			 G_GSIZE_FORMAT " bytes)", phnum, phoff, len);
		return NULL;
	}
	guint64 shoff = cg_rd64(d + 0x28);
	guint16 shentsize = cg_rd16(d + 0x3a);
	guint64 shnum = cg_rd16(d + 0x3c);
	guint32 shstrndx = cg_rd16(d + 0x3e);

	g_autoptr(GArray) secs = g_array_new(FALSE, TRUE, sizeof(ElfSection));
	if (shoff == 0) /* no section table (possible after strip) */
		goto done;
	if (shentsize < SHDR_SIZE) {
		cg_error(err, "bad ELF section header size %u", shentsize);
		return NULL;
	}
	if (!in_range(shoff, shentsize, len)) {
		cg_error(err, "ELF section table at offset %" G_GUINT64_FORMAT
			 " lies outside the file (%" G_GSIZE_FORMAT " bytes)",
			 shoff, len);
		return NULL;
	}
	/* Extended numbering: the real count and string table index live in
	 * section 0. */
	RawShdr s0 = read_shdr(d + shoff);
	if (shnum == 0)
		shnum = s0.size;
	if (shstrndx == SHN_XINDEX)
		shstrndx = s0.link;
	if (shnum > (len - shoff) / shentsize) {
		cg_error(err, "ELF section table (%" G_GUINT64_FORMAT
			 " entries at offset %" G_GUINT64_FORMAT
			 ") runs past the end of the file (%" G_GSIZE_FORMAT
			 " bytes)", shnum, shoff, len);
		return NULL;
	}
	const guint8 *strtab = NULL;
	guint64 strsize = 0;
	if (shstrndx != SHN_UNDEF) {
		if (shstrndx >= shnum) {
			cg_error(err, "bad ELF section name table index %u "
				 "(%" G_GUINT64_FORMAT " sections)",
				 shstrndx, shnum);
			return NULL;
		}
		RawShdr ss = read_shdr(d + shoff + shstrndx * shentsize);
		if (ss.type == ELF_SHT_NOBITS ||
		    !in_range(ss.offset, ss.size, len)) {
			cg_error(err, "ELF section name table lies outside "
				 "the file");
			return NULL;
		}
		strtab = d + ss.offset;
		strsize = ss.size;
	}
	g_array_set_size(secs, shnum);
	for (guint64 i = 0; i < shnum; i++) {
		RawShdr s = read_shdr(d + shoff + i * shentsize);
		ElfSection *e = &g_array_index(secs, ElfSection, i);
		e->type = s.type;
		e->flags = s.flags;
		e->offset = s.offset;
		e->size = s.size;
		e->name = "";
		if (!strtab)
			continue;
		if (s.name >= strsize ||
		    !memchr(strtab + s.name, 0, strsize - s.name)) {
			cg_error(err, "bad name of ELF section %"
				 G_GUINT64_FORMAT, i);
			return NULL;
		}
		e->name = (const char *)strtab + s.name;
	}
done:;
	ElfFile *elf = g_new0(ElfFile, 1);
	elf->data = d;
	elf->len = len;
	elf->type = cg_rd16(d + 0x10);
	elf->machine = cg_rd16(d + 0x12);
	elf->abiversion = d[8];
	elf->flags = cg_rd32(d + 0x30);
	elf->sections = g_steal_pointer(&secs);
	return elf;
}

const ElfSection *elf_find_section(const ElfFile *elf, const char *name)
{
	for (guint i = 0; i < elf->sections->len; i++) {
		const ElfSection *s =
			&g_array_index(elf->sections, ElfSection, i);
		if (strcmp(s->name, name) == 0)
			return s;
	}
	return NULL;
}

gboolean elf_section_data(const ElfFile *elf, const ElfSection *sec,
			  const guint8 **data, gsize *len, GError **err)
{
	if (sec->type == ELF_SHT_NOBITS) {
		*data = elf->data;
		*len = 0;
		return TRUE;
	}
	if (!in_range(sec->offset, sec->size, elf->len)) {
		cg_error(err, "ELF section %s (offset %" G_GUINT64_FORMAT
			 ", %" G_GUINT64_FORMAT " bytes) lies outside the file "
			 "(%" G_GSIZE_FORMAT " bytes)", sec->name, sec->offset,
			 sec->size, elf->len);
		return FALSE;
	}
	*data = elf->data + sec->offset;
	*len = sec->size;
	return TRUE;
}

/* ---- ar archives ---- */

#define AR_MAGIC "!<arch>\n"
#define AR_THIN "!<thin>\n"
#define AR_HDR 60

gboolean ar_is_archive(const void *data, gsize len)
{
	return len >= 8 && (memcmp(data, AR_MAGIC, 8) == 0 ||
			    memcmp(data, AR_THIN, 8) == 0);
}

gboolean ar_init(ArIter *it, const void *data, gsize len, GError **err)
{
	memset(it, 0, sizeof *it);
	if (len >= 8 && memcmp(data, AR_THIN, 8) == 0) {
		cg_error(err, "thin archive: its members are not stored in "
			 "it; inspect the member files instead");
		return FALSE;
	}
	if (!ar_is_archive(data, len)) {
		cg_error(err, "not an ar archive");
		return FALSE;
	}
	it->data = data;
	it->len = len;
	it->pos = 8;
	return TRUE;
}

void ar_clear(ArIter *it)
{
	g_clear_pointer(&it->name, g_free);
}

/* A decimal header field: digits, then spaces to the end. */
static gboolean parse_dec(const guint8 *p, gsize n, guint64 *out)
{
	guint64 v = 0;
	gsize i = 0;
	for (; i < n && g_ascii_isdigit(p[i]); i++) {
		if (v > (G_MAXUINT64 - 9) / 10)
			return FALSE;
		v = v * 10 + (guint64)(p[i] - '0');
	}
	if (i == 0)
		return FALSE;
	for (; i < n; i++)
		if (p[i] != ' ')
			return FALSE;
	*out = v;
	return TRUE;
}

/* The name field without its padding (and GNU's trailing '/'). */
static char *short_name(const guint8 *p)
{
	gsize n = 16;
	while (n > 0 && p[n - 1] == ' ')
		n--;
	if (n > 1 && p[n - 1] == '/')
		n--;
	return g_strndup((const char *)p, n);
}

gboolean ar_next(ArIter *it, ArMember *m, GError **err)
{
	for (;;) {
		g_clear_pointer(&it->name, g_free);
		if (it->pos % 2 && it->pos < it->len)
			it->pos++; /* members start at even offsets */
		if (it->pos >= it->len)
			return FALSE;
		gsize at = it->pos;
		if (it->len - at < AR_HDR) {
			cg_error(err, "truncated archive member header at "
				 "offset %" G_GSIZE_FORMAT, at);
			return FALSE;
		}
		const guint8 *h = it->data + at;
		guint64 size;
		if (h[58] != '`' || h[59] != '\n' ||
		    !parse_dec(h + 48, 10, &size)) {
			cg_error(err, "bad archive member header at offset %"
				 G_GSIZE_FORMAT, at);
			return FALSE;
		}
		gsize body = at + AR_HDR;
		if (!in_range(body, size, it->len)) {
			cg_error(err, "archive member at offset %"
				 G_GSIZE_FORMAT " (%" G_GUINT64_FORMAT
				 " bytes) runs past the end of the file", at,
				 size);
			return FALSE;
		}
		it->pos = body + size;
		const guint8 *d = it->data + body;
		gsize dsize = size;

		if (h[0] == '/' && h[1] == '/' && h[2] == ' ') {
			/* GNU long-name table */
			it->longnames = (const char *)d;
			it->longnames_len = dsize;
			continue;
		}
		if (h[0] == '/' && (h[1] == ' ' ||
				    memcmp(h, "/SYM64/ ", 8) == 0))
			continue; /* GNU symbol table */
		if (h[0] == '/' && g_ascii_isdigit(h[1])) {
			guint64 off;
			if (!parse_dec(h + 1, 15, &off) || !it->longnames ||
			    off >= it->longnames_len) {
				cg_error(err, "bad long member name at offset %"
					 G_GSIZE_FORMAT, at);
				return FALSE;
			}
			const char *s = it->longnames + off;
			gsize rest = it->longnames_len - off, n = 0;
			while (n < rest && s[n] != '\n' && s[n] != '\0')
				n++;
			if (n > 0 && s[n - 1] == '/')
				n--;
			it->name = g_strndup(s, n);
		} else if (memcmp(h, "#1/", 3) == 0) {
			/* BSD: the name precedes the contents. */
			guint64 n;
			if (!parse_dec(h + 3, 13, &n) || n > dsize) {
				cg_error(err, "bad long member name at offset %"
					 G_GSIZE_FORMAT, at);
				return FALSE;
			}
			it->name = g_strndup((const char *)d, n);
			d += n;
			dsize -= n;
		} else {
			it->name = short_name(h);
		}
		if (g_str_has_prefix(it->name, "__.SYMDEF"))
			continue; /* BSD symbol table */
		m->name = it->name;
		m->data = d;
		m->size = dsize;
		m->offset = (gsize)(d - it->data);
		return TRUE;
	}
}
