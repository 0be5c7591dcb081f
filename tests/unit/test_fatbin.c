/* test_fatbin.c -- unit tests of the ELF, ar and fatbin readers (elf.c,
 * fatbin.c) and of `cugen inspect` (inspect.c).
 *
 * The inputs are real: nvcc, fatbinary, ar and cc build them in a
 * temporary directory once per run ($CUDA_PATH/bin/nvcc, default
 * /usr/local/cuda; the CUDA tests are skipped without it). Then every
 * truncation and many random corruptions of small real files must give
 * errors, never crashes (run this under ASan/UBSan and valgrind).
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "elf.h"
#include "fatbin.h"
#include "inspect.h"

#define DIR_ENV "CUGEN_TEST_FATBIN_DIR"

static const char kernel_src[] =
	"__global__ void k(float *x, float a) { x[threadIdx.x] *= a; }\n";

static char *workdir;	 /* where the inputs are */
static gboolean own_dir; /* created (and removed) by this process */
static char *bindir;	 /* $CUDA_PATH/bin */

/* ---- helpers ---- */

static gboolean run_in(const char *dir, const char *const *argv)
{
	g_autofree char *out = NULL, *errout = NULL;
	int status;
	g_autoptr(GError) e = NULL;
	if (!g_spawn_sync(dir, (char **)argv, NULL, G_SPAWN_SEARCH_PATH, NULL,
			  NULL, &out, &errout, &status, &e)) {
		g_printerr("cannot run %s: %s\n", argv[0], e->message);
		return FALSE;
	}
	if (!g_spawn_check_wait_status(status, &e)) {
		g_printerr("%s failed: %s\n%s%s", argv[0], e->message, out,
			   errout);
		return FALSE;
	}
	return TRUE;
}

/* RUN must work; TRY may fail (an older toolkit, no C compiler): the
 * tests that need its output then skip. */
#define RUN(...)                                                        \
	g_assert_true(run_in(workdir, (const char *const[]){ __VA_ARGS__, \
							     NULL }))
#define TRY(...) run_in(workdir, (const char *const[]){ __VA_ARGS__, NULL })

static char *tool(const char *name)
{
	return g_build_filename(bindir, name, NULL);
}

/* Build every input once; NULL if there is no CUDA toolkit. */
static const char *inputs(void)
{
	static gboolean done;
	if (done)
		return workdir;
	done = TRUE;
	const char *cuda = g_getenv("CUDA_PATH");
	bindir = g_build_filename(cuda && *cuda ? cuda : "/usr/local/cuda",
				  "bin", NULL);
	g_autofree char *nvcc = tool("nvcc");
	if (!g_file_test(nvcc, G_FILE_TEST_IS_EXECUTABLE))
		return NULL;
	const char *given = g_getenv(DIR_ENV);
	if (given) { /* a g_test_trap_subprocess() child */
		workdir = g_strdup(given);
		return workdir;
	}
	g_autoptr(GError) e = NULL;
	workdir = g_dir_make_tmp("cugen-fatbin-XXXXXX", &e);
	g_assert_no_error(e);
	own_dir = TRUE;
	g_autofree char *src = g_build_filename(workdir, "k.cu", NULL);
	g_assert_true(g_file_set_contents(src, kernel_src, -1, &e));
	g_autofree char *fatbinary = tool("fatbinary");

	/* 2 archs + 1 PTX */
	RUN(nvcc, "-c", "-gencode", "arch=compute_80,code=sm_80", "-gencode",
	    "arch=compute_90,code=[sm_90,compute_90]", "k.cu", "-o", "k.o");
	/* the same flags, one arch, as a cubin */
	RUN(nvcc, "-cubin", "-arch=sm_80", "k.cu", "-o", "k80.cubin");
	/* RDC, uncompressed (nvcc -dc compresses SASS by default), and the
	 * matching relocatable cubin */
	RUN(nvcc, "-dc", "-Xfatbin", "-compress=false", "-gencode",
	    "arch=compute_80,code=sm_80", "k.cu", "-o", "k_rdc.o");
	RUN(nvcc, "-cubin", "-dc", "-arch=sm_80", "k.cu", "-o",
	    "k_rdc80.cubin");
	/* LTO-IR */
	RUN(nvcc, "-dc", "-gencode", "arch=compute_80,code=lto_80", "k.cu",
	    "-o", "k_lto.o");
	/* arch-specific and family variants (CUDA 12.9+ for 'f') */
	TRY(nvcc, "-c", "-gencode", "arch=compute_90a,code=sm_90a", "-gencode",
	    "arch=compute_100f,code=[sm_100f,compute_100f]", "k.cu", "-o",
	    "kaf.o");
	/* compressed bare fatbins: zstd (default mode) and lz4 (speed) */
	RUN(fatbinary, "-64", "--image3=kind=elf,sm=80,file=k80.cubin",
	    "-compress-all", "--create=zstd.fatbin");
	TRY(fatbinary, "-64", "--image3=kind=elf,sm=80,file=k80.cubin",
	    "-compress-all", "-compress-mode=speed", "--create=lz4.fatbin");
	TRY("ar", "rc", "libk.a", "k.o", "k_rdc.o", "k_lto.o");
	TRY("ar", "rc", "small.a", "k_lto.o", "zstd.fatbin");
	/* undefined CUDA runtime symbols are fine in a .so */
	TRY("cc", "-shared", "k.o", "-o", "libk.so");
	/* programs of TUs built for other archs: every TU must have an
	 * image for the GPU (--cuda-arch is the intersection) */
	TRY(nvcc, "-c", "-Dk=k80", "-gencode", "arch=compute_80,code=sm_80", "k.cu", "-o", "k80only.o");
	TRY(nvcc, "-c", "-Dk=k75", "-gencode", "arch=compute_75,code=sm_75", "k.cu", "-o", "k75only.o");
	TRY("cc", "-shared", "k.o", "k80only.o", "-o", "libmix.so");
	TRY("cc", "-shared", "k.o", "k75only.o", "-o", "libnone.so");
	return workdir;
}

