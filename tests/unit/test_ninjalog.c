/* test_ninjalog.c -- unit tests for ninjalog.c and the pure parts of
 * report.c: .ninja_log edge cases (empty, header only, truncated and
 * malformed lines, versions 5 to 7 and bad ones, several runs, repeated
 * outputs, restat entries, CRLF), the build.ninja reader (escapes,
 * continuations, separators, descriptions), edge kinds from rule names,
 * job slots and the critical path. */
#include <glib.h>
#include <string.h>

#include "ninjalog.h"
#include "report.h"

static NinjaLog *parse(const char *text)
{
	GError *err = NULL;
	NinjaLog *log = ninjalog_parse(text, strlen(text), "b/.ninja_log", &err);
	g_assert_no_error(err);
	g_assert_nonnull(log);
	return log;
}

static const NinjaLogEntry *latest(const NinjaLog *log, guint i)
{
	g_assert_cmpuint(i, <, log->latest->len);
	return g_ptr_array_index(log->latest, i);
}

static void bad_log(const char *text, const char *want)
{
	GError *err = NULL;
	NinjaLog *log = ninjalog_parse(text, strlen(text), "b/.ninja_log", &err);
	g_assert_null(log);
	g_assert_nonnull(err);
	g_assert_true(g_str_has_prefix(err->message, "error: b/.ninja_log: "));
	if (!strstr(err->message, want))
		g_error("message '%s' lacks '%s'", err->message, want);
	g_assert_null(strchr(err->message, '\n'));
	g_error_free(err);
}

static void test_empty(void)
{
	NinjaLog *log = parse("");
	g_assert_cmpint(log->version, ==, 0);
	g_assert_cmpuint(log->all->len, ==, 0);
	g_assert_cmpuint(log->latest->len, ==, 0);
	g_assert_cmpuint(log->runs, ==, 0);
	g_assert_false(log->truncated);
	ninjalog_free(log);
}

static void test_header_only(void)
{
	const char *texts[] = { "# ninja log v5\n", "# ninja log v6", "# ninja log v7\r\n" };
	for (gsize i = 0; i < G_N_ELEMENTS(texts); i++) {
		NinjaLog *log = parse(texts[i]);
		g_assert_cmpint(log->version, ==, (int)i + 5);
		g_assert_cmpuint(log->latest->len, ==, 0);
		g_assert_cmpuint(log->runs, ==, 0);
		g_assert_cmpuint(log->malformed, ==, 0);
		ninjalog_free(log);
	}
}

static void test_versions(void)
{
	for (int v = 5; v <= 7; v++) {
		char *t = g_strdup_printf("# ninja log v%d\n"
					  "0\t120\t1700000000123456789\tobj/a.o\t6a1f2b3c4d5e6f70\n"
					  "3\t250\t0\tobj/b.o\t1234abcd\n", v);
		NinjaLog *log = parse(t);
		g_assert_cmpint(log->version, ==, v);
		g_assert_cmpuint(log->latest->len, ==, 2);
		g_assert_cmpstr(latest(log, 0)->output, ==, "obj/a.o");
		g_assert_cmpint(latest(log, 0)->start_ms, ==, 0);
		g_assert_cmpint(latest(log, 0)->end_ms, ==, 120);
		g_assert_cmpint(latest(log, 0)->mtime, ==, 1700000000123456789LL);
		g_assert_cmpstr(latest(log, 0)->hash, ==, "6a1f2b3c4d5e6f70");
		g_assert_cmpuint(latest(log, 0)->line, ==, 2);
		g_assert_cmpuint(latest(log, 1)->line, ==, 3);
		g_assert_cmpuint(log->runs, ==, 1);
		ninjalog_free(log);
		g_free(t);
	}
}

