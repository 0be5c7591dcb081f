/* test_capability.c -- the compute capabilities images run on
 * (capability.c): one image, unions, what a program of several modules
 * covers, and the conda-forge cuda-arch spec. */
#include <glib.h>

#include "capability.h"

static char *cover(const char *const *arch, const char *const *module, guint n, char **spec)
{
	GArray *u = cc_cover(arch, module, n);
	char *d = cc_describe(u);
	*spec = cc_conda_spec(u);
	g_array_unref(u);
	return d;
}

static void check(const char *const *arch, const char *const *module, guint n, const char *want, const char *want_spec)
{
	char *spec = NULL;
	char *d = cover(arch, module, n, &spec);
	g_assert_cmpstr(d, ==, want);
	g_assert_cmpstr(spec, ==, want_spec);
	g_free(d);
	g_free(spec);
}

static void test_one(void)
{
	CcRange r;
	g_assert_true(cc_of_arch("sm_80", &r));
	g_assert_cmpint(r.lo, ==, 80);
	g_assert_cmpint(r.hi, ==, 90);
	g_assert_true(cc_of_arch("sm_90a", &r));
	g_assert_cmpint(r.hi, ==, 91);
	g_assert_true(cc_of_arch("sm_100f", &r));
	g_assert_cmpint(r.hi, ==, 110);
	g_assert_true(cc_of_arch("compute_120", &r));
	g_assert_cmpint(r.lo, ==, 120);
	g_assert_cmpint(r.hi, ==, CC_OPEN);
	g_assert_false(cc_of_arch("lto_80", &r));
	g_assert_false(cc_of_arch("sm_", &r));
	g_assert_false(cc_of_arch("sm_80x", &r));
}

static void test_cover(void)
{
	const char *a1[] = { "sm_75", "sm_80", "compute_80" };
	check(a1, (const char *[]){ "k", "k", "k" }, 3, "7.5+", "cuda-arch >=7.5");
	const char *a2[] = { "sm_75", "sm_80" };
	check(a2, (const char *[]){ "k", "k" }, 2, "7.5-8.9", "cuda-arch >=7.5,<9.0");
	const char *a3[] = { "sm_80" };
	check(a3, (const char *[]){ "k" }, 1, "8.0-8.x", "cuda-arch >=8.0,<9.0");
	/* a gap: no one spec */
	const char *a4[] = { "sm_75", "sm_90" };
	check(a4, (const char *[]){ "k", "k" }, 2, "7.5-7.x, 9.0-9.x", NULL);
	/* a program runs where every module runs: b.cu has no sm_75 */
	const char *a5[] = { "sm_75", "sm_80", "compute_80", "sm_80", "compute_80" };
	check(a5, (const char *[]){ "a.cu", "a.cu", "a.cu", "b.cu", "b.cu" }, 5, "8.0+", "cuda-arch >=8.0");
	/* LTO-IR alone runs on nothing as it is; beside SASS it adds nothing */
	const char *a6[] = { "lto_80", "sm_90a" };
	check(a6, (const char *[]){ "x", "y" }, 2, "9.0", "cuda-arch >=9.0,<9.1");
	check(a6, (const char *[]){ "x", "y" }, 1, "", NULL);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/capability/one", test_one);
	g_test_add_func("/capability/cover", test_cover);
	return g_test_run();
}
