/* inspect.c -- `cugen inspect [--json] FILE...`: list the GPU images in
 * objects, static libraries, executables, shared libraries, cubins and
 * fatbins, and the bytes each architecture adds to each file.
 *
 * Owns: the command line of `inspect`, the walk over a file's parts
 * (inspect_data()) and both output formats:
 *   FILE[ member(M)]: WHERE #I KIND ARCH size=N sha256=HEX16[ [debug]]
 *       [ [compressed ALGO, N bytes uncompressed]]
 *   (sha256: of the image uncompressed; norm=HEX16 with --normalized)
 *   FILE: total ARCH=N...          (stored bytes per arch, sorted)
 *   FILE: no GPU images
 * and with --json one array of image objects (each with the compute
 * capabilities it runs on); with --cuda-arch per FILE the capabilities
 * all its images cover and the cuda-arch spec of a conda package of it:
 *   FILE: runs on 7.5-8.x, 9.0+ [(cuda-arch >=7.5)]
 */
#include "inspect.h"
#include "safepath.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capability.h"
#include "commands.h"
#include "elf.h"
#include "jsonout.h"
#include "util.h"

void inspect_image_free(InspectImage *im)
{
	if (!im)
		return;
	g_free(im->member);
	g_free(im->section);
	fatbin_image_free(im->img);
	g_free(im);
}

/* The message of an error made by cg_error(), without "error: ". */
static const char *bare(const GError *e)
{
	const char *m = e->message;
	return g_str_has_prefix(m, "error: ") ? m + 7 : m;
}

/* Add "error: PREFIX: MESSAGE" to errors, and clear *e. */
static void add_error(GPtrArray *errors, const char *prefix, GError **e)
{
	GError *n = NULL;
	if (prefix)
		cg_error(&n, "%s: %s", prefix, bare(*e));
	else
		cg_error(&n, "%s", bare(*e));
	g_ptr_array_add(errors, n);
	g_clear_error(e);
}

