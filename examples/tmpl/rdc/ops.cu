/*
 * ops.cu -- a device function template the other TU of tmpl_rdc calls
 * (relocatable device code), instantiated for float and double.
 */
template <typename T> __device__ T tmpl_fma(T a, T x, T y)
{
	return a * x + y;
}

template __device__ float tmpl_fma<float>(float, float, float);
template __device__ double tmpl_fma<double>(double, double, double);
