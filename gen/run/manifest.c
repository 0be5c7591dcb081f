/* manifest.c -- what a shard build runs: `cugen manifest` (the images
 * and host stubs a shard build made, copied under BUILDDIR/shard with
 * manifest.ini: per image its arch, TU, rule hash, input hashes, own
 * hash and module id) and `cugen place-image` (a shard's image put in place
 * of a device edge's, its module id and hash checked); see shard.h.
 */
#include "shard.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "capability.h"
#include "commands.h"
#include "depfile.h"
#include "safepath.h"
#include "statefile.h"
#include "util.h"

/* Copy a build-directory file into the shard directory out; *hash gets
 * the hash of the bytes copied (what the manifest records). */
static gboolean copy_file(const char *from, const char *out, const char *rel, char **hash, GError **err)
{
	gsize len = 0;
	char *data = cg_read_regular(from, CG_READ_MAX, FALSE, &len, err);
	char *dst = g_build_filename("images", rel, NULL);
	gboolean ok = data && cg_write_beneath(out, dst, data, len, err);
	*hash = ok ? cg_hash_hex(data, len) : NULL;
	g_free(dst);
	g_free(data);
	return ok;
}

/* cugen manifest SPEC OUTDIR: after a shard build, OUTDIR gets every built
 * image (and the host stubs), under their build-directory paths, and
 * manifest.ini: per image its arch, TU, the hash of the rule that made it
 * (and split_compile when the planner split its compile),
 * the hash of every input file (source and headers, from the device
 * preprocess's depfile), its own hash and the TU's module id. */
