/*
 * multi/multi.h -- public interface of the multi library: the device
 * query and the table of self-checks that multi_app runs.
 *
 * Plain C++: includes no CUDA header, so code built by the host C++
 * compiler alone (app/main.cpp, lib/checks.cpp) can use it.
 */
#ifndef MULTI_MULTI_H
#define MULTI_MULTI_H

#include <cstddef>
#include <string>

namespace multi {

struct device_info {
	char name[256];
	int major; /* compute capability */
	int minor;
};

/* Device 0. Returns true if a CUDA device is usable; otherwise false and
 * *why says why (cudaGetErrorString text, or "no device"). */
bool query_device(device_info *dev, const char **why);

struct check {
	const char *name;	 /* what --list prints and the command line names */
	const char *proves;	 /* one line for --help */
	/* Runs on the GPU and compares with the host reference. Fills
	 * detail with what was measured (or what went wrong). */
	bool (*run)(const device_info &dev, std::string &detail);
};

/* All checks, in the order multi_app runs them. Touches no GPU. */
const check *checks(std::size_t *count);

} // namespace multi

#endif
