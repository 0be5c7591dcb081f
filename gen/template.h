/* template.h -- text from templates/ (compiled in as a GResource) with
 * @NAME@ placeholders filled in. Owns the placeholder syntax. */
#ifndef CUGEN_TEMPLATE_H
#define CUGEN_TEMPLATE_H

#include <glib.h>

/* The template's text; aborts if NAME is not compiled in (a build bug). */
char *template_text(const char *name);
/* Fill @KEY@ from vars (alternating key, value, NULL-terminated).
 * "@@" is a literal '@'. Aborts on an unknown key (a template bug). */
char *template_expand(const char *name, const char *const *vars);

#endif