#define NEED_INPUTS()                                         \
	do {                                                  \
		if (!inputs()) {                              \
			g_test_skip("no CUDA toolkit (nvcc)"); \
			return;                               \
		}                                             \
	} while (0)

static gboolean have(const char *name)
{
	g_autofree char *p = g_build_filename(workdir, name, NULL);
	return g_file_test(p, G_FILE_TEST_EXISTS);
}

#define NEED_FILE(name)                                             \
	do {                                                        \
		if (!have(name)) {                                  \
			g_test_skip(name " could not be built here"); \
			return;                                     \
		}                                                   \
	} while (0)

static GBytes *slurp(const char *name)
{
	g_autofree char *p = g_build_filename(workdir, name, NULL);
	g_autofree char *d = NULL;
	gsize n;
	g_autoptr(GError) e = NULL;
	g_assert_true(g_file_get_contents(p, &d, &n, &e));
	g_assert_no_error(e);
	return g_bytes_new_take(g_steal_pointer(&d), n);
}

typedef struct {
	GBytes *bytes;
	GPtrArray *images; /* InspectImage */
	GPtrArray *errors; /* GError */
	gboolean ok;
} Parsed;

static void parsed_free(Parsed *p)
{
	g_ptr_array_unref(p->images);
	g_ptr_array_unref(p->errors);
	g_bytes_unref(p->bytes);
	g_free(p);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Parsed, parsed_free)

static Parsed *parse_bytes(GBytes *b)
{
	Parsed *p = g_new0(Parsed, 1);
	p->bytes = g_bytes_ref(b);
	p->images = g_ptr_array_new_with_free_func(
		(GDestroyNotify)inspect_image_free);
	p->errors = g_ptr_array_new_with_free_func(
		(GDestroyNotify)g_error_free);
	gsize n;
	const guint8 *d = g_bytes_get_data(b, &n);
	p->ok = inspect_data(d ? d : (const guint8 *)"", n, p->images,
			     p->errors);
	g_assert_cmpint(p->ok, ==, p->errors->len == 0);
	return p;
}

static Parsed *parse_file(const char *name)
{
	g_autoptr(GBytes) b = slurp(name);
	Parsed *p = parse_bytes(b);
	for (guint i = 0; i < p->errors->len; i++) {
		const GError *e = g_ptr_array_index(p->errors, i);
		g_printerr("%s: %s\n", name, e->message);
	}
	g_assert_true(p->ok);
	return p;
}

static InspectImage *image(Parsed *p, guint i)
{
	g_assert_cmpuint(i, <, p->images->len);
	return g_ptr_array_index(p->images, i);
}

static char *sha_of_file(const char *name)
{
	g_autoptr(GBytes) b = slurp(name);
	return g_compute_checksum_for_bytes(G_CHECKSUM_SHA256, b);
}

static void check_image(Parsed *p, guint i, const char *section, guint kind,
			const char *arch, gboolean compressed)
{
	InspectImage *im = image(p, i);
	g_assert_cmpstr(im->section, ==, section);
	g_assert_cmpuint(im->img->kind, ==, kind);
	g_assert_cmpstr(im->img->arch, ==, arch);
	g_assert_cmpint(im->img->compressed, ==, compressed);
	g_assert_cmpuint(strlen(im->img->sha256), ==, 64);
	g_assert_cmpuint(im->img->size, >, 0);
}

