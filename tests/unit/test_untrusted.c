/* test_untrusted.c -- the rules for what cugen is handed: names below a
 * directory (safepath.c), writes and removals that follow no planted
 * symbolic link, bounded reads, sealed state files (statefile.c) and
 * bounded runs of other programs (spawn.c); and a compile cache's
 * directory (cachedir.c), which only an empty or new one becomes, also
 * while other edges are making it. */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache_int.h"
#include "safepath.h"
#include "shard.h"
#include "spawn.h"
#include "statefile.h"
#include "util.h"

static char *tmpdir;

static char *path(const char *rel)
{
	return g_build_filename(tmpdir, rel, NULL);
}

static void test_rel_ok(void)
{
	const char *good[] = { "a", "obj/t/k.cu.o", "a b/$c;d", "é/x", "..a/b..", NULL };
	const char *bad[] = { "", "/etc/passwd", "../x", "a/../../x", "a/..", "./a", "a//b", "a/", "a\nb",
			      "a\tb", "a/./b", NULL };
	for (int i = 0; good[i]; i++)
		g_assert_true(cg_rel_ok(good[i]));
	for (int i = 0; bad[i]; i++)
		g_assert_false(cg_rel_ok(bad[i]));
	g_assert_false(cg_rel_ok(NULL));
}

/* The files a shard spec's image names by its group and arch: beside
 * the image, or none when the names would leave the build directory. */
static void test_spec_files(void)
{
	char *f = shard_spec_file("obj/t/k.cu.p/sm_90a.cubin", "sm_90a", "deps");
	g_assert_cmpstr(f, ==, "obj/t/k.cu.p/90a.full.d");
	g_free(f);
	f = shard_spec_file("obj/t/k.cu.p/compute_120.ptx", "compute_120", "stub");
	g_assert_cmpstr(f, ==, "obj/t/k.cu.p/120.stub.c");
	g_free(f);
	f = shard_spec_file("obj/t/k.cu.p/sm_80.cubin", "sm_80", "id");
	g_assert_cmpstr(f, ==, "obj/t/k.cu.p/id");
	g_free(f);
	const char *bad[][2] = { { "obj/k.cu.p/sm_80.cubin", "sm_../../../etc/x" }, { "obj/k.cu.p/sm_80.cubin", "sm80" },
				 { "obj/k.cu.p/sm_80.cubin", "sm_" }, { "obj/k.cu.p/sm_80.cubin", NULL },
				 { "../x/sm_80.cubin", "sm_80" }, { "/etc/sm_80.cubin", "sm_80" },
				 { "obj/k.cu.p/sm_80.cubin", "sm_8\n0" } };
	for (gsize i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_assert_null(shard_spec_file(bad[i][0], bad[i][1], "deps"));
		g_assert_null(shard_spec_file(bad[i][0], bad[i][1], "stub"));
	}
	for (gsize i = 0; i < 6; i++) /* (the id file's name holds no arch) */
		g_assert_null(shard_spec_file(bad[i][0], bad[i][1], "id"));
}

