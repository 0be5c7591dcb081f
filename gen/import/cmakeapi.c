/* cmakeapi.c -- configuring a CMake project in a scratch directory and
 * reading its File API reply; see cmakeapi.h. */
#include "cmakeapi.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "safepath.h"
#include "spawn.h"
#include "template.h"
#include "util.h"

/* ---- reading JSON without trusting its shape ---- */

static JsonObject *obj_member(JsonObject *o, const char *k)
{
	JsonNode *n = o ? json_object_get_member(o, k) : NULL;
	return n && JSON_NODE_HOLDS_OBJECT(n) ? json_node_get_object(n) : NULL;
}

static JsonArray *arr_member(JsonObject *o, const char *k)
{
	JsonNode *n = o ? json_object_get_member(o, k) : NULL;
	return n && JSON_NODE_HOLDS_ARRAY(n) ? json_node_get_array(n) : NULL;
}

static const char *str_member(JsonObject *o, const char *k)
{
	JsonNode *n = o ? json_object_get_member(o, k) : NULL;
	return n && JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) == G_TYPE_STRING
		? json_node_get_string(n) : NULL;
}

static gint64 int_member(JsonObject *o, const char *k, gint64 dflt)
{
	JsonNode *n = o ? json_object_get_member(o, k) : NULL;
	return n && JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) == G_TYPE_INT64
		? json_node_get_int(n) : dflt;
}

static gboolean bool_member(JsonObject *o, const char *k)
{
	JsonNode *n = o ? json_object_get_member(o, k) : NULL;
	return n && JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) == G_TYPE_BOOLEAN
		&& json_node_get_boolean(n);
}

static JsonObject *arr_obj(JsonArray *a, guint i)
{
	JsonNode *n = a && i < json_array_get_length(a) ? json_array_get_element(a, i) : NULL;
	return n && JSON_NODE_HOLDS_OBJECT(n) ? json_node_get_object(n) : NULL;
}

static const char *arr_str(JsonArray *a, gint64 i)
{
	JsonNode *n = a && i >= 0 && i < json_array_get_length(a) ? json_array_get_element(a, (guint)i) : NULL;
	return n && JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) == G_TYPE_STRING
		? json_node_get_string(n) : NULL;
}

/* How deep a JSON text nests its arrays and objects (outside strings),
 * G_MAXSIZE when its brackets do not balance: json-glib's parser
 * recurses once a level, so a hostile reply could exhaust the stack. */
#define MAX_JSON_DEPTH 256
static gsize json_depth(const char *s, gsize n)
{
	gsize depth = 0, most = 0;
	gboolean str = FALSE;
	for (gsize i = 0; i < n; i++) {
		char c = s[i];
		if (str) {
			if (c == '\\')
				i++;
			else if (c == '"')
				str = FALSE;
		} else if (c == '"') {
			str = TRUE;
		} else if (c == '[' || c == '{') {
			depth++;
			most = MAX(most, depth);
		} else if (c == ']' || c == '}') {
			if (!depth--)
				return G_MAXSIZE;
		}
	}
	return depth ? G_MAXSIZE : most;
}

/* The reply file's root object (the parser is kept in *keep). */
static JsonObject *load(const char *dir, const char *file, JsonParser **keep, GError **err)
{
	if (!file || strchr(file, '/')) {
		cg_error(err, "the CMake File API reply in %s names no file where one is expected", dir);
		return NULL;
	}
	char *path = g_build_filename(dir, file, NULL);
	JsonParser *p = json_parser_new();
	GError *e = NULL;
	gsize len = 0;
	char *data = cg_read_regular(path, (gsize)256 << 20, TRUE, &len, &e);
	gsize depth = data ? json_depth(data, len) : 0;
	gboolean bad = TRUE;
	if (!data) {
		const char *m = e ? e->message : "?";
		cg_error(err, "cannot read CMake's File API reply %s: %s", path,
			 g_str_has_prefix(m, "error: ") ? m + 7 : m);
	} else if (depth == G_MAXSIZE) {
		cg_error(err, "cannot read CMake's File API reply %s: its brackets do not balance", path);
	} else if (depth > MAX_JSON_DEPTH) {
		cg_error(err, "cannot read CMake's File API reply %s: it nests %" G_GSIZE_FORMAT " levels deep (at "
			      "most %d)", path, depth, MAX_JSON_DEPTH);
	} else if (!json_parser_load_from_data(p, data, (gssize)len, &e) ||
		   !JSON_NODE_HOLDS_OBJECT(json_parser_get_root(p))) {
		cg_error(err, "cannot read CMake's File API reply %s: %s", path, e ? e->message : "not an object");
	} else {
		bad = FALSE;
	}
	g_clear_error(&e);
	g_free(data);
	if (bad) {
		g_object_unref(p);
		g_free(path);
		return NULL;
	}
	g_free(path);
	*keep = p;
	return json_node_get_object(json_parser_get_root(p));
}

