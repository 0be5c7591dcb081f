/* elf.h -- reading ELF64 files and ar archives from memory.
 *
 * Owns: the ELF64 little-endian header and section table (relocatable
 * objects, executables, shared libraries, cubins) and the members of ar
 * archives (GNU and BSD long names). Everything reads from a caller-owned
 * buffer that must outlive the returned objects; nothing reads outside it,
 * and malformed input gives a GError, never a crash.
 */
#ifndef CUGEN_ELF_H
#define CUGEN_ELF_H

#include <glib.h>

#define ELF_SHT_NOBITS 8
#define ELF_EM_CUDA 190

typedef struct {
	const char *name; /* points into the buffer's section name table */
	guint32 type;
	guint64 flags;
	guint64 offset;
	guint64 size;
} ElfSection;

typedef struct {
	const guint8 *data; /* the whole file */
	gsize len;
	guint16 type;	   /* e_type: 1 relocatable, 2 executable, 3 shared */
	guint16 machine;   /* e_machine: 62 x86-64, 190 CUDA, ... */
	guint8 abiversion; /* e_ident[EI_ABIVERSION] */
	guint32 flags;	   /* e_flags */
	GArray *sections;  /* of ElfSection, in section table order */
} ElfFile;

/* TRUE if data starts with the ELF magic (any class or byte order). */
gboolean elf_is_elf(const void *data, gsize len);

/* Read the header and section table of an ELF64 little-endian file. */
ElfFile *elf_open(const void *data, gsize len, GError **err);
void elf_free(ElfFile *elf);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(ElfFile, elf_free)

/* The first section called name, or NULL. */
const ElfSection *elf_find_section(const ElfFile *elf, const char *name);

/* The bytes of a section (an empty range for SHT_NOBITS); FALSE with err
 * set if the section lies outside the file. */
gboolean elf_section_data(const ElfFile *elf, const ElfSection *sec,
			  const guint8 **data, gsize *len, GError **err);

/* ---- ar archives ---- */

/* TRUE if data starts with "!<arch>\n" (or the thin "!<thin>\n"). */
gboolean ar_is_archive(const void *data, gsize len);

typedef struct {
	const char *name;   /* valid until the next ar_next() or ar_clear() */
	const guint8 *data; /* the member's contents, inside the buffer */
	gsize size;
	gsize offset; /* of the contents within the archive */
} ArMember;

typedef struct {
	const guint8 *data;
	gsize len;
	gsize pos;
	const char *longnames; /* GNU "//" member, or NULL */
	gsize longnames_len;
	char *name;
} ArIter;

/* Start iterating over the members of an archive (FALSE and err set if
 * data is no archive or a thin one, whose members live elsewhere). */
gboolean ar_init(ArIter *it, const void *data, gsize len, GError **err);
/* Step to the next ordinary member, skipping symbol tables and the GNU
 * long-name table. FALSE at the end (err untouched) or on malformed input
 * (err set; iteration cannot continue). */
gboolean ar_next(ArIter *it, ArMember *m, GError **err);
void ar_clear(ArIter *it);

#endif
