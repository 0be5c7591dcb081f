/* test_tuscan.c -- unit tests for tuscan.c, the first plan's look at a
 * TU's text: includes followed through the include directories (quoted
 * ones from the including file's directory first, each file once, a
 * cycle, a missing header), CUB/Thrust reached through a project header,
 * comments and strings that must not count, kernels, device-wide calls
 * (distinct, `using namespace cub`, Thrust's algorithms and not its
 * containers), explicit instantiations and `extern template`, an
 * X-macro list applied, macros of several parameters that expand to
 * instantiations through other macros (not after `extern`, a macro
 * naming itself counted once), the units and their weights. */
#include <glib.h>
#include <math.h>
#include <glib/gstdio.h>
#include <string.h>

#include "tuscan.h"

static char *root;

static void put(const char *rel, const char *text)
{
	char *p = g_build_filename(root, rel, NULL), *d = g_path_get_dirname(p);
	g_mkdir_with_parents(d, 0755);
	g_assert_true(g_file_set_contents(p, text, -1, NULL));
	g_free(d);
	g_free(p);
}

static TuScan scan(const char *rel, const char *dir)
{
	TuScanner *s = tuscan_new();
	char *p = g_build_filename(root, rel, NULL), *inc = dir ? g_build_filename(root, dir, NULL) : NULL;
	const char *dirs[] = { inc };
	TuScan t;
	tuscan_tu(s, p, NULL, dirs, inc ? 1 : 0, 0, &t);
	g_free(p);
	g_free(inc);
	tuscan_free(s);
	return t;
}

static void test_light(void)
{
	put("light/a.cu", "#include \"a.h\"\n"
			  "// __global__ void commented();\n"
			  "/* __global__ void also_commented();\n"
			  "   cub::DeviceScan::InclusiveSum */\n"
			  "const char *s = \"__global__ cub::DeviceReduce::Sum\";\n"
			  "__global__ void k1(float *x) {}\n"
			  "__global__ void k2(float *x) {}\n"
			  "extern template void f<int>(int);\n"
			  "template <typename T> __global__ void k3(T *x) {}\n");
	put("light/a.h", "#pragma once\n#include <vector>\n#include \"a.h\"\n__global__ void k4();\n");
	TuScan t = scan("light/a.cu", NULL);
	g_assert_false(t.heavy);
	g_assert_cmpuint(t.kernels, ==, 4);
	g_assert_cmpuint(t.calls, ==, 0);
	g_assert_cmpuint(t.inst, ==, 0);
	g_assert_cmpuint(t.files, ==, 2); /* a.h once, <vector> not found */
	g_assert_cmpfloat(t.units, ==, 0);
}

static void test_heavy_through_header(void)
{
	put("h/inc/lib/util.cuh", "#include <cub/device/device_scan.cuh>\n");
	put("h/src/scan.cu", "#include <lib/util.cuh>\n"
			     "void f(int *a, int *b, int n, void *t, size_t &bytes) {\n"
			     "  cub::DeviceScan::InclusiveSum(nullptr, bytes, a, b, n);\n"
			     "  cub::DeviceScan::InclusiveSum(t, bytes, a, b, n);\n"
			     "  cub::DeviceReduce::Sum(t, bytes, a, b, n);\n"
			     "}\n");
	TuScan t = scan("h/src/scan.cu", "h/inc");
	g_assert_true(t.heavy);
	g_assert_cmpuint(t.calls, ==, 2); /* distinct: the sizing call is the same */
	g_assert_cmpfloat(t.units, ==, 2);
	/* without the include directory the header is not found: light */
	TuScan u = scan("h/src/scan.cu", NULL);
	g_assert_false(u.heavy);
}

static void test_nested_macros(void)
{
	put("n/case.cuh", "template <int D, typename T> void run_case(T *x) {\n#pragma unroll\n"
			  "  for (int i = 0; i < D; i++) x[i] = 0;\n#pragma unroll 4\n  for (;;) {}\n}\n"
			  "#define DECL_HELPER(T, D) \\\n  template void run_case<D, T>(T *x);\n"
			  "#define DECL_CASE(D) \\\n  DECL_HELPER(float, D) \\\n  DECL_HELPER(int, D) \\\n"
			  "  DECL_HELPER(double, D)\n"
			  "#define DECL_EXTERN(D) extern DECL_HELPER(float, D) extern DECL_HELPER(int, D)\n"
			  "#define LOOP(D) LOOP(D) DECL_HELPER(char, D)\n"
			  "DECL_EXTERN(64);\n"
			  "extern DECL_CASE(32);\n");
	put("n/a.cu", "#include \"case.cuh\"\n"
		      "DECL_CASE(64);\n"
		      "DECL_CASE (128);\n"
		      "DECL_HELPER(long, 16);\n"
		      "LOOP(8);\n"
		      "void f(int *x) { run_case<8>(x); }\n");
	TuScan t = scan("n/a.cu", NULL);
	g_assert_false(t.heavy);
	/* 3 + 3 + 1 + 1 (LOOP's own name not expanded again); the extern
	 * ones are made elsewhere */
	g_assert_cmpuint(t.inst, ==, 8);
	g_assert_cmpfloat(t.units, ==, 0);
	/* no CUB/Thrust call: its unrolls are template code, built as much
	 * as it instantiates */
	g_assert_true(t.templated);
	g_assert_cmpuint(t.unrolls, ==, 2);
	g_assert_cmpfloat_with_epsilon(t.tunits, 2 * sqrt(8.0), 1e-9);
	/* the header alone instantiates nothing (its DECL_EXTERN lines are
	 * extern): not templated, its unrolls priced as plain code */
	put("n/b.cu", "#include \"case.cuh\"\nvoid g(void) {}\n");
	TuScan u = scan("n/b.cu", NULL);
	g_assert_cmpuint(u.inst, ==, 0);
	g_assert_false(u.templated);
	g_assert_cmpfloat(u.tunits, ==, 0);
	char *d = tuscan_describe(&t);
	g_assert_nonnull(strstr(d, "8 instantiations"));
	g_free(d);
}

