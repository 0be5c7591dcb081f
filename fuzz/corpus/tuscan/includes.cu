#include "a.h"
#include <b.h>
#include "c.h"
#define L(X) X(int) X(float)
#define I(T) template int f<T>(T);
L(I)
__global__ void k() {}
----
#include "t.cu"
#include <cub/cub.cuh>
using namespace cub;
void g() { DeviceRadixSort::SortKeys(0); thrust::sort(a, b); }
----
#include "a.h"
#include "b.h"
#pragma unroll
----
/* unterminated comment
#include "../t.cu"
