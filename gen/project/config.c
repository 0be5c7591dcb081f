/* config.c -- cugen.ini to a validated Config; see config.h.
 *
 * Three layers: (1) raw sections and entries with their line numbers
 * (ini.c); (2) the chosen [profile] and the -D overrides applied to the
 * raw entries; (3) validation into typed values (confval.c, sources.c,
 * and the targets, dependencies and profiles here). Every user mistake
 * becomes one "FILE:LINE: error: ..." message.
 */
#include "config_int.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <ini.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache.h"
#include "cudaflags.h"
#include "units.h"
#include "util.h"

static const char *const std_values[] = { "c++11", "c++14", "c++17", "c++20", "c++23", NULL };
static const char *const mode_values[] = { "whole", "rdc", NULL };
static const char *const split_values[] = { "auto", "arch", "tu", NULL };
const char *const cf_type_values[] = { "executable", "static", "shared", "object", NULL };
static const char *const modid_values[] = { "relative", "absolute", NULL };
static const char *const cudart_values[] = { "static", "shared", "none", NULL };

static gboolean read_target(Config *c, Section *s, GHashTable *owner, GError **err)
{
	Target *t = g_new0(Target, 1);
	t->name = g_strdup(s->name);
	t->loc = s->loc;
	t->index = c->targets->len;
	t->sources = g_ptr_array_new_with_free_func(cf_source_free);
	t->include = g_ptr_array_new_with_free_func(g_free);
	t->private_include = g_ptr_array_new_with_free_func(g_free);
	t->defines = g_ptr_array_new_with_free_func(g_free);
	t->public_defines = g_ptr_array_new_with_free_func(g_free);
	t->arch_defines = g_ptr_array_new_with_free_func(g_free);
	t->libs = g_ptr_array_new_with_free_func(g_free);
	t->private_libs = g_ptr_array_new_with_free_func(g_free);
	t->data = g_ptr_array_new_with_free_func(g_free);
	t->deps = g_ptr_array_new();
	g_ptr_array_add(c->targets, t);
	g_hash_table_insert(c->by_name, t->name, t);

	if (cf_in_list(t->name, cf_reserved_targets) || g_str_has_prefix(t->name, "arch-") || t->name[0] == '.') {
		char *names = g_strjoinv(", ", (char **)cf_reserved_targets);
		cg_error_at(err, s->loc.file, s->loc.line,
			    "target name '%s' is reserved (cugen and ninja use %s, arch-* and names starting "
			    "with '.' in the build directory)", t->name, names);
		g_free(names);
		return FALSE;
	}
	Entry *on = cf_find_entry(s, "output_name");
	t->output_name = g_strstrip(g_strdup(on ? on->value : t->name));
	if (on && (!cf_valid_name(t->output_name) || cf_in_list(t->output_name, cf_reserved_targets) ||
		   g_str_has_prefix(t->output_name, "arch-") || t->output_name[0] == '.')) {
		cf_entry_error(err, on, "invalid output_name '%s' (letters, digits, '_', '.', '+' and '-'; not a "
			       "name cugen or ninja uses in the build directory)", t->output_name);
		return FALSE;
	}
	int v;
	Entry *type = cf_find_entry(s, "type");
	if (!type) {
		cg_error_at(err, s->loc.file, s->loc.line, "target '%s' has no 'type' (executable, static, shared or object)", t->name);
		return FALSE;
	}
	if (!cf_get_choice(s, "type", cf_type_values, 0, &v, err))
		return FALSE;
	t->type = v;
	Entry *src = cf_find_entry(s, "sources"), *csrc = cf_find_entry(s, "cuda_sources");
	if (!src && !csrc) {
		cg_error_at(err, s->loc.file, s->loc.line, "target '%s' has no 'sources'", t->name);
		return FALSE;
	}
	Entry *asrc = cf_find_entry(s, "arch_sources"), *adef = cf_find_entry(s, "arch_defines");
	if ((src && !cf_read_sources(c, t, src, owner, err)) || (csrc && !cf_read_cuda_sources(c, t, csrc, owner, err)) ||
	    (asrc && !cf_read_arch_sources(c, t, asrc, owner, err)))
		return FALSE;

	if (!cf_read_includes(c, s, "include", t->include, err) ||
	    !cf_read_includes(c, s, "private_include", t->private_include, err))
		return FALSE;
	if (!cf_get_defines(s, "defines", t->defines, err) || !cf_get_defines(s, "public_defines", t->public_defines, err) ||
	    !cf_check_defines(s, "defines", t->defines, err) || !cf_check_defines(s, "public_defines", t->public_defines, err))
		return FALSE;
	if (adef) {
		GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
		gboolean ok = cf_read_arch_words(adef, TRUE, t->arch_defines, err);
		for (guint i = 0; ok && i < t->arch_defines->len; i++)
			g_ptr_array_add(names, g_strdup(strchr(g_ptr_array_index(t->arch_defines, i), '\t') + 1));
		ok = ok && cf_check_defines(s, "arch_defines", names, err);
		g_ptr_array_free(names, TRUE);
		if (!ok)
			return FALSE;
	}
	if (!cf_get_list(s, "libs", t->libs, err) || !cf_get_list(s, "private_libs", t->private_libs, err) ||
	    !cf_check_libs(c, s, "libs", t->libs, err) || !cf_check_libs(c, s, "private_libs", t->private_libs, err))
		return FALSE;
	if (!cf_read_data(c, t, s, err) || !cf_read_target_install(c, t, s, err))
		return FALSE;
	Setting cuda_archs = c->archs, cuda_ptx = c->ptx;
	cf_set_setting(&t->archs, s, "archs", &cuda_archs);
	cf_set_setting(&t->ptx, s, "ptx", &cuda_ptx);
	if (!cf_get_choice(s, "mode", mode_values, c->mode, &v, err))
		return FALSE;
	t->mode = v;
	if (!cf_get_bool(s, "lto", c->lto, &t->lto, err) ||
	    !cf_get_bool(s, "devrt", TRUE, &t->devrt, err) ||
	    !cf_get_bool(s, "pic", t->type == TGT_SHARED, &t->pic, err) ||
	    !cf_get_bool(s, "device_link", FALSE, &t->device_link, err) ||
	    !cf_get_bool(s, "cuda_headers", FALSE, &t->cuda_headers, err))
		return FALSE;
	if (!cf_check_words(s, "cuda_flags", err))
		return FALSE;
	char *own = NULL;
	t->std = g_strdup(c->std);
	t->threads = c->threads;
	if (!cf_take_cuda_flags(s, "cuda_flags", "cuda_flags", &own, &t->std, &t->mode, &t->lto, &t->threads, err)) {
		g_free(own);
		return FALSE;
	}
	if (t->type == TGT_SHARED && !t->pic) {
		cf_entry_error(err, cf_find_entry(s, "pic"), "a shared library needs pic = yes");
		g_free(own);
		return FALSE;
	}
	if (t->device_link && (t->type != TGT_STATIC && t->type != TGT_OBJECT)) {
		cf_entry_error(err, cf_find_entry(s, "device_link"),
			       "device_link is for static and object targets (executables and shared libraries are "
			       "device-linked anyway)");
		g_free(own);
		return FALSE;
	}
	if (t->device_link && t->mode != MODE_RDC) {
		cf_entry_error(err, cf_find_entry(s, "device_link"), "device_link = yes needs mode = rdc");
		g_free(own);
		return FALSE;
	}
	if (t->lto && t->mode != MODE_RDC) {
		Entry *e = cf_find_entry(s, "lto");
		if (e)
			cf_entry_error(err, e, "lto = yes needs mode = rdc");
		else
			cg_error_at(err, s->loc.file, s->loc.line, "lto = yes needs mode = rdc");
		g_free(own);
		return FALSE;
	}
	/* (cuda_flags: checked before its words were read, above) */
	const char *const flag_keys[] = { "host_flags", "cflags", "cxxflags", "ldflags", NULL };
	for (int i = 0; flag_keys[i]; i++)
		if (!cf_check_words(s, flag_keys[i], err)) {
			g_free(own);
			return FALSE;
		}
	t->cuda_flags_loc = cf_entry_loc(s, "cuda_flags");
	t->cuda_flags = cf_join_flags(c->flags, own);
	g_free(own);
	Entry *hf = cf_find_entry(s, "host_flags");
	t->host_flags = g_strdup(hf ? hf->value : c->host_flags);
	own = cf_get_str(s, "cflags", "");
	t->cflags = cf_join_flags(c->cflags, own);
	g_free(own);
	own = cf_get_str(s, "cxxflags", "");
	t->cxxflags = cf_join_flags(c->cxxflags, own);
	g_free(own);
	own = cf_get_str(s, "ldflags", "");
	t->ldflags = cf_join_flags(c->ldflags, own);
	g_free(own);
	return TRUE;
}