/* ---- backtraces ---- */

static void where_of(JsonObject *graph, gint64 index, CmWhere *w)
{
	JsonArray *nodes = arr_member(graph, "nodes");
	JsonArray *files = arr_member(graph, "files");
	JsonArray *cmds = arr_member(graph, "commands");
	gboolean first = TRUE;
	memset(w, 0, sizeof *w);
	for (int hops = 0; index >= 0 && hops < 256; hops++) {
		JsonObject *n = arr_obj(nodes, (guint)index);
		if (!n)
			break;
		const char *file = arr_str(files, int_member(n, "file", -1));
		gint64 parent = int_member(n, "parent", -1);
		const char *cmd = arr_str(cmds, int_member(n, "command", -1));
		if (first && file)
			w->in_module = g_path_is_absolute(file);
		first = FALSE;
		/* the first frame with a command in a project file */
		if (file && cmd && !g_path_is_absolute(file)) {
			g_free(w->file);
			g_free(w->command);
			w->file = g_strdup(file);
			w->line = (int)int_member(n, "line", 0);
			w->command = g_strdup(cmd);
			return;
		}
		if (file && cmd && !w->file) {
			w->file = g_strdup(file);
			w->line = (int)int_member(n, "line", 0);
			w->command = g_strdup(cmd);
		}
		index = parent;
	}
}

static void where_clear(CmWhere *w)
{
	g_free(w->file);
	g_free(w->command);
}

/* ---- the model ---- */

static void source_free(gpointer p)
{
	CmSource *s = p;
	g_free(s->path);
	g_free(s->lang);
	where_clear(&s->where);
	g_free(s);
}

static void where_free(gpointer p)
{
	where_clear(p);
	g_free(p);
}

static void group_free(gpointer p)
{
	CmGroup *g = p;
	g_free(g->lang);
	g_ptr_array_unref(g->flags);
	g_ptr_array_unref(g->includes);
	g_ptr_array_unref(g->include_where);
	g_ptr_array_unref(g->defines);
	g_free(g->std);
	g_free(g);
}

static void link_free(gpointer p)
{
	CmLink *l = p;
	g_free(l->fragment);
	g_free(l->role);
	where_clear(&l->where);
	g_free(l);
}

static void install_free(gpointer p)
{
	CmInstall *i = p;
	g_free(i->type);
	g_free(i->destination);
	g_ptr_array_unref(i->paths);
	g_ptr_array_unref(i->to);
	g_free(i->target);
	where_clear(&i->where);
	g_free(i);
}

static void target_free(gpointer p)
{
	CmTarget *t = p;
	g_free(t->name);
	g_free(t->id);
	g_free(t->type);
	g_free(t->name_on_disk);
	where_clear(&t->where);
	g_ptr_array_unref(t->sources);
	g_ptr_array_unref(t->groups);
	g_ptr_array_unref(t->links);
	g_ptr_array_unref(t->deps);
	g_ptr_array_unref(t->objects);
	g_hash_table_unref(t->props);
	g_free(t);
}

void cm_project_free(CmProject *p)
{
	if (!p)
		return;
	g_free(p->srcdir);
	g_free(p->builddir);
	g_free(p->name);
	g_free(p->version);
	g_free(p->cmake_version);
	g_free(p->cuda_root);
	g_hash_table_unref(p->cache);
	g_ptr_array_unref(p->targets);
	g_ptr_array_unref(p->installs);
	g_hash_table_unref(p->imported);
	g_ptr_array_unref(p->implicit_includes);
	g_ptr_array_unref(p->implicit_links);
	g_free(p);
}

