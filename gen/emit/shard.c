/* shard.c -- shard specs, the hashes in them, and a manifest read and
 * checked; see shard.h (run/manifest.c writes manifests and imports). */
#include "shard.h"

#include <stdio.h>
#include <string.h>

#include "safepath.h"
#include "util.h"
#include "version.h"

char *shard_rule_text(const Rule *r, const char *cugen, const Places *p)
{
	return reloc_rule_text(r->canon ? r->canon : r->command, cugen, p);
}

char *shard_rule_hash(const char *text)
{
	return g_compute_checksum_for_string(G_CHECKSUM_SHA256, text, -1);
}

char **shard_image_files(const Edge *e)
{
	GPtrArray *v = g_ptr_array_new();
	for (guint j = 0; j < EDGE_LEN(e->outs); j++)
		g_ptr_array_add(v, g_strdup(EDGE_AT(e->outs, j)));
	for (guint j = 0; j < EDGE_LEN(e->implicit_outs); j++)
		g_ptr_array_add(v, g_strdup(EDGE_AT(e->implicit_outs, j)));
	if (e->image_in)
		g_ptr_array_add(v, g_strdup(e->image_in));
	g_ptr_array_add(v, NULL);
	return (char **)g_ptr_array_free(v, FALSE);
}

char *shard_image_stub(const Edge *e)
{
	return g_strdup_printf("%s/%s.stub.c", edge_get_var(e, "O"), strchr(e->arch, '_') + 1);
}

const char *shard_file_hash(GHashTable *cache, const char *path)
{
	const char *h = g_hash_table_lookup(cache, path);
	if (h)
		return h;
	gsize len = 0;
	char *data = NULL;
	if (!g_file_get_contents(path, &data, &len, NULL))
		return NULL;
	char *sum = cg_hash_hex(data, len);
	g_free(data);
	g_hash_table_insert(cache, g_strdup(path), sum);
	return sum;
}

/* A value as GKeyFile writes it (and reads it back): backslash, control
 * characters and spaces escaped; in a list, ';' too, each item ending
 * with ';'. */
static void spec_value(GString *o, const char *v, gboolean item)
{
	gsize plain = strcspn(v, "\\\n\t\r ;");
	if (!v[plain]) {
		cg_put(o, v, plain);
		if (item)
			cg_put(o, ";", 1);
		return;
	}
	for (const char *p = v; *p; p++)
		switch (*p) {
		case '\\': g_string_append(o, "\\\\"); break;
		case '\n': g_string_append(o, "\\n"); break;
		case '\t': g_string_append(o, "\\t"); break;
		case '\r': g_string_append(o, "\\r"); break;
		case ' ': g_string_append(o, "\\s"); break;
		case ';':
			if (item) {
				g_string_append(o, "\\;");
				break;
			}
			/* fall through */
		default: g_string_append_c(o, *p);
		}
	if (item)
		g_string_append_c(o, ';');
}

/* The same for a string the graph interned: a plain one as it is. */
static void spec_ivalue(GString *o, const char *v, gboolean item)
{
	const GraphStr *h = graph_str(v);
	if (!h->plain) {
		spec_value(o, v, item);
		return;
	}
	cg_put(o, v, h->len);
	if (item)
		cg_put(o, ";", 1);
}

static void spec_key(GString *o, const char *key, const char *value)
{
	cg_puts(o, key);
	cg_put(o, "=", 1);
	spec_value(o, value, FALSE);
	cg_put(o, "\n", 1);
}

/* Written directly, not through GKeyFile: at 10,000 TUs x 7 archs that
 * took most of setup's time. One rule hash per rule, not per edge. */
GString *shard_spec_part(const GPtrArray *edges, const Toolkit *tk, const ShardBuild *b, guint from, guint to,
			 gboolean header)
{
	/* the first part has room for the others, appended to it, and the
	 * seal (no regrowth: a copy of 13 MB at 10,000 TUs) */
	GString *o = g_string_sized_new(256 + (header ? edges->len : to - from) * 160u);
	if (header) {
		g_string_append(o, "[shard]\n");
		spec_key(o, "cugen_version", cugen_version());
		spec_key(o, "toolkit", tk->version);
		spec_key(o, "host_compiler", tk->host_cc);
		spec_key(o, "host_version", tk->host_version);
		spec_key(o, "arch_set", b->arch_set);
		spec_key(o, "source_dir", b->places.src);
		spec_key(o, "build_dir", b->places.build);
	}
	char *self = g_file_read_link("/proc/self/exe", NULL);
	GHashTable *hashes = g_hash_table_new_full(NULL, NULL, NULL, g_free);
	GString *rules = g_string_new(NULL);
	for (guint i = from; i < to; i++) {
		Edge *e = g_ptr_array_index(edges, i);
		if (e->kind != EK_DEV || !e->arch)
			continue;
		const char *O = edge_get_var(e, "O");
		cg_put(o, "\n[", 2);
		cg_put(o, EDGE_AT(e->outs, 0), graph_str(EDGE_AT(e->outs, 0))->len);
		cg_put(o, "]\n", 2);
		spec_key(o, "tu", e->source ? e->source : "");
		spec_key(o, "arch", e->arch);
		cg_puts(o, "files=");
		for (guint j = 0; j < EDGE_LEN(e->outs); j++)
			spec_ivalue(o, EDGE_AT(e->outs, j), TRUE);
		for (guint j = 0; j < EDGE_LEN(e->implicit_outs); j++)
			spec_ivalue(o, EDGE_AT(e->implicit_outs, j), TRUE);
		if (e->image_in) /* a ptxas edge's PTX, embedded too: as a whole edge's */
			spec_ivalue(o, e->image_in, TRUE);
		cg_put(o, "\n", 1);
		char *rh = g_hash_table_lookup(hashes, e->rule);
		if (!rh) {
			char *text = shard_rule_text(e->rule, self ? self : "cugen", &b->places);
			rh = shard_rule_hash(text);
			g_hash_table_insert(hashes, e->rule, rh);
			g_string_append_printf(rules, "\n[rule %s]\n", rh);
			spec_key(rules, "command", text);
			g_free(text);
		}
		spec_key(o, "rule", rh);
		if (e->rule->split_compile > 1) {
			/* the same rule hash, other code: say so */
			char n[16];
			g_snprintf(n, sizeof n, "%d", e->rule->split_compile);
			spec_key(o, "split_compile", n);
		}
		/* (its depfile, stub and module id file are named by the
		 * group and its arch: shard_spec_file) */
		const char *img = EDGE_AT(e->outs, 0);
		g_assert(g_str_has_prefix(img, O) && img[strlen(O)] == '/' && !strchr(img + strlen(O) + 1, '/'));
	}
	g_string_append_len(o, rules->str, (gssize)rules->len);
	g_string_free(rules, TRUE);
	g_hash_table_destroy(hashes);
	g_free(self);
	return o;
}