static void test_xlist(void)
{
	put("x/types.h", "#define TYPES(X) \\\n  X(int) X(float) \\\n  X(double) X(long)\n");
	put("x/sort.cu", "#include <cub/device/device_radix_sort.cuh>\n"
			 "#include \"types.h\"\n"
			 "template <typename T> int keys(T *a, T *b, int n) {\n"
			 "  return cub::DeviceRadixSort::SortKeys(nullptr, 0, a, b, n); }\n"
			 "template <typename T> int sum(T *a, T *b, int n) {\n"
			 "  return cub::DeviceReduce::Sum(nullptr, 0, a, b, n); }\n"
			 "#define INST(T) template int keys<T>(T *, T *, int); \\\n"
			 "  template int sum<T>(T *, T *, int);\n"
			 "TYPES(INST)\n"
			 "template int keys<char>(char *, char *, int);\n"
			 "template int sum<char>(char *, char *, int);\n");
	TuScan t = scan("x/sort.cu", NULL);
	g_assert_true(t.heavy);
	g_assert_cmpuint(t.calls, ==, 2);
	g_assert_cmpuint(t.inst, ==, 10); /* 4 types x 2, and 2 written out */
	/* 5 instantiations per call: the sort weighs 3, the sum 1 */
	g_assert_cmpfloat(t.units, ==, 20);
}

static void test_using_and_thrust(void)
{
	put("u/a.cu", "#include <cub/cub.cuh>\n#include <thrust/sort.h>\n"
		      "using namespace cub;\n"
		      "__global__ void k() { typedef BlockReduce<int, 128> R; }\n"
		      "void f() { DeviceRadixSort::SortPairs(0, 0, 0, 0, 0); thrust::device_vector<int> v;\n"
		      "  thrust::sort(v.begin(), v.end()); thrust::reduce (v.begin(), v.end()); }\n");
	TuScan t = scan("u/a.cu", NULL);
	g_assert_true(t.heavy);
	g_assert_cmpuint(t.kernels, ==, 1);
	/* BlockReduce 1/4, SortPairs 3, thrust::sort 3 + 1, thrust::reduce 1 + 1 */
	g_assert_cmpuint(t.calls, ==, 4);
	g_assert_cmpfloat(t.units, ==, 9.25);
	/* without `using namespace cub` the bare names are someone else's */
	put("u/b.cu", "#include <cub/cub.cuh>\nvoid f() { DeviceRadixSort::SortPairs(0, 0, 0, 0, 0); }\n");
	TuScan u = scan("u/b.cu", NULL);
	g_assert_cmpuint(u.calls, ==, 0);
	g_assert_cmpfloat(u.units, ==, 1); /* it includes CUB: one unit */
	/* a library and no call seen: each explicit instantiation a unit */
	put("u/c.cu", "#include <cutlass/gemm/device/gemm.h>\n"
		      "template <typename T> void gemm(T *a) { }\n"
		      "template void gemm<float>(float *);\ntemplate void gemm<double>(double *);\n"
		      "template void gemm<int>(int *);\n");
	TuScan w = scan("u/c.cu", NULL);
	g_assert_true(w.heavy);
	g_assert_cmpuint(w.calls, ==, 0);
	g_assert_cmpfloat(w.units, ==, 3);
}

static void test_missing(void)
{
	TuScan t = scan("nothing/here.cu", NULL);
	g_assert_false(t.heavy);
	g_assert_cmpuint(t.files, ==, 1);
	g_assert_cmpuint(t.kernels, ==, 0);
	char *d = tuscan_describe(&t);
	g_assert_cmpstr(d, ==, "no CUB/Thrust, 0 kernels, 1 files");
	g_free(d);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	root = g_dir_make_tmp("cugen-tuscan-XXXXXX", NULL);
	g_assert_nonnull(root);
	g_test_add_func("/tuscan/light", test_light);
	g_test_add_func("/tuscan/heavy_through_header", test_heavy_through_header);
	g_test_add_func("/tuscan/xlist", test_xlist);
	g_test_add_func("/tuscan/nested_macros", test_nested_macros);
	g_test_add_func("/tuscan/using_and_thrust", test_using_and_thrust);
	g_test_add_func("/tuscan/missing", test_missing);
	int rc = g_test_run();
	char *cmd = g_strdup_printf("rm -rf '%s'", root);
	g_assert_cmpint(system(cmd), ==, 0);
	g_free(cmd);
	g_free(root);
	return rc;
}
