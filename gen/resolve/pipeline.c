/* pipeline.c -- `nvcc --dryrun` output to command templates; see
 * pipeline.h. The rewriting is option-aware: each step names the options
 * whose values are files, and every such value becomes a placeholder. Any
 * temporary or probe file left over afterwards means nvcc did something we
 * do not understand, and is an error. */
#include "pipeline.h"

#include <stdio.h>
#include <string.h>

#include "toolkit.h"
#include "util.h"

static void parch_free(gpointer p)
{
	PipeArch *a = p;
	g_free(a->id);
	if (a->pp)
		g_ptr_array_free(a->pp, TRUE);
	if (a->cicc)
		g_ptr_array_free(a->cicc, TRUE);
	if (a->ptxas)
		g_ptr_array_free(a->ptxas, TRUE);
	if (a->ptxcheck)
		g_ptr_array_free(a->ptxcheck, TRUE);
	g_free(a);
}

void pipeline_free(Pipeline *p)
{
	if (!p)
		return;
	g_free(p->arch_list);
	g_free(p->math);
	if (p->host_pp)
		g_ptr_array_free(p->host_pp, TRUE);
	if (p->cudafe)
		g_ptr_array_free(p->cudafe, TRUE);
	g_ptr_array_free(p->archs, TRUE);
	g_ptr_array_free(p->images, TRUE);
	if (p->fatbin)
		g_ptr_array_free(p->fatbin, TRUE);
	if (p->host_cc)
		g_ptr_array_free(p->host_cc, TRUE);
	g_free(p);
}

PipeArch *pipeline_arch(Pipeline *p, const char *id)
{
	for (guint i = 0; i < p->archs->len; i++) {
		PipeArch *a = g_ptr_array_index(p->archs, i);
		if (strcmp(a->id, id) == 0)
			return a;
	}
	return NULL;
}

static GPtrArray *strv_array(void)
{
	return g_ptr_array_new_with_free_func(g_free);
}

/* Replace the value of an option given as "OPT VALUE" or "OPT=VALUE". */
static gboolean set_opt(GPtrArray *argv, const char *opt, const char *value)
{
	gsize n = strlen(opt);
	for (guint i = 0; i < argv->len; i++) {
		char *a = g_ptr_array_index(argv, i);
		if (strcmp(a, opt) == 0 && i + 1 < argv->len) {
			g_free(argv->pdata[i + 1]);
			argv->pdata[i + 1] = g_strdup(value);
			return TRUE;
		}
		if (strncmp(a, opt, n) == 0 && a[n] == '=') {
			argv->pdata[i] = g_strconcat(opt, "=", value, NULL);
			g_free(a);
			return TRUE;
		}
	}
	return FALSE;
}

static const char *get_opt(GPtrArray *argv, const char *opt)
{
	gsize n = strlen(opt);
	for (guint i = 0; i < argv->len; i++) {
		const char *a = g_ptr_array_index(argv, i);
		if (strcmp(a, opt) == 0 && i + 1 < argv->len)
			return g_ptr_array_index(argv, i + 1);
		if (strncmp(a, opt, n) == 0 && a[n] == '=')
			return a + n + 1;
	}
	return NULL;
}

gboolean argv_contains(GPtrArray *argv, const char *arg)
{
	for (guint i = 0; i < argv->len; i++)
		if (strcmp(g_ptr_array_index(argv, i), arg) == 0)
			return TRUE;
	return FALSE;
}

/* Replace every argument that ends with suffix (a temporary file). */
static gboolean set_file(GPtrArray *argv, const char *suffix, const char *value)
{
	gboolean any = FALSE;
	for (guint i = 1; i < argv->len; i++) {
		char *a = g_ptr_array_index(argv, i);
		if (strstr(a, "tmpxft_") && g_str_has_suffix(a, suffix)) {
			argv->pdata[i] = g_strdup(value);
			g_free(a);
			any = TRUE;
		}
	}
	return any;
}

