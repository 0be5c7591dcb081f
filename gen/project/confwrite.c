/* confwrite.c -- the one writer of cugen.ini values that come from
 * elsewhere (cugen import's CMake data, profile --append): each word
 * spelled for the reader of its key and checked by reading it back with
 * that reader (the line's inline comment cut, the value split), so that
 * nothing another program hands over becomes INI syntax -- a line break
 * that starts a section, a ';' that cuts the value, a quote that joins
 * two words. What cannot be spelled is refused; see config.h. */
#include "config_int.h"

#include <string.h>

#include "util.h"

/* Whether reading spelled back as a key's value gives exactly w. */
static gboolean reads_back(const char *spelled, const char *w, IniSyntax syn)
{
	if (cf_first_control(spelled) || strchr(spelled, 0x7f))
		return FALSE;
	/* the reader sees "key = VALUE" and cuts an inline comment */
	char *line = g_strconcat(" ", spelled, NULL);
	cf_strip_inline_comment(line);
	gboolean ok = strcmp(line + 1, spelled) == 0;
	if (ok && syn == INI_SCALAR) {
		ok = strcmp(g_strstrip(line), w) == 0;
	} else if (ok) {
		GPtrArray *words = g_ptr_array_new_with_free_func(g_free);
		gboolean split = syn == INI_LIST ? cg_split_list(line, words, NULL)
				 : syn == INI_WORDS ? cg_split_words(line, words, NULL)
						    : cg_split_defines(line, words, NULL);
		ok = split && words->len == 1 && strcmp(g_ptr_array_index(words, 0), w) == 0;
		g_ptr_array_free(words, TRUE);
	}
	g_free(line);
	return ok;
}

/* A word in double quotes, with \\ before '"' and '\\' (the defines'
 * and the shell's escapes) where escape. */
static char *dquoted(const char *w, gboolean escape)
{
	GString *q = g_string_new("\"");
	for (const char *p = w; *p; p++) {
		if (escape && (*p == '"' || *p == '\\' || *p == '$' || *p == '`'))
			g_string_append_c(q, '\\');
		g_string_append_c(q, *p);
	}
	g_string_append_c(q, '"');
	return g_string_free(q, FALSE);
}

gboolean ini_put_word(GString *o, const char *w, IniSyntax syn)
{
	if (!w || !*w)
		return FALSE;
	/* the spellings a reader takes, plainest first */
	char *cand[3] = { g_strdup(w), NULL, NULL };
	if (syn == INI_LIST) {
		cand[1] = dquoted(w, FALSE);
	} else if (syn == INI_WORDS) {
		cand[1] = cg_sh_quote(w);
		cand[2] = dquoted(w, TRUE);
	} else if (syn == INI_DEFINES) {
		cand[1] = dquoted(w, FALSE);
		cand[2] = g_strdup_printf("'%s'", w);
	}
	gboolean ok = FALSE;
	for (gsize i = 0; i < G_N_ELEMENTS(cand) && !ok; i++) {
		/* (an odd number of '"' would change how the rest of the
		 * line's comments are found) */
		guint quotes = 0;
		for (const char *p = cand[i] ? cand[i] : ""; *p; p++)
			quotes += *p == '"';
		if (cand[i] && quotes % 2 == 0 && reads_back(cand[i], w, syn)) {
			g_string_append_c(o, ' ');
			g_string_append(o, cand[i]);
			ok = TRUE;
		}
	}
	for (gsize i = 0; i < G_N_ELEMENTS(cand); i++)
		g_free(cand[i]);
	return ok;
}

char *ini_comment_text(const char *s)
{
	char *t = g_strdup(s ? s : "");
	for (char *p = t; *p; p++)
		if ((guchar)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return t;
}

gboolean config_target_name_ok(const char *name)
{
	return cf_valid_name(name) && !cf_in_list(name, cf_reserved_targets) && !g_str_has_prefix(name, "arch-") &&
	       name[0] != '.';
}
