/* test_core.c -- unit tests for util.c, depfile.c, config.c and
 * pipeline.c: quoting, paths, lists, suggestions, depfile parsing, INI
 * reading with line numbers, overrides and profiles, and the --dryrun
 * parser's refusal of what it does not know. */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "config.h"
#include "depfile.h"
#include "history.h"
#include "jsonout.h"
#include "statefile.h"
#include "pipeline.h"
#include "speed.h"

#include "util.h"

static char *tmpdir;

static void test_sh_quote(void)
{
	char *q = cg_sh_quote("plain-path/x.cu");
	g_assert_cmpstr(q, ==, "plain-path/x.cu");
	g_free(q);
	q = cg_sh_quote("a b");
	g_assert_cmpstr(q, ==, "'a b'");
	g_free(q);
	q = cg_sh_quote("it's");
	g_assert_cmpstr(q, ==, "'it'\\''s'");
	g_free(q);
	q = cg_sh_quote("");
	g_assert_cmpstr(q, ==, "''");
	g_free(q);
	q = cg_sh_quote("$HOME");
	g_assert_cmpstr(q, ==, "'$HOME'");
	g_free(q);
}

static void test_paths(void)
{
	char *r = cg_relpath("/a/b/c/d.cu", "/a/b/build");
	g_assert_cmpstr(r, ==, "../c/d.cu");
	g_free(r);
	r = cg_relpath("/a/b", "/a/b");
	g_assert_cmpstr(r, ==, ".");
	g_free(r);
	r = cg_path_norm("/x/./y/../z//w");
	g_assert_cmpstr(r, ==, "/x/z/w");
	g_free(r);
	r = cg_path_norm("../a/../../b");
	g_assert_cmpstr(r, ==, "../../b");
	g_free(r);
	r = cg_path_join("/p", "/abs");
	g_assert_cmpstr(r, ==, "/abs");
	g_free(r);
	/* the fast paths (a normal path as it is; a path under a directory)
	 * and the cases they must leave to the general one */
	const char *norm[][2] = { { "/a/b.cu", "/a/b.cu" }, { "a/b", "a/b" }, { "a/", "a" }, { "a/.", "a" },
				  { "./a", "a" }, { "a//b", "a/b" }, { "/..", "/" }, { "a/..", "." }, { ".", "." },
				  { "..", ".." }, { "/", "/" }, { ".a/..b", ".a/..b" } };
	for (gsize i = 0; i < G_N_ELEMENTS(norm); i++) {
		r = cg_path_norm(norm[i][0]);
		g_assert_cmpstr(r, ==, norm[i][1]);
		g_free(r);
	}
	const char *rels[][3] = { { "/a/b/c.cu", "/a/b", "c.cu" }, { "/a/bc/d", "/a/b", "../bc/d" },
				  { "/a/b/c", "/a/b/", "c" }, { "/a/b/./c", "/a/b", "./c" }, { "/x/y", "/", "x/y" },
				  { "/a/b/../c", "/a/b", "../c" }, { "ab/c", "ab", "c" } };
	for (gsize i = 0; i < G_N_ELEMENTS(rels); i++) {
		r = cg_relpath(rels[i][0], rels[i][1]);
		g_assert_cmpstr(r, ==, rels[i][2]);
		g_free(r);
	}
}

static void test_path_near(void)
{
	g_assert_true(cg_path_near("/home/a/repo/utils", "/home/a/repo/proj"));
	g_assert_true(cg_path_near("/home/a", "/home/a/repo"));
	g_assert_false(cg_path_near("/usr/include/eigen3", "/usr2/src/proj"));
	g_assert_false(cg_path_near("/usr/include", "/usr/src/proj"));
	g_assert_false(cg_path_near("/home/ab/x", "/home/a/x"));
	g_assert_false(cg_path_near("/home", "/home"));
}

