/* planknobs.h -- every number the planner decides by, each with where it
 * came from: the sizes it simulates and weighs, the spread of its
 * estimates, the bars an alternative must clear, the tail split, the
 * order search, the CI time limit's share and the default costs before
 * anything is measured. The planner's files (plan_int.h) and setup (the
 * graph size it weighs) read them here and nowhere else.
 *
 * bench/RESULTS.md holds the measurements cited; "the lab" is the
 * 4-TU CUB workload timed step by step (each nvcc step of each arch)
 * when the per-arch recipe was worked out, before bench/ existed.
 */
#ifndef CUGEN_PLANKNOBS_H
#define CUGEN_PLANKNOBS_H

/* ---- what is simulated and weighed ---- */

/* Graphs up to SIM_EDGES edges are simulated, edge by edge, as ninja
 * would run them (a simulation of 20,000 edges takes a setup a few ms);
 * larger ones are ordered longest remaining chain first, their time the
 * work over the cores or the critical path, and get no trace. */
#define SIM_EDGES 20000
/* The most edges (of the graph with the fewest) for which the planner
 * weighs groupings, each by a simulated build; and up to which the
 * simulation varies the estimates (the spread below). */
#define PLAN_GROUP_EDGES 4000

/* ---- the spread of the estimates ---- */

/* Each simulation of a graph of up to PLAN_GROUP_EDGES edges is the
 * average of SPREAD_SAMPLES runs with every edge's cost varied by up to
 * SPREAD_EDGE each way (20%: the spread of one edge's time between two
 * builds of workload A). Before half the edges are measured each TU's
 * edges are varied together by up to SPREAD_TU too (a heavy TU is heavy
 * in every arch, and nothing before its first build says which TU that
 * is), over SPREAD_GUESSED_SAMPLES runs. */
#define SPREAD_EDGE 0.2
#define SPREAD_TU 0.35
#define SPREAD_SAMPLES 8
#define SPREAD_GUESSED_SAMPLES 32

/* ---- the bars an alternative must clear (plan.c's prefer()) ---- */

/* margin, how much faster its simulated build must be for it to be
 * taken (0.97: by 3%); gain, the seconds it must save too; change, the
 * share of the build a switch reruns, which a last setup's choice must
 * be beaten by (CHANGE_FLOOR at least, and CHANGE_SECONDS). The margins
 * were set by hand; bench/alternatives.sh measures what each alternative
 * saves where it is taken (3% or more on some build of workload A,
 * each). */
typedef struct {
	double margin, gain, change;
} Bars;
/* the stub edges rerun, the host compiles only if a stub changed */
#define SYNTAX_STUB_BARS ((Bars){ .margin = 0.97, .gain = 0, .change = 0.03 })
/* every device compile reruns */
#define PP_EDGES_BARS ((Bars){ .margin = 0.99, .gain = 0, .change = 0.1 })
#define PTXAS_EDGES_BARS ((Bars){ .margin = 0.99, .gain = 0, .change = 0.1 })
/* before any device compile is measured: taken unless 10% slower (the
 * simulations of measured workload A and B builds ran faster with them
 * in every case, 3% on average) */
#define PTXAS_EDGES_GUESSED_BARS ((Bars){ .margin = 1.1, .gain = -G_MAXDOUBLE, .change = 0.1 })
/* only the stamps rerun */
#define NO_RANK_BARS ((Bars){ .margin = 1, .gain = 0, .change = 0.01 })
/* it changes the code of the edges it splits: 5% and 2 s */
#define TAIL_SPLIT_BARS ((Bars){ .margin = 0.95, .gain = 2, .change = 0.1 })
/* A last setup's choice changes only when the other saves this many
 * seconds, as well as the share `change`. */
#define CHANGE_SECONDS 2
/* The least share `change` can be: about twice the largest run-to-run
 * spread (11%) of the ratio of two alternatives' expected times, each
 * from one build's measurements, over repeated builds on a loaded 2-core
 * machine (bench/noise.sh). Below it a re-setup would flip choices on
 * noise. */
