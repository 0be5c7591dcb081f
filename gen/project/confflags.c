/* confflags.c -- the flags every compile starts from, before the INI's.
 *
 * Owns: [project] buildtype (--buildtype) and its flags, as CMake's
 * CMAKE_<LANG>_FLAGS_<CONFIG> (with -G for device debug and -lineinfo
 * for relwithdebinfo), and putting the environment's flags (envflags.h)
 * in front: [cuda] flags becomes CUDAFLAGS, the build type's, then the
 * file's; [toolchain] cflags CPPFLAGS CFLAGS, the build type's, then the
 * file's (cxxflags likewise, ldflags with LDFLAGS); CUDAARCHS stands in
 * for a missing [cuda] archs (and ptx), CUDAHOSTCXX for a missing ccbin.
 * It changes the sections after -D and the profile were applied, before
 * config.c reads them: every value is then checked as the file's own.
 */
#include "config_int.h"

#include <string.h>

#include "archspell.h"
#include "cudaflags.h"
#include "envflags.h"
#include "util.h"

/* The build types and their flags: nvcc's, then the host compilers'. */
static const struct {
	const char *name, *cuda, *host;
} types[] = {
	{ "none", "", "" },
	{ "debug", "-G -g", "-g" },
	{ "release", "-O3 -DNDEBUG", "-O3 -DNDEBUG" },
	{ "relwithdebinfo", "-O2 -g -lineinfo -DNDEBUG", "-O2 -g -DNDEBUG" },
	{ "minsizerel", "-O1 -DNDEBUG", "-Os -DNDEBUG" },
};

gboolean buildtype_flags(const char *name, const char **cuda, const char **host)
{
	for (gsize i = 0; i < G_N_ELEMENTS(types); i++)
		if (g_ascii_strcasecmp(name, types[i].name) == 0) {
			*cuda = types[i].cuda;
			*host = types[i].host;
			return TRUE;
		}
	return FALSE;
}

static gboolean build_type(GPtrArray *secs, int *out, GError **err)
{
	Entry *e = cf_find_entry(cf_find_section(secs, SEC_PROJECT, NULL), "buildtype");
	*out = 0;
	if (!e)
		return TRUE;
	char *v = g_ascii_strdown(e->value, -1);
	g_strstrip(v);
	for (gsize i = 0; i < G_N_ELEMENTS(types); i++)
		if (strcmp(v, types[i].name) == 0) {
			*out = (int)i;
			g_free(v);
			return TRUE;
		}
	cf_entry_error(err, e, "invalid buildtype '%s' (expected none, debug, release, relwithdebinfo or minsizerel)",
		       e->value);
	g_free(v);
	return FALSE;
}

/* Put words in front of section's key (an entry made where there is none,
 * placed at loc). */
static void prepend(GPtrArray *secs, SecKind kind, const char *key, const char *words, const char *origin)
{
	if (!words || !*words)
		return;
	Section *s = cf_find_section(secs, kind, NULL);
	Entry *e = cf_find_entry(s, key);
	Loc loc = e ? e->loc : (Loc){ g_intern_string(origin), 0 };
	if (!s)
		s = cf_ensure_section(secs, kind, NULL, loc);
	char *v = e && *e->value ? g_strconcat(words, " ", e->value, NULL) : g_strdup(words);
	cf_set_entry(s, key, v, loc);
	g_free(v);
}

/* [cuda] archs in nvcc's -gencode spelling (a configure option's value,
 * say) as cugen's archs and ptx, both at the entry's place. */
