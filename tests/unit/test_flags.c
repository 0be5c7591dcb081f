/* test_flags.c -- the user's nvcc flags (cudaflags.c), defines as CMake
 * writes them (cg_split_defines), the fatbinary --ident of -lineinfo/-G
 * pipelines (pipeline.c), and image hashes of compressed entries
 * (imagehash.c). */
#include <glib.h>
#include <lz4.h>
#include <string.h>
#include <zstd.h>

#include "cudaflags.h"
#include "imagehash.h"
#include "pipeline.h"
#include "util.h"

static void test_flags_taken(void)
{
	CudaFlags f;
	const char *bad;
	char *why;
	gboolean owned;
	g_assert_true(cudaflags_read("-O3 -std=c++20 -lineinfo --threads 4 -rdc=true", &f, &bad, &why, &owned));
	g_assert_cmpstr(f.std, ==, "c++20");
	g_assert_cmpint(f.rdc, ==, 1);
	g_assert_cmpint(f.threads, ==, 4);
	g_assert_false(f.dlto);
	g_assert_cmpstr(f.rest, ==, "-O3 -lineinfo");
	cudaflags_clear(&f);
	/* -t2: the number attached, as nvcc takes it (CuPy's spelling) */
	g_assert_true(cudaflags_read("-O2 -t2", &f, &bad, &why, &owned));
	g_assert_cmpint(f.threads, ==, 2);
	g_assert_cmpstr(f.rest, ==, "-O2");
	cudaflags_clear(&f);
	g_assert_true(cudaflags_read("--std c++14 -t=0 -dc -dlto -Xptxas -v", &f, &bad, &why, &owned));
	g_assert_cmpstr(f.std, ==, "c++14");
	g_assert_cmpint(f.threads, ==, 0);
	g_assert_cmpint(f.rdc, ==, 1);
	g_assert_true(f.dlto);
	g_assert_cmpstr(f.rest, ==, "-Xptxas -v");
	cudaflags_clear(&f);
	/* nothing taken: the value as written */
	g_assert_true(cudaflags_read("-O3  '-DX=a b'", &f, &bad, &why, &owned));
	g_assert_cmpstr(f.rest, ==, "-O3  '-DX=a b'");
	g_assert_null(f.std);
	g_assert_cmpint(f.rdc, ==, -1);
	g_assert_cmpint(f.threads, ==, -1);
	cudaflags_clear(&f);
}

static void test_flags_refused(void)
{
	const struct {
		const char *value, *bad, *why_has;
		gboolean owned;
	} cases[] = {
		{ "-O3 -arch=sm_80", "-arch=sm_80", "archs", TRUE },
		{ "-gencode arch=compute_80,code=sm_80", "-gencode", "archs", TRUE },
		{ "-ccbin g++-12", "-ccbin", "ccbin", TRUE },
		{ "-MD", "-MD", "headers", TRUE },
		{ "-std=gnu++17", "-std=gnu++17", "not 'gnu++17'", FALSE },
		{ "-rdc=maybe", "-rdc=maybe", "true or false", FALSE },
		{ "--threads x", "--threads", "number", FALSE },
		{ "-O3 --threads", "--threads", "needs a value", FALSE },
	};
	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		CudaFlags f;
		const char *bad;
		char *why;
		gboolean owned;
		g_assert_false(cudaflags_read(cases[i].value, &f, &bad, &why, &owned));
		g_assert_cmpstr(bad, ==, cases[i].bad);
		g_assert_nonnull(strstr(why, cases[i].why_has));
		g_assert_cmpint(owned, ==, cases[i].owned);
		g_free(why);
		cudaflags_clear(&f);
	}
}

