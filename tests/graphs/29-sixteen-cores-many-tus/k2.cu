__global__ void k2(float *x) { x[0] = 1; }
