/* explain.c -- `cugen setup -d explain`: which commands a re-setup
 * changes, and how.
 *
 * Owns: reading back the build file the last setup wrote
 * (BUILDDIR/build.ninja, or the gate's .cugen/full.ninja: the subset of
 * ninja's language ninja.c writes) into a Graph, and comparing it with
 * the new one, edge by edge by first output: the planner's choices that
 * changed (against .cugen/plan.ini), then each change to a command as
 * the words it drops and adds, with the edges that change the same way
 * counted together, then the edges that are new or gone. It prints on
 * standard error and changes nothing: the build file written is the one
 * setup writes without it.
 */
#include "explain.h"

#include <stdio.h>
#include <string.h>

#include "gate.h"
#include "options.h"
#include "safepath.h"
#include "util.h"

/* ---- reading a build.ninja back ---- */

/* The logical lines of a ninja file: a line ending in an unescaped '$'
 * continues on the next, whose leading spaces are dropped. Indentation
 * of the first physical line is kept (it says a variable belongs to the
 * statement above). */
static GPtrArray *logical_lines(const char *text)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
	GString *cur = g_string_new(NULL);
	const char *p = text;
	while (*p) {
		const char *nl = strchr(p, '\n');
		gsize n = nl ? (gsize)(nl - p) : strlen(p);
		gsize dollars = 0;
		while (dollars < n && p[n - 1 - dollars] == '$')
			dollars++;
		if (cur->len) /* a continuation: its leading spaces go */
			while (n && *p == ' ')
				p++, n--;
		if (dollars % 2) {
			g_string_append_len(cur, p, n - 1);
		} else {
			g_string_append_len(cur, p, n);
			g_ptr_array_add(out, g_string_free(cur, FALSE));
			cur = g_string_new(NULL);
		}
		p = nl ? nl + 1 : p + n;
	}
	if (cur->len)
		g_ptr_array_add(out, g_string_free(cur, FALSE));
	else
		g_string_free(cur, TRUE);
	return out;
}

/* The words of a build line up to its end, each unescaped ('$ ', '$:',
 * '$$'); an unescaped ':' is a word of its own. */
static GPtrArray *build_words(const char *s)
{
	GPtrArray *w = g_ptr_array_new_with_free_func(g_free);
	GString *cur = NULL;
	for (; *s; s++) {
		if (*s == '$' && s[1]) {
			if (!cur)
				cur = g_string_new(NULL);
			g_string_append_c(cur, *++s);
		} else if (*s == ' ' || *s == ':') {
			if (cur)
				g_ptr_array_add(w, g_string_free(cur, FALSE));
			cur = NULL;
			if (*s == ':')
				g_ptr_array_add(w, g_strdup(":"));
		} else {
			if (!cur)
				cur = g_string_new(NULL);
			g_string_append_c(cur, *s);
		}
	}
	if (cur)
		g_ptr_array_add(w, g_string_free(cur, FALSE));
	return w;
}

/* A variable's value as ninja.c writes it ('$$' a dollar). */
static char *unescape_value(const char *v)
{
	GString *s = g_string_new(NULL);
	for (; *v; v++) {
		if (*v == '$' && v[1])
			v++;
		g_string_append_c(s, *v);
	}
	return g_string_free(s, FALSE);
}

/* One build line into an edge of g: outputs (| implicit) : rule inputs
 * (| implicit) (|| order-only). */