#define CHANGE_FLOOR 0.2

/* ---- the tail split and the rank stamps ---- */

/* From TAIL_CORES cores (below, the simulator gave workload B's last
 * device compile split in two about 1% on 2 cores); --split-compile 4
 * from 8 cores, else 2 (a split of 4 on one heavy TU: 1.5-1.75x, of 2:
 * 1.27x). */
#define TAIL_CORES 4
#define TAIL_SC(cores) ((cores) >= 8 ? 4 : 2)

/* ---- the order of edges in the build file (simulate.c) ---- */

/* An order replaces the best so far when it simulates this much faster
 * (half a percent: less is the simulation's own noise). */
#define ORDER_GAIN 0.995
/* The jittered orders tried: at most ORDER_TRIES, and at most
 * ORDER_BUDGET simulated edges in all (a few long edges on few cores are
 * where the order matters; a simulated edge costs about 0.5 us). */
#define ORDER_TRIES 100u
#define ORDER_BUDGET 20000u

/* ---- the machine and CI ---- */

/* The memory planned for when none is known (a Machine without it). */
#define DEFAULT_MEMORY_GIB 8
/* A CI job is planned to fit this share of its time limit (the rest is
 * checkout, cache restore and upload, and the estimates' error). */
#define TIME_LIMIT_SHARE 0.9

/* ---- the machine's speed (speed.c) ---- */

/* The probe's fixed work: a tree of this many random keys (12 bytes a
 * node: 1.5 MiB, more than a core's L2 on the reference machine),
 * searched this many times, then sorted, SPEED_PROBE_ROUNDS times (its
 * median round counts) on the build's jobs threads at once (at most
 * SPEED_PROBE_MAX_JOBS). In ten runs on the reference machine, one round
 * read 0.156-0.197 s (6.6% standard deviation), the median of three
 * 0.153-0.177 s (5.4%), about 0.45 s in all. */
#define SPEED_PROBE_NODES (1u << 17)
#define SPEED_PROBE_LOOKUPS (1u << 20)
#define SPEED_PROBE_ROUNDS 3
#define SPEED_PROBE_MAX_JOBS 256
/* The probe's CPU seconds per job on the reference machine (the CI box:
 * a 2-core AMD EPYC VM, both jobs at once: 0.146-0.160 s in ten runs),
 * whose seconds the guesses below are. On the device machine (an Intel
 * Xeon VM, 16 cores) it took 0.345 s at 1, 8 and 16 jobs, and ggml's
 * compiles 1.84x the CPU seconds they took on the CI box that day
 * (which compiled the examples 1.27x slower than the day the guesses
 * were fitted): 2.3x the guesses' seconds (bench/RESULTS.md). */
#define SPEED_REFERENCE_CPU 0.150

/* ---- default costs, before anything is measured (cost.c) ---- */

/* A device view's preprocess (device gcc -E: 0.75 s a call in the lab). */
#define PP_COST 0.8
/* CPU seconds and peak GiB per edge, each with where it came from. The
 * lab gave, per arch, gcc -E 0.75 + cicc 11.5 + ptxas 4.0 s and, per
 * TU, host gcc -E 0.74 + cudafe++ 2.5 s and a host compile of 18.8 s.
 * X(row, cpu, gib, from) */