static void test_bad_versions(void)
{
	bad_log("# ninja log v4\n0\t1\t0\ta\tb\n", "version 4 is not supported");
	bad_log("# ninja log v8\n", "version 8 is not supported");
	bad_log("# ninja log v\n", "not a ninja log");
	bad_log("# ninja log v5x\n", "not a ninja log");
	bad_log("garbage\x01\n", "not a ninja log (its first line is 'garbage?'");
	bad_log("0\t1\t0\tobj/a.o\tabc\n", "not a ninja log");
	bad_log("# ninja log v99999999999999999999999\n", "not a ninja log");
}

static void test_truncated(void)
{
	/* cut in the middle of the output: ignored, flagged */
	NinjaLog *log = parse("# ninja log v5\n0\t10\t0\ta.o\tff\n5\t20\t0\tobj/b");
	g_assert_cmpuint(log->latest->len, ==, 1);
	g_assert_true(log->truncated);
	g_assert_cmpuint(log->malformed, ==, 0);
	ninjalog_free(log);
	/* cut after the numbers */
	log = parse("# ninja log v5\n0\t10\t0\ta.o\tff\n5\t2");
	g_assert_cmpuint(log->latest->len, ==, 1);
	g_assert_true(log->truncated);
	ninjalog_free(log);
	/* only the newline missing: kept */
	log = parse("# ninja log v5\n0\t10\t0\ta.o\tff\n5\t20\t0\tb.o\tabc");
	g_assert_cmpuint(log->latest->len, ==, 2);
	g_assert_false(log->truncated);
	g_assert_cmpstr(latest(log, 1)->hash, ==, "abc");
	ninjalog_free(log);
	/* the hash cut to nothing */
	log = parse("# ninja log v7\n0\t10\t0\ta.o\tff\n5\t20\t0\tb.o\t");
	g_assert_cmpuint(log->latest->len, ==, 1);
	g_assert_true(log->truncated);
	ninjalog_free(log);
}

static void test_malformed(void)
{
	NinjaLog *log = parse("# ninja log v5\n"
			      "0\t10\t0\ta.o\tff\n"
			      "x\t20\t0\tb.o\tff\n"          /* not a number */
			      "5\t20\t0\tc.o\n"              /* four fields */
			      "\n"                           /* empty: skipped silently */
			      "# a comment\n"
			      "30\t20\t0\td.o\tff\n"         /* ends before it starts */
			      "5\t20\t0\te.o\tff\textra\n"   /* six fields */
			      "5\t25\t0\t\tff\n"             /* no output */
			      "6\t30\t-1\tf.o\tzz\r\n");     /* CRLF, negative mtime */
	g_assert_cmpuint(log->latest->len, ==, 2);
	g_assert_cmpstr(latest(log, 0)->output, ==, "a.o");
	g_assert_cmpstr(latest(log, 1)->output, ==, "f.o");
	g_assert_cmpint(latest(log, 1)->mtime, ==, -1);
	g_assert_cmpstr(latest(log, 1)->hash, ==, "zz");
	g_assert_cmpuint(log->malformed, ==, 5);
	g_assert_cmpuint(log->first_malformed, ==, 3);
	g_assert_false(log->truncated);
	ninjalog_free(log);
	/* a NUL byte inside a line */
	const char t[] = "# ninja log v5\n0\t10\t0\ta\0.o\tff\n1\t11\t0\tb.o\tff\n";
	GError *err = NULL;
	log = ninjalog_parse(t, sizeof t - 1, "x", &err);
	g_assert_no_error(err);
	g_assert_cmpuint(log->latest->len, ==, 1);
	g_assert_cmpuint(log->malformed, ==, 1);
	ninjalog_free(log);
}