static void test_json_string(void)
{
	/* what cugen writes, json-glib reads back as it was: quotes,
	 * backslashes, control characters, UTF-8; an invalid byte as U+FFFD */
	const char *in[] = { "plain/path.cu", "a\"b\\c\nd\te\rf\x01g\x7fh\xc3\xa9", "", "bad\xff" "byte" };
	const char *back[] = { "plain/path.cu", "a\"b\\c\nd\te\rf\x01g\x7fh\xc3\xa9", "", "bad\xef\xbf\xbd" "byte" };
	JsonBuilder *b = json_builder_new();
	json_builder_begin_array(b);
	for (gsize i = 0; i < G_N_ELEMENTS(in); i++)
		cg_json_add_str(b, in[i]);
	cg_json_add_str(b, NULL);
	json_builder_end_array(b);
	GString *o = cg_json_finish(b, FALSE);
	g_assert_true(g_str_has_suffix(o->str, "]\n"));
	g_assert_nonnull(strstr(o->str, "\\u0001"));
	JsonParser *p = json_parser_new();
	g_assert_true(json_parser_load_from_data(p, o->str, (gssize)o->len, NULL));
	JsonArray *a = json_node_get_array(json_parser_get_root(p));
	g_assert_cmpuint(json_array_get_length(a), ==, G_N_ELEMENTS(in) + 1);
	for (guint i = 0; i < G_N_ELEMENTS(in); i++)
		g_assert_cmpstr(json_array_get_string_element(a, i), ==, back[i]);
	g_assert_true(json_array_get_null_element(a, G_N_ELEMENTS(in)));
	g_object_unref(p);
	g_string_free(o, TRUE);
}

/* cg_json_put_str writes what json-glib's generator writes for the same
 * string (every byte from 1 to 255 alone and together, invalid UTF-8,
 * quotes and backslashes), but U+001F, which json-glib 1.6 leaves bare
 * and JSON forbids; and json-glib reads each back as it was. */
static void test_json_put_str(void)
{
	GPtrArray *in = g_ptr_array_new_with_free_func(g_free);
	char all[256];
	for (int c = 1; c < 256; c++) {
		g_ptr_array_add(in, g_strdup_printf("x%cy", c));
		all[c - 1] = (char)c;
	}
	all[255] = 0;
	g_ptr_array_add(in, g_strdup(all));
	g_ptr_array_add(in, g_strdup("a\"b\\c \xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80 bad\xc3 end\xff"));
	g_ptr_array_add(in, g_strdup(""));
	for (guint i = 0; i < in->len; i++) {
		const char *v = g_ptr_array_index(in, i);
		JsonBuilder *b = json_builder_new();
		json_builder_begin_array(b);
		cg_json_add_str(b, v);
		json_builder_end_array(b);
		GString *glib = cg_json_finish(b, FALSE); /* ["..."]\n */
		GString *ours = g_string_new("[");
		cg_json_put_str(ours, v);
		g_string_append(ours, "]\n");
		if (!strchr(v, 0x1f)) {
			g_assert_cmpstr(ours->str, ==, glib->str);
		} else {
			g_assert_nonnull(strstr(ours->str, "\\u001f"));
			g_assert_null(strchr(ours->str, 0x1f));
		}
		JsonParser *p = json_parser_new();
		g_assert_true(json_parser_load_from_data(p, ours->str, (gssize)ours->len, NULL));
		JsonArray *a = json_node_get_array(json_parser_get_root(p));
		char *want = g_utf8_make_valid(v, -1);
		g_assert_cmpstr(json_array_get_string_element(a, 0), ==, want);
		g_free(want);
		g_object_unref(p);
		g_string_free(ours, TRUE);
		g_string_free(glib, TRUE);
	}
	g_ptr_array_free(in, TRUE);
}

static void test_split_list(void)
{
	GPtrArray *v = g_ptr_array_new_with_free_func(g_free);
	g_assert_true(cg_split_list(" a.cu,b.cu  \"c d.cu\" e", v, NULL));
	g_assert_cmpuint(v->len, ==, 4);
	g_assert_cmpstr(g_ptr_array_index(v, 2), ==, "c d.cu");
	g_assert_cmpstr(g_ptr_array_index(v, 3), ==, "e");
	g_ptr_array_set_size(v, 0);
	GError *err = NULL;
	g_assert_false(cg_split_list("\"open", v, &err));
	g_assert_nonnull(err);
	g_error_free(err);
	g_ptr_array_free(v, TRUE);
}