static gboolean resolve_deps(Config *c, GPtrArray *secs, GError **err)
{
	for (guint i = 0; i < c->targets->len; i++) {
		Target *t = g_ptr_array_index(c->targets, i);
		Section *s = cf_find_section(secs, SEC_TARGET, t->name);
		Entry *e = cf_find_entry(s, "deps");
		if (!e)
			continue;
		GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
		if (!cf_get_list(s, "deps", names, err)) {
			g_ptr_array_free(names, TRUE);
			return FALSE;
		}
		for (guint k = 0; k < names->len; k++) {
			const char *n = g_ptr_array_index(names, k);
			Target *d = g_hash_table_lookup(c->by_name, n);
			if (!d) {
				const char **cands = g_new0(const char *, c->targets->len + 1);
				for (guint j = 0; j < c->targets->len; j++)
					cands[j] = ((Target *)g_ptr_array_index(c->targets, j))->name;
				const char *hint = cg_suggest(n, cands);
				cf_word_error(err, e, n, FALSE, "unknown dependency '%s' of target '%s'%s%s%s", n, t->name,
					    hint ? "; did you mean '" : "", hint ? hint : "", hint ? "'?" : "");
				g_free(cands);
				g_ptr_array_free(names, TRUE);
				return FALSE;
			}
			if (d == t) {
				cf_word_error(err, e, n, FALSE, "target '%s' depends on itself", t->name);
				g_ptr_array_free(names, TRUE);
				return FALSE;
			}
			if (d->type == TGT_EXECUTABLE) {
				cf_word_error(err, e, n, FALSE, "target '%s' cannot depend on executable '%s'", t->name, n);
				g_ptr_array_free(names, TRUE);
				return FALSE;
			}
			if (g_ptr_array_find(t->deps, d, NULL)) {
				cf_word_error(err, e, n, TRUE, "dependency '%s' listed twice", n);
				g_ptr_array_free(names, TRUE);
				return FALSE;
			}
			g_ptr_array_add(t->deps, d);
		}
		g_ptr_array_free(names, TRUE);
	}
	/* Cycles: depth-first search with colours. */
	GHashTable *colour = g_hash_table_new(NULL, NULL);
	GPtrArray *stack = g_ptr_array_new();
	gboolean ok = TRUE;
	for (guint i = 0; ok && i < c->targets->len; i++) {
		Target *root = g_ptr_array_index(c->targets, i);
		if (g_hash_table_contains(colour, root))
			continue;
		/* iterative DFS: stack of (target, next dep index) */
		GArray *idx = g_array_new(FALSE, FALSE, sizeof(guint));
		g_ptr_array_add(stack, root);
		guint zero = 0;
		g_array_append_val(idx, zero);
		g_hash_table_insert(colour, root, GINT_TO_POINTER(1));
		while (ok && stack->len) {
			Target *t = g_ptr_array_index(stack, stack->len - 1);
			guint *k = &g_array_index(idx, guint, idx->len - 1);
			if (*k >= t->deps->len) {
				g_hash_table_insert(colour, t, GINT_TO_POINTER(2));
				g_ptr_array_remove_index(stack, stack->len - 1);
				g_array_remove_index(idx, idx->len - 1);
				continue;
			}
			Target *d = g_ptr_array_index(t->deps, (*k)++);
			int col = GPOINTER_TO_INT(g_hash_table_lookup(colour, d));
			if (col == 1) {
				GString *path = g_string_new(d->name);
				for (guint j = stack->len; j > 0; j--) {
					Target *x = g_ptr_array_index(stack, j - 1);
					g_string_prepend(path, " -> ");
					g_string_prepend(path, x->name);
					if (x == d)
						break;
				}
				Section *s = cf_find_section(secs, SEC_TARGET, t->name);
				cf_entry_error(err, cf_find_entry(s, "deps"), "dependency cycle: %s", path->str);
				g_string_free(path, TRUE);
				ok = FALSE;
			} else if (col == 0) {
				g_hash_table_insert(colour, d, GINT_TO_POINTER(1));
				g_ptr_array_add(stack, d);
				g_array_append_val(idx, zero);
			}
		}
		g_array_free(idx, TRUE);
		g_ptr_array_set_size(stack, 0);
	}
	g_ptr_array_free(stack, TRUE);
	g_hash_table_destroy(colour);
	return ok;
}

