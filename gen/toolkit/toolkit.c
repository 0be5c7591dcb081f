/* toolkit.c -- finding and probing the CUDA toolkit; see toolkit.h. */
#include "toolkit.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <stdlib.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "arch.h"
#include "safepath.h"
#include "spawn.h"
#include "statefile.h"
#include "util.h"

char *toolkit_cache_path(const char *builddir)
{
	return g_build_filename(builddir, ".cugen", "probe.ini", NULL);
}

static gboolean has_nvcc(const char *root)
{
	char *n = g_build_filename(root, "bin", "nvcc", NULL);
	gboolean ok = g_file_test(n, G_FILE_TEST_IS_EXECUTABLE) &&
		      !g_file_test(n, G_FILE_TEST_IS_DIR);
	g_free(n);
	return ok;
}

/* What is wrong with root's bin/nvcc, as the messages say it. */
static const char *nvcc_problem(const char *root)
{
	char *n = g_build_filename(root, "bin", "nvcc", NULL);
	GStatBuf sb;
	const char *why = g_stat(n, &sb) != 0 ? "has no bin/nvcc"
			  : S_ISDIR(sb.st_mode)   ? "has a directory for bin/nvcc"
						  : "has a bin/nvcc that cannot be run (not executable)";
	g_free(n);
	return why;
}

static char *find_root(const Config *c, GError **err)
{
	if (c->cuda) {
		if (!has_nvcc(c->cuda)) {
			if (c->cuda_loc.line > 0)
				cg_error_at(err, c->cuda_loc.file, c->cuda_loc.line, "'%s' %s ([toolchain] cuda)", c->cuda,
					    nvcc_problem(c->cuda));
			else
				cg_error(err, "'%s' %s (toolchain.cuda)", c->cuda, nvcc_problem(c->cuda));
			return NULL;
		}
		return g_strdup(c->cuda);
	}
	const char *envs[] = { "CUDA_PATH", "CUDA_HOME" };
	for (gsize i = 0; i < G_N_ELEMENTS(envs); i++) {
		const char *v = g_getenv(envs[i]);
		if (v && *v) {
			if (!has_nvcc(v)) {
				cg_error(err, "$%s is '%s', but it %s", envs[i], v, nvcc_problem(v));
				return NULL;
			}
			return cg_abspath(v);
		}
	}
	char *n = g_find_program_in_path("nvcc");
	if (n) {
		char *real = realpath(n, NULL);
		char *bin = g_path_get_dirname(n);
		char *root = cg_path_join(bin, "..");
		g_free(bin);
		g_free(n);
		free(real);
		return root;
	}
	if (has_nvcc("/usr/local/cuda"))
		return g_strdup("/usr/local/cuda");
	cg_error(err, "no CUDA toolkit found: set [toolchain] cuda, $CUDA_PATH or $CUDA_HOME, or put nvcc on PATH");
	return NULL;
}

char *toolkit_default_root(GError **err)
{
	Config none = { 0 };
	return find_root(&none, err);
}

static char *first_line(const char *s)
{
	const char *nl = strchr(s, '\n');
	return nl ? g_strndup(s, nl - s) : g_strdup(s);
}

/* Runs argv; its wait status into *wstatus when given. */
static gboolean run(const char *const *argv, const char *cwd, char **out, char **errout, int *wstatus, GError **err)
{
	int status = 0;
	char *o = NULL, *se = NULL;
	if (out)
		*out = NULL;
	if (errout)
		*errout = NULL;
	if (!cg_spawn_bounded(cwd, argv, G_SPAWN_SEARCH_PATH, &o, &se, &status, err))
		return FALSE;
	gboolean ok = g_spawn_check_wait_status(status, NULL);
	if (wstatus)
		*wstatus = status;
	if (out)
		*out = o;
	else
		g_free(o);
	if (!ok && !errout) {
		/* the command and the first line it said */
		char *line = se ? first_line(g_strstrip(se)) : NULL;
		cg_error(err, "'%s%s%s' failed%s%s", argv[0], argv[1] ? " " : "", argv[1] ? argv[1] : "",
			 line && *line ? ": " : "", line ? line : "");
		g_free(line);
	}
	if (errout)
		*errout = se;
	else
		g_free(se);
	return ok;
}

