/* jsonout.h -- cugen's JSON output (plan --json, inspect --json,
 * compile_commands.json, the report's trace.json) through json-glib's
 * builder and generator: members of the open object, and the document
 * as text. */
#ifndef CUGEN_JSONOUT_H
#define CUGEN_JSONOUT_H

#include <glib.h>
#include <json-glib/json-glib.h>

/* value as valid UTF-8 (an invalid byte becomes U+FFFD: a path is
 * bytes, JSON text is not); a NULL string is null. */
void cg_json_add_str(JsonBuilder *b, const char *value);
void cg_json_str(JsonBuilder *b, const char *name, const char *value);
void cg_json_int(JsonBuilder *b, const char *name, gint64 value);
void cg_json_bool(JsonBuilder *b, const char *name, gboolean value);
/* Seconds to a tenth. */
void cg_json_seconds(JsonBuilder *b, const char *name, double value);
/* The document, indented by two (pretty) or on one line, ending in a
 * newline; the builder is freed. */
GString *cg_json_finish(JsonBuilder *b, gboolean pretty);

#endif
