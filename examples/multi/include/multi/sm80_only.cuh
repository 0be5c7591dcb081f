/*
 * multi/sm80_only.cuh -- included only where __CUDA_ARCH__ >= 800 (the
 * sm_80 and newer device passes of lib/arch.cu): editing it must
 * rebuild those archs' images and leave sm_75's untouched.
 */
#ifndef MULTI_SM80_ONLY_CUH
#define MULTI_SM80_ONLY_CUH

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ < 800
#error "multi/sm80_only.cuh needs __CUDA_ARCH__ >= 800"
#endif

#define MULTI_SM80_PATH 0x800u

/* Warp-wide sum with the sm_80 redux instruction. */
__device__ __forceinline__ unsigned multi_warp_sum(unsigned v)
{
	return __reduce_add_sync(0xffffffffu, v);
}

#endif
