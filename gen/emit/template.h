/* template.h -- text from templates/ (compiled in as a GResource) with
 * @NAME@ placeholders filled in, whole or a named fragment. Owns the
 * placeholder syntax and the fragment files' syntax. */
#ifndef CUGEN_TEMPLATE_H
#define CUGEN_TEMPLATE_H

#include <glib.h>

/* The template's text; aborts if NAME is not compiled in (a build bug). */
char *template_text(const char *name);
/* Fill @KEY@ (KEY: upper case, digits, '_') from vars (alternating key,
 * value, NULL-terminated). "@@" and any other '@' are a literal '@'.
 * Aborts on an unknown key (a template bug). */
char *template_expand(const char *name, const char *const *vars);

/* One fragment of a template of fragments (a line each: NAME, a tab,
 * the text to the end of the line; '#' lines are comments), its @KEY@s
 * filled as template_expand does. Aborts on an unknown NAME. */
char *template_fragment(const char *file, const char *name, const char *const *vars);

/* The NAMEs of the templates PREFIX NAME SUFFIX, sorted. */
GPtrArray *template_names(const char *prefix, const char *suffix);

#endif