static void visit_order(Target *t, GHashTable *seen, GPtrArray *out)
{
	if (g_hash_table_contains(seen, t))
		return;
	g_hash_table_add(seen, t);
	for (guint i = 0; i < t->deps->len; i++)
		visit_order(g_ptr_array_index(t->deps, i), seen, out);
	g_ptr_array_add(out, t);
}

GPtrArray *config_target_order(const Config *c)
{
	GPtrArray *out = g_ptr_array_new();
	GHashTable *seen = g_hash_table_new(NULL, NULL);
	for (guint i = 0; i < c->targets->len; i++)
		visit_order(g_ptr_array_index(c->targets, i), seen, out);
	g_hash_table_destroy(seen);
	return out;
}

/* Apply the chosen profile's [cuda]/[toolchain] keys (not over -D). */
static gboolean apply_profile(Config *c, GPtrArray *secs, const char *name, GError **err)
{
	Section *p = cf_find_section(secs, SEC_PROFILE, name);
	if (!p) {
		GString *known = g_string_new(NULL);
		const char **cands = g_new0(const char *, secs->len + 1);
		guint n = 0;
		for (guint i = 0; i < secs->len; i++) {
			Section *s = g_ptr_array_index(secs, i);
			if (s->kind == SEC_PROFILE) {
				g_string_append_printf(known, "%s%s", known->len ? ", " : "", s->name);
				cands[n++] = s->name;
			}
		}
		const char *hint = cg_suggest(name, cands);
		if (hint)
			cg_usage_error(err, "no profile '%s' in %s; did you mean '%s'?", name, c->ini_path, hint);
		else
			cg_usage_error(err, "no profile '%s' in %s (profiles: %s)", name, c->ini_path,
				       known->len ? known->str : "none");
		g_string_free(known, TRUE);
		g_free(cands);
		return FALSE;
	}
	Profile *pr = g_new0(Profile, 1);
	c->profile = pr;
	pr->name = g_strdup(name);
	pr->loc = p->loc;
	Loc here = p->loc;
	for (guint i = 0; i < p->entries->len; i++) {
		Entry *e = g_ptr_array_index(p->entries, i);
		if (cf_in_list(e->key, cf_profile_own_keys))
			continue;
		SecKind k = cf_in_list(e->key, cf_cuda_keys) ? SEC_CUDA : SEC_TOOLCHAIN;
		Section *s = cf_ensure_section(secs, k, NULL, here);
		Entry *cur = cf_find_entry(s, e->key);
		if (cur && cf_from_cmdline(cur->loc))
			continue; /* -D wins over profiles */
		cf_set_entry(s, e->key, e->value, e->loc);
	}
	return TRUE;
}

