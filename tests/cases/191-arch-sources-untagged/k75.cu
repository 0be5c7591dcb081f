__global__ void k75() {}