/* Of the names an image's group holds (the group's own, its files, the
 * values of keys), the first that is no path below the build directory
 * (cg_rel_ok), copied; NULL when all are. The setup's spec and a shard's
 * manifest share it. */
static char *bad_name(GKeyFile *k, const char *grp, const char *const *keys)
{
	if (!cg_rel_ok(grp))
		return g_strdup(grp);
	char *bad = NULL;
	gsize nf = 0;
	char **files = g_key_file_get_string_list(k, grp, "files", &nf, NULL);
	for (gsize j = 0; !bad && j < nf; j++)
		if (!cg_rel_ok(files[j]))
			bad = g_strdup(files[j]);
	g_strfreev(files);
	for (gsize i = 0; !bad && keys[i]; i++) {
		char *v = g_key_file_get_string(k, grp, keys[i], NULL);
		if (v && !cg_rel_ok(v))
			bad = v;
		else
			g_free(v);
	}
	return bad;
}

/* Every name a manifest gives must be below BUILDDIR (checked again
 * against this build's own names when imported: to_import). */
static gboolean manifest_names_ok(GKeyFile *m, const char *dir, GError **err)
{
	gsize ng = 0;
	char **groups = g_key_file_get_groups(m, &ng);
	gboolean ok = TRUE;
	for (gsize i = 0; ok && i < ng; i++) {
		if (strcmp(groups[i], "shard") == 0 || g_str_has_prefix(groups[i], SHARD_RULE_GROUP))
			continue;
		static const char *const keys[] = { "stub", NULL };
		char *bad = bad_name(m, groups[i], keys);
		if (bad) {
			char *shown = g_strescape(bad, NULL);
			cg_error(err, "shard '%s': manifest.ini: image '%s' names '%.200s', which is not a path "
				      "below the build directory: refused",
				 dir, g_utf8_validate(groups[i], -1, NULL) ? groups[i] : "?", shown);
			g_free(shown);
			ok = FALSE;
		}
		g_free(bad);
	}
	g_strfreev(groups);
	return ok;
}

gboolean shard_manifest_load(GKeyFile *m, const char *text, gsize len, const char *dir, GError **err)
{
	/* a damaged or foreign file is named, not echoed */
	gboolean ok = g_utf8_validate(text, (gssize)len, NULL) && !memchr(text, 0, len) &&
		      g_key_file_load_from_data(m, text, len, G_KEY_FILE_NONE, NULL);
	char *format = ok ? g_key_file_get_string(m, "shard", "format", NULL) : NULL;
	if (!ok)
		cg_error(err, "shard '%s': manifest.ini is damaged or not a cugen shard manifest", dir);
	else if (!format)
		cg_error(err, "shard '%s': manifest.ini %s: build the shard with 'ninja shard'", dir,
			 len ? "has no [shard] format (not a cugen shard manifest)" : "is empty");
	else if (g_strcmp0(format, SHARD_FORMAT) != 0)
		cg_error(err, "shard '%s': manifest.ini is of format '%s', this cugen reads format %s: "
			      "build the shards with this cugen", dir, format ? format : "(none)", SHARD_FORMAT);
	ok = ok && g_strcmp0(format, SHARD_FORMAT) == 0 && manifest_names_ok(m, dir, err);
	g_free(format);
	return ok;
}

/* The group's own name and its files: all below BUILDDIR (its stub,
 * deps and id are checked where shard_spec_file names them). */
gboolean shard_spec_names_ok(GKeyFile *spec, const char *grp)
{
	static const char *const keys[] = { NULL };
	char *bad = bad_name(spec, grp, keys);
	gboolean ok = !bad;
	g_free(bad);
	return ok;
}

char *shard_spec_file(const char *grp, const char *arch, const char *what)
{
	const char *id = arch ? strchr(arch, '_') : NULL;
	if (!id || !id[1] || strchr(id, '/'))
		return NULL;
	char *dir = g_path_get_dirname(grp);
	char *f = strcmp(what, "id") == 0 ? g_strconcat(dir, "/id", NULL)
					  : g_strconcat(dir, "/", id + 1, strcmp(what, "deps") == 0 ? ".full.d" : ".stub.c", NULL);
	g_free(dir);
	if (!cg_rel_ok(f))
		g_clear_pointer(&f, g_free);
	return f;
}