static Edge *read_build(Graph *g, GHashTable *rules, const char *line)
{
	GPtrArray *w = build_words(line);
	guint i = 0;
	int part = 0; /* 0 outputs, 1 implicit outputs */
	GPtrArray *outs = g_ptr_array_new(), *iouts = g_ptr_array_new();
	for (; i < w->len && strcmp(g_ptr_array_index(w, i), ":") != 0; i++) {
		const char *x = g_ptr_array_index(w, i);
		if (strcmp(x, "|") == 0)
			part = 1;
		else
			g_ptr_array_add(part ? iouts : outs, (char *)x);
	}
	/* the targets templates/ninja-targets.in adds after the graph */
	static const char *const utility[] = { "cugen_install", "cugen_uninstall", "cugen_clean", "cugen_help", NULL };
	Edge *e = NULL;
	if (i + 1 < w->len && !g_strv_contains(utility, g_ptr_array_index(w, i + 1))) {
		const char *rule = g_ptr_array_index(w, i + 1);
		Rule *r = strcmp(rule, "phony") == 0 ? NULL : g_hash_table_lookup(rules, rule);
		e = graph_edge(g, r ? EK_CXX : EK_PHONY, r);
		for (guint k = 0; k < outs->len; k++)
			edge_out(e, g_ptr_array_index(outs, k));
		for (guint k = 0; k < iouts->len; k++)
			edge_implicit_out(e, g_ptr_array_index(iouts, k));
		part = 0; /* 0 inputs, 1 implicit, 2 order-only */
		for (i += 2; i < w->len; i++) {
			const char *x = g_ptr_array_index(w, i);
			if (strcmp(x, "|") == 0)
				part = 1;
			else if (strcmp(x, "||") == 0)
				part = 2;
			else if (part == 0)
				edge_in(e, x);
			else if (part == 1)
				edge_implicit_in(e, x);
			else
				edge_order_in(e, x);
		}
	}
	g_ptr_array_free(outs, TRUE);
	g_ptr_array_free(iouts, TRUE);
	g_ptr_array_free(w, TRUE);
	return e;
}

Graph *explain_read(const char *builddir, char **file)
{
	char *path = g_build_filename(builddir, "build.ninja", NULL);
	char *text = cg_read_regular(path, 1u << 30, FALSE, NULL, NULL);
	/* the gate: the graph is inside (known by its rule statement, a line
	 * of its own: a command's text, a define naming the file, is none) */
	if (text && (g_str_has_prefix(text, "rule " RULE_GATE "\n") || strstr(text, "\nrule " RULE_GATE "\n"))) {
		g_free(text);
		g_free(path);
		path = g_build_filename(builddir, GATE_FULL, NULL);
		text = cg_read_regular(path, 1u << 30, FALSE, NULL, NULL);
	}
	if (!text) {
		g_free(path);
		return NULL;
	}
	Graph *g = graph_new();
	GHashTable *rules = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	GPtrArray *lines = logical_lines(text);
	char *rule = NULL;     /* the rule statement being read */
	Edge *edge = NULL;     /* the build statement being read */
	for (guint i = 0; i < lines->len; i++) {
		const char *l = g_ptr_array_index(lines, i);
		if (g_str_has_prefix(l, "  ")) {
			const char *eq = strstr(l, " = ");
			if (!eq)
				continue;
			char *name = g_strndup(l + 2, eq - l - 2);
			if (rule && strcmp(name, "command") == 0) {
				/* its own command: an identical one is another rule */
				Rule *r = graph_rule_canon(g, rule, eq + 3, rule, NULL, NULL, NULL, NULL);
				g_hash_table_replace(rules, g_strdup(rule), r);
			} else if (edge) {
				char *v = unescape_value(eq + 3);
				edge_var(edge, name, v);
				g_free(v);
			}
			g_free(name);
			continue;
		}
		g_clear_pointer(&rule, g_free);
		edge = NULL;
		if (g_str_has_prefix(l, "rule "))
			rule = g_strdup(l + 5);
		else if (g_str_has_prefix(l, "build "))
			edge = read_build(g, rules, l + 6);
	}
	g_free(rule);
	g_ptr_array_free(lines, TRUE);
	g_hash_table_destroy(rules);
	g_free(text);
	if (file)
		*file = path;
	else
		g_free(path);
	return g;
}

/* ---- the comparison ---- */

/* The words of a command that the other lacks (as many times as it
 * lacks them), in order, at most max, then "..." */
