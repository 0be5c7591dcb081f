/* confinstall.c -- the install settings of cugen.ini.
 *
 * Owns: [project] prefix, bindir, libdir, includedir, datadir and
 * install_rpath, and a target's install, version, soversion and headers
 * (read in sources.c), each checked with its FILE:LINE error; and the
 * names of the files targets write (NAME, libNAME.a, libNAME.so, a
 * versioned shared library's libNAME.so.VERSION and its SONAME
 * libNAME.so.SOVERSION), none written twice or over a data file. Where
 * the files go is install.c's.
 */
#include "config_int.h"

#include <string.h>

#include "util.h"

static const char *const rpath_values[] = { "none", "origin", NULL };

/* A directory key: relative to the prefix (no "..") or absolute. */
static gboolean read_dir(Section *proj, const char *key, const char *def, char **out, GError **err)
{
	Entry *e = cf_find_entry(proj, key);
	*out = NULL;
	if (!e) {
		*out = def ? g_strdup(def) : NULL;
		return TRUE;
	}
	char *v = g_strstrip(g_strdup(e->value));
	char **parts = g_strsplit(v, "/", -1);
	gboolean up = FALSE;
	for (char **p = parts; *p; p++)
		up |= strcmp(*p, "..") == 0;
	g_strfreev(parts);
	if (!*v || up || cf_first_control(v)) {
		cf_entry_error(err, e, "%s '%s': give a directory under the prefix (e.g. %s = %s) or an absolute one", key,
			       v, key, def ? def : "lib");
		g_free(v);
		return FALSE;
	}
	const char *bad = strpbrk(v, " \t#\"'\\$;");
	if (bad) {
		cf_entry_error(err, e, "%s '%s' holds '%c', which the installed .pc and CMake files cannot carry", key, v,
			       *bad);
		g_free(v);
		return FALSE;
	}
	*out = g_path_is_absolute(v) ? cg_path_norm(v) : v;
	if (*out != v)
		g_free(v);
	return TRUE;
}

gboolean cf_read_install(Config *c, Section *proj, GError **err)
{
	Entry *pe = cf_find_entry(proj, "prefix");
	char *prefix = g_strstrip(g_strdup(pe ? pe->value : "/usr/local"));
	if (!g_path_is_absolute(prefix) || cf_first_control(prefix)) {
		cf_entry_error(err, pe, "prefix '%s' is not an absolute path (e.g. prefix = /usr/local)", prefix);
		g_free(prefix);
		return FALSE;
	}
	/* the prefix goes into .pc files (whose values pkg-config splits at
	 * blanks and cuts at '#') and the CMake package as it is */
	const char *bad = strpbrk(prefix, " \t#\"'\\$;");
	if (bad) {
		cf_entry_error(err, pe, "prefix '%s' holds '%c', which the installed .pc and CMake files cannot carry: "
			       "choose a prefix without blanks, quotes, '#', '$', ';' or '\\'", prefix, *bad);
		g_free(prefix);
		return FALSE;
	}
	c->prefix = cg_path_norm(prefix);
	g_free(prefix);
	int v;
	if (!read_dir(proj, "bindir", "bin", &c->bindir, err) || !read_dir(proj, "libdir", NULL, &c->libdir, err) ||
	    !read_dir(proj, "includedir", "include", &c->includedir, err) ||
	    !read_dir(proj, "datadir", "share", &c->datadir, err) ||
	    !cf_get_choice(proj, "install_rpath", rpath_values, IRPATH_NONE, &v, err))
		return FALSE;
	c->install_rpath = v;
	return TRUE;
}

/* A version: digits and letters in dot-separated parts ("1.2.3", "2"). */
gboolean config_version_ok(const char *v)
{
	if (!*v || *v == '.' || v[strlen(v) - 1] == '.' || strstr(v, ".."))
		return FALSE;
	for (const char *p = v; *p; p++)
		if (!g_ascii_isalnum(*p) && !strchr("._+", *p))
			return FALSE;
	return TRUE;
}

