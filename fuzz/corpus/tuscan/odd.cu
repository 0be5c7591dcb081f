const char *s = "__global__ \"cub::DeviceScan::Sum
'x' 1'000'000 // __global__
#define X(P) P( P ( P(
#include <
#include "
#include ""
#include "/dev/zero"
#include "sub"
template
extern template int f<int>(int);
template int f<int>(int);\
