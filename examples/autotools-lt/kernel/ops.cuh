// ops.cuh -- device functions defined in ops.cu, used from scale.cu.
#pragma once
__device__ int comp_op(int x);