/* ---- tests on real nvcc output ---- */

static void test_object(void)
{
	NEED_INPUTS();
	g_autoptr(Parsed) p = parse_file("k.o");
	g_assert_cmpuint(p->images->len, ==, 3);
	check_image(p, 0, ".nv_fatbin", FATBIN_KIND_ELF, "sm_80", FALSE);
	check_image(p, 1, ".nv_fatbin", FATBIN_KIND_ELF, "sm_90", FALSE);
	check_image(p, 2, ".nv_fatbin", FATBIN_KIND_PTX, "compute_90", TRUE);
	for (guint i = 0; i < 3; i++) {
		g_assert_cmpuint(image(p, i)->index, ==, i + 1);
		g_assert_null(image(p, i)->member);
	}
	/* nvcc compresses PTX with zstd by default */
	FatbinImage *ptx = image(p, 2)->img;
	g_assert_cmpstr(ptx->compression, ==, "zstd");
	g_assert_cmpuint(ptx->uncompressed_size, >, ptx->size);
	g_assert_cmpmem(ptx->payload, 4, "\x28\xb5\x2f\xfd", 4);
	/* an uncompressed SASS image is a cubin */
	FatbinImage *sass = image(p, 0)->img;
	g_assert_cmpmem(sass->payload, 4, "\177ELF", 4);
	g_assert_cmpuint(sass->sm, ==, 80);
	g_assert_null(sass->compression);
}

/* The SASS image nvcc embeds is byte for byte the cubin nvcc -cubin
 * writes for the same arch and flags (whole program and -dc alike), as
 * long as fatbinary does not compress it. */
static void test_cubin_hash(void)
{
	NEED_INPUTS();
	g_autoptr(Parsed) obj = parse_file("k.o");
	g_autofree char *cubin_sha = sha_of_file("k80.cubin");
	g_assert_cmpstr(image(obj, 0)->img->sha256, ==, cubin_sha);

	g_autoptr(Parsed) rdc = parse_file("k_rdc.o");
	g_autofree char *rdc_sha = sha_of_file("k_rdc80.cubin");
	g_assert_cmpuint(rdc->images->len, ==, 1);
	check_image(rdc, 0, "__nv_relfatbin", FATBIN_KIND_ELF, "sm_80", FALSE);
	g_assert_cmpstr(image(rdc, 0)->img->sha256, ==, rdc_sha);

	/* a bare cubin is one image with the same hash */
	g_autoptr(Parsed) cub = parse_file("k80.cubin");
	g_assert_cmpuint(cub->images->len, ==, 1);
	check_image(cub, 0, NULL, FATBIN_KIND_ELF, "sm_80", FALSE);
	g_assert_cmpstr(image(cub, 0)->where, ==, "cubin");
	g_assert_cmpstr(image(cub, 0)->img->sha256, ==, cubin_sha);
}

static void test_lto(void)
{
	NEED_INPUTS();
	g_autoptr(Parsed) p = parse_file("k_lto.o");
	g_assert_cmpuint(p->images->len, ==, 1);
	check_image(p, 0, "__nv_relfatbin", FATBIN_KIND_NVVM, "lto_80", TRUE);
	g_assert_cmpstr(image(p, 0)->img->kind_name, ==, "nvvm");
}

static void test_arch_variants(void)
{
	NEED_INPUTS();
	NEED_FILE("kaf.o");
	g_autoptr(Parsed) p = parse_file("kaf.o");
	g_assert_cmpuint(p->images->len, ==, 3);
	check_image(p, 0, ".nv_fatbin", FATBIN_KIND_ELF, "sm_90a", FALSE);
	check_image(p, 1, ".nv_fatbin", FATBIN_KIND_ELF, "sm_100f", FALSE);
	check_image(p, 2, ".nv_fatbin", FATBIN_KIND_PTX, "compute_100f", TRUE);
	g_assert_true(image(p, 0)->img->flags & FATBIN_FLAG_ARCH_A);
	g_assert_true(image(p, 1)->img->flags & FATBIN_FLAG_ARCH_F);
	g_assert_true(image(p, 2)->img->flags & FATBIN_FLAG_ARCH_F);
	g_assert_cmpuint(image(p, 1)->img->sm, ==, 100);

	/* The images are cubins; read as bare cubins they keep their
	 * names, although e_flags does not tell sm_100f from sm_100. */
	const char *want[] = { "sm_90a", "sm_100f" };
	for (guint i = 0; i < 2; i++) {
		FatbinImage *img = image(p, i)->img;
		g_autoptr(GError) e = NULL;
		g_autoptr(ElfFile) elf = elf_open(img->payload, img->size, &e);
		g_assert_no_error(e);
		g_assert_true(fatbin_is_cubin(elf));
		g_autoptr(FatbinImage) c = fatbin_cubin_image(elf, &e);
		g_assert_no_error(e);
		g_assert_cmpstr(c->arch, ==, want[i]);
		g_assert_cmpstr(c->sha256, ==, img->sha256);
	}
}

