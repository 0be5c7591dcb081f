/* profile.c -- `cugen profile NAME --runner RUNNER [-o FILE|--append]
 * [--shards N] [-B BUILDDIR]`.
 *
 * Owns: turning a runner (runner.h) and the planner's choices for this
 * project on it into a [profile NAME] section (and, with --shards N,
 * [profile NAME-shardK] sections with the archs of each shard), and
 * splicing those sections into the project's INI: sections of the same
 * names are replaced where they stand, everything else (comments, order,
 * layout) is kept byte for byte, and running the same command twice
 * changes nothing. The new file is read back through the INI reader
 * before it replaces the old one.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "runner.h"
#include "setup.h"
#include "units.h"
#include "safepath.h"
#include "util.h"

static gboolean valid_profile_name(const char *s)
{
	if (!*s || strlen(s) > 64)
		return FALSE;
	for (const char *p = s; *p; p++)
		if (!g_ascii_isalnum(*p) && *p != '_' && *p != '-')
			return FALSE;
	return TRUE;
}

/* Append "; TEXT" comment lines, TEXT wrapped at about 100 columns. */
static void comment(GString *o, const char *text)
{
	const char *p = text;
	while (*p) {
		gsize n = strlen(p);
		if (n > 100) {
			const char *cut = p + 100;
			while (cut > p && *cut != ' ')
				cut--;
			n = cut > p ? (gsize)(cut - p) : 100;
		}
		g_string_append(o, "; ");
		g_string_append_len(o, p, (gssize)n);
		g_string_append_c(o, '\n');
		p += n;
		while (*p == ' ')
			p++;
	}
}

typedef struct {
	const char *jobs, *memory, *job_memory, *split, *threads, *split_compile, *time_limit;
	const char *runner;
} Values;

static void section(GString *o, const char *name, const Values *v, const char *archs, const char *head)
{
	g_string_append_printf(o, "[profile %s]\n", name);
	g_string_append(o, head);
	g_string_append_printf(o, "runner = %s\n", v->runner);
	g_string_append_printf(o, "time_limit = %s\n", v->time_limit);
	g_string_append_printf(o, "jobs = %s\n", v->jobs);
	g_string_append_printf(o, "memory = %s\n", v->memory);
	g_string_append_printf(o, "job_memory = %s\n", v->job_memory);
	g_string_append_printf(o, "split = %s\n", v->split);
	g_string_append_printf(o, "threads = %s\n", v->threads);
	g_string_append_printf(o, "split_compile = %s\n", v->split_compile);
	if (archs)
		g_string_append_printf(o, "archs = %s\n", archs);
}

/* The name inside a section header line ("[ profile  ci ]" -> "profile ci"),
 * or NULL when the line is not one. */
static char *header_name(const char *line)
{
	const char *p = line;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != '[')
		return NULL;
	const char *end = strchr(p, ']');
	if (!end)
		return NULL;
	char *inner = g_strndup(p + 1, (gsize)(end - p - 1));
	char **words = g_strsplit_set(g_strstrip(inner), " \t", -1);
	GString *n = g_string_new(NULL);
	for (char **w = words; *w; w++)
		if (**w)
			g_string_append_printf(n, "%s%s", n->len ? " " : "", *w);
	g_strfreev(words);
	g_free(inner);
	return g_string_free(n, FALSE);
}

static gboolean blank_or_comment(const char *line)
{
	while (*line == ' ' || *line == '\t' || *line == '\r')
		line++;
	return !*line || *line == ';' || *line == '#';
}

/* Is this section one that `cugen profile NAME` writes? */
static gboolean ours(const char *hname, const char *name)
{
	if (!g_str_has_prefix(hname, "profile "))
		return FALSE;
	const char *n = hname + strlen("profile ");
	if (strcmp(n, name) == 0)
		return TRUE;
	gsize len = strlen(name);
	if (strncmp(n, name, len) != 0 || !g_str_has_prefix(n + len, "-shard"))
		return FALSE;
	const char *d = n + len + strlen("-shard");
	if (!*d)
		return FALSE;
	for (; *d; d++)
		if (!g_ascii_isdigit(*d))
			return FALSE;
	return TRUE;
}