static void set_exact(GPtrArray *argv, const char *from, const char *to)
{
	for (guint i = 1; i < argv->len; i++) {
		char *a = g_ptr_array_index(argv, i);
		if (strcmp(a, from) == 0) {
			argv->pdata[i] = g_strdup(to);
			g_free(a);
		}
	}
}

static void remove_prefixed(GPtrArray *argv, const char *prefix)
{
	for (guint i = argv->len; i > 1; i--)
		if (g_str_has_prefix(g_ptr_array_index(argv, i - 1), prefix))
			g_ptr_array_remove_index(argv, i - 1);
}

/* Anything nvcc-temporary or probe-named left is not understood. */
static const char *leftover(GPtrArray *argv)
{
	for (guint i = 1; i < argv->len; i++) {
		const char *a = g_ptr_array_index(argv, i);
		if (strstr(a, "tmpxft_") || strstr(a, PROBE_NAME) || strstr(a, "@PROBEDIR@"))
			return a;
	}
	return NULL;
}

static char *tool_path(const char *name, GHashTable *env)
{
	const char *dirs[] = { "CICC_PATH", "_HERE_" };
	for (gsize i = 0; i < G_N_ELEMENTS(dirs); i++) {
		const char *d = g_hash_table_lookup(env, dirs[i]);
		if (!d)
			continue;
		char *p = g_build_filename(d, name, NULL);
		if (g_file_test(p, G_FILE_TEST_IS_EXECUTABLE))
			return p;
		g_free(p);
	}
	return g_strdup(name);
}

static char *expand_vars(const char *s, GHashTable *env)
{
	if (s[0] != '$')
		return g_strdup(s);
	const char *slash = strchr(s, '/');
	char *name = slash ? g_strndup(s + 1, slash - s - 1) : g_strdup(s + 1);
	const char *v = g_hash_table_lookup(env, name);
	char *r = v ? g_strconcat(v, slash ? slash : "", NULL) : g_strdup(s);
	g_free(name);
	return r;
}

/* nvcc --dryrun's output, a step at a time: its "#$ " lines, where
 * NAME=VALUE lines set variables that later steps' words may start with
 * ($NAME/...). Each step gives its line (cmd), its words expanded (argv,
 * the caller's to keep or free) and its program's base name (base, the
 * reader's until the next step); argv[0] becomes a full path when it is
 * one of tools written without a directory. */
typedef struct {
	char **lines, **at;
	GHashTable *env;
	GRegex *assign;
	const char *const *tools;
	const char *cmd;
	GPtrArray *argv;
	char *base;
} Dryrun;

static void dryrun_open(Dryrun *d, const char *text, const char *const *tools)
{
	memset(d, 0, sizeof *d);
	d->lines = d->at = g_strsplit(text, "\n", -1);
	d->env = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	d->assign = g_regex_new("^[A-Za-z_][A-Za-z0-9_]*=", 0, 0, NULL);
	d->tools = tools;
}

/* The next step; FALSE at the end, or with *ok FALSE (and err) on a
 * line that does not split into words. */
static gboolean dryrun_next(Dryrun *d, gboolean *ok, GError **err)
{
	g_clear_pointer(&d->base, g_free);
	for (; *d->at; d->at++) {
		if (!g_str_has_prefix(*d->at, "#$ "))
			continue;
		const char *cmd = *d->at + 3;
		if (g_regex_match(d->assign, cmd, 0, NULL)) {
			const char *eq = strchr(cmd, '=');
			g_hash_table_replace(d->env, g_strndup(cmd, eq - cmd), g_strdup(eq + 1));
			continue;
		}
		int argc = 0;
		char **v = NULL;
		if (!g_shell_parse_argv(cmd, &argc, &v, NULL)) {
			cg_error(err, "cannot parse nvcc --dryrun line: %s", cmd);
			*ok = FALSE;
			return FALSE;
		}
		d->at++;
		d->cmd = cmd;
		d->argv = strv_array();
		for (int i = 0; i < argc; i++)
			g_ptr_array_add(d->argv, expand_vars(v[i], d->env));
		g_strfreev(v);
		d->base = g_path_get_basename(g_ptr_array_index(d->argv, 0));
		if (g_strv_contains(d->tools, d->base) && !strchr(g_ptr_array_index(d->argv, 0), '/')) {
			g_free(d->argv->pdata[0]);
			d->argv->pdata[0] = tool_path(d->base, d->env);
		}
		return TRUE;
	}
	return FALSE;
}