/* s with control characters replaced, to keep a line one line. */
static char *printable(const char *s)
{
	char *r = g_strdup(s);
	for (char *p = r; *p; p++)
		if ((guchar)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return r;
}

/* Move parsed images into out, labelled. */
static void take_images(GPtrArray *out, GPtrArray *imgs, const char *member,
			const char *section, const char *where)
{
	for (guint i = 0; i < imgs->len; i++) {
		InspectImage *im = g_new0(InspectImage, 1);
		im->member = g_strdup(member);
		im->section = g_strdup(section);
		im->where = section ? im->section : where;
		im->index = i + 1;
		im->img = g_ptr_array_index(imgs, i);
		g_ptr_array_add(out, im);
	}
	g_free(g_ptr_array_steal(imgs, NULL)); /* the images moved */
}

static GPtrArray *new_image_array(void)
{
	return g_ptr_array_new_with_free_func(
		(GDestroyNotify)fatbin_image_free);
}

/* An ELF file or a bare fatbin (alone or as an archive member). */
static void inspect_object(const guint8 *data, gsize len, const char *member,
			   GPtrArray *images, GPtrArray *errors)
{
	g_autofree char *pm = member ? printable(member) : NULL;
	g_autofree char *label =
		member ? g_strdup_printf("member(%s)", pm) : NULL;
	g_autoptr(GPtrArray) imgs = new_image_array();
	GError *e = NULL;

	if (fatbin_is_fatbin(data, len)) {
		if (!fatbin_parse(data, len, imgs, &e))
			add_error(errors, label, &e);
		take_images(images, imgs, member, NULL, "fatbin");
		return;
	}
	if (!elf_is_elf(data, len)) {
		cg_error(&e, "not an ELF file, ar archive or fatbin");
		add_error(errors, label, &e);
		return;
	}
	g_autoptr(ElfFile) elf = elf_open(data, len, &e);
	if (!elf) {
		add_error(errors, label, &e);
		return;
	}
	if (fatbin_is_cubin(elf)) {
		FatbinImage *img = fatbin_cubin_image(elf, &e);
		if (!img) {
			add_error(errors, label, &e);
			return;
		}
		g_ptr_array_add(imgs, img);
		take_images(images, imgs, member, NULL, "cubin");
		return;
	}
	for (guint i = 0; i < elf->sections->len; i++) {
		const ElfSection *s =
			&g_array_index(elf->sections, ElfSection, i);
		if (!g_strv_contains((const char *const *)fatbin_sections,
				     s->name) ||
		    s->type == ELF_SHT_NOBITS)
			continue;
		const guint8 *sd;
		gsize slen;
		g_autofree char *where =
			member ? g_strdup_printf("%s: %s", label, s->name)
			       : g_strdup(s->name); /* a known name */
		if (!elf_section_data(elf, s, &sd, &slen, &e) ||
		    !fatbin_parse(sd, slen, imgs, &e))
			add_error(errors, where, &e);
		take_images(images, imgs, member, s->name, NULL);
	}
}

gboolean inspect_data(const guint8 *data, gsize len, GPtrArray *images,
		      GPtrArray *errors)
{
	guint nerr = errors->len;
	if (!ar_is_archive(data, len)) {
		inspect_object(data, len, NULL, images, errors);
		return errors->len == nerr;
	}
	ArIter it;
	ArMember m;
	GError *e = NULL;
	if (!ar_init(&it, data, len, &e)) {
		add_error(errors, NULL, &e);
		return FALSE;
	}
	while (ar_next(&it, &m, &e))
		inspect_object(m.data, m.size, m.name, images, errors);
	if (e)
		add_error(errors, NULL, &e);
	ar_clear(&it);
	return errors->len == nerr;
}

/* ---- output ---- */

/* One image as a JSON object on one line. */
static void json_image(GString *out, const char *file, const InspectImage *im)
{
	const FatbinImage *img = im->img;
	JsonBuilder *b = json_builder_new();
	json_builder_begin_object(b);
	cg_json_str(b, "file", file);
	cg_json_str(b, "member", im->member);
	cg_json_str(b, "section", im->section);
	cg_json_int(b, "index", im->index);
	cg_json_str(b, "kind", img->kind_name);
	cg_json_str(b, "arch", img->arch);
	cg_json_int(b, "size", (gint64)img->size);
	json_builder_set_member_name(b, "uncompressed_size");
	if (!img->compressed || img->uncompressed_size)
		json_builder_add_int_value(b, (gint64)(img->compressed ? img->uncompressed_size : img->size));
	else
		json_builder_add_null_value(b);
	cg_json_bool(b, "compressed", img->compressed);
	cg_json_str(b, "compression", img->compression);
	cg_json_str(b, "name", img->name);
	cg_json_str(b, "sha256", img->sha256);
	cg_json_str(b, "stored_sha256", img->stored_sha256);
	cg_json_str(b, "norm_sha256", img->norm_sha256);
	/* the GPUs it runs on (capability.h), or null (LTO-IR) */
	CcRange r;
	json_builder_set_member_name(b, "compute_capability");
	if (cc_of_arch(img->arch, &r)) {
		json_builder_begin_object(b);
		char *lo = g_strdup_printf("%d.%d", r.lo / 10, r.lo % 10);
		char *hi = r.hi == CC_OPEN ? NULL : g_strdup_printf("%d.%d", r.hi / 10, r.hi % 10);
		cg_json_str(b, "min", lo);
		cg_json_str(b, "below", hi);
		g_free(lo);
		g_free(hi);
		json_builder_end_object(b);
	} else {
		json_builder_add_null_value(b);
	}
	json_builder_end_object(b);
	GString *one = cg_json_finish(b, FALSE);
	g_string_append(out, "  ");
	g_string_append_len(out, one->str, (gssize)one->len - 1);
	g_string_free(one, TRUE);
}

/* --normalized: the text lines give norm= hashes (imagehash.h) */
static gboolean normalized;
/* --cuda-arch: one line per FILE, the capabilities it covers */
static gboolean cuda_arch;

/* How a module is named in --cuda-arch's line: the TU (the image's name,
 * with line info), the archive member, or its fatbin's place. */
static char *module_name(const InspectImage *im)
{
	GString *o = g_string_new(NULL);
	if (im->member)
		g_string_append_printf(o, "%s", im->member);
	if (im->img->name && *im->img->name)
		g_string_append_printf(o, o->len ? " (%s)" : "%s", im->img->name);
	if (!o->len)
		g_string_append_printf(o, "the fatbin at %s+0x%" G_GSIZE_MODIFIER "x", im->where, im->img->container);
	return g_string_free(o, FALSE);
}

static void text_capability(GString *out, const char *file, GPtrArray *images)
{
	/* a module per embedded TU (each its own fatbin) and archive member:
	 * the program runs where every module has an image */
	const char **arch = g_new0(const char *, images->len + 1), **module = g_new0(const char *, images->len + 1);
	GPtrArray *keys = g_ptr_array_new_with_free_func(g_free);
	for (guint i = 0; i < images->len; i++) {
		const InspectImage *im = g_ptr_array_index(images, i);
		arch[i] = im->img->arch;
		char *k = g_strdup_printf("%s\n%s\n%" G_GSIZE_FORMAT, im->member ? im->member : "", im->where,
					  im->img->container);
		g_ptr_array_add(keys, k);
		module[i] = k;
	}
	const char *limiting = NULL;
	GArray *u = cc_cover_limited(arch, module, images->len, &limiting);
	GString *why = g_string_new(NULL);
	for (guint i = 0; limiting && i < images->len; i++) {
		if (module[i] != limiting)
			continue;
		const InspectImage *im = g_ptr_array_index(images, i);
		if (!why->len) {
			char *n = module_name(im);
			g_string_append_printf(why, "; limited by %s:", n);
			g_free(n);
		}
		g_string_append_printf(why, " %s", im->img->arch);
	}
	g_ptr_array_free(keys, TRUE);
	g_free(arch);
	g_free(module);
	char *d = cc_describe(u), *spec = cc_conda_spec(u);
	if (!u->len)
		g_string_append_printf(out, "%s: runs on no GPU as it is (%s)%s\n", file,
				       limiting ? "no capability every TU covers" : "no SASS or PTX image", why->str);
	else if (spec)
		g_string_append_printf(out, "%s: runs on %s (%s)%s\n", file, d, spec, why->str);
	else
		g_string_append_printf(out, "%s: runs on %s (not one range: no cuda-arch spec)%s\n", file, d, why->str);
	g_string_free(why, TRUE);
	g_free(spec);
	g_free(d);
	g_array_free(u, TRUE);
}

static void text_image(GString *out, const char *file, const InspectImage *im)
{
	const FatbinImage *img = im->img;
	g_autofree char *where = printable(im->where);
	g_string_append(out, file);
	if (im->member) {
		g_autofree char *m = printable(im->member);
		g_string_append_printf(out, " member(%s)", m);
	}
	g_string_append_printf(out, ": %s #%u %s %s size=%" G_GUINT64_FORMAT
			       " %s=%.16s", where, im->index,
			       img->kind_name, img->arch, img->size,
			       normalized ? "norm" : "sha256",
			       normalized ? img->norm_sha256 : img->sha256);
	if (img->flags & FATBIN_FLAG_DEBUG)
		g_string_append(out, " [debug]");
	if (img->compressed && img->uncompressed_size)
		g_string_append_printf(out, " [compressed %s, %"
				       G_GUINT64_FORMAT " bytes uncompressed%s]",
				       img->compression,
				       img->uncompressed_size,
				       img->hashed_stored ? ", hashed as stored" : "");
	else if (img->compressed)
		g_string_append_printf(out, " [compressed %s]",
				       img->compression);
	g_string_append_c(out, '\n');
}

typedef struct {
	guint kind;
	guint sm;
	const char *arch;
	guint64 total;
} ArchTotal;

static int kind_rank(guint kind)
{
	switch (kind) {
	case FATBIN_KIND_ELF:
		return 0;
	case FATBIN_KIND_PTX:
		return 1;
	case FATBIN_KIND_NVVM:
		return 2;
	default:
		return 3;
	}
}

/* SASS, then PTX, then LTO-IR; by SM number; by name. */
static int cmp_total(gconstpointer a, gconstpointer b)
{
	const ArchTotal *x = *(ArchTotal *const *)a;
	const ArchTotal *y = *(ArchTotal *const *)b;
	if (kind_rank(x->kind) != kind_rank(y->kind))
		return kind_rank(x->kind) - kind_rank(y->kind);
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (x->sm != y->sm)
		return x->sm < y->sm ? -1 : 1;
	return strcmp(x->arch, y->arch);
}

static void text_totals(GString *out, const char *file, GPtrArray *images)
{
	g_autoptr(GHashTable) by_arch =
		g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free);
	for (guint i = 0; i < images->len; i++) {
		const FatbinImage *img =
			((InspectImage *)g_ptr_array_index(images, i))->img;
		ArchTotal *t = g_hash_table_lookup(by_arch, img->arch);
		if (!t) {
			t = g_new0(ArchTotal, 1);
			t->kind = img->kind;
			t->sm = img->sm;
			t->arch = img->arch;
			g_hash_table_insert(by_arch, (gpointer)t->arch, t);
		}
		t->total += img->size;
	}
	g_autoptr(GPtrArray) list = g_ptr_array_new();
	GHashTableIter hi;
	gpointer v;
	g_hash_table_iter_init(&hi, by_arch);
	while (g_hash_table_iter_next(&hi, NULL, &v))
		g_ptr_array_add(list, v);
	g_ptr_array_sort(list, cmp_total);
	g_string_append_printf(out, "%s: total", file);
	for (guint i = 0; i < list->len; i++) {
		const ArchTotal *t = g_ptr_array_index(list, i);
		g_string_append_printf(out, " %s=%" G_GUINT64_FORMAT, t->arch,
				       t->total);
	}
	g_string_append_c(out, '\n');
}