static void test_compressed_fatbin(void)
{
	NEED_INPUTS();
	NEED_FILE("lz4.fatbin");
	g_autoptr(GBytes) cubin = slurp("k80.cubin");
	const char *files[] = { "zstd.fatbin", "lz4.fatbin" };
	const char *algo[] = { "zstd", "lz4" };
	for (guint i = 0; i < 2; i++) {
		g_autoptr(Parsed) p = parse_file(files[i]);
		g_assert_cmpuint(p->images->len, ==, 1);
		check_image(p, 0, NULL, FATBIN_KIND_ELF, "sm_80", TRUE);
		FatbinImage *img = image(p, 0)->img;
		g_assert_cmpstr(image(p, 0)->where, ==, "fatbin");
		g_assert_cmpstr(img->compression, ==, algo[i]);
		g_assert_cmpuint(img->uncompressed_size, ==,
				 g_bytes_get_size(cubin));
		g_assert_cmpuint(img->size, <, g_bytes_get_size(cubin));
		g_assert_cmpuint(img->size % 8, ==, 0);
	}
}

static void test_archive(void)
{
	NEED_INPUTS();
	NEED_FILE("libk.a");
	g_autoptr(Parsed) p = parse_file("libk.a");
	g_assert_cmpuint(p->images->len, ==, 5);
	const char *members[] = { "k.o", "k.o", "k.o", "k_rdc.o", "k_lto.o" };
	const char *archs[] = { "sm_80", "sm_90", "compute_90", "sm_80",
				"lto_80" };
	for (guint i = 0; i < 5; i++) {
		g_assert_cmpstr(image(p, i)->member, ==, members[i]);
		g_assert_cmpstr(image(p, i)->img->arch, ==, archs[i]);
	}
	/* same images as the objects themselves */
	g_autoptr(Parsed) o = parse_file("k.o");
	g_assert_cmpstr(image(p, 1)->img->sha256, ==,
			image(o, 1)->img->sha256);
}

static void test_shared_library(void)
{
	NEED_INPUTS();
	NEED_FILE("libk.so");
	g_autoptr(Parsed) so = parse_file("libk.so");
	g_autoptr(Parsed) o = parse_file("k.o");
	g_assert_cmpuint(so->images->len, ==, 3);
	for (guint i = 0; i < 3; i++)
		g_assert_cmpstr(image(so, i)->img->sha256, ==,
				image(o, i)->img->sha256);
}

/* Two containers in one section, 8-aligned with zero padding, as the
 * linker concatenates them; anything else between them is an error. */
static void test_concatenated(void)
{
	NEED_INPUTS();
	NEED_FILE("lz4.fatbin");
	g_autoptr(GBytes) a = slurp("zstd.fatbin");
	g_autoptr(GBytes) b = slurp("lz4.fatbin");
	GByteArray *cat = g_byte_array_new();
	g_byte_array_append(cat, g_bytes_get_data(a, NULL),
			    g_bytes_get_size(a));
	static const guint8 zeros[16];
	g_byte_array_append(cat, zeros, 16);
	g_byte_array_append(cat, g_bytes_get_data(b, NULL),
			    g_bytes_get_size(b));
	g_byte_array_append(cat, zeros, 8);
	g_autoptr(GPtrArray) imgs = g_ptr_array_new_with_free_func(
		(GDestroyNotify)fatbin_image_free);
	g_autoptr(GError) e = NULL;
	g_assert_true(fatbin_parse(cat->data, cat->len, imgs, &e));
	g_assert_no_error(e);
	g_assert_cmpuint(imgs->len, ==, 2);
	g_assert_cmpstr(((FatbinImage *)imgs->pdata[0])->compression, ==,
			"zstd");
	g_assert_cmpstr(((FatbinImage *)imgs->pdata[1])->compression, ==,
			"lz4");

	g_ptr_array_set_size(imgs, 0);
	cat->data[g_bytes_get_size(a) + 3] = 1;
	g_assert_false(fatbin_parse(cat->data, cat->len, imgs, &e));
	g_assert_nonnull(e);
	g_assert_true(strstr(e->message, "no fatbin header"));
	g_assert_cmpuint(imgs->len, ==, 1); /* what came before stays */
	g_byte_array_unref(cat);
}