static void test_runs(void)
{
	/* three runs; the latest (an incremental build) has two edges */
	NinjaLog *log = parse("# ninja log v5\n"
			      "0\t100\t0\ta.o\t1\n"
			      "0\t300\t0\tb.o\t2\n"
			      "100\t400\t0\tapp\t3\n"
			      "0\t50\t0\ta.o\t1\n"
			      "50\t120\t0\tapp\t3\n"
			      "2\t80\t0\tb.o\t4\n"
			      "80\t150\t0\tapp\t5\n");
	g_assert_cmpuint(log->all->len, ==, 7);
	g_assert_cmpuint(log->runs, ==, 3);
	g_assert_cmpuint(log->latest->len, ==, 2);
	g_assert_cmpstr(latest(log, 0)->output, ==, "b.o");
	g_assert_cmpstr(latest(log, 1)->output, ==, "app");
	g_assert_cmpint(latest(log, 1)->end_ms, ==, 150);
	g_assert_cmpuint(latest(log, 0)->line, ==, 7);
	ninjalog_free(log);
	/* out-of-order starts within one run are not a new run */
	log = parse("# ninja log v6\n"
		    "10\t200\t0\tquick.o\t1\n"
		    "0\t900\t0\tslow.o\t2\n"
		    "900\t950\t0\tapp\t3\n");
	g_assert_cmpuint(log->runs, ==, 1);
	g_assert_cmpuint(log->latest->len, ==, 3);
	ninjalog_free(log);
	/* a new run whose first edge ends later than the last one before:
	 * found by the output that appears again (the later line wins) */
	log = parse("# ninja log v5\n"
		    "0\t100\t0\ta.o\t1\n"
		    "0\t150\t0\tb.o\t1\n"
		    "0\t200\t0\tb.o\t9\n"
		    "200\t260\t0\tapp\t9\n");
	g_assert_cmpuint(log->runs, ==, 2);
	g_assert_cmpuint(log->latest->len, ==, 2);
	g_assert_cmpstr(latest(log, 0)->output, ==, "b.o");
	g_assert_cmpstr(latest(log, 0)->hash, ==, "9");
	g_assert_cmpstr(latest(log, 1)->output, ==, "app");
	ninjalog_free(log);
}

static void test_restat(void)
{
	/* restat: an edge that left its output unchanged is logged with the
	 * mtime ninja chose (0 when the output is missing); still an edge */
	NinjaLog *log = parse("# ninja log v5\n"
			      "0\t40\t0\tobj/t/x.cu.p/stub.c\tabc\n"
			      "40\t90\t1700000000000000000\tobj/t/x.cu.p/host.o\tdef\n");
	g_assert_cmpuint(log->latest->len, ==, 2);
	g_assert_cmpint(latest(log, 0)->mtime, ==, 0);
	ninjalog_free(log);
}

/* ---- build.ninja ---- */

static const char manifest_text[] =
	"# comment\n"
	"ninja_required_version = 1.10\n"
	"pool device\n"
	"  depth = 2\n"
	"rule cuda_fe\n"
	"  command = gcc -E $in -o $out\n"
	"  description = CUDA fe ${out}\n"
	"rule cuda_dev_80\n"
	"  command = cicc\n"
	"  description = CUDA sm_80 ${out}\n"
	"  pool = device\n"
	"rule cuda_dev_90_1\n"
	"  description = CUDA $\n"
	"      compute_90 $$x ${out}\n"
	"rule cuda_fatbin\n"
	"  description = CUDA fatbin ${out}\n"
	"rule link\n"
	"  command = c++ $in -o $out\n"
	"build obj/t/a$ b.cu.p/fe.cpp: cuda_fe ../a$ b.cu\n"
	"  O = obj/t/a$ b.cu.p\n"
	"build obj/t/a$ b.cu.p/sm_80.cubin: cuda_dev_80 ../a$ b.cu | obj/t/a$ b.cu.p/fe.cpp\n"
	"build obj/t/a$ b.cu.p/compute_90.ptx | obj/t/a$ b.cu.p/x$:y: cuda_dev_90_1 $\n"
	"    ../a$ b.cu || obj/t/a$ b.cu.p/fe.cpp |@ check\n"
	"build obj/t/a$ b.cu.o: cuda_fatbin obj/t/a$ b.cu.p/sm_80.cubin obj/t/a$ b.cu.p/compute_90.ptx\n"
	"build app$$1: link obj/t/a$ b.cu.o | libk.a\n"
	"  libs =\n"
	"build t: phony app$$1\n"
	"default t\n";

