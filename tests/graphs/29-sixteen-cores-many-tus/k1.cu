__global__ void k1(float *x) { x[0] = 1; }
