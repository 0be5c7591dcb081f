extern "C" int gemm_sm90(void) { return 90; }
EOF""")
s=s.replace("""extern "C" const char *gemm_name(void) { return NAME " / " GREETING; }""","""extern "C" const char *gemm_name(void) { return NAME " / " GREETING; }
#ifdef HAS_SM90
extern "C" int gemm_sm90(void);
extern "C" int gemm_variant(void) { return gemm_sm90(); }
#else
extern "C" int gemm_variant(void) { return 0; }
#endif""")
s=s.replace("""int main() { std::printf("%s %d %d\\n", gemm_name(), GEMM_API, gemm_status()); return 0; }""","""int main() { std::printf("%s %d %d %d\\n", gemm_name(), GEMM_API, gemm_variant(), gemm_status()); return 0; }""")
s=s.replace("""grep -q '^\\[target gemm\\]$' cugen.ini""","""grep -q '^arch_sources = 90: gemm_sm90.cu$' cugen.ini && grep -q '^arch_defines = 90: HAS_SM90=1$' cugen.ini ||
	{ cat cugen.ini; die "the source and define CMake gives only with arch 90"; }
grep -q '^\\[target gemm\\]$' cugen.ini""")
s=s.replace("""output ci/demo | grep -q '^gemm lib / hi, there 1 ' || die "the string defines did not reach the code"
""","""output ci/demo | grep -q '^gemm lib / hi, there 1 90 ' || die "the string defines did not reach the code"
note "a build for other archs gets what CMake's gets"
cmake_build . cm80 -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=80
run "$CUGEN" setup -B ci80 -D cuda.archs=80
build ci80 >/dev/null
output ci80/demo | grep -q '^gemm lib / hi, there 1 0 ' || die "the arch-90 source is built without arch 90"
[ "$(output cm80/demo)" = "$(output ci80/demo)" ] || die "demo's output differs from CMake's build for arch 80"
same_exports cm80/libgemm_cuda13.so.2.1.0 ci80/libgemm_cuda13.so.2.1.0
""")
open(p,'w').write(s)
