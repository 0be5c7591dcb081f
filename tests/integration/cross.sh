# Cross-compilation and native archs, without running target code:
# [toolchain] target = sbsa-linux with a toolkit that lacks the target says
# so; with a toolkit that has targets/sbsa-linux (made here by linking the
# x86_64 headers, which are the same files) and aarch64-linux-gnu-g++, the
# objects are AArch64 with the same GPU images, and every program that
# setup and the build execute (traced with strace) is a build-machine
# program. archs = native fails clearly without a GPU and when cross
# compiling.
. "$(dirname "$0")/lib.sh"
need_cuda
command -v aarch64-linux-gnu-g++ >/dev/null || skip "no aarch64-linux-gnu-g++ (Debian: g++-aarch64-linux-gnu)"
command -v strace >/dev/null || skip "no strace"

mkdir -p "$WORK/p/src"
cp "$SRC/examples/saxpy/saxpy.cu" "$SRC/examples/saxpy/saxpy.h" "$WORK/p/src/"
cat >"$WORK/p/cugen.ini" <<'INI'
[project]
name = crossdemo
[cuda]
archs = 80 90
[toolchain]
target = sbsa-linux
ccbin = aarch64-linux-gnu-g++
[target k]
type = static
sources = src/saxpy.cu
include = src
defines = SAXPY_N=16
INI
cd "$WORK/p" || exit 1

note "a toolkit without targets/sbsa-linux"
if [ ! -d "$CUDA_PATH/targets/sbsa-linux" ]; then
	"$CUGEN" setup -B b >out.txt 2>&1 && die "setup accepted a toolkit without targets/sbsa-linux"
	grep -qx "cugen: cugen.ini:6: error: the CUDA toolkit at $CUDA_PATH has no targets/sbsa-linux: it cannot build for sbsa-linux (install the toolkit's sbsa-linux cross-compilation package)" out.txt ||
		{ cat out.txt; die "no clear message"; }
	[ -e b ] && die "the failed setup created the build directory"
fi

note "a toolkit with targets/sbsa-linux"
fake=$WORK/cuda
mkdir -p "$fake/bin" "$fake/targets"
cp "$CUDA_PATH/bin/nvcc" "$CUDA_PATH/bin/nvcc.profile" "$fake/bin/"
for t in "$CUDA_PATH"/bin/*; do [ -e "$fake/bin/$(basename "$t")" ] || ln -s "$t" "$fake/bin/"; done
ln -s "$CUDA_PATH/nvvm" "$fake/nvvm"
ln -s "$CUDA_PATH/targets/x86_64-linux" "$fake/targets/x86_64-linux"
ln -s "$CUDA_PATH/targets/x86_64-linux" "$fake/targets/sbsa-linux"
"$CUGEN" setup -B b -D toolchain.cuda="$fake" -D toolchain.ccbin=g++ >out.txt 2>&1 && die "setup accepted an x86_64 ccbin for sbsa-linux"
grep -q "ccbin 'g++' compiles for x86_64-linux-gnu, not for sbsa-linux" out.txt || { cat out.txt; die "no clear message for the wrong ccbin"; }
strace -f -qq -e trace=execve -o trace.txt "$CUGEN" setup -B b -D toolchain.cuda="$fake" >out.txt 2>&1 ||
	{ cat out.txt; die "cross setup failed"; }
grep -q -- '-target-dir sbsa-linux' b/compile_commands.json || die "compile_commands.json: no nvcc -target-dir sbsa-linux"
grep -q 'targets/sbsa-linux/include' b/build.ninja || die "the commands do not use targets/sbsa-linux"
grep -q 'aarch64-linux-gnu-objcopy' b/build.ninja || die "not the cross objcopy"
strace -f -qq -e trace=execve -o trace2.txt "$NINJA" -C b >out.txt 2>&1 || { cat out.txt; die "cross build failed"; }
readelf -h b/obj/k/src/saxpy.cu.o | grep -q 'Machine:.*AArch64' || die "the object is not AArch64"
images b/libk.a | grep -q 'elf sm_90' || die "no sm_90 image"

note "every program executed is a build-machine program"
cat trace.txt trace2.txt | grep -E 'execve\(.*\) = 0' | sed 's/.*execve("\([^"]*\)".*/\1/' | sort -u >progs.txt
[ -s progs.txt ] || die "strace saw nothing"
n=0
while read -r prog; do
	n=$((n + 1))
	if head -c 2 "$prog" | grep -q '#!'; then continue; fi
	m=$(readelf -h "$prog" 2>/dev/null | sed -n 's/ *Machine: *//p')
	case $m in
	*X86-64*) ;;
	*) die "executed '$prog', not a build-machine program (machine: ${m:-unknown})" ;;
	esac
done <progs.txt
echo "checked $n programs"

note "archs = native"
"$CUGEN" setup -B n -D toolchain.cuda="$fake" -D cuda.archs=native >out.txt 2>&1 && die "native accepted when cross compiling"
grep -q "archs = native names the GPUs of this machine, but the build is for sbsa-linux" out.txt || { cat out.txt; die "no clear message"; }
if ! nvidia-smi -L >/dev/null 2>&1; then
	"$CUGEN" setup -B n -D toolchain.target=x86_64-linux -D toolchain.ccbin= -D cuda.archs=native >out.txt 2>&1 && die "native accepted without a GPU"
	grep -q "archs = native, but this machine has no NVIDIA GPU" out.txt || { cat out.txt; die "no clear message"; }
fi
echo ok
