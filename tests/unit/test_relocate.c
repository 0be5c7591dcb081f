/* test_relocate.c -- layout-free names (relocate.c): paths as @BUILD@ and
 * @SRC@ and back, a device rule's text the same in two layouts, the first
 * difference of two rule texts as combine says it, and `cugen srcnames`
 * on line markers and PTX .file names. */
#include <glib.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "relocate.h"

static const Places in_tree = { "/home/a/proj", "/home/a/proj/build" };
static const Places outside = { "/w/ci/src/proj", "/scratch/b/x" };

static void check_path(const Places *p, const char *path, const char *want)
{
	char *r = reloc_path(path, p);
	g_assert_cmpstr(r, ==, want);
	g_free(r);
}

static void test_paths(void)
{
	check_path(&in_tree, "../lib/a.cu", "@SRC@/lib/a.cu");
	check_path(&in_tree, "obj/t/a.cu.p/80.ii", "@BUILD@/obj/t/a.cu.p/80.ii");
	check_path(&in_tree, "/home/a/proj/include/x.h", "@SRC@/include/x.h");
	check_path(&in_tree, "..", "@SRC@");
	check_path(&in_tree, "/usr/local/cuda/bin/../include/cuda.h", "/usr/local/cuda/bin/../include/cuda.h");
	/* beside the project, written relative: from the build directory, so
	 * that checkouts elsewhere with the same layout name it alike */
	check_path(&in_tree, "../../other/y.h", "@BUILD@/../../other/y.h");
	char *back = reloc_local("@BUILD@/../../other/y.h", &in_tree);
	g_assert_cmpstr(back, ==, "/home/a/other/y.h");
	g_free(back);
	/* a directory whose name starts like the project's is not below it */
	check_path(&in_tree, "/home/a/project2/z.h", "/home/a/project2/z.h");
	check_path(&outside, "../../../w/ci/src/proj/lib/a.cu", "@SRC@/lib/a.cu");
	check_path(&outside, "/w/ci/src/proj/lib/a.cu", "@SRC@/lib/a.cu");
	/* and back, in another layout */
	char *l = reloc_local("@SRC@/lib/a.cu", &outside);
	g_assert_cmpstr(l, ==, "/w/ci/src/proj/lib/a.cu");
	g_free(l);
	l = reloc_local("@BUILD@/obj/x", &in_tree);
	g_assert_cmpstr(l, ==, "/home/a/proj/build/obj/x");
	g_free(l);
	l = reloc_local("/usr/include/stdio.h", &in_tree);
	g_assert_cmpstr(l, ==, "/usr/include/stdio.h");
	g_free(l);
}

static void test_rule_text(void)
{
	const char *a = "'/opt/cg/bin/cugen' exec log ${out} -- gcc -I../include -isystem /usr/local/cuda/include "
			"-D X=1 ${in} -o ${O}/80.ii && '/opt/cg/bin/cugen' srcnames .. ${O}/80.ii";
	const char *b = "/other/cugen exec log ${out} -- gcc -I/w/ci/src/proj/include -isystem /usr/local/cuda/include "
			"-D X=1 ${in} -o ${O}/80.ii && /other/cugen srcnames ../../../w/ci/src/proj ${O}/80.ii";
	char *ta = reloc_rule_text(a, "/opt/cg/bin/cugen", &in_tree);
	char *tb = reloc_rule_text(b, "/other/cugen", &outside);
	g_assert_cmpstr(ta, ==, tb);
	g_assert_nonnull(strstr(ta, "-I@SRC@/include"));
	g_assert_null(reloc_first_difference(ta, tb));
	g_free(tb);
	/* line info without srcnames records the build directory */
	const char *c = "cicc -generate-line-info ${O}/80.ii -o ${O}/compute_80.ptx";
	tb = reloc_rule_text(c, "cugen", &outside);
	g_assert_true(g_str_has_prefix(tb, "build-directory=/scratch/b/x "));
	char *tc = reloc_rule_text(c, "cugen", &in_tree);
	char *d = reloc_first_difference(tb, tc);
	g_assert_nonnull(strstr(d, "records the build directory '/scratch/b/x' where this build's is '/home/a/proj/build'"));
	g_free(d);
	g_free(tc);
	g_free(tb);
	g_free(ta);
}

static void check_diff(const char *theirs, const char *mine, const char *want)
{
	char *d = reloc_first_difference(theirs, mine);
	g_assert_cmpstr(d, ==, want);
	g_free(d);
}