static void words_lacking(GString *o, char **a, char **b, guint max)
{
	GHashTable *count = g_hash_table_new(g_str_hash, g_str_equal);
	for (char **w = b; *w; w++)
		g_hash_table_insert(count, *w, GINT_TO_POINTER(GPOINTER_TO_INT(g_hash_table_lookup(count, *w)) + 1));
	guint n = 0;
	for (char **w = a; *w; w++) {
		int c = GPOINTER_TO_INT(g_hash_table_lookup(count, *w));
		if (c > 0) {
			g_hash_table_insert(count, *w, GINT_TO_POINTER(c - 1));
			continue;
		}
		if (!**w)
			continue;
		if (n++ == max) {
			g_string_append(o, " ...");
			break;
		}
		g_string_append_printf(o, " %s", *w);
	}
	if (!n)
		g_string_append(o, " (none)");
	g_hash_table_destroy(count);
}

/* How a command changed: "- WORDS + WORDS", or the same words in
 * another order. */
static char *command_change(const char *was, const char *now)
{
	char **a = g_strsplit(was, " ", -1), **b = g_strsplit(now, " ", -1);
	GString *o = g_string_new("-");
	words_lacking(o, a, b, 8);
	g_string_append(o, "; +");
	words_lacking(o, b, a, 8);
	if (strcmp(o->str, "- (none); + (none)") == 0)
		g_string_assign(o, "the same words in another order");
	g_strfreev(a);
	g_strfreev(b);
	return g_string_free(o, FALSE);
}

static const char *yes_no(int v)
{
	return v < 0 ? "unknown" : v ? "yes" : "no";
}

/* The planner's choices that differ from the last setup's. */
static void choices(const History *h, const Grouping *ch)
{
	if (!h)
		return;
	const struct {
		const char *name;
		int was, now;
	} c[] = {
		{ "syntax_stub", h->syntax_stub, ch->syntax_stub },
		{ "pp_edges", h->pp_edges, ch->pp_edges },
		{ "ptxas_edges", h->ptxas_edges, ch->ptxas_edges },
		{ "host_rank", h->host_rank, ch->host_rank },
	};
	for (gsize i = 0; i < G_N_ELEMENTS(c); i++)
		if (c[i].was >= 0 && c[i].was != c[i].now)
			fprintf(stderr, "cugen: explain: the planner's %s: %s, was %s (cugen plan says why)\n",
				c[i].name, yes_no(c[i].now), yes_no(c[i].was));
	int now_split = ch->split_edges ? ch->tail_split : 0;
	if (h->tail_split >= 0 && h->tail_split != now_split)
		fprintf(stderr, "cugen: explain: the planner's tail split: --split-compile %d, was %d\n", now_split,
			h->tail_split);
}

/* Prints up to 3 of a list of outputs, and how many more. */
static void examples(GString *o, GPtrArray *outs)
{
	for (guint i = 0; i < MIN(outs->len, 3u); i++)
		g_string_append_printf(o, " %s", (char *)g_ptr_array_index(outs, i));
	if (outs->len > 3)
		g_string_append_printf(o, " (and %u more)", outs->len - 3);
}

/* The -D's this setup sets or changes, and the kept ones it drops. */
static void options_changed(const SetupArgs *a)
{
	char **kept = a->kept, **defines = a->defines;
	for (char **u = a->undefines; u && *u; u++)
		fprintf(stderr, "cugen: explain: -U %s, by this setup\n", *u);
	if (a->reset)
		fprintf(stderr, "cugen: explain: --reset: no -D kept from the last setup\n");
	for (char **d = defines; d && *d; d++)
		if (!kept || !g_strv_contains((const char *const *)kept, *d))
			fprintf(stderr, "cugen: explain: -D %s, set by this setup\n", *d);
	for (char **k = kept; k && *k; k++)
		if (!defines || !g_strv_contains((const char *const *)defines, *k))
			fprintf(stderr, "cugen: explain: -D %s, kept until this setup\n", *k);
}