static void test_suggest(void)
{
	const char *keys[] = { "archs", "ptx", "mode", "flags", NULL };
	g_assert_cmpstr(cg_suggest("arch", keys), ==, "archs");
	g_assert_cmpstr(cg_suggest("flag", keys), ==, "flags");
	g_assert_null(cg_suggest("zzzzzz", keys));
}

static void test_depfile(void)
{
	GPtrArray *d = depfile_parse("obj/x.o: ../a\\ b.h \\\n /usr/include/c$$d.h ../e\\#f.h\n");
	g_assert_cmpuint(d->len, ==, 3);
	g_assert_cmpstr(g_ptr_array_index(d, 0), ==, "../a b.h");
	g_assert_cmpstr(g_ptr_array_index(d, 1), ==, "/usr/include/c$d.h");
	g_assert_cmpstr(g_ptr_array_index(d, 2), ==, "../e#f.h");
	GString *s = depfile_format("t", d);
	GPtrArray *back = depfile_parse(s->str);
	g_assert_cmpuint(back->len, ==, 3);
	for (guint i = 0; i < 3; i++)
		g_assert_cmpstr(g_ptr_array_index(back, i), ==, g_ptr_array_index(d, i));
	g_string_free(s, TRUE);
	g_ptr_array_free(back, TRUE);
	g_ptr_array_free(d, TRUE);
}

/* Write dir/cugen.ini and dir/k.cu; load with options. */
static Config *load(const char *ini, const char *profile, const char *archs,
		    const char *const *defs, GError **err)
{
	char *path = g_build_filename(tmpdir, "cugen.ini", NULL);
	g_assert_true(g_file_set_contents(path, ini, -1, NULL));
	char *k = g_build_filename(tmpdir, "k.cu", NULL);
	g_file_set_contents(k, "", 0, NULL);
	char *m = g_build_filename(tmpdir, "m.cpp", NULL);
	g_file_set_contents(m, "", 0, NULL);
	char *n = g_build_filename(tmpdir, "n.cpp", NULL);
	g_file_set_contents(n, "", 0, NULL);
	g_free(n);
	ConfigOptions o = { path, profile, archs, (char **)defs };
	Config *c = config_load(&o, err);
	g_free(path);
	g_free(k);
	g_free(m);
	return c;
}

static void expect_error(const char *ini, const char *fragment, int line)
{
	GError *err = NULL;
	Config *c = load(ini, NULL, NULL, NULL, &err);
	g_assert_null(c);
	g_assert_nonnull(err);
	if (!strstr(err->message, fragment))
		g_error("'%s' does not contain '%s'", err->message, fragment);
	if (line) {
		char *want = g_strdup_printf("cugen.ini:%d: error: ", line);
		if (!strstr(err->message, want))
			g_error("'%s' is not at line %d", err->message, line);
		g_free(want);
	}
	g_error_free(err);
}

static const char *base_ini =
	"; comment\n"
	"[project]\n"
	"name = demo   ; inline comment\n"
	"[cuda]\n"
	"archs = 80,90  # another comment\n"
	"flags = -O3\n"
	"[target lib]\n"
	"type = static\n"
	"sources = k.cu\n"
	"  m.cpp\n"
	"defines = A=1 \"B=two words\"\n"
	"[target app]\n"
	"type = executable\n"
	"sources = n.cpp\n"
	"deps = lib\n"
	"[profile ci]\n"
	"archs = 80\n"
	"jobs = 3\n"
	"flags = -O2\n";

