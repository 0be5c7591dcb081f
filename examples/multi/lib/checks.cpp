/*
 * checks.cpp -- the self-checks multi_app runs: each calls one GPU entry
 * point of gpu.h and compares with the host reference (reference.h).
 * Plain C++, compiled by the host C++ compiler; it also pulls every CUDA
 * object of the static library into the executable.
 */
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "multi/gpu.h"
#include "multi/multi.h"
#include "multi/reference.h"

namespace multi {
namespace {

void say(std::string &detail, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

void say(std::string &detail, const char *fmt, ...)
{
	char text[512];
	va_list ap;
	va_start(ap, fmt);
	std::vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	detail = text;
}

/* One type of the templates check: exact values (small integers, and
 * a = 2.5 for the floating types), so FMA or not gives the same result. */
template <class T>
bool axpy_one(const char *type, T a, std::size_t n, std::string &detail)
{
	std::vector<T> x(n), y(n), want(n);
	for (std::size_t i = 0; i < n; i++) {
		x[i] = (T)(i % 101);
		y[i] = want[i] = (T)(i % 13);
	}
	ref::axpy(a, x.data(), want.data(), n);
	if (const char *err = gpu::axpy(a, x.data(), y.data(), n)) {
		say(detail, "axpy<%s>: %s", type, err);
		return false;
	}
	for (std::size_t i = 0; i < n; i++)
		if (y[i] != want[i]) {
			say(detail, "axpy<%s>: y[%zu] = %g, expected %g", type,
			    i, (double)y[i], (double)want[i]);
			return false;
		}
	return true;
}

bool check_templates(const device_info &, std::string &detail)
{
	const std::size_t n = 10007; /* not a multiple of the block size */
	if (!axpy_one<int>("int", -3, n, detail) ||
	    !axpy_one<unsigned>("unsigned", 7u, n, detail) ||
	    !axpy_one<float>("float", 2.5f, n, detail) ||
	    !axpy_one<double>("double", 2.5, n, detail))
		return false;
	say(detail, "axpy<int, unsigned, float, double> x %zu elements", n);
	return true;
}

bool check_anon_namespace(const device_info &, std::string &detail)
{
	int a = 0, b = 0, v = 0;
	const char *err;
	if ((err = gpu::identify_transform(&a)) ||
	    (err = gpu::identify_symbols(&b)) ||
	    (err = gpu::anon_variable(20, &v))) {
		say(detail, "%s", err);
		return false;
	}
	say(detail,
	    "identify() in transform.cu -> 0x%x (want 0x%x), in symbols.cu "
	    "-> 0x%x (want 0x%x); anonymous __device__ int 20 -> %d (want 41)",
	    a, gpu::transform_tu_id, b, gpu::symbols_tu_id, v);
	return a == gpu::transform_tu_id && b == gpu::symbols_tu_id && v == 41;
}

bool check_constant_memory(const device_info &, std::string &detail)
{
	const int coeffs[] = {7, -3, 0, 2, 1}; /* 7 - 3x + 2x^3 + x^4 */
	const int nc = (int)(sizeof coeffs / sizeof coeffs[0]);
	const std::size_t n = 1000;
	std::vector<int> x(n);
	std::vector<long long> y(n);
	for (std::size_t i = 0; i < n; i++)
		x[i] = (int)i - 500;
	if (const char *err =
		    gpu::poly_eval(coeffs, nc, x.data(), y.data(), n)) {
		say(detail, "%s", err);
		return false;
	}
	for (std::size_t i = 0; i < n; i++) {
		long long want = ref::poly_eval(coeffs, nc, x[i]);
		if (y[i] != want) {
			say(detail, "p(%d) = %lld, expected %lld", x[i], y[i],
			    want);
			return false;
		}
	}
	say(detail, "__constant__ polynomial of degree %d at %zu points",
	    nc - 1, n);
	return true;
}

bool check_device_global(const device_info &, std::string &detail)
{
	const unsigned blocks = 96, threads = 256;
	const unsigned long long total = (unsigned long long)blocks * threads;
	unsigned long long hits = 0, sum = 0;
	if (const char *err =
		    gpu::count_threads(blocks, threads, &hits, &sum)) {
		say(detail, "%s", err);
		return false;
	}
	const unsigned long long want = total * (total - 1) / 2;
	say(detail, "__device__ counters: %llu hits (want %llu), index sum "
		    "%llu (want %llu)",
	    hits, total, sum, want);
	return hits == total && sum == want;
}

bool check_arch_dispatch(const device_info &dev, std::string &detail)
{
	int list[32];
	int count = gpu::arch_list(list, 32);
	if (count <= 0 || count > 32) {
		say(detail, "__CUDA_ARCH_LIST__ not seen by the host pass "
			    "(count %d)",
		    count);
		return false;
	}
	const std::size_t warps = 64;
	std::vector<unsigned> in(warps * 32), sums(warps), want(warps);
	for (std::size_t i = 0; i < in.size(); i++)
		in[i] = (unsigned)(i * 2654435761u);
	ref::warp_sums(in.data(), want.data(), warps);
	int ran = 0;
	unsigned path = 0;
	if (const char *err = gpu::warp_sums(in.data(), sums.data(), warps,
					     &ran, &path)) {
		say(detail, "%s", err);
		return false;
	}
	std::string archs;
	bool listed = false;
	for (int i = 0; i < count; i++) {
		archs += (i ? "," : "") + std::to_string(list[i]);
		listed = listed || list[i] == ran;
	}
	int best = ref::best_arch(list, count, dev.major, dev.minor);
	unsigned want_path =
		ran >= 800 ? gpu::path_sm80_redux : gpu::path_shuffle;
	std::size_t bad = 0;
	for (std::size_t w = 0; w < warps; w++)
		bad += sums[w] != want[w];
	say(detail,
	    "image __CUDA_ARCH__ %d (list %s, best for sm_%d%d: %d), path "
	    "0x%x (want 0x%x), %zu of %zu warp sums wrong",
	    ran, archs.c_str(), dev.major, dev.minor, best, path, want_path,
	    bad, warps);
	/* The image that ran must be one of the project's archs, not newer
	 * than the device, and took the code path its arch selects. */
	return listed && ran <= dev.major * 100 + dev.minor * 10 &&
	       path == want_path && bad == 0;
}

bool check_device_only_header(const device_info &, std::string &detail)
{
	const std::size_t n = 4096;
	std::vector<unsigned> in(n), out(n);
	for (std::size_t i = 0; i < n; i++)
		in[i] = (unsigned)(i * 40503u);
	unsigned magic = 0;
	char tag[64];
	if (const char *err = gpu::device_only(in.data(), out.data(), n,
					       &magic, tag, sizeof tag)) {
		say(detail, "%s", err);
		return false;
	}
	std::size_t bad = 0;
	for (std::size_t i = 0; i < n; i++)
		bad += out[i] != in[i] * 3u + magic;
	const char *expect = std::getenv("MULTI_EXPECT_DEVICE_ONLY_MAGIC");
	bool expected = true;
	if (expect && *expect)
		expected = std::strtoul(expect, nullptr, 0) == magic;
	say(detail, "magic 0x%08x%s%s, tag '%s', %zu of %zu results wrong",
	    magic, expect && *expect ? ", expected " : "",
	    expect && *expect ? expect : "", tag, bad, n);
	return magic != 0 && tag[0] && bad == 0 && expected;
}

bool check_cub_scan(const device_info &, std::string &detail)
{
	const int n = 100003;
	std::vector<int> in(n), out(n), want(n);
	for (int i = 0; i < n; i++)
		in[i] = (i * 7) % 19 - 9;
	ref::inclusive_scan(in.data(), want.data(), n);
	if (const char *err = gpu::inclusive_scan(in.data(), out.data(), n)) {
		say(detail, "%s", err);
		return false;
	}
	for (int i = 0; i < n; i++)
		if (out[i] != want[i]) {
			say(detail, "out[%d] = %d, expected %d", i, out[i],
			    want[i]);
			return false;
		}
	say(detail, "cub::DeviceScan::InclusiveSum of %d ints, last %d", n,
	    out[n - 1]);
	return true;
}

bool check_cub_reduce(const device_info &, std::string &detail)
{
	const int n = 1 << 18;
	std::vector<int> in(n);
	for (int i = 0; i < n; i++)
		in[i] = i % 1000;
	long long want = ref::sum(in.data(), n);
	int sum = 0;
	if (const char *err = gpu::reduce_sum(in.data(), n, &sum)) {
		say(detail, "%s", err);
		return false;
	}
	say(detail, "cub::DeviceReduce::Sum of %d ints = %d (want %lld)", n,
	    sum, want);
	return sum == want;
}

const check table[] = {
	{"templates",
	 "a templated kernel instantiated for int, unsigned, float, double",
	 check_templates},
	{"anon_namespace",
	 "same-named anonymous-namespace kernels in two TUs, and an "
	 "anonymous __device__ variable (module ids)",
	 check_anon_namespace},
	{"constant_memory",
	 "__constant__ memory written by cudaMemcpyToSymbol, read by a kernel",
	 check_constant_memory},
	{"device_global",
	 "__device__ globals updated by atomics, read by cudaMemcpyFromSymbol",
	 check_device_global},
	{"arch_dispatch",
	 "the image for the device's arch ran, __CUDA_ARCH__ >= 800 code path",
	 check_arch_dispatch},
	{"device_only_header",
	 "a constant from a header only the device passes include",
	 check_device_only_header},
	{"cub_scan", "cub::DeviceScan::InclusiveSum (two-phase temp storage)",
	 check_cub_scan},
	{"cub_reduce", "cub::DeviceReduce::Sum (two-phase temp storage)",
	 check_cub_reduce},
};

} // namespace

const check *checks(std::size_t *count)
{
	*count = sizeof table / sizeof table[0];
	return table;
}

} // namespace multi
