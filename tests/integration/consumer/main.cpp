// main.cpp -- a downstream program of the installed multi (static) and
// rdcshared (shared) libraries: built with pkg-config and with CMake by
// tests/integration/install.sh, which checks what it prints.
#include <cstdio>

#include "multi/multi.h"
#include "rdc/shared.h"

int main()
{
	std::size_t n = 0;
	const multi::check *c = multi::checks(&n);
	std::printf("multi checks: %zu, first: %s\n", n, n ? c[0].name : "-");
	int id = 0;
	const char *err = rdcshared::identify(&id);
	// without a GPU the call fails; it was linked and ran either way
	std::printf("rdcshared identify: %s\n", err ? "no device" : "ok");
	return 0;
}
