/* capability.c -- compute capabilities of images; see capability.h. */
#include "capability.h"

#include <stdlib.h>
#include <string.h>

gboolean cc_of_arch(const char *arch, CcRange *r)
{
	gboolean ptx = g_str_has_prefix(arch, "compute_");
	if (!ptx && !g_str_has_prefix(arch, "sm_"))
		return FALSE;
	const char *d = strchr(arch, '_') + 1;
	char *end = NULL;
	long n = strtol(d, &end, 10);
	if (end == d || n < 10 || n > 9999 || (*end && strcmp(end, "a") && strcmp(end, "f")))
		return FALSE;
	r->lo = (int)n;
	if (ptx) /* PTX JIT-compiles for any later GPU */
		r->hi = CC_OPEN;
	else if (strcmp(end, "a") == 0) /* arch-specific: that GPU only */
		r->hi = (int)n + 1;
	else /* SASS runs on later minors of its major */
		r->hi = ((int)n / 10 + 1) * 10;
	return TRUE;
}

void cc_add(GArray *u, CcRange r)
{
	guint i = 0;
	while (i < u->len && g_array_index(u, CcRange, i).hi < r.lo)
		i++;
	/* merge every range that touches or overlaps r */
	while (i < u->len && g_array_index(u, CcRange, i).lo <= r.hi) {
		CcRange o = g_array_index(u, CcRange, i);
		r.lo = MIN(r.lo, o.lo);
		r.hi = MAX(r.hi, o.hi);
		g_array_remove_index(u, i);
	}
	g_array_insert_val(u, i, r);
}

GArray *cc_intersect(const GArray *a, const GArray *b)
{
	GArray *o = g_array_new(FALSE, FALSE, sizeof(CcRange));
	for (guint i = 0; i < a->len; i++)
		for (guint j = 0; j < b->len; j++) {
			CcRange x = g_array_index(a, CcRange, i), y = g_array_index(b, CcRange, j);
			CcRange r = { MAX(x.lo, y.lo), MIN(x.hi, y.hi) };
			if (r.lo < r.hi)
				cc_add(o, r);
		}
	return o;
}

GArray *cc_cover(const char *const *arch, const char *const *module, guint n)
{
	return cc_cover_limited(arch, module, n, NULL);
}

/* Whether a covers every capability of b. */
static gboolean covers(const GArray *a, const GArray *b)
{
	GArray *both = cc_intersect(a, b);
	gboolean all = both->len == b->len;
	for (guint i = 0; all && i < b->len; i++) {
		CcRange x = g_array_index(both, CcRange, i), y = g_array_index(b, CcRange, i);
		all = x.lo == y.lo && x.hi == y.hi;
	}
	g_array_unref(both);
	return all;
}

GArray *cc_cover_limited(const char *const *arch, const char *const *module, guint n, const char **limiting)
{
	GHashTable *per = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, (GDestroyNotify)g_array_unref);
	GPtrArray *order = g_ptr_array_new();
	for (guint i = 0; i < n; i++) {
		CcRange r;
		if (!cc_of_arch(arch[i], &r))
			continue;
		const char *m = module[i] ? module[i] : "";
		GArray *u = g_hash_table_lookup(per, m);
		if (!u) {
			u = g_array_new(FALSE, FALSE, sizeof(CcRange));
			g_hash_table_insert(per, (gpointer)m, u);
			g_ptr_array_add(order, (gpointer)m);
		}
		cc_add(u, r);
	}
	GArray *all = NULL, *any = g_array_new(FALSE, FALSE, sizeof(CcRange));
	for (guint i = 0; i < order->len; i++) {
		GArray *u = g_hash_table_lookup(per, g_ptr_array_index(order, i));
		GArray *next = all ? cc_intersect(all, u) : g_array_copy(u);
		if (all)
			g_array_unref(all);
		all = next;
		for (guint k = 0; k < u->len; k++)
			cc_add(any, g_array_index(u, CcRange, k));
	}
	/* the module covering least of what the others cover together */
	if (limiting) {
		*limiting = NULL;
		guint least = G_MAXUINT;
		for (guint i = 0; i < order->len; i++) {
			GArray *u = g_hash_table_lookup(per, g_ptr_array_index(order, i));
			if (covers(u, any))
				continue;
			guint w = 0;
			for (guint k = 0; k < u->len; k++) {
				CcRange r = g_array_index(u, CcRange, k);
				w += r.hi == CC_OPEN ? 1000 : (guint)(r.hi - r.lo);
			}
			if (w < least) {
				least = w;
				*limiting = g_ptr_array_index(order, i);
			}
		}
	}
	g_array_unref(any);
	g_ptr_array_free(order, TRUE);
	g_hash_table_destroy(per);
	return all ? all : g_array_new(FALSE, FALSE, sizeof(CcRange));
}

static void put_cc(GString *o, int cc)
{
	g_string_append_printf(o, "%d.%d", cc / 10, cc % 10);
}

char *cc_describe(const GArray *u)
{
	GString *o = g_string_new(NULL);
	for (guint i = 0; i < u->len; i++) {
		CcRange r = g_array_index(u, CcRange, i);
		if (i)
			g_string_append(o, ", ");
		put_cc(o, r.lo);
		if (r.hi == CC_OPEN)
			g_string_append_c(o, '+');
		else if (r.hi == r.lo + 1)
			; /* one capability */
		else if (r.hi % 10 == 0 && r.hi / 10 == r.lo / 10 + 1)
			g_string_append_printf(o, "-%d.x", r.lo / 10);
		else {
			g_string_append_c(o, '-');
			put_cc(o, r.hi - 1);
		}
	}
	return g_string_free(o, FALSE);
}

char *cc_conda_spec(const GArray *u)
{
	if (u->len != 1)
		return NULL;
	CcRange r = g_array_index(u, CcRange, 0);
	GString *o = g_string_new("cuda-arch >=");
	put_cc(o, r.lo);
	if (r.hi != CC_OPEN) {
		g_string_append(o, ",<");
		put_cc(o, r.hi);
	}
	return g_string_free(o, FALSE);
}