static void test_config_ok(void)
{
	GError *err = NULL;
	Config *c = load(base_ini, NULL, NULL, NULL, &err);
	g_assert_no_error(err);
	g_assert_cmpstr(c->name, ==, "demo");
	g_assert_cmpstr(c->archs.value, ==, "80,90");
	g_assert_cmpint(c->archs.loc.line, ==, 5);
	g_assert_cmpuint(c->targets->len, ==, 2);
	g_assert_cmpuint(c->profiles->len, ==, 1);
	g_assert_null(c->build_archs);
	Target *lib = g_hash_table_lookup(c->by_name, "lib");
	g_assert_cmpuint(lib->sources->len, ==, 2); /* continuation line */
	g_assert_cmpuint(lib->defines->len, ==, 2);
	g_assert_cmpstr(g_ptr_array_index(lib->defines, 1), ==, "B=two words");
	g_assert_cmpstr(lib->cuda_flags, ==, "-O3");
	Target *app = g_hash_table_lookup(c->by_name, "app");
	g_assert_true(g_ptr_array_index(app->deps, 0) == lib);
	GPtrArray *order = config_target_order(c);
	g_assert_true(g_ptr_array_index(order, 0) == lib);
	g_ptr_array_free(order, TRUE);
	config_free(c);
}

static void test_config_profile_and_defines(void)
{
	GError *err = NULL;
	const char *defs[] = { "cuda.flags=-O1", "profile.ci.jobs=5", NULL };
	Config *c = load(base_ini, "ci", NULL, defs, &err);
	g_assert_no_error(err);
	g_assert_cmpstr(c->profile->name, ==, "ci");
	g_assert_cmpint(c->profile->jobs, ==, 5);       /* -D on the profile */
	g_assert_cmpstr(c->build_archs->value, ==, "80");    /* profile subset */
	g_assert_cmpstr(c->flags, ==, "-O1");                /* -D wins over the profile */
	config_free(c);

	c = load(base_ini, "ci", "90", NULL, &err);
	g_assert_no_error(err);
	g_assert_cmpstr(c->build_archs->value, ==, "90");    /* --archs wins */
	g_assert_cmpstr(c->flags, ==, "-O2");                /* profile over [cuda] */
	config_free(c);

	c = load(base_ini, "nope", NULL, NULL, &err);
	g_assert_null(c);
	g_assert_error(err, CUGEN_ERROR, CUGEN_ERROR_USAGE);
	g_clear_error(&err);

	const char *bad[] = { "cuda.arch=80", NULL };
	c = load(base_ini, NULL, NULL, bad, &err);
	g_assert_null(c);
	g_assert_nonnull(strstr(err->message, "did you mean 'archs'"));
	g_clear_error(&err);
}

static void test_config_errors(void)
{
	expect_error("[project]\nname = x\n[cuda]\narch = 80\n", "did you mean 'archs'?", 4);
	expect_error("name = x\n", "before any section", 1);
	expect_error("[project]\nname = x\n[target a]\ntype = static\nsources = k.cu\n[target a]\ntype = static\nsources = m.cpp\n",
		     "duplicate section [target a] (first at line 3)", 6);
	expect_error("[project]\nname = x\nname = y\n", "duplicate key 'name' (first at line 2)", 3);
	expect_error("[project]\nname = x\n[target a]\ntype = static\nsources = k.cu\ndeps = b\n[target b]\ntype = static\nsources = m.cpp\ndeps = a\n",
		     "dependency cycle", 0);
	expect_error("[project]\nname = x\n[target a]\ntype = static\nsources = zz.cu\n", "source file 'zz.cu' not found", 5);
	expect_error("[project]\nname = x\n[target a]\ntype = static\nsources = *.cxx\n", "glob '*.cxx' matches no file", 5);
	expect_error("[project]\nname = x\n[cuda]\nlto = yes\n", "lto = yes needs mode = rdc", 4);
	expect_error("[project]\nname = x\n[cuda]\nmode = rcd\n", "did you mean 'rdc'?", 4);
	expect_error("[project]\nname = x\n[oops]\n", "unknown section [oops]", 3);
	expect_error("[project]\nname = x\n[target a]\ntype = static\nsources = k.cu\ndeps = kernel\n[target kernels]\ntype = static\nsources = m.cpp\n",
		     "did you mean 'kernels'?", 6);
	expect_error("[project]\nname = x\nthis line has no equals\n", "expected 'key = value'", 3);
	expect_error("[project]\nname = x\n[target a]\ntype = static\nsources = k.cu\n[profile p]\njobs = many\n", "invalid jobs 'many'", 7);
}

