/*
 * main.cpp -- cdp_app: checks CUDA dynamic parallelism (cdp.cu) on CUDA
 * device 0. Plain C++, no CUDA headers: every result is compared on the
 * host after the parent grid has completed.
 *
 * Exit status: 0 PASS, 1 FAIL, 77 SKIP (no CUDA device), 2 bad usage.
 */
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "cdp.h"

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

/* Parent grid shape of the fan-out checks: 256 parent threads, each
 * launching one child grid of 3 blocks for a slice of 300 values. */
const unsigned parent_blocks = 8, parent_threads = 32, slice = 300;

bool fan_out_check(cdp::launch_stream how, long long salt,
		   std::string &detail)
{
	const unsigned parents = parent_blocks * parent_threads;
	std::vector<long long> out((std::size_t)parents * slice);
	int first = 0;
	unsigned nerr = 0;
	if (const char *err = cdp::fan_out(how, parent_blocks, parent_threads,
					   slice, salt, out.data(), &first,
					   &nerr)) {
		say(detail, "%s", err);
		return false;
	}
	std::size_t bad = 0, at = 0;
	for (unsigned p = 0; p < parents; p++)
		for (unsigned i = 0; i < slice; i++) {
			std::size_t k = (std::size_t)p * slice + i;
			if (out[k] != cdp::child_value(p, i, salt) &&
			    bad++ == 0)
				at = k;
		}
	if (bad)
		say(detail,
		    "%zu of %zu values wrong (first out[%zu] = %lld, want "
		    "%lld); %u device errors, first %s",
		    bad, out.size(), at, out[at],
		    cdp::child_value((unsigned)(at / slice),
				     (unsigned)(at % slice), salt),
		    nerr, first ? cdp::error_name(first) : "none");
	else
		say(detail,
		    "%u parent threads launched %u child grids, %zu values "
		    "right; %u device errors%s%s",
		    parents, parents, out.size(), nerr, nerr ? ", first " : "",
		    nerr ? cdp::error_name(first) : "");
	return bad == 0 && nerr == 0;
}

bool check_child_grids(const cdp::device_info &, std::string &detail)
{
	return fan_out_check(cdp::stream_null, 1000, detail);
}

bool check_fire_and_forget(const cdp::device_info &, std::string &detail)
{
	return fan_out_check(cdp::stream_fire_and_forget, -7000000, detail);
}

bool check_device_stream(const cdp::device_info &, std::string &detail)
{
	return fan_out_check(cdp::stream_device_created, 123456789, detail);
}

bool check_tail_launch(const cdp::device_info &, std::string &detail)
{
	const unsigned parents = parent_blocks * parent_threads;
	const long long salt = 42;
	unsigned long long right = 0;
	long long sum = 0, want_sum = 0;
	int ran = 0, first = 0;
	unsigned nerr = 0;
	if (const char *err = cdp::tail_launch(parent_blocks, parent_threads,
					       slice, salt, &right, &sum, &ran,
					       &first, &nerr)) {
		say(detail, "%s", err);
		return false;
	}
	for (unsigned p = 0; p < parents; p++)
		for (unsigned i = 0; i < slice; i++)
			want_sum += cdp::child_value(p, i, salt);
	const unsigned long long total = (unsigned long long)parents * slice;
	say(detail,
	    "tail-launched grid ran: %s; saw %llu of %llu children's values "
	    "right, sum %lld (want %lld); %u device errors%s%s",
	    ran ? "yes" : "no", right, total, sum, want_sum, nerr,
	    nerr ? ", first " : "", nerr ? cdp::error_name(first) : "");
	return ran == 1 && right == total && sum == want_sum && nerr == 0;
}

bool check_recursion(const cdp::device_info &, std::string &detail)
{
	const int depth = 6;
	std::vector<unsigned> visits((std::size_t)2 << depth);
	std::vector<unsigned> levels(depth + 1);
	int first = 0;
	unsigned nerr = 0;
	if (const char *err = cdp::tree(depth, visits.data(), levels.data(),
					&first, &nerr)) {
		say(detail, "%s", err);
		return false;
	}
	std::size_t wrong = visits[0] != 0;
	for (std::size_t k = 1; k < visits.size(); k++)
		wrong += visits[k] != 1;
	std::string per_level;
	bool levels_ok = true;
	for (int d = 0; d <= depth; d++) {
		per_level += (d ? " " : "") + std::to_string(levels[d]);
		levels_ok = levels_ok && levels[d] == 1u << d;
	}
	say(detail,
	    "binary tree of grids, depth %d: %zu nodes, %zu not visited "
	    "exactly once, per level %s; %u device errors%s%s",
	    depth, visits.size() - 1, wrong, per_level.c_str(), nerr,
	    nerr ? ", first " : "", nerr ? cdp::error_name(first) : "");
	return wrong == 0 && levels_ok && nerr == 0;
}

