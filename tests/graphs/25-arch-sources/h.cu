__global__ void h() {}