const char *cm_prop(const CmTarget *t, const char *name)
{
	return g_hash_table_lookup(t->props, name);
}

const char *cm_cache(const CmProject *p, const char *name)
{
	const char *v = g_hash_table_lookup(p->cache, name);
	return v ? v : "";
}

gboolean cm_true(const char *v)
{
	if (!v || !*v)
		return FALSE;
	static const char *const yes[] = { "1", "ON", "YES", "TRUE", "Y" };
	for (gsize i = 0; i < G_N_ELEMENTS(yes); i++)
		if (g_ascii_strcasecmp(v, yes[i]) == 0)
			return TRUE;
	char *end = NULL;
	double d = g_ascii_strtod(v, &end);
	return end && !*end && end != v && d != 0;
}

/* A path of the reply: absolute as it is, else relative to base. */
static char *abs_in(const char *base, const char *path)
{
	return g_path_is_absolute(path) ? cg_path_norm(path) : cg_path_join(base, path);
}

static CmGroup *read_group(JsonObject *o, JsonObject *graph)
{
	CmGroup *g = g_new0(CmGroup, 1);
	g->lang = g_strdup(str_member(o, "language"));
	g->flags = g_ptr_array_new_with_free_func(g_free);
	g->includes = g_ptr_array_new_with_free_func(g_free);
	g->include_where = g_ptr_array_new_with_free_func(where_free);
	g->defines = g_ptr_array_new_with_free_func(g_free);
	JsonArray *a = arr_member(o, "compileCommandFragments");
	for (guint i = 0; a && i < json_array_get_length(a); i++) {
		const char *f = str_member(arr_obj(a, i), "fragment");
		GPtrArray *words = g_ptr_array_new_with_free_func(g_free);
		if (f && cg_split_words(f, words, NULL))
			for (guint k = 0; k < words->len; k++)
				g_ptr_array_add(g->flags, g_strdup(g_ptr_array_index(words, k)));
		g_ptr_array_unref(words);
	}
	a = arr_member(o, "includes");
	for (guint i = 0; a && i < json_array_get_length(a); i++) {
		JsonObject *inc = arr_obj(a, i);
		const char *p = str_member(inc, "path");
		if (!p)
			continue;
		g_ptr_array_add(g->includes, cg_path_norm(p));
		CmWhere *w = g_new0(CmWhere, 1);
		where_of(graph, int_member(inc, "backtrace", -1), w);
		g_ptr_array_add(g->include_where, w);
	}
	a = arr_member(o, "defines");
	for (guint i = 0; a && i < json_array_get_length(a); i++) {
		const char *d = str_member(arr_obj(a, i), "define");
		if (d)
			g_ptr_array_add(g->defines, g_strdup(d));
	}
	g->std = g_strdup(str_member(obj_member(o, "languageStandard"), "standard"));
	JsonArray *si = arr_member(o, "sourceIndexes");
	g->nsources = si ? json_array_get_length(si) : 0;
	return g;
}

static CmTarget *target_new(void)
{
	CmTarget *t = g_new0(CmTarget, 1);
	t->sources = g_ptr_array_new_with_free_func(source_free);
	t->groups = g_ptr_array_new_with_free_func(group_free);
	t->links = g_ptr_array_new_with_free_func(link_free);
	t->deps = g_ptr_array_new_with_free_func(g_free);
	t->objects = g_ptr_array_new_with_free_func(g_free);
	t->props = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	return t;
}

