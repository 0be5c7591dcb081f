obj/k/a.cu.p/sm_75.cubin: ../a.cu /usr/include/stdc-predef.h \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/cuda_runtime.h \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/crt/host_config.h \
 /usr/include/features.h /usr/include/features-time64.h \
 /usr/include/x86_64-linux-gnu/bits/wordsize.h \
 /usr/include/x86_64-linux-gnu/bits/timesize.h \
 /usr/include/x86_64-linux-gnu/sys/cdefs.h \
 /usr/include/x86_64-linux-gnu/bits/long-double.h \
 /usr/include/x86_64-linux-gnu/gnu/stubs.h \
 /usr/include/x86_64-linux-gnu/gnu/stubs-64.h \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/builtin_types.h \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/device_types.h \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/crt/host_defines.h \
 /usr/include/ctype.h /usr/include/x86_64-linux-gnu/bits/types.h \
 /usr/include/x86_64-linux-gnu/bits/typesizes.h \
 /usr/include/x86_64-linux-gnu/bits/time64.h \
 /usr/include/x86_64-linux-gnu/bits/endian.h \
 /usr/include/x86_64-linux-gnu/bits/endianness.h \
 /usr/include/x86_64-linux-gnu/bits/types/locale_t.h \
 /usr/include/x86_64-linux-gnu/bits/types/__locale_t.h \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/driver_types.h \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/vector_types.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/limits.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/syslimits.h \
 /usr/include/limits.h \
 /usr/include/x86_64-linux-gnu/bits/libc-header-start.h \
 /usr/include/x86_64-linux-gnu/bits/posix1_lim.h \
 /usr/include/x86_64-linux-gnu/bits/local_lim.h \
 /usr/include/linux/limits.h \
 /usr/include/x86_64-linux-gnu/bits/pthread_stack_min-dynamic.h \
 /usr/include/x86_64-linux-gnu/bits/posix2_lim.h \
 /usr/include/x86_64-linux-gnu/bits/xopen_lim.h \
 /usr/include/x86_64-linux-gnu/bits/uio_lim.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/stddef.h \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/surface_types.h \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/texture_types.h \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/library_types.h \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/channel_descriptor.h \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/cuda_runtime_api.h \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/cuda_device_runtime_api.h \
 /usr/include/c++/12/stdlib.h /usr/include/c++/12/cstdlib \
 /usr/include/x86_64-linux-gnu/c++/12/bits/c++config.h \
 /usr/include/x86_64-linux-gnu/c++/12/bits/os_defines.h \
 /usr/include/x86_64-linux-gnu/c++/12/bits/cpu_defines.h \
 /usr/include/c++/12/pstl/pstl_config.h /usr/include/stdlib.h \
 /usr/include/x86_64-linux-gnu/bits/waitflags.h \
 /usr/include/x86_64-linux-gnu/bits/waitstatus.h \
 /usr/include/x86_64-linux-gnu/bits/floatn.h \
 /usr/include/x86_64-linux-gnu/bits/floatn-common.h \
 /usr/include/x86_64-linux-gnu/sys/types.h \
 /usr/include/x86_64-linux-gnu/bits/types/clock_t.h \
 /usr/include/x86_64-linux-gnu/bits/types/clockid_t.h \
 /usr/include/x86_64-linux-gnu/bits/types/time_t.h \
 /usr/include/x86_64-linux-gnu/bits/types/timer_t.h \
 /usr/include/x86_64-linux-gnu/bits/stdint-intn.h /usr/include/endian.h \
 /usr/include/x86_64-linux-gnu/bits/byteswap.h \
 /usr/include/x86_64-linux-gnu/bits/uintn-identity.h \
 /usr/include/x86_64-linux-gnu/sys/select.h \
 /usr/include/x86_64-linux-gnu/bits/select.h \
 /usr/include/x86_64-linux-gnu/bits/types/sigset_t.h \
 /usr/include/x86_64-linux-gnu/bits/types/__sigset_t.h \
 /usr/include/x86_64-linux-gnu/bits/types/struct_timeval.h \
 /usr/include/x86_64-linux-gnu/bits/types/struct_timespec.h \
 /usr/include/x86_64-linux-gnu/bits/pthreadtypes.h \
 /usr/include/x86_64-linux-gnu/bits/thread-shared-types.h \
 /usr/include/x86_64-linux-gnu/bits/pthreadtypes-arch.h \
 /usr/include/x86_64-linux-gnu/bits/atomic_wide_counter.h \
 /usr/include/x86_64-linux-gnu/bits/struct_mutex.h \
 /usr/include/x86_64-linux-gnu/bits/struct_rwlock.h /usr/include/alloca.h \
 /usr/include/x86_64-linux-gnu/bits/stdlib-float.h \
 /usr/include/c++/12/bits/std_abs.h \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/driver_functions.h \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/vector_functions.h \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/vector_functions.hpp \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/crt/common_functions.h \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/builtin_types.h \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/crt/host_defines.h \
 /usr/include/string.h /usr/include/strings.h /usr/include/time.h \
 /usr/include/x86_64-linux-gnu/bits/time.h \
 /usr/include/x86_64-linux-gnu/bits/timex.h \
 /usr/include/x86_64-linux-gnu/bits/types/struct_tm.h \
 /usr/include/x86_64-linux-gnu/bits/types/struct_itimerspec.h \
 /usr/include/c++/12/new /usr/include/c++/12/bits/exception.h \
 /usr/include/stdio.h /usr/lib/gcc/x86_64-linux-gnu/12/include/stdarg.h \
 /usr/include/x86_64-linux-gnu/bits/types/__fpos_t.h \
 /usr/include/x86_64-linux-gnu/bits/types/__mbstate_t.h \
 /usr/include/x86_64-linux-gnu/bits/types/__fpos64_t.h \
 /usr/include/x86_64-linux-gnu/bits/types/__FILE.h \
 /usr/include/x86_64-linux-gnu/bits/types/FILE.h \
 /usr/include/x86_64-linux-gnu/bits/types/struct_FILE.h \
 /usr/include/x86_64-linux-gnu/bits/types/cookie_io_functions_t.h \
 /usr/include/x86_64-linux-gnu/bits/stdio_lim.h /usr/include/assert.h \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/crt/math_functions.h \
 /usr/include/c++/12/math.h /usr/include/c++/12/cmath \
 /usr/include/c++/12/bits/cpp_type_traits.h \
 /usr/include/c++/12/ext/type_traits.h /usr/include/math.h \
 /usr/include/x86_64-linux-gnu/bits/math-vector.h \
 /usr/include/x86_64-linux-gnu/bits/libm-simd-decl-stubs.h \
 /usr/include/x86_64-linux-gnu/bits/flt-eval-method.h \
 /usr/include/x86_64-linux-gnu/bits/fp-logb.h \
 /usr/include/x86_64-linux-gnu/bits/fp-fast.h \
 /usr/include/x86_64-linux-gnu/bits/mathcalls-helper-functions.h \
 /usr/include/x86_64-linux-gnu/bits/mathcalls.h \
 /usr/include/x86_64-linux-gnu/bits/mathcalls-narrow.h \
 /usr/include/x86_64-linux-gnu/bits/iscanonical.h \
 /usr/include/c++/12/bits/specfun.h \
 /usr/include/c++/12/bits/stl_algobase.h \
 /usr/include/c++/12/bits/functexcept.h \
 /usr/include/c++/12/bits/exception_defines.h \
 /usr/include/c++/12/ext/numeric_traits.h \
 /usr/include/c++/12/bits/stl_pair.h /usr/include/c++/12/type_traits \
 /usr/include/c++/12/bits/move.h /usr/include/c++/12/bits/utility.h \
 /usr/include/c++/12/bits/stl_iterator_base_types.h \
 /usr/include/c++/12/bits/stl_iterator_base_funcs.h \
 /usr/include/c++/12/bits/concept_check.h \
 /usr/include/c++/12/debug/assertions.h \
 /usr/include/c++/12/bits/stl_iterator.h \
 /usr/include/c++/12/bits/ptr_traits.h /usr/include/c++/12/debug/debug.h \
 /usr/include/c++/12/bits/predefined_ops.h /usr/include/c++/12/limits \
 /usr/include/c++/12/tr1/gamma.tcc \
 /usr/include/c++/12/tr1/special_function_util.h \
 /usr/include/c++/12/tr1/bessel_function.tcc \
 /usr/include/c++/12/tr1/beta_function.tcc \
 /usr/include/c++/12/tr1/ell_integral.tcc \
 /usr/include/c++/12/tr1/exp_integral.tcc \
 /usr/include/c++/12/tr1/hypergeometric.tcc \
 /usr/include/c++/12/tr1/legendre_function.tcc \
 /usr/include/c++/12/tr1/modified_bessel_func.tcc \
 /usr/include/c++/12/tr1/poly_hermite.tcc \
 /usr/include/c++/12/tr1/poly_laguerre.tcc \
 /usr/include/c++/12/tr1/riemann_zeta.tcc \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/crt/math_functions.hpp \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/crt/device_functions.h \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/device_types.h \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/crt/device_functions.hpp \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/device_atomic_functions.h \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/device_atomic_functions.hpp \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/crt/device_double_functions.h \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/crt/device_double_functions.hpp \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/sm_20_atomic_functions.h \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/sm_20_atomic_functions.hpp \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/sm_32_atomic_functions.h \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/sm_32_atomic_functions.hpp \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/sm_35_atomic_functions.h \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/sm_32_atomic_functions.h \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/sm_60_atomic_functions.h \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/sm_60_atomic_functions.hpp \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/sm_20_intrinsics.h \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/sm_20_intrinsics.hpp \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/sm_30_intrinsics.h \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/sm_30_intrinsics.hpp \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/sm_32_intrinsics.h \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/sm_32_intrinsics.hpp \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/sm_35_intrinsics.h \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/sm_61_intrinsics.h \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/sm_61_intrinsics.hpp \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/crt/sm_70_rt.h \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/crt/sm_70_rt.hpp \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/crt/sm_80_rt.h \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/crt/sm_80_rt.hpp \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/crt/sm_90_rt.h \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/crt/sm_90_rt.hpp \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/crt/sm_100_rt.h \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/crt/sm_100_rt.hpp \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/texture_indirect_functions.h \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/surface_indirect_functions.h \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/crt/cudacc_ext.h \
 /usr/local/cuda/bin/../targets/x86_64-linux/include/device_launch_parameters.h \
 /usr/include/c++/12/utility /usr/include/c++/12/bits/stl_relops.h \
 /usr/include/c++/12/initializer_list