static void test_split_defines(void)
{
	const struct {
		const char *value;
		const char *words[6];
	} cases[] = {
		{ "A B=1,C=2", { "A", "B=1", "C=2" } },
		{ "VERSION=\"1.0\"", { "VERSION=\"1.0\"" } },
		{ "MSG=\"a b, c # d\" N=2", { "MSG=\"a b, c # d\"", "N=2" } },
		{ "MAX(a,b)=((a)>(b)?(a):(b)) X", { "MAX(a,b)=((a)>(b)?(a):(b))", "X" } },
		{ "\"NAME=a b\",Z", { "NAME=a b", "Z" } },
		{ "Q=\"say \\\"hi\\\"\"", { "Q=\"say \\\"hi\\\"\"" } },
		/* a value with a space and quotes (Cython's CYTHON_EXTERN_C),
		 * whole in double quotes with \" inside, or in single quotes */
		{ "\"CYTHON_EXTERN_C=extern \\\"C\\\"\" B", { "CYTHON_EXTERN_C=extern \"C\"", "B" } },
		{ "'CYTHON_EXTERN_C=extern \"C\"',B", { "CYTHON_EXTERN_C=extern \"C\"", "B" } },
		{ "\"P=a\\\\b\"", { "P=a\\b" } },
		/* a backslash before a blank or a comma keeps it in the value */
		{ "MSG=a\\ b\\,c N", { "MSG=a b,c", "N" } },
		{ "  ", { NULL } },
	};
	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		GPtrArray *w = g_ptr_array_new_with_free_func(g_free);
		g_assert_true(cg_split_defines(cases[i].value, w, NULL));
		guint n = 0;
		while (n < G_N_ELEMENTS(cases[i].words) && cases[i].words[n])
			n++;
		g_assert_cmpuint(w->len, ==, n);
		for (guint k = 0; k < n; k++)
			g_assert_cmpstr(g_ptr_array_index(w, k), ==, cases[i].words[k]);
		g_ptr_array_free(w, TRUE);
	}
	GPtrArray *w = g_ptr_array_new_with_free_func(g_free);
	GError *e = NULL;
	g_assert_false(cg_split_defines("V=\"1.0 X", w, &e));
	g_assert_nonnull(strstr(e->message, "unterminated"));
	g_clear_error(&e);
	g_ptr_array_free(w, TRUE);
}

/* The fatbinary step of nvcc --dryrun -lineinfo names the source: it
 * becomes the F placeholder, not a leftover temporary. */
static void test_ident(void)
{
	const char *text =
		"#$ gcc -D__CUDA_ARCH_LIST__=800 -E -x c++ -D__CUDACC__ \"cugenprobe.cu\" -o \"/tmp/tmpxft_1-5_cugenprobe.cpp4.ii\"\n"
		"#$ cudafe++ --orig_src_file_name \"cugenprobe.cu\" --orig_src_path_name \"/p/cugenprobe.cu\" "
		"--gen_c_file_name \"/tmp/tmpxft_1-6_cugenprobe.cudafe1.cpp\" --stub_file_name \"tmpxft_1-6_cugenprobe.cudafe1.stub.c\" "
		"--gen_module_id_file --module_id_file_name \"/tmp/tmpxft_1-4_cugenprobe.module_id\" \"/tmp/tmpxft_1-5_cugenprobe.cpp4.ii\"\n"
		"#$ gcc -D__CUDA_ARCH__=800 -D__CUDA_ARCH_LIST__=800 -E -x c++ \"cugenprobe.cu\" -o \"/tmp/tmpxft_1-7_cugenprobe.cpp1.ii\"\n"
		"#$ cicc --orig_src_file_name \"cugenprobe.cu\" --orig_src_path_name \"/p/cugenprobe.cu\" -arch compute_80 "
		"--include_file_name \"tmpxft_1-3_cugenprobe.fatbin.c\" -generate-line-info --module_id_file_name "
		"\"/tmp/tmpxft_1-4_cugenprobe.module_id\" --gen_c_file_name \"/tmp/tmpxft_1-6_cugenprobe.cudafe1.c\" "
		"--stub_file_name \"/tmp/tmpxft_1-6_cugenprobe.cudafe1.stub.c\" --gen_device_file_name "
		"\"/tmp/tmpxft_1-6_cugenprobe.cudafe1.gpu\" \"/tmp/tmpxft_1-7_cugenprobe.cpp1.ii\" -o \"/tmp/tmpxft_1-6_cugenprobe.ptx\"\n"
		"#$ ptxas -arch=sm_80 -m64 --generate-line-info \"/tmp/tmpxft_1-6_cugenprobe.ptx\" -o \"/tmp/tmpxft_1-8_cugenprobe.cubin\"\n"
		"#$ fatbinary -64 --ident=\"cugenprobe.cu\" --cmdline=\" --generate-line-info \" --cicc-cmdline=\"-ftz=0\" "
		"\"--image3=kind=elf,sm=80,file=/tmp/tmpxft_1-8_cugenprobe.cubin\" --embedded-fatbin=\"/tmp/tmpxft_1-3_cugenprobe.fatbin.c\"\n"
		"#$ gcc -D__CUDA_ARCH__=800 -c -x c++ \"/tmp/tmpxft_1-6_cugenprobe.cudafe1.cpp\" -o \"cugenprobe.o\"\n";
	GError *err = NULL;
	Pipeline *p = pipeline_parse(text, &err);
	g_assert_no_error(err);
	gboolean found = FALSE;
	for (guint i = 0; i < p->fatbin->len; i++)
		found |= strcmp(g_ptr_array_index(p->fatbin, i), "--ident=" P_F) == 0;
	g_assert_true(found);
	pipeline_free(p);
}