/* On CI, without --profile: the profile named for the CI provider, else
 * one named ci, if the file has it. why says which variable chose it. */
static const char *ci_profile(GPtrArray *secs, char **why)
{
	static const struct { const char *var, *name; } providers[] = {
		{ "GITHUB_ACTIONS", "github" },
		{ "GITLAB_CI", "gitlab" },
		{ "TF_BUILD", "azure" },
	};
	const char *ci = g_getenv("CI");
	const char *because = NULL;
	if (ci && (g_ascii_strcasecmp(ci, "true") == 0 || strcmp(ci, "1") == 0))
		because = "CI";
	for (gsize i = 0; i < G_N_ELEMENTS(providers); i++) {
		const char *v = g_getenv(providers[i].var);
		if (!v || !*v || g_ascii_strcasecmp(v, "false") == 0)
			continue;
		if (cf_find_section(secs, SEC_PROFILE, providers[i].name)) {
			*why = g_strdup_printf("%s=%s", providers[i].var, v);
			return providers[i].name;
		}
		if (!because)
			because = providers[i].var;
	}
	if (because && cf_find_section(secs, SEC_PROFILE, "ci")) {
		*why = g_strdup_printf("%s=%s", because, g_getenv(because));
		return "ci";
	}
	return NULL;
}

/* The profile to apply: --profile, else [project] profile (default
 * none); "auto" the CI provider's (ci_profile) on CI, else none. Profiles
 * may not be named none or auto. */