int cmd_manifest(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: cugen manifest SPEC OUTDIR\n");
		return 2;
	}
	GError *err = NULL;
	GKeyFile *spec = g_key_file_new();
	if (!state_load_keyfile(spec, argv[1], "shard-spec")) {
		fprintf(stderr, "cugen: error: %s is missing or damaged: run cugen setup again\n", argv[1]);
		g_key_file_free(spec);
		return 1;
	}
	const char *out = argv[2];
	cg_rm_tree(out);
	GKeyFile *m = g_key_file_new();
	GHashTable *cache = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	gsize ngroups = 0;
	char **groups = g_key_file_get_groups(spec, &ngroups);
	int rc = 0;
	char *archs = NULL;
	struct {
		char *src, *build;
	} places = { NULL, NULL };
	GPtrArray *seen_archs = g_ptr_array_new_with_free_func(g_free);
	/* per image file: its arch (sm_80 of sm_80.cubin) and TU, for the
	 * capabilities the shard covers */
	GPtrArray *cc_arch = g_ptr_array_new_with_free_func(g_free), *cc_tu = g_ptr_array_new_with_free_func(g_free);
	for (gsize i = 0; i < ngroups && !rc; i++) {
		const char *grp = groups[i];
		if (strcmp(grp, "shard") == 0) {
			g_key_file_set_string(m, "shard", "format", SHARD_FORMAT);
			const char *keys[] = { "cugen_version", "toolkit", "host_compiler", "host_version", "arch_set" };
			for (gsize j = 0; j < G_N_ELEMENTS(keys); j++) {
				char *v = g_key_file_get_string(spec, grp, keys[j], NULL);
				g_key_file_set_string(m, "shard", keys[j], v ? v : "");
				g_free(v);
			}
			g_free(places.src);
			g_free(places.build);
			places.src = g_key_file_get_string(spec, grp, "source_dir", NULL);
			places.build = g_key_file_get_string(spec, grp, "build_dir", NULL);
			/* where it was built (combine: module_id = absolute
			 * images hold these paths) */
			g_key_file_set_string(m, "shard", "source_dir", places.src ? places.src : "");
			g_key_file_set_string(m, "shard", "build_dir", places.build ? places.build : "");
			continue;
		}
		if (g_str_has_prefix(grp, SHARD_RULE_GROUP)) { /* each rule's text, for combine's messages */
			char *v = g_key_file_get_string(spec, grp, "command", NULL);
			g_key_file_set_string(m, grp, "command", v ? v : "");
			g_free(v);
			continue;
		}
		if (!places.src || !places.build) {
			fprintf(stderr, "cugen: error: manifest: %s has no source_dir or build_dir; run cugen setup again\n",
				argv[1]);
			rc = 1;
			break;
		}
		/* the spec is this build's, but checked like any input: every
		 * name it gives stays below the build and shard directories */
		if (!shard_spec_names_ok(spec, grp)) {
			fprintf(stderr, "cugen: error: manifest: %s: image '%s' names a path outside the build directory; "
				"run cugen setup again\n", argv[1], grp);
			rc = 1;
			break;
		}
		/* only images this build made (a subset build has no others) */
		if (!g_file_test(grp, G_FILE_TEST_EXISTS))
			continue;
		char *arch = g_key_file_get_string(spec, grp, "arch", NULL);
		if (!g_ptr_array_find_with_equal_func(seen_archs, arch, g_str_equal, NULL))
			g_ptr_array_add(seen_archs, g_strdup(arch));
		char *keys[] = { "tu", "arch", "rule" };
		for (gsize j = 0; j < G_N_ELEMENTS(keys); j++) {
			char *v = g_key_file_get_string(spec, grp, keys[j], NULL);
			g_key_file_set_string(m, grp, keys[j], v ? v : "");
			g_free(v);
		}
		char *sc = g_key_file_get_string(spec, grp, "split_compile", NULL);
		if (sc) /* built with --split-compile (its code differs) */
			g_key_file_set_string(m, grp, "split_compile", sc);
		g_free(sc);
		/* inputs: every file of the device preprocess */
		char *deps = shard_spec_file(grp, arch, "deps");
		char *text = NULL;
		GPtrArray *inputs = NULL;
		if (deps && g_file_get_contents(deps, &text, NULL, NULL))
			inputs = depfile_parse(text);
		g_free(text);
		if (!inputs) {
			fprintf(stderr, "cugen: error: manifest: no dependency file '%s' for %s\n", deps ? deps : "?", grp);
			rc = 1;
		}
		GPtrArray *hashes = g_ptr_array_new();
		for (guint j = 0; !rc && j < inputs->len; j++) {
			const char *h = shard_file_hash(cache, g_ptr_array_index(inputs, j));
			if (!h) {
				fprintf(stderr, "cugen: error: manifest: cannot read input '%s'\n",
					(char *)g_ptr_array_index(inputs, j));
				rc = 1;
			}
			g_ptr_array_add(hashes, (gpointer)h);
		}
		if (!rc) {
			/* by layout-free names: the combining build finds them in its own layout */
			Places p = { places.src, places.build };
			for (guint j = 0; j < inputs->len; j++) {
				char *r = reloc_path(g_ptr_array_index(inputs, j), &p);
				g_free(g_ptr_array_index(inputs, j));
				g_ptr_array_index(inputs, j) = r;
			}
			g_key_file_set_string_list(m, grp, "inputs", (const char *const *)inputs->pdata, inputs->len);
			g_key_file_set_string_list(m, grp, "input_hashes", (const char *const *)hashes->pdata, hashes->len);
		}
		g_ptr_array_free(hashes, TRUE);
		if (inputs)
			g_ptr_array_free(inputs, TRUE);
		g_free(deps);
		/* outputs, copied into the shard */
		gsize nf = 0;
		char **files = g_key_file_get_string_list(spec, grp, "files", &nf, NULL);
		GPtrArray *fh = g_ptr_array_new_with_free_func(g_free);
		for (gsize j = 0; !rc && j < nf; j++) {
			char *h = NULL;
			if (!g_file_test(files[j], G_FILE_TEST_EXISTS)) {
				fprintf(stderr, "cugen: error: manifest: image '%s' missing\n", files[j]);
				rc = 1;
			} else if (!copy_file(files[j], out, files[j], &h, &err)) {
				fprintf(stderr, "cugen: error: manifest: %s\n", err->message + 7);
				g_clear_error(&err);
				rc = 1;
			} else {
				g_ptr_array_add(fh, h);
			}
		}
		for (gsize j = 0; !rc && j < nf; j++) {
			char *base = g_path_get_basename(files[j]);
			char *dot = strchr(base, '.');
			if (dot && (strcmp(dot, ".cubin") == 0 || strcmp(dot, ".ptx") == 0)) {
				*dot = '\0';
				g_ptr_array_add(cc_arch, base);
				g_ptr_array_add(cc_tu, g_key_file_get_string(spec, grp, "tu", NULL));
			} else {
				g_free(base);
			}
		}
		if (!rc) {
			g_key_file_set_string_list(m, grp, "files", (const char *const *)files, nf);
			g_key_file_set_string_list(m, grp, "file_hashes", (const char *const *)fh->pdata, fh->len);
		}
		g_ptr_array_free(fh, TRUE);
		g_strfreev(files);
		/* the host stub this arch's cicc wrote (host code the combining
		 * build compiles: hashed like the images), and the module id */
		char *stub = shard_spec_file(grp, arch, "stub");
		if (!rc && stub && g_file_test(stub, G_FILE_TEST_EXISTS)) {
			char *h = NULL;
			if (!copy_file(stub, out, stub, &h, &err)) {
				fprintf(stderr, "cugen: error: manifest: %s\n", err->message + 7);
				g_clear_error(&err);
				rc = 1;
			} else {
				g_key_file_set_string(m, grp, "stub", stub);
				g_key_file_set_string(m, grp, "stub_hash", h);
			}
			g_free(h);
		}
		g_free(stub);
		char *idf = shard_spec_file(grp, arch, "id");
		char *id = NULL;
		if (!rc && idf && g_file_get_contents(idf, &id, NULL, NULL))
			g_key_file_set_string(m, grp, "module_id", g_strstrip(id));
		g_free(id);
		g_free(idf);
		g_free(arch);
	}
	if (!rc) {
		g_ptr_array_add(seen_archs, NULL);
		archs = g_strjoinv(" ", (char **)seen_archs->pdata);
		g_key_file_set_string(m, "shard", "archs", archs);
		/* what a package of these images runs on (capability.h) */
		GArray *u = cc_cover((const char *const *)cc_arch->pdata, (const char *const *)cc_tu->pdata, cc_arch->len);
		char *d = cc_describe(u), *cs = cc_conda_spec(u);
		g_key_file_set_string(m, "shard", "compute_capability", d);
		g_key_file_set_string(m, "shard", "cuda_arch", cs ? cs : "");
		g_free(cs);
		g_free(d);
		g_array_unref(u);
		char *path = g_build_filename(out, "manifest.ini", NULL);
		g_mkdir_with_parents(out, 0777);
		if (!g_key_file_save_to_file(m, path, &err)) {
			fprintf(stderr, "cugen: error: %s\n", err->message);
			g_clear_error(&err);
			rc = 1;
		}
		g_free(path);
	}
	g_free(archs);
	g_ptr_array_free(cc_arch, TRUE);
	g_ptr_array_free(cc_tu, TRUE);
	g_free(places.src);
	g_free(places.build);
	g_ptr_array_free(seen_archs, TRUE);
	g_strfreev(groups);
	g_hash_table_destroy(cache);
	g_key_file_free(m);
	g_key_file_free(spec);
	return rc;
}