static Manifest *manifest(void)
{
	GError *err = NULL;
	Manifest *m = manifest_parse(manifest_text, sizeof manifest_text - 1, "b/build.ninja", &err);
	g_assert_no_error(err);
	g_assert_nonnull(m);
	return m;
}

static void test_manifest(void)
{
	Manifest *m = manifest();
	g_assert_cmpuint(m->edges->len, ==, 6);
	g_assert_cmpstr(g_hash_table_lookup(m->rules, "cuda_fe"), ==, "CUDA fe ${out}");
	g_assert_cmpstr(g_hash_table_lookup(m->rules, "cuda_dev_90_1"), ==,
			"CUDA compute_90 $x ${out}");
	g_assert_cmpstr(g_hash_table_lookup(m->rules, "link"), ==, "");
	ManifestEdge *e = g_ptr_array_index(m->edges, 0);
	g_assert_cmpstr(e->rule, ==, "cuda_fe");
	g_assert_cmpstr(g_ptr_array_index(e->outs, 0), ==, "obj/t/a b.cu.p/fe.cpp");
	g_assert_cmpstr(g_ptr_array_index(e->ins, 0), ==, "../a b.cu");
	e = g_ptr_array_index(m->edges, 2);
	g_assert_cmpstr(e->rule, ==, "cuda_dev_90_1");
	g_assert_cmpuint(e->outs->len, ==, 1);
	g_assert_cmpuint(e->implicit_outs->len, ==, 1);
	g_assert_cmpstr(g_ptr_array_index(e->implicit_outs, 0), ==, "obj/t/a b.cu.p/x:y");
	g_assert_cmpuint(e->ins->len, ==, 1);
	g_assert_cmpuint(e->implicit_ins->len, ==, 0);
	g_assert_cmpuint(e->order_ins->len, ==, 1);
	g_assert_cmpuint(e->line, ==, 22);
	g_assert_true(g_hash_table_lookup(m->producer, "obj/t/a b.cu.p/x:y") == e);
	e = g_ptr_array_index(m->edges, 4);
	g_assert_cmpstr(g_ptr_array_index(e->outs, 0), ==, "app$1");
	g_assert_cmpuint(e->implicit_ins->len, ==, 1);
	g_assert_null(g_hash_table_lookup(m->producer, "libk.a"));
	manifest_free(m);

	/* errors carry FILE:LINE */
	const char *bad[] = {
		"rule x\nbuild out x in\n",
		"build : x in\n",
		"build out: \n",
		"build out | a | b: x\n",
		"build out: x in $%\n",
		"rule\n",
	};
	for (gsize i = 0; i < G_N_ELEMENTS(bad); i++) {
		GError *err = NULL;
		Manifest *b = manifest_parse(bad[i], strlen(bad[i]), "b/build.ninja", &err);
		g_assert_null(b);
		g_assert_nonnull(err);
		g_assert_true(g_str_has_prefix(err->message, "b/build.ninja:"));
		g_assert_nonnull(strstr(err->message, ": error: "));
		g_error_free(err);
	}
	/* CRLF and an empty file */
	GError *err = NULL;
	const char crlf[] = "rule cc\r\n  description = CC $out\r\nbuild a.o: cc a.c\r\n";
	Manifest *c = manifest_parse(crlf, sizeof crlf - 1, "m", &err);
	g_assert_no_error(err);
	g_assert_cmpstr(g_hash_table_lookup(c->rules, "cc"), ==, "CC $out");
	g_assert_nonnull(g_hash_table_lookup(c->producer, "a.o"));
	manifest_free(c);
	c = manifest_parse("", 0, "m", &err);
	g_assert_no_error(err);
	g_assert_cmpuint(c->edges->len, ==, 0);
	manifest_free(c);
}

/* ---- report.c ---- */