static void test_uncompress(void)
{
	char plain[4096];
	for (gsize i = 0; i < sizeof plain; i++)
		plain[i] = (char)("cugen image "[i % 12]);
	char z[8192];
	size_t zn = ZSTD_compress(z, sizeof z, plain, sizeof plain, 3);
	g_assert_false(ZSTD_isError(zn));
	GError *e = NULL;
	GBytes *b = image_uncompress("zstd", (const guint8 *)z, zn, sizeof plain, &e);
	g_assert_no_error(e);
	gsize n;
	const void *d = g_bytes_get_data(b, &n);
	g_assert_cmpuint(n, ==, sizeof plain);
	g_assert_cmpmem(d, n, plain, sizeof plain);
	g_bytes_unref(b);
	char l[8192];
	int ln = LZ4_compress_default(plain, l, sizeof plain, sizeof l);
	g_assert_cmpint(ln, >, 0);
	b = image_uncompress("lz4", (const guint8 *)l, (gsize)ln, sizeof plain, &e);
	g_assert_no_error(e);
	d = g_bytes_get_data(b, &n);
	g_assert_cmpmem(d, n, plain, sizeof plain);
	g_bytes_unref(b);
	/* damaged, or claiming another size: errors, not crashes */
	z[zn / 2] ^= 0x55;
	b = image_uncompress("zstd", (const guint8 *)z, zn, sizeof plain, &e);
	if (b) /* (a flipped byte may still decode: then to other bytes) */
		g_bytes_unref(b);
	else
		g_clear_error(&e);
	g_assert_null(image_uncompress("lz4", (const guint8 *)l, (gsize)ln, sizeof plain + 1, &e));
	g_clear_error(&e);
	g_assert_null(image_uncompress("lz4", (const guint8 *)l, (gsize)ln, 0, &e));
	g_clear_error(&e);
	g_assert_null(image_uncompress("brotli", (const guint8 *)l, (gsize)ln, sizeof plain, &e));
	g_clear_error(&e);
	/* not an ELF file: the normalised hash is the plain one */
	char *h = image_norm_sha256((const guint8 *)plain, sizeof plain);
	char *s = g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)plain, sizeof plain);
	g_assert_cmpstr(h, ==, s);
	g_free(h);
	g_free(s);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/cudaflags/taken", test_flags_taken);
	g_test_add_func("/cudaflags/refused", test_flags_refused);
	g_test_add_func("/util/split_defines", test_split_defines);
	g_test_add_func("/pipeline/ident", test_ident);
	g_test_add_func("/imagehash/uncompress", test_uncompress);
	return g_test_run();
}