/* The line of a word in a value that goes on over continuation lines. */
static void test_config_word_loc(void)
{
	Loc at = { "f.ini", 10 };
	/* "a.cu" on line 10, "ab.cu" on 11, "b.cu" on 12, "a.cu" again on 13 */
	const char *v = "a.cu ab.cu b.cu a.cu";
	GArray *lines = g_array_new(FALSE, FALSE, sizeof(ValueLine));
	ValueLine l[] = { { 5, 11 }, { 11, 12 }, { 16, 13 } };
	g_array_append_vals(lines, l, G_N_ELEMENTS(l));
	g_assert_cmpint(config_word_loc(at, lines, v, "a.cu", FALSE).line, ==, 10);
	g_assert_cmpint(config_word_loc(at, lines, v, "a.cu", TRUE).line, ==, 13);
	g_assert_cmpint(config_word_loc(at, lines, v, "ab.cu", FALSE).line, ==, 11);
	g_assert_cmpint(config_word_loc(at, lines, v, "b.cu", FALSE).line, ==, 12); /* not inside ab.cu */
	g_assert_cmpint(config_word_loc(at, lines, v, "c.cu", FALSE).line, ==, 10); /* not written: the key's */
	g_assert_cmpint(config_word_loc(at, NULL, v, "b.cu", FALSE).line, ==, 10); /* one line */
	g_assert_true(config_word_loc(at, lines, v, "b.cu", FALSE).file == at.file);
	/* quoted words and comma lists */
	const char *q = "lib, \"my dir/x.cu\",y.cu";
	ValueLine ql[] = { { 5, 11 }, { 19, 12 } };
	g_array_set_size(lines, 0);
	g_array_append_vals(lines, ql, G_N_ELEMENTS(ql));
	g_assert_cmpint(config_word_loc(at, lines, q, "my dir/x.cu", FALSE).line, ==, 11);
	g_assert_cmpint(config_word_loc(at, lines, q, "y.cu", FALSE).line, ==, 12);
	g_array_free(lines, TRUE);
	/* through config_load: the continuation line of the missing source
	 * (archs are read with the toolkit: tests/cases/114) */
	expect_error("[project]\nname = x\n[target a]\ntype = static\nsources = k.cu\n  m.cpp\n  zz.cu\n",
		     "source file 'zz.cu' not found", 7);
}

static void test_config_long_line(void)
{
	GString *s = g_string_new("[project]\nname = x\nversion = ");
	for (int i = 0; i < 70000; i++)
		g_string_append_c(s, 'v');
	g_string_append(s, "\n");
	expect_error(s->str, "line too long", 3);
	g_string_free(s, TRUE);
}

#include "dryrun.h"


static gboolean has(GPtrArray *argv, const char *s)
{
	for (guint i = 0; i < argv->len; i++)
		if (strcmp(g_ptr_array_index(argv, i), s) == 0)
			return TRUE;
	return FALSE;
}

