# The environment's flags, as CMake reads them: CPPFLAGS, CFLAGS,
# CXXFLAGS, LDFLAGS, CUDAFLAGS, CUDAARCHS (CMake's spellings) and
# CUDAHOSTCXX each change the generated commands where CMake would put
# them, and the project builds with them; the first setup's values are
# kept for a setup (or regeneration) in an environment without them; the
# INI's archs win over CUDAARCHS; a bad CUDAARCHS is one error line; and
# NVCC_APPEND_FLAGS is part of the toolkit probe's key.
. "$(dirname "$0")/lib.sh"
need_cuda
unset CPPFLAGS CFLAGS CXXFLAGS LDFLAGS CUDAFLAGS CUDAARCHS CUDAHOSTCXX NVCC_APPEND_FLAGS NVCC_PREPEND_FLAGS NVCC_CCBIN
unset CI GITHUB_ACTIONS GITLAB_CI TF_BUILD

P=$WORK/p
mkdir -p "$P"
cat >"$P/cugen.ini" <<'EOF'
[project]
name = envp

[target app]
type = executable
sources = k.cu c.c x.cpp
EOF
cat >"$P/k.cu" <<'EOF'
#ifndef FROM_CUDAFLAGS
#error CUDAFLAGS did not reach nvcc
#endif
__global__ void k(int *p) { *p = 1; }
int cu_part(void) { return 1; }
EOF
cat >"$P/c.c" <<'EOF'
#if !defined(FROM_CFLAGS) || !defined(FROM_CPPFLAGS)
#error CFLAGS or CPPFLAGS did not reach the C compiler
#endif
int c_part(void) { return 2; }
EOF
cat >"$P/x.cpp" <<'EOF'
#if !defined(FROM_CXXFLAGS) || !defined(FROM_CPPFLAGS)
#error CXXFLAGS or CPPFLAGS did not reach the C++ compiler
#endif
int cu_part(void);
extern "C" int c_part(void);
int main() { return cu_part() + c_part() == 3 ? 0 : 1; }
EOF
B=$WORK/b

# a host compiler of another name than nvcc's default
mkdir -p "$WORK/host"
H=$WORK/host/g++
ln -s "$(command -v g++)" "$H"

note "each variable reaches its commands"
CPPFLAGS=-DFROM_CPPFLAGS CFLAGS=-DFROM_CFLAGS CXXFLAGS=-DFROM_CXXFLAGS LDFLAGS=-Wl,-z,now \
	CUDAFLAGS=-DFROM_CUDAFLAGS CUDAARCHS='80-real;90' CUDAHOSTCXX="$H" \
	"$CUGEN" setup -S "$P" -B "$B" >"$WORK/setup.log" 2>&1 || { cat "$WORK/setup.log"; die "setup failed"; }
grep -q 'archs sm_80 sm_90, flags from the environment (CPPFLAGS CFLAGS CXXFLAGS LDFLAGS CUDAFLAGS CUDAARCHS CUDAHOSTCXX)' \
	"$WORK/setup.log" || { cat "$WORK/setup.log"; die "the summary does not name the archs and the variables"; }
rule_of "$B" cc | grep -q -- '-DFROM_CPPFLAGS -DFROM_CFLAGS' || die "cc: $(rule_of "$B" cc)"
rule_of "$B" cc | grep -q -- 'FROM_CXXFLAGS' && die "CXXFLAGS reached the C compiler"
rule_of "$B" cxx | grep -q -- '-DFROM_CPPFLAGS -DFROM_CXXFLAGS' || die "cxx: $(rule_of "$B" cxx)"
rule_of "$B" link | grep -q -- '-Wl,-z,now' || die "link: $(rule_of "$B" link)"
rule_of "$B" cuda_fe | grep -q -- 'FROM_CUDAFLAGS' || die "cuda_fe: $(rule_of "$B" cuda_fe)"
rule_of "$B" cuda_fe | grep -q -- 'FROM_CFLAGS\|FROM_CXXFLAGS' && die "host flags reached nvcc"
rule_of "$B" cuda_fe | grep -q -- "-- $H " || die "CUDAHOSTCXX is not the host compiler: $(rule_of "$B" cuda_fe)"
# 80-real: sm_80 only; 90: sm_90 and its PTX, the PTX first as CMake's
# code=[compute_90,sm_90] makes nvcc's fatbinary list them
rule_of "$B" cuda_fatbin | grep -q 'kind=elf,sm=80,.*kind=ptx,sm=90,.*kind=elf,sm=90,' || die "fatbin: $(rule_of "$B" cuda_fatbin)"
rule_of "$B" cuda_fatbin | grep -q 'kind=ptx,sm=80' && die "PTX embedded for 80-real"

