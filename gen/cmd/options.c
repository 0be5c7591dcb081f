/* options.c -- attached and kept options; see options.h. */
#include "options.h"

#include <stdio.h>
#include <string.h>

#include "envflags.h"
#include "statefile.h"
#include "util.h"

static char **split_argv; /* (kept for the process: GOption points into it) */

void options_split_attached(int *argc, char ***argv, const char *letters)
{
	gboolean any = FALSE;
	for (int i = 1; i < *argc && !any; i++) {
		const char *s = (*argv)[i];
		if (strcmp(s, "--") == 0)
			break;
		any = s[0] == '-' && s[1] && s[1] != '-' && strchr(letters, s[1]) && s[2];
	}
	if (!any)
		return;
	GPtrArray *v = g_ptr_array_new();
	gboolean rest = FALSE;
	for (int i = 0; i < *argc; i++) {
		const char *s = (*argv)[i];
		rest |= strcmp(s, "--") == 0;
		if (i > 0 && !rest && s[0] == '-' && s[1] && s[1] != '-' && strchr(letters, s[1]) && s[2]) {
			g_ptr_array_add(v, g_strndup(s, 2));
			g_ptr_array_add(v, g_strdup(s + 2));
		} else {
			g_ptr_array_add(v, g_strdup(s));
		}
	}
	g_ptr_array_add(v, NULL);
	g_strfreev(split_argv);
	split_argv = (char **)g_ptr_array_free(v, FALSE);
	*argc = (int)g_strv_length(split_argv);
	*argv = split_argv;
}

static char *define_key(const char *d)
{
	return g_strndup(d, strcspn(d, "="));
}

static void add_define(GPtrArray *v, const char *key, const char *value)
{
	g_ptr_array_add(v, g_strconcat(key, "=", value, NULL));
}

gboolean options_merge(SetupArgs *a, const char *builddir, GError **err)
{
	GPtrArray *given = g_ptr_array_new_with_free_func(g_free);
	for (char **d = a->defines; d && *d; d++)
		g_ptr_array_add(given, g_strdup(*d));
	/* the options that stand for a -D: the last word */
	if (a->prefix)
		add_define(given, "project.prefix", a->prefix);
	if (a->buildtype)
		add_define(given, "project.buildtype", a->buildtype);
	for (char **u = a->undefines; u && *u; u++)
		if (!strchr(*u, '.') || strchr(*u, '=')) {
			cg_usage_error(err, "-U '%s': name a kept option as SECTION.KEY (see 'cugen setup --list-options')", *u);
			g_ptr_array_free(given, TRUE);
			return FALSE;
		}
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *kept_out = g_ptr_array_new_with_free_func(g_free);
	char *path = g_build_filename(builddir, ".cugen", "args.ini", NULL);
	GKeyFile *k = g_key_file_new();
	if (!a->reset && g_file_test(path, G_FILE_TEST_IS_REGULAR) && state_load_keyfile(k, path, "args")) {
		char **kept = g_key_file_get_string_list(k, "setup", "defines", NULL, NULL);
		for (char **d = kept; d && *d; d++) {
			char *key = define_key(*d);
			gboolean drop = a->undefines && g_strv_contains((const char *const *)a->undefines, key);
			for (guint i = 0; !drop && i < given->len; i++) {
				char *gk = define_key(g_ptr_array_index(given, i));
				drop = strcmp(gk, key) == 0;
				g_free(gk);
			}
			if (!drop) {
				g_ptr_array_add(out, g_strdup(*d));
				g_ptr_array_add(kept_out, g_strdup(*d));
			}
			g_free(key);
		}
		g_strfreev(kept);
	}
	g_key_file_free(k);
	g_free(path);
	for (guint i = 0; i < given->len; i++)
		g_ptr_array_add(out, g_strdup(g_ptr_array_index(given, i)));
	g_ptr_array_free(given, TRUE);
	g_strfreev(a->defines);
	g_ptr_array_add(out, NULL);
	a->defines = (char **)g_ptr_array_free(out, FALSE);
	g_strfreev(a->kept);
	g_ptr_array_add(kept_out, NULL);
	a->kept = (char **)g_ptr_array_free(kept_out, FALSE);
	if (!*a->defines) {
		g_free(a->defines);
		a->defines = NULL;
	}
	return TRUE;
}

void options_list(const SetupArgs *a, const char *builddir)
{
	printf("options of %s (kept for the next setup; -U SECTION.KEY or --reset drops them):\n", builddir);
	guint n = 0;
	for (char **d = a->defines; d && *d; d++, n++)
		printf("  -D %s\n", *d);
	if (!n)
		printf("  (no -D)\n");
	EnvFlags *e = envflags_read(builddir);
	for (int i = 0; i < ENV_COUNT; i++)
		if (e->value[i])
			printf("  %s=%s%s\n", envflags_name(i), e->value[i], e->recorded[i] ? " (kept)" : "");
	envflags_free(e);
}

GPtrArray *options_regen_args(const SetupArgs *a, const char *ini, const char *builddir)
{
	GPtrArray *r = g_ptr_array_new_with_free_func(g_free);
	if (a->regen) {
		/* combine regenerates as combine */
		for (char **x = a->regen; *x; x++)
			g_ptr_array_add(r, g_strdup(*x));
		return r;
	}
	const char *const head[] = { "setup", "-f", ini, "-B", builddir };
	for (gsize i = 0; i < G_N_ELEMENTS(head); i++)
		g_ptr_array_add(r, g_strdup(head[i]));
	const char *const opts[][2] = { { "--profile", a->profile }, { "--archs", a->archs } };
	for (gsize i = 0; i < G_N_ELEMENTS(opts); i++)
		if (opts[i][1]) {
			g_ptr_array_add(r, g_strdup(opts[i][0]));
			g_ptr_array_add(r, g_strdup(opts[i][1]));
		}
	for (char **d = a->defines; d && *d; d++) {
		g_ptr_array_add(r, g_strdup("-D"));
		g_ptr_array_add(r, g_strdup(*d));
	}
	if (strcmp(a->backend, "ninja") != 0) {
		g_ptr_array_add(r, g_strdup("--backend"));
		g_ptr_array_add(r, g_strdup(a->backend));
	}
	/* (the -d modes only observe: a regeneration runs without them) */
	return r;
}
