/* ruletext.c -- the rule text the graph's files share: nvcc's argv
 * rendered into ninja commands (placeholders to variables, the rest
 * quoted), the named fragments of templates/rule-text.in, outputs written
 * whole, `cugen exec`'s measuring prefix, and paths relative to BUILDDIR;
 * see edges_int.h. */
#include "edges_int.h"

#include <stdarg.h>
#include <string.h>

#include "template.h"
#include "util.h"

char *ed_rel(Ctx *x, const char *abs)
{
	return resolve_rel(x->r, abs);
}

GPtrArray *ed_nvcc_head(Ctx *x, const char *mode)
{
	return resolve_nvcc_head(x->r, mode);
}

/* ---- rendering templates into rule commands ---- */

static void append_literal(GString *out, const char *s, gsize n)
{
	if (!n)
		return;
	char *piece = g_strndup(s, n);
	char *q = cg_ninja_sh_quote(piece);
	g_string_append(out, q);
	g_free(q);
	g_free(piece);
}

/* The placeholder at p (a mark, a known name, a mark), or NULL: a mark
 * that is not one (a path may hold the byte) is a literal byte. */
static const char *placeholder(const char *p, gsize *len)
{
	static const char *const names[] = { "O", "F", "C", "IN", "OUT", "STUB", "REG", "IDENT" };
	for (gsize i = 0; i < G_N_ELEMENTS(names); i++) {
		gsize n = strlen(names[i]);
		if (strncmp(p + 1, names[i], n) == 0 && p[1 + n] == PH) {
			*len = n + 2;
			return names[i];
		}
	}
	return NULL;
}

/* One argument of a template (pipeline.h): placeholders become ninja
 * variables, the rest is quoted. */
static void render_template_arg(GString *out, const char *arg)
{
	if (out->len && out->str[out->len - 1] != ' ')
		g_string_append_c(out, ' ');
	const char *p = arg, *lit = arg;
	/* literal text is quoted in runs, up to each placeholder */
	while ((p = strchr(p, PH))) {
		gsize len = 0;
		const char *name = placeholder(p, &len);
		if (!name) {
			p++;
			continue;
		}
		append_literal(out, lit, p - lit);
		if (strcmp(name, "IN") == 0)
			g_string_append(out, "${in}");
		else if (strcmp(name, "OUT") == 0)
			g_string_append(out, "${out}");
		else
			g_string_append_printf(out, "${%s}", name);
		p += len;
		lit = p;
	}
	append_literal(out, lit, strlen(lit));
}

/* One literal argument (a tool, a flag, a path: never a placeholder, even
 * where it holds the mark byte). */
void ed_render_arg(GString *out, const char *arg)
{
	if (out->len && out->str[out->len - 1] != ' ')
		g_string_append_c(out, ' ');
	append_literal(out, arg, strlen(arg));
}

void ed_render(GString *out, GPtrArray *argv)
{
	for (guint i = 0; i < argv->len; i++)
		render_template_arg(out, g_ptr_array_index(argv, i));
}

void ed_render_words(GString *out, const char *words)
{
	GPtrArray *w = g_ptr_array_new_with_free_func(g_free);
	cg_split_words(words, w, NULL);
	for (guint i = 0; i < w->len; i++)
		ed_render_arg(out, g_ptr_array_index(w, i));
	g_ptr_array_free(w, TRUE);
}

/* ---- outputs written whole ----
 * The tools write their outputs in place (O_TRUNC on the final name):
 * killed mid-write, they leave a partial file under the output's name. ninja
 * trusts it when its log still has the output's entry (the output was
 * deleted by hand or by `ninja -t clean` and this was its rebuild), make
 * whenever it is newer than its prerequisites. So every edge has its tools
 * write each declared output (explicit and implicit) under NAME.tmp and, as
 * its last step, renames them into place: a name ninja or make sees holds a
 * whole output or nothing. Names the tools embed in their outputs stay the
 * real ones (the host stub's line markers, ar's member names). */

void ed_frag(Ctx *x, GString *c, const char *name, ...)
{
	GPtrArray *vars = g_ptr_array_new();
	const char *fixed[] = { "LOG", EDGE_LOG, "TMP", TMP, "CUGEN", x ? ed_cugen_q(x) : NULL };
	for (gsize i = 0; i < G_N_ELEMENTS(fixed) && fixed[i + 1]; i += 2) {
		g_ptr_array_add(vars, (gpointer)fixed[i]);
		g_ptr_array_add(vars, (gpointer)fixed[i + 1]);
	}
	va_list ap;
	va_start(ap, name);
	for (const char *k; (k = va_arg(ap, const char *));) {
		g_ptr_array_add(vars, (gpointer)k);
		g_ptr_array_add(vars, va_arg(ap, char *));
	}
	va_end(ap);
	g_ptr_array_add(vars, NULL);
	char *t = template_fragment("rule-text.in", name, (const char *const *)vars->pdata);
	g_string_append(c, t);
	g_free(t);
	g_ptr_array_free(vars, TRUE);
}

void ed_publish(GString *c, const char *path)
{
	ed_frag(NULL, c, "publish", "PATH", path, NULL);
}

/* Prefix a step with `cugen exec`, which logs its peak memory and CPU
 * time to BUILDDIR/.cugen/edges.log for the planner. */

/* This program, quoted for the shell (rules call it). */
const char *ed_cugen_q(Ctx *x)
{
	if (!x->cugen_q)
		x->cugen_q = cg_sh_quote(x->in->cugen);
	return x->cugen_q;
}

void ed_measured(Ctx *x, GString *c)
{
	if (c->len && c->str[c->len - 1] != ' ')
		g_string_append_c(c, ' ');
	ed_frag(x, c, "measured", NULL);
}