/* The contents of path: mapped if it is a regular file, else read. */
static gboolean load(const char *path, GMappedFile **map, char **buf,
		     const guint8 **data, gsize *len, GError **err)
{
	*map = NULL;
	*buf = NULL;
	/* without blocking: a FIFO is refused below, not waited on */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		cg_error(err, "%s: %s", path, g_strerror(errno));
		return FALSE;
	}
	struct stat st;
	if (fstat(fd, &st) != 0) {
		cg_error(err, "%s: %s", path, g_strerror(errno));
		close(fd);
		return FALSE;
	}
	if (S_ISDIR(st.st_mode)) {
		cg_error(err, "%s: is a directory (name an object, library, executable, cubin or fatbin in it)", path);
		close(fd);
		return FALSE;
	}
	if (S_ISREG(st.st_mode)) {
		GError *e = NULL;
		*map = g_mapped_file_new_from_fd(fd, FALSE, &e);
		close(fd);
		if (!*map) {
			cg_error(err, "%s: %s", path, e->message);
			g_error_free(e);
			return FALSE;
		}
		*data = (const guint8 *)g_mapped_file_get_contents(*map);
		*len = g_mapped_file_get_length(*map);
		if (!*data)
			*data = (const guint8 *)"";
		return TRUE;
	}
	/* a FIFO, a device (/dev/zero never ends): not read */
	close(fd);
	cg_error(err, "%s: not a regular file", path);
	return FALSE;
}

