/* test_archspell.c -- arch lists in other tools' spellings (archspell.c):
 * nvcc's -gencode options and CMake's lists, as cugen's archs and ptx,
 * and what is refused. */
#include <glib.h>

#include "archspell.h"

static void gencode(const char *spec, const char *archs, const char *ptx)
{
	char *a = NULL, *p = NULL, *bad = NULL;
	gboolean ok = archspell_gencode(spec, &a, &p, &bad);
	if (!archs) {
		g_assert_false(ok);
	} else {
		g_assert_true(ok);
		g_assert_cmpstr(a, ==, archs);
		g_assert_cmpstr(p, ==, ptx);
	}
	g_free(a);
	g_free(p);
	g_free(bad);
}

static void test_gencode(void)
{
	gencode("-gencode=arch=compute_80,code=sm_80", "80", "none");
	gencode("-gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=[sm_90,compute_90]", "80 90", "90");
	gencode("--generate-code=arch=compute_75,code=sm_75 --generate-code arch=compute_80,code=\"[sm_80,compute_80]\"",
		"75 80", "80");
	gencode("-gencode=arch=compute_90a,code=sm_90a", "90a", "none");
	/* a family arch: nvcc builds sm_100f from code=sm_100 too */
	gencode("-gencode=arch=compute_100f,code=sm_100", "100f", "none");
	gencode("--generate-code=arch=compute_100f,code=[sm_100,compute_100f]", "100f", "100f");
	gencode("-gencode=arch=compute_100f,code=sm_103", NULL, NULL);
	gencode("-gencode=arch=compute_90a,code=sm_90", NULL, NULL);
	/* a PTX-only last entry, as CuPy writes it */
	gencode("-gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_120,code=compute_120", "80 compute_120", "none");
	gencode("arch=compute_80,code=compute_80", "compute_80", "none");
	gencode("-arch=sm_86", "86", "86");
	gencode("-arch sm_86", "86", "86");
	gencode("'-gencode=arch=compute_80,code=sm_80'", "80", "none");
	/* the same arch twice is one */
	gencode("-gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_80,code=compute_80", "80", "80");
}

static void test_refused(void)
{
	gencode("", NULL, NULL);
	gencode("-gencode", NULL, NULL);
	gencode("-gencode=arch=sm_80,code=sm_80", NULL, NULL);
	gencode("-gencode=arch=compute_80", NULL, NULL);
	gencode("-gencode=arch=compute_80,code=sm_80 -O3", NULL, NULL);
	gencode("-gencode=arch=compute_80,code=sm_8x", NULL, NULL);
	char *a = NULL, *p = NULL, *bad = NULL;
	g_assert_false(archspell_gencode("-gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_80,code=sm_86", &a,
					 &p, &bad));
	g_assert_cmpstr(bad, ==, "arch=compute_80,code=sm_86");
	g_assert_null(a);
	g_free(bad);
	g_assert_true(archspell_is_gencode("-gencode=arch=compute_80,code=sm_80"));
	g_assert_true(archspell_is_gencode("-arch=sm_80"));
	g_assert_false(archspell_is_gencode("80 90"));
	g_assert_false(archspell_is_gencode("80-real;90"));
}

static void test_cmake(void)
{
	char *a = NULL, *p = NULL;
	g_assert_true(archspell_cmake("80-real;90", &a, &p));
	g_assert_cmpstr(a, ==, "80 90");
	g_assert_cmpstr(p, ==, "90");
	g_free(a);
	g_free(p);
	g_assert_false(archspell_cmake("80-fast", &a, &p));
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/archspell/gencode", test_gencode);
	g_test_add_func("/archspell/refused", test_refused);
	g_test_add_func("/archspell/cmake", test_cmake);
	return g_test_run();
}