static gboolean choose_profile(Config *c, GPtrArray *secs, const ConfigOptions *opt, const char **out, GError **err)
{
	for (guint i = 0; i < secs->len; i++) {
		Section *s = g_ptr_array_index(secs, i);
		if (s->kind == SEC_PROFILE && (strcmp(s->name, "none") == 0 || strcmp(s->name, "auto") == 0)) {
			cg_error_at(err, s->loc.file, s->loc.line,
				    "profile name '%s' is reserved (--profile none: no profile; auto: the CI provider's)", s->name);
			return FALSE;
		}
	}
	Section *proj = cf_find_section(secs, SEC_PROJECT, NULL);
	Entry *pe = cf_find_entry(proj, "profile");
	const char *name = opt->profile ? opt->profile : pe ? pe->value : "none";
	if (!opt->profile && pe && strcmp(name, "none") != 0 && strcmp(name, "auto") != 0 &&
	    !cf_find_section(secs, SEC_PROFILE, name)) {
		cf_entry_error(err, pe, "no [profile %s] in this file (profile = none, auto or a profile's name)", name);
		return FALSE;
	}
	*out = NULL;
	if (strcmp(name, "auto") == 0) {
		if (opt->ci_profile)
			*out = ci_profile(secs, &c->profile_why);
	} else if (strcmp(name, "none") != 0) {
		*out = name;
	}
	return TRUE;
}

static void profile_values_free(Profile *p)
{
	g_free(p->runner);
}

/* Validate a profile's own keys into pr (every profile is checked, so a
 * mistake shows before the day it is chosen). auto (and tail, the older
 * word for split_compile's auto) is 0 for sizes and jobs, PROFILE_AUTO
 * for threads and split_compile, whose 0 means none. */
static gboolean read_profile_values(Section *p, Profile *pr, GError **err)
{
	struct { const char *key; int *count; guint64 *size; gboolean zero_ok; const char *word; } keys[] = {
		{ "jobs", &pr->jobs, NULL, FALSE, NULL },
		{ "memory", NULL, &pr->memory, FALSE, NULL },
		{ "job_memory", NULL, &pr->job_memory, FALSE, NULL },
		{ "threads", &pr->threads, NULL, TRUE, NULL },
		{ "split_compile", &pr->split_compile, NULL, TRUE, "tail" },
	};
	for (gsize i = 0; i < G_N_ELEMENTS(keys); i++) {
		Entry *e = cf_find_entry(p, keys[i].key);
		char *v = g_strstrip(g_strdup(e ? e->value : "auto"));
		gboolean ok = keys[i].size ? cf_valid_size(v)
					   : cf_valid_count(v, keys[i].zero_ok) || g_strcmp0(v, keys[i].word) == 0;
		if (!ok) {
			cf_entry_error(err, e, "invalid %s '%s' (expected %s)", keys[i].key, v,
				    keys[i].size ? "auto or a size such as 7G or 512M"
				    : keys[i].word ? "auto, tail or a number from 0 to 999999"
				    : keys[i].zero_ok ? "auto or a number from 0 to 999999"
						      : "auto or a number from 1 to 999999");
			g_free(v);
			return FALSE;
		}
		const gboolean is_auto = strcmp(v, "auto") == 0 || g_strcmp0(v, keys[i].word) == 0;
		if (keys[i].size)
			*keys[i].size = is_auto ? 0 : units_size_bytes(v);
		else
			*keys[i].count = is_auto ? (keys[i].zero_ok ? PROFILE_AUTO : 0) : atoi(v);
		g_free(v);
	}
	int v;
	if (!cf_get_choice(p, "split", split_values, SPLIT_AUTO, &v, err))
		return FALSE;
	pr->split = v;
	Entry *e = cf_find_entry(p, "time_limit");
	pr->time_limit = 0;
	if (e) {
		char *t = g_strstrip(g_strdup(e->value));
		gboolean ok = units_parse_duration(t, &pr->time_limit);
		if (!ok)
			cf_entry_error(err, e, "invalid time_limit '%s' (expected a duration such as 6h, 90m or 3600s, or none)", t);
		g_free(t);
		if (!ok)
			return FALSE;
	}
	e = cf_find_entry(p, "speed");
	char *sp = e ? g_strstrip(g_strdup(e->value)) : NULL;
	pr->speed = 0;
	if (sp && strcmp(sp, "auto") != 0 && !units_parse_speed(sp, &pr->speed)) {
		cf_entry_error(err, e, "invalid speed '%s' (expected auto or a number from 0.1 to 10: this machine's "
				       "CPU seconds per second of the reference machine)", sp);
		g_free(sp);
		return FALSE;
	}
	g_free(sp);
	e = cf_find_entry(p, "runner");
	g_free(pr->runner);
	pr->runner = e ? g_strstrip(g_strdup(e->value)) : NULL;
	/* the planner's alternatives: auto (weighed) or no (never) */
	static const char *const auto_no[] = { "auto", "no", NULL };
	struct { const char *key; gboolean *no; } alts[] = {
		{ "ptxas_edges", &pr->no_ptxas_edges }, { "pp_edges", &pr->no_pp_edges },
		{ "syntax_stub", &pr->no_syntax_stub }, { "host_rank", &pr->no_host_rank },
	};
	for (gsize i = 0; i < G_N_ELEMENTS(alts); i++) {
		if (!cf_get_choice(p, alts[i].key, auto_no, 0, &v, err))
			return FALSE;
		*alts[i].no = v == 1;
	}
	return TRUE;
}

