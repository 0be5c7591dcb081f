/* install.c -- where installed files go, the install manifest, and the
 * install, clean and help targets; see install.h.
 *
 * The manifest (.cugen/install.ini) is a key file of groups "file N" in
 * install order, each with kind (file, elf or link), src (relative to
 * BUILDDIR; a link's target), dest (absolute, before $DESTDIR), mode
 * and, for elf, rpath ("" to remove the RUNPATH, or the new one; absent:
 * kept). `cugen install` trusts nothing in it but the seal (installrun.c
 * checks every path again).
 */
#include "install.h"

#include <string.h>
#include <unistd.h>

#include "gate.h"
#include "statefile.h"
#include "template.h"

/* Debian's multiarch tuple of a toolkit target directory. */
static const char *multiarch(const char *target)
{
	if (!target)
		return NULL;
	if (g_str_has_prefix(target, "x86_64"))
		return "x86_64-linux-gnu";
	if (g_str_has_prefix(target, "sbsa") || g_str_has_prefix(target, "aarch64"))
		return "aarch64-linux-gnu";
	if (g_str_has_prefix(target, "ppc64le"))
		return "powerpc64le-linux-gnu";
	return NULL;
}

char *install_libdir(const Config *c, const Toolkit *tk)
{
	if (c->libdir)
		return g_strdup(c->libdir);
	/* as CMake's GNUInstallDirs: the multiarch directory on Debian and
	 * its derivatives, for the prefix /usr only */
	const char *m = tk ? multiarch(tk->target) : NULL;
	if (m && strcmp(c->prefix, "/usr") == 0 && access("/etc/debian_version", F_OK) == 0)
		return g_strconcat("lib/", m, NULL);
	return g_strdup("lib");
}

char *install_dir(const Config *c, const char *dir)
{
	return g_path_is_absolute(dir) ? g_strdup(dir) : cg_path_join(c->prefix, dir);
}

char *install_rpath(const Config *c, const Toolkit *tk, const Target *t)
{
	if (c->install_rpath != IRPATH_ORIGIN || !t->install || (t->type != TGT_EXECUTABLE && t->type != TGT_SHARED))
		return NULL;
	if (t->type == TGT_SHARED)
		return g_strdup("$ORIGIN");
	char *lib = install_libdir(c, tk), *libabs = install_dir(c, lib), *bin = install_dir(c, c->bindir);
	char *rel = cg_relpath(libabs, bin);
	char *rp = strcmp(rel, ".") == 0 ? g_strdup("$ORIGIN") : g_strconcat("$ORIGIN/", rel, NULL);
	g_free(rel);
	g_free(bin);
	g_free(libabs);
	g_free(lib);
	return rp;
}

typedef struct {
	GKeyFile *k;
	guint n;
	GHashTable *dests; /* dest -> what is installed there ("SRC\nWHO") */
	const Target *who; /* the target whose entries these are, or NULL */
	const Target *at;  /* the target being installed (errors are at its line) */
	GError **err;      /* the first destination two sources share */
	const char *srcdir;
} Manifest;

/* A source as messages name it: a project file by its project path. */
static char *shown_src(const Manifest *m, const char *src)
{
	gsize n = strlen(m->srcdir);
	if (strncmp(src, m->srcdir, n) == 0 && src[n] == '/')
		return g_strdup(src + n + 1);
	return g_strdup(src);
}

/* One destination, one source: two targets may install the same header,
 * but no two files one destination (a header named like a library, a
 * generated .pc or CMake file, another target's header). */
