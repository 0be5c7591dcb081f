__global__ void l(float *x) { x[0] = 2; }
