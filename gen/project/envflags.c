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