bool check_launch_error(const cdp::device_info &, std::string &detail)
{
	int bad = 0, ran = 0, after = -1;
	const char *name = "";
	if (const char *err = cdp::bad_launch(&bad, &name, &ran, &after)) {
		say(detail, "%s", err);
		return false;
	}
	const int want = cdp::invalid_configuration();
	say(detail,
	    "device launch with 2048 threads/block -> %s (want %s); next "
	    "launch -> %s, ran: %s",
	    name, cdp::error_name(want), cdp::error_name(after),
	    ran ? "yes" : "no");
	return bad == want && after == 0 && ran == 1;
}

bool check_image_arch(const cdp::device_info &dev, std::string &detail)
{
	int list[32];
	int count = cdp::arch_list(list, 32);
	if (count <= 0 || count > 32) {
		say(detail, "__CUDA_ARCH_LIST__ not seen by the host pass "
			    "(count %d)",
		    count);
		return false;
	}
	int parent = 0, child = 0;
	if (const char *err = cdp::arch_probe(&parent, &child)) {
		say(detail, "%s", err);
		return false;
	}
	std::string archs;
	bool listed = false;
	for (int i = 0; i < count; i++) {
		archs += (i ? "," : "") + std::to_string(list[i]);
		listed = listed || list[i] == parent;
	}
	say(detail, "__CUDA_ARCH__ parent %d, child %d (list %s, device "
		    "sm_%d%d)",
	    parent, child, archs.c_str(), dev.major, dev.minor);
	return listed && parent == child &&
	       parent <= dev.major * 100 + dev.minor * 10;
}

struct check {
	const char *name;
	const char *proves;
	bool (*run)(const cdp::device_info &dev, std::string &detail);
};

const check table[] = {
	{"child_grids",
	 "each parent thread launches a child grid (child<<<g, b>>>)",
	 check_child_grids},
	{"fire_and_forget", "child grids in cudaStreamFireAndForget",
	 check_fire_and_forget},
	{"device_stream",
	 "child grids in streams created on the device",
	 check_device_stream},
	{"tail_launch",
	 "a cudaStreamTailLaunch grid sees all the children's work",
	 check_tail_launch},
	{"recursion", "a kernel launching itself, to a bounded depth",
	 check_recursion},
	{"launch_error",
	 "the device runtime refuses a bad launch; the parent goes on",
	 check_launch_error},
	{"image_arch", "parent and child run the same listed arch's image",
	 check_image_arch},
};
const std::size_t ncheck = sizeof table / sizeof table[0];

void usage(FILE *to)
{
	fprintf(to,
		"usage: cdp_app [--help | --list | CHECK...]\n"
		"Runs the dynamic-parallelism checks (all, or the CHECKs "
		"named) on CUDA\ndevice 0, one line each, then a summary:\n"
		"  cdp: PASS (K checks, device NAME, sm_XY)   exit 0\n"
		"  cdp: FAIL (...)                            exit 1\n"
		"  cdp: SKIP no CUDA device                   exit 77\n"
		"--list prints the check names, one a line; neither --list "
		"nor --help\ntouches the GPU. Checks:\n");
	for (std::size_t i = 0; i < ncheck; i++)
		fprintf(to, "  %-16s %s\n", table[i].name, table[i].proves);
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
			fprintf(stderr, "cdp: unknown check or option '%s'\n",
				argv[i]);
			usage(stderr);
			return 2;
		}
		chosen.push_back(found);
	}
	if (chosen.empty())
		for (std::size_t k = 0; k < ncheck; k++)
			chosen.push_back(&table[k]);

	cdp::device_info dev;
	const char *why = "";
	if (!cdp::query_device(&dev, &why)) {
		printf("cdp: SKIP no CUDA device\n");
		fprintf(stderr, "cdp: (%s)\n", why);
		return 77;
	}

	std::string failed;
	int nfailed = 0;
	for (const check *c : chosen) {
		std::string detail;
		bool ok = c->run(dev, detail);
		printf("cdp: %s: %s (%s)\n", c->name, ok ? "PASS" : "FAIL",
		       detail.c_str());
		fflush(stdout);
		if (!ok) {
			nfailed++;
			failed += std::string(" ") + c->name;
		}
	}
	if (nfailed) {
		printf("cdp: FAIL (%d of %zu checks failed:%s; device %s, "
		       "sm_%d%d)\n",
		       nfailed, chosen.size(), failed.c_str(), dev.name,
		       dev.major, dev.minor);
		return 1;
	}
	printf("cdp: PASS (%zu checks, device %s, sm_%d%d)\n", chosen.size(),
	       dev.name, dev.major, dev.minor);
	return 0;
}