static gboolean blank(const char *line)
{
	while (*line == ' ' || *line == '\t' || *line == '\r')
		line++;
	return !*line;
}

/* text with the sections NAME and NAME-shardK replaced by block (at the
 * place of the first of them; at the end when there is none), one blank
 * line before and after it. */
static GString *splice_section(const char *text, const char *name, const char *block)
{
	char **lines = g_strsplit(text, "\n", -1);
	guint n = g_strv_length(lines);
	if (n && !*lines[n - 1])
		n--; /* the text ended with a newline */
	GPtrArray *out = g_ptr_array_new(); /* borrowed from lines */
	int pos = -1;
	guint i = 0;
	while (i < n) {
		char *h = header_name(lines[i]);
		gboolean mine = h && ours(h, name);
		g_free(h);
		if (!mine) {
			g_ptr_array_add(out, lines[i++]);
			continue;
		}
		while (out->len && blank(g_ptr_array_index(out, out->len - 1)))
			g_ptr_array_remove_index(out, out->len - 1);
		if (pos < 0)
			pos = (int)out->len;
		guint end = i + 1;
		for (; end < n; end++) {
			char *hn = header_name(lines[end]);
			g_free(hn);
			if (hn)
				break;
		}
		if (end < n) /* comments just before the next header are the next section's */
			while (end > i + 1 && blank_or_comment(lines[end - 1]))
				end--;
		i = end;
	}
	if (pos < 0) {
		while (out->len && blank(g_ptr_array_index(out, out->len - 1)))
			g_ptr_array_remove_index(out, out->len - 1);
		pos = (int)out->len;
	}
	GString *o = g_string_new(NULL);
	for (int k = 0; k < pos; k++)
		g_string_append_printf(o, "%s\n", (char *)g_ptr_array_index(out, k));
	if (pos > 0)
		g_string_append_c(o, '\n');
	g_string_append(o, block);
	if ((guint)pos < out->len && !blank(g_ptr_array_index(out, pos)))
		g_string_append_c(o, '\n');
	for (guint k = (guint)pos; k < out->len; k++)
		g_string_append_printf(o, "%s\n", (char *)g_ptr_array_index(out, k));
	g_ptr_array_free(out, TRUE);
	g_strfreev(lines);
	return o;
}

/* A temporary file beside path ("DIR/.BASE.XXXXXX") holding text, with
 * path's permissions; NULL (and err) when it cannot be written. */
static char *temp_beside(const char *path, const char *text, GError **err)
{
	char *dir = g_path_get_dirname(path);
	char *base = g_path_get_basename(path);
	char *tmpl = g_strdup_printf("%s/.%s.XXXXXX", dir, base);
	g_free(dir);
	g_free(base);
	int fd = g_mkstemp(tmpl);
	if (fd < 0) {
		cg_error(err, "cannot write '%s': %s", path, g_strerror(errno));
		g_free(tmpl);
		return NULL;
	}
	struct stat sb;
	if (stat(path, &sb) == 0)
		fchmod(fd, sb.st_mode & 07777);
	else
		fchmod(fd, 0644 & ~umask(umask(0)));
	gboolean ok = cg_write_all(fd, text, strlen(text));
	if (close(fd) != 0)
		ok = FALSE;
	if (!ok) {
		cg_error(err, "cannot write '%s': %s", path, g_strerror(errno));
		unlink(tmpl);
		g_clear_pointer(&tmpl, g_free);
	}
	return tmpl;
}

/* Write text to path through a temporary file that is read back as a
 * project file first (when check); keeps path's permissions. A path
 * that is a symbolic link is edited where it points (the link stays a
 * link), like an editor does; the check reads the text beside the link,
 * where its relative paths mean what they will. */
