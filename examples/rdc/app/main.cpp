/*
 * main.cpp -- rdc_app: runs the checks of the rdc example on CUDA device
 * 0. Plain C++ (no CUDA headers); links the static library rdcstatic,
 * whose relocatable device code is device-linked into this executable,
 * and the shared library rdcshared, which carries its own device link.
 *
 * Exit status: 0 PASS, 1 FAIL, 77 SKIP (no CUDA device), 2 bad usage.
 */
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "rdc/rdc.h"
#include "rdc/shared.h"

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

/* ---- host references of the device functions ---- */

unsigned ref_mix(unsigned x) /* rdc::mix, lib/devfuncs.cu */
{
	x ^= x >> 16;
	x *= 0x7feb352du;
	x ^= x >> 15;
	x *= 0x846ca68bu;
	x ^= x >> 16;
	return x;
}

unsigned ref_gcd(unsigned a, unsigned b) /* rdc::gcd, lib/devfuncs.cu */
{
	while (b) {
		unsigned t = a % b;
		a = b;
		b = t;
	}
	return a;
}

long long ref_weight(int x, unsigned long long i) /* shlib/weights.cu */
{
	return (long long)x * x * 7 - 3 * (long long)i + 11;
}

/* ---- the checks ---- */

bool check_device_functions(const rdc::device_info &, std::string &detail)
{
	const std::size_t n = 10007; /* not a multiple of the block size */
	const unsigned modulus = 360;
	std::vector<unsigned> in(n), out(n);
	for (std::size_t i = 0; i < n; i++)
		in[i] = (unsigned)(i * 2654435761u) % 100000u;
	if (const char *err = rdc::mix_gcd(in.data(), out.data(), n, modulus)) {
		say(detail, "%s", err);
		return false;
	}
	for (std::size_t i = 0; i < n; i++) {
		unsigned want = ref_mix(in[i]) + ref_gcd(in[i], modulus);
		if (out[i] != want) {
			say(detail, "out[%zu] = 0x%08x, expected 0x%08x (in "
				    "%u)",
			    i, out[i], want, in[i]);
			return false;
		}
	}
	say(detail, "kernels.cu calls mix() and recursive gcd() of "
		    "devfuncs.cu: %zu results exact",
	    n);
	return true;
}

bool check_extern_variable(const rdc::device_info &, std::string &detail)
{
	const int bias = 1000;
	const std::size_t n = 4099;
	std::vector<int> in(n), out(n);
	unsigned long long want_total = 0;
	for (std::size_t i = 0; i < n; i++) {
		in[i] = (int)(i % 211) - 105;
		want_total += (unsigned long long)(long long)(in[i] + bias);
	}
	unsigned long long total_k = 0, total_s = 0;
	int bias_after = 0;
	const char *err;
	if ((err = rdc::set_bias(bias)) ||
	    (err = rdc::add_bias(in.data(), out.data(), n, &total_k)) ||
	    (err = rdc::get_total(&total_s)) ||
	    (err = rdc::get_bias(&bias_after))) {
		say(detail, "%s", err);
		return false;
	}
	std::size_t bad = 0;
	for (std::size_t i = 0; i < n; i++)
		bad += out[i] != in[i] + bias;
	say(detail,
	    "rdc_bias set in state.cu, read by kernels.cu: %zu of %zu sums "
	    "wrong; rdc_total %llu by kernels.cu's symbol, %llu by "
	    "state.cu's (want %llu); bias after bump %d (want %d)",
	    bad, n, total_k, total_s, want_total, bias_after, bias * 2 + 1);
	return bad == 0 && total_k == want_total && total_s == want_total &&
	       bias_after == bias * 2 + 1;
}