static gboolean read_profile(Config *c, GPtrArray *secs, GError **err)
{
	for (guint i = 0; i < secs->len; i++) {
		Section *s = g_ptr_array_index(secs, i);
		if (s->kind != SEC_PROFILE || g_strcmp0(s->name, c->profile->name) == 0)
			continue;
		Profile tmp = { 0 };
		gboolean ok = read_profile_values(s, &tmp, err);
		profile_values_free(&tmp);
		if (!ok)
			return FALSE;
	}
	if (!c->profile->name)
		return TRUE;
	Profile *pr = c->profile;
	Section *p = cf_find_section(secs, SEC_PROFILE, pr->name);
	if (!read_profile_values(p, pr, err))
		return FALSE;
	Entry *a = cf_find_entry(p, "archs");
	if (a && !c->build_archs) {
		c->build_archs = g_new0(Setting, 1);
		c->build_archs->value = g_strdup(a->value);
		c->build_archs->loc = a->loc;
		c->build_archs->lines = a->lines ? g_array_ref(a->lines) : NULL;
	}
	return TRUE;
}

static gboolean read_model(Config *c, GPtrArray *secs, const ConfigOptions *opt, GError **err)
{
	Section *proj = cf_find_section(secs, SEC_PROJECT, NULL);
	Section *cuda = cf_find_section(secs, SEC_CUDA, NULL);
	Section *tc = cf_find_section(secs, SEC_TOOLCHAIN, NULL);
	if (!proj || !cf_find_entry(proj, "name")) {
		if (proj)
			cg_error_at(err, proj->loc.file, proj->loc.line, "[project] needs 'name'");
		else
			cg_error_at(err, c->ini_path, 1, "missing [project] section (with 'name')");
		return FALSE;
	}
	Entry *ne = cf_find_entry(proj, "name");
	c->name = g_strstrip(g_strdup(ne->value));
	if (!cf_valid_name(c->name)) {
		cf_entry_error(err, ne, "invalid project name '%s' (use letters, digits, '_', '.', '+', '-')", c->name);
		return FALSE;
	}
	c->version = cf_get_str(proj, "version", "");
	int g;
	if (!cf_get_choice(proj, "gate", cf_gate_values, GATE_AUTO, &g, err))
		return FALSE;
	c->gate = g;
	if (!cf_read_install(c, proj, err))
		return FALSE;

	Loc dloc = { g_intern_string(c->ini_path), 0 };
	Setting def_archs = { (char *)"75", dloc }, def_ptx = { (char *)"highest", dloc };
	cf_set_setting(&c->archs, cuda, "archs", &def_archs);
	cf_set_setting(&c->ptx, cuda, "ptx", &def_ptx);
	int v;
	if (!cf_get_choice(cuda, "mode", mode_values, MODE_WHOLE, &v, err))
		return FALSE;
	c->mode = v;
	if (!cf_get_bool(cuda, "lto", FALSE, &c->lto, err))
		return FALSE;
	if (!cf_get_choice(cuda, "std", std_values, 2, &v, err))
		return FALSE;
	c->std = g_strdup(std_values[v]);
	if (!cf_check_words(cuda, "flags", err) || !cf_check_words(cuda, "host_flags", err))
		return FALSE;
	c->threads = -1;
	if (!cf_take_cuda_flags(cuda, "flags", "[cuda] flags", &c->flags, &c->std, &c->mode, &c->lto, &c->threads, err))
		return FALSE;
	if (c->lto && c->mode != MODE_RDC) {
		cf_entry_error(err, cf_find_entry(cuda, "lto"), "lto = yes needs mode = rdc");
		return FALSE;
	}
	c->flags_loc = cf_entry_loc(cuda, "flags");
	c->host_flags = cf_get_str(cuda, "host_flags", "");
	if (!cf_get_choice(cuda, "module_id", modid_values, 0, &v, err))
		return FALSE;
	c->module_id_absolute = v == 1;
	if (!cf_get_choice(cuda, "cudart", cudart_values, CUDART_STATIC, &v, err))
		return FALSE;
	c->cudart = v;
	if (!cf_get_bool(cuda, "reproducible", FALSE, &c->reproducible, err))
		return FALSE;
	if (!cf_get_bool(cuda, "ptx_first", FALSE, &c->ptx_first, err))
		return FALSE;

	Entry *ce = cf_find_entry(tc, "cuda");
	if (ce && *ce->value) {
		c->cuda = cg_path_join(c->srcdir, ce->value);
		c->cuda_loc = ce->loc;
	}
	const char *env_cc = g_getenv("CC"), *env_cxx = g_getenv("CXX");
	c->cc = cf_get_str(tc, "cc", env_cc && *env_cc ? env_cc : "cc");
	c->cxx = cf_get_str(tc, "cxx", env_cxx && *env_cxx ? env_cxx : "c++");
	c->ccbin = cf_get_str(tc, "ccbin", "");
	c->ar = cf_get_str(tc, "ar", "ar");
	c->objcopy = cf_get_str(tc, "objcopy", "objcopy");
	c->launcher = cf_get_str(tc, "launcher", "");
	c->device_launcher = cf_get_str(tc, "device_launcher", "");
	c->device_launcher_loc = cf_entry_loc(tc, "device_launcher");
	c->cc_loc = cf_entry_loc(tc, "cc");
	c->cxx_loc = cf_entry_loc(tc, "cxx");
	c->ccbin_loc = cf_entry_loc(tc, "ccbin");
	c->ar_loc = cf_entry_loc(tc, "ar");
	c->objcopy_loc = cf_entry_loc(tc, "objcopy");
	c->launcher_loc = cf_entry_loc(tc, "launcher");
	c->target_loc = cf_entry_loc(tc, "target");
	/* a program named by nothing would run its first argument */
	const char *const programs[] = { "cc", "cxx", "ar", "objcopy" };
	for (gsize i = 0; i < G_N_ELEMENTS(programs); i++) {
		Entry *pe = cf_find_entry(tc, programs[i]);
		if (pe && pe->value[strspn(pe->value, " \t")] == 0) {
			cf_entry_error(err, pe, "%s is empty: name a program (or remove the line for the default)", programs[i]);
			return FALSE;
		}
	}
	c->cache = cf_get_str(tc, "cache", "");
	Entry *cae = cf_find_entry(tc, "cache");
	GError *cerr = NULL;
	char *cdir = cache_dir(c->cache, c->srcdir);
	const gboolean from_ini = cae && *c->cache;
	if (!cache_check(cdir, from_ini ? "cache" : "CUGEN_CACHE_DIR", from_ini ? c->cache : g_getenv("CUGEN_CACHE_DIR"),
			 &cerr)) {
		if (from_ini)
			cf_entry_error(err, cae, "%s", cerr->message + 7);
		else
			g_propagate_error(err, g_error_copy(cerr));
		g_error_free(cerr);
		g_free(cdir);
		return FALSE;
	}
	c->cache_dir = cdir;
	c->target_triple = cf_get_str(tc, "target", "");
	if (!cf_check_words(tc, "cflags", err) || !cf_check_words(tc, "cxxflags", err) ||
	    !cf_check_words(tc, "ldflags", err) || !cf_check_words(tc, "launcher", err) ||
	    !cf_check_words(tc, "device_launcher", err))
		return FALSE;
	c->cflags = cf_get_str(tc, "cflags", "");
	c->cxxflags = cf_get_str(tc, "cxxflags", "");
	c->ldflags = cf_get_str(tc, "ldflags", "");
	const char *const triples[] = { "", "x86_64-linux", "sbsa-linux", "aarch64-linux", "ppc64le-linux", NULL };
	Entry *te = cf_find_entry(tc, "target");
	if (te && !cf_in_list(g_strstrip(c->target_triple), triples)) {
		cf_entry_error(err, te, "unknown target '%s' (expected x86_64-linux, sbsa-linux, aarch64-linux or ppc64le-linux)", c->target_triple);
		return FALSE;
	}

	if (!read_profile(c, secs, err))
		return FALSE;
	if (opt->archs) {
		if (c->build_archs)
			cf_setting_clear(c->build_archs);
		g_free(c->build_archs);
		c->build_archs = g_new0(Setting, 1);
		c->build_archs->value = g_strdup(opt->archs);
		c->build_archs->loc = (Loc){ NULL, 0 };
	}

	GHashTable *owner = g_hash_table_new(g_str_hash, g_str_equal);
	gboolean ok = TRUE;
	for (guint i = 0; ok && i < secs->len; i++) {
		Section *s = g_ptr_array_index(secs, i);
		if (s->kind == SEC_TARGET)
			ok = read_target(c, s, owner, err);
		if (s->kind == SEC_PROFILE)
			g_ptr_array_add(c->profiles, g_strdup(s->name));
	}
	g_hash_table_destroy(owner);
	if (!ok)
		return FALSE;
	if (c->targets->len == 0) {
		cg_error_at(err, c->ini_path, proj->loc.line, "no [target NAME] section: nothing to build");
		return FALSE;
	}
	if (!cf_check_outputs(c, err))
		return FALSE;
	return resolve_deps(c, secs, err);
}