/* The value of KEY='VALUE' in a libtool file's text, or NULL. */
static char *lt_value(const char *text, const char *key)
{
	g_autofree char *pat = g_strconcat("\n", key, "='", NULL);
	const char *p = strstr(text, pat);
	if (!p)
		return NULL;
	p += strlen(pat);
	const char *q = strchr(p, '\'');
	return q && !memchr(p, '\n', (gsize)(q - p)) ? g_strndup(p, (gsize)(q - p)) : NULL;
}

/* A libtool library (.la) or object (.lo), as libtool writes them: the
 * file it stands for (an uninstalled library's in .libs/ beside it: the
 * shared library, else the archive; an object's PIC object, else its
 * other one). NULL (err unset) for any other file. */
static char *libtool_file(const char *path, GError **err)
{
	gboolean la = g_str_has_suffix(path, ".la"), lo = g_str_has_suffix(path, ".lo");
	if (!la && !lo)
		return NULL;
	g_autofree char *text = cg_read_regular(path, 1 << 20, FALSE, NULL, NULL);
	if (!text || !strstr(text, "Generated by") || !strstr(text, "libtool"))
		return NULL;
	g_autofree char *body = g_strconcat("\n", text, NULL);
	const char *const keys[2][2] = { { "dlname", "old_library" }, { "pic_object", "non_pic_object" } };
	g_autofree char *dir = g_path_get_dirname(path);
	for (int k = 0; k < 2; k++) {
		g_autofree char *v = lt_value(body, keys[lo][k]);
		if (!v || !*v || strcmp(v, "none") == 0)
			continue;
		if (la) {
			char *uninst = g_build_filename(dir, ".libs", v, NULL);
			if (g_file_test(uninst, G_FILE_TEST_EXISTS))
				return uninst;
			g_free(uninst);
		}
		return g_build_filename(dir, v, NULL);
	}
	cg_error(err, "%s: a libtool file that names no library or object", path);
	return NULL;
}

/* One FILE: its lines to stdout, or its images to json; its errors to
 * stderr. FALSE on any error. A libtool .la or .lo is read through the
 * file it names. */
