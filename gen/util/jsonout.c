/* jsonout.c -- JSON output through json-glib; see jsonout.h. */
#include "jsonout.h"

#include <math.h>

void cg_json_add_str(JsonBuilder *b, const char *value)
{
	if (!value) {
		json_builder_add_null_value(b);
		return;
	}
	if (g_utf8_validate(value, -1, NULL)) {
		json_builder_add_string_value(b, value);
		return;
	}
	char *valid = g_utf8_make_valid(value, -1);
	json_builder_add_string_value(b, valid);
	g_free(valid);
}

void cg_json_str(JsonBuilder *b, const char *name, const char *value)
{
	json_builder_set_member_name(b, name);
	cg_json_add_str(b, value);
}

void cg_json_int(JsonBuilder *b, const char *name, gint64 value)
{
	json_builder_set_member_name(b, name);
	json_builder_add_int_value(b, value);
}

void cg_json_bool(JsonBuilder *b, const char *name, gboolean value)
{
	json_builder_set_member_name(b, name);
	json_builder_add_boolean_value(b, value);
}

void cg_json_seconds(JsonBuilder *b, const char *name, double value)
{
	json_builder_set_member_name(b, name);
	json_builder_add_double_value(b, round(value * 10) / 10);
}

GString *cg_json_finish(JsonBuilder *b, gboolean pretty)
{
	JsonNode *root = json_builder_get_root(b);
	JsonGenerator *gen = json_generator_new();
	json_generator_set_pretty(gen, pretty);
	json_generator_set_indent(gen, 2);
	json_generator_set_root(gen, root);
	GString *o = json_generator_to_gstring(gen, g_string_new(NULL));
	g_string_append_c(o, '\n');
	g_object_unref(gen);
	json_node_unref(root);
	g_object_unref(b);
	return o;
}

void cg_json_put_str(GString *o, const char *value)
{
	char *valid = g_utf8_validate(value, -1, NULL) ? NULL : g_utf8_make_valid(value, -1);
	static const char hex[] = "0123456789abcdef";
	g_string_append_c(o, '"');
	const char *run = valid ? valid : value, *p = run;
	for (; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (c >= 0x20 && c != '"' && c != '\\' && c != 0x7f)
			continue;
		g_string_append_len(o, run, p - run);
		run = p + 1;
		const char *sh = c == '"' ? "\\\"" : c == '\\' ? "\\\\" : c == '\b' ? "\\b" : c == '\t' ? "\\t"
			       : c == '\n' ? "\\n" : c == '\f' ? "\\f" : c == '\r' ? "\\r" : NULL;
		if (sh) {
			g_string_append(o, sh);
		} else {
			char u[7] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15], 0 };
			g_string_append(o, u);
		}
	}
	g_string_append_len(o, run, p - run);
	g_string_append_c(o, '"');
	g_free(valid);
}
