/* make.c -- the graph as a GNU Make (4.3+) Makefile; see make.h.
 *
 * Every edge becomes an explicit rule whose recipe is the edge's command
 * with its variables expanded, so make runs exactly the commands ninja
 * would. Edges of a pool run under `cugen slot POOL DEPTH`, which holds
 * one of DEPTH lock files while the command runs. A restat edge (its
 * command leaves an unchanged output alone) becomes a stamp rule, as
 * ninja's restat would: its recipe touches OUT.stamp, and OUT follows the
 * stamp with an empty recipe, so make neither reruns the command nor
 * remakes OUT's users while OUT keeps its time. A changed command remakes
 * its outputs, as ninja's log of commands does: each edge's recipe ends
 * by recording its command's hash in .cugen/cmd/KEY.mk (KEY: a hash of
 * its first output), which the Makefile includes, and the edge depends on
 * cugen-force unless the recorded hash is its command's. */
#include "make.h"

#include <string.h>

#include "util.h"

/* The one escape of this language for a target or prerequisite: '$'
 * doubled, ':' and '#' escaped; spaces, '%', '=' (a rule line with one
 * sets a variable), newlines, '\\', '*' '?' '[' cannot be said safely,
 * nor ':' in a source (gcc's dependency files, which make includes, keep
 * it as it is). */
static gboolean put_path(GString *o, const char *p, GError **err)
{
	if (strpbrk(p, " \t\n\r%=:\\*?[;|")) {
		cg_error(err, "path '%s' cannot be written in a Makefile (spaces, %%, =, :, \\, wildcard or "
			      "newline characters): use --backend ninja", p);
		return FALSE;
	}
	g_string_append_c(o, ' ');
	for (; *p; p++) {
		if (*p == '$')
			g_string_append_c(o, '$');
		else if (*p == ':' || *p == '#')
			g_string_append_c(o, '\\');
		g_string_append_c(o, *p);
	}
	return TRUE;
}

static gboolean put_paths(GString *o, PathList *paths, GError **err)
{
	for (guint i = 0; i < EDGE_LEN(paths); i++)
		if (!put_path(o, g_ptr_array_index(paths, i), err))
			return FALSE;
	return TRUE;
}

/* A recipe line: '$' doubled; a newline would end the recipe. */
static void put_recipe(GString *o, const char *cmd)
{
	for (const char *p = cmd; *p; p++) {
		if (*p == '$')
			g_string_append_c(o, '$');
		if (*p == '\n')
			g_string_append(o, "\\\n");
		else
			g_string_append_c(o, *p);
	}
}

/* The edge's description with ${out}/${in} expanded. */
static char *describe(const Edge *e)
{
	Rule tmp = { .command = e->rule->description ? e->rule->description : e->rule->name };
	Edge copy = *e;
	copy.rule = &tmp;
	return edge_command(&copy);
}

/* The stamp of a restat edge (make's form of ninja's restat), or NULL
 * where it cannot be said: a depfile (its rules name OUT, not the stamp)
 * or an output make functions would read otherwise (':', '#', '$'). */
static char *restat_stamp(const Edge *e)
{
	if (!e->rule->restat || e->rule->depfile || e->kind == EK_REGEN)
		return NULL;
	for (int k = 0; k < 2; k++) {
		PathList *l = k ? e->implicit_outs : e->outs;
		for (guint i = 0; i < EDGE_LEN(l); i++)
			if (strpbrk(g_ptr_array_index(l, i), ":#$"))
				return NULL;
	}
	return g_strconcat(EDGE_AT(e->outs, 0), ".stamp", NULL);
}

static int pool_depth(const Graph *g, const char *name)
{
	for (guint i = 0; i < g->pools->len; i++) {
		Pool *p = g_ptr_array_index(g->pools, i);
		if (strcmp(p->name, name) == 0)
			return p->depth;
	}
	return 0;
}