static gboolean inspect_path(const char *path, GString *json)
{
	g_autoptr(GMappedFile) map = NULL;
	g_autofree char *buf = NULL;
	const guint8 *data;
	gsize len;
	GError *e = NULL;
	g_autofree char *lt = libtool_file(path, &e);
	if (e) {
		cg_report(e);
		g_error_free(e);
		return FALSE;
	}
	if (!load(lt ? lt : path, &map, &buf, &data, &len, &e)) {
		cg_report(e);
		g_error_free(e);
		return FALSE;
	}
	g_autoptr(GPtrArray) images = g_ptr_array_new_with_free_func(
		(GDestroyNotify)inspect_image_free);
	g_autoptr(GPtrArray) errors =
		g_ptr_array_new_with_free_func((GDestroyNotify)g_error_free);
	if (len) {
		inspect_data(data, len, images, errors);
	} else {
		cg_error(&e, "empty file; not an ELF file, ar archive or "
			 "fatbin");
		g_ptr_array_add(errors, e);
	}
	g_autoptr(GString) out = g_string_new(NULL);
	for (guint i = 0; i < images->len && !cuda_arch; i++) {
		if (json) {
			g_string_append(json, json->len > 1 ? ",\n" : "\n");
			json_image(json, path, g_ptr_array_index(images, i));
		} else {
			text_image(out, path, g_ptr_array_index(images, i));
		}
	}
	if (cuda_arch && (images->len || !errors->len))
		text_capability(out, path, images);
	else if (!json && images->len)
		text_totals(out, path, images);
	else if (!json && !errors->len)
		g_string_append_printf(out, "%s: no GPU images\n", path);
	fwrite(out->str, 1, out->len, stdout);
	fflush(stdout);
	for (guint i = 0; i < errors->len; i++) {
		GError *n = NULL;
		cg_error(&n, "%s: %s", path,
			 bare(g_ptr_array_index(errors, i)));
		cg_report(n);
		g_error_free(n);
	}
	return errors->len == 0;
}

int cmd_inspect(int argc, char **argv)
{
	gboolean json = FALSE, help = FALSE;
	g_auto(GStrv) files = NULL;
	GOptionEntry entries[] = {
		{ "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print one JSON array of the images instead", NULL },
		{ "normalized", 0, 0, G_OPTION_ARG_NONE, &normalized,
		  "Each image's normalised hash (norm=, see cugen(1)) instead of sha256=", NULL },
		{ "cuda-arch", 0, 0, G_OPTION_ARG_NONE, &cuda_arch,
		  "Per FILE the compute capabilities its images run on, and the cuda-arch spec of a conda package of it", NULL },
		{ "help", 'h', 0, G_OPTION_ARG_NONE, &help, "Show this help and exit", NULL },
		{ G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY,
		  &files, NULL, NULL },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("FILE...");
	g_option_context_set_help_enabled(ctx, FALSE);
	g_option_context_add_main_entries(ctx, entries, NULL);
	g_option_context_set_summary(ctx,
		"List the GPU images embedded in objects, static libraries, executables,\n"
		"shared libraries, cubins and fatbins: one line per image, then per FILE the\n"
		"bytes each architecture adds to it.");
	g_option_context_set_description(ctx,
		"Exit status: 0 if every FILE was read, 1 if one could not be, 2 for bad\n"
		"usage.");
	g_set_prgname("cugen inspect");
	/* GOption removes what it parses (and frees it): give it a copy. */
	char **args = g_new0(char *, argc + 1);
	for (int i = 0; i < argc; i++)
		args[i] = g_strdup(argv[i]);
	GError *ge = NULL;
	gboolean parsed = g_option_context_parse_strv(ctx, &args, &ge);
	g_strfreev(args);
	if (!parsed) {
		GError *e = NULL;
		char *m = g_strdup(ge->message);
		if (*m)
			*m = g_ascii_tolower(*m);
		cg_usage_error(&e, "inspect: %s (see 'cugen inspect --help')",
			       m);
		g_free(m);
		g_error_free(ge);
		int rc = cg_report(e);
		g_error_free(e);
		return rc;
	}
	if (help) {
		char *h = g_option_context_get_help(ctx, TRUE, NULL);
		fputs(h, stdout);
		g_free(h);
		return 0;
	}
	if (json && cuda_arch) {
		GError *e = NULL;
		cg_usage_error(&e, "inspect: give --json or --cuda-arch, not both (the JSON has each image's "
			       "compute_capability)");
		int rc = cg_report(e);
		g_error_free(e);
		return rc;
	}
	if (!files || !files[0]) {
		GError *e = NULL;
		cg_usage_error(&e, "inspect: no FILE given (see 'cugen "
			       "inspect --help')");
		int rc = cg_report(e);
		g_error_free(e);
		return rc;
	}
	g_autoptr(GString) js = json ? g_string_new("[") : NULL;
	int rc = 0;
	for (char **f = files; *f; f++)
		if (!inspect_path(*f, js))
			rc = 1;
	if (js) {
		g_string_append(js, js->len > 1 ? "\n]\n" : "]\n");
		fwrite(js->str, 1, js->len, stdout);
		fflush(stdout);
	}
	return rc;
}