/* Each bad section is its own error, and the file is still read on. */
static void test_two_bad_sections(void)
{
	NEED_INPUTS();
	g_autoptr(GBytes) b = slurp("k.o");
	gsize len = g_bytes_get_size(b);
	guint8 *d = g_memdup2(g_bytes_get_data(b, NULL), len);
	g_autoptr(GError) e = NULL;
	ElfFile *elf = elf_open(d, len, &e);
	g_assert_no_error(e);
	const ElfSection *fat = elf_find_section(elf, ".nv_fatbin");
	const ElfSection *seg = elf_find_section(elf, ".nvFatBinSegment");
	g_assert_nonnull(fat);
	g_assert_nonnull(seg);
	/* the fatbin gets version 2; the wrapper a fatbin section's name */
	d[fat->offset + 4] = 2;
	memcpy((char *)seg->name, "__nv_relfatbin", 15);
	elf_free(elf);
	g_autoptr(GBytes) bad = g_bytes_new_take(d, len);
	g_autoptr(Parsed) p = parse_bytes(bad);
	g_assert_false(p->ok);
	g_assert_cmpuint(p->errors->len, ==, 2);
	g_assert_cmpuint(p->images->len, ==, 0);
	g_assert_cmpstr(((GError *)p->errors->pdata[0])->message, ==,
			"error: .nv_fatbin: unsupported fatbin version 2 at "
			"offset 0");
	g_assert_true(g_str_has_prefix(
		((GError *)p->errors->pdata[1])->message,
		"error: __nv_relfatbin: no fatbin header at offset 0"));
}

/* ---- archives made by hand: GNU and BSD long names ---- */

static void ar_add(GString *a, const char *name, const void *d, gsize n)
{
	g_string_append_printf(a, "%-16s%-12s%-6s%-6s%-8s%-10" G_GSIZE_FORMAT
			       "`\n", name, "0", "0", "0", "644", n);
	g_string_append_len(a, d, n);
	if (n % 2)
		g_string_append_c(a, '\n');
}

static void check_members(GString *a, const char *const *names,
			  const char *const *datas)
{
	ArIter it;
	ArMember m;
	g_autoptr(GError) e = NULL;
	g_assert_true(ar_init(&it, a->str, a->len, &e));
	guint i = 0;
	while (ar_next(&it, &m, &e)) {
		g_assert_nonnull(names[i]);
		g_assert_cmpstr(m.name, ==, names[i]);
		g_assert_cmpmem(m.data, m.size, datas[i], strlen(datas[i]));
		i++;
	}
	g_assert_no_error(e);
	g_assert_null(names[i]);
	ar_clear(&it);
}

static void test_ar_formats(void)
{
	const char *names[] = { "a_rather_long_member_name.o", "short.o",
				"another_long_member_name.o", NULL };
	const char *datas[] = { "first", "second", "3", NULL };

	/* GNU: "/" symbol table, "//" name table, "/N" references */
	g_autoptr(GString) gnu = g_string_new("!<arch>\n");
	ar_add(gnu, "/", "\0\0\0\0", 4);
	const char table[] = "a_rather_long_member_name.o/\n"
			     "another_long_member_name.o/\n";
	ar_add(gnu, "//", table, strlen(table));
	ar_add(gnu, "/0", datas[0], strlen(datas[0]));
	ar_add(gnu, "short.o/", datas[1], strlen(datas[1]));
	ar_add(gnu, "/29", datas[2], strlen(datas[2]));
	check_members(gnu, names, datas);

	/* BSD: "#1/N" names before the contents, "__.SYMDEF" tables */
	g_autoptr(GString) bsd = g_string_new("!<arch>\n");
	ar_add(bsd, "#1/20", "__.SYMDEF SORTED\0\0\0\0" "\0\0\0\0", 24);
	for (guint i = 0; names[i]; i++) {
		if (strlen(names[i]) <= 16) {
			ar_add(bsd, names[i], datas[i], strlen(datas[i]));
			continue;
		}
		g_autofree char *hdr =
			g_strdup_printf("#1/%zu", strlen(names[i]));
		g_autofree char *body =
			g_strconcat(names[i], datas[i], NULL);
		ar_add(bsd, hdr, body, strlen(body));
	}
	check_members(bsd, names, datas);

	/* broken ones */
	ArIter it;
	ArMember m;
	g_autoptr(GError) e = NULL;
	g_assert_false(ar_init(&it, "!<thin>\n", 8, &e));
	g_assert_true(strstr(e->message, "thin"));
	g_clear_error(&e);
	g_autoptr(GString) bad = g_string_new("!<arch>\n");
	ar_add(bad, "/7", "x", 1); /* no name table */
	g_assert_true(ar_init(&it, bad->str, bad->len, &e));
	g_assert_false(ar_next(&it, &m, &e));
	g_assert_nonnull(e);
	ar_clear(&it);
	g_clear_error(&e);
	g_string_truncate(bad, 8);
	ar_add(bad, "big.o/", "0123456789", 10);
	memcpy(bad->str + 8 + 48, "99        ", 10); /* size past the end */
	g_assert_true(ar_init(&it, bad->str, bad->len, &e));
	g_assert_false(ar_next(&it, &m, &e));
	g_assert_true(strstr(e->message, "past the end"));
	ar_clear(&it);
}