static void kind_is(const char *rule, const char *desc, const char *kind, const char *arch)
{
	char *a = NULL;
	const char *k = report_edge_kind(rule, desc, &a);
	if (g_strcmp0(k, kind) != 0 || g_strcmp0(a, arch) != 0)
		g_error("rule %s: kind %s arch %s, expected %s %s", rule, k, a ? a : "(none)", kind,
			arch ? arch : "(none)");
	g_free(a);
}

static void test_kinds(void)
{
	kind_is("cuda_fe", "CUDA fe ${out}", "fe", NULL);
	kind_is("cuda_fe_1", "CUDA fe ${out}", "fe", NULL);
	kind_is("cuda_dev_80", "CUDA sm_80 ${out}", "dev", "sm_80");
	kind_is("cuda_dev_80_2", "CUDA sm_80 ${out}", "dev", "sm_80");
	kind_is("cuda_dev_90a", "CUDA sm_90a ${out}", "dev", "sm_90a");
	kind_is("cuda_dev_90", "CUDA compute_90 ${out}", "dev", "compute_90");
	kind_is("cuda_dev_100f_1", NULL, "dev", "sm_100f");
	kind_is("cuda_dev_120", "", "dev", "sm_120");
	kind_is("cuda_dev_80_split4", "CUDA sm_80 ${out} (--split-compile 4)", "dev", "sm_80");
	kind_is("cuda_dev_80_split4_1", NULL, "dev", "sm_80");
	/* ptxas edges: cicc and ptxas apart; the device preprocess apart */
	kind_is("cuda_ptxas_90", "CUDA ptxas sm_90 ${out}", "dev", "sm_90");
	kind_is("cuda_cicc_90", "CUDA cicc ${out}", "dev-cicc", "sm_90");
	kind_is("cuda_cicc_120_split4", NULL, "dev-cicc", "sm_120");
	kind_is("cuda_pp_75", "CUDA pp ${out}", "dev-pp", "sm_75");
	kind_is("cuda_pp_75_2", NULL, "dev-pp", "sm_75");
	kind_is("cugen_rank", "stamp ${out}", "rank", NULL);
	kind_is("data", "DATA ${out}", "data", NULL);
	kind_is("gate", NULL, "gate", NULL);
	kind_is("gate_target", NULL, "gate", NULL);
	kind_is("cuda_pp__1", NULL, "other", NULL);
	kind_is("cuda_stub_syntax", "CUDA stub ${out}", "stub", NULL);
	kind_is("cuda_stub_80", "CUDA stub ${out}", "stub", NULL);
	kind_is("cuda_host_3", "CUDA host ${out}", "host", NULL);
	kind_is("cuda_fatbin", NULL, "fatbin", NULL);
	kind_is("cuda_nvcc", NULL, "nvcc", NULL);
	kind_is("cuda_dlobj_90", "CUDA dlink object ${out}", "dlink-obj", "sm_90");
	kind_is("cuda_nvlink_86_1", "CUDA nvlink sm_86 ${out}", "nvlink", "sm_86");
	kind_is("cuda_dlink_fatbin", NULL, "dlink-fatbin", NULL);
	kind_is("cuda_dlink_host_1", NULL, "dlink-host", NULL);
	kind_is("cuda_import", "CUDA import ${out}", "import", NULL);
	kind_is("cuda_manifest", "CUDA shard manifest", "manifest", NULL);
	kind_is("cc", "CC ${out}", "cc", NULL);
	kind_is("cxx_1", "CXX ${out}", "cxx", NULL);
	kind_is("ar", NULL, "ar", NULL);
	kind_is("link_1", NULL, "link", NULL);
	kind_is("regen", NULL, "regen", NULL);
	kind_is("phony", NULL, "phony", NULL);
	kind_is("cxxx", NULL, "other", NULL);
	kind_is("cc_x", NULL, "other", NULL);
	kind_is("linker", NULL, "other", NULL);
	kind_is("cuda_dev_", NULL, "other", NULL);
	kind_is("nvvm_dir", NULL, "other", NULL);
	kind_is(NULL, NULL, "other", NULL);
}