static void entry(Manifest *m, const char *kind, const char *src, const char *dir, const char *name,
		  const char *mode, const char *rpath, const char *drop)
{
	char *dest = g_build_filename(dir, name, NULL);
	const char *had = g_hash_table_lookup(m->dests, dest);
	if (had) {
		/* (what is kept: "SRC\nWHO") */
		gsize n = strlen(src);
		if ((strncmp(had, src, n) != 0 || had[n] != '\n') && !*m->err) {
			const char *who = strchr(had, '\n') + 1;
			char *first = g_strndup(had, (gsize)(who - 1 - had));
			char *a = shown_src(m, first), *b = shown_src(m, src);
			char *msg = g_strdup_printf("'%s' would be installed from both '%s' (%s) and '%s' (%s%s)", dest, a, who,
						    b, m->who ? "target " : "", m->who ? m->who->name : "cugen's own file");
			g_free(a);
			g_free(b);
			g_free(first);
			if (m->at)
				cg_error_at(m->err, m->at->loc.file, m->at->loc.line, "%s", msg);
			else
				cg_error(m->err, "%s", msg);
			g_free(msg);
		}
		g_free(dest);
		return;
	}
	g_hash_table_insert(m->dests, dest,
			    g_strdup_printf("%s\n%s%s", src, m->who ? "target " : "", m->who ? m->who->name : "cugen's own file"));
	char *g = g_strdup_printf("file %u", ++m->n);
	g_key_file_set_string(m->k, g, "kind", kind);
	g_key_file_set_string(m->k, g, "src", src);
	g_key_file_set_string(m->k, g, "dest", dest);
	if (mode)
		g_key_file_set_string(m->k, g, "mode", mode);
	if (rpath)
		g_key_file_set_string(m->k, g, "rpath", rpath);
	if (drop)
		g_key_file_set_string(m->k, g, "drop", drop);
	g_free(g);
}

/* The binary's rpath action: "" (remove it) or the install tree's. */
static char *elf_rpath(const Resolved *r, const Target *t)
{
	char *rp = install_rpath(r->c, r->tk, t);
	return rp ? rp : g_strdup("");
}

gboolean install_stage(Stage *st, const Resolved *r, const char *builddir, GError **err)
{
	const Config *c = r->c;
	Manifest m = { g_key_file_new(), 0, g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free), NULL, NULL,
		      err, c->srcdir };
	char *lib = install_libdir(c, r->tk);
	char *libdir = install_dir(c, lib), *bindir = install_dir(c, c->bindir);
	char *incdir = install_dir(c, c->includedir);
	g_key_file_set_string(m.k, "install", "prefix", c->prefix);
	g_key_file_set_string(m.k, "install", "libdir", libdir);
	char *pcdir = g_build_filename(libdir, "pkgconfig", NULL);
	/* what the link put in a RUNPATH for the build tree (link.c) */
	char *drop = g_strconcat("$ORIGIN:", r->cudart_dir, NULL);
	gboolean libs = FALSE;
	for (guint i = 0; i < c->targets->len; i++) {
		const Target *t = g_ptr_array_index(c->targets, i);
		if (!t->install || t->type == TGT_OBJECT)
			continue;
		char *out = target_output_name(t), *real = target_real_name(t), *so = target_soname(t);
		char *rp = elf_rpath(r, t);
		m.who = m.at = t;
		switch (t->type) {
		case TGT_EXECUTABLE:
			entry(&m, "elf", out, bindir, out, "755", rp, drop);
			break;
		case TGT_SHARED:
			entry(&m, "elf", real, libdir, real, "755", rp, drop);
			if (strcmp(so, real) != 0)
				entry(&m, "link", real, libdir, so, NULL, NULL, NULL);
			if (strcmp(out, so) != 0)
				entry(&m, "link", so, libdir, out, NULL, NULL, NULL);
			break;
		default:
			entry(&m, "file", out, libdir, out, "644", NULL, NULL);
			break;
		}
		g_free(rp);
		for (guint k = 0; k + 1 < t->headers->len; k += 2) {
			char *abs = g_build_filename(c->srcdir, (char *)g_ptr_array_index(t->headers, k), NULL);
			entry(&m, "file", abs, incdir, g_ptr_array_index(t->headers, k + 1), "644", NULL, NULL);
			g_free(abs);
		}
		if (t->type != TGT_EXECUTABLE) {
			libs = TRUE;
			char *pc = g_strconcat(t->name, ".pc", NULL);
			char *src = g_build_filename(INSTALL_FILES, pc, NULL);
			char *path = g_build_filename(builddir, src, NULL);
			stage_add(st, path, install_pc_file(r, t));
			m.who = NULL; /* (cugen's own file) */
			entry(&m, "file", src, pcdir, pc, "644", NULL, NULL);
			m.who = t;
			g_free(path);
			g_free(src);
			g_free(pc);
		}
		g_free(so);
		g_free(real);
		g_free(out);
	}
	m.who = NULL;
	if (libs) {
		char *cmakedir = g_build_filename(libdir, "cmake", c->name, NULL);
		const char *kinds[] = { "Config.cmake", "ConfigVersion.cmake" };
		for (gsize i = 0; i < G_N_ELEMENTS(kinds); i++) {
			char *name = g_strconcat(c->name, kinds[i], NULL);
			char *src = g_build_filename(INSTALL_FILES, name, NULL);
			char *path = g_build_filename(builddir, src, NULL);
			stage_add(st, path, i ? install_cmake_version(c) : install_cmake_config(r));
			entry(&m, "file", src, cmakedir, name, "644", NULL, NULL);
			g_free(path);
			g_free(src);
			g_free(name);
		}
		g_free(cmakedir);
	}
	gsize len = 0;
	char *data = g_key_file_to_data(m.k, &len, NULL);
	char *path = g_build_filename(builddir, INSTALL_MANIFEST, NULL);
	stage_add(st, path, state_seal("install", g_string_new_len(data, (gssize)len)));
	g_free(path);
	g_free(data);
	g_key_file_free(m.k);
	g_hash_table_destroy(m.dests);
	g_free(drop);
	g_free(pcdir);
	g_free(incdir);
	g_free(bindir);
	g_free(libdir);
	g_free(lib);
	return !*err;
}