static void test_write_beneath(void)
{
	char *root = path("root"), *outside = path("outside"), *victim = path("outside/victim");
	g_mkdir_with_parents(root, 0777);
	g_mkdir_with_parents(outside, 0777);
	g_assert_true(g_file_set_contents(victim, "keep", -1, NULL));
	GError *e = NULL;
	/* a plain write, directories made */
	g_assert_true(cg_write_beneath(root, "a/b/c.txt", "x", 1, &e));
	g_assert_no_error(e);
	char *c = path("root/a/b/c.txt"), *t = NULL;
	g_assert_true(g_file_get_contents(c, &t, NULL, NULL));
	g_assert_cmpstr(t, ==, "x");
	g_free(t);
	/* a directory on the way is a link out: refused, nothing written */
	char *link = path("root/out");
	g_assert_cmpint(symlink(outside, link), ==, 0);
	g_assert_false(cg_write_beneath(root, "out/victim", "bad", 3, &e));
	g_assert_error(e, CUGEN_ERROR, CUGEN_ERROR_INPUT);
	g_clear_error(&e);
	/* '..' and absolute names: refused */
	g_assert_false(cg_write_beneath(root, "../outside/victim", "bad", 3, &e));
	g_clear_error(&e);
	g_assert_false(cg_write_beneath(root, victim, "bad", 3, &e));
	g_clear_error(&e);
	/* the final name a link: the link is replaced, its target kept */
	char *flink = path("root/f");
	g_assert_cmpint(symlink(victim, flink), ==, 0);
	g_assert_true(cg_write_beneath(root, "f", "new", 3, &e));
	struct stat sb;
	g_assert_cmpint(lstat(flink, &sb), ==, 0);
	g_assert_true(S_ISREG(sb.st_mode));
	/* appends: through no link */
	char *llink = path("root/log");
	g_assert_cmpint(symlink(victim, llink), ==, 0);
	g_assert_cmpint(cg_append_beneath(root, "log"), <, 0);
	g_assert_cmpint(cg_append_beneath(root, "out/victim"), <, 0);
	int fd = cg_append_beneath(root, "a/log");
	g_assert_cmpint(fd, >=, 0);
	close(fd);
	g_assert_true(g_file_get_contents(victim, &t, NULL, NULL));
	g_assert_cmpstr(t, ==, "keep");
	g_free(t);
	/* removal: a link to a directory goes as a link */
	char *dlink = path("root/a/d");
	g_assert_cmpint(symlink(outside, dlink), ==, 0);
	cg_rm_tree(root);
	g_assert_false(g_file_test(root, G_FILE_TEST_EXISTS));
	g_assert_true(g_file_get_contents(victim, &t, NULL, NULL));
	g_assert_cmpstr(t, ==, "keep");
	g_free(t);
	/* a link given to cg_rm_tree itself: only the link goes */
	g_assert_cmpint(symlink(outside, root), ==, 0);
	cg_rm_tree(root);
	g_assert_true(g_file_test(victim, G_FILE_TEST_EXISTS));
	g_assert_false(g_file_test(root, G_FILE_TEST_IS_SYMLINK));
	cg_rm_tree(outside);
	g_free(root);
	g_free(outside);
	g_free(victim);
	g_free(c);
	g_free(link);
	g_free(flink);
	g_free(llink);
	g_free(dlink);
}

static void test_read_regular(void)
{
	char *f = path("r.txt"), *fifo = path("r.fifo");
	g_assert_true(g_file_set_contents(f, "12345", -1, NULL));
	GError *e = NULL;
	gsize len = 0;
	char *t = cg_read_regular(f, 5, FALSE, &len, &e);
	g_assert_cmpstr(t, ==, "12345");
	g_assert_cmpuint(len, ==, 5);
	g_free(t);
	g_assert_null(cg_read_regular(f, 4, FALSE, NULL, &e)); /* over the bound */
	g_clear_error(&e);
	g_assert_cmpint(mkfifo(fifo, 0644), ==, 0);
	g_assert_null(cg_read_regular(fifo, 100, FALSE, NULL, &e)); /* refused, not waited on */
	g_assert_nonnull(strstr(e->message, "not a regular file"));
	g_clear_error(&e);
	g_assert_null(cg_read_regular("/dev/zero", 100, FALSE, NULL, &e));
	g_clear_error(&e);
	g_unlink(fifo);
	g_unlink(f);
	g_free(f);
	g_free(fifo);
}

static void test_state_seal(void)
{
	char *f = path("probe.ini");
	GString *s = state_seal("probe", g_string_new("[toolkit]\nversion=13.0\n"));
	g_assert_true(g_str_has_prefix(s->str, "# cugen STATE probe 1 sha256="));
	g_assert_true(g_file_set_contents(f, s->str, s->len, NULL));
	gsize len = 0;
	char *body = state_read(f, "probe", &len);
	g_assert_cmpstr(body, ==, "[toolkit]\nversion=13.0\n");
	g_free(body);
	/* another kind's seal, a changed byte, a cut file, none: NULL */
	g_assert_null(state_read(f, "plan", NULL));
	s->str[s->len - 3] = 'X';
	g_assert_true(g_file_set_contents(f, s->str, s->len, NULL));
	g_assert_null(state_read(f, "probe", NULL));
	g_assert_true(g_file_set_contents(f, s->str, 40, NULL));
	g_assert_null(state_read(f, "probe", NULL));
	g_assert_true(g_file_set_contents(f, "[toolkit]\nversion=13.0\n", -1, NULL));
	g_assert_null(state_read(f, "probe", NULL));
	GKeyFile *k = g_key_file_new();
	g_assert_false(state_load_keyfile(k, f, "probe"));
	g_key_file_free(k);
	g_string_free(s, TRUE);
	g_unlink(f);
	g_free(f);
}

