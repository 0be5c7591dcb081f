/* commands.h -- the entry point of each cugen subcommand (argv[0] is the
 * command name). Each returns the process exit status. */
#ifndef CUGEN_COMMANDS_H
#define CUGEN_COMMANDS_H

int cmd_setup(int argc, char **argv);
int cmd_plan(int argc, char **argv);
int cmd_inspect(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_depdiff(int argc, char **argv);
int cmd_stub(int argc, char **argv);
int cmd_devrt_hint(int argc, char **argv);
int cmd_exec(int argc, char **argv);
int cmd_manifest(int argc, char **argv);
int cmd_place_image(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_combine(int argc, char **argv);
int cmd_ci(int argc, char **argv);
int cmd_profile(int argc, char **argv);
int cmd_slot(int argc, char **argv);
int cmd_cache(int argc, char **argv);
int cmd_gate(int argc, char **argv);
int cmd_srcnames(int argc, char **argv);
int cmd_install(int argc, char **argv);
int cmd_uninstall(int argc, char **argv);
int cmd_nvcc(int argc, char **argv);

#endif