/* s with each '$' doubled (ninja's and make's escape of a dollar). */
static char *dollars(const char *s)
{
	char **parts = g_strsplit(s, "$", -1);
	char *j = g_strjoinv("$$", parts);
	g_strfreev(parts);
	return j;
}

char *install_targets(const Config *c, const char *cugen, const char *archs, gboolean make, gboolean gated)
{
	/* the help text: one line a target */
	GString *help = g_string_new(NULL);
	GPtrArray *lines = g_ptr_array_new_with_free_func(g_free);
	g_ptr_array_add(lines, g_strdup("all (the default): every target"));
	for (guint i = 0; i < c->targets->len; i++) {
		const Target *t = g_ptr_array_index(c->targets, i);
		char *out = target_output_name(t);
		g_ptr_array_add(lines, out && strcmp(out, t->name) != 0
				? g_strdup_printf("%s: %s %s", t->name, target_type_name(t->type), out)
				: g_strdup_printf("%s: %s", t->name, target_type_name(t->type)));
		g_free(out);
	}
	char **av = g_strsplit(archs ? archs : "", " ", -1);
	for (char **a = av; *a; a++)
		if (**a)
			g_ptr_array_add(lines, g_strdup_printf("arch-%s: every TU's %s image", *a, *a));
	g_strfreev(av);
	if (archs && *archs)
		g_ptr_array_add(lines, g_strdup("shard: this build's images and manifest, for cugen combine"));
	char *where = g_strdup_printf("install: install under %s (DESTDIR=DIR: under DIR instead)", c->prefix);
	g_ptr_array_add(lines, where);
	g_ptr_array_add(lines, g_strdup("uninstall: remove what install installed"));
	g_ptr_array_add(lines, g_strdup("clean: remove what the build made"));
	g_ptr_array_add(lines, g_strdup("help: this list"));
	g_string_append(help, "printf '%s\\n' 'Targets:'");
	for (guint i = 0; i < lines->len; i++) {
		char *q = cg_sh_quote(g_ptr_array_index(lines, i));
		g_string_append_printf(help, " %s", q);
		g_free(q);
	}
	g_ptr_array_free(lines, TRUE);
	char *qc = cg_sh_quote(cugen);
	char *vc = dollars(qc), *vh = dollars(help->str);
	if (make) { /* (a recipe line that make does not echo) */
		char *at = g_strconcat("@", vh, NULL);
		g_free(vh);
		vh = at;
	}
	const char *vars[] = { "CUGEN", vc, "HELP", vh, "CLEAN", gated ? "ninja -f " GATE_FULL " -t clean && ninja -t clean" : "ninja -t clean", NULL };
	char *text = template_expand(make ? "make-targets.in" : "ninja-targets.in", vars);
	g_free(vh);
	g_free(vc);
	g_free(qc);
	g_string_free(help, TRUE);
	return text;
}
