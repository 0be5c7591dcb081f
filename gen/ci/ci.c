/* ci.c -- `cugen ci --provider P [--shards N] [-o FILE]`.
 *
 * Owns: splitting the archs built into N shards balanced by their compile
 * cost (measured in BUILDDIR's last build, else the planner's estimates),
 * the jobs' time limits from those costs (refused where a shard would not
 * fit the provider's), and writing a CI workflow from
 * templates/ci-PROVIDER.yml.in (the workflow) and
 * templates/ci-PROVIDER-shard.yml.in (one entry of its shard matrix), with
 * templates/ci-install.sh.in (ninja and cugen at a pinned commit) and
 * templates/ci-toolkit.sh.in (the toolkit package, where a provider's
 * image has none) in its jobs. A provider is added by adding its two
 * templates and a line to the providers table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <glib/gstdio.h>

#include "ci_int.h"
#include "commands.h"
#include "plan.h"
#include "runner.h"
#include "setup.h"
#include "units.h"
#include "template.h"
#include "util.h"

/* What cugen knows of its own source, for the jobs that build it
 * (configure: the repository's origin and commit, where it was a git
 * checkout). */
#ifndef CUGEN_GIT_URL
#define CUGEN_GIT_URL ""
#endif
#ifndef CUGEN_GIT_REF
#define CUGEN_GIT_REF ""
#endif

/* Per provider: the runner its jobs are planned for by default (the
 * runner table, templates/runners.ini: cores and job time limit), how
 * deep its install scripts are indented in the workflow, and the
 * expression syntax the service substitutes in a script's text before
 * any shell runs (shell quoting cannot stop it: a -D value holding
 * ${{ secrets.TOKEN }} would be compiled into the binaries). GitLab
 * leaves script text to the shell. */
static const struct {
	const char *name;
	const char *runner;
	int indent;
	const char *const expr[4];
} providers_table[] = {
	{ "azure", "azure", 14, { "${{", "$(", "$[", NULL } },
	{ "github", "github", 10, { "${{", NULL } },
	{ "gitlab", "gitlab-small", 6, { NULL } },
};

/* The jobs' container image where --image gives none. */
#define DEFAULT_IMAGE "nvidia/cuda:13.0.0-devel-ubuntu24.04"

/* Minutes a job spends besides compiling: installing, setting up. */
#define JOB_OVERHEAD_MIN 20

char *ci_indented(const char *name, const char *const *vars, int n)
{
	char *text = template_expand(name, vars);
	char **lines = g_strsplit(text, "\n", -1);
	GString *o = g_string_new(NULL);
	for (gsize i = 0; lines[i]; i++) {
		if (!lines[i][0] && !lines[i + 1])
			break; /* (the last newline) */
		g_string_append_printf(o, "%s%*s%s", i ? "\n" : "", lines[i][0] ? n : 0, "", lines[i]);
	}
	g_strfreev(lines);
	g_free(text);
	return g_string_free(o, FALSE);
}

/* The time limit of a job estimated to take `wall` seconds: half again
 * as much, and the install and setup, within the runner's limit. */
static int job_minutes(double wall, double limit)
{
	int m = (int)(wall * 1.5 / 60.0) + 1 + JOB_OVERHEAD_MIN;
	return limit > 0 && m > (int)(limit / 60) ? (int)(limit / 60) : m;
}

/* A name for an artifact: the project's, in letters, digits and ._- only. */
static char *artifact_name(const char *project)
{
	char *a = g_strconcat(project, "-install", NULL);
	for (char *p = a; *p; p++)
		if (!g_ascii_isalnum(*p) && !strchr("._-", *p))
			*p = '-';
	return a;
}

/* Whether a value may go into a workflow: no control characters, so it
 * stays on its line of a YAML block. */
static gboolean one_line(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return FALSE;
	return TRUE;
}

/* A repository the jobs can clone: a URL (SCHEME://...) or git's
 * scp-like HOST:PATH, not a path on this machine (which a hosted runner
 * does not have) nor an option (git clone --upload-pack=...). */