bool check_static_variables(const rdc::device_info &, std::string &detail)
{
	using rdc::kernels_tu_id;
	using rdc::state_tu_id;
	const int seven = 7;
	int k0 = 0, s0 = 0, k1 = 0, s1 = 0, k2 = 0;
	const char *err;
	/* First steps start from each TU's own initial value; then setting
	 * kernels.cu's variable must leave state.cu's alone. */
	if ((err = rdc::static_step_kernels(nullptr, &k0)) ||
	    (err = rdc::static_step_state(nullptr, &s0)) ||
	    (err = rdc::static_step_kernels(&seven, &k1)) ||
	    (err = rdc::static_step_state(nullptr, &s1)) ||
	    (err = rdc::static_step_kernels(nullptr, &k2))) {
		say(detail, "%s", err);
		return false;
	}
	const int wk0 = rdc::kernels_state_init * 3 + kernels_tu_id;
	const int ws0 = rdc::state_state_init * 3 + state_tu_id;
	const int wk1 = seven * 3 + kernels_tu_id;
	const int ws1 = ws0 * 3 + state_tu_id;
	const int wk2 = wk1 * 3 + kernels_tu_id;
	say(detail,
	    "static tu_state: kernels.cu %d %d %d (want %d %d %d), state.cu "
	    "%d %d (want %d %d)",
	    k0, k1, k2, wk0, wk1, wk2, s0, s1, ws0, ws1);
	return k0 == wk0 && k1 == wk1 && k2 == wk2 && s0 == ws0 && s1 == ws1;
}

bool check_anon_namespace(const rdc::device_info &, std::string &detail)
{
	int k = 0, s = 0, sh = 0;
	const char *err;
	if ((err = rdc::identify_kernels(&k)) ||
	    (err = rdc::identify_state(&s)) ||
	    (err = rdcshared::identify(&sh))) {
		say(detail, "%s", err);
		return false;
	}
	say(detail,
	    "identify(): kernels.cu 0x%x (want 0x%x), state.cu 0x%x (want "
	    "0x%x), rdcshared 0x%x (want 0x%x)",
	    k, rdc::kernels_tu_id, s, rdc::state_tu_id, sh,
	    rdcshared::shared_tu_id);
	return k == rdc::kernels_tu_id && s == rdc::state_tu_id &&
	       sh == rdcshared::shared_tu_id;
}

bool check_shared_library(const rdc::device_info &, std::string &detail)
{
	const std::size_t n = 5003;
	std::vector<int> in(n);
	std::vector<long long> out(n);
	for (std::size_t i = 0; i < n; i++)
		in[i] = (int)(i * 37 % 2001) - 1000;
	unsigned long long calls = 0;
	if (const char *err = rdcshared::weigh(in.data(), out.data(), n,
					       &calls)) {
		say(detail, "%s", err);
		return false;
	}
	std::size_t bad = 0, first = 0;
	for (std::size_t i = 0; i < n; i++)
		if (out[i] != ref_weight(in[i], i) && bad++ == 0)
			first = i;
	if (bad) {
		say(detail, "%zu of %zu wrong, out[%zu] = %lld, expected %lld",
		    bad, n, first, out[first], ref_weight(in[first], first));
		return false;
	}
	say(detail, "api.cu calls weight() of weights.cu inside the .so: %zu "
		    "results exact, rdcsh_calls %llu (want %zu)",
	    n, calls, n);
	return calls == n;
}

bool check_link_domains(const rdc::device_info &, std::string &detail)
{
	unsigned st = 0, sh = 0;
	const char *err;
	if ((err = rdc::origin(&st)) || (err = rdcshared::origin(&sh))) {
		say(detail, "%s", err);
		return false;
	}
	say(detail,
	    "rdc_origin() from rdcstatic's kernel 0x%x (want 0x%x), from "
	    "rdcshared's 0x%x (want 0x%x)",
	    st, rdc::static_origin, sh, rdcshared::shared_origin);
	return st == rdc::static_origin && sh == rdcshared::shared_origin;
}

bool check_linked_arch(const rdc::device_info &dev, std::string &detail)
{
	int list[32];
	int count = rdc::arch_list(list, 32);
	if (count <= 0 || count > 32) {
		say(detail, "__CUDA_ARCH_LIST__ not seen by the host pass "
			    "(count %d)",
		    count);
		return false;
	}
	int ka = 0, fa = 0, ska = 0, sfa = 0;
	const char *err;
	if ((err = rdc::arch_probe(&ka, &fa)) ||
	    (err = rdcshared::arch_probe(&ska, &sfa))) {
		say(detail, "%s", err);
		return false;
	}
	std::string archs;
	bool listed = false;
	for (int i = 0; i < count; i++) {
		archs += (i ? "," : "") + std::to_string(list[i]);
		listed = listed || list[i] == ka;
	}
	say(detail,
	    "__CUDA_ARCH__ kernels.cu %d, devfuncs.cu %d, rdcshared api.cu "
	    "%d, weights.cu %d (list %s, device sm_%d%d)",
	    ka, fa, ska, sfa, archs.c_str(), dev.major, dev.minor);
	/* One linked image per arch: a kernel and the functions it calls
	 * from another TU come from the same arch's objects; the image is
	 * one of the project's archs and not newer than the device. */
	return listed && ka == fa && ska == sfa && ka == ska &&
	       ka <= dev.major * 100 + dev.minor * 10;
}