static gboolean gencode_archs(Section *cuda, GError **err)
{
	Entry *e = cuda ? cf_find_entry(cuda, "archs") : NULL;
	if (!e || !archspell_is_gencode(e->value))
		return TRUE;
	char *archs = NULL, *ptx = NULL, *bad = NULL;
	if (!archspell_gencode(e->value, &archs, &ptx, &bad)) {
		if (bad)
			cf_entry_error(err, e, "archs: '%s': cugen builds each sm_NN from compute_NN (write "
				       "arch=compute_NN,code=sm_NN)", bad);
		else
			cf_entry_error(err, e, "archs: '%s' is neither an arch list nor nvcc -gencode options (e.g. "
				       "archs = 80 90, or -gencode=arch=compute_80,code=sm_80)", e->value);
		g_free(bad);
		return FALSE;
	}
	Loc loc = e->loc;
	if (archspell_gencode_ptx_first(e->value) && !cf_find_entry(cuda, "ptx_first"))
		cf_set_entry(cuda, "ptx_first", "yes", loc);
	cf_set_entry(cuda, "archs", archs, loc);
	cf_set_entry(cuda, "ptx", ptx, loc);
	g_free(archs);
	g_free(ptx);
	return TRUE;
}

/* nvcc adds NVCC_PREPEND_FLAGS and NVCC_APPEND_FLAGS to every command
 * line it is given, the dryrun cugen reads its steps from included: the
 * same checks as [cuda] flags and CUDAFLAGS, and no flag that chooses a
 * setting cugen keeps itself (-std, -rdc, -dlto, --threads). */
/* NVCC_PREPEND_FLAGS' -ccbin, as conda-forge's cuda-nvcc activation sets
 * it (-ccbin=$CXX) on every feedstock: the host compiler, where nothing
 * else names one (a -ccbin of cugen's own comes after it, and nvcc takes
 * the last); the rest of the value, in *rest. */
static char *prepend_ccbin(const char *v, char **rest)
{
	GPtrArray *w = g_ptr_array_new_with_free_func(g_free);
	char *ccbin = NULL;
	*rest = NULL;
	if (!cg_split_words(v, w, NULL)) {
		g_ptr_array_free(w, TRUE);
		*rest = g_strdup(v);
		return NULL;
	}
	GString *r = g_string_new(NULL);
	for (guint i = 0; i < w->len; i++) {
		const char *a = g_ptr_array_index(w, i);
		const char *opts[] = { "-ccbin", "--compiler-bindir" };
		const char *val = NULL;
		for (gsize k = 0; k < G_N_ELEMENTS(opts) && !val; k++) {
			gsize n = strlen(opts[k]);
			if (strcmp(a, opts[k]) == 0 && i + 1 < w->len)
				val = g_ptr_array_index(w, ++i);
			else if (strncmp(a, opts[k], n) == 0 && a[n] == '=')
				val = a + n + 1;
		}
		if (val) {
			g_free(ccbin);
			ccbin = g_strdup(val);
		} else {
			cg_sh_append(r, a);
		}
	}
	g_ptr_array_free(w, TRUE);
	*rest = g_string_free(r, FALSE);
	return ccbin;
}

/* *ccbin: NVCC_PREPEND_FLAGS' -ccbin, or NULL */
static gboolean nvcc_env_flags(char **ccbin, GError **err)
{
	const char *const names[] = { "NVCC_PREPEND_FLAGS", "NVCC_APPEND_FLAGS" };
	*ccbin = NULL;
	for (gsize i = 0; i < G_N_ELEMENTS(names); i++) {
		const char *env = g_getenv(names[i]);
		if (!env || !*env)
			continue;
		char *rest = NULL;
		if (i == 0)
			*ccbin = prepend_ccbin(env, &rest);
		const char *v = rest ? rest : env;
		CudaFlags f;
		const char *bad = NULL;
		char *why = NULL;
		gboolean owned = FALSE;
		gboolean ok = cudaflags_read(v, &f, &bad, &why, &owned);
		const char *taken = f.std_word ? f.std_word : f.rdc_word ? f.rdc_word : f.dlto_word ? f.dlto_word : NULL;
		gboolean threads = f.threads >= 0;
		if (!ok)
			cg_error(err, "$%s: flag '%s' %s (%s); nvcc adds it to every step cugen runs", names[i], bad,
				 owned ? "is set by cugen" : "cannot be used", why);
		else if (taken || threads)
			cg_error(err, "$%s: flag '%s' chooses what cugen sets itself: write it in [cuda] flags or $CUDAFLAGS",
				 names[i], taken ? taken : "--threads");
		gboolean refused = !ok || taken || threads;
		g_free(why);
		g_free(rest);
		cudaflags_clear(&f);
		if (refused)
			return FALSE;
	}
	return TRUE;
}

