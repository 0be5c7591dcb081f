/* sources.c -- what a target reads from the project: its sources (globs
 * within the project directory, one file by one name), include
 * directories, defines, libs and data files. See config_int.h. */
#include "config_int.h"

#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <fnmatch.h>
#include <ini.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache.h"
#include "cudaflags.h"
#include "util.h"

static gboolean lang_of(const char *path, Lang *l)
{
	const char *dot = strrchr(path, '.');
	if (!dot)
		return FALSE;
	if (strcmp(dot, ".cu") == 0) *l = LANG_CUDA;
	else if (strcmp(dot, ".c") == 0) *l = LANG_C;
	else if (strcmp(dot, ".cpp") == 0 || strcmp(dot, ".cc") == 0 ||
		 strcmp(dot, ".cxx") == 0 || strcmp(dot, ".C") == 0) *l = LANG_CXX;
	else
		return FALSE;
	return TRUE;
}

const char *lang_name(Lang l)
{
	return l == LANG_CUDA ? "cuda" : l == LANG_C ? "c" : "c++";
}

const char *target_type_name(TargetType t)
{
	return cf_type_values[t];
}

static gint cmp_strp(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static gboolean has_glob_chars(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

static gboolean path_is_dir(const char *p)
{
	struct stat sb;
	return stat(p, &sb) == 0 && S_ISDIR(sb.st_mode);
}

static gboolean path_is_file(const char *p)
{
	struct stat sb;
	return stat(p, &sb) == 0 && S_ISREG(sb.st_mode);
}

void cf_source_free(gpointer p)
{
	Source *s = p;
	g_free(s->rel);
	g_free(s->arch_if);
	g_free(s->abs);
	g_free(s->real);
	g_free(s);
}

/* Why a path named in cugen.ini is not there: "not found", or what a
 * symbolic link in its place is ("is a symbolic link loop", "is a
 * symbolic link to 'T', which does not exist"). */
static char *missing_why(const char *abs)
{
	struct stat sb;
	if (lstat(abs, &sb) != 0 || !S_ISLNK(sb.st_mode) || stat(abs, &sb) == 0)
		return g_strdup("not found");
	if (errno == ELOOP)
		return g_strdup("is a symbolic link loop");
	char *to = g_file_read_link(abs, NULL);
	char *r = g_strdup_printf("is a symbolic link to '%s', which does not exist", to ? to : "?");
	g_free(to);
	return r;
}

/* The regular files glob w (relative to the project directory, whose
 * own name is taken literally) matches, sorted and normalised, appended
 * to files; its directory is watched: the graph regenerates when a file
 * appears there. Wildcards are taken in the last component only (the
 * watched directory must be one directory). */
/* The files a glob names (its wildcards in the file name only), read
 * from its directory: a name is matched as glob(3) would (fnmatch, a
 * leading '.' matched only by a '.'), and readdir's file type says it is
 * a regular file without a stat; the others (links, and file systems
 * that give no type) are asked with one fstatat. Those known to be
 * regular files and not links go into plain (when not NULL): 10,000
 * sources in one directory cost one walk of it, not two stat calls
 * each. */
static gboolean glob_files(Config *c, Entry *e, const char *w, GPtrArray *files, GHashTable *plain, GError **err)
{
	char *wdir = g_path_get_dirname(w);
	gboolean deep = has_glob_chars(wdir) || strstr(w, "**");
	g_free(wdir);
	if (deep) {
		cf_word_error(err, e, w, FALSE, "glob '%s': wildcards are taken in the file name only, not in "
			   "directories nor as '**' (write one glob per directory, e.g. 'src/a/*.cu src/b/*.cu')", w);
		return FALSE;
	}
	char *abs = cg_path_join(c->srcdir, w);
	char *dir = g_path_get_dirname(abs);
	const char *slash = strrchr(w, '/');
	const char *pat = slash ? slash + 1 : w;
	DIR *d = opendir(dir);
	struct dirent *de;
	while (d && (de = readdir(d))) {
		if (fnmatch(pat, de->d_name, FNM_PERIOD) != 0)
			continue;
		struct stat sb;
		gboolean regular = de->d_type == DT_REG;
		gboolean known = regular;
		if (!known && (de->d_type == DT_LNK || de->d_type == DT_UNKNOWN) &&
		    fstatat(dirfd(d), de->d_name, &sb, AT_SYMLINK_NOFOLLOW) == 0) {
			regular = S_ISREG(sb.st_mode);
			known = regular;
			if (S_ISLNK(sb.st_mode))
				regular = fstatat(dirfd(d), de->d_name, &sb, 0) == 0 && S_ISREG(sb.st_mode);
		}
		if (!regular)
			continue;
		char *f = g_strconcat(dir, strcmp(dir, "/") == 0 ? "" : "/", de->d_name, NULL);
		g_ptr_array_add(files, f);
		if (plain && known)
			g_hash_table_add(plain, f);
	}
	if (d)
		closedir(d);
	g_free(abs);
	g_ptr_array_sort(files, cmp_strp);
	if (!g_ptr_array_find_with_equal_func(c->glob_dirs, dir, g_str_equal, NULL))
		g_ptr_array_add(c->glob_dirs, dir);
	else
		g_free(dir);
	return TRUE;
}

/* Characters no source path may hold, whatever the backend: see
 * cf_read_sources (measured with ninja 1.11 and gcc 12: tests/integration/
 * hostile_names.sh). */
#define UNTRACKABLE "|&^;'\"*?<>`"

/* sources = ...: globs expanded (sorted), each file checked. */
/* One word of sources (a file or a glob) into t->sources, built only
 * where the target's arch set holds arch (NULL: always). */
/* realpath(f) (malloc'd), asking the file system for f's directory once
 * (dirs: directory -> its real path, "" when it has none) and for f
 * itself only when it is a symbolic link: a glob of thousands of files
 * in one directory costs a stat each, not a walk of every component;
 * none for a file glob_files knew is plain, not a link. */
static char *real_file(const char *f, gboolean plain, GHashTable *dirs)
{
	struct stat st;
	if (!plain && lstat(f, &st) != 0)
		return NULL;
	if (!plain && S_ISLNK(st.st_mode))
		return realpath(f, NULL);
	char *d = g_path_get_dirname(f);
	const char *rd = g_hash_table_lookup(dirs, d);
	if (!rd) {
		char *r = realpath(d, NULL);
		rd = r ? r : "";
		g_hash_table_insert(dirs, d, g_strdup(rd));
		free(r);
		rd = g_hash_table_lookup(dirs, d);
	} else {
		g_free(d);
	}
	if (!*rd)
		return NULL;
	const char *base = strrchr(f, '/');
	return g_strconcat(rd, strcmp(rd, "/") == 0 ? "" : "/", base ? base + 1 : f, NULL);
}

static gboolean read_source_word(Config *c, Target *t, Entry *e, const char *w, const char *arch, GHashTable *owner,
				 GError **err)
{
	/* cuda_sources: C and C++ files compiled as CUDA */
	gboolean as_cuda = strcmp(e->key, "cuda_sources") == 0;
	gboolean ok = TRUE;
	if (strchr(w, '\n') || strchr(w, '\r')) {
		cf_entry_error(err, e, "source path contains a newline");
		return FALSE;
	}
	char *abs = cg_path_join(c->srcdir, w);
	GPtrArray *files = g_ptr_array_new_with_free_func(g_free);
	GHashTable *plain = g_hash_table_new(NULL, NULL);
	if (has_glob_chars(w)) {
		if (!glob_files(c, e, w, files, plain, err)) {
			ok = FALSE;
		} else if (files->len == 0) {
			cf_word_error(err, e, w, FALSE, "glob '%s' matches no file", w);
			ok = FALSE;
		}
		for (guint k = 0; ok && k < files->len; k++)
			if (strpbrk(g_ptr_array_index(files, k), "\n\r")) {
				cf_word_error(err, e, w, FALSE, "glob '%s' matches a file whose name contains a newline", w);
				ok = FALSE;
			} else if (cf_first_control(g_ptr_array_index(files, k)) ||
				   strchr(g_ptr_array_index(files, k), '\t')) {
				cf_word_error(err, e, w, FALSE, "glob '%s' matches a file whose name contains a control character", w);
				ok = FALSE;
			}
	} else {
		if (!path_is_file(abs)) {
			if (path_is_dir(abs))
				cf_word_error(err, e, w, FALSE, "source '%s' is a directory", w);
			else if (g_file_test(abs, G_FILE_TEST_EXISTS))
				cf_word_error(err, e, w, FALSE, "source '%s' is not a regular file", w);
			else {
				char *why = missing_why(abs);
				cf_word_error(err, e, w, FALSE, "source file '%s' %s", w, why);
				g_free(why);
			}
			ok = FALSE;
		} else {
			g_ptr_array_add(files, g_strdup(abs));
		}
	}
	GHashTable *real_dirs = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	for (guint k = 0; ok && k < files->len; k++) {
		const char *f = g_ptr_array_index(files, k);
		Lang lang;
		char *rel = cg_relpath(f, c->srcdir);
		const char *odd = strpbrk(f, UNTRACKABLE "\t");
		if (odd) {
			/* ninja's build lines and make's rules have no way to say
			 * '|'; the others gcc writes into dependency files as they
			 * are, where ninja cannot read them back (it would rebuild
			 * the file on every run) */
			cf_word_error(err, e, w, FALSE, "source '%s': a path with '%s' cannot be %s: rename it", rel,
				   *odd == '\t' ? "\\t" : (char[]){ *odd, 0 }, *odd == '|' ? "written in build.ninja nor a Makefile"
						     : "tracked (gcc's dependency files cannot say it to ninja)");
			g_free(rel);
			ok = FALSE;
			break;
		}
		char *real = real_file(f, g_hash_table_contains(plain, f), real_dirs);
		if (real && strcmp(real, f) == 0)
			g_clear_pointer(&real, free);
		if (!lang_of(f, &lang)) {
			cf_word_error(err, e, w, FALSE, "'%s' is not a source file (expected .cu, .c, .cpp, .cc, .cxx)", rel);
			ok = FALSE;
		} else if (as_cuda && lang == LANG_CUDA) {
			cf_word_error(err, e, w, FALSE, "'%s' is a .cu file: name it in sources", rel);
			ok = FALSE;
		} else if (g_hash_table_lookup(owner, f) == t || (real && g_hash_table_lookup(owner, real) == t)) {
			/* a file in another target too is that target's object
			 * and this one's (obj/TARGET/... apart), as in CMake */
			Source *had = NULL;
			for (guint i = 0; arch && i < t->sources->len && !had; i++) {
				Source *x = g_ptr_array_index(t->sources, i);
				if (x->arch_if && (strcmp(x->abs, f) == 0 || (real && x->real && strcmp(x->real, real) == 0)))
					had = x;
			}
			if (had) {
				/* arch_sources = 80: a.cu 90: a.cu -- built where the
				 * set holds any of them */
				char *w2 = g_strconcat(" ", had->arch_if, " ", NULL), *a2 = g_strconcat(" ", arch, " ", NULL);
				if (!strstr(w2, a2)) {
					char *n = g_strconcat(had->arch_if, " ", arch, NULL);
					g_free(had->arch_if);
					had->arch_if = n;
				}
				g_free(w2);
				g_free(a2);
			} else
				cf_word_error(err, e, w, TRUE, "source '%s' is listed twice in target '%s'", rel, t->name);
			ok = had != NULL;
		} else {
			Source *s = g_new0(Source, 1);
			s->abs = g_strdup(f);
			s->rel = g_strdup(rel);
			s->lang = as_cuda ? LANG_CUDA : lang;
			s->arch_if = g_strdup(arch);
			s->loc = config_word_loc(e->loc, e->lines, e->value, w, FALSE);
			g_ptr_array_add(t->sources, s);
			g_hash_table_replace(owner, s->abs, t);
			if (real) { /* the same file by another path is the same source */
				s->real = g_steal_pointer(&real);
				g_hash_table_replace(owner, s->real, t);
			}
		}
		g_free(real);
		g_free(rel);
	}
	g_hash_table_destroy(real_dirs);
	g_hash_table_destroy(plain);
	g_ptr_array_free(files, TRUE);
	g_free(abs);
	return ok;
}

gboolean cf_read_sources(Config *c, Target *t, Entry *e, GHashTable *owner, GError **err)
{
	GPtrArray *words = g_ptr_array_new_with_free_func(g_free);
	GError *le = NULL;
	gboolean ok = TRUE;
	if (!cg_split_list(e->value, words, &le)) {
		cf_entry_error(err, e, "sources: %s", le->message + strlen("error: "));
		g_error_free(le);
		g_ptr_array_free(words, TRUE);
		return FALSE;
	}
	if (words->len == 0) {
		cf_entry_error(err, e, "target '%s' has an empty 'sources' list", t->name);
		ok = FALSE;
	}
	for (guint i = 0; ok && i < words->len; i++)
		ok = read_source_word(c, t, e, g_ptr_array_index(words, i), NULL, owner, err);
	g_ptr_array_free(words, TRUE);
	return ok;
}


/* An arch tag ("75:", "90a:"): the arch's id, else NULL. */
static char *arch_tag(const char *w, const char **rest)
{
	const char *p = w;
	while (g_ascii_isdigit(*p))
		p++;
	if (p == w)
		return NULL;
	if (*p == 'a' || *p == 'f' || *p == '+') /* 90a:, and 80+: from 80 up */
		p++;
	if (*p != ':')
		return NULL;
	*rest = p + 1;
	return g_strndup(w, (gsize)(p - w));
}

gboolean cf_read_arch_words(Entry *e, gboolean defines, GPtrArray *out, GError **err)
{
	GPtrArray *words = g_ptr_array_new_with_free_func(g_free);
	GError *le = NULL;
	if (!(defines ? cg_split_defines(e->value, words, &le) : cg_split_list(e->value, words, &le))) {
		cf_entry_error(err, e, "%s: %s", e->key, le->message + strlen("error: "));
		g_error_free(le);
		g_ptr_array_free(words, TRUE);
		return FALSE;
	}
	char *arch = NULL;
	gboolean ok = TRUE, used = TRUE;
	for (guint i = 0; ok && i < words->len; i++) {
		const char *w = g_ptr_array_index(words, i), *rest = NULL;
		char *tag = arch_tag(w, &rest);
		if (tag) {
			if (!used) {
				cf_word_error(err, e, arch, FALSE, "%s: '%s:' is followed by nothing", e->key, arch);
				ok = FALSE;
				g_free(tag);
				break;
			}
			g_free(arch);
			arch = tag;
			w = rest;
			used = FALSE;
			if (!*w)
				continue;
		}
		used = TRUE;
		if (!arch && g_str_has_suffix(w, ":")) {
			/* sm_80:, compute_90: -- an arch in another spelling */
			cf_word_error(err, e, w, FALSE, "%s: '%s' is not an arch tag (write the arch's number: e.g. "
				      "%s = 80: FILE)", e->key, w, e->key);
			ok = FALSE;
		} else if (!arch) {
			cf_word_error(err, e, w, FALSE, "%s: '%s' has no arch before it (write e.g. %s = 75: %s)", e->key, w,
				      e->key, w);
			ok = FALSE;
		} else {
			g_ptr_array_add(out, g_strconcat(arch, "\t", w, NULL));
		}
	}
	if (ok && !used) {
		cf_word_error(err, e, arch, FALSE, "%s: '%s:' is followed by nothing", e->key, arch);
		ok = FALSE;
	}
	g_free(arch);
	g_ptr_array_free(words, TRUE);
	return ok;
}

gboolean cf_read_cuda_sources(Config *c, Target *t, Entry *e, GHashTable *owner, GError **err)
{
	GPtrArray *words = g_ptr_array_new_with_free_func(g_free);
	GError *le = NULL;
	gboolean ok = cg_split_list(e->value, words, &le);
	if (!ok) {
		cf_entry_error(err, e, "cuda_sources: %s", le->message + strlen("error: "));
		g_error_free(le);
	}
	for (guint i = 0; ok && i < words->len; i++)
		ok = read_source_word(c, t, e, g_ptr_array_index(words, i), NULL, owner, err);
	g_ptr_array_free(words, TRUE);
	return ok;
}

gboolean cf_read_arch_sources(Config *c, Target *t, Entry *e, GHashTable *owner, GError **err)
{
	GPtrArray *items = g_ptr_array_new_with_free_func(g_free);
	gboolean ok = cf_read_arch_words(e, FALSE, items, err);
	for (guint i = 0; ok && i < items->len; i++) {
		char *it = g_ptr_array_index(items, i), *tab = strchr(it, '\t');
		*tab = 0;
		ok = read_source_word(c, t, e, tab + 1, it, owner, err);
	}
	g_ptr_array_free(items, TRUE);
	return ok;
}

void cf_target_free(gpointer p)
{
	Target *t = p;
	g_free(t->name);
	g_free(t->output_name);
	g_ptr_array_free(t->sources, TRUE);
	g_ptr_array_free(t->include, TRUE);
	g_ptr_array_free(t->private_include, TRUE);
	g_ptr_array_free(t->defines, TRUE);
	g_ptr_array_free(t->public_defines, TRUE);
	g_ptr_array_free(t->arch_defines, TRUE);
	g_ptr_array_free(t->libs, TRUE);
	g_ptr_array_free(t->private_libs, TRUE);
	g_ptr_array_free(t->data, TRUE);
	g_ptr_array_free(t->deps, TRUE);
	cf_setting_clear(&t->archs);
	cf_setting_clear(&t->ptx);
	g_free(t->cuda_flags);
	g_free(t->std);
	g_free(t->host_flags);
	g_free(t->cflags);
	g_free(t->cxxflags);
	g_free(t->ldflags);
	g_free(t->version);
	g_free(t->soversion);
	if (t->headers)
		g_ptr_array_free(t->headers, TRUE);
	g_free(t);
}

char *cf_join_flags(const char *a, const char *b)
{
	if (!a || !*a)
		return g_strdup(b ? b : "");
	if (!b || !*b)
		return g_strdup(a);
	return g_strconcat(a, " ", b, NULL);
}

/* Every name cugen or ninja or make uses in BUILDDIR (files, directories
 * and phony targets; also arch-* and any name starting with '.', such
 * as .ninja_log, .ninja_deps and .cugen): a target of one of these names
 * would be written over them. */
const char *const cf_reserved_targets[] = {
	"all", "clean", "help", "install", "uninstall", "check", "test", "dist", "shard", "report",
	"build.ninja", "Makefile", "obj", "compile_commands.json", "install_manifest.txt", "cugen.mk", NULL
};

/* A list of include directories (absolute, each checked) */
gboolean cf_read_includes(Config *c, Section *s, const char *key, GPtrArray *out, GError **err)
{
	GPtrArray *inc = g_ptr_array_new_with_free_func(g_free);
	gboolean ok = cf_get_list(s, key, inc, err);
	for (guint i = 0; ok && i < inc->len; i++) {
		char *abs = cg_path_join(c->srcdir, g_ptr_array_index(inc, i));
		if (!path_is_dir(abs)) {
			char *why = missing_why(abs);
			if (g_file_test(abs, G_FILE_TEST_EXISTS))
				cf_entry_error(err, cf_find_entry(s, key), "include directory '%s' is not a directory",
					       (char *)g_ptr_array_index(inc, i));
			else
				cf_entry_error(err, cf_find_entry(s, key), "include directory '%s' %s",
					       (char *)g_ptr_array_index(inc, i), why);
			g_free(why);
			g_free(abs);
			ok = FALSE;
		} else {
			g_ptr_array_add(out, abs);
		}
	}
	g_ptr_array_free(inc, TRUE);
	return ok;
}

gboolean cf_check_defines(Section *s, const char *key, GPtrArray *defines, GError **err)
{
	for (guint i = 0; i < defines->len; i++) {
		const char *d = g_ptr_array_index(defines, i);
		if (!g_ascii_isalpha(d[0]) && d[0] != '_') {
			cf_word_error(err, cf_find_entry(s, key), d, FALSE, "invalid define '%s' (expected NAME or NAME=VALUE)", d);
			return FALSE;
		}
		/* public ones reach the .pc files and the CMake package, which
		 * cannot carry a '$' (expanded), a ';' (CMake splits a list
		 * after evaluating it) or a '#' (CMake drops such a define);
		 * pkgexport.c escapes the rest */
		const char *bad = strcmp(key, "public_defines") == 0 ? strpbrk(d, "$;#") : NULL;
		if (bad) {
			cf_word_error(err, cf_find_entry(s, key), d, FALSE, "public define '%s' holds '%c', which %s", d, *bad,
				      *bad == '$' ? "consumers of the installed package would expand (pkg-config's ${var}, "
						    "CMake's ${VAR}, $ENV{VAR} and generator expressions)"
				      : *bad == ';' ? "a CMake consumer would take for the end of the define"
						    : "a CMake consumer would drop the define for");
			return FALSE;
		}
	}
	return TRUE;
}

/* libs: NAME (-lNAME), or a library file (a path with a '/': made
 * absolute here, and it must exist). */
gboolean cf_check_libs(Config *c, Section *s, const char *key, GPtrArray *libs, GError **err)
{
	for (guint i = 0; i < libs->len; i++) {
		const char *l = g_ptr_array_index(libs, i);
		if (g_str_has_prefix(l, "-l")) {
			cf_word_error(err, cf_find_entry(s, key), l, FALSE, "write library '%s' without '-l' (%s = %s)", l, key,
				   l + 2);
			return FALSE;
		}
		if (!strchr(l, '/') && l[strspn(l, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.+-")]) {
			/* (a consumer's CMake or pkg-config would read more into
			 * it: a list, a generator expression, a variable) */
			cf_word_error(err, cf_find_entry(s, key), l, FALSE,
				      "library '%s' is not a library name (letters, digits, '_', '.', '+', '-'), "
				      "nor a file (a path with '/')", l);
			return FALSE;
		}
		if (strchr(l, '/') && strpbrk(l, ";$<>\"'#\\ \t")) {
			cf_word_error(err, cf_find_entry(s, key), l, FALSE,
				      "library file '%s' holds a character the installed .pc and CMake files cannot carry", l);
			return FALSE;
		}
		if (strchr(l, '/')) {
			char *abs = cg_path_join(c->srcdir, l);
			if (!path_is_file(abs)) {
				char *why = missing_why(abs);
				cf_word_error(err, cf_find_entry(s, key), l, FALSE, "library file '%s' %s", l, why);
				g_free(why);
				g_free(abs);
				return FALSE;
			}
			g_free(libs->pdata[i]);
			libs->pdata[i] = abs;
		}
	}
	return TRUE;
}

/* Names in BUILDDIR that are cugen's or ninja's own: no data file may
 * be copied over them. */
static const char *const builddir_names[] = {
	"obj", ".cugen", "shard", "build.ninja", "build.full.ninja", "compile_commands.json", "Makefile",
	".ninja_log", ".ninja_deps", NULL
};

/* data = FILES: run-time files (globs allowed), each copied into
 * BUILDDIR at its path relative to the project directory. */
gboolean cf_read_data(Config *c, Target *t, Section *s, GError **err)
{
	Entry *e = cf_find_entry(s, "data");
	if (!e)
		return TRUE;
	GPtrArray *words = g_ptr_array_new_with_free_func(g_free);
	gboolean ok = cf_get_named_list(s, "data", words, err);
	for (guint i = 0; ok && i < words->len; i++) {
		const char *w = g_ptr_array_index(words, i);
		char *abs = cg_path_join(c->srcdir, w);
		GPtrArray *files = g_ptr_array_new_with_free_func(g_free);
		if (has_glob_chars(w)) {
			if (!glob_files(c, e, w, files, NULL, err)) {
				ok = FALSE;
			} else if (!files->len) {
				cf_word_error(err, e, w, FALSE, "data glob '%s' matches no file", w);
				ok = FALSE;
			}
		} else if (path_is_file(abs) || !g_str_has_prefix(abs, c->srcdir)) {
			/* (outside the project: said below, found or not) */
			g_ptr_array_add(files, cg_path_norm(abs));
		} else {
			cf_word_error(err, e, w, FALSE,
				   path_is_dir(abs) ? "data '%s' is a directory (name its files, e.g. '%s/*')"
						    : "data file '%s' not found%s",
				   w, path_is_dir(abs) ? w : "");
			ok = FALSE;
		}
		for (guint k = 0; ok && k < files->len; k++) {
			const char *f = g_ptr_array_index(files, k);
			char *rel = cg_relpath(f, c->srcdir);
			char *first = g_strndup(rel, strcspn(rel, "/"));
			if (g_path_is_absolute(rel) || strcmp(first, "..") == 0) {
				cf_word_error(err, e, w, FALSE, "data file '%s' is outside the project directory", w);
				ok = FALSE;
			} else if (cf_in_list(first, builddir_names)) {
				cf_word_error(err, e, w, FALSE, "data file '%s' would be copied over cugen's own '%s' in the build "
					   "directory", rel, first);
				ok = FALSE;
			} else if (cf_first_control(rel)) {
				cf_word_error(err, e, w, FALSE, "data file name '%s' contains a control character", w);
				ok = FALSE;
			} else if (!g_ptr_array_find_with_equal_func(t->data, rel, g_str_equal, NULL)) {
				g_ptr_array_add(t->data, rel);
				rel = NULL;
			}
			g_free(first);
			g_free(rel);
		}
		g_ptr_array_free(files, TRUE);
		g_free(abs);
	}
	g_ptr_array_free(words, TRUE);
	return ok;
}


/* Every regular file under dir (recursively), sorted, appended to files;
 * each directory once (seen: real paths), so links back up the tree
 * neither loop nor copy a tree twice. */
static void dir_files(const char *dir, GPtrArray *files, GHashTable *seen)
{
	char *real = realpath(dir, NULL);
	if (!real || !g_hash_table_add(seen, g_strdup(real))) {
		free(real);
		return;
	}
	free(real);
	GDir *d = g_dir_open(dir, 0, NULL);
	if (!d)
		return;
	GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
	for (const char *n; (n = g_dir_read_name(d));)
		g_ptr_array_add(names, g_build_filename(dir, n, NULL));
	g_dir_close(d);
	g_ptr_array_sort(names, cmp_strp);
	for (guint i = 0; i < names->len; i++) {
		const char *p = g_ptr_array_index(names, i);
		if (path_is_dir(p))
			dir_files(p, files, seen);
		else if (path_is_file(p))
			g_ptr_array_add(files, cg_path_norm(p));
	}
	g_ptr_array_free(names, TRUE);
}

/* Where f really is, when that is outside the project (a link to a file
 * or a directory elsewhere), else NULL. */
static char *outside_project(const Config *c, const char *f)
{
	char *real = realpath(f, NULL), *top = realpath(c->srcdir, NULL);
	gsize n = top ? strlen(top) : 0;
	gboolean in = real && top && strncmp(real, top, n) == 0 && (real[n] == '/' || !real[n]);
	char *r = in ? NULL : g_strdup(real ? real : f);
	free(real);
	free(top);
	return r;
}

/* Where header f goes under includedir: its path below the deepest of
 * the target's public include directories that holds it, else its name. */
static char *header_dest(const Target *t, const char *f)
{
	const char *best = NULL;
	for (guint i = 0; i < t->include->len; i++) {
		const char *d = g_ptr_array_index(t->include, i);
		gsize n = strlen(d);
		if (strncmp(f, d, n) == 0 && f[n] == '/' && (!best || n > strlen(best)))
			best = d;
	}
	return best ? g_strdup(f + strlen(best) + 1) : g_path_get_basename(f);
}

/* headers = FILES: public headers installed under includedir (globs and
 * directories allowed), as pairs of project-relative file and path there. */
gboolean cf_read_headers(Config *c, Target *t, Section *s, GError **err)
{
	Entry *e = cf_find_entry(s, "headers");
	if (!e)
		return TRUE;
	GPtrArray *words = g_ptr_array_new_with_free_func(g_free);
	gboolean ok = cf_get_named_list(s, "headers", words, err);
	GHashTable *dests = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	for (guint i = 0; ok && i < words->len; i++) {
		const char *w = g_ptr_array_index(words, i);
		char *abs = cg_path_join(c->srcdir, w);
		GPtrArray *files = g_ptr_array_new_with_free_func(g_free);
		if (!g_str_has_prefix(abs, c->srcdir) || (abs[strlen(c->srcdir)] != '/' && abs[strlen(c->srcdir)])) {
			cf_word_error(err, e, w, FALSE, "header '%s' is outside the project directory", w);
			ok = FALSE;
		} else if (has_glob_chars(w)) {
			if (!glob_files(c, e, w, files, NULL, err))
				ok = FALSE;
			else if (!files->len) {
				cf_word_error(err, e, w, FALSE, "headers glob '%s' matches no file", w);
				ok = FALSE;
			}
		} else if (path_is_dir(abs)) {
			GHashTable *seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
			dir_files(abs, files, seen);
			g_hash_table_destroy(seen);
		} else if (path_is_file(abs)) {
			g_ptr_array_add(files, cg_path_norm(abs));
		} else {
			char *why = missing_why(abs);
			cf_word_error(err, e, w, FALSE, "header '%s' %s", w, why);
			g_free(why);
			ok = FALSE;
		}
		for (guint k = 0; ok && k < files->len; k++) {
			const char *f = g_ptr_array_index(files, k);
			char *dest = header_dest(t, f);
			char *out = outside_project(c, f);
			if (out) {
				/* (what is installed comes from the project only) */
				char *rel = cg_relpath(f, c->srcdir);
				cf_word_error(err, e, w, FALSE, "header '%s' is a link to '%s', outside the project directory",
					      rel, out);
				g_free(rel);
				ok = FALSE;
			} else if (cf_first_control(f)) {
				cf_word_error(err, e, w, FALSE, "header file name '%s' contains a control character", w);
				ok = FALSE;
			} else if (g_hash_table_contains(dests, dest)) {
				if (strcmp(g_hash_table_lookup(dests, dest), f) != 0) {
					cf_word_error(err, e, w, FALSE, "headers '%s' and '%s' would both be installed as '%s'",
						   (char *)g_hash_table_lookup(dests, dest), f, dest);
					ok = FALSE;
				}
			} else {
				g_hash_table_insert(dests, g_strdup(dest), (gpointer)g_intern_string(f));
				g_ptr_array_add(t->headers, cg_relpath(f, c->srcdir));
				g_ptr_array_add(t->headers, dest);
				dest = NULL;
			}
			g_free(dest);
			g_free(out);
		}
		g_ptr_array_free(files, TRUE);
		g_free(abs);
	}
	g_hash_table_destroy(dests);
	g_ptr_array_free(words, TRUE);
	return ok;
}
