#include "a.h"
DECL(64);
DECL (128, 2);
extern DECL(32);
A(1);
#pragma unroll
----
#define HELP(T, D) template void run<D, T>(T *x);
#define DECL(D) HELP(float, D) HELP(int, D) extern HELP(char, D)
#define A(x) B(x) B(x) A(x)
#define B(x) C(x) C(x) A(x)
#define C(x) template void c<x>(); B(x)
#define ( broken
#define E(, ) template void e<>();
#pragma unroll
----
#define DECL(D) HELP(double, D)