static ReportEdge *edge_named(const Report *r, const char *name)
{
	for (guint i = 0; i < r->edges->len; i++) {
		ReportEdge *e = g_ptr_array_index(r->edges, i);
		if (strcmp(e->name, name) == 0)
			return e;
	}
	g_error("no edge %s", name);
	return NULL;
}

static void test_compute(void)
{
	Manifest *m = manifest();
	NinjaLog *log = parse("# ninja log v5\n"
			      "0\t900\t0\told\t1\n"                          /* an earlier run */
			      "2\t250\t0\tstray.o\t5\n"                      /* not in build.ninja */
			      "0\t300\t0\tobj/t/a b.cu.p/fe.cpp\t1\n"
			      "300\t700\t0\tobj/t/a b.cu.p/sm_80.cubin\t2\n"
			      "300\t800\t0\tobj/t/a b.cu.p/compute_90.ptx\t3\n"
			      "300\t800\t0\tobj/t/a b.cu.p/x:y\t3\n"
			      "800\t850\t0\tobj/t/a b.cu.o\t4\n"
			      "850\t1000\t0\tapp$1\t6\n");
	Report *r = report_compute(log, m);
	g_assert_cmpuint(r->edges->len, ==, 6);
	g_assert_cmpuint(r->unknown, ==, 1);
	g_assert_cmpuint(r->graph_edges, ==, 5);
	g_assert_cmpint(r->wall_ms, ==, 1000);
	g_assert_cmpint(r->edge_ms, ==, 300 + 248 + 400 + 500 + 50 + 150);
	g_assert_cmpuint(r->slots, ==, 2);
	/* by start; slots: lowest free */
	ReportEdge *fe = g_ptr_array_index(r->edges, 0);
	g_assert_cmpstr(fe->name, ==, "obj/t/a b.cu.p/fe.cpp");
	g_assert_cmpstr(fe->kind, ==, "fe");
	g_assert_cmpstr(fe->target, ==, "t");
	g_assert_cmpstr(fe->tu, ==, "a b.cu");
	g_assert_cmpuint(fe->slot, ==, 1);
	ReportEdge *stray = edge_named(r, "stray.o");
	g_assert_cmpstr(stray->kind, ==, "other");
	g_assert_cmpuint(stray->slot, ==, 2);
	ReportEdge *d80 = edge_named(r, "obj/t/a b.cu.p/sm_80.cubin");
	ReportEdge *d90 = edge_named(r, "obj/t/a b.cu.p/compute_90.ptx");
	g_assert_cmpstr(d80->arch, ==, "sm_80");
	g_assert_cmpstr(d90->arch, ==, "compute_90");
	g_assert_cmpuint(d90->outputs->len, ==, 2);
	g_assert_cmpuint(d80->slot + d90->slot, ==, 3);
	ReportEdge *app = edge_named(r, "app$1");
	g_assert_cmpstr(app->kind, ==, "link");
	g_assert_cmpstr(app->target, ==, "t");
	/* the critical path: app <- fatbin <- compute_90 (finished last) <- fe
	 * (an order-only input) */
	g_assert_cmpuint(r->critical->len, ==, 4);
	g_assert_true(g_ptr_array_index(r->critical, 0) == fe);
	g_assert_true(g_ptr_array_index(r->critical, 1) == d90);
	g_assert_true(g_ptr_array_index(r->critical, 3) == app);
	g_assert_true(fe->critical && d90->critical && !d80->critical && !stray->critical);
	g_assert_cmpint(r->critical_ms, ==, 300 + 500 + 50 + 150);
	/* no two edges of a slot overlap */
	for (guint i = 0; i < r->edges->len; i++)
		for (guint j = i + 1; j < r->edges->len; j++) {
			ReportEdge *a = g_ptr_array_index(r->edges, i), *b = g_ptr_array_index(r->edges, j);
			if (a->slot == b->slot)
				g_assert_true(a->end_ms <= b->start_ms || b->end_ms <= a->start_ms);
		}
	/* the outputs render */
	GString *js = report_trace_json(r, log, "b/.ninja_log");
	g_assert_nonnull(strstr(js->str, "\"name\":\"obj/t/a b.cu.p/compute_90.ptx\",\"cat\":\"dev\","
				"\"ph\":\"X\",\"ts\":300000,\"dur\":500000,\"pid\":1,\"tid\":"));
	g_string_free(js, TRUE);
	GString *html = report_html(r, log, "b/.ninja_log");
	guint bars = 0;
	for (const char *p = html->str; (p = strstr(p, "<rect class=\"bar ")); p++)
		bars++;
	g_assert_cmpuint(bars, ==, 6);
	g_assert_nonnull(strstr(html->str, "kind-dev arch-sm_80"));
	g_assert_null(strstr(html->str, "@"));
	g_string_free(html, TRUE);
	GString *sum = report_summary(r, log, "b/.ninja_log");
	g_assert_nonnull(strstr(sum->str, "the latest of 2 runs, 6 edges"));
	g_assert_nonnull(strstr(sum->str, "critical path  1.000 s in 4 edges"));
	g_string_free(sum, TRUE);
	report_free(r);
	ninjalog_free(log);
	manifest_free(m);
}