static CmTarget *read_target(CmProject *p, JsonObject *o, GHashTable *id_names)
{
	CmTarget *t = target_new();
	JsonObject *graph = obj_member(o, "backtraceGraph");
	t->name = g_strdup(str_member(o, "name"));
	t->id = g_strdup(str_member(o, "id"));
	t->type = g_strdup(str_member(o, "type"));
	t->name_on_disk = g_strdup(str_member(o, "nameOnDisk"));
	t->generator_provided = bool_member(o, "isGeneratorProvided");
	where_of(graph, int_member(o, "backtrace", -1), &t->where);
	JsonArray *a = arr_member(o, "compileGroups");
	for (guint i = 0; a && i < json_array_get_length(a); i++)
		g_ptr_array_add(t->groups, read_group(arr_obj(a, i), graph));
	a = arr_member(o, "sources");
	for (guint i = 0; a && i < json_array_get_length(a); i++) {
		JsonObject *so = arr_obj(a, i);
		const char *path = str_member(so, "path");
		if (!path)
			continue;
		CmSource *s = g_new0(CmSource, 1);
		s->path = abs_in(p->srcdir, path);
		s->group = (int)int_member(so, "compileGroupIndex", -1);
		if (s->group >= (int)t->groups->len)
			s->group = -1;
		if (s->group >= 0)
			s->lang = g_strdup(((CmGroup *)g_ptr_array_index(t->groups, s->group))->lang);
		s->generated = bool_member(so, "isGenerated");
		where_of(graph, int_member(so, "backtrace", -1), &s->where);
		g_ptr_array_add(t->sources, s);
	}
	a = arr_member(o, "artifacts");
	for (guint i = 0; a && !g_strcmp0(t->type, "OBJECT_LIBRARY") && i < json_array_get_length(a); i++) {
		const char *path = str_member(arr_obj(a, i), "path");
		if (path)
			g_ptr_array_add(t->objects, abs_in(p->builddir, path));
	}
	a = arr_member(obj_member(o, "link"), "commandFragments");
	for (guint i = 0; a && i < json_array_get_length(a); i++) {
		JsonObject *lo = arr_obj(a, i);
		const char *f = str_member(lo, "fragment");
		if (!f || !*f)
			continue;
		CmLink *l = g_new0(CmLink, 1);
		l->fragment = g_strdup(f);
		l->role = g_strdup(str_member(lo, "role"));
		where_of(graph, int_member(lo, "backtrace", -1), &l->where);
		g_ptr_array_add(t->links, l);
	}
	a = arr_member(o, "dependencies");
	for (guint i = 0; a && i < json_array_get_length(a); i++) {
		const char *name = g_hash_table_lookup(id_names, str_member(arr_obj(a, i), "id") ?: "");
		if (name)
			g_ptr_array_add(t->deps, g_strdup(name));
	}
	return t;
}

static void read_installs(CmProject *p, JsonObject *d, const char *source, GHashTable *id_names)
{
	JsonObject *graph = obj_member(d, "backtraceGraph");
	JsonArray *a = arr_member(d, "installers");
	(void)source; /* the paths are relative to the top directory */
	for (guint i = 0; a && i < json_array_get_length(a); i++) {
		JsonObject *o = arr_obj(a, i);
		CmInstall *in = g_new0(CmInstall, 1);
		in->type = g_strdup(str_member(o, "type") ? str_member(o, "type") : "?");
		in->destination = g_strdup(str_member(o, "destination") ? str_member(o, "destination") : "");
		in->paths = g_ptr_array_new_with_free_func(g_free);
		in->to = g_ptr_array_new_with_free_func(g_free);
		const char *id = str_member(o, "targetId");
		in->target = g_strdup(id ? g_hash_table_lookup(id_names, id) : NULL);
		where_of(graph, int_member(o, "backtrace", -1), &in->where);
		JsonArray *paths = arr_member(o, "paths");
		for (guint k = 0; paths && k < json_array_get_length(paths); k++) {
			JsonNode *n = json_array_get_element(paths, k);
			const char *from = NULL;
			if (JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) == G_TYPE_STRING)
				from = json_node_get_string(n);
			else if (JSON_NODE_HOLDS_OBJECT(n))
				from = str_member(json_node_get_object(n), "from");
			if (from) {
				g_ptr_array_add(in->paths, abs_in(p->srcdir, from));
				const char *to = JSON_NODE_HOLDS_OBJECT(n) ? str_member(json_node_get_object(n), "to") : NULL;
				g_ptr_array_add(in->to, g_strdup(to ? to : "."));
			}
		}
		g_ptr_array_add(p->installs, in);
	}
}

/* import-props.cmake's lines: "project", "version", "var" NAME=VALUE
 * (over the cache's entry), then per "target" its "PROPERTY<tab>VALUE"
 * lines. */