gboolean cf_read_target_install(Config *c, Target *t, Section *s, GError **err)
{
	t->headers = g_ptr_array_new_with_free_func(g_free);
	if (!cf_get_bool(s, "install", t->type != TGT_OBJECT, &t->install, err))
		return FALSE;
	Entry *ve = cf_find_entry(s, "version"), *se = cf_find_entry(s, "soversion");
	t->version = g_strstrip(g_strdup(ve ? ve->value : t->type == TGT_SHARED ? c->version : ""));
	if (*t->version && !config_version_ok(t->version)) {
		if (ve)
			cf_entry_error(err, ve, "invalid version '%s' (expected e.g. 1.2.3)", t->version);
		else
			cg_error_at(err, t->loc.file, t->loc.line,
				    "target '%s': [project] version '%s' is not a library version (expected e.g. 1.2.3; "
				    "give the target its own version)", t->name, t->version);
		return FALSE;
	}
	if (se) {
		t->soversion = g_strstrip(g_strdup(se->value));
		if (!config_version_ok(t->soversion)) {
			cf_entry_error(err, se, "invalid soversion '%s' (expected e.g. 1)", t->soversion);
			return FALSE;
		}
	} else {
		/* the major version: up to the first '.', or to '+' (build
		 * metadata, "1+git_abc") or '_' where there is no dot */
		t->soversion = g_strndup(t->version, strcspn(t->version, ".+_"));
		if (!*t->soversion) {
			g_free(t->soversion);
			t->soversion = g_strdup(t->version);
		}
	}
	if ((ve || se) && t->type != TGT_SHARED) {
		cf_entry_error(err, ve ? ve : se, "%s is for shared libraries; target '%s' is %s", ve ? "version" : "soversion",
			       t->name, target_type_name(t->type));
		return FALSE;
	}
	if (se && !*t->version) {
		cf_entry_error(err, se, "soversion needs a version (version = ..., or [project] version)");
		return FALSE;
	}
	return cf_read_headers(c, t, s, err);
}

void cf_install_free(Config *c)
{
	g_free(c->prefix);
	g_free(c->bindir);
	g_free(c->libdir);
	g_free(c->includedir);
	g_free(c->datadir);
}

char *target_real_name(const Target *t)
{
	if (t->type != TGT_SHARED || !t->version || !*t->version)
		return target_output_name(t);
	return g_strdup_printf("lib%s.so.%s", t->output_name, t->version);
}

char *target_soname(const Target *t)
{
	if (t->type != TGT_SHARED || !t->version || !*t->version)
		return target_output_name(t);
	return g_strdup_printf("lib%s.so.%s", t->output_name, t->soversion);
}

char *target_output_name(const Target *t)
{
	switch (t->type) {
	case TGT_EXECUTABLE: return g_strdup(t->output_name);
	case TGT_STATIC: return g_strdup_printf("lib%s.a", t->output_name);
	case TGT_SHARED: return g_strdup_printf("lib%s.so", t->output_name);
	case TGT_OBJECT: return NULL;
	}
	return NULL;
}

/* No two targets may write the same file, nor be named like another's. */
gboolean cf_check_outputs(Config *c, GError **err)
{
	GHashTable *writer = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	gboolean ok = TRUE;
	for (guint i = 0; ok && i < c->targets->len; i++) {
		Target *t = g_ptr_array_index(c->targets, i);
		char *out = target_output_name(t);
		if (!out)
			continue;
		Target *o = g_hash_table_lookup(writer, out);
		if (o) {
			cg_error_at(err, t->loc.file, t->loc.line, "target '%s' writes '%s', which target '%s' (line %d) also writes",
				    t->name, out, o->name, o->loc.line);
			ok = FALSE;
			g_free(out);
		} else {
			g_hash_table_insert(writer, out, t);
		}
	}
	for (guint i = 0; ok && i < c->targets->len; i++) {
		Target *t = g_ptr_array_index(c->targets, i);
		Target *w = g_hash_table_lookup(writer, t->name);
		if (w && w != t) {
			Target *first = w->index < t->index ? w : t, *second = w->index < t->index ? t : w;
			if (second == w)
				cg_error_at(err, second->loc.file, second->loc.line,
					    "target '%s' writes '%s', the name of target '%s' (line %d)",
					    second->name, t->name, first->name, first->loc.line);
			else
				cg_error_at(err, second->loc.file, second->loc.line,
					    "target '%s' is named like the file '%s' that target '%s' (line %d) writes",
					    second->name, t->name, first->name, first->loc.line);
			ok = FALSE;
		}
	}
	/* a data file copied where a target writes (data/x.txt under the
	 * program 'data', or over it): one of the two would be lost */
	for (guint i = 0; ok && i < c->targets->len; i++) {
		Target *t = g_ptr_array_index(c->targets, i);
		for (guint k = 0; ok && k < t->data->len; k++) {
			const char *rel = g_ptr_array_index(t->data, k);
			char *first = g_strndup(rel, strcspn(rel, "/"));
			Target *w = g_hash_table_lookup(writer, first);
			if (w)
				cg_error_at(err, t->loc.file, t->loc.line,
					    "data file '%s' of target '%s' would be copied %s '%s', which target '%s' "
					    "(line %d) writes",
					    rel, t->name, strcmp(first, rel) == 0 ? "over" : "into", first, w->name,
					    w->loc.line);
			ok = !w;
			g_free(first);
		}
	}
	g_hash_table_destroy(writer);
	return ok;
}