static gboolean replace_file(const char *named, const char *text, gboolean check, GError **err)
{
	char *real = realpath(named, NULL);
	const char *path = real ? real : named;
	char *tmpl = temp_beside(named, text, err);
	gboolean ok = tmpl != NULL;
	if (ok && check) {
		ConfigOptions co = { tmpl, NULL, NULL, NULL, FALSE };
		GError *e = NULL;
		Config *c = config_load(&co, &e);
		if (!c) {
			cg_error(err, "internal error: the profile written would not read back (%s); %s left as it was",
				 e->message, path);
			g_error_free(e);
			ok = FALSE;
		}
		config_free(c);
	}
	if (ok && strcmp(path, named) != 0) {
		/* the target gets the text through a temporary of its own */
		unlink(tmpl);
		g_free(tmpl);
		tmpl = temp_beside(path, text, err);
		ok = tmpl != NULL;
	}
	if (ok && rename(tmpl, path) != 0) {
		cg_error(err, "cannot write '%s': %s", path, g_strerror(errno));
		ok = FALSE;
	}
	if (!ok && tmpl)
		unlink(tmpl);
	g_free(tmpl);
	free(real);
	return ok;
}

/* [profile NAME] as block into the project file (a section of that name
 * replaced where it stands); says what it did. */
static gboolean profile_append(const Config *c, const char *name, const char *block, int nshards, GError **err)
{
	gsize len = 0;
	char *text = cg_read_file(c->ini_abs, &len, err);
	if (!text)
		return FALSE;
	GString *next = splice_section(text, name, block);
	gboolean same = strcmp(next->str, text) == 0;
	g_free(text);
	gboolean ok = same || replace_file(c->ini_abs, next->str, TRUE, err);
	g_string_free(next, TRUE);
	if (ok)
		fprintf(stderr, "cugen: profile: %s [profile %s]%s in %s\n", same ? "unchanged:" : "wrote", name,
			nshards ? " and its shards" : "", c->ini_path);
	return ok;
}

static void list_runners(void)
{
	GPtrArray *names = runner_names();
	printf("%-16s %5s %7s %7s %6s  %s\n", "RUNNER", "CORES", "MEMORY", "DISK", "LIMIT", "WHAT");
	for (guint i = 0; i + 1 < names->len; i++) {
		const char *n = g_ptr_array_index(names, i);
		if (strcmp(n, "this-machine") == 0)
			continue;
		Runner *r = runner_lookup(n, NULL);
		char *mem = units_format_size(r->memory), *disk = units_format_size(r->disk);
		char *lim = r->time_limit ? units_format_duration(r->time_limit) : g_strdup("none");
		printf("%-16s %5d %7s %7s %6s  %s\n", n, r->cores, mem, disk, lim, r->title);
		g_free(mem);
		g_free(disk);
		g_free(lim);
		runner_free(r);
	}
	printf("%-16s %5s %7s %7s %6s  %s\n", "this-machine", "-", "-", "-", "none", "this machine, as the planner's probe sees it");
	printf("%-16s %5s %7s %7s %6s  %s\n", "CORES:MEMORY", "-", "-", "-", "none", "given by hand, e.g. 2:7G");
	g_ptr_array_free(names, TRUE);
}