GString *make_write(const Graph *g, const char *header, const char *cugen, GError **err)
{
	GString *o = g_string_new(header);
	char *qc = cg_sh_quote(cugen);
	g_string_append(o, "\n.SUFFIXES:\n.DELETE_ON_ERROR:\nSHELL = /bin/sh\n"
			   "# make V=1 shows the commands\nQ_1 =\nQ_ = @\nQ = $(Q_$(V))\n");
	g_string_append(o, "CUGEN_SLOT = ");
	put_recipe(o, qc);
	g_string_append(o, " slot\n");
	for (guint i = 0; i < g->pools->len; i++) {
		Pool *p = g_ptr_array_index(g->pools, i);
		if (p->why)
			g_string_append_printf(o, "# %s\n", p->why);
		g_string_append_printf(o, "CUGEN_POOL_%s = %d\n", p->name, p->depth);
	}
	g_free(qc);
	/* the commands' records (see above) */
	g_string_append(o, "CUGEN_CMD_DIR := $(shell mkdir -p .cugen/cmd)\n-include $(wildcard .cugen/cmd/*.mk)\n");
	/* the default target first */
	g_string_append(o, "\n.DEFAULT_GOAL := all\n");
	GString *phony = g_string_new(".PHONY:");
	GString *deps = g_string_new(NULL);
	for (guint i = 0; i < g->edges->len; i++) {
		Edge *e = g_ptr_array_index(g->edges, i);
		GString *line = g_string_new("\n");
		if (e->kind == EK_PHONY) {
			if (!put_path(phony, EDGE_AT(e->outs, 0), err) || !put_path(line, EDGE_AT(e->outs, 0), err)) {
				g_string_free(line, TRUE);
				goto fail;
			}
			g_string_append(line, ":");
			if (!put_paths(line, e->ins, err)) {
				g_string_free(line, TRUE);
				goto fail;
			}
			g_string_append_c(line, '\n');
			if (line->str[1] == ' ')
				g_string_erase(line, 1, 1);
			g_string_append(o, line->str);
			g_string_free(line, TRUE);
			continue;
		}
		char *stamp = restat_stamp(e);
		GString *outs = NULL;
		if (stamp) {
			/* OUT... follow STAMP; a missing OUT remakes the stamp */
			outs = g_string_new(NULL);
			if (!put_paths(outs, e->outs, err) || !put_paths(outs, e->implicit_outs, err)) {
				g_string_free(outs, TRUE);
				g_free(stamp);
				g_string_free(line, TRUE);
				goto fail;
			}
			g_string_append_printf(line, "%s: $(if $(filter-out $(wildcard%s),%s),cugen-force)",
					       stamp, outs->str, outs->str);
		} else if (e->kind == EK_REGEN) {
			/* make remakes its makefile and restarts */
			g_string_append(line, "Makefile:");
		} else {
			if (!put_paths(line, e->outs, err) || !put_paths(line, e->implicit_outs, err)) {
				g_string_free(line, TRUE);
				goto fail;
			}
			g_string_append(line, EDGE_LEN(e->outs) + EDGE_LEN(e->implicit_outs) > 1 ? " &:" : ":");
		}
		char *cmd = edge_command(e);
		char *key = cg_hash_hex(EDGE_AT(e->outs, 0), strlen(EDGE_AT(e->outs, 0)));
		char *hash = cg_hash_hex(cmd, strlen(cmd));
		key[16] = hash[16] = '\0';
		if (e->kind != EK_REGEN)
			g_string_append_printf(line, " $(if $(filter %s,$(cugen_cmd_%s)),,cugen-force)", hash, key);
		if (!put_paths(line, e->ins, err) || !put_paths(line, e->implicit_ins, err) ||
		    (EDGE_LEN(e->order_ins) && (g_string_append(line, " |"), !put_paths(line, e->order_ins, err)))) {
			g_string_free(line, TRUE);
			g_free(stamp);
			g_free(cmd);
			g_free(key);
			g_free(hash);
			if (outs)
				g_string_free(outs, TRUE);
			goto fail;
		}
		g_string_append(line, "\n");
		if (line->str[1] == ' ')
			g_string_erase(line, 1, 1);
		char *desc = describe(e);
		char *qd = cg_sh_quote(desc);
		g_string_append(line, "\t@echo ");
		put_recipe(line, qd);
		g_string_append_c(line, '\n');
		g_free(qd);
		g_free(desc);
		/* make creates no directories for its targets */
		char *dir = g_path_get_dirname(EDGE_AT(e->outs, 0));
		g_string_append(line, "\t$(Q)");
		if (strcmp(dir, ".") != 0) {
			char *qdir = cg_sh_quote(dir);
			g_string_append(line, "mkdir -p ");
			put_recipe(line, qdir);
			g_string_append(line, " && ");
			g_free(qdir);
		}
		const char *pool = e->rule->pool;
		if (pool && pool_depth(g, pool) > 0) {
			char *qcmd = cg_sh_quote(cmd);
			g_string_append_printf(line, "$(CUGEN_SLOT) .cugen/slots/%s $(CUGEN_POOL_%s) -- /bin/sh -c ", pool, pool);
			put_recipe(line, qcmd);
			g_free(qcmd);
		} else {
			put_recipe(line, cmd);
		}
		if (e->kind != EK_REGEN)
			g_string_append_printf(line, " && echo 'cugen_cmd_%s := %s' >.cugen/cmd/%s.mk", key, hash, key);
		if (stamp) {
			char *qs = cg_sh_quote(stamp);
			g_string_append(line, " && touch ");
			put_recipe(line, qs);
			g_string_append_printf(line, "\n%s:", outs->str + 1);
			g_string_append_printf(line, " %s ;", stamp);
			g_free(qs);
			g_string_free(outs, TRUE);
			g_free(stamp);
		}
		g_string_append_c(line, '\n');
		g_free(cmd);
		g_free(key);
		g_free(hash);
		g_free(dir);
		if (e->rule->depfile) {
			/* the depfile ninja would read: make includes it */
			Rule tmp = { .command = e->rule->depfile };
			Edge copy = *e;
			copy.rule = &tmp;
			char *df = edge_command(&copy);
			if (!strchr(df, '\'')) /* (our depfile paths need no quoting) */
				g_string_append_printf(deps, " %s", df);
			g_free(df);
		}
		g_string_append(o, line->str);
		g_string_free(line, TRUE);
	}
	g_string_append(phony, " clean cugen-force\n");
	g_string_append(o, "\ncugen-force:\n");
	g_string_append(o, "\nclean:\n\t@echo 'removing the build outputs (obj/ and the targets)'\n"
			   "\t$(Q)rm -rf obj shard .cugen/cmd\n");
	for (guint i = 0; i < g->edges->len; i++) {
		Edge *e = g_ptr_array_index(g->edges, i);
		for (guint k = 0; e->kind == EK_SYMLINK && k < EDGE_LEN(e->outs); k++) {
			char *q = cg_sh_quote(EDGE_AT(e->outs, k));
			g_string_append_printf(o, "\t$(Q)rm -f %s\n", q);
			g_free(q);
		}
		if (e->kind == EK_LINK || e->kind == EK_AR) {
			/* (and the temporary name a killed edge leaves) */
			char *q = cg_sh_quote(EDGE_AT(e->outs, 0));
			char *tmp = g_strconcat(EDGE_AT(e->outs, 0), ".tmp", NULL);
			char *qt = cg_sh_quote(tmp);
			g_string_append_printf(o, "\t$(Q)rm -f %s %s\n", q, qt);
			g_free(qt);
			g_free(tmp);
			g_free(q);
		}
	}
	g_string_append(o, "\n");
	g_string_append(o, phony->str);
	if (deps->len) {
		g_string_append(o, "\n-include");
		g_string_append(o, deps->str);
		g_string_append_c(o, '\n');
	}
	g_string_free(phony, TRUE);
	g_string_free(deps, TRUE);
	return o;
fail:
	g_string_free(phony, TRUE);
	g_string_free(deps, TRUE);
	g_string_free(o, TRUE);
	return NULL;
}