static void test_elf_errors(void)
{
	guint8 h[64] = { 0x7f, 'E', 'L', 'F', 2, 1, 1 };
	g_autoptr(GError) e = NULL;
	g_autoptr(ElfFile) ok = elf_open(h, sizeof h, &e);
	g_assert_no_error(e); /* a header without sections is fine */
	g_assert_cmpuint(ok->sections->len, ==, 0);
	g_assert_null(elf_open(h, 20, &e));
	g_assert_true(strstr(e->message, "truncated"));
	g_clear_error(&e);
	h[4] = 1;
	g_assert_null(elf_open(h, sizeof h, &e));
	g_assert_true(strstr(e->message, "class"));
	g_clear_error(&e);
	h[4] = 2;
	h[5] = 2;
	g_assert_null(elf_open(h, sizeof h, &e));
	g_assert_true(strstr(e->message, "byte order"));
	g_clear_error(&e);
	h[5] = 1;
	h[0x28] = 0x40; /* section table at 64, one entry, past the end */
	h[0x3a] = 64;
	h[0x3c] = 1;
	g_assert_null(elf_open(h, sizeof h, &e));
	g_assert_nonnull(e);
	g_clear_error(&e);

	/* not an object at all */
	g_autoptr(GPtrArray) imgs = g_ptr_array_new_with_free_func(
		(GDestroyNotify)inspect_image_free);
	g_autoptr(GPtrArray) errs =
		g_ptr_array_new_with_free_func((GDestroyNotify)g_error_free);
	g_assert_false(inspect_data((const guint8 *)"hello", 5, imgs, errs));
	g_assert_cmpuint(errs->len, ==, 1);
	g_assert_cmpstr(((GError *)errs->pdata[0])->message, ==,
			"error: not an ELF file, ar archive or fatbin");
}

/* ---- truncation and corruption ---- */

/* Every proper prefix of name is an error (its ELF section table or
 * fatbin ends the file), the whole file is not. */
static void truncate_all(const char *name, gboolean must_fail)
{
	g_autoptr(GBytes) b = slurp(name);
	gsize n = g_bytes_get_size(b);
	for (gsize len = 0; len <= n; len++) {
		/* a fresh copy of exactly len bytes, so that ASan and
		 * valgrind see reads past its end */
		g_autoptr(GBytes) copy = g_bytes_new(g_bytes_get_data(b, NULL),
						     len);
		g_autoptr(Parsed) p = parse_bytes(copy);
		if (len == n)
			g_assert_true(p->ok);
		else if (must_fail && p->ok)
			g_error("%s cut to %zu bytes was accepted", name, len);
	}
}

static void test_truncated(void)
{
	NEED_INPUTS();
	truncate_all("k_lto.o", TRUE);
	truncate_all("zstd.fatbin", TRUE);
	truncate_all("k80.cubin", TRUE);
	/* an archive cut between members is a smaller archive */
	if (have("small.a"))
		truncate_all("small.a", FALSE);
}

/* Overwrite bytes of a copy of data; parse; no crash is the test. */
static void mutate_and_parse(GBytes *orig, gsize at, const guint8 *v,
			     gsize n)
{
	gsize len = g_bytes_get_size(orig);
	if (at >= len)
		return;
	n = MIN(n, len - at);
	guint8 *d = g_memdup2(g_bytes_get_data(orig, NULL), len);
	memcpy(d + at, v, n);
	g_autoptr(GBytes) b = g_bytes_new_take(d, len);
	g_autoptr(Parsed) p = parse_bytes(b);
	for (guint i = 0; i < p->errors->len; i++) {
		const GError *e = p->errors->pdata[i];
		g_assert_true(g_str_has_prefix(e->message, "error: "));
		g_assert_null(strchr(e->message, '\n'));
	}
}

