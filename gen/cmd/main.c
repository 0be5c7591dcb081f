/* main.c -- the cugen command line: picks the subcommand and hands over.
 *
 * Owns: subcommand dispatch, `--help` and `--version`. Each command lives
 * in its own module (setup.c, inspect.c, ...).
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "util.h"
#include "version.h"

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
} commands[] = {
	{ "setup", cmd_setup, "write the build graph (the default command)" },
	{ "plan", cmd_plan, "print the plan: edges per kind, pools, threads, why" },
	{ "ci", cmd_ci, "write a CI workflow: per-arch shards and a combine job" },
	{ "profile", cmd_profile, "write a [profile] for a CI runner, this machine or CORES:MEMORY" },
	{ "import", cmd_import, "write cugen.ini from a CMake project (CMake's File API)" },
	{ "cache", cmd_cache, "the per-arch compile cache: --stats, --clear" },
	{ "combine", cmd_combine, "build the final artifacts from per-arch shard outputs" },
	{ "inspect", cmd_inspect, "list the GPU images in objects, libraries, executables" },
	{ "report", cmd_report, "timeline and per-arch costs from .ninja_log" },
	{ "install", cmd_install, "install what a build directory built (ninja install runs it)" },
	{ "nvcc", cmd_nvcc, "nvcc for any build system: per-arch steps in parallel, cached (NVCC=\"cugen nvcc\")" },
	{ "uninstall", cmd_uninstall, "remove what cugen install installed (ninja uninstall runs it)" },
	{ "depdiff", cmd_depdiff, NULL },
	{ "stub", cmd_stub, NULL },
	{ "devrt-hint", cmd_devrt_hint, NULL },
	{ "exec", cmd_exec, NULL },
	{ "manifest", cmd_manifest, NULL },
	{ "place-image", cmd_place_image, NULL },
	{ "slot", cmd_slot, NULL },
	{ "gate", cmd_gate, NULL },
	{ "srcnames", cmd_srcnames, NULL },
};

static void usage(FILE *f)
{
	fprintf(f, "Usage: cugen [COMMAND] [OPTION]...\n"
		   "Generate a per-GPU-architecture ninja build graph for a CUDA project.\n\n"
		   "Commands:\n");
	for (gsize i = 0; i < G_N_ELEMENTS(commands); i++)
		if (commands[i].summary)
			fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\nRun 'cugen COMMAND --help' for the options of a command.\n"
		   "Report bugs to the cugen issue tracker.\n");
}

int main(int argc, char **argv)
{
	if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		usage(stdout);
		return 0;
	}
	if (argc > 1 && strcmp(argv[1], "--version") == 0) {
		printf("cugen %s\n", cugen_version());
		return 0;
	}
	if (argc > 1 && argv[1][0] != '-') {
		for (gsize i = 0; i < G_N_ELEMENTS(commands); i++)
			if (strcmp(argv[1], commands[i].name) == 0) {
				/* cugen COMMAND --version, as cugen --version (the
				 * commands build.ninja runs take theirs as given, and
				 * cugen nvcc --version is nvcc's) */
				for (int k = 2; commands[i].summary && commands[i].fn != cmd_nvcc && k < argc && strcmp(argv[k], "--") != 0; k++)
					if (strcmp(argv[k], "--version") == 0) {
						printf("cugen %s\n", cugen_version());
						return 0;
					}
				return commands[i].fn(argc - 1, argv + 1);
			}
		const char *names[G_N_ELEMENTS(commands) + 1];
		for (gsize i = 0; i < G_N_ELEMENTS(commands); i++)
			names[i] = commands[i].name;
		names[G_N_ELEMENTS(commands)] = NULL;
		const char *hint = cg_suggest(argv[1], names);
		fprintf(stderr, "cugen: error: unknown command '%s'%s%s%s\n", argv[1],
			hint ? "; did you mean '" : "", hint ? hint : "", hint ? "'?" : "");
		return 2;
	}
	/* No command: setup. */
	return cmd_setup(argc, argv);
}
