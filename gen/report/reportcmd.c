/* reportcmd.c -- `cugen report [-B BUILDDIR] [-o DIR]`: the command.
 *
 * Owns: the command line; reading BUILDDIR's ninja log and graph (the
 * gate's full ones when it is on); which run of the log is reported (the
 * latest that built something: one that only regenerated the build files
 * is passed over); the project's name from build.ninja's first line; then
 * the model (report.c) and its outputs (reportfmt.c), written together.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <glib/gstdio.h>

#include "commands.h"
#include "gate.h"
#include "report.h"
#include "safepath.h"
#include "util.h"

/* The latest run made only the build files (ninja re-ran cugen setup and
 * found nothing else to do). */
static gboolean regen_only(const NinjaLog *log, const Manifest *m)
{
	if (!log->latest->len)
		return FALSE;
	for (guint i = 0; i < log->latest->len; i++) {
		const NinjaLogEntry *le = g_ptr_array_index(log->latest, i);
		const ManifestEdge *me = g_hash_table_lookup(m->producer, le->output);
		char *arch = NULL;
		EdgeKind k = me ? edge_kind_of_rule(me->rule, NULL, &arch) : EK_COUNT;
		g_free(arch);
		if (k != EK_REGEN)
			return FALSE;
	}
	return TRUE;
}

/* The project's name from the first line setup writes into build.ninja
 * ("# build.ninja for project NAME, written by cugen ..."), or NULL. */
static char *project_name(const char *text)
{
	static const char lead[] = "# build.ninja for project ";
	if (!text || strncmp(text, lead, sizeof lead - 1) != 0)
		return NULL;
	const char *n = text + sizeof lead - 1;
	gsize len = strcspn(n, ",\n");
	return len && n[len] == ',' ? g_strndup(n, len) : NULL;
}

static int fail(GError *e)
{
	int rc = cg_report(e);
	g_error_free(e);
	return rc;
}

/* Read BUILDDIR/NAME; a missing file is an error with hint. */
static char *read_in(const char *builddir, const char *name, const char *hint, char **path,
		     gsize *len, GError **err)
{
	*path = g_build_filename(builddir, name, NULL);
	if (!g_file_test(*path, G_FILE_TEST_EXISTS)) {
		cg_error(err, "%s: no such file; %s", *path, hint);
		return NULL;
	}
	if (g_file_test(*path, G_FILE_TEST_IS_DIR)) {
		cg_error(err, "%s: is a directory, not a file", *path);
		return NULL;
	}
	return cg_read_file(*path, len, err);
}