static void test_pipeline(void)
{
	GError *err = NULL;
	Pipeline *p = pipeline_parse(dryrun_text, &err);
	g_assert_no_error(err);
	g_assert_cmpstr(p->arch_list, ==, "800");
	g_assert_cmpuint(p->archs->len, ==, 1);
	PipeArch *a = g_ptr_array_index(p->archs, 0);
	g_assert_cmpstr(a->id, ==, "80");
	g_assert_true(a->sass && a->ptx);
	g_assert_true(has(a->cicc, P_O "/id"));
	g_assert_true(has(a->cicc, P_STUB));
	g_assert_true(has(a->cicc, P_C));
	g_assert_true(has(a->ptxas, P_O "/sm_80.cubin"));
	g_assert_true(has(a->pp, P_IN));
	g_assert_true(has(p->cudafe, "stub.c"));
	g_assert_cmpstr(g_ptr_array_index(a->cicc, 0), ==, "/cuda/nvvm/bin/cicc");
	g_assert_true(has(p->host_cc, P_OUT));
	g_assert_cmpuint(p->images->len, ==, 2);
	g_assert_cmpstr(g_ptr_array_index(p->images, 0), ==, "elf:80");
	pipeline_free(p);

	/* an unknown tool, and an unknown temporary file, are refused */
	char *bad = g_strdup(dryrun_text);
	char *x = strstr(bad, "cudafe++");
	memcpy(x, "mystery+", 8);
	p = pipeline_parse(bad, &err);
	g_assert_null(p);
	g_assert_nonnull(strstr(err->message, "unknown step 'mystery+'"));
	g_clear_error(&err);
	g_free(bad);
	GString *odd_s = g_string_new(dryrun_text);
	g_string_replace(odd_s, "compute_80.cudafe1.cpp\" -o \"cugenprobe.o\"", "compute_80.weird\" -o \"cugenprobe.o\"", 1);
	char *odd = g_string_free(odd_s, FALSE);
	p = pipeline_parse(odd, &err);
	g_assert_null(p);
	g_assert_nonnull(strstr(err->message, "unrecognised temporary file"));
	g_clear_error(&err);
	g_free(odd);
	/* a step nvcc should run once, twice */
	char *twice = g_strconcat(dryrun_text, "#$ gcc -D__CUDA_ARCH__=800 -c -x c++ \"x.cpp\" -o \"cugenprobe.o\"\n", NULL);
	p = pipeline_parse(twice, &err);
	g_assert_null(p);
	g_assert_nonnull(strstr(err->message, "two host compile steps"));
	g_clear_error(&err);
	g_free(twice);
}

/* edges.log: the latest line per (edge, step) counts; lines without five
 * fields, or whose numbers are not plain (an exponent, nan, inf, a sign)
 * or beyond what a step measures, are dropped; numbers read as strtod reads them */
static void test_history(void)
{
	char *dir = g_build_filename(tmpdir, "hist", ".cugen", NULL);
	g_mkdir_with_parents(dir, 0777);
	char *log = g_build_filename(dir, "edges.log", NULL);
	const char *text = "a.o\tgcc\t100\t1.500\t2\n"
			   "a.o\tcicc\t300\t2.000\t2\n"
			   "garbage\n"
			   "b.o\tgcc\t50\t0.125\t1\tsixth\n"
			   "a.o\tgcc\t200\t0.300\t1\n"
			   "c.o\tnvlink\t7\t1e1\t1\n"
			   "e.o\tcicc\t7\tnan\t1\n"
			   "f.o\tcicc\t7\t-5\t1\n"
			   "g.o\tcicc\t7\t1\tinf\n"
			   "h.o\tbad step\t7\t1\t1\n"
			   "\n"
			   "i.o\tcicc\t99999999999999\t1\t1\n"
			   "j.o\tcicc\t7\t1000000.5\t1\n"
			   "d.o\tptxas\t9\t123456.789012\t1";
	g_assert_true(g_file_set_contents(log, text, -1, NULL));
	char *b = g_build_filename(tmpdir, "hist", NULL);
	History *h = history_load(b);
	g_assert_cmpuint(h->edges, ==, 2);
	const EdgeStat *a = history_get(h, "a.o");
	g_assert_nonnull(a);
	g_assert_cmpfloat(a->cpu, ==, 0.3 + 2.0);
	g_assert_cmpfloat(a->cpu_pre, ==, 0.3);
	g_assert_cmpfloat(a->rss, ==, 300 * 1024.0);
	g_assert_null(history_get(h, "b.o"));
	/* (i.o, j.o: more than a step can measure, 1 TiB or 10^6 s) */
	const char *refused[] = { "c.o", "e.o", "f.o", "g.o", "h.o", "i.o", "j.o" };
	for (gsize i = 0; i < G_N_ELEMENTS(refused); i++)
		g_assert_null(history_get(h, refused[i]));
	g_assert_cmpfloat(history_get(h, "d.o")->cpu, ==, g_ascii_strtod("123456.789012", NULL));
	g_assert_cmpfloat(history_get(h, "d.o")->cpu_pre, ==, 0);
	g_assert_cmpfloat(history_get(h, "d.o")->cpu_ptxas, ==, g_ascii_strtod("123456.789012", NULL));
	g_assert_cmpfloat(a->cpu_ptxas, ==, 0);
	g_assert_cmpstr(h->compact->str, ==, "a.o\tgcc\t200\t0.300\t1\n"
					     "a.o\tcicc\t300\t2.000\t2\n"
					     "d.o\tptxas\t9\t123456.789012\t1\n");
	GString *c = history_compact(b);
	g_assert_cmpstr(c->str, ==, h->compact->str);
	g_string_free(c, TRUE);
	history_free(h);
	g_unlink(log);
	g_rmdir(dir);
	g_rmdir(b);
	g_free(b);
	g_free(log);
	g_free(dir);
}

