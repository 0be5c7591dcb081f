__global__ void k0(float *x) { x[0] = 1; }
