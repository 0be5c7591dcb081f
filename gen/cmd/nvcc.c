/* nvcc.c -- `cugen nvcc [NVCC] ARGS...`: nvcc for any build system
 * (setuptools' $NVCC, a Makefile's $(NVCC), CMake's
 * CMAKE_CUDA_COMPILER_LAUNCHER "cugen;nvcc"). A compile of one CUDA
 * source for arch entries (-c, -o, --generate-code / -arch / -code) is
 * written as a one-target project (type = object, module_id = absolute)
 * in a scratch directory and built by setup's graph and ninja: the
 * per-arch edges in parallel, each cached per arch ($CUGEN_CACHE_DIR);
 * its object is put at -o, its dependency file (-MD -MF) written by nvcc
 * -M. Anything else -- a link, -E, -M, --version, several inputs, a flag
 * cugen does not read, and any failure on cugen's way (a compile error
 * included, so that nvcc's own messages and status are what the caller
 * sees) -- runs the real nvcc with the arguments unchanged.
 *
 * Parallelism: the GNU make jobserver's free tokens when the caller has
 * one, else nvcc's -t/--threads (0: the cores), else one step at a time.
 * $CUGEN_VERBOSE says which way each compile went.
 *
 * Owns: reading nvcc's command line, the one-TU project, the choice
 * between cugen's graph and the real nvcc.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "config.h"
#include "jobserver.h"
#include "archspell.h"
#include "machine.h"
#include "nvcc_int.h"
#include "toolkit.h"
#include "safepath.h"
#include "util.h"

typedef struct {
	const char *nvcc;     /* the real one */
	char **args;          /* as given (not owned) */
	int nargs;
	gboolean compile;
	char *out, *source, *mf, *mt, *ccbin;
	int dep;              /* 0, 'D' (-MD) or 'M' (-MMD) */
	gboolean as_cuda;     /* -x cu */
	int threads;          /* -1 not given */
	GPtrArray *archs;     /* char*: --generate-code=V ... as nvcc reads them */
	GPtrArray *flags;     /* char*: the rest, for cuda_flags */
	char *why;            /* why the real nvcc runs, for CUGEN_VERBOSE */
	char *fatal;          /* an error of its own: a combine that cannot be done */
} Nv;

static gboolean verbose(void)
{
	const char *v = g_getenv("CUGEN_VERBOSE");
	return v && *v && strcmp(v, "0") != 0;
}