/* plan.ini: the choices and the tail split's edges read back as
 * written (a path with ';' and a space included), and whether it was
 * weighed on guessed costs; a split not weighed is unknown (-1), one
 * weighed and not taken 0 */
static void test_history_choices(void)
{
	char *b = g_build_filename(tmpdir, "choices", NULL);
	char *dir = g_build_filename(b, ".cugen", NULL);
	char *ini = g_build_filename(dir, "plan.ini", NULL);
	g_mkdir_with_parents(dir, 0777);
	GHashTable *set = g_hash_table_new(g_str_hash, g_str_equal);
	g_hash_table_add(set, "obj/t/b.cu.p/sm_90.cubin");
	g_hash_table_add(set, "obj/t/a;b c.cu.p/sm_80.cubin");
	const struct {
		int tail;
		GHashTable *set;
		gboolean guessed;
		int want_tail;
		guint want_n;
		gboolean want_guessed;
	} cases[] = { { 4, set, FALSE, 4, 2, FALSE }, { 4, set, TRUE, 4, 2, TRUE }, { 0, NULL, TRUE, 0, 0, TRUE },
		      { 0, NULL, FALSE, 0, 0, FALSE }, { -1, NULL, TRUE, -1, 0, FALSE } };
	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		const int rank = (int)(i % 3) - 1; /* -1: not weighed */
		/* a probe's speed is kept (even cases), a given one not */
		const Speed sp = { 2.35, i % 2 == 0 ? 0.3512 : 0, 16, "probe" };
		GString *s = state_seal("plan", history_choices(TRUE, FALSE, i % 2 == 0, rank, cases[i].tail,
								 cases[i].set, cases[i].guessed, &sp));
		g_assert_true(g_file_set_contents(ini, s->str, -1, NULL));
		g_string_free(s, TRUE);
		History *h = history_load(b);
		g_assert_cmpint(h->syntax_stub, ==, 1);
		g_assert_cmpint(h->pp_edges, ==, 0);
		g_assert_cmpint(h->ptxas_edges, ==, i % 2 == 0);
		g_assert_cmpint(h->host_rank, ==, rank);
		g_assert_cmpint(h->tail_split, ==, cases[i].want_tail);
		g_assert_cmpuint(h->split_edges ? g_strv_length(h->split_edges) : 0, ==, cases[i].want_n);
		g_assert_cmpint(h->split_guessed, ==, cases[i].want_guessed);
		g_assert_cmpfloat(h->speed.speed, ==, i % 2 == 0 ? 2.35 : 0);
		g_assert_cmpfloat(h->speed.probe_cpu, ==, i % 2 == 0 ? 0.3512 : 0);
		g_assert_cmpint(h->speed.probe_jobs, ==, i % 2 == 0 ? 16 : 0);
		if (cases[i].want_n) { /* sorted */
			g_assert_cmpstr(h->split_edges[0], ==, "obj/t/a;b c.cu.p/sm_80.cubin");
			g_assert_cmpstr(h->split_edges[1], ==, "obj/t/b.cu.p/sm_90.cubin");
		}
		history_free(h);
	}
	/* a plan.ini changed by hand or garbled: not trusted, all unknown */
	GString *s = state_seal("plan", history_choices(TRUE, TRUE, TRUE, 1, 4, set, FALSE, NULL));
	s->str[s->len - 2] ^= 1;
	g_assert_true(g_file_set_contents(ini, s->str, -1, NULL));
	g_string_free(s, TRUE);
	History *h = history_load(b);
	g_assert_cmpint(h->syntax_stub, ==, -1);
	g_assert_cmpint(h->tail_split, ==, -1);
	g_assert_cmpfloat(h->speed.speed, ==, 0);
	history_free(h);
	g_hash_table_destroy(set);
	g_unlink(ini);
	g_rmdir(dir);
	g_rmdir(b);
	g_free(ini);
	g_free(dir);
	g_free(b);
}