static gboolean remote_url(const char *repo)
{
	if (*repo == '-' || *repo == '/' || *repo == '.' || *repo == '~')
		return FALSE;
	const char *colon = strchr(repo, ':');
	if (!colon || colon == repo)
		return FALSE;
	if (g_str_has_prefix(colon, "://"))
		return TRUE;
	/* HOST:PATH, with no slash before the colon (git's own rule) */
	return !memchr(repo, '/', (gsize)(colon - repo));
}

static gboolean write_workflow(const char *output, const char *text, GError **err);

/* --nvcc: the workflow of a build that runs cugen nvcc (cinvcc.c). */
static void ci_nvcc(const CiNvcc *o, const SetupArgs *a, const char *output, GError **err)
{
	if (!o->command || !*o->command || !one_line(o->command)) {
		cg_usage_error(err, "%s", o->command ? "--nvcc: the build command is one line, without control characters"
						     : "--archs and --upload go with --nvcc 'BUILD COMMAND'");
		return;
	}
	if (a->defines || a->file || a->profile || a->builddir || a->srcdir) {
		cg_usage_error(err, "--nvcc: the jobs run the project's own build, without cugen.ini: -S, -B, -f, "
				    "--profile and -D do not apply");
		return;
	}
	const char *up = o->upload ? o->upload : "dist";
	/* (a plain YAML scalar in the workflow: a relative path's characters) */
	if (!*up || *up == '-' || *up == '/' || up[strspn(up, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
						      "0123456789._/-")] || strstr(up, "..")) {
		cg_usage_error(err, "--upload '%s' is not a path in the checkout (letters, digits and ._/-)", up);
		return;
	}
	CiNvcc x = *o;
	x.upload = up;
	x.archs = o->archs ? o->archs : "";
	GString *said = g_string_new(NULL);
	char *text = ci_nvcc_workflow(&x, said, err);
	if (text && write_workflow(output, text, err))
		fputs(said->str, stderr);
	g_string_free(said, TRUE);
	g_free(text);
}

/* The workflow to output (made with its directory; a link is written
 * where it points, as an editor does: the link stays a link; one to
 * nothing is an error), or to stdout. */
static gboolean write_workflow(const char *output, const char *text, GError **err)
{
	GError *e = NULL;
	if (!output) {
		fputs(text, stdout);
		return TRUE;
	}
	/* (.github/workflows/ may not exist yet) */
	char *dir = g_path_get_dirname(output);
	g_mkdir_with_parents(dir, 0755);
	g_free(dir);
	GStatBuf lst;
	gboolean link = g_lstat(output, &lst) == 0 && S_ISLNK(lst.st_mode);
	char *real = NULL;
	if (link) {
		/* (its target may not exist yet: a file in a directory that does) */
		char *to = g_file_read_link(output, NULL);
		char *odir = g_path_get_dirname(output);
		char *target = to ? (g_path_is_absolute(to) ? g_strdup(to) : g_build_filename(odir, to, NULL)) : NULL;
		char *tdir = target ? g_path_get_dirname(target) : NULL;
		char *rdir = tdir ? realpath(tdir, NULL) : NULL;
		if (rdir) {
			char *base = g_path_get_basename(target);
			real = g_build_filename(rdir, base, NULL);
			g_free(base);
		} else {
			cg_error(err, "cannot write '%s': it is a symbolic link to '%s', which does not exist", output,
				 to ? to : "?");
		}
		free(rdir);
		g_free(tdir);
		g_free(target);
		g_free(odir);
		g_free(to);
		if (!real)
			return FALSE;
	}
	gboolean ok = g_file_set_contents(real ? real : output, text, -1, &e);
	if (!ok) {
		cg_error(err, "cannot write '%s': %s", output, e->message);
		g_error_free(e);
	}
	g_free(real);
	return ok;
}