static void dryrun_close(Dryrun *d)
{
	g_free(d->base);
	g_regex_unref(d->assign);
	g_strfreev(d->lines);
	g_hash_table_destroy(d->env);
}

/* A step that occurs once per TU: a second one is not understood. */
static GPtrArray *take(GPtrArray **slot, GPtrArray *argv, const char *what,
		       GError **err, gboolean *ok)
{
	if (*slot) {
		if (*ok)
			cg_error(err, "nvcc --dryrun: two %s steps", what);
		*ok = FALSE;
		return NULL;
	}
	return *slot = argv;
}

static char *arch_of_define(GPtrArray *argv)
{
	for (guint i = 0; i < argv->len; i++) {
		const char *a = g_ptr_array_index(argv, i);
		if (g_str_has_prefix(a, "-D__CUDA_ARCH__="))
			return g_strdup(a + strlen("-D__CUDA_ARCH__="));
	}
	return NULL;
}

Pipeline *pipeline_parse(const char *dryrun, GError **err)
{
	Pipeline *p = g_new0(Pipeline, 1);
	p->archs = g_ptr_array_new_with_free_func(parch_free);
	p->images = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *pending_pp = NULL; /* device gcc -E waiting for its cicc */
	gboolean ok = TRUE;
	static const char *const tools[] = { "cicc", "cudafe++", "ptxas", "fatbinary", NULL };
	Dryrun dr;
	dryrun_open(&dr, dryrun, tools);
	while (ok && dryrun_next(&dr, &ok, err)) {
		GPtrArray *argv = dr.argv;
		const char *cmd = dr.cmd, *base = dr.base;
		GPtrArray *keep = NULL;
		if (strcmp(base, "rm") == 0) {
			/* nvcc's cleanup of its temporaries */
		} else if (strcmp(base, "cudafe++") == 0) {
			set_opt(argv, "--orig_src_file_name", P_F);
			set_opt(argv, "--orig_src_path_name", P_C);
			set_opt(argv, "--gen_c_file_name", P_O "/fe.cpp");
			set_opt(argv, "--stub_file_name", "stub.c");
			set_opt(argv, "--module_id_file_name", P_O "/id");
			set_file(argv, ".cpp4.ii", P_O "/host.ii");
			keep = take(&p->cudafe, argv, "cudafe++", err, &ok);
		} else if (strcmp(base, "cicc") == 0) {
			const char *march = get_opt(argv, "-arch");
			if (!march || !g_str_has_prefix(march, "compute_")) {
				cg_error(err, "nvcc --dryrun: cicc without -arch compute_NN: %s", cmd);
				ok = FALSE;
			} else if (!pending_pp) {
				cg_error(err, "nvcc --dryrun: cicc without a device preprocess step before it");
				ok = FALSE;
			} else {
				PipeArch *a = g_new0(PipeArch, 1);
				a->id = g_strdup(march + strlen("compute_"));
				a->lto = argv_contains(argv, "-lto");
				char *f;
				set_opt(argv, "--orig_src_file_name", P_F);
				set_opt(argv, "--orig_src_path_name", P_C);
				set_opt(argv, "--include_file_name", "fatbin.c");
				set_opt(argv, "--module_id_file_name", P_O "/id");
				f = g_strdup_printf(P_O "/%s.c", a->id);
				set_opt(argv, "--gen_c_file_name", f);
				g_free(f);
				set_opt(argv, "--stub_file_name", P_STUB);
				f = g_strdup_printf(P_O "/%s.gpu", a->id);
				set_opt(argv, "--gen_device_file_name", f);
				g_free(f);
				f = g_strdup_printf(P_O "/%s.ii", a->id);
				set_file(argv, ".cpp1.ii", f);
				g_free(f);
				f = g_strdup_printf(P_O "/compute_%s.%s", a->id, a->lto ? "ltoir" : "ptx");
				set_opt(argv, "-o", f);
				g_free(f);
				/* the matching preprocess */
				f = g_strdup_printf(P_O "/%s.ii", a->id);
				set_opt(pending_pp, "-o", f);
				g_free(f);
				a->pp = pending_pp;
				pending_pp = NULL;
				const char *bad = leftover(a->pp);
				if (bad) {
					cg_error(err, "nvcc --dryrun: unrecognised temporary file '%s' in the device preprocess", bad);
					ok = FALSE;
				}
				a->cicc = argv;
				keep = argv;
				g_ptr_array_add(p->archs, a);
			}
		} else if (strcmp(base, "ptxas") == 0) {
			/* ptxas -arch=sm_NN, or nvcc 13's check of a PTX-only arch's
			 * PTX (code=compute_NN) with ptxas -arch=compute_NN, which
			 * writes nothing */
			const char *sarch = get_opt(argv, "-arch");
			gboolean check = sarch && g_str_has_prefix(sarch, "compute_");
			PipeArch *a = check || (sarch && g_str_has_prefix(sarch, "sm_"))
				? pipeline_arch(p, strchr(sarch, '_') + 1) : NULL;
			if (!a || a->ptxas || a->ptxcheck || (check && get_opt(argv, "-o"))) {
				cg_error(err, "nvcc --dryrun: unexpected ptxas step: %s", cmd);
				ok = FALSE;
			} else {
				char *f = g_strdup_printf(P_O "/compute_%s.ptx", a->id);
				set_file(argv, ".ptx", f);
				g_free(f);
				if (check) {
					a->ptxcheck = keep = argv;
				} else {
					f = g_strdup_printf(P_O "/sm_%s.cubin", a->id);
					set_opt(argv, "-o", f);
					g_free(f);
					a->ptxas = keep = argv;
					a->sass = TRUE;
				}
			}
		} else if (strcmp(base, "fatbinary") == 0) {
			for (guint i = 0; ok && i < argv->len; i++) {
				const char *x = g_ptr_array_index(argv, i);
				if (!g_str_has_prefix(x, "--image3=kind="))
					continue;
				char kind[16], sm[16];
				PipeArch *a = NULL;
				if (sscanf(x, "--image3=kind=%15[a-z],sm=%15[0-9af],", kind, sm) == 2)
					a = pipeline_arch(p, sm);
				if (!a) {
					cg_error(err, "nvcc --dryrun: unexpected fatbinary image '%s'", x);
					ok = FALSE;
					break;
				}
				if (strcmp(kind, "ptx") == 0)
					a->ptx = TRUE;
				g_ptr_array_add(p->images, g_strdup_printf("%s:%s", kind, sm));
			}
			const char *m = get_opt(argv, "--cicc-cmdline");
			/* (a second fatbinary step is refused by take(): the
			 * first one's record stays, none is lost) */
			if (!p->fatbin) {
				g_free(p->math);
				p->math = g_strdup(m ? m : "");
			}
			/* -lineinfo, -G: the source's name as nvcc was given it */
			set_opt(argv, "--ident", P_F);
			remove_prefixed(argv, "--image3=");
			remove_prefixed(argv, "--embedded-fatbin=");
			keep = take(&p->fatbin, argv, "fatbinary", err, &ok);
		} else if (argv_contains(argv, "-E")) {
			char *arch = arch_of_define(argv);
			set_exact(argv, PROBE_NAME ".cu", P_IN);
			if (arch) {
				if (pending_pp) {
					cg_error(err, "nvcc --dryrun: two device preprocess steps in a row");
					ok = FALSE;
				} else {
					keep = pending_pp = argv;
				}
				g_free(arch);
			} else {
				set_opt(argv, "-o", P_O "/host.ii");
				keep = take(&p->host_pp, argv, "host preprocess", err, &ok);
			}
		} else if (argv_contains(argv, "-c")) {
			set_file(argv, ".cudafe1.cpp", P_O "/fe.cpp");
			set_exact(argv, PROBE_NAME ".o", P_OUT);
			keep = take(&p->host_cc, argv, "host compile", err, &ok);
		} else {
			cg_error(err, "nvcc --dryrun: unknown step '%s'", base);
			ok = FALSE;
		}
		if (ok && keep && keep != pending_pp) {
			const char *bad = leftover(keep);
			if (bad) {
				cg_error(err, "nvcc --dryrun: unrecognised temporary file '%s' in: %s", bad, cmd);
				ok = FALSE;
			}
		}
		if (!keep)
			g_ptr_array_free(argv, TRUE);
	}
	if (ok && pending_pp) {
		cg_error(err, "nvcc --dryrun: device preprocess step without cicc");
		ok = FALSE;
	}
	if (pending_pp)
		g_ptr_array_free(pending_pp, TRUE);
	if (ok && (!p->host_pp || !p->cudafe || !p->archs->len || !p->fatbin || !p->host_cc)) {
		cg_error(err, "nvcc --dryrun: missing steps (host preprocess, cudafe++, cicc, fatbinary or host compile)");
		ok = FALSE;
	}
	if (ok) {
		p->rdc = argv_contains(p->cudafe, "--device-c");
		for (guint i = 0; i < p->host_pp->len; i++) {
			const char *a = g_ptr_array_index(p->host_pp, i);
			if (g_str_has_prefix(a, "-D__CUDA_ARCH_LIST__="))
				p->arch_list = g_strdup(a + strlen("-D__CUDA_ARCH_LIST__="));
		}
		if (!p->arch_list) {
			cg_error(err, "nvcc --dryrun: no -D__CUDA_ARCH_LIST__ in the host preprocess step");
			ok = FALSE;
		}
	}
	dryrun_close(&dr);
	if (!ok) {
		pipeline_free(p);
		return NULL;
	}
	return p;
}