/* Where a plan's speed comes from: a given one stays, the build
 * directory's kept probe is taken as it was, else a probe runs (its
 * figure depends on the machine: only its bounds are asserted). */
static void test_speed_settle(void)
{
	Speed given = { .speed = 3, .from = "CUGEN_SPEED" };
	const Speed kept = { 2.35, 0.3512, 16, NULL, FALSE };
	speed_settle(&given, &kept);
	g_assert_cmpfloat(given.speed, ==, 3);
	g_assert_cmpstr(given.from, ==, "CUGEN_SPEED");
	g_assert_true(given.used);
	Speed again = { .probe_jobs = 1 };
	speed_settle(&again, &kept);
	g_assert_cmpfloat(again.speed, ==, 2.35);
	g_assert_cmpfloat(again.probe_cpu, ==, 0.3512);
	g_assert_cmpint(again.probe_jobs, ==, 16);
	g_assert_nonnull(strstr(again.from, "first setup"));
	g_assert_true(again.used);
	Speed probed = { .probe_jobs = 1 };
	speed_settle(&probed, NULL);
	g_assert_cmpfloat(probed.probe_cpu, >, 0);
	g_assert_cmpint(probed.probe_jobs, ==, 1);
	g_assert_cmpfloat(probed.speed, >=, 0.25);
	g_assert_cmpfloat(probed.speed, <=, 8);
	g_assert_cmpstr(probed.from, ==, "a probe of this machine");
	g_assert_true(probed.used);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	tmpdir = g_dir_make_tmp("cugen-unit-XXXXXX", NULL);
	g_test_add_func("/util/sh_quote", test_sh_quote);
	g_test_add_func("/util/paths", test_paths);
	g_test_add_func("/util/split_list", test_split_list);
	g_test_add_func("/util/json_string", test_json_string);
	g_test_add_func("/util/json_put_str", test_json_put_str);
	g_test_add_func("/util/path_near", test_path_near);
	g_test_add_func("/util/suggest", test_suggest);
	g_test_add_func("/depfile/parse_format", test_depfile);
	g_test_add_func("/config/ok", test_config_ok);
	g_test_add_func("/config/profile_and_defines", test_config_profile_and_defines);
	g_test_add_func("/config/errors", test_config_errors);
	g_test_add_func("/config/long_line", test_config_long_line);
	g_test_add_func("/config/word_loc", test_config_word_loc);
	g_test_add_func("/pipeline/parse", test_pipeline);
	g_test_add_func("/history/read", test_history);
	g_test_add_func("/history/choices", test_history_choices);
	g_test_add_func("/speed/settle", test_speed_settle);
	int rc = g_test_run();
	const char *files[] = { "cugen.ini", "k.cu", "m.cpp", "n.cpp", NULL };
	for (int i = 0; files[i]; i++) {
		char *p = g_build_filename(tmpdir, files[i], NULL);
		g_unlink(p);
		g_free(p);
	}
	g_rmdir(tmpdir);
	g_free(tmpdir);
	return rc;
}
