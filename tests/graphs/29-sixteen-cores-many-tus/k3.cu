__global__ void k3(float *x) { x[0] = 1; }
