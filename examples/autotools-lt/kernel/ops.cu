// ops.cu -- a device function other TUs call (relocatable device code).
#include "ops.cuh"
__device__ int comp_op(int x)
{
	return 3 * x + 1;
}