int cmd_report(int argc, char **argv)
{
	gboolean help = FALSE;
	g_autofree char *builddir = NULL, *outdir = NULL;
	g_auto(GStrv) rest = NULL;
	GOptionEntry entries[] = {
		{ "build-dir", 'B', 0, G_OPTION_ARG_FILENAME, &builddir, "The build directory (default: build)", "BUILDDIR" },
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &outdir, "Where to write the report (default: BUILDDIR/report)",
		  "DIR" },
		{ "help", 'h', 0, G_OPTION_ARG_NONE, &help, "Show this help and exit", NULL },
		{ G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &rest, NULL, NULL },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new(NULL);
	g_option_context_set_help_enabled(ctx, FALSE);
	g_option_context_add_main_entries(ctx, entries, NULL);
	g_option_context_set_summary(ctx,
		"Show where the time of the latest build in BUILDDIR went, from ninja's log\n"
		"(BUILDDIR/.ninja_log) and the graph (BUILDDIR/build.ninja): a timeline of\n"
		"the edges on ninja's job slots, the critical path, the time per edge kind\n"
		"and per GPU architecture, and the most expensive TU x arch compiles.");
	g_option_context_set_description(ctx,
		"It writes DIR/trace.json (Chrome trace format: open it in ui.perfetto.dev or\n"
		"chrome://tracing) and DIR/report.html (self-contained: no scripts, no\n"
		"network), and prints a summary. The latest build is the last run ninja\n"
		"appended to the log that built something: a no-op build appends nothing, and\n"
		"a run that only regenerated the build files is passed over, so the report\n"
		"then shows the build before it. A log that records no finished edge yet\n"
		"(empty, or just its header) is not an error: the summary says so and the\n"
		"files are written without edges.\n"
		"\n"
		"Exit status: 0 on success, also when there is nothing to report; 1 when\n"
		"BUILDDIR, its .ninja_log or its build.ninja is missing or unreadable, or the\n"
		"log is not a ninja log of version 5, 6 or 7; 2 for bad usage.");
	g_set_prgname("cugen report");
	char **args = g_new0(char *, argc + 1);
	for (int i = 0; i < argc; i++)
		args[i] = g_strdup(argv[i]);
	GError *ge = NULL, *e = NULL;
	gboolean parsed = g_option_context_parse_strv(ctx, &args, &ge);
	g_strfreev(args);
	if (!parsed) {
		char *m = g_strdup(ge->message);
		if (*m)
			*m = g_ascii_tolower(*m);
		cg_usage_error(&e, "report: %s (see 'cugen report --help')", m);
		g_free(m);
		g_error_free(ge);
		return fail(e);
	}
	if (help) {
		char *h = g_option_context_get_help(ctx, TRUE, NULL);
		fputs(h, stdout);
		g_free(h);
		return 0;
	}
	if (rest && rest[0]) {
		cg_usage_error(&e, "report: unexpected argument '%s' (see 'cugen report --help')",
			       rest[0]);
		return fail(e);
	}
	if (!builddir)
		builddir = g_strdup("build");
	if (!g_file_test(builddir, G_FILE_TEST_EXISTS)) {
		cg_error(&e, "build directory '%s' does not exist (give it with -B BUILDDIR)",
			 builddir);
		return fail(e);
	}
	if (!g_file_test(builddir, G_FILE_TEST_IS_DIR)) {
		cg_error(&e, "'%s' is not a directory (give the build directory with -B BUILDDIR)",
			 builddir);
		return fail(e);
	}
	if (!outdir) {
		/* the default is inside the build directory, and stays there: a
		 * link planted in its place is not written through */
		outdir = g_build_filename(builddir, "report", NULL);
		GStatBuf lst;
		if (g_lstat(outdir, &lst) == 0 && S_ISLNK(lst.st_mode)) {
			cg_error(&e, "'%s' is a symbolic link: cugen report writes its default output only inside the "
				     "build directory (remove the link, or name a directory with -o)", outdir);
			return fail(e);
		}
	}

	g_autofree char *log_path = NULL, *ninja_path = NULL;
	gsize log_len = 0, ninja_len = 0;
	g_autofree char *mk = g_build_filename(builddir, "Makefile", NULL);
	g_autofree char *bn = g_build_filename(builddir, "build.ninja", NULL);
	g_autofree char *hint = !g_file_test(bn, G_FILE_TEST_EXISTS) &&
		g_file_test(mk, G_FILE_TEST_EXISTS)
		? g_strdup("cugen report reads ninja's log, and this build directory is set up "
			   "for make (--backend make)")
		: g_strdup_printf("build first (ninja -C %s)", builddir);
	gboolean gated = gate_on(builddir);
	g_autofree char *log_text = read_in(builddir, gated ? GATE_LOG : ".ninja_log", hint, &log_path, &log_len, &e);
	if (!log_text)
		return fail(e);
	NinjaLog *log = ninjalog_parse(log_text, log_len, log_path, &e);
	if (!log)
		return fail(e);
	g_free(hint);
	hint = g_strdup_printf("is '%s' a build directory written by cugen setup?", builddir);
	g_autofree char *ninja_text = read_in(builddir, gated ? GATE_FULL : "build.ninja", hint, &ninja_path,
					      &ninja_len, &e);
	Manifest *m = ninja_text ? manifest_parse(ninja_text, ninja_len, ninja_path, &e) : NULL;
	if (!m) {
		ninjalog_free(log);
		return fail(e);
	}
	if (log->malformed == 1)
		cg_warn("%s:%u: malformed line ignored", log_path, log->first_malformed);
	else if (log->malformed > 1)
		cg_warn("%s:%u: malformed line ignored (and %u more)", log_path,
			log->first_malformed, log->malformed - 1);
	if (log->truncated)
		cg_note("%s: the last line is incomplete and was ignored (ninja was stopped while "
			"writing it)", log_path);

	guint passed = 0;
	while (regen_only(log, m) && ninjalog_select_earlier(log))
		passed++;
	Report *r = report_compute(log, m);
	r->regen_runs = passed;
	r->project = project_name(ninja_text);
	if (r->unknown)
		cg_note("%u edge%s of the log %s not in %s (it changed since that build)",
			r->unknown, r->unknown == 1 ? "" : "s", r->unknown == 1 ? "is" : "are",
			ninja_path);
	Stage *st = stage_new();
	g_autofree char *json_path = g_build_filename(outdir, "trace.json", NULL);
	g_autofree char *html_path = g_build_filename(outdir, "report.html", NULL);
	stage_add(st, json_path, report_trace_json(r, log, log_path));
	stage_add(st, html_path, report_html(r, log, log_path));
	int rc = 0;
	if (stage_commit(st, &e)) {
		GString *s = report_summary(r, log, log_path);
		g_string_append_printf(s, "wrote %s and %s\n", json_path, html_path);
		fwrite(s->str, 1, s->len, stdout);
		fflush(stdout);
		g_string_free(s, TRUE);
	} else {
		rc = fail(e);
	}
	stage_free(st);
	report_free(r);
	manifest_free(m);
	ninjalog_free(log);
	return rc;
}

