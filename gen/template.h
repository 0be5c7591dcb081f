/* template.h -- text from templates/ (compiled in as a GResource) with
 * @NAME@ placeholders filled in. Owns the placeholder syntax. */
#ifndef CUGEN_TEMPLATE_H
#define CUGEN_TEMPLATE_H

#include <glib.h>

/* The template's text; aborts if NAME is not compiled in (a build bug). */
char *template_text(const char *name);
/* Fill @KEY@ (KEY: upper case, digits, '_') from vars (alternating key,
 * value, NULL-terminated). "@@" and any other '@' are a literal '@'.
 * Aborts on an unknown key (a template bug). */
char *template_expand(const char *name, const char *const *vars);

/* The NAMEs of the templates PREFIX NAME SUFFIX, sorted. */
GPtrArray *template_names(const char *prefix, const char *suffix);

#endif
