/* envflags.c -- the build environment's flags, kept with the build
 * directory; see envflags.h. */
#include "envflags.h"

#include <string.h>

#include "statefile.h"

static const char *const names[ENV_COUNT] = {
	[ENV_CPPFLAGS] = "CPPFLAGS", [ENV_CFLAGS] = "CFLAGS", [ENV_CXXFLAGS] = "CXXFLAGS",
	[ENV_LDFLAGS] = "LDFLAGS", [ENV_CUDAFLAGS] = "CUDAFLAGS", [ENV_CUDAARCHS] = "CUDAARCHS",
	[ENV_CUDAHOSTCXX] = "CUDAHOSTCXX",
};

const char *envflags_name(EnvVar v)
{
	return names[v];
}

EnvFlags *envflags_read(const char *builddir)
{
	EnvFlags *e = g_new0(EnvFlags, 1);
	char *path = builddir ? g_build_filename(builddir, ENV_RECORD, NULL) : NULL;
	GKeyFile *k = g_key_file_new();
	gboolean have = path && g_file_test(path, G_FILE_TEST_EXISTS) && state_load_keyfile(k, path, "env");
	for (int i = 0; i < ENV_COUNT; i++) {
		const char *v = g_getenv(names[i]);
		if (v) {
			e->value[i] = g_strdup(v);
		} else if (have) {
			e->value[i] = g_key_file_get_string(k, "env", names[i], NULL);
			e->recorded[i] = e->value[i] != NULL;
		}
	}
	g_key_file_free(k);
	g_free(path);
	return e;
}

void envflags_free(EnvFlags *e)
{
	if (!e)
		return;
	for (int i = 0; i < ENV_COUNT; i++)
		g_free(e->value[i]);
	g_free(e);
}

const char *envflags_get(const EnvFlags *e, EnvVar v)
{
	return e && e->value[v] ? e->value[v] : "";
}

GString *envflags_record(const EnvFlags *e)
{
	GKeyFile *k = g_key_file_new();
	g_key_file_set_comment(k, NULL, NULL, " the environment's flags of the first setup (cugen(1), ENVIRONMENT)", NULL);
	for (int i = 0; i < ENV_COUNT; i++)
		if (e->value[i])
			g_key_file_set_string(k, "env", names[i], e->value[i]);
	gsize len = 0;
	char *data = g_key_file_to_data(k, &len, NULL);
	g_key_file_free(k);
	GString *s = g_string_new_len(data, (gssize)len);
	g_free(data);
	return state_seal("env", s);
}

char *envflags_used(const EnvFlags *e)
{
	GString *s = g_string_new(NULL);
	for (int i = 0; i < ENV_COUNT; i++)
		if (e && e->value[i] && *e->value[i])
			g_string_append_printf(s, "%s%s", s->len ? " " : "", names[i]);
	return g_string_free(s, FALSE);
}

gboolean envflags_cmake_archs(const char *spec, char **archs, char **ptx)
{
	char **w = g_strsplit_set(spec, "; \t", -1);
	GString *a = g_string_new(NULL), *p = g_string_new(NULL);
	gboolean ok = TRUE, any = FALSE, special = FALSE;
	for (char **x = w; *x; x++) {
		if (!**x)
			continue;
		any = TRUE;
		const char *dash = strchr(*x, '-');
		char *num = dash ? g_strndup(*x, (gsize)(dash - *x)) : g_strdup(*x);
		const char *how = dash ? dash + 1 : "";
		if (!dash && (strcmp(*x, "all") == 0 || strcmp(*x, "native") == 0)) {
			special = TRUE;
			g_string_append_printf(a, "%s%s", a->len ? " " : "", *x);
		} else if (strcmp(*x, "all-major") == 0) {
			special = TRUE;
			g_string_append_printf(a, "%s%s", a->len ? " " : "", *x);
		} else if (!*num || !g_ascii_isdigit(*num) ||
			   strspn(num, "0123456789") < strlen(num) - (strchr("af", num[strlen(num) - 1]) ? 1 : 0)) {
			ok = FALSE;
		} else if (!*how) {
			g_string_append_printf(a, "%s%s", a->len ? " " : "", num);
			g_string_append_printf(p, "%s%s", p->len ? " " : "", num);
		} else if (strcmp(how, "real") == 0) {
			g_string_append_printf(a, "%s%s", a->len ? " " : "", num);
		} else if (strcmp(how, "virtual") == 0) {
			g_string_append_printf(a, "%scompute_%s", a->len ? " " : "", num);
		} else {
			ok = FALSE;
		}
		g_free(num);
	}
	g_strfreev(w);
	ok = ok && any;
	*archs = ok ? g_string_free(a, FALSE) : (g_string_free(a, TRUE), NULL);
	*ptx = ok ? (special ? g_strdup("highest") : p->len ? g_strdup(p->str) : g_strdup("none")) : NULL;
	g_string_free(p, TRUE);
	return ok;
}
