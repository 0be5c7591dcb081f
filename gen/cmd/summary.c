/* summary.c -- what setup's summary line adds after the counts: the
 * environment's flags used (and CUDAARCHS where cugen.ini's archs won),
 * the targets built with one nvcc per TU, and every choice that makes
 * code differ from plain nvcc's (project-relative names, seeded module
 * ids, --split-compile); see setup.h. */
#include "setup.h"

#include <string.h>

#include "envflags.h"

/* What the summary line adds about code that is not split per arch, or
 * not plain nvcc's: ", one nvcc per TU for 'k' (flag '-X')", ", 4 device
 * edges with --split-compile 4 (their code differs from plain nvcc's)". */
char *setup_summary_notes(const Generated *gen)
{
	GString *n = g_string_new(NULL);
	char *env = envflags_used(gen->env);
	/* CUDAARCHS counts only where cugen.ini names no archs (CMake's
	 * rule): where it does, the line says CUDAARCHS was not used */
	gboolean ca_used = g_strcmp0(gen->c->archs.loc.file, "$CUDAARCHS") == 0;
	char **words = g_strsplit(env, " ", -1);
	GString *used = g_string_new(NULL);
	gboolean ca_set = FALSE;
	for (char **w = words; *w; w++) {
		if (!**w)
			continue;
		if (strcmp(*w, "CUDAARCHS") == 0) {
			ca_set = TRUE;
			if (!ca_used)
				continue;
		}
		g_string_append_printf(used, "%s%s", used->len ? " " : "", *w);
	}
	g_strfreev(words);
	if (used->len)
		g_string_append_printf(n, ", flags from the environment (%s)", used->str);
	if (ca_set && !ca_used)
		g_string_append(n, ", CUDAARCHS not used (cugen.ini names the archs)");
	g_string_free(used, TRUE);
	g_free(env);
	const GPtrArray *fb = gen->info.fallbacks;
	for (guint i = 0; fb && i + 2 < fb->len; i += 3) {
		const char *flag = g_ptr_array_index(fb, i + 1);
		g_string_append_printf(n, "%s'%s'", i ? ", " : ", one nvcc per TU for ", (char *)g_ptr_array_index(fb, i));
		if (*flag)
			g_string_append_printf(n, " (flag '%s')", flag);
	}
	if (!gen->c->module_id_absolute && gen->info.cuda_tus + gen->info.host_tus)
		g_string_append(n, ", sources named project-relative in __FILE__, debug and line info (not as plain "
				   "nvcc's; module_id = absolute keeps nvcc's)");
	if (gen->info.seeded_ids)
		g_string_append(n, ", module ids seeded by project, target and path (as nvcc -frandom-seed=PROJECT/TARGET:PATH; "
				   "plain nvcc's are random where a TU defines only templates)");
	if (gen->plan.chosen.split_compile > 1)
		g_string_append_printf(n, ", --split-compile %d on every device compile (their code differs from "
					  "plain nvcc's)", gen->plan.chosen.split_compile);
	else if (gen->plan.chosen.tail_split > 1 && gen->plan.chosen.split_edges)
		g_string_append_printf(n, ", %u device edges with --split-compile %d (their code differs from plain "
					  "nvcc's; reproducible = yes keeps it)", g_hash_table_size(gen->plan.chosen.split_edges),
				       gen->plan.chosen.tail_split);
	return g_string_free(n, FALSE);
}