static void test_spawn_bounds(void)
{
	GError *e = NULL;
	char *out = NULL;
	int status = 0;
	const char *echo[] = { "/bin/sh", "-c", "echo hi; echo err >&2", NULL };
	char *errout = NULL;
	g_assert_true(cg_spawn_bounded(NULL, echo, 0, &out, &errout, &status, &e));
	g_assert_cmpstr(out, ==, "hi\n");
	g_assert_cmpstr(errout, ==, "err\n");
	g_free(out);
	g_free(errout);
	/* a hang: killed at the limit, with its children */
	g_setenv("CUGEN_TOOL_TIMEOUT", "1", TRUE);
	const char *hang[] = { "/bin/sh", "-c", "sleep 30 & sleep 30", NULL };
	gint64 t0 = g_get_monotonic_time();
	g_assert_false(cg_spawn_bounded(NULL, hang, 0, &out, NULL, &status, &e));
	g_assert_nonnull(strstr(e->message, "did not finish within 1s"));
	g_assert_nonnull(strstr(e->message, "CUGEN_TOOL_TIMEOUT"));
	g_clear_error(&e);
	g_assert_cmpint(g_get_monotonic_time() - t0, <, 25 * G_USEC_PER_SEC); /* not the child's 30 s */
	g_unsetenv("CUGEN_TOOL_TIMEOUT");
	/* a flood: killed past the limit */
	g_setenv("CUGEN_TOOL_OUTPUT", "1M", TRUE);
	const char *flood[] = { "yes", NULL };
	g_assert_false(cg_spawn_bounded(NULL, flood, G_SPAWN_SEARCH_PATH, &out, NULL, &status, &e));
	g_assert_nonnull(strstr(e->message, "printed more than 1048576 bytes"));
	g_clear_error(&e);
	g_unsetenv("CUGEN_TOOL_OUTPUT");
	/* bad limits fall back to the defaults */
	g_setenv("CUGEN_TOOL_TIMEOUT", "-5", TRUE);
	g_assert_cmpfloat(cg_spawn_timeout(), ==, 300);
	g_setenv("CUGEN_TOOL_OUTPUT", "nan", TRUE);
	g_assert_cmpuint(cg_spawn_output_max(), ==, 64u << 20);
	g_unsetenv("CUGEN_TOOL_TIMEOUT");
	g_unsetenv("CUGEN_TOOL_OUTPUT");
}

static void test_cache_root(void)
{
	char *c = path("cache");
	/* new: made a cache */
	g_assert_true(ch_cache_root(c, TRUE));
	g_assert_true(ch_has_tag(c));
	/* another edge's tag half written (its temporary alone): still
	 * empty, this one writes the tag too */
	char *c2 = path("cache2"), *tmp = g_build_filename(c2, ".CACHEDIR.TAG.0badf00d", NULL);
	g_mkdir(c2, 0755);
	g_assert_true(g_file_set_contents(tmp, "partial", -1, NULL));
	g_assert_true(ch_cache_root(c2, TRUE));
	g_assert_true(ch_has_tag(c2));
	/* an empty directory a user made: a cache, and a cache it stays */
	char *c3 = path("cache3"), *tag = g_build_filename(c3, "CACHEDIR.TAG", NULL);
	g_mkdir(c3, 0755);
	g_assert_true(ch_cache_root(c3, TRUE));
	g_assert_true(ch_cache_root(c3, TRUE));
	/* a directory of other files never becomes one */
	char *d = path("notcache"), *f = g_build_filename(d, "data.txt", NULL);
	g_mkdir(d, 0755);
	g_assert_true(g_file_set_contents(f, "x", -1, NULL));
	g_assert_false(ch_cache_root(d, TRUE));
	char *tagd = g_build_filename(d, "CACHEDIR.TAG", NULL);
	g_assert_false(g_file_test(tagd, G_FILE_TEST_EXISTS));
	g_free(tagd);
	g_free(f);
	g_free(d);
	g_free(tag);
	g_free(c3);
	g_free(tmp);
	g_free(c2);
	g_free(c);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	tmpdir = g_dir_make_tmp("cugen-untrusted-XXXXXX", NULL);
	g_test_add_func("/untrusted/rel_ok", test_rel_ok);
	g_test_add_func("/untrusted/spec_files", test_spec_files);
	g_test_add_func("/untrusted/write_beneath", test_write_beneath);
	g_test_add_func("/untrusted/read_regular", test_read_regular);
	g_test_add_func("/untrusted/state_seal", test_state_seal);
	g_test_add_func("/untrusted/spawn_bounds", test_spawn_bounds);
	g_test_add_func("/untrusted/cache_root", test_cache_root);
	int rc = g_test_run();
	cg_rm_tree(tmpdir);
	g_free(tmpdir);
	return rc;
}