/* Offsets of the header fields of the images of a pristine file. */
static GArray *header_offsets(GBytes *b)
{
	GArray *offs = g_array_new(FALSE, FALSE, sizeof(gsize));
	gsize zero = 0;
	g_array_append_val(offs, zero);
	g_autoptr(Parsed) p = parse_bytes(b);
	const guint8 *base = g_bytes_get_data(b, NULL);
	for (guint i = 0; i < p->images->len; i++) {
		FatbinImage *img = image(p, i)->img;
		gsize at = (gsize)(img->payload - base);
		if (at < 64) /* a bare cubin */
			continue;
		gsize hdr = at - 64; /* at least the last 64 header bytes */
		g_array_append_val(offs, hdr);
		if (i == 0 && hdr >= 16) {
			gsize container = hdr - 16;
			g_array_append_val(offs, container);
		}
	}
	g_autoptr(GError) e = NULL;
	g_autoptr(ElfFile) elf = elf_open(base, g_bytes_get_size(b), &e);
	if (elf) {
		guint64 shoff;
		memcpy(&shoff, base + 0x28, 8);
		gsize o = GUINT64_FROM_LE(shoff);
		for (guint i = 0; i < elf->sections->len; i++, o += 64)
			g_array_append_val(offs, o);
	}
	return offs;
}

static void corrupt(const char *name, guint rounds)
{
	g_autoptr(GBytes) b = slurp(name);
	gsize len = g_bytes_get_size(b);
	g_autoptr(GArray) offs = header_offsets(b);
	static const guint64 nasty[] = { 0, 1, 7, 8, 0x40, 0xffff,
					 0x7fffffff, 0xffffffff,
					 0x8000000000000000ull,
					 0xffffffffffffffffull,
					 0xfffffffffffffff0ull };
	for (guint r = 0; r < rounds; r++) {
		guint8 v[8];
		gsize at;
		if (r % 2 == 0) {
			/* a random byte anywhere */
			at = (gsize)g_test_rand_int_range(0, (gint32)len);
			v[0] = (guint8)g_test_rand_int_range(0, 256);
			mutate_and_parse(b, at, v, 1);
			continue;
		}
		/* an extreme value into a header field */
		gint32 pick = g_test_rand_int_range(0, (gint32)offs->len);
		gsize base = g_array_index(offs, gsize, pick);
		at = base + 2 * (gsize)g_test_rand_int_range(0, 32);
		guint64 x = nasty[g_test_rand_int_range(
			0, G_N_ELEMENTS(nasty))];
		if (g_test_rand_bit())
			x += (guint64)g_test_rand_int_range(-64, 64);
		x = GUINT64_TO_LE(x);
		memcpy(v, &x, 8);
		gsize width = (gsize)1 << g_test_rand_int_range(0, 4);
		mutate_and_parse(b, at, v, width);
	}
}

static void test_corrupt(void)
{
	NEED_INPUTS();
	corrupt("k.o", 1500);
	if (have("kaf.o"))
		corrupt("kaf.o", 500);
	corrupt("zstd.fatbin", 500);
	corrupt("k80.cubin", 500);
	if (have("small.a"))
		corrupt("small.a", 500);
}

/* ---- the command ---- */

/* In the child: run cmd_inspect with the arguments in $CUGEN_TEST_ARGS
 * (one per line) in the input directory; exit 0 iff it returned the
 * status in $CUGEN_TEST_RC. */
static void command_child(void)
{
	g_assert_true(chdir(workdir) == 0);
	char **args = g_strsplit(g_getenv("CUGEN_TEST_ARGS"), "\n", -1);
	int want = atoi(g_getenv("CUGEN_TEST_RC"));
	int rc = cmd_inspect((int)g_strv_length(args), args);
	g_strfreev(args); /* exit() below: nothing may stay allocated */
	fflush(stdout);
	exit(rc == want ? 0 : 100 + rc);
}

static void expect(const char *args, int rc, const char *out, const char *err)
{
	g_setenv("CUGEN_TEST_ARGS", args, TRUE);
	g_autofree char *want = g_strdup_printf("%d", rc);
	g_setenv("CUGEN_TEST_RC", want, TRUE);
	g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
	g_test_trap_assert_passed();
	g_test_trap_assert_stdout(out);
	g_test_trap_assert_stderr(err);
}