static void read_props(CmProject *p, const char *path)
{
	char *text = NULL;
	if (!g_file_get_contents(path, &text, NULL, NULL))
		return;
	GHashTable *props = NULL;
	char **lines = g_strsplit(text, "\n", -1);
	for (char **l = lines; *l; l++) {
		char *tab = strchr(*l, '\t');
		if (!tab)
			continue;
		*tab = 0;
		const char *k = *l, *v = tab + 1;
		if (strcmp(k, "project") == 0) {
			g_free(p->name);
			p->name = g_strdup(v);
		} else if (strcmp(k, "version") == 0) {
			g_free(p->version);
			p->version = g_strdup(v);
		} else if (strcmp(k, "var") == 0 && strchr(v, '=')) {
			/* the value the top directory's targets see: a
			 * variable set in CMakeLists.txt hides the cache's */
			const char *eq = strchr(v, '=');
			g_hash_table_replace(p->cache, g_strndup(v, eq - v), g_strdup(eq + 1));
		} else if (strcmp(k, "imported") == 0) {
			CmTarget *t = g_hash_table_lookup(p->imported, v);
			if (!t) {
				t = target_new();
				t->name = g_strdup(v);
				t->type = g_strdup("IMPORTED");
				g_hash_table_insert(p->imported, t->name, t);
			}
			props = t->props;
		} else if (strcmp(k, "target") == 0) {
			props = NULL;
			for (guint i = 0; i < p->targets->len; i++) {
				CmTarget *t = g_ptr_array_index(p->targets, i);
				if (strcmp(t->name, v) == 0)
					props = t->props;
			}
			if (!props) {
				/* an interface library: in the codemodel only from
				 * CMake 3.26's on */
				CmTarget *t = target_new();
				t->name = g_strdup(v);
				g_ptr_array_add(p->targets, t);
				props = t->props;
			}
		} else if (props) {
			g_hash_table_replace(props, g_strdup(k), g_strdup(v));
		}
	}
	g_strfreev(lines);
	g_free(text);
	for (guint i = 0; i < p->targets->len; i++) {
		CmTarget *t = g_ptr_array_index(p->targets, i);
		if (!t->type)
			t->type = g_strdup(cm_prop(t, "TYPE") ? cm_prop(t, "TYPE") : "UTILITY");
	}
}