/* ---- device link ---- */

static void darch_free(gpointer p)
{
	DlinkArch *a = p;
	g_free(a->id);
	g_ptr_array_free(a->nvlink, TRUE);
	g_free(a);
}

void dlink_free(Dlink *d)
{
	if (!d)
		return;
	g_ptr_array_free(d->archs, TRUE);
	if (d->fatbin)
		g_ptr_array_free(d->fatbin, TRUE);
	if (d->host)
		g_ptr_array_free(d->host, TRUE);
	g_free(d);
}

/* Replace an argument that starts with prefix (e.g. -DFATBINFILE=). */
static gboolean set_prefixed(GPtrArray *argv, const char *prefix, const char *value)
{
	for (guint i = 1; i < argv->len; i++) {
		char *a = g_ptr_array_index(argv, i);
		if (g_str_has_prefix(a, prefix)) {
			argv->pdata[i] = g_strconcat(prefix, value, NULL);
			g_free(a);
			return TRUE;
		}
	}
	return FALSE;
}

Dlink *dlink_parse(const char *dryrun, GError **err)
{
	Dlink *d = g_new0(Dlink, 1);
	d->archs = g_ptr_array_new_with_free_func(darch_free);
	gboolean ok = TRUE;
	static const char *const tools[] = { "nvlink", "fatbinary", NULL };
	Dryrun dr;
	dryrun_open(&dr, dryrun, tools);
	while (ok && dryrun_next(&dr, &ok, err)) {
		GPtrArray *argv = dr.argv;
		const char *cmd = dr.cmd, *base = dr.base;
		GPtrArray *keep = NULL;
		if (strcmp(base, "rm") == 0) {
		} else if (strcmp(base, "nvlink") == 0) {
			const char *arch = get_opt(argv, "--arch");
			if (!arch || !g_str_has_prefix(arch, "sm_")) {
				cg_error(err, "nvcc --dryrun: nvlink without --arch=sm_NN: %s", cmd);
				ok = FALSE;
			} else {
				DlinkArch *a = g_new0(DlinkArch, 1);
				a->id = g_strdup(arch + 3);
				char *f = g_strdup_printf(P_O "/sm_%s.reg.c", a->id);
				set_opt(argv, "--register-link-binaries", f);
				g_free(f);
				f = g_strdup_printf(P_O "/sm_%s.cubin", a->id);
				set_opt(argv, "-o", f);
				g_free(f);
				set_exact(argv, PROBE_NAME ".o", P_IN);
				d->lto |= argv_contains(argv, "-dlto");
				a->nvlink = keep = argv;
				g_ptr_array_add(d->archs, a);
			}
		} else if (strcmp(base, "fatbinary") == 0) {
			/* -lineinfo, -G: the linked objects' names */
			set_opt(argv, "--ident", P_IDENT);
			remove_prefixed(argv, "--image3=");
			remove_prefixed(argv, "--embedded-fatbin=");
			keep = take(&d->fatbin, argv, "fatbinary", err, &ok);
		} else if (argv_contains(argv, "-c")) {
			set_prefixed(argv, "-DFATBINFILE=", "\"" P_O "/fatbin.c\"");
			set_prefixed(argv, "-DREGISTERLINKBINARYFILE=", "\"" P_REG "\"");
			set_exact(argv, PROBE_NAME "_dlink.o", P_OUT);
			keep = take(&d->host, argv, "link stub compile", err, &ok);
		} else {
			cg_error(err, "nvcc --dryrun -dlink: unknown step '%s'", base);
			ok = FALSE;
		}
		if (ok && keep) {
			const char *bad = leftover(keep);
			if (bad) {
				cg_error(err, "nvcc --dryrun -dlink: unrecognised temporary file '%s' in: %s", bad, cmd);
				ok = FALSE;
			}
		}
		if (!keep)
			g_ptr_array_free(argv, TRUE);
	}
	if (ok && (!d->archs->len || !d->fatbin || !d->host)) {
		cg_error(err, "nvcc --dryrun -dlink: missing steps (nvlink, fatbinary or the link stub compile)");
		ok = FALSE;
	}
	dryrun_close(&dr);
	if (!ok) {
		dlink_free(d);
		return NULL;
	}
	return d;
}

/* ---- argument vectors with placeholders ---- */

GPtrArray *argv_copy(GPtrArray *a)
{
	GPtrArray *c = g_ptr_array_new_with_free_func(g_free);
	for (guint i = 0; i < a->len; i++)
		g_ptr_array_add(c, g_strdup(g_ptr_array_index(a, i)));
	return c;
}

/* Whether an argument holds the placeholder ph. */
gboolean argv_has(GPtrArray *argv, const char *ph)
{
	for (guint i = 0; i < argv->len; i++)
		if (strstr(g_ptr_array_index(argv, i), ph))
			return TRUE;
	return FALSE;
}

/* Replace a placeholder in every argument. */
void argv_subst(GPtrArray *argv, const char *ph, const char *value)
{
	for (guint i = 0; i < argv->len; i++) {
		char *a = g_ptr_array_index(argv, i);
		if (!strstr(a, ph))
			continue;
		char **parts = g_strsplit(a, ph, -1);
		argv->pdata[i] = g_strjoinv(value, parts);
		g_strfreev(parts);
		g_free(a);
	}
}
