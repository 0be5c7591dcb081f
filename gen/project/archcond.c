/* archcond.c -- what a target builds only for some archs: its
 * arch_sources and arch_defines ("75: gemm_sm75.cu", "80+: from 80 up"), kept where its
 * resolved arch set (the whole set, not the subset a build selects, so
 * that every shard agrees) holds the arch, dropped elsewhere; see
 * config_apply_archs() in config.h.
 */
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "config.h"
#include "util.h"

static gboolean has_conditions(const Target *t)
{
	if (t->arch_defines->len)
		return TRUE;
	for (guint i = 0; i < t->sources->len; i++)
		if (((Source *)g_ptr_array_index(t->sources, i))->arch_if)
			return TRUE;
	return FALSE;
}

/* Whether set holds one of ids (archs separated by blanks) */
static gboolean in_set(const ArchSet *set, const char *ids)
{
	char **w = g_strsplit(ids, " ", -1);
	gboolean in = FALSE;
	for (guint i = 0; !in && i < set->archs->len; i++) {
		const Arch *x = &g_array_index(set->archs, Arch, i);
		char *a = arch_id(x);
		for (guint k = 0; w[k] && !in; k++)
			in = g_str_has_suffix(w[k], "+") ? x->num >= atoi(w[k]) : strcmp(a, w[k]) == 0;
		g_free(a);
	}
	g_strfreev(w);
	return in;
}

gboolean config_apply_archs(Config *c, const struct ArchToolkit *at, GError **err)
{
	for (guint k = 0; k < c->targets->len; k++) {
		Target *t = g_ptr_array_index(c->targets, k);
		if (!has_conditions(t))
			continue;
		ArchSet *set = archset_resolve(&t->archs, &t->ptx, at, err);
		if (!set)
			return FALSE;
		/* an arch no toolkit build makes (800: a typo) would drop its
		 * file or define silently */
		for (guint i = 0; i < t->sources->len; i++) {
			Source *s = g_ptr_array_index(t->sources, i);
			char **ids = s->arch_if ? g_strsplit(s->arch_if, " ", -1) : NULL;
			for (guint k = 0; ids && ids[k]; k++) {
				char *list = NULL;
				if (!g_str_has_suffix(ids[k], "+") && !arch_supported(at, ids[k], &list)) {
					cg_error_at(err, s->loc.file, s->loc.line, "arch_sources: arch '%s' (of %s) is not "
						    "one this CUDA toolkit compiles (supported: %s)", ids[k], s->rel, list);
					g_free(list);
					g_strfreev(ids);
					archset_free(set);
					return FALSE;
				}
			}
			g_strfreev(ids);
		}
		for (guint i = 0; i < t->arch_defines->len; i++) {
			const char *d = g_ptr_array_index(t->arch_defines, i), *tab = strchr(d, '\t');
			char *arch = g_strndup(d, (gsize)(tab - d)), *list = NULL;
			gboolean ok = g_str_has_suffix(arch, "+") || arch_supported(at, arch, &list);
			if (!ok)
				cg_error_at(err, t->loc.file, t->loc.line, "target '%s': arch_defines: arch '%s' (of %s) is "
					    "not one this CUDA toolkit compiles (supported: %s)", t->name, arch, tab + 1, list);
			g_free(list);
			g_free(arch);
			if (!ok) {
				archset_free(set);
				return FALSE;
			}
		}
		for (guint i = t->sources->len; i-- > 0;) {
			Source *s = g_ptr_array_index(t->sources, i);
			if (s->arch_if && !in_set(set, s->arch_if))
				g_ptr_array_remove_index(t->sources, i);
		}
		for (guint i = 0; i < t->arch_defines->len; i++) {
			const char *d = g_ptr_array_index(t->arch_defines, i), *tab = strchr(d, '\t');
			char *arch = g_strndup(d, (gsize)(tab - d));
			if (in_set(set, arch))
				g_ptr_array_add(t->defines, g_strdup(tab + 1));
			g_free(arch);
		}
		g_ptr_array_set_size(t->arch_defines, 0);
		archset_free(set);
	}
	return TRUE;
}
