/* comp.h -- the component's entry point, looked up with dlsym. */
#ifndef COMP_H
#define COMP_H
/* Runs the kernels on n ints and checks them: 0, 77 without a GPU, 1. */
int comp_run(int n);
#endif