static void say(const char *fmt, ...) G_GNUC_PRINTF(1, 2);
static void say(const char *fmt, ...)
{
	if (!verbose())
		return;
	va_list ap;
	va_start(ap, fmt);
	fputs("cugen nvcc: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

/* The real nvcc: the toolkit's a cugen.ini without [toolchain] cuda
 * gets ($CUDA_PATH, $CUDA_HOME, PATH, /usr/local/cuda). */
static char *find_nvcc(void)
{
	char *root = toolkit_default_root(NULL);
	char *p = g_build_filename(root ? root : "/usr/local/cuda", "bin", "nvcc", NULL);
	g_free(root);
	return p;
}

static int run_real(const Nv *n)
{
	if (n->why)
		say("%s: the real nvcc runs", n->why);
	char **argv = g_new0(char *, n->nargs + 2);
	argv[0] = (char *)n->nvcc;
	for (int i = 0; i < n->nargs; i++)
		argv[i + 1] = n->args[i];
	execv(n->nvcc, argv);
	fprintf(stderr, "cugen nvcc: cannot run %s: %s\n", n->nvcc, g_strerror(errno));
	g_free(argv);
	return 127;
}

/* Whether args[*i] is option s or l, its value in *v (attached with '='
 * or, for a short option that allows it, directly; else the next word). */
static gboolean opt(const Nv *n, int *i, const char *s, const char *l, gboolean glued, const char **v)
{
	const char *w = n->args[*i];
	const char *names[] = { s, l };
	for (gsize k = 0; k < 2; k++) {
		if (!names[k])
			continue;
		gsize len = strlen(names[k]);
		if (strncmp(w, names[k], len) != 0)
			continue;
		if (!w[len]) {
			if (*i + 1 >= n->nargs)
				return FALSE;
			*v = n->args[++*i];
			return TRUE;
		}
		if (w[len] == '=' || (glued && k == 0)) {
			*v = w + len + (w[len] == '=');
			return TRUE;
		}
	}
	return FALSE;
}

static gboolean is_any(const char *w, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(w, *list) == 0)
			return TRUE;
	return FALSE;
}

static gboolean cuda_ext(const char *p)
{
	return g_str_has_suffix(p, ".cu");
}

static gboolean host_ext(const char *p)
{
	const char *e[] = { ".c", ".cc", ".cpp", ".cxx", ".C", NULL };
	for (gsize i = 0; e[i]; i++)
		if (g_str_has_suffix(p, e[i]))
			return TRUE;
	return FALSE;
}

/* Read the command line; FALSE (n->why set) where the real nvcc runs. */
static gboolean read_args(Nv *n, const char *cwd)
{
	/* what nvcc does other than compiling one TU to an object */
	static const char *const other[] = { "-E", "--preprocess", "-M", "--generate-dependencies", "-MM",
		"--generate-nonsystem-dependencies", "-ptx", "--ptx", "-cubin", "--cubin", "-fatbin", "--fatbin",
		"-dc", "--device-c", "-dw", "--device-w", "-dlink", "--device-link", "-lib", "--lib", "-link",
		"--link", "-run", "--run", "-V", "--version", "-h", "--help", "-dryrun", "--dryrun", "-keep",
		"--keep", "-save-temps", "--save-temps", "--list-gpu-code", "-code-ls", "--list-gpu-arch",
		"-arch-ls", "-optix-ir", "--optix-ir", "-lto", "-dlto", "-v", "--verbose", "-rdc=true",
		"--relocatable-device-code=true", "-G", "--device-debug", "-cuda", "--cuda", "-odir",
		"--output-directory", "-keep-dir", "--keep-dir", "-optf", "--options-file", NULL };
	/* options whose value is the next word (also NAME=VALUE) */
	static const char *const valued[] = { "-Xcompiler", "--compiler-options", "-Xptxas", "--ptxas-options",
		"-Xnvlink", "--nvlink-options", "-Xcudafe", "-Xlinker", "--linker-options", "-Xarchive",
		"--archive-options", "-maxrregcount", "--maxrregcount", "-m", "--machine", "-ftz", "-prec-div",
		"-prec-sqrt", "-fmad", "-ewp", "-Werror", "--Werror", "-diag-suppress", "--diag-suppress",
		"-default-stream", "--default-stream", "-rdc", "--relocatable-device-code", "-allow-unsupported-compiler",
		"-split-compile", "--split-compile", "-D", "--define-macro", "-U", "--undefine-macro", "-L",
		"--library-path", "-l", "--library", "-std", "--std", "-idirafter", "-iquote", NULL };
	n->threads = -1;
	for (int i = 0; i < n->nargs; i++) {
		const char *w = n->args[i], *v = NULL;
		if (is_any(w, other) || g_str_has_prefix(w, "--dryrun") || g_str_has_prefix(w, "-odir=") ||
		    g_str_has_prefix(w, "--output-directory=") || g_str_has_prefix(w, "--options-file=") ||
		    g_str_has_prefix(w, "-optf=")) {
			n->why = g_strdup_printf("'%s' is not a compile cugen builds", w);
			return FALSE;
		}
		if (!strcmp(w, "-c") || !strcmp(w, "--compile")) {
			n->compile = TRUE;
		} else if (opt(n, &i, "-o", "--output-file", FALSE, &v)) {
			g_free(n->out);
			n->out = g_strdup(v);
		} else if (opt(n, &i, "-gencode", "--generate-code", FALSE, &v)) {
			g_ptr_array_add(n->archs, g_strconcat("--generate-code=", v, NULL));
		} else if (opt(n, &i, "-arch", "--gpu-architecture", FALSE, &v)) {
			g_ptr_array_add(n->archs, g_strconcat("--gpu-architecture=", v, NULL));
		} else if (opt(n, &i, "-code", "--gpu-code", FALSE, &v)) {
			g_ptr_array_add(n->archs, g_strconcat("--gpu-code=", v, NULL));
		} else if (opt(n, &i, "-t", "--threads", TRUE, &v)) {
			char *end = NULL;
			long t = strtol(v, &end, 10);
			if (!*v || *end || t < 0 || t > 4096) {
				n->why = g_strdup_printf("--threads '%s'", v);
				return FALSE;
			}
			n->threads = (int)t;
		} else if (opt(n, &i, "-x", "--x", FALSE, &v)) {
			if (strcmp(v, "cu") != 0) {
				n->why = g_strdup_printf("-x %s", v);
				return FALSE;
			}
			n->as_cuda = TRUE;
		} else if (!strcmp(w, "-MD") || !strcmp(w, "--generate-dependencies-with-compile")) {
			n->dep = 'D';
		} else if (!strcmp(w, "-MMD") || !strcmp(w, "--generate-nonsystem-dependencies-with-compile")) {
			n->dep = 'M';
		} else if (opt(n, &i, "-MF", "--dependency-output", FALSE, &v)) {
			g_free(n->mf);
			n->mf = g_strdup(v);
		} else if (opt(n, &i, "-MT", "--dependency-target-name", FALSE, &v)) {
			g_free(n->mt);
			n->mt = g_strdup(v);
		} else if (opt(n, &i, "-ccbin", "--compiler-bindir", FALSE, &v)) {
			g_free(n->ccbin);
			n->ccbin = g_strdup(v);
		} else if (opt(n, &i, "-I", "--include-path", TRUE, &v)) {
			/* the edges run in the build directory */
			g_ptr_array_add(n->flags, g_strconcat("-I", v[0] == '/' ? "" : cwd, v[0] == '/' ? "" : "/", v, NULL));
		} else if (opt(n, &i, "-isystem", "--system-include", FALSE, &v)) {
			g_ptr_array_add(n->flags, g_strdup("-isystem"));
			g_ptr_array_add(n->flags, cg_path_join(cwd, v));
		} else if (opt(n, &i, "-include", "--pre-include", FALSE, &v)) {
			g_ptr_array_add(n->flags, g_strdup("-include"));
			g_ptr_array_add(n->flags, cg_path_join(cwd, v));
		} else if ((!strcmp(w, "-rdc") || !strcmp(w, "--relocatable-device-code")) && i + 1 < n->nargs &&
			   !strcmp(n->args[i + 1], "true")) {
			n->why = g_strdup("relocatable device code");
			return FALSE;
		} else if (w[0] == '-' && w[1]) {
			g_ptr_array_add(n->flags, g_strdup(w));
			if (is_any(w, valued) && i + 1 < n->nargs)
				g_ptr_array_add(n->flags, g_strdup(n->args[++i]));
		} else if (n->source) {
			n->why = g_strdup("more than one input file");
			return FALSE;
		} else {
			n->source = g_strdup(w);
		}
	}
	if (!n->compile || !n->source) {
		n->why = g_strdup(n->compile ? "no input file" : "not a compile (-c)");
		return FALSE;
	}
	if (!cuda_ext(n->source) && !(n->as_cuda && host_ext(n->source))) {
		n->why = g_strdup_printf("%s is not a CUDA source", n->source);
		return FALSE;
	}
	if (!n->archs->len) {
		n->why = g_strdup("no arch entry (nvcc's default arch)");
		return FALSE;
	}
	if (n->dep && !n->mf) {
		n->why = g_strdup("-MD without -MF");
		return FALSE;
	}
	if (!n->out) {
		/* nvcc -c dir/k.cu writes k.o here */
		char *base = g_path_get_basename(n->source), *dot = strrchr(base, '.');
		if (dot)
			*dot = 0;
		n->out = g_strconcat(base, ".o", NULL);
		g_free(base);
	}
	return TRUE;
}

/* The one-TU project; NULL (n->why set) where cugen.ini cannot say it.
 * Its paths start at cwd ([project] source_dir), where the command names
 * its files; modules are named by absolute paths (module_id = absolute)
 * as nvcc names them: nvcc's images hold the source's absolute path
 * however the command names it. */
static GString *project(Nv *n, const char *cwd)
{
	GString *o = g_string_new("[project]\nname = nvcc\nsource_dir =");
	gboolean ok = ini_put_word(o, cwd, INI_SCALAR);
	g_string_append(o, "\n[cuda]\narchs =");
	for (guint i = 0; ok && i < n->archs->len; i++)
		ok = ini_put_word(o, g_ptr_array_index(n->archs, i), INI_WORDS);
	g_string_append(o, "\nmodule_id = absolute");
	char *root = g_path_get_dirname(n->nvcc), *top = g_path_get_dirname(root);
	g_string_append(o, "\n[toolchain]\ncuda =");
	ok = ok && ini_put_word(o, top, INI_SCALAR);
	g_free(root);
	g_free(top);
	if (ok && n->ccbin) {
		g_string_append(o, "\nccbin =");
		ok = ini_put_word(o, n->ccbin, INI_SCALAR);
	}
	g_string_append_printf(o, "\n[target o]\ntype = object\n%s =", cuda_ext(n->source) ? "sources" : "cuda_sources");
	ok = ok && ini_put_word(o, n->source, INI_LIST);
	if (ok && n->flags->len) {
		g_string_append(o, "\ncuda_flags =");
		for (guint i = 0; ok && i < n->flags->len; i++)
			ok = ini_put_word(o, g_ptr_array_index(n->flags, i), INI_WORDS);
	}
	g_string_append(o, "\n");
	if (!ok) {
		n->why = g_strdup("a word cugen.ini cannot hold");
		g_string_free(o, TRUE);
		return NULL;
	}
	return o;
}

static gboolean spawn_quiet(char **argv, char **out)
{
	int status = 0;
	char *so = NULL, *se = NULL;
	/* the steps are ours: make's jobserver is not theirs to join */
	char **env = g_environ_unsetenv(g_environ_unsetenv(g_get_environ(), "MAKEFLAGS"), "MFLAGS");
	gboolean ok = g_spawn_sync(NULL, argv, env, G_SPAWN_SEARCH_PATH, NULL, NULL, &so, &se, &status, NULL) &&
		      g_spawn_check_wait_status(status, NULL);
	g_strfreev(env);
	if (out)
		*out = g_strconcat(so ? so : "", se ? se : "", NULL);
	g_free(so);
	g_free(se);
	return ok;
}

/* The object the build wrote: the one obj/o/...o that is not a step's. */
static char *built_object(const char *ninja, const char *b)
{
	char *listing = NULL, *found = NULL;
	char *argv[] = { (char *)ninja, "-C", (char *)b, "-t", "targets", "all", NULL };
	if (!spawn_quiet(argv, &listing))
		goto out;
	char **lines = g_strsplit(listing, "\n", -1);
	for (guint i = 0; lines[i]; i++) {
		char *colon = strstr(lines[i], ": ");
		if (!colon)
			continue;
		*colon = 0;
		if (g_str_has_prefix(lines[i], "obj/o/") && g_str_has_suffix(lines[i], ".o") &&
		    !strstr(lines[i], ".p/") && !found)
			found = g_build_filename(b, lines[i], NULL);
	}
	g_strfreev(lines);
out:
	g_free(listing);
	return found;
}

/* nvcc -M(M) for the dependency file, with the compile's flags. */
static gboolean write_deps(const Nv *n)
{
	GPtrArray *a = g_ptr_array_new();
	g_ptr_array_add(a, (char *)n->nvcc);
	for (int i = 0; i < n->nargs; i++) {
		const char *w = n->args[i];
		if (!strcmp(w, "-c") || !strcmp(w, "--compile"))
			continue;
		if (!strcmp(w, "-MD") || !strcmp(w, "--generate-dependencies-with-compile")) {
			g_ptr_array_add(a, "-M");
			continue;
		}
		if (!strcmp(w, "-MMD") || !strcmp(w, "--generate-nonsystem-dependencies-with-compile")) {
			g_ptr_array_add(a, "-MM");
			continue;
		}
		if (!strcmp(w, "-o") || !strcmp(w, "--output-file") || !strcmp(w, "-t") || !strcmp(w, "--threads")) {
			i++;
			continue;
		}
		if ((g_str_has_prefix(w, "-o") && strcmp(w, "-odir")) || g_str_has_prefix(w, "--output-file=") ||
		    (g_str_has_prefix(w, "-t") && g_ascii_isdigit(w[2])) || g_str_has_prefix(w, "--threads="))
			continue;
		g_ptr_array_add(a, (char *)w);
	}
	if (!n->mt) {
		g_ptr_array_add(a, "-MT");
		g_ptr_array_add(a, n->out);
	}
	g_ptr_array_add(a, NULL);
	char *out = NULL;
	gboolean ok = spawn_quiet((char **)a->pdata, &out);
	if (!ok)
		say("nvcc -M failed: %s", out);
	g_free(out);
	g_ptr_array_free(a, TRUE);
	return ok;
}

static guint jobs_for(const Nv *n, Jobserver *js)
{
	Machine m = { 0 };
	machine_probe(&m);
	guint cores = m.cores > 0 ? (guint)m.cores : 1;
	guint want = n->threads < 0 ? 1 : n->threads == 0 ? cores : (guint)n->threads;
	if (jobserver_present()) {
		/* as many as the caller's make has free now, up to one per
		 * arch entry's steps and the cores */
		jobserver_take(js, MAX(cores, 1));
		return jobserver_slots(js);
	}
	return MAX(want, 1);
}

/* The scratch project's build, and what the mode does with it. */
typedef struct {
	char *tmp, *file, *b, *self, *log, *key, *obj;
	const char *ninja;
	int lock;
} Scratch;

/* The toolkit and host-tool probe one setup makes (~1 s of nvcc and gcc
 * runs) kept for the next compile: TMPDIR/cugen-probe-nvcc-UID.ini, read
 * only if it is this user's own regular file, writable by no one else
 * (setup checks the tools it names against their files again). */
static char *probe_keep(void)
{
	return g_strdup_printf("%s/cugen-probe-nvcc-%ld.ini", g_get_tmp_dir(), (long)geteuid());
}

static void probe_load(const Scratch *x)
{
	char *keep = probe_keep(), *dir = g_build_filename(x->b, ".cugen", NULL);
	struct stat sb;
	gsize len = 0;
	char *text = NULL;
	if (lstat(keep, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_uid == geteuid() && !(sb.st_mode & 022) &&
	    (text = cg_read_regular(keep, 1 << 20, TRUE, &len, NULL)) && g_mkdir_with_parents(dir, 0755) == 0) {
		char *to = toolkit_cache_path(x->b);
		g_file_set_contents(to, text, (gssize)len, NULL);
		g_free(to);
	}
	g_free(text);
	g_free(dir);
	g_free(keep);
}

static void probe_save(const Scratch *x)
{
	char *from = toolkit_cache_path(x->b), *keep = probe_keep(), *text = NULL, *had = NULL;
	gsize len = 0, hlen = 0;
	if (g_file_get_contents(from, &text, &len, NULL) &&
	    !((had = cg_read_regular(keep, 1 << 20, TRUE, &hlen, NULL)) && hlen == len && !memcmp(had, text, len))) {
		/* beside it, then renamed: a compile reading it sees all or none */
		char *part = g_strdup_printf("%s.%ld", keep, (long)getpid());
		int fd = open(part, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0) {
			gboolean ok = write(fd, text, len) == (ssize_t)len;
			ok = close(fd) == 0 && ok;
			if (!ok || rename(part, keep) != 0)
				unlink(part);
		}
		g_free(part);
	}
	g_free(had);
	g_free(text);
	g_free(keep);
	g_free(from);
}

static gboolean run_setup(Nv *n, Scratch *x, const char *archs)
{
	char *setup[] = { x->self, "setup", "-S", x->tmp, "-f", x->file, "-B", x->b, "--profile", "nvcc",
			  archs ? "--archs" : NULL, (char *)archs, NULL };
	g_clear_pointer(&x->log, g_free);
	probe_load(x);
	if (!spawn_quiet(setup, &x->log)) {
		n->why = g_strdup_printf("setup failed: %s", g_strstrip(x->log));
		return FALSE;
	}
	probe_save(x);
	if (!(x->obj = built_object(x->ninja, x->b))) {
		n->why = g_strdup("no object in the build");
		return FALSE;
	}
	return TRUE;
}

static gboolean run_ninja(Nv *n, Scratch *x, guint jobs, gboolean shard)
{
	char *j = g_strdup_printf("%u", jobs);
	char *obj = x->obj + strlen(x->b) + 1;
	char *run[] = { (char *)x->ninja, "-C", x->b, "-j", j, obj, shard ? "shard" : NULL, NULL };
	g_clear_pointer(&x->log, g_free);
	gboolean ok = spawn_quiet(run, &x->log);
	if (!ok) {
		n->why = g_strdup("the build failed (nvcc says why)");
		say("%s", x->log);
	}
	g_free(j);
	return ok;
}

/* The combine: cugen combine over the shards that hold this key. */
static gboolean run_combine(Nv *n, Scratch *x)
{
	GPtrArray *shards = nvcc_find_shards(x->key);
	gboolean ok = FALSE;
	if (!shards->len) {
		n->fatal = g_strdup_printf("no directory of CUGEN_COMBINE holds a shard of %s (key %s): build it "
					   "with CUGEN_SHARD_DIR and CUGEN_ARCHS, the same command, source and "
					   "directory", n->source, x->key);
	} else {
		GPtrArray *a = g_ptr_array_new();
		g_ptr_array_add(a, x->self);
		g_ptr_array_add(a, "combine");
		g_ptr_array_add(a, "-B");
		g_ptr_array_add(a, x->b);
		const char *trust = g_getenv("CUGEN_TRUST");
		if (trust && *trust) {
			g_ptr_array_add(a, "--trust");
			g_ptr_array_add(a, (char *)trust);
		}
		for (guint i = 0; i < shards->len; i++)
			g_ptr_array_add(a, g_ptr_array_index(shards, i));
		g_ptr_array_add(a, NULL);
		g_clear_pointer(&x->log, g_free);
		ok = spawn_quiet((char **)a->pdata, &x->log);
		if (!ok) {
			/* combine's own refusal: the source, arch, first difference */
			GString *why = g_string_new(NULL);
			char **lines = g_strsplit(x->log, "\n", -1);
			for (guint i = 0; lines[i]; i++)
				if (strstr(lines[i], "error:"))
					g_string_append_printf(why, "%s%s", why->len ? "; " : "", lines[i]);
			g_strfreev(lines);
			n->fatal = g_strdup_printf("%s: the shards do not combine: %s", n->source,
						   why->len ? why->str : g_strstrip(x->log));
			g_string_free(why, TRUE);
		}
		g_ptr_array_free(a, TRUE);
	}
	g_ptr_array_unref(shards);
	return ok;
}

static gboolean put_object(Nv *n, Scratch *x, const char *cwd)
{
	gchar *data = NULL;
	gsize len = 0;
	GError *err = NULL;
	char *dest = cg_path_join(cwd, n->out);
	gboolean ok = g_file_get_contents(x->obj, &data, &len, &err) &&
		      g_file_set_contents(dest, data, (gssize)len, &err);
	if (!ok) {
		n->why = g_strdup_printf("the object: %s", err->message);
		g_clear_error(&err);
	} else if (n->dep && !write_deps(n)) {
		n->why = g_strdup("nvcc -M failed");
		ok = FALSE;
	}
	g_free(dest);
	g_free(data);
	return ok;
}

/* cugen's way; FALSE (n->why set) to run the real nvcc instead, or
 * n->fatal set for a combine that cannot be done. */
static gboolean build(Nv *n, const char *cwd)
{
	const char *modewhy = NULL;
	NvMode mode = nvcc_mode(&modewhy);
	if (modewhy) {
		n->fatal = g_strdup(modewhy);
		return FALSE;
	}
	Jobserver js = { 0 };
	js.rfd = js.wfd = -1;
	GError *err = NULL;
	gboolean ok = FALSE;
	Scratch x = { 0 };
	x.lock = -1;
	x.ninja = g_getenv("NINJA") && *g_getenv("NINJA") ? g_getenv("NINJA") : "ninja";
	char *src = cg_path_join(cwd, n->source), *sub = NULL;
	GString *ini = project(n, cwd);
	if (!ini)
		goto out;
	if (mode != NV_LOCAL && !(x.key = nvcc_key(ini->str, src, &err))) {
		n->why = g_strdup_printf("%s", err->message);
		goto out;
	}
	x.tmp = mode == NV_LOCAL ? cg_make_tmp_dir("cugen-nvcc", &err) : nvcc_fixed_scratch(x.key, &x.lock, &err);
	if (!x.tmp) {
		n->why = g_strdup_printf("no scratch directory: %s", err->message);
		goto out;
	}
	guint jobs = jobs_for(n, &js);
	g_string_append_printf(ini, "[profile nvcc]\njobs = %u\n", jobs);
	x.file = g_build_filename(x.tmp, "cugen.ini", NULL);
	x.b = g_build_filename(x.tmp, "b", NULL);
	x.self = g_file_read_link("/proc/self/exe", NULL);
	if (!x.self || !g_file_set_contents(x.file, ini->str, (gssize)ini->len, NULL)) {
		n->why = g_strdup("cannot write the scratch project");
		goto out;
	}
	if (mode == NV_SHARD) {
		GString *words = g_string_new(NULL);
		for (guint i = 0; i < n->archs->len; i++)
			g_string_append_printf(words, "%s%s", i ? " " : "", (char *)g_ptr_array_index(n->archs, i));
		char *archs = NULL, *ptx = NULL, *bad = NULL, *spec = g_string_free(words, FALSE);
		gboolean read = archspell_gencode(spec, &archs, &ptx, &bad);
		sub = read ? nvcc_shard_archs(archs) : NULL;
		g_free(spec);
		g_free(archs);
		g_free(ptx);
		g_free(bad);
		if (!sub) {
			n->why = g_strdup("its arch entries cannot be read");
			goto out;
		}
	}
	if (mode == NV_SHARD && *sub) {
		ok = run_setup(n, &x, sub) && run_ninja(n, &x, jobs, TRUE);
		char *shard = ok ? g_build_filename(x.b, "shard", NULL) : NULL;
		if (ok && !nvcc_store_shard(shard, x.key, &err)) {
			n->fatal = g_strdup(err->message);
			ok = FALSE;
		}
		g_free(shard);
	} else if (mode == NV_COMBINE) {
		ok = run_setup(n, &x, NULL) && run_combine(n, &x);
	} else {
		/* here, or a shard none of whose archs this compile has: the
		 * whole object, so that the outer build completes */
		ok = run_setup(n, &x, NULL) && run_ninja(n, &x, jobs, FALSE);
	}
	ok = ok && put_object(n, &x, cwd);
	if (ok)
		say("%s: %u arch entries %s, %u job%s%s", n->source, n->archs->len,
		    mode == NV_COMBINE ? "combined from shards" : mode == NV_SHARD && *sub ? "built for this shard"
		    : "built by cugen's graph", jobs, jobs == 1 ? "" : "s", js.present ? " (make's jobserver)" : "");
out:
	g_clear_error(&err);
	jobserver_give_back(&js);
	if (ini)
		g_string_free(ini, TRUE);
	if (x.tmp && x.lock >= 0)
		nvcc_release_scratch(x.tmp, &x.lock, g_getenv("CUGEN_NVCC_KEEP") != NULL);
	else if (x.tmp && !g_getenv("CUGEN_NVCC_KEEP"))
		cg_rm_tree(x.tmp);
	g_free(x.tmp);
	g_free(x.file);
	g_free(x.b);
	g_free(x.self);
	g_free(x.log);
	g_free(x.key);
	g_free(x.obj);
	g_free(src);
	g_free(sub);
	return ok;
}

int cmd_nvcc(int argc, char **argv)
{
	Nv n = { 0 };
	int first = 1;
	/* the launcher form: cugen nvcc /path/to/nvcc ARGS... */
	if (argc > 1 && argv[1][0] != '-') {
		char *base = g_path_get_basename(argv[1]);
		if (g_str_has_prefix(base, "nvcc") && g_file_test(argv[1], G_FILE_TEST_IS_EXECUTABLE) &&
		    !g_file_test(argv[1], G_FILE_TEST_IS_DIR)) {
			n.nvcc = argv[1];
			first = 2;
		}
		g_free(base);
	}
	char *found = n.nvcc ? NULL : find_nvcc();
	if (!n.nvcc)
		n.nvcc = found;
	n.args = argv + first;
	n.nargs = argc - first;
	n.archs = g_ptr_array_new_with_free_func(g_free);
	n.flags = g_ptr_array_new_with_free_func(g_free);
	char *cwd = g_get_current_dir();
	int rc = 0;
	/* one TU: the planner's costs in the reference machine's seconds,
	 * without the half-second speed probe every compile would run */
	g_setenv("CUGEN_SPEED", "1", FALSE);
	if (read_args(&n, cwd) && !build(&n, cwd)) {
		if (n.fatal) {
			fprintf(stderr, "cugen nvcc: error: %s\n", n.fatal);
			rc = 1;
		} else {
			rc = run_real(&n);
		}
	} else if (n.why && !n.fatal) {
		rc = run_real(&n);
	}
	g_free(cwd);
	g_free(n.out);
	g_free(n.source);
	g_free(n.mf);
	g_free(n.mt);
	g_free(n.ccbin);
	g_free(n.why);
	g_free(n.fatal);
	g_ptr_array_unref(n.archs);
	g_ptr_array_unref(n.flags);
	g_free(found);
	return rc;
}