int cmd_profile(int argc, char **argv)
{
	char *runner_spec = NULL, *output = NULL;
	gboolean append = FALSE, list = FALSE;
	int nshards = 0;
	SetupArgs a = { 0 };
	GOptionEntry entries[] = {
		{ "runner", 0, 0, G_OPTION_ARG_STRING, &runner_spec, "The machine: a runner of --list-runners, this-machine, or CORES:MEMORY", "RUNNER" },
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Write the section to FILE (default: stdout)", "FILE" },
		{ "append", 0, 0, G_OPTION_ARG_NONE, &append, "Add the section to the project file, replacing one of the same name", NULL },
		{ "shards", 0, 0, G_OPTION_ARG_INT, &nshards, "Also write N profiles NAME-shardK, each building its share of the archs", "N" },
		{ "list-runners", 0, 0, G_OPTION_ARG_NONE, &list, "Print the runners cugen knows and exit", NULL },
		{ "source-dir", 'S', 0, G_OPTION_ARG_FILENAME, &a.srcdir, "Project directory (default: .)", "SRCDIR" },
		{ "build-dir", 'B', 0, G_OPTION_ARG_FILENAME, &a.builddir, "A build directory whose last build measured the jobs' memory and time", "BUILDDIR" },
		{ "file", 'f', 0, G_OPTION_ARG_FILENAME, &a.file, "Project file (default: SRCDIR/cugen.ini)", "FILE" },
		{ "define", 'D', 0, G_OPTION_ARG_STRING_ARRAY, &a.defines, "Override an INI key", "SECTION.KEY=VALUE" },
		{ NULL }
	};
	GOptionContext *ctx = g_option_context_new("NAME");
	g_option_context_set_summary(ctx, "Write a [profile NAME] for the machine a build runs on: a CI runner by name,\n"
				     "this machine, or CORES:MEMORY. The planner's choices for this project on that\n"
				     "machine fill jobs, memory, job_memory, split, threads and split_compile.");
	g_option_context_add_main_entries(ctx, entries, NULL);
	g_set_prgname("cugen profile");
	GError *err = NULL, *e = NULL;
	Generated gen = { 0 };
	Runner *r = NULL;
	GString *block = g_string_new(NULL);
	char **shard_archs = NULL;
	double *load = NULL;
	char *late = NULL;
	int rc = 0;
	if (!g_option_context_parse(ctx, &argc, &argv, &e)) {
		cg_usage_error(&err, "%s (see 'cugen profile --help')", e->message);
		g_error_free(e);
		goto out;
	}
	if (list) {
		list_runners();
		goto out;
	}
	if (argc < 2) {
		cg_usage_error(&err, "give the profile's NAME (see 'cugen profile --help')");
		goto out;
	}
	if (argc > 2) {
		cg_usage_error(&err, "unexpected argument '%s' (see 'cugen profile --help')", argv[2]);
		goto out;
	}
	const char *name = argv[1];
	if (!valid_profile_name(name)) {
		cg_usage_error(&err, "invalid profile name '%s' (use letters, digits, '_', '-')", name);
		goto out;
	}
	if (!runner_spec) {
		cg_usage_error(&err, "give --runner RUNNER (see 'cugen profile --list-runners')");
		goto out;
	}
	if (append && output) {
		cg_usage_error(&err, "give --append or -o FILE, not both");
		goto out;
	}
	if (nshards < 0) {
		cg_usage_error(&err, "--shards must be at least 1");
		goto out;
	}
	r = runner_lookup(runner_spec, &err);
	if (!r)
		goto out;
	if (!a.srcdir)
		a.srcdir = g_strdup(".");
	if (!a.file)
		a.file = strcmp(a.srcdir, ".") == 0 ? g_strdup("cugen.ini") : g_build_filename(a.srcdir, "cugen.ini", NULL);
	a.no_history = !a.builddir;
	if (a.builddir && !g_file_test(a.builddir, G_FILE_TEST_IS_DIR)) {
		cg_error(&err, "build directory '%s' not found (build there first, or leave out -B)", a.builddir);
		goto out;
	}
	if (!a.builddir)
		a.builddir = g_strdup("build");
	a.backend = g_strdup("ninja");
	Machine m = { r->cores, "the runner", r->usable, "the runner", NULL };
	a.machine = &m;
	if (!setup_generate(&a, &gen, &err))
		goto out;
	Plan *pl = &gen.plan;

	char jobs[16], threads[16], split_compile[16];
	g_snprintf(jobs, sizeof jobs, "%d", r->cores);
	g_snprintf(threads, sizeof threads, "%d", MAX(pl->chosen.threads, 1));
	/* split = arch: auto lets the planner weigh its tail split there */
	if (!gen.info.split_tu_targets && !pl->chosen.split_compile)
		g_strlcpy(split_compile, "auto", sizeof split_compile);
	else
		g_snprintf(split_compile, sizeof split_compile, "%d", pl->chosen.split_compile);
	char *memory = units_format_size(r->usable);
	char *job_memory = units_format_size((guint64)(pl->mem_device > 0 ? pl->mem_device : 1073741824.0));
	char *limit = r->time_limit ? units_format_duration(r->time_limit) : g_strdup("none");
	Values v = { jobs, memory, job_memory, gen.info.split_tu_targets ? "tu" : "arch", threads, split_compile,
		     limit, r->name };

	GString *head = g_string_new(NULL);
	char *line = g_strdup_printf("written by cugen profile %s --runner %s%s: %s", name, r->name,
				     a.no_history ? "" : " -B ...", r->title);
	comment(head, line);
	g_free(line);
	char *mem_total = units_format_size(r->memory), *disk = r->disk ? units_format_size(r->disk) : NULL;
	line = g_strdup_printf("%d cores, %s memory (%s for the build: %s)%s%s%s, job time limit %s", r->cores, mem_total,
			       memory, r->usable_from, disk ? ", " : "", disk ? disk : "", disk ? " disk" : "", limit);
	comment(head, line);
	g_free(line);
	g_free(mem_total);
	g_free(disk);
	line = g_strdup_printf("figures: %s", r->source);
	comment(head, line);
	g_free(line);
	line = a.no_history ? g_strdup_printf("job_memory: the planner's default (nothing measured); after a build, "
					      "run this again with -B BUILDDIR to use the measured peaks")
			    : g_strdup_printf("job_memory: the largest device job's peak %s", pl->mem_from);
	comment(head, line);
	g_free(line);

	section(block, name, &v, NULL, head->str);
	if (nshards > 0) {
		GArray *costs = plan_arch_costs(&gen.plan);
		if ((guint)nshards > costs->len) {
			cg_usage_error(&err, "%d shards for %u archs: use --shards %u or fewer", nshards, costs->len, costs->len);
			plan_arch_costs_free(costs);
			g_string_free(head, TRUE);
			g_free(memory);
			g_free(job_memory);
			g_free(limit);
			goto out;
		}
		shard_archs = g_new0(char *, nshards + 1);
		load = g_new0(double, nshards);
		plan_balance(costs, nshards, shard_archs, load);
		for (int i = 0; i < nshards; i++) {
			char *sname = g_strdup_printf("%s-shard%d", name, i + 1);
			GString *sh = g_string_new(NULL);
			char *from = plan_costs_source(costs, shard_archs[i]);
			line = g_strdup_printf("shard %d of %d (as %s, with these archs; about %.0f CPU s of device compiles, "
					       "%s): cugen setup --profile %s && ninja shard, then cugen combine",
					       i + 1, nshards, name, load[i], from, sname);
			g_free(from);
			comment(sh, line);
			g_free(line);
			g_string_append_c(block, '\n');
			section(block, sname, &v, shard_archs[i], sh->str);
			g_string_free(sh, TRUE);
			g_free(sname);
		}
		plan_arch_costs_free(costs);
	}
	g_string_free(head, TRUE);
	g_free(memory);
	g_free(job_memory);
	g_free(limit);

	if (r->time_limit > 0 && !a.no_history) {
		TimeCheck tc;
		plan_time_check(pl, gen.builddir, r->time_limit, 0, &tc);
		if (!nshards || tc.shards < 0 || tc.shards > nshards)
			late = plan_time_warning(&tc, name, r->name);
	}

	if (append) {
		/* read, splice and replace under a lock on the project file's
		 * directory: two --append at once each keep their section (the
		 * file itself is replaced by a rename, so it cannot hold it) */
		char *pdir = g_path_get_dirname(gen.c->ini_abs);
		int lockfd = open(pdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		g_free(pdir);
		if (lockfd >= 0)
			while (flock(lockfd, LOCK_EX) != 0 && errno == EINTR)
				;
		gboolean appended = profile_append(gen.c, name, block->str, nshards, &err);
		if (lockfd >= 0)
			close(lockfd);
		if (!appended)
			goto out;
	} else if (output) {
		if (!replace_file(output, block->str, FALSE, &err))
			goto out;
	} else {
		fputs(block->str, stdout);
	}

out:
	if (late)
		cg_warn("%s", late);
	if (err)
		rc = cg_report(err);
	g_clear_error(&err);
	g_free(late);
	g_strfreev(shard_archs);
	g_free(load);
	g_string_free(block, TRUE);
	runner_free(r);
	setup_generated_clear(&gen);
	setup_args_clear(&a);
	g_free(runner_spec);
	g_free(output);
	g_option_context_free(ctx);
	return rc;
}