gboolean cf_apply_base_flags(GPtrArray *secs, const ConfigOptions *opt, GError **err)
{
	const EnvFlags *env = opt->env;
	char *env_ccbin = NULL;
	gboolean ok = nvcc_env_flags(&env_ccbin, err);
	/* its -ccbin is the host compiler where neither [toolchain] ccbin
	 * nor CUDAHOSTCXX (below) names one */
	if (ok && env_ccbin && *env_ccbin && !*envflags_get(env, ENV_CUDAHOSTCXX) &&
	    !cf_find_entry(cf_find_section(secs, SEC_TOOLCHAIN, NULL), "ccbin")) {
		Loc hloc = { g_intern_string("$NVCC_PREPEND_FLAGS"), 0 };
		cf_set_entry(cf_ensure_section(secs, SEC_TOOLCHAIN, NULL, hloc), "ccbin", env_ccbin, hloc);
	}
	g_free(env_ccbin);
	if (!ok)
		return FALSE;
	int bt;
	if (!build_type(secs, &bt, err))
		return FALSE;
	const char *ca = envflags_get(env, ENV_CUDAARCHS);
	Section *cuda = cf_find_section(secs, SEC_CUDA, NULL);
	if (*ca && !cf_find_entry(cuda, "archs")) {
		char *archs = NULL, *ptx = NULL;
		if (!archspell_cmake(ca, &archs, &ptx)) {
			cg_error(err, "CUDAARCHS '%s' is not an arch list (e.g. CUDAARCHS='80;90' or '80-real;90')", ca);
			return FALSE;
		}
		Loc eloc = { g_intern_string("$CUDAARCHS"), 0 };
		cuda = cf_ensure_section(secs, SEC_CUDA, NULL, eloc);
		cf_set_entry(cuda, "archs", archs, eloc);
		if (!cf_find_entry(cuda, "ptx"))
			cf_set_entry(cuda, "ptx", ptx, eloc);
		/* CMake writes code=[compute_NN,sm_NN]: its fatbinary order */
		if (!cf_find_entry(cuda, "ptx_first"))
			cf_set_entry(cuda, "ptx_first", "yes", eloc);
		g_free(archs);
		g_free(ptx);
	}
	if (!gencode_archs(cuda, err))
		return FALSE;
	char *cu = cf_join_flags(envflags_get(env, ENV_CUDAFLAGS), types[bt].cuda);
	prepend(secs, SEC_CUDA, "flags", cu, "$CUDAFLAGS");
	g_free(cu);
	const char *cpp = envflags_get(env, ENV_CPPFLAGS);
	const struct { const char *key; EnvVar var; gboolean host; } fl[] = {
		{ "cflags", ENV_CFLAGS, TRUE }, { "cxxflags", ENV_CXXFLAGS, TRUE }, { "ldflags", ENV_LDFLAGS, FALSE },
	};
	for (gsize i = 0; i < G_N_ELEMENTS(fl); i++) {
		char *a = cf_join_flags(fl[i].host ? cpp : "", envflags_get(env, fl[i].var));
		char *w = cf_join_flags(a, fl[i].host ? types[bt].host : "");
		char *origin = g_strconcat("$", envflags_name(fl[i].var), NULL);
		prepend(secs, SEC_TOOLCHAIN, fl[i].key, w, origin);
		g_free(origin);
		g_free(w);
		g_free(a);
	}
	const char *hc = envflags_get(env, ENV_CUDAHOSTCXX);
	Section *tc = cf_find_section(secs, SEC_TOOLCHAIN, NULL);
	if (*hc && !cf_find_entry(tc, "ccbin")) {
		Loc hloc = { g_intern_string("$CUDAHOSTCXX"), 0 };
		cf_set_entry(cf_ensure_section(secs, SEC_TOOLCHAIN, NULL, hloc), "ccbin", hc, hloc);
	}
	return TRUE;
}