note "kept: a setup without them writes the same graph, and it builds"
cp "$B/build.ninja" "$WORK/first.ninja"
run "$CUGEN" setup -S "$P" -B "$B"
cmp -s "$B/build.ninja" "$WORK/first.ninja" || { diff "$WORK/first.ninja" "$B/build.ninja" | head; die "the flags were not kept"; }
build "$B" >/dev/null
"$B/app" || die "the program built with the environment's flags failed"
touch "$P/cugen.ini" # a regeneration by ninja, without the variables
build "$B" >"$WORK/again"
grep -q 'CC\|CXX\|CUDA' "$WORK/again" && { cat "$WORK/again"; die "a regeneration without the environment rebuilt"; }
note "set but empty: dropped"
CFLAGS= run "$CUGEN" setup -S "$P" -B "$B"
rule_of "$B" cc | grep -q FROM_CFLAGS && die "CFLAGS= did not drop the flag"
rule_of "$B" cc | grep -q FROM_CPPFLAGS || die "CFLAGS= dropped CPPFLAGS too"

note "the INI's archs win; a bad CUDAARCHS is an error"
printf '\n[cuda]\narchs = 75\n' >>"$P/cugen.ini"
CUDAARCHS=90 "$CUGEN" setup -S "$P" -B "$WORK/b2" >"$WORK/s2" 2>&1 || { cat "$WORK/s2"; die "setup with archs failed"; }
grep -q 'archs sm_75,' "$WORK/s2" || { cat "$WORK/s2"; die "CUDAARCHS won over [cuda] archs"; }
# (and the line says so, not that CUDAARCHS was used)
grep -q 'CUDAARCHS not used (cugen.ini names the archs)' "$WORK/s2" && ! grep -q 'environment (.*CUDAARCHS' "$WORK/s2" ||
	{ cat "$WORK/s2"; die "the summary does not say CUDAARCHS went unused"; }
sed -i '/^\[cuda\]/,$d' "$P/cugen.ini"
cp -R "$B" "$WORK/before"
CUDAARCHS='80-fast' "$CUGEN" setup -S "$P" -B "$B" >"$WORK/bad" 2>&1 && die "a bad CUDAARCHS was taken"
[ "$(wc -l <"$WORK/bad")" -eq 1 ] && grep -q "CUDAARCHS '80-fast' is not an arch list" "$WORK/bad" ||
	{ cat "$WORK/bad"; die "not one clear line for a bad CUDAARCHS"; }
diff -r "$WORK/before" "$B" >/dev/null || die "a failed setup changed the build directory"

note "conda-forge's NVCC_PREPEND_FLAGS=-ccbin=\$CXX: the host compiler, and it builds"
# (the cuda-nvcc package's activation sets it on every feedstock; it was
# refused as a flag cugen sets)
rm -rf "$WORK/cf"
CPPFLAGS=-DFROM_CPPFLAGS CFLAGS=-DFROM_CFLAGS CXXFLAGS=-DFROM_CXXFLAGS CUDAFLAGS=-DFROM_CUDAFLAGS \
	NVCC_PREPEND_FLAGS="-ccbin=$H" "$CUGEN" setup -S "$P" -B "$WORK/cf" >"$WORK/cf.log" 2>&1 ||
	{ cat "$WORK/cf.log"; die "setup refused NVCC_PREPEND_FLAGS=-ccbin"; }
rule_of "$WORK/cf" cuda_fe | grep -q -- "-- $H " || die "NVCC_PREPEND_FLAGS' -ccbin is not the host compiler: $(rule_of "$WORK/cf" cuda_fe)"
NVCC_PREPEND_FLAGS="-ccbin=$H" build "$WORK/cf" >/dev/null
# ([toolchain] ccbin, or CUDAHOSTCXX, still wins: nvcc takes the last -ccbin)
NVCC_PREPEND_FLAGS="-ccbin=/nonexistent/g++" CUDAHOSTCXX="$H" "$CUGEN" setup -S "$P" -B "$WORK/cf2" >"$WORK/cf.log" 2>&1 ||
	{ cat "$WORK/cf.log"; die "setup with CUDAHOSTCXX and NVCC_PREPEND_FLAGS failed"; }
rule_of "$WORK/cf2" cuda_fe | grep -q -- "-- $H " || die "CUDAHOSTCXX did not win over NVCC_PREPEND_FLAGS' -ccbin"

note "NVCC_APPEND_FLAGS is part of the probe's key"
fp() { sed -n 's/^fingerprint=//p' "$B/.cugen/probe.ini"; }
a=$(fp)
NVCC_APPEND_FLAGS=-DX run "$CUGEN" setup -S "$P" -B "$B"
[ -n "$a" ] && [ "$(fp)" != "$a" ] || die "NVCC_APPEND_FLAGS did not change the probe's key"
exit 0