#define DEFAULT_COSTS(X) \
	X(C_DEV, 16.3, 1.0, "gcc -E 0.75 + cicc 11.5 + ptxas 4.0 s per arch (lab workload)") \
	X(C_DEV_SM75, 19.6, 1.0, "the same for sm_75, whose ptxas took 7.3 s") \
	X(C_PTXAS, 4.0, 0.2, "ptxas alone (a ptxas edge), per arch") \
	X(C_PTXAS_SM75, 7.3, 0.2, "ptxas alone for sm_75") \
	X(C_CICC, PP_COST + 11.5, 1.0, "the device preprocess and cicc (less PP_COST with pp edges)") \
	X(C_DEVPP, PP_COST, 0.2, "the device preprocess alone") \
	X(C_NVCC_ARCH, 16.3, 1.0, "one nvcc per TU: a device compile per arch (GiB per --threads)") \
	X(C_NVCC_TU, 22, 0, "... plus its front end and host compile") \
	X(C_FE, 3.3, 0.6, "host gcc -E 0.74 + cudafe++ 2.5 s per TU") \
	X(C_HOST, 18.8, 0.5, "the host compile of a CUDA TU") \
	X(C_STUB_SYNTAX, 4.6, 1.0, "a syntax-only stub: the preprocess and a third of cicc") \
	X(C_STUB_COPY, 0.01, 0.01, "a stub copied from an arch's cicc") \
	X(C_CC, 0.3, 0.3, "a C or C++ TU (the examples' 0.04-0.3 s, their headers the most)") \
	X(C_DLINK, 0.05, 0.1, "nvlink, or the host side of a device link (the examples' 0.01-0.05 s)") \
	X(C_LINK, 0.1, 0.5, "a link (the examples' 0.05 s; a large library's more)") \
	X(C_RANK, 0.002, 0.001, "touch (a rank stamp)") \
	X(C_NONE, 0, 0, "phony and regeneration edges") \
	X(C_OTHER, 0.02, 0.05, "anything else: copies, archives, manifests (the examples' 0.002-0.03 s)")

/* ---- the first plan: each CUDA TU's costs from a scan of its text ----
 * (tuscan.h, guess.c). Per step, CPU seconds on the CI box (2 cores,
 * nvcc 13.0, gcc 12) and peak GiB: a base, so much per thousand files
 * the TU reaches beyond cuda_runtime.h's SCAN_BASE_FILES (its headers'
 * weight: C++'s <string> or <iostream>, cooperative groups, CUB), per
 * unit (a device-wide algorithm call instantiated once, a sort three),
 * per __global__ and per `#pragma unroll` in the project's text (the
 * tensor-core samples' ptxas, 1-4.6 s an arch, grows with the latter). Fitted to 88 TUs of the
 * examples, bench/seed, CUB's examples and 39 CUDA samples
 * (bench/RESULTS.md "The first plan from a scan"); the per-unit slopes
 * lean to the seed's, whose heavy TUs are most of a build's work.
 * A TU that calls no CUB/Thrust algorithm but makes explicit
 * instantiations (one file each of a library's template cases) has its
 * `#pragma unroll`s counted as template code instead: per "template
 * unit", the square root of its instantiations times the unrolls it
 * reaches (fitted to ggml's 75 instance TUs, sm_80: cicc within 0.27 of
 * the build for half of them, bench/RESULTS.md).
 * pp, cicc and ptxas are per arch; fe and host per TU.
 * X(step, base, per kfile, per unit, per kernel, per unroll, GiB, GiB per kfile, GiB per unit,
 *   per template unit, GiB per template unit) */
#define SCAN_COSTS(X) \
	X(S_PP, 0.045, 0.33, 0, 0, 0, 0.025, 0.08, 0, 0, 0) \
	X(S_CICC, 0.13, 1.16, 0.24, 0.003, 0.01, 0.08, 0.3, 0.006, 0.034, 0.0007) \
	X(S_PTXAS, 0.009, 0.017, 0.07, 0.002, 0.09, 0.03, 0.01, 0.001, 0.013, 0.00036) \
	X(S_FE, 0.24, 1.74, 0, 0, 0, 0.18, 0.3, 0, 0.0035, 0.00023) \
	X(S_HOST, 0.15, 1.07, 0.08, 0.013, 0, 0.06, 0.2, 0.005, 0.0096, 0.00043)
#define SCAN_BASE_FILES 275
/* sm_75's ptxas against the others' (the seed: 1.2x the average of its archs) */
#define SCAN_PTXAS_SM75 1.2
/* a syntax-only stub: the preprocess and this share of cicc */
#define SCAN_STUB_CICC (1.0 / 3)

#endif