/* The critical path is the longest chain, not the chain of the inputs that
 * finished last: here the link's last input (b, 250 ms) ends a chain of
 * 300 ms, while a1 -> a2 -> the link takes 650 ms. Per TU, the TUs by
 * edge time. */
static void test_critical_longest(void)
{
	static const char text[] =
		"# build.ninja for project demo, written by cugen 0.1.0.\n"
		"rule cuda_pp_80\n  command = pp\n  description = CUDA pp 80 ${out}\n"
		"rule cuda_cicc_80\n  command = cicc\n  description = CUDA cicc 80 ${out}\n"
		"rule cuda_ptxas_80\n  command = ptxas\n  description = CUDA sm_80 ${out}\n"
		"rule cxx\n  command = c++\n"
		"rule link\n  command = ld\n"
		"build obj/t/k.cu.p/80.ii: cuda_pp_80 ../k.cu\n"
		"build obj/t/k.cu.p/compute_80.ptx: cuda_cicc_80 obj/t/k.cu.p/80.ii\n"
		"build obj/t/k.cu.p/sm_80.cubin: cuda_ptxas_80 obj/t/k.cu.p/compute_80.ptx\n"
		"build obj/t/m.cpp.o: cxx ../m.cpp\n"
		"build lib.stamp: phony obj/t/k.cu.p/sm_80.cubin\n"
		"build app: link obj/t/m.cpp.o || lib.stamp\n";
	GError *err = NULL;
	Manifest *m = manifest_parse(text, sizeof text - 1, "b/build.ninja", &err);
	g_assert_no_error(err);
	NinjaLog *log = parse("# ninja log v5\n"
			      "0\t100\t0\tobj/t/k.cu.p/80.ii\t1\n"
			      "100\t400\t0\tobj/t/k.cu.p/compute_80.ptx\t2\n"
			      "400\t600\t0\tobj/t/k.cu.p/sm_80.cubin\t3\n"
			      "350\t620\t0\tobj/t/m.cpp.o\t4\n"
			      "620\t670\t0\tapp\t5\n");
	Report *r = report_compute(log, m);
	g_assert_cmpuint(r->critical->len, ==, 4);
	g_assert_cmpstr(((ReportEdge *)g_ptr_array_index(r->critical, 0))->kind, ==, "dev-pp");
	g_assert_cmpstr(((ReportEdge *)g_ptr_array_index(r->critical, 1))->kind, ==, "dev-cicc");
	g_assert_cmpstr(((ReportEdge *)g_ptr_array_index(r->critical, 2))->kind, ==, "dev");
	g_assert_cmpstr(((ReportEdge *)g_ptr_array_index(r->critical, 3))->name, ==, "app");
	g_assert_cmpint(r->critical_ms, ==, 100 + 300 + 200 + 50);
	g_assert_false(edge_named(r, "obj/t/m.cpp.o")->critical);
	for (guint i = 0; i < r->edges->len; i++)
		g_assert_cmpuint(((ReportEdge *)g_ptr_array_index(r->edges, i))->ek, <, EK_COUNT);
	GArray *tus = report_groups(r, GROUP_TU);
	g_assert_cmpuint(tus->len, ==, 2);
	g_assert_cmpstr(g_array_index(tus, ReportGroup, 0).name, ==, "k.cu (t)");
	g_assert_cmpint(g_array_index(tus, ReportGroup, 0).ms, ==, 600);
	g_assert_cmpstr(g_array_index(tus, ReportGroup, 1).name, ==, "m.cpp (t)");
	g_array_free(tus, TRUE);
	GString *sum = report_summary(r, log, "b/.ninja_log");
	g_assert_nonnull(strstr(sum->str, "critical path  0.650 s in 4 edges"));
	g_assert_nonnull(strstr(sum->str, "k.cu (t): dev-cicc sm_80 0.300 s"));
	g_string_free(sum, TRUE);
	report_free(r);
	ninjalog_free(log);
	manifest_free(m);
}