static void stat_into(GString *fp, const char *path)
{
	struct stat sb;
	if (path && stat(path, &sb) == 0)
		g_string_append_printf(fp, "%s:%lld:%lld:%lld;", path, (long long)sb.st_size,
				       (long long)sb.st_mtim.tv_sec, (long long)sb.st_mtim.tv_nsec);
	else
		g_string_append_printf(fp, "%s:none;", path ? path : "");
}

static gint cmp_code(gconstpointer a, gconstpointer b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	int d = atoi(x + 3) - atoi(y + 3);
	return d ? d : strcmp(x, y);
}

const char *toolkit_host_target(void)
{
	struct utsname u;
	if (uname(&u) == 0) {
		if (strcmp(u.machine, "aarch64") == 0)
			return "sbsa-linux";
		if (strcmp(u.machine, "ppc64le") == 0)
			return "ppc64le-linux";
	}
	return "x86_64-linux";
}

/* What a target directory's host compiler reports for -dumpmachine. */
static const char *machine_of(const char *target)
{
	if (strcmp(target, "sbsa-linux") == 0 || strcmp(target, "aarch64-linux") == 0)
		return "aarch64";
	if (strcmp(target, "ppc64le-linux") == 0)
		return "powerpc64le";
	return "x86_64";
}

static void target_error(GError **err, const Config *c, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
static void target_error(GError **err, const Config *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *m = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	cg_error_loc(err, c->target_loc.file, c->target_loc.line, "%s", m);
	g_free(m);
}

/* A tool of the cross toolchain beside ccbin: aarch64-linux-gnu-g++ ->
 * aarch64-linux-gnu-NAME. */
static char *beside(const char *ccbin, const char *name)
{
	const char *suffixes[] = { "g++", "c++", "gcc", "clang++", "clang" };
	for (gsize i = 0; i < G_N_ELEMENTS(suffixes); i++)
		if (g_str_has_suffix(ccbin, suffixes[i])) {
			char *prefix = g_strndup(ccbin, strlen(ccbin) - strlen(suffixes[i]));
			char *r = g_strconcat(prefix, name, NULL);
			g_free(prefix);
			return r;
		}
	return g_strdup(name);
}

/* Cross builds: the toolkit must have the target's directory, and ccbin
 * must be a compiler for it (asked with -dumpmachine: nothing is built or
 * run for the target). Unset cc, cxx, ar, objcopy come from ccbin's
 * toolchain. */
static gboolean probe_target(const Config *c, Toolkit *tk, GError **err)
{
	tk->target = g_strdup(*c->target_triple ? c->target_triple : toolkit_host_target());
	tk->cross = strcmp(tk->target, toolkit_host_target()) != 0;
	char *dir = g_build_filename(tk->root, "targets", tk->target, NULL);
	char *inc = g_build_filename(dir, "include", "cuda_runtime.h", NULL);
	char *lib = g_build_filename(dir, "lib", NULL);
	gboolean ok = TRUE;
	if (!g_file_test(dir, G_FILE_TEST_IS_DIR)) {
		target_error(err, c, "the CUDA toolkit at %s has no targets/%s: it cannot build for %s "
			     "(install the toolkit's %s cross-compilation package)", tk->root, tk->target, tk->target, tk->target);
		ok = FALSE;
	} else if (!g_file_test(inc, G_FILE_TEST_EXISTS)) {
		target_error(err, c, "%s has no include/cuda_runtime.h: the %s target of the toolkit is incomplete", dir, tk->target);
		ok = FALSE;
	} else if (!g_file_test(lib, G_FILE_TEST_IS_DIR)) {
		target_error(err, c, "%s has no lib/ (the CUDA runtime for %s)", dir, tk->target);
		ok = FALSE;
	}
	g_free(dir);
	g_free(inc);
	g_free(lib);
	if (!ok || !tk->cross)
		return ok;
	if (!*c->ccbin) {
		target_error(err, c, "cross-compiling for %s needs a host compiler for it: set [toolchain] ccbin "
			     "(for example aarch64-linux-gnu-g++)", tk->target);
		return FALSE;
	}
	char *out = NULL, *se = NULL;
	const char *argv[] = { c->ccbin, "-dumpmachine", NULL };
	if (!run(argv, NULL, &out, &se, NULL, NULL)) {
		cg_error_loc(err, c->ccbin_loc.file, c->ccbin_loc.line, "cannot run the host compiler '%s' ([toolchain] ccbin)", c->ccbin);
		g_free(out);
		g_free(se);
		return FALSE;
	}
	g_free(se);
	char *m = first_line(out ? out : "");
	g_free(out);
	g_strstrip(m);
	if (!g_str_has_prefix(m, machine_of(tk->target))) {
		cg_error_loc(err, c->ccbin_loc.file, c->ccbin_loc.line,
			     "ccbin '%s' compiles for %s, not for %s ([toolchain] target)", c->ccbin, m, tk->target);
		g_free(m);
		return FALSE;
	}
	g_free(m);
	if (!c->cxx_loc.file) {
		g_free(tk->cxx);
		tk->cxx = g_strdup(c->ccbin);
	}
	if (!c->cc_loc.file) {
		g_free(tk->cc);
		tk->cc = beside(c->ccbin, "gcc");
	}
	if (!c->ar_loc.file) {
		g_free(tk->ar);
		tk->ar = beside(c->ccbin, "ar");
	}
	if (!c->objcopy_loc.file) {
		g_free(tk->objcopy);
		tk->objcopy = beside(c->ccbin, "objcopy");
	}
	return TRUE;
}

/* A native build: the C and C++ compilers make code for this machine (a
 * CC=aarch64-linux-gnu-gcc without [toolchain] target would fail at the
 * link, "file in wrong format"). What each reports for -dumpmachine is
 * kept in the probe's file ([host tools]: the command, its program's
 * stat, the answer), so a setup asks again only when the compiler
 * changed. One that does not run is left to the tool checks (resolve.c). */
static gboolean host_tools_match(const Config *c, Toolkit *tk, GKeyFile *cache, GError **err)
{
	const struct { const char *key, *env, *cmd; Loc loc; } tools[] = {
		{ "cc", "CC", tk->cc, c->cc_loc }, { "cxx", "CXX", tk->cxx, c->cxx_loc },
	};
	gboolean ok = TRUE;
	for (gsize i = 0; ok && i < G_N_ELEMENTS(tools); i++) {
		GPtrArray *w = g_ptr_array_new_with_free_func(g_free);
		cg_split_words(tools[i].cmd, w, NULL);
		/* (a launcher in front: ccache gcc) */
		const char *prog = w->len ? g_ptr_array_index(w, w->len - 1) : NULL;
		char *path = prog ? g_find_program_in_path(prog) : NULL;
		GString *sig = g_string_new(NULL);
		stat_into(sig, path ? path : prog);
		gsize n = 0;
		char **kept = g_key_file_get_string_list(cache, "host tools", tools[i].key, &n, NULL);
		char *m = NULL;
		if (n == 3 && strcmp(kept[0], tools[i].cmd) == 0 && strcmp(kept[1], sig->str) == 0) {
			m = g_strdup(kept[2]);
		} else if (path) {
			char *out = NULL, *se = NULL;
			const char *argv[] = { path, "-dumpmachine", NULL };
			m = first_line(run(argv, NULL, &out, &se, NULL, NULL) && out ? out : "");
			g_strstrip(m);
			g_free(out);
			g_free(se);
		}
		g_strfreev(kept);
		if (m) {
			const char *const rec[] = { tools[i].cmd, sig->str, m };
			g_key_file_set_string_list(tk->out, "host tools", tools[i].key, rec, G_N_ELEMENTS(rec));
		}
		if (m && *m && !g_str_has_prefix(m, machine_of(tk->target))) {
			cg_error_loc(err, tools[i].loc.file, tools[i].loc.line,
				     "%s '%s'%s%s%s compiles for %s, not for this build's %s: give [toolchain] target to "
				     "cross-compile, or a compiler for %s", tools[i].key, tools[i].cmd,
				     tools[i].loc.file ? "" : " ($", tools[i].loc.file ? "" : tools[i].env,
				     tools[i].loc.file ? "" : ")", m, tk->target, machine_of(tk->target));
			ok = FALSE;
		}
		g_free(m);
		g_string_free(sig, TRUE);
		g_free(path);
		g_ptr_array_free(w, TRUE);
	}
	return ok;
}

Toolkit *toolkit_probe(const Config *c, const char *builddir, GError **err)
{
	char *root = find_root(c, err);
	if (!root)
		return NULL;
	Toolkit *tk = g_new0(Toolkit, 1);
	tk->root = root;
	tk->cc = g_strdup(c->cc);
	tk->cxx = g_strdup(c->cxx);
	tk->ar = g_strdup(c->ar);
	tk->objcopy = g_strdup(c->objcopy);
	if (!probe_target(c, tk, err)) {
		toolkit_free(tk);
		return NULL;
	}
	tk->nvcc = g_build_filename(root, "bin", "nvcc", NULL);
	tk->ccbin = g_strdup(c->ccbin ? c->ccbin : "");
	tk->codes = g_ptr_array_new_with_free_func(g_free);
	const char *nvcc_ccbin = g_getenv("NVCC_CCBIN");
	tk->host_cc = g_strdup(*tk->ccbin ? tk->ccbin : nvcc_ccbin && *nvcc_ccbin ? nvcc_ccbin : "gcc");

	/* Fingerprint: what makes a cached probe stale. */
	GString *fp = g_string_new(NULL);
	char *cicc = g_build_filename(root, "nvvm", "bin", "cicc", NULL);
	char *ptxas = g_build_filename(root, "bin", "ptxas", NULL);
	char *profile = g_build_filename(root, "bin", "nvcc.profile", NULL);
	char *real_nvcc = realpath(tk->nvcc, NULL);
	g_string_append_printf(fp, "%s;%s;", real_nvcc ? real_nvcc : tk->nvcc, tk->target);
	free(real_nvcc);
	stat_into(fp, tk->nvcc);
	stat_into(fp, cicc);
	stat_into(fp, ptxas);
	stat_into(fp, profile);
	/* nvcc's own environment changes what it runs (cugen(1)) */
	const char *const nvcc_env[] = { "NVCC_CCBIN", "NVCC_PREPEND_FLAGS", "NVCC_APPEND_FLAGS" };
	for (gsize i = 0; i < G_N_ELEMENTS(nvcc_env); i++)
		g_string_append_printf(fp, "%s=%s;", nvcc_env[i], g_getenv(nvcc_env[i]) ? g_getenv(nvcc_env[i]) : "-");
	char *hc = g_find_program_in_path(tk->host_cc);
	stat_into(fp, hc ? hc : tk->host_cc);
	g_free(hc);
	g_free(cicc);
	g_free(ptxas);
	g_free(profile);
	tk->fingerprint = g_compute_checksum_for_string(G_CHECKSUM_SHA256, fp->str, fp->len);
	g_string_free(fp, TRUE);

	tk->cache = g_key_file_new();
	tk->out = g_key_file_new();
	char *cpath = toolkit_cache_path(builddir);
	gboolean fresh = FALSE;
	if (state_load_keyfile(tk->cache, cpath, "probe")) {
		char *f = g_key_file_get_string(tk->cache, "toolkit", "fingerprint", NULL);
		fresh = f && strcmp(f, tk->fingerprint) == 0;
		g_free(f);
	}
	g_free(cpath);
	if (!tk->cross && !host_tools_match(c, tk, tk->cache, err))
		goto fail;
	if (fresh) {
		tk->version = g_key_file_get_string(tk->cache, "toolkit", "version", NULL);
		tk->host_version = g_key_file_get_string(tk->cache, "toolkit", "host_version", NULL);
		gsize n = 0;
		char **codes = g_key_file_get_string_list(tk->cache, "toolkit", "codes", &n, NULL);
		for (gsize i = 0; i < n; i++)
			g_ptr_array_add(tk->codes, g_strdup(codes[i]));
		g_strfreev(codes);
		if (tk->version && tk->host_version && tk->codes->len)
			goto done;
		g_clear_pointer(&tk->version, g_free);
		g_clear_pointer(&tk->host_version, g_free);
		g_ptr_array_set_size(tk->codes, 0);
	}
	/* Stale or missing: probe again, and reuse no dry run. */
	g_key_file_free(tk->cache);
	tk->cache = g_key_file_new();

	/* nvcc writes its temporary files in $TMPDIR: one that is no
	 * writable directory fails every call, naming a file in it */
	const char *tmp = g_getenv("TMPDIR");
	if (tmp && *tmp && (!g_file_test(tmp, G_FILE_TEST_IS_DIR) || access(tmp, W_OK | X_OK) != 0)) {
		cg_error(err, "TMPDIR '%s' is not a writable directory (nvcc writes its temporary files there)", tmp);
		goto fail;
	}
	char *out = NULL;
	const char *ver_argv[] = { tk->nvcc, "--version", NULL };
	if (!run(ver_argv, NULL, &out, NULL, NULL, err))
		goto fail;
	char *rel = strstr(out, ", V");
	if (!rel) {
		cg_error(err, "cannot read the version from '%s --version'", tk->nvcc);
		g_free(out);
		goto fail;
	}
	tk->version = first_line(rel + 3);
	g_strstrip(tk->version);
	g_free(out);

	const char *codes_argv[] = { tk->nvcc, "--list-gpu-code", NULL };
	if (!run(codes_argv, NULL, &out, NULL, NULL, err))
		goto fail;
	char **lines = g_strsplit(out, "\n", -1);
	for (char **l = lines; *l; l++) {
		/* only what an arch code is (sm_90, sm_90a, sm_100f): any other
		 * line is not one, whatever it starts with */
		char *t = g_strstrip(*l);
		gsize d = g_str_has_prefix(t, "sm_") ? strspn(t + 3, "0123456789") : 0;
		if (d && d <= 4 && (!t[3 + d] || (strchr("af", t[3 + d]) && !t[4 + d])))
			g_ptr_array_add(tk->codes, g_strdup(t));
	}
	g_strfreev(lines);
	g_free(out);
	g_ptr_array_sort(tk->codes, cmp_code);
	if (tk->codes->len == 0) {
		cg_error(err, "'%s --list-gpu-code' listed no sm_ codes", tk->nvcc);
		goto fail;
	}

	char *hc_path = g_find_program_in_path(tk->host_cc);
	if (!hc_path) {
		if (c->ccbin_loc.file)
			cg_error_loc(err, c->ccbin_loc.file, c->ccbin_loc.line,
				     "cannot run the host compiler '%s' ([toolchain] ccbin)", tk->host_cc);
		else
			cg_error(err, "cannot run the host compiler '%s' that nvcc uses (set [toolchain] ccbin)", tk->host_cc);
		goto fail;
	}
	g_free(hc_path);
	const char *hv_argv[] = { tk->host_cc, "-dumpfullversion", NULL };
	char *se = NULL;
	if (!run(hv_argv, NULL, &out, &se, NULL, NULL)) {
		g_free(out);
		g_free(se);
		se = NULL;
		const char *hv2[] = { tk->host_cc, "-dumpversion", NULL };
		if (!run(hv2, NULL, &out, &se, NULL, NULL)) {
			g_free(out);
			g_free(se);
			cg_error(err, "cannot run the host compiler '%s' (set [toolchain] ccbin)", tk->host_cc);
			goto fail;
		}
	}
	g_free(se);
	tk->host_version = first_line(out ? out : "");
	g_strstrip(tk->host_version);
	g_free(out);

	tk->probed = TRUE;
done:
	/* The new cache holds the toolkit and the dry runs used this time. */
	g_key_file_set_string(tk->out, "toolkit", "fingerprint", tk->fingerprint);
	g_key_file_set_string(tk->out, "toolkit", "root", tk->root);
	g_key_file_set_string(tk->out, "toolkit", "version", tk->version);
	g_key_file_set_string(tk->out, "toolkit", "host_compiler", tk->host_cc);
	g_key_file_set_string(tk->out, "toolkit", "host_version", tk->host_version);
	g_key_file_set_string_list(tk->out, "toolkit", "codes",
				   (const char *const *)tk->codes->pdata, tk->codes->len);
	return tk;
fail:
	toolkit_free(tk);
	return NULL;
}

ArchToolkit toolkit_archs(const Toolkit *tk)
{
	return (ArchToolkit){ tk->codes, tk->root, tk->cross ? tk->target : NULL };
}

void toolkit_free(Toolkit *tk)
{
	if (!tk)
		return;
	g_free(tk->root);
	g_free(tk->nvcc);
	g_free(tk->version);
	if (tk->codes)
		g_ptr_array_free(tk->codes, TRUE);
	g_free(tk->host_cc);
	g_free(tk->host_version);
	g_free(tk->fingerprint);
	g_free(tk->ccbin);
	g_free(tk->cc);
	g_free(tk->cxx);
	g_free(tk->ar);
	g_free(tk->objcopy);
	g_free(tk->target);
	if (tk->cache)
		g_key_file_free(tk->cache);
	if (tk->out)
		g_key_file_free(tk->out);
	g_free(tk);
}

static char *replace_all(const char *s, const char *from, const char *to)
{
	char **parts = g_strsplit(s, from, -1);
	char *r = g_strjoinv(to, parts);
	g_strfreev(parts);
	return r;
}

static void rm_rf_probe(const char *dir)
{
	const char *files[] = { PROBE_NAME ".cu", PROBE_NAME ".o", PROBE_NAME "_dlink.o", NULL };
	for (int i = 0; files[i]; i++) {
		char *p = g_build_filename(dir, files[i], NULL);
		unlink(p);
		g_free(p);
	}
	rmdir(dir);
}

char *toolkit_dryrun(Toolkit *tk, GPtrArray *args, gboolean dlink, GError **err)
{
	GString *key = g_string_new(dlink ? "dlink\x1f" : "");
	for (guint i = 0; i < args->len; i++)
		g_string_append_printf(key, "%s\x1f", (char *)g_ptr_array_index(args, i));
	char *sum = g_compute_checksum_for_string(G_CHECKSUM_SHA256, key->str, key->len);
	char *group = g_strconcat("dryrun ", sum, NULL);
	g_free(sum);
	g_string_free(key, TRUE);
	/* asked before in this run (tk->out), or in the last one (tk->cache) */
	char *cached = g_key_file_get_string(tk->out, group, "output", NULL);
	if (cached) {
		g_free(group);
		return cached;
	}
	cached = g_key_file_get_string(tk->cache, group, "output", NULL);
	if (cached) {
		g_key_file_set_string(tk->out, group, "output", cached);
		g_free(group);
		return cached;
	}

	GError *e = NULL;
	char *dir = cg_make_tmp_dir("cugen-probe", &e);
	if (!dir) {
		cg_error(err, "cannot create a temporary directory: %s", e->message);
		g_error_free(e);
		g_free(group);
		return NULL;
	}
	/* the input: a source to compile, or an object to device-link */
	const char *in = dlink ? PROBE_NAME ".o" : PROBE_NAME ".cu";
	const char *obj = dlink ? PROBE_NAME "_dlink.o" : PROBE_NAME ".o";
	char *src = g_build_filename(dir, in, NULL);
	g_file_set_contents(src, "", 0, NULL);
	g_free(src);
	GPtrArray *argv = g_ptr_array_new();
	g_ptr_array_add(argv, tk->nvcc);
	g_ptr_array_add(argv, (char *)"--dryrun");
	for (guint i = 0; i < args->len; i++)
		g_ptr_array_add(argv, g_ptr_array_index(args, i));
	g_ptr_array_add(argv, (char *)in);
	g_ptr_array_add(argv, (char *)"-o");
	g_ptr_array_add(argv, (char *)obj);
	g_ptr_array_add(argv, NULL);
	char *out = NULL, *se = NULL;
	int wstatus = 0;
	gboolean ok = run((const char *const *)argv->pdata, dir, &out, &se, &wstatus, err);
	g_ptr_array_free(argv, TRUE);
	tk->dryruns++;
	char *result = NULL;
	if (!ok && se && WIFSIGNALED(wstatus)) {
		/* not the flags: something stopped nvcc (the OOM killer, a
		 * timeout, a user) */
		cg_error(err, "nvcc --dryrun was killed by signal %d (%s)", WTERMSIG(wstatus),
			 g_strsignal(WTERMSIG(wstatus)));
	} else if (!ok && se) {
		/* nvcc's own complaint, first line that says something. */
		char **lines = g_strsplit(se, "\n", -1);
		const char *msg = NULL;
		for (char **l = lines; *l && !msg; l++)
			if (!g_str_has_prefix(*l, "#$ ") && **l)
				msg = *l;
		cg_error(err, "nvcc rejected the flags: %s", msg ? msg : "(no message)");
		g_strfreev(lines);
	} else if (ok) {
		/* nvcc prints the temporary dir as given and resolved. */
		char *real = realpath(dir, NULL);
		char *a = replace_all(se, dir, "@PROBEDIR@");
		char *b = real ? replace_all(a, real, "@PROBEDIR@") : g_strdup(a);
		/* and its temporaries' names hold its process id: the same text
		 * from every run (probe.ini is then the same for two setups) */
		GRegex *tmpx = g_regex_new("tmpxft_[0-9a-f]{8}_", 0, 0, NULL);
		result = g_regex_replace_literal(tmpx, b, -1, 0, "tmpxft_00000000_", 0, NULL);
		g_regex_unref(tmpx);
		g_free(b);
		g_free(a);
		free(real);
		g_key_file_set_string(tk->out, group, "output", result);
	}
	g_free(out);
	g_free(se);
	rm_rf_probe(dir);
	g_free(dir);
	g_free(group);
	return result;
}

GString *toolkit_cache_text(Toolkit *tk)
{
	gsize len = 0;
	char *data = g_key_file_to_data(tk->out, &len, NULL);
	GString *s = g_string_new_len(data, len);
	g_free(data);
	return s;
}