Config *config_load(const ConfigOptions *opt, GError **err)
{
	Config *c = g_new0(Config, 1);
	c->ini_path = g_strdup(opt->ini);
	c->ini_abs = cg_abspath(opt->ini);
	c->srcdir = g_path_get_dirname(c->ini_abs);
	c->targets = g_ptr_array_new_with_free_func(cf_target_free);
	c->by_name = g_hash_table_new(g_str_hash, g_str_equal);
	c->glob_dirs = g_ptr_array_new_with_free_func(g_free);
	c->profiles = g_ptr_array_new_with_free_func(g_free);

	GPtrArray *secs = cf_read_ini(c->ini_abs, c->ini_path, err);
	if (!secs) {
		config_free(c);
		return NULL;
	}
	gboolean ok = TRUE;
	for (char **d = opt->defines; ok && d && *d; d++)
		ok = cf_apply_define(secs, *d, err);
	/* [project] source_dir: where the file's paths start (a file kept
	 * outside the tree it builds) */
	Section *ps = ok ? cf_find_section(secs, SEC_PROJECT, NULL) : NULL;
	Entry *sd = ps ? cf_find_entry(ps, "source_dir") : NULL;
	if (sd && *sd->value) {
		char *d = cg_path_join(c->srcdir, sd->value);
		if (!g_file_test(d, G_FILE_TEST_IS_DIR)) {
			cf_entry_error(err, sd, "source_dir '%s' is not a directory", sd->value);
			g_free(d);
			ok = FALSE;
		} else {
			g_free(c->srcdir);
			c->srcdir = d;
		}
	}
	const char *profile = NULL;
	if (ok)
		ok = choose_profile(c, secs, opt, &profile, err);
	if (ok && profile)
		ok = apply_profile(c, secs, profile, err);
	if (ok && !c->profile) {
		/* No profile: every planner setting is "auto". */
		Profile *pr = g_new0(Profile, 1);
		pr->threads = pr->split_compile = PROFILE_AUTO; /* the rest: 0, auto */
		pr->split = SPLIT_AUTO;
		c->profile = pr;
	}
	if (ok)
		ok = cf_apply_base_flags(secs, opt, err) && read_model(c, secs, opt, err);
	g_ptr_array_free(secs, TRUE);
	if (!ok) {
		config_free(c);
		return NULL;
	}
	return c;
}