static void test_first_difference(void)
{
	check_diff("nvcc -O3 a b c d", "nvcc -O2 a b c d", "'-O3' where this build has '-O2'");
	check_diff("gcc -D A=1 -I x y z w", "gcc -D A=1 -D B=2 -I x y z w", "no '-D B=2', which this build has");
	check_diff("gcc -D A=1 -D B=2 -I x y z w", "gcc -D A=1 -I x y z w", "'-D B=2', which this build does not have");
	check_diff("gcc -D A=1 -I x", "gcc -D A=2 -I x", "'-D A=1' where this build has '-D A=2'");
	check_diff("gcc -I@SRC@/inc a", "gcc -I/opt/inc a", "'-I<project>/inc' where this build has '-I/opt/inc'");
	check_diff("gcc a", "gcc a b", "no 'b', which this build has");
	check_diff("gcc a b", "gcc a", "'b', which this build does not have");
	check_diff("gcc  a", "gcc a", "the same words in another form");
}

/* `cugen srcnames` run in dir on a file holding text: the file after. */
static char *srcnames(const char *dir, const char *mode, const char *text)
{
	char *cwd = g_get_current_dir();
	char *f = g_build_filename(dir, "f.txt", NULL);
	g_assert_true(g_file_set_contents(f, text, -1, NULL));
	g_assert_cmpint(chdir(dir), ==, 0);
	char *argv[] = { "srcnames", (char *)mode, f, NULL };
	g_assert_cmpint(cmd_srcnames(3, argv), ==, 0);
	g_assert_cmpint(chdir(cwd), ==, 0);
	char *out = NULL;
	g_assert_true(g_file_get_contents(f, &out, NULL, NULL));
	g_free(f);
	g_free(cwd);
	return out;
}

static void test_srcnames(void)
{
	char *tmp = g_dir_make_tmp("cugen-relocate-XXXXXX", NULL);
	char *real = realpath(tmp, NULL);
	char *build = g_build_filename(real, "proj", "build", NULL);
	g_assert_cmpint(g_mkdir_with_parents(build, 0777), ==, 0);
	char *ii = srcnames(build, "..",
			    "# 1 \"../lib/a.cu\"\n"
			    "# 1 \"<built-in>\"\n"
			    "# 12 \"/usr/include/stdio.h\" 3\n"
			    "# 3 \"obj/gen.h\" 2\n"
			    "# 4 \"../../elsewhere/b.h\"\n"
			    "#pragma once \"../x\"\n"
			    "int x; // # 1 \"../y\"\n");
	char *want = g_strdup_printf("# 1 \"lib/a.cu\"\n"
				     "# 1 \"<built-in>\"\n"
				     "# 12 \"/usr/include/stdio.h\" 3\n"
				     "# 3 \"obj/gen.h\" 2\n"
				     "# 4 \"%s/elsewhere/b.h\"\n"
				     "#pragma once \"../x\"\n"
				     "int x; // # 1 \"../y\"\n", real);
	g_assert_cmpstr(ii, ==, want);
	g_free(want);
	g_free(ii);
	char *ptx_in = g_strdup_printf("\t.file\t1 \"%s/lib/a.cu\"\n\t.file\t2 \"/proc/self/cwd/include/b.h\"\n"
				       "\t.file\t3 \"/usr/include/c.h\"\n\t.loc\t1 2 3\n", build);
	char *ptx = srcnames(build, "--ptx", ptx_in);
	g_assert_cmpstr(ptx, ==, "\t.file\t1 \"lib/a.cu\"\n\t.file\t2 \"include/b.h\"\n"
				 "\t.file\t3 \"/usr/include/c.h\"\n\t.loc\t1 2 3\n");
	g_free(ptx);
	g_free(ptx_in);
	char *f = g_build_filename(build, "f.txt", NULL);
	g_unlink(f);
	g_free(f);
	g_rmdir(build);
	char *proj = g_path_get_dirname(build);
	g_rmdir(proj);
	g_free(proj);
	g_rmdir(tmp);
	g_free(build);
	free(real);
	g_free(tmp);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/relocate/paths", test_paths);
	g_test_add_func("/relocate/rule_text", test_rule_text);
	g_test_add_func("/relocate/first_difference", test_first_difference);
	g_test_add_func("/relocate/srcnames", test_srcnames);
	return g_test_run();
}