void explain_print(const Graph *old, const char *file, const Graph *now, const History *h, const Grouping *ch,
		   const SetupArgs *a)
{
	if (!old) {
		fprintf(stderr, "cugen: explain: no build file of an earlier setup: every command is new\n");
		return;
	}
	options_changed(a);
	choices(h, ch);
	GHashTable *was = g_hash_table_new(g_str_hash, g_str_equal); /* first output -> old edge */
	for (guint i = 0; i < old->edges->len; i++) {
		Edge *e = g_ptr_array_index(old->edges, i);
		if (e->rule && EDGE_LEN(e->outs))
			g_hash_table_insert(was, (char *)EDGE_AT(e->outs, 0), e);
	}
	/* change text -> outputs, in the order first seen */
	GHashTable *by_change = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	GPtrArray *changes = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *added = g_ptr_array_new();
	guint compared = 0, changed = 0;
	for (guint i = 0; i < now->edges->len; i++) {
		const Edge *e = g_ptr_array_index(now->edges, i);
		if (!e->rule || e->kind == EK_REGEN || !EDGE_LEN(e->outs))
			continue;
		const char *out = EDGE_AT(e->outs, 0);
		const Edge *o = g_hash_table_lookup(was, out);
		if (!o) {
			g_ptr_array_add(added, (char *)out);
			continue;
		}
		g_hash_table_remove(was, out);
		compared++;
		char *a = edge_command(o), *b = edge_command(e);
		if (strcmp(a, b) != 0) {
			changed++;
			char *c = command_change(a, b);
			GPtrArray *outs = g_hash_table_lookup(by_change, c);
			if (!outs) {
				outs = g_ptr_array_new();
				g_hash_table_insert(by_change, g_strdup(c), outs);
				g_ptr_array_add(changes, g_strdup(c));
			}
			g_ptr_array_add(outs, (char *)out);
			g_free(c);
		}
		g_free(a);
		g_free(b);
	}
	/* the regeneration edge is the old file's too (it runs cugen) */
	GPtrArray *gone = g_ptr_array_new();
	for (guint i = 0; i < old->edges->len; i++) {
		Edge *e = g_ptr_array_index(old->edges, i);
		if (e->rule && EDGE_LEN(e->outs) && g_hash_table_lookup(was, EDGE_AT(e->outs, 0)) == e &&
		    strcmp(EDGE_AT(e->outs, 0), "build.ninja") != 0)
			g_ptr_array_add(gone, (char *)EDGE_AT(e->outs, 0));
	}
	fprintf(stderr, "cugen: explain: against %s: %u of %u commands change, %u edges new, %u gone\n", file,
		changed, compared, added->len, gone->len);
	for (guint i = 0; i < changes->len; i++) {
		const char *c = g_ptr_array_index(changes, i);
		GPtrArray *outs = g_hash_table_lookup(by_change, c);
		GString *o = g_string_new(NULL);
		examples(o, outs);
		fprintf(stderr, "cugen: explain:   %s: %s\n", o->str + 1, c);
		g_string_free(o, TRUE);
		g_ptr_array_free(outs, TRUE);
	}
	const struct {
		const char *what;
		GPtrArray *outs;
	} lists[] = { { "new", added }, { "gone", gone } };
	for (gsize k = 0; k < G_N_ELEMENTS(lists); k++)
		if (lists[k].outs->len) {
			GString *o = g_string_new(NULL);
			examples(o, lists[k].outs);
			fprintf(stderr, "cugen: explain:   %s:%s\n", lists[k].what, o->str);
			g_string_free(o, TRUE);
		}
	g_ptr_array_free(gone, TRUE);
	g_ptr_array_free(added, TRUE);
	g_ptr_array_free(changes, TRUE);
	g_hash_table_destroy(by_change);
	g_hash_table_destroy(was);
}