struct check {
	const char *name;
	const char *proves;
	bool (*run)(const rdc::device_info &dev, std::string &detail);
};

const check table[] = {
	{"device_functions", "kernels call __device__ functions of another TU",
	 check_device_functions},
	{"extern_variable", "one extern __device__ variable, used from two TUs",
	 check_extern_variable},
	{"static_variables",
	 "same-named static __device__ variables in two TUs",
	 check_static_variables},
	{"anon_namespace",
	 "same-named anonymous-namespace kernels in three TUs",
	 check_anon_namespace},
	{"shared_library",
	 "a .so's kernels call its other TU's __device__ code",
	 check_shared_library},
	{"link_domains", "the .a and the .so each see their own rdc_origin()",
	 check_link_domains},
	{"linked_arch",
	 "kernel and cross-TU callee from one listed arch's image",
	 check_linked_arch},
};
const std::size_t ncheck = sizeof table / sizeof table[0];

void usage(FILE *to)
{
	fprintf(to,
		"usage: rdc_app [--help | --list | CHECK...]\n"
		"Runs the rdc example's checks (all, or the CHECKs named) on "
		"CUDA device 0,\none line each, then a summary:\n"
		"  rdc: PASS (K checks, device NAME, sm_XY)   exit 0\n"
		"  rdc: FAIL (...)                            exit 1\n"
		"  rdc: SKIP no CUDA device                   exit 77\n"
		"--list prints the check names, one a line; neither --list "
		"nor --help\ntouches the GPU. Checks:\n");
	for (std::size_t i = 0; i < ncheck; i++)
		fprintf(to, "  %-17s %s\n", table[i].name, table[i].proves);
}

} // namespace

int main(int argc, char **argv)
{
	std::vector<const check *> chosen;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		}
		if (!strcmp(argv[i], "--list")) {
			for (std::size_t k = 0; k < ncheck; k++)
				printf("%s\n", table[k].name);
			return 0;
		}
		const check *found = nullptr;
		for (std::size_t k = 0; k < ncheck; k++)
			if (!strcmp(argv[i], table[k].name))
				found = &table[k];
		if (!found) {
			fprintf(stderr, "rdc: unknown check or option '%s'\n",
				argv[i]);
			usage(stderr);
			return 2;
		}
		/* Each check runs once: static_variables expects the
		 * variables' initial values. */
		bool again = false;
		for (const check *c : chosen)
			again = again || c == found;
		if (!again)
			chosen.push_back(found);
	}
	if (chosen.empty())
		for (std::size_t k = 0; k < ncheck; k++)
			chosen.push_back(&table[k]);

	rdc::device_info dev;
	const char *why = "";
	if (!rdc::query_device(&dev, &why)) {
		printf("rdc: SKIP no CUDA device\n");
		fprintf(stderr, "rdc: (%s)\n", why);
		return 77;
	}

	std::string failed;
	int nfailed = 0;
	for (const check *c : chosen) {
		std::string detail;
		bool ok = c->run(dev, detail);
		printf("rdc: %s: %s (%s)\n", c->name, ok ? "PASS" : "FAIL",
		       detail.c_str());
		fflush(stdout);
		if (!ok) {
			nfailed++;
			failed += std::string(" ") + c->name;
		}
	}
	if (nfailed) {
		printf("rdc: FAIL (%d of %zu checks failed:%s; device %s, "
		       "sm_%d%d)\n",
		       nfailed, chosen.size(), failed.c_str(), dev.name,
		       dev.major, dev.minor);
		return 1;
	}
	printf("rdc: PASS (%zu checks, device %s, sm_%d%d)\n", chosen.size(),
	       dev.name, dev.major, dev.minor);
	return 0;
}
