/* config_int.h -- what the files that read cugen.ini share; not for
 * other modules (they use config.h).
 *
 * The files: ini.c (the raw model: sections and entries with their line
 * numbers, read by inih through a line-counting reader; the known
 * sections and keys; -D overrides), confval.c (typed values from entries,
 * with the FILE:LINE error for each word), sources.c (a target's
 * sources, globs, include directories, defines, libs and data files) and
 * config.c (targets, dependencies, profiles, the model as a whole:
 * config_load); confflags.c (the build type's and the environment's
 * flags in front of the file's), confinstall.c (the install keys and
 * the files targets write) and
 * confwrite.c (values written back: cugen import's, by the readers' rules).
 */
#ifndef CUGEN_CONFIG_INT_H
#define CUGEN_CONFIG_INT_H

#include "config.h"

typedef enum { SEC_PROJECT, SEC_CUDA, SEC_TOOLCHAIN, SEC_TARGET, SEC_PROFILE } SecKind;

typedef struct {
	char *key;
	char *value;
	Loc loc;
	GArray *lines; /* ValueLine: its continuation lines, or NULL */
	gsize len, cap; /* value's length and allocation while lines join */
} Entry;

typedef struct {
	SecKind kind;
	char *name;       /* target/profile name, else NULL */
	Loc loc;
	GPtrArray *entries; /* Entry* */
} Section;

/* ini.c */
gboolean cf_in_list(const char *w, const char *const *list);
gboolean cf_valid_name(const char *s);
const char *cf_first_control(const char *s);
void cf_strip_inline_comment(char *s);
GPtrArray *cf_read_ini(const char *path, const char *shown, GError **err);
Section *cf_find_section(GPtrArray *secs, SecKind k, const char *name);
Entry *cf_find_entry(Section *s, const char *key);
void cf_set_entry(Section *s, const char *key, const char *value, Loc loc);
Section *cf_ensure_section(GPtrArray *secs, SecKind k, const char *name, Loc loc);
gboolean cf_apply_define(GPtrArray *secs, const char *def, GError **err);
gboolean cf_from_cmdline(Loc loc);
extern const char *const cf_gate_values[];
extern const char *const cf_cuda_keys[];
extern const char *const cf_profile_own_keys[];

/* confval.c */
void cf_entry_error(GError **err, const Entry *e, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
void cf_word_error(GError **err, const Entry *e, const char *word, gboolean last, const char *fmt, ...)
	G_GNUC_PRINTF(5, 6);
gboolean cf_get_choice(Section *s, const char *key, const char *const *choices,
			   int def, int *out, GError **err);
gboolean cf_get_bool(Section *s, const char *key, gboolean def, gboolean *out, GError **err);
char *cf_get_str(Section *s, const char *key, const char *def);
gboolean cf_get_list(Section *s, const char *key, GPtrArray *out, GError **err);
/* The same, its error after "KEY: " (data, headers). */
gboolean cf_get_named_list(Section *s, const char *key, GPtrArray *out, GError **err);
gboolean cf_get_defines(Section *s, const char *key, GPtrArray *out, GError **err);
gboolean cf_check_words(Section *s, const char *key, GError **err);
gboolean cf_take_cuda_flags(Section *s, const char *key, const char *what, char **flags, char **std,
				CudaMode *mode, gboolean *lto, int *threads, GError **err);
Loc cf_entry_loc(Section *s, const char *key);
void cf_setting_clear(Setting *st);
gboolean cf_set_setting(Setting *st, Section *s, const char *key, const Setting *def);
gboolean cf_valid_size(const char *v);
gboolean cf_valid_count(const char *v, gboolean zero_ok);

/* sources.c */
gboolean cf_read_sources(Config *c, Target *t, Entry *e, GHashTable *owner, GError **err);
/* arch_sources and arch_defines: words after an arch tag ("75:") as
 * "ARCH<tab>WORD" into out; a word before any tag is an error. */
gboolean cf_read_arch_words(Entry *e, gboolean defines, GPtrArray *out, GError **err);
gboolean cf_read_arch_sources(Config *c, Target *t, Entry *e, GHashTable *owner, GError **err);
/* cuda_sources: C and C++ files compiled as CUDA (CMake's LANGUAGE CUDA). */
gboolean cf_read_cuda_sources(Config *c, Target *t, Entry *e, GHashTable *owner, GError **err);
char *cf_join_flags(const char *a, const char *b);
gboolean cf_read_includes(Config *c, Section *s, const char *key, GPtrArray *out, GError **err);
gboolean cf_check_defines(Section *s, const char *key, GPtrArray *defines, GError **err);
gboolean cf_check_libs(Config *c, Section *s, const char *key, GPtrArray *libs, GError **err);
gboolean cf_read_data(Config *c, Target *t, Section *s, GError **err);
gboolean cf_read_headers(Config *c, Target *t, Section *s, GError **err);
extern const char *const cf_reserved_targets[];

void cf_source_free(gpointer p);
void cf_target_free(gpointer p);

/* confflags.c */
gboolean cf_apply_base_flags(GPtrArray *secs, const ConfigOptions *opt, GError **err);

/* confinstall.c */
gboolean cf_read_install(Config *c, Section *proj, GError **err);
gboolean cf_read_target_install(Config *c, Target *t, Section *s, GError **err);
/* No two targets write one file, none is named like another's file, and
 * no data file is copied into or over one. */
gboolean cf_check_outputs(Config *c, GError **err);
void cf_install_free(Config *c);

/* config.c */
extern const char *const cf_type_values[];

#endif