static gboolean read_reply(CmProject *p, const char *dump, GError **err)
{
	char *dir = g_build_filename(p->builddir, ".cmake", "api", "v1", "reply", NULL);
	GDir *d = g_dir_open(dir, 0, NULL);
	char *index = NULL;
	for (const char *n; d && (n = g_dir_read_name(d));)
		if (g_str_has_prefix(n, "index-") && g_str_has_suffix(n, ".json") && (!index || strcmp(n, index) > 0)) {
			g_free(index);
			index = g_strdup(n);
		}
	if (d)
		g_dir_close(d);
	JsonParser *ip = NULL, *cp = NULL, *kp = NULL, *tp = NULL;
	gboolean ok = FALSE;
	if (!index) {
		cg_error(err, "cmake wrote no File API reply in %s (CMake 3.14 or newer answers it)", dir);
		goto out;
	}
	JsonObject *io = load(dir, index, &ip, err);
	if (!io)
		goto out;
	p->cmake_version = g_strdup(str_member(obj_member(obj_member(io, "cmake"), "version"), "string"));
	JsonObject *reply = obj_member(io, "reply");
	JsonObject *co = load(dir, str_member(obj_member(reply, "codemodel-v2"), "jsonFile"), &cp, err);
	if (!co)
		goto out;
	JsonObject *ko = load(dir, str_member(obj_member(reply, "cache-v2"), "jsonFile"), &kp, err);
	if (!ko)
		goto out;
	JsonArray *entries = arr_member(ko, "entries");
	for (guint i = 0; entries && i < json_array_get_length(entries); i++) {
		JsonObject *e = arr_obj(entries, i);
		if (str_member(e, "name") && str_member(e, "value"))
			g_hash_table_replace(p->cache, g_strdup(str_member(e, "name")), g_strdup(str_member(e, "value")));
	}
	JsonObject *to = load(dir, str_member(obj_member(reply, "toolchains-v1"), "jsonFile"), &tp, err);
	if (!to)
		goto out;
	JsonArray *chains = arr_member(to, "toolchains");
	for (guint i = 0; chains && i < json_array_get_length(chains); i++) {
		JsonObject *c = obj_member(arr_obj(chains, i), "compiler");
		const char *lang = str_member(arr_obj(chains, i), "language");
		JsonArray *incs = arr_member(obj_member(c, "implicit"), "includeDirectories");
		for (guint k = 0; incs && k < json_array_get_length(incs); k++)
			if (arr_str(incs, k))
				g_ptr_array_add(p->implicit_includes, cg_path_norm(arr_str(incs, k)));
		JsonArray *links = arr_member(obj_member(c, "implicit"), "linkDirectories");
		for (guint k = 0; links && k < json_array_get_length(links); k++)
			if (arr_str(links, k))
				g_ptr_array_add(p->implicit_links, cg_path_norm(arr_str(links, k)));
		const char *path = str_member(c, "path");
		if (lang && strcmp(lang, "CUDA") == 0 && path && g_path_is_absolute(path)) {
			char *real = realpath(path, NULL);
			char *bin = g_path_get_dirname(real ? real : path);
			p->cuda_root = g_path_get_dirname(bin);
			g_free(bin);
			free(real);
		}
	}
	/* the first configuration: a single-config generator has one */
	JsonObject *conf = arr_obj(arr_member(co, "configurations"), 0);
	JsonArray *targets = arr_member(conf, "targets");
	GHashTable *id_names = g_hash_table_new(g_str_hash, g_str_equal);
	for (guint i = 0; targets && i < json_array_get_length(targets); i++) {
		JsonObject *t = arr_obj(targets, i);
		if (str_member(t, "id") && str_member(t, "name"))
			g_hash_table_insert(id_names, (char *)str_member(t, "id"), (char *)str_member(t, "name"));
	}
	ok = TRUE;
	JsonArray *dirs = arr_member(conf, "directories");
	for (guint i = 0; ok && dirs && i < json_array_get_length(dirs); i++) {
		const char *file = str_member(arr_obj(dirs, i), "jsonFile");
		JsonParser *one = NULL;
		JsonObject *d = file ? load(dir, file, &one, err) : NULL;
		if (file && !d) {
			ok = FALSE;
			break;
		}
		if (d)
			read_installs(p, d, str_member(arr_obj(dirs, i), "source"), id_names);
		if (one)
			g_object_unref(one);
	}
	for (guint i = 0; ok && targets && i < json_array_get_length(targets); i++) {
		JsonParser *one = NULL;
		JsonObject *t = load(dir, str_member(arr_obj(targets, i), "jsonFile"), &one, err);
		if (!t) {
			ok = FALSE;
			break;
		}
		g_ptr_array_add(p->targets, read_target(p, t, id_names));
		g_object_unref(one);
	}
	g_hash_table_unref(id_names);
	if (ok)
		read_props(p, dump);
out:
	if (ip)
		g_object_unref(ip);
	if (cp)
		g_object_unref(cp);
	if (kp)
		g_object_unref(kp);
	if (tp)
		g_object_unref(tp);
	g_free(index);
	g_free(dir);
	return ok;
}

/* The last lines of what cmake printed, for the error. */
static char *tail_lines(const char *out, const char *errout, int n)
{
	GString *all = g_string_new(out ? out : "");
	if (errout && *errout)
		g_string_append(all, errout);
	char **lines = g_strsplit(all->str, "\n", -1);
	g_string_free(all, TRUE);
	guint len = g_strv_length(lines), k = 0;
	GString *t = g_string_new(NULL);
	for (guint i = 0; i < len; i++)
		if (*g_strstrip(lines[i]))
			k++;
	for (guint i = 0, seen = 0; i < len; i++)
		if (*lines[i] && ++seen + (guint)n > k)
			g_string_append_printf(t, "\n  %s", lines[i]);
	g_strfreev(lines);
	return g_string_free(t, FALSE);
}

char *cmake_scratch(GError **err)
{
	/* (swept after a killed import, as setup's probe directories) */
	char *scratch = cg_make_tmp_dir("cugen-import", NULL);
	if (!scratch)
		cg_error(err, "cannot make a scratch directory in %s", g_get_tmp_dir());
	return scratch;
}

