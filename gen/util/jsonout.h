/* jsonout.h -- cugen's JSON output (plan --json, inspect --json,
 * compile_commands.json, the report's trace.json) through json-glib's
 * builder and generator: members of the open object, and the document
 * as text; and one string written straight into text, for the one
 * document too large for a tree (compile_commands.json). */
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
/* value as a JSON string literal appended to o, as cg_json_add_str and
 * json-glib's generator write it: valid UTF-8 (U+FFFD for a bad byte),
 * '"' and '\\' escaped, \b \t \n \f \r, other controls and DEL as
 * \u00xx (json-glib 1.6 leaves U+001F bare, which JSON forbids: here it
 * is escaped). compile_commands.json is written with it: at 10,000 TUs
 * a JsonBuilder tree of its 40,000 members was made, written and freed
 * in 55 ms of the 90 ms in which setup writes its files on 2 cores;
 * tests/unit/test_core.c reads its output back with json-glib. */
void cg_json_put_str(GString *o, const char *value);

#endif