static void test_command(void)
{
	NEED_INPUTS();
	if (g_test_subprocess()) {
		command_child();
		return;
	}
	g_setenv(DIR_ENV, workdir, TRUE);
	g_autoptr(Parsed) p = parse_file("k.o");
	g_autofree char *line1 = g_strdup_printf(
		"k.o: .nv_fatbin #1 elf sm_80 size=%" G_GUINT64_FORMAT
		" sha256=%.16s\n", image(p, 0)->img->size,
		image(p, 0)->img->sha256);
	g_autofree char *total = g_strdup_printf(
		"*\nk.o: total sm_80=%" G_GUINT64_FORMAT " sm_90=%"
		G_GUINT64_FORMAT " compute_90=%" G_GUINT64_FORMAT "\n",
		image(p, 0)->img->size, image(p, 1)->img->size,
		image(p, 2)->img->size);
	g_autofree char *text = g_strconcat(line1, "k.o: .nv_fatbin #2 elf "
					    "sm_90 *\nk.o: .nv_fatbin #3 ptx "
					    "compute_90 size=* sha256=* "
					    "[compressed zstd, * bytes "
					    "uncompressed]", total, NULL);
	expect("inspect\nk.o", 0, text, "");
	expect("inspect\n--json\nk.o", 0,
	       "[\n  {\"file\":\"k.o\",\"member\":null,\"section\":"
	       "\".nv_fatbin\",\"index\":1,\"kind\":\"elf\",\"arch\":"
	       "\"sm_80\",\"size\":*,\"uncompressed_size\":*,"
	       "\"compressed\":false,\"compression\":null,\"name\":null,"
	       "\"sha256\":\"*\",\"compute_capability\":{\"min\":\"8.0\",\"below\":\"9.0\"}},\n"
	       "*\"arch\":\"compute_90\"*\"compute_capability\":{\"min\":\"9.0\",\"below\":null}}\n]\n", "");
	expect("inspect\n--cuda-arch\nk.o", 0, "k.o: runs on 8.0+ (cuda-arch >=8.0)\n", "");
	if (have("libmix.so"))
		expect("inspect\n--cuda-arch\nlibmix.so", 0,
		       "libmix.so: runs on 8.0-8.x (cuda-arch >=8.0,<9.0); limited by the fatbin at .nv_fatbin+0x*: "
		       "sm_80\n", "");
	if (have("libnone.so"))
		expect("inspect\n--cuda-arch\nlibnone.so", 0,
		       "libnone.so: runs on no GPU as it is (no capability every TU covers); limited by the fatbin at "
		       ".nv_fatbin+0x*: sm_75\n", "");
	expect("inspect\n--json", 2, "",
	       "cugen: error: inspect: no FILE given*\n");
	expect("inspect\n--frobnicate\nk.o", 2, "",
	       "cugen: error: inspect: unknown option --frobnicate*\n");
	expect("inspect\n--help", 0,
	       "Usage:\n  cugen inspect [OPTION*] FILE...\n*", "");
	/* errors are reported after the files that can be read */
	expect("inspect\nmissing.o\nk.cu\nk_lto.o", 1,
	       "k_lto.o: __nv_relfatbin #1 nvvm lto_80 *\n"
	       "k_lto.o: total lto_80=*\n",
	       "cugen: error: missing.o: No such file or directory\n"
	       "cugen: error: k.cu: not an ELF file, ar archive or fatbin\n");
	expect("inspect\n--json\nmissing.o", 1, "[]\n", "cugen: error: *\n");
	if (have("libk.a"))
		expect("inspect\nlibk.a", 0,
		       "libk.a member(k.o): .nv_fatbin #1 elf sm_80 *"
		       "libk.a member(k_lto.o): __nv_relfatbin #1 nvvm lto_80 *"
		       "\nlibk.a: total sm_80=* sm_90=* compute_90=* "
		       "lto_80=*\n",
		       "");
	g_autofree char *empty = g_build_filename(workdir, "empty.fatbin",
						  NULL);
	g_assert_true(g_file_set_contents(empty,
					  "\x50\xed\x55\xba\x01\x00\x10\x00"
					  "\0\0\0\0\0\0\0\0", 16, NULL));
	expect("inspect\nempty.fatbin", 0, "empty.fatbin: no GPU images\n", "");
}

/* ---- main ---- */

static void rm_rf(const char *path)
{
	GDir *d = g_dir_open(path, 0, NULL);
	if (d) {
		const char *n;
		while ((n = g_dir_read_name(d))) {
			g_autofree char *p = g_build_filename(path, n, NULL);
			rm_rf(p);
		}
		g_dir_close(d);
	}
	g_remove(path);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/elf/errors", test_elf_errors);
	g_test_add_func("/ar/formats", test_ar_formats);
	g_test_add_func("/fatbin/object", test_object);
	g_test_add_func("/fatbin/cubin-hash", test_cubin_hash);
	g_test_add_func("/fatbin/lto", test_lto);
	g_test_add_func("/fatbin/arch-variants", test_arch_variants);
	g_test_add_func("/fatbin/compressed", test_compressed_fatbin);
	g_test_add_func("/fatbin/concatenated", test_concatenated);
	g_test_add_func("/fatbin/two-bad-sections", test_two_bad_sections);
	g_test_add_func("/fatbin/archive", test_archive);
	g_test_add_func("/fatbin/shared-library", test_shared_library);
	g_test_add_func("/fatbin/truncated", test_truncated);
	g_test_add_func("/fatbin/corrupt", test_corrupt);
	g_test_add_func("/inspect/command", test_command);
	int rc = g_test_run();
	if (own_dir)
		rm_rf(workdir);
	g_free(workdir);
	g_free(bindir);
	return rc;
}
