/* group.h -- the planner's groupings of one step graph.
 *
 * Owns: the options the step graph is built with (every step the
 * planner may group as an edge of its own: device preprocesses, cicc
 * apart from ptxas, the host stub copied from a device edge, the rank
 * stamps), and the view of it that one set of grouping choices stands
 * for (Grouping's syntax_stub, pp_edges, ptxas_edges, host_rank): the
 * same edges, inputs and outputs, in the same order, that edges_build
 * makes for those choices, made from the step graph's edges without
 * resolving, probing or rendering anything. The planner costs and
 * simulates views; edges_build renders the chosen one (the lowering).
 */
#ifndef CUGEN_GROUP_H
#define CUGEN_GROUP_H

#include "edges.h"
#include "graph.h"

/* base's options with every step apart: the step graph's. */
Grouping group_step_graph(const Grouping *base);

/* The graph edges_build would make with ch's grouping choices, from the
 * step graph steps (built with group_step_graph): for the planner to
 * cost and simulate, not to render (its rules are the step graph's, but
 * for the syntax-only stub's, which has a pool and no command). It
 * borrows strings and rules from steps, which must outlive it. */
Graph *group_view(const Graph *steps, const Grouping *ch);

#endif