CmProject *cmake_describe(const char *scratch, const char *srcdir, char **args, const char *more, GError **err)
{
	CmProject *p = g_new0(CmProject, 1);
	p->srcdir = cg_abspath(srcdir);
	p->builddir = g_build_filename(scratch, "build", NULL);
	p->cache = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	p->targets = g_ptr_array_new_with_free_func(target_free);
	p->installs = g_ptr_array_new_with_free_func(install_free);
	p->imported = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, target_free);
	p->implicit_includes = g_ptr_array_new_with_free_func(g_free);
	p->implicit_links = g_ptr_array_new_with_free_func(g_free);
	char *query = g_build_filename(p->builddir, ".cmake", "api", "v1", "query", NULL);
	char *script = g_build_filename(scratch, "import-props.cmake", NULL);
	char *dump = g_build_filename(scratch, "props.txt", NULL);
	char *text = template_text("import-props.cmake");
	gboolean ok = g_mkdir_with_parents(query, 0700) == 0 && g_file_set_contents(script, text, -1, NULL);
	static const char *const kinds[] = { "codemodel-v2", "cache-v2", "toolchains-v1" };
	for (gsize i = 0; ok && i < G_N_ELEMENTS(kinds); i++) {
		char *q = g_build_filename(query, kinds[i], NULL);
		ok = g_file_set_contents(q, "", 0, NULL);
		g_free(q);
	}
	g_free(text);
	if (!ok) {
		cg_error(err, "cannot write the File API query in %s", scratch);
		goto fail;
	}
	char *out = NULL, *errout = NULL;
	/* (again without the global imported targets where the project
	 * cannot have them: a package found twice in sibling directories) */
	for (int global = 1; global >= 0; global--) {
		g_free(out);
		g_free(errout);
		out = errout = NULL;
		GPtrArray *argv = g_ptr_array_new_with_free_func(g_free);
		g_ptr_array_add(argv, g_strdup("cmake"));
		g_ptr_array_add(argv, g_strdup("-S"));
		g_ptr_array_add(argv, g_strdup(p->srcdir));
		g_ptr_array_add(argv, g_strdup("-B"));
		g_ptr_array_add(argv, g_strdup(p->builddir));
		gboolean generator = FALSE;
		for (char **a = args; a && *a; a++)
			generator |= g_str_has_prefix(*a, "-G");
		char *ninja = g_find_program_in_path("ninja");
		if (!generator && ninja) {
			g_ptr_array_add(argv, g_strdup("-G"));
			g_ptr_array_add(argv, g_strdup("Ninja"));
		}
		g_free(ninja);
		g_ptr_array_add(argv, g_strconcat("-DCMAKE_PROJECT_INCLUDE=", script, NULL));
		g_ptr_array_add(argv, g_strconcat("-DCUGEN_IMPORT_DUMP=", dump, NULL));
		/* a find_package in a subdirectory makes imported targets only
		 * it sees (ggml's OpenMP::OpenMP_CXX, NCCL::NCCL): global, the
		 * dump at the top directory's end reads what they link (CMake
		 * >= 3.24; the project's own -D comes after and wins) */
		g_ptr_array_add(argv, g_strdup_printf("-DCMAKE_FIND_PACKAGE_TARGETS_GLOBAL=%s", global ? "ON" : "OFF"));
		for (char **a = args; a && *a; a++)
			g_ptr_array_add(argv, g_strdup(*a));
		if (more)
			g_ptr_array_add(argv, g_strdup(more));
		g_ptr_array_add(argv, NULL);
		int status = 0;
		GError *e = NULL;
		ok = cg_spawn_bounded(scratch, (const char *const *)argv->pdata, G_SPAWN_SEARCH_PATH, &out, &errout,
				      &status, &e);
		g_ptr_array_unref(argv);
		if (!ok) {
			cg_error(err, "cannot run cmake: %s", e->message);
			g_error_free(e);
			break;
		}
		if (g_spawn_check_wait_status(status, NULL)) {
			ok = read_reply(p, dump, err);
			break;
		}
		if (!global) {
			char *t = tail_lines(out, errout, 12);
			cg_error(err, "cmake could not configure %s; it said:%s", p->srcdir, t);
			g_free(t);
			ok = FALSE;
		}
	}
	g_free(out);
	g_free(errout);
fail:
	g_free(query);
	g_free(script);
	g_free(dump);
	if (!ok) {
		cm_project_free(p);
		return NULL;
	}
	return p;
}