/* An earlier run is found by the same rules as the latest. */
static void test_select_earlier(void)
{
	NinjaLog *log = parse("# ninja log v5\n"
			      "0\t500\t0\ta.o\t1\n"
			      "0\t900\t0\tapp\t2\n"
			      "0\t300\t0\tbuild.ninja\t3\n");
	g_assert_cmpuint(log->runs, ==, 2);
	g_assert_cmpuint(log->latest->len, ==, 1);
	g_assert_true(ninjalog_select_earlier(log));
	g_assert_cmpuint(log->latest->len, ==, 2);
	g_assert_cmpstr(((NinjaLogEntry *)g_ptr_array_index(log->latest, 1))->output, ==, "app");
	g_assert_false(ninjalog_select_earlier(log));
	g_assert_cmpuint(log->latest->len, ==, 2);
	ninjalog_free(log);
}

static void test_compute_empty(void)
{
	NinjaLog *log = parse("# ninja log v7\n");
	Report *r = report_compute(log, NULL);
	g_assert_cmpuint(r->edges->len, ==, 0);
	g_assert_cmpuint(r->critical->len, ==, 0);
	g_assert_cmpuint(r->slots, ==, 0);
	GString *s = report_summary(r, log, "b/.ninja_log");
	g_assert_nonnull(strstr(s->str, "no finished edges"));
	g_string_free(s, TRUE);
	s = report_html(r, log, "b/.ninja_log");
	g_assert_null(strstr(s->str, "<rect class=\"bar "));
	g_string_free(s, TRUE);
	s = report_trace_json(r, log, "b/.ninja_log");
	g_assert_null(strstr(s->str, "\"ph\":\"X\""));
	g_string_free(s, TRUE);
	report_free(r);
	ninjalog_free(log);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/ninjalog/empty", test_empty);
	g_test_add_func("/ninjalog/header_only", test_header_only);
	g_test_add_func("/ninjalog/versions", test_versions);
	g_test_add_func("/ninjalog/bad_versions", test_bad_versions);
	g_test_add_func("/ninjalog/truncated", test_truncated);
	g_test_add_func("/ninjalog/malformed", test_malformed);
	g_test_add_func("/ninjalog/runs", test_runs);
	g_test_add_func("/ninjalog/restat", test_restat);
	g_test_add_func("/manifest/parse", test_manifest);
	g_test_add_func("/report/kinds", test_kinds);
	g_test_add_func("/report/compute", test_compute);
	g_test_add_func("/report/critical_longest", test_critical_longest);
	g_test_add_func("/ninjalog/select_earlier", test_select_earlier);
	g_test_add_func("/report/compute_empty", test_compute_empty);
	return g_test_run();
}
