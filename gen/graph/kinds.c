/* kinds.c -- the one table of edge kinds; see kinds.h. */
#include "kinds.h"

#include <string.h>

static const struct {
	const char *name;
	gboolean per_arch;
} kinds[EK_COUNT] = {
	[EK_FE] = { "fe", FALSE },
	[EK_DEV] = { "dev", TRUE },
	[EK_DEVPP] = { "dev-pp", TRUE },
	[EK_CICC] = { "dev-cicc", TRUE },
	[EK_STUB] = { "stub", FALSE },
	[EK_HOST] = { "host", FALSE },
	[EK_FATBIN] = { "fatbin", FALSE },
	[EK_NVCC] = { "nvcc", FALSE },
	[EK_DLOBJ] = { "dlink-obj", TRUE },
	[EK_NVLINK] = { "nvlink", TRUE },
	[EK_DLFATBIN] = { "dlink-fatbin", FALSE },
	[EK_DLHOST] = { "dlink-host", FALSE },
	[EK_CC] = { "cc", FALSE },
	[EK_CXX] = { "cxx", FALSE },
	[EK_AR] = { "ar", FALSE },
	[EK_LINK] = { "link", FALSE },
	[EK_SYMLINK] = { "symlink", FALSE },
	[EK_RANK] = { "rank", FALSE },
	[EK_DATA] = { "data", FALSE },
	[EK_MANIFEST] = { "manifest", FALSE },
	[EK_IMPORT] = { "import", FALSE },
	[EK_GATE] = { "gate", FALSE },
	[EK_REGEN] = { "regen", FALSE },
	[EK_PHONY] = { "phony", FALSE },
};

/* The rules cugen writes, by stem. A "_ID" stem takes an arch id or a
 * word (cuda_stub_syntax), and then "_..." (variants, _splitN). */
static const struct {
	const char *stem;
	gboolean id;      /* stem + "_" + ID (+ "_..."); else stem (+ "_N") */
	EdgeKind kind;
} rules[] = {
	{ RULE_FE, FALSE, EK_FE },
	{ RULE_DEV, TRUE, EK_DEV },
	{ RULE_PTXAS, TRUE, EK_DEV },
	{ RULE_PP, TRUE, EK_DEVPP },
	{ RULE_CICC, TRUE, EK_CICC },
	{ RULE_STUB, TRUE, EK_STUB },
	{ RULE_HOST, FALSE, EK_HOST },
	{ RULE_FATBIN, FALSE, EK_FATBIN },
	{ RULE_NVCC, FALSE, EK_NVCC },
	{ RULE_DLOBJ, TRUE, EK_DLOBJ },
	{ RULE_NVLINK, TRUE, EK_NVLINK },
	{ RULE_DLFATBIN, FALSE, EK_DLFATBIN },
	{ RULE_DLHOST, FALSE, EK_DLHOST },
	{ RULE_CC, FALSE, EK_CC },
	{ RULE_CXX, FALSE, EK_CXX },
	{ RULE_AR, FALSE, EK_AR },
	{ RULE_LINK, FALSE, EK_LINK },
	{ RULE_SYMLINK, FALSE, EK_SYMLINK },
	{ RULE_RANK, FALSE, EK_RANK },
	{ RULE_DATA, FALSE, EK_DATA },
	{ RULE_MANIFEST, FALSE, EK_MANIFEST },
	{ RULE_IMPORT, FALSE, EK_IMPORT },
	{ RULE_GATE, FALSE, EK_GATE },
	{ RULE_GATE "_target", FALSE, EK_GATE },
	{ RULE_REGEN, FALSE, EK_REGEN },
	{ "phony", FALSE, EK_PHONY },
};

const char *edge_kind_name(EdgeKind k)
{
	return k < EK_COUNT ? kinds[k].name : "other";
}

gboolean edge_kind_per_arch(EdgeKind k)
{
	return k < EK_COUNT && kinds[k].per_arch;
}

/* rule is stem, or stem followed by "_" and digits (a variant). */
static gboolean stem_is(const char *rule, const char *stem)
{
	gsize n = strlen(stem);
	if (strncmp(rule, stem, n) != 0)
		return FALSE;
	if (!rule[n])
		return TRUE;
	if (rule[n] != '_' || !rule[n + 1])
		return FALSE;
	for (const char *p = rule + n + 1; *p; p++)
		if (!g_ascii_isdigit(*p))
			return FALSE;
	return TRUE;
}

/* An arch word: sm_90, compute_90, lto_90, sm_90a, sm_100f. */
static gboolean is_arch_word(const char *s, gsize n)
{
	gsize p = 0;
	if (n > 3 && strncmp(s, "sm_", 3) == 0)
		p = 3;
	else if (n > 8 && strncmp(s, "compute_", 8) == 0)
		p = 8;
	else if (n > 4 && strncmp(s, "lto_", 4) == 0)
		p = 4;
	else
		return FALSE;
	gsize d = p;
	while (d < n && g_ascii_isdigit(s[d]))
		d++;
	if (d == p)
		return FALSE;
	return d == n || (d + 1 == n && g_ascii_islower(s[d]));
}

static char *arch_in_description(const char *desc)
{
	if (!desc)
		return NULL;
	for (const char *p = desc; *p;) {
		while (*p == ' ')
			p++;
		gsize n = strcspn(p, " ");
		if (is_arch_word(p, n))
			return g_strndup(p, n);
		p += n;
	}
	return NULL;
}

/* "sm_ID" from a rule named PREFIX + ID (+ "_N"). */
static char *arch_in_rule(const char *rule, const char *prefix)
{
	const char *id = rule + strlen(prefix);
	gsize n = strcspn(id, "_");
	if (!n)
		return NULL;
	char *a = g_strdup_printf("sm_%.*s", (int)n, id);
	if (!is_arch_word(a, strlen(a)))
		g_clear_pointer(&a, g_free);
	return a;
}

EdgeKind edge_kind_of_rule(const char *rule, const char *description, char **arch)
{
	*arch = NULL;
	if (!rule)
		return EK_COUNT;
	for (gsize i = 0; i < G_N_ELEMENTS(rules); i++) {
		gsize n = strlen(rules[i].stem);
		gboolean match = rules[i].id
			? strncmp(rule, rules[i].stem, n) == 0 && rule[n] == '_' && rule[n + 1] && rule[n + 1] != '_'
			: stem_is(rule, rules[i].stem);
		if (!match)
			continue;
		EdgeKind k = rules[i].kind;
		if (kinds[k].per_arch) {
			*arch = arch_in_description(description);
			if (!*arch) {
				char *prefix = g_strconcat(rules[i].stem, "_", NULL);
				*arch = arch_in_rule(rule, prefix);
				g_free(prefix);
			}
		}
		return k;
	}
	return EK_COUNT;
}