int cmd_ci(int argc, char **argv)
{
	char *provider = NULL, *output = NULL, *image = NULL, *repo = NULL, *ref = NULL, *runner = NULL;
	char *nvcc = NULL, *nvcc_archs = NULL, *upload = NULL;
	Runner *r = NULL;
	int nshards = 2;
	SetupArgs a = { 0 };
	GOptionEntry entries[] = {
		{ "provider", 0, 0, G_OPTION_ARG_STRING, &provider, "CI service: see the list in the error for an unknown one", "PROVIDER" },
		{ "shards", 0, 0, G_OPTION_ARG_INT, &nshards, "Number of shard jobs (default 2)", "N" },
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Write the workflow to FILE (default: stdout)", "FILE" },
		{ "image", 0, 0, G_OPTION_ARG_STRING, &image, "Container image of the jobs", "IMAGE" },
		{ "runner", 0, 0, G_OPTION_ARG_STRING, &runner, "The runner the jobs' time limits are for (see 'cugen profile --list-runners'; default: the provider's standard one)", "RUNNER" },
		{ "cugen-repo", 0, 0, G_OPTION_ARG_STRING, &repo, "Git repository the jobs build cugen from (default: this cugen's)", "URL" },
		{ "cugen-ref", 0, 0, G_OPTION_ARG_STRING, &ref, "Commit or tag of it (default: this cugen's commit)", "REF" },
		{ "source-dir", 'S', 0, G_OPTION_ARG_FILENAME, &a.srcdir, "Project directory (default: .)", "SRCDIR" },
		{ "build-dir", 'B', 0, G_OPTION_ARG_FILENAME, &a.builddir, "Build directory whose last build measured the arch costs", "BUILDDIR" },
		{ "file", 'f', 0, G_OPTION_ARG_FILENAME, &a.file, "Project file", "FILE" },
		{ "profile", 0, 0, G_OPTION_ARG_STRING, &a.profile, "Profile the jobs set up with", "NAME" },
		{ "define", 'D', 0, G_OPTION_ARG_STRING_ARRAY, &a.defines, "Override an INI key", "SECTION.KEY=VALUE" },
		{ "nvcc", 0, 0, G_OPTION_ARG_STRING, &nvcc, "The project's own build command, run in every job with NVCC=\"cugen nvcc\" (no cugen.ini)", "COMMAND" },
		{ "archs", 0, 0, G_OPTION_ARG_STRING, &nvcc_archs, "With --nvcc: the arch entries the shards split", "LIST" },
		{ "upload", 0, 0, G_OPTION_ARG_FILENAME, &upload, "With --nvcc: what the combine job keeps (default: dist)", "PATH" },
		{ NULL }
	};
	GOptionContext *ctx = g_option_context_new(NULL);
	g_option_context_set_summary(ctx, "Write a CI workflow: one job per shard of GPU archs, and a job that\n"
				     "combines the shards (cugen combine) into the final binaries.");
	g_option_context_add_main_entries(ctx, entries, NULL);
	g_set_prgname("cugen ci");
	GError *err = NULL, *e = NULL;
	Generated gen = { 0 };
	GPtrArray *providers = g_ptr_array_new();
	for (gsize i = 0; i < G_N_ELEMENTS(providers_table); i++)
		g_ptr_array_add(providers, (char *)providers_table[i].name);
	g_ptr_array_add(providers, NULL);
	char *known = g_strjoinv(", ", (char **)providers->pdata);
	int rc = 0;
	GString *jobs = g_string_new(NULL), *sa = g_string_new(NULL);
	GArray *costs = NULL;
	if (!g_option_context_parse(ctx, &argc, &argv, &e)) {
		cg_usage_error(&err, "%s (see 'cugen ci --help')", e->message);
		g_error_free(e);
		goto out;
	}
	if (argc > 1) {
		cg_usage_error(&err, "unexpected argument '%s' (see 'cugen ci --help')", argv[1]);
		goto out;
	}
	if (!provider || !g_strv_contains((const char *const *)providers->pdata, provider)) {
		if (provider) {
			const char *hint = cg_suggest(provider, (const char *const *)providers->pdata);
			cg_usage_error(&err, "unknown provider '%s' (known: %s)%s%s%s", provider, known,
				       hint ? "; did you mean '" : "", hint ? hint : "", hint ? "'?" : "");
		} else {
			cg_usage_error(&err, "give --provider (one of: %s)", known);
		}
		goto out;
	}
	/* the one escape for YAML here: an image reference is written as a
	 * plain scalar, so it may hold only what image references hold */
	if (image && (!*image || image[strspn(image, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
						   "0123456789._/:@-")] || *image == '-')) {
		char *shown = g_strescape(image, NULL);
		cg_usage_error(&err, "--image '%s' is not a container image reference (letters, digits and ._/:@-)", shown);
		g_free(shown);
		goto out;
	}
	if (!repo)
		repo = g_strdup(CUGEN_GIT_URL);
	if (!ref)
		ref = g_strdup(CUGEN_GIT_REF);
	if (!*repo || !*ref) {
		cg_usage_error(&err, "this cugen was not built from a git checkout: give --cugen-repo URL and "
				     "--cugen-ref COMMIT (the cugen the jobs build)");
		goto out;
	}
	if (!one_line(repo) || !one_line(ref) || strchr(repo, '"') || strchr(ref, '"') || strchr(repo, '\\') ||
	    strchr(ref, '\\') || *ref == '-') {
		cg_usage_error(&err, "--cugen-repo and --cugen-ref take a URL and a commit, without quotes, "
				     "backslashes or control characters");
		goto out;
	}
	if (!remote_url(repo)) {
		cg_usage_error(&err, "the cugen repository '%s' is %s, which the CI's runners cannot clone: give "
				     "--cugen-repo with the URL of one they can reach (https://..., git@HOST:PATH), or "
				     "file://PATH for runners on this machine",
			       repo, *repo == '-' ? "an option, not a URL" : "a local path");
		goto out;
	}
	for (gsize i = 0; a.defines && a.defines[i]; i++)
		if (!one_line(a.defines[i])) {
			cg_usage_error(&err, "-D %s: a control character cannot go into a workflow", a.defines[i]);
			goto out;
		}
	/* every value the jobs' scripts carry */
	GPtrArray *said = g_ptr_array_new_with_free_func(g_free);
	for (gsize i = 0; a.defines && a.defines[i]; i++)
		g_ptr_array_add(said, g_strconcat("-D ", a.defines[i], NULL));
	if (a.srcdir)
		g_ptr_array_add(said, g_strconcat("-S ", a.srcdir, NULL));
	if (a.file)
		g_ptr_array_add(said, g_strconcat("-f ", a.file, NULL));
	if (nvcc)
		g_ptr_array_add(said, g_strconcat("--nvcc ", nvcc, NULL));
	if (nvcc_archs)
		g_ptr_array_add(said, g_strconcat("--archs ", nvcc_archs, NULL));
	/* (every value: the jobs clone and build these too) */
	g_ptr_array_add(said, g_strconcat("--cugen-repo ", repo, NULL));
	g_ptr_array_add(said, g_strconcat("--cugen-ref ", ref, NULL));
	gsize pi = 0;
	while (strcmp(providers_table[pi].name, provider) != 0)
		pi++;
	for (guint i = 0; i < said->len && !err; i++)
		for (gsize k = 0; providers_table[pi].expr[k]; k++)
			if (strstr(g_ptr_array_index(said, i), providers_table[pi].expr[k])) {
				cg_usage_error(&err, "%s: '%s' is %s's expression syntax, which it substitutes before any "
						     "shell runs (a secret would be compiled in): write the value itself",
					       (char *)g_ptr_array_index(said, i), providers_table[pi].expr[k], provider);
				break;
			}
	g_ptr_array_free(said, TRUE);
	if (err)
		goto out;
	if (nshards < 1) {
		cg_usage_error(&err, "--shards must be at least 1");
		goto out;
	}
	if (nvcc || nvcc_archs || upload) {
		ci_nvcc(&(CiNvcc){ provider, providers_table[pi].indent, nshards, nvcc_archs, nvcc, upload,
				   image ? image : DEFAULT_IMAGE, repo, ref },
			&a, output, &err);
		goto out;
	}
	/* the jobs set up the same project: -S and -f as given (relative to
	 * the checkout's top, where the jobs run) */
	if (a.srcdir) {
		g_string_append(sa, " -S");
		cg_sh_append(sa, a.srcdir);
	}
	if (a.file) {
		g_string_append(sa, " -f");
		cg_sh_append(sa, a.file);
	}
	if (!a.srcdir)
		a.srcdir = g_strdup(".");
	if (!a.file)
		a.file = strcmp(a.srcdir, ".") == 0 ? g_strdup("cugen.ini") : g_build_filename(a.srcdir, "cugen.ini", NULL);
	if (!a.builddir)
		a.builddir = g_strdup("build");
	a.backend = g_strdup("ninja");
	r = runner_lookup(runner ? runner : providers_table[pi].runner, &err);
	if (!r)
		goto out;
	/* planned for the runner: its cores */
	Machine m = { r->cores, "the runner", r->usable, "the runner", NULL };
	a.machine = &m;
	if (!setup_generate(&a, &gen, &err))
		goto out;
	/* compile cost of each arch, summed over its device edges */
	costs = plan_arch_costs(&gen.plan);
	/* a PTX-only arch rides with its SASS arch: --archs names arch ids */
	if ((guint)nshards > costs->len) {
		cg_usage_error(&err, "%d shards for %u archs: use --shards %u or fewer", nshards, costs->len, costs->len);
		goto out;
	}
	char **shard_archs = g_new0(char *, nshards + 1);
	double *load = g_new0(double, nshards);
	plan_balance(costs, nshards, shard_archs, load);
	/* and the options this command was given (with BUILDDIR's kept ones) */
	if (a.profile) {
		g_string_append(sa, " --profile");
		cg_sh_append(sa, a.profile);
	}
	for (gsize i = 0; a.defines && a.defines[i]; i++) {
		g_string_append(sa, " -D");
		cg_sh_append(sa, a.defines[i]);
	}
	char *setup_args = g_strdup(sa->str);
	/* the jobs' wall times on the runner (the last build's .ninja_log,
	 * else the planner's estimates), against its job time limit */
	TimeCheck tc;
	plan_time_check(&gen.plan, gen.builddir, r->time_limit, nshards, &tc);
	if (r->time_limit > 0 &&
	    (tc.want_shard_estimate > TIME_LIMIT_SHARE * r->time_limit || tc.combine_estimate > TIME_LIMIT_SHARE * r->time_limit)) {
		int fit = 0;
		for (int n = nshards + 1; !fit && n <= (int)costs->len; n++) {
			TimeCheck t;
			plan_time_check(&gen.plan, gen.builddir, r->time_limit, n, &t);
			if (t.want_shard_estimate <= TIME_LIMIT_SHARE * r->time_limit && t.combine_estimate <= TIME_LIMIT_SHARE * r->time_limit)
				fit = n;
		}
		char *sh = units_format_duration(tc.want_shard_estimate), *co = units_format_duration(tc.combine_estimate);
		char *lim = units_format_duration(r->time_limit);
		char *advice = fit ? g_strdup_printf("use --shards %d", fit)
				   : g_strdup("no number of shards fits: use a larger --runner");
		cg_error(&err, "with %d shard%s the longest shard job would take about %s and the combine job about %s "
			       "on %s (%d cores), over %.0f%% of its %s job limit: %s",
			 nshards, nshards == 1 ? "" : "s", sh, co, r->name, r->cores, 100 * TIME_LIMIT_SHARE, lim, advice);
		g_free(advice);
		g_free(lim);
		g_free(co);
		g_free(sh);
		g_free(setup_args);
		g_free(load);
		g_strfreev(shard_archs);
		goto out;
	}
	int minutes = job_minutes(tc.want_shard_estimate, r->time_limit);
	const char *img = image ? image : DEFAULT_IMAGE;
	char *shard_tmpl = g_strdup_printf("ci-%s-shard.yml.in", provider);
	for (int i = 0; i < nshards; i++) {
		char *n = g_strdup_printf("%d", i + 1);
		const char *vars[] = { "N", n, "ARCHS", shard_archs[i], NULL };
		char *job = template_expand(shard_tmpl, vars);
		g_string_append(jobs, job);
		g_free(job);
		g_free(n);
	}
	g_free(shard_tmpl);
	if (jobs->len && jobs->str[jobs->len - 1] == '\n')
		g_string_truncate(jobs, jobs->len - 1);
	/* the compile cache's key: what the toolkit, the host compiler and
	 * the flags given here make of the code (cugen.ini's bytes are
	 * hashed in the workflow) */
	char *keytext = g_strdup_printf("%s\n%s\n%s %s\n%s", img, gen.tk->version, gen.tk->host_cc,
					gen.tk->host_version, setup_args);
	char *key = g_compute_checksum_for_string(G_CHECKSUM_SHA256, keytext, -1);
	key[12] = '\0';
	char *cuda_pkg = g_strdup_printf("cuda-toolkit-%s", gen.tk->version);
	{ /* "13.0.88" -> "cuda-toolkit-13-0" */
		char **v = g_strsplit(gen.tk->version, ".", 3);
		if (v[0] && v[1]) {
			g_free(cuda_pkg);
			cuda_pkg = g_strdup_printf("cuda-toolkit-%s-%s", v[0], v[1]);
		}
		g_strfreev(v);
	}
	const char *no_vars[] = { NULL };
	const char *pkg_vars[] = { "CUDA_PKG", cuda_pkg, NULL };
	char *install = ci_indented("ci-install.sh.in", no_vars, providers_table[pi].indent);
	char *toolkit = ci_indented("ci-toolkit.sh.in", pkg_vars, providers_table[pi].indent);
	char *sm = g_strdup_printf("%d", minutes);
	char *cm = g_strdup_printf("%d", job_minutes(tc.combine_estimate, r->time_limit));
	char *artifact = artifact_name(gen.c->name);
	char *tmpl = g_strdup_printf("ci-%s.yml.in", provider);
	const char *vars[] = { "PROJECT", gen.c->name, "SHARD_JOBS", jobs->str, "IMAGE", img, "SETUP_ARGS", setup_args,
			       "CUGEN_REPO", repo, "CUGEN_REF", ref, "INSTALL", install, "TOOLKIT", toolkit,
			       "CACHE_KEY", key, "SHARD_MINUTES", sm, "COMBINE_MINUTES", cm, "ARTIFACT", artifact,
			       "CUDA_PKG", cuda_pkg, NULL };
	char *text = template_expand(tmpl, vars);
	g_free(tmpl);
	g_free(artifact);
	g_free(cm);
	g_free(sm);
	g_free(toolkit);
	g_free(install);
	g_free(cuda_pkg);
	g_free(key);
	g_free(keytext);
	write_workflow(output, text, &err);
	for (int i = 0; i < nshards; i++) {
		char *from = plan_costs_source(costs, shard_archs[i]);
		fprintf(stderr, "cugen: ci: shard %d: archs %s (cost %.0f s, %s)\n", i + 1, shard_archs[i], load[i], from);
		g_free(from);
	}
	g_free(text);
	g_free(setup_args);
	g_free(load);
	g_strfreev(shard_archs);
out:
	if (err)
		rc = cg_report(err);
	g_clear_error(&err);
	if (costs)
		plan_arch_costs_free(costs);
	g_string_free(jobs, TRUE);
	g_string_free(sa, TRUE);
	g_free(known);
	g_ptr_array_free(providers, TRUE);
	setup_generated_clear(&gen);
	setup_args_clear(&a);
	g_free(provider);
	g_free(output);
	g_free(image);
	g_free(repo);
	g_free(ref);
	g_free(runner);
	g_free(nvcc);
	g_free(nvcc_archs);
	g_free(upload);
	if (r)
		runner_free(r);
	g_option_context_free(ctx);
	return rc;
}