void config_free(Config *c)
{
	if (!c)
		return;
	g_free(c->ini_path);
	g_free(c->ini_abs);
	g_free(c->srcdir);
	g_free(c->name);
	g_free(c->version);
	cf_install_free(c);
	cf_setting_clear(&c->archs);
	cf_setting_clear(&c->ptx);
	g_free(c->std);
	g_free(c->flags);
	g_free(c->host_flags);
	g_free(c->cuda);
	g_free(c->cc);
	g_free(c->cxx);
	g_free(c->ccbin);
	g_free(c->ar);
	g_free(c->objcopy);
	g_free(c->launcher);
	g_free(c->device_launcher);
	g_free(c->cache);
	g_free(c->cache_dir);
	g_free(c->target_triple);
	g_free(c->cflags);
	g_free(c->cxxflags);
	g_free(c->ldflags);
	if (c->build_archs) {
		cf_setting_clear(c->build_archs);
		g_free(c->build_archs);
	}
	if (c->profile) {
		g_free(c->profile->name);
		profile_values_free(c->profile);
		g_free(c->profile);
	}
	g_ptr_array_free(c->targets, TRUE);
	g_hash_table_destroy(c->by_name);
	g_ptr_array_free(c->glob_dirs, TRUE);
	g_ptr_array_free(c->profiles, TRUE);
	g_free(c->profile_why);
	g_free(c);
}

