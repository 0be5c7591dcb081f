/*
 * multi/device_only.cuh -- included ONLY in the device view of
 * lib/arch.cu (inside #ifdef __CUDA_ARCH__): the host pass never reads
 * this file, so only the device edges' dependency tracking can notice
 * that it changed.
 *
 * Tests edit it to check header tracking. Either knob changes every
 * arch's device image and the program's output:
 *  - MULTI_DEVICE_ONLY_MAGIC: the kernel computes in[i] * 3 + MAGIC and
 *    reports MAGIC; multi_app prints it ("magic 0x5eed0001") and, when
 *    MULTI_EXPECT_DEVICE_ONLY_MAGIC=0x... is set, FAILs unless equal.
 *    In the SASS it is a 32-bit immediate (bytes 01 00 ed 5e).
 *  - MULTI_DEVICE_ONLY_TAG: a string the kernel copies out; its bytes
 *    are stored verbatim in each cubin, and multi_app prints it
 *    ("tag '...'").
 *
 * Define no __device__ or __constant__ variable here: nvcc's host stub
 * (written by a device pass) would register it, and the host compile,
 * which never sees this file, would fail on the undeclared name.
 */
#ifndef MULTI_DEVICE_ONLY_CUH
#define MULTI_DEVICE_ONLY_CUH

#ifndef __CUDA_ARCH__
#error "multi/device_only.cuh is for the device passes only"
#endif

#define MULTI_DEVICE_ONLY_MAGIC 0x5eed0001u
#define MULTI_DEVICE_ONLY_TAG "multi-device-only-tag-v1"

__device__ __forceinline__ unsigned multi_device_only_magic()
{
	return MULTI_DEVICE_ONLY_MAGIC;
}

__device__ __forceinline__ const char *multi_device_only_tag()
{
	return MULTI_DEVICE_ONLY_TAG;
}

#endif
