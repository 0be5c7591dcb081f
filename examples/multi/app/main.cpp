/*
 * main.cpp -- multi_app: runs the multi library's self-checks on CUDA
 * device 0. Plain C++; links the static library libmulti.
 *
 * Exit status: 0 PASS, 1 FAIL, 77 SKIP (no CUDA device), 2 bad usage.
 */
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "multi/multi.h"

static void usage(FILE *to)
{
	std::size_t count;
	const multi::check *all = multi::checks(&count);

	fprintf(to,
		"usage: multi_app [--help | --list | CHECK...]\n"
		"Runs the multi library's self-checks (all, or the CHECKs "
		"named) on CUDA\ndevice 0, one line each, then a summary:\n"
		"  multi: PASS (K checks, device NAME, sm_XY)   exit 0\n"
		"  multi: FAIL (...)                            exit 1\n"
		"  multi: SKIP no CUDA device                   exit 77\n"
		"--list prints the check names, one a line; neither --list "
		"nor --help\ntouches the GPU. Checks:\n");
	for (std::size_t i = 0; i < count; i++)
		fprintf(to, "  %-20s %s\n", all[i].name, all[i].proves);
	fprintf(to, "Environment: MULTI_EXPECT_DEVICE_ONLY_MAGIC=0x... makes "
		    "device_only_header\nFAIL unless the built image carries "
		    "that magic.\n");
}

int main(int argc, char **argv)
{
	std::size_t count;
	const multi::check *all = multi::checks(&count);
	std::vector<const multi::check *> chosen;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		}
		if (!strcmp(argv[i], "--list")) {
			for (std::size_t k = 0; k < count; k++)
				printf("%s\n", all[k].name);
			return 0;
		}
		const multi::check *found = nullptr;
		for (std::size_t k = 0; k < count; k++)
			if (!strcmp(argv[i], all[k].name))
				found = &all[k];
		if (!found) {
			fprintf(stderr, "multi: unknown check or option '%s'\n",
				argv[i]);
			usage(stderr);
			return 2;
		}
		chosen.push_back(found);
	}
	if (chosen.empty())
		for (std::size_t k = 0; k < count; k++)
			chosen.push_back(&all[k]);

	multi::device_info dev;
	const char *why = "";
	if (!multi::query_device(&dev, &why)) {
		printf("multi: SKIP no CUDA device\n");
		fprintf(stderr, "multi: (%s)\n", why);
		return 77;
	}

	std::string failed;
	int nfailed = 0;
	for (const multi::check *c : chosen) {
		std::string detail;
		bool ok = c->run(dev, detail);
		printf("multi: %s: %s (%s)\n", c->name, ok ? "PASS" : "FAIL",
		       detail.c_str());
		fflush(stdout);
		if (!ok) {
			nfailed++;
			failed += std::string(" ") + c->name;
		}
	}
	if (nfailed) {
		printf("multi: FAIL (%d of %zu checks failed:%s; device %s, "
		       "sm_%d%d)\n",
		       nfailed, chosen.size(), failed.c_str(), dev.name,
		       dev.major, dev.minor);
		return 1;
	}
	printf("multi: PASS (%zu checks, device %s, sm_%d%d)\n", chosen.size(),
	       dev.name, dev.major, dev.minor);
	return 0;
}