/* Why two module ids of one TU differ, from their parts: cudafe++ writes
 * _CRC_LEN_NAME_SUFFIX, CRC that of the path seeding it, SUFFIX named
 * after the TU's first external definition, or a hash of the seed; nvcc
 * without a seed adds _PID to the hash. */
static char *id_difference(const char *here, const char *theirs)
{
	if (!here)
		return g_strdup("this build has no module id file for it (run ninja in the combining build again)");
	char **h = g_strsplit(here, "_", 3), **t = g_strsplit(theirs, "_", 3);
	char *why;
	gboolean pid = g_regex_match_simple("_[0-9a-f]{8}_[0-9]+$", theirs, 0, 0);
	if (g_strv_length(h) < 3 || g_strv_length(t) < 3)
		why = g_strdup("one of them is not a module id cudafe++ writes");
	else if (strcmp(h[1], t[1]) != 0)
		why = g_strdup("the path that seeds it differs (with module_id = absolute, shards combine only "
			       "from the same directory)");
	else if (pid && !g_regex_match_simple("_[0-9a-f]{8}_[0-9]+$", here, 0, 0))
		why = g_strdup("the shard's ends in a process id: a cugen that did not seed module ids made it "
			       "(build the shard with this cugen)");
	else
		why = g_strdup("cudafe++ named it after another first definition: the shard's host view of the TU "
			       "differs (its defines, include files or host compiler)");
	g_strfreev(h);
	g_strfreev(t);
	return why;
}

/* cugen place-image IDFILE ID SRC DST HASH [SRC DST HASH]...: copy a shard's
 * images into this build, checking that this build's module id of the TU is
 * the shard's and that each file still has the hash its manifest records. */
int cmd_place_image(int argc, char **argv)
{
	if (argc < 6 || (argc - 3) % 3 != 0) {
		fprintf(stderr, "usage: cugen place-image IDFILE ID SRC DST HASH...\n");
		return 2;
	}
	char *id = NULL;
	if (*argv[2]) {
		if (!g_file_get_contents(argv[1], &id, NULL, NULL) || strcmp(g_strstrip(id), argv[2]) != 0) {
			char *why = id_difference(id, argv[2]);
			fprintf(stderr, "cugen: error: module id of %s is '%s' here but '%s' in the shard: %s\n",
				argv[1], id ? id : "?", argv[2], why);
			g_free(why);
			g_free(id);
			return 1;
		}
	}
	g_free(id);
	for (int i = 3; i + 2 < argc; i += 3) {
		gsize len = 0;
		GError *e = NULL;
		char *data = cg_read_regular(argv[i], CG_READ_MAX, TRUE, &len, &e);
		if (!data) {
			fprintf(stderr, "cugen: %s\n", e->message);
			g_error_free(e);
			return 1;
		}
		char *h = cg_hash_hex(data, len);
		gboolean same = strcmp(h, argv[i + 2]) == 0;
		g_free(h);
		if (!same) {
			fprintf(stderr, "cugen: error: %s is corrupt: its hash differs from the shard manifest\n", argv[i]);
			g_free(data);
			return 1;
		}
		gboolean ok = cg_write_beneath(".", argv[i + 1], data, len, &e);
		g_free(data);
		if (!ok) {
			fprintf(stderr, "cugen: %s\n", e->message);
			g_error_free(e);
			return 1;
		}
	}
	return 0;
}
