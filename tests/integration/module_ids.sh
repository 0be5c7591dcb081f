# Module ids are unique across projects: two projects, each with a
# target kern whose src/k.cu defines only templates (its module id comes
# from cugen's seed, not from a definition), compiled with relocatable
# device code, link into one program with plain nvcc -rdc=true. With a
# seed of target and path alone both TUs had one id, and the device
# link's stub said "redefinition of def_module_id_str_...". Each project
# gets the same id in any build directory (reproducible.sh: placement).
. "$(dirname "$0")/lib.sh"
need_cuda
for p in p1 p2; do
	mkdir -p "$WORK/$p/src"
	printf '[project]\nname = %s\n[cuda]\narchs = 80\nmode = rdc\n[target kern]\ntype = static\nsources = src/k.cu\n' \
		"$p" >"$WORK/$p/cugen.ini"
	printf 'template <class T> __global__ void twice(T *x) { *x = 2 * *x; }\ntemplate __global__ void twice<int>(int *);\n' \
		>"$WORK/$p/src/k.cu"
	(cd "$WORK/$p" && run "$CUGEN" setup -B b && build b >/dev/null) || exit 1
done
id1=$(cat "$WORK/p1/b/obj/kern/src/k.cu.p/id") id2=$(cat "$WORK/p2/b/obj/kern/src/k.cu.p/id")
[ "$id1" != "$id2" ] || die "two projects' TUs have one module id: $id1"
cd "$WORK" || exit 1
cat >main.cu <<'CU'
template <class T> __global__ void twice(T *x);
extern template __global__ void twice<int>(int *);
int main() { int *d; if (cudaMalloc(&d, 4) != cudaSuccess) return 77; twice<int><<<1, 1>>>(d); return 0; }
CU
"$NVCC" -arch=sm_80 -rdc=true main.cu p1/b/obj/kern/src/k.cu.o p2/b/obj/kern/src/k.cu.o -o prog >out.txt 2>&1 ||
	{ cat out.txt; die "two projects' rdc objects do not link into one program"; }
echo ok
