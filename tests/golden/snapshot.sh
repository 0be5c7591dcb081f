#!/bin/sh
# tests/golden/snapshot.sh OUTDIR -- every file cugen setup writes, for
# every example and bench workload, on a pinned machine, in one tree.
#
# For a change that must keep build files byte-identical (a refactor):
#   tests/golden/snapshot.sh /tmp/before      # on the old commit
#   tests/golden/snapshot.sh /tmp/after       # on the new one
#   diff -r /tmp/before /tmp/after            # nothing, or every line explained
#
# Each project is copied to a scratch directory, given a [profile golden]
# (jobs and memory pinned, so the planner decides the same on any machine)
# and set up with each backend, with 2 and 16 jobs, as a one-arch shard,
# (the examples) with the compile cache on, and with 8 and 16 jobs after
# a synthetic last build (measured()).
# The scratch, build, cache and cugen paths are replaced by @SRC@, @BUILD@,
# @CACHE@ and @CUGEN@, so two snapshots taken anywhere compare (the scratch path is
# fixed: shard specs hash absolute paths). The toolkit probe's record
# (nvcc's temporary names) is left out. No build runs: what is compared
# is what setup decides with nothing learned, or with the synthetic
# measurements. The ninja the planner sees is pinned (1.11.1, or 1.13.1
# for the depth-first variants), so its version is no machine's.
#
# Environment: CUGEN (default ./cugen), CUDA_PATH (default /usr/local/cuda),
# NINJA (default ninja).
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: tests/golden/snapshot.sh OUTDIR}
CUGEN=${CUGEN:-$here/cugen}
case $CUGEN in /*) ;; *) CUGEN=$(pwd)/$CUGEN ;; esac
: "${CUDA_PATH:=/usr/local/cuda}" "${NINJA:=ninja}"
export CUDA_PATH PATH="$CUDA_PATH/bin:$PATH"
unset CUGEN_CACHE_DIR CI GITHUB_ACTIONS GITLAB_CI TF_BUILD
# one fixed scratch path: the shard spec's rule hashes cover absolute paths
work=${TMPDIR:-/tmp}/cugen-golden-scratch
rm -rf "$work"
mkdir -p "$work/bin"
trap 'rm -rf "$work"' EXIT
# one fixed program path too: the cache's keys hash commands that name it
cp "$CUGEN" "$work/bin/cugen"
CUGEN=$work/bin/cugen
mkdir -p "$out"
# the ninja the planner sees says 1.11.1 (file order) unless a variant
# puts the 1.13.1 one first (depth first): the same on any machine
for v in 1.11.1 1.13.1; do
	mkdir -p "$work/ninja-$v"
	printf '#!/bin/sh\n[ "$1" = --version ] && { echo %s; exit 0; }\nexec "%s" "$@"\n' "$v" "$(command -v "$NINJA")" \
		>"$work/ninja-$v/ninja"
	chmod +x "$work/ninja-$v/ninja"
done
PATH=$work/ninja-1.11.1:$PATH

project() { # name: copy or generate it into $work/src/name
	d=$work/src/$1
	case $1 in
	bench-A|bench-B|bench-C) sh "$here/bench/gen" "${1#bench-}" "$d" >/dev/null ;;
	scale-40) sh "$here/bench/scale/gen" 40 "$d" >/dev/null ;;
	*) mkdir -p "$work/src" && cp -R "$here/examples/$1" "$d" && rm -rf "$d"/build* ;;
	esac
	for j in 2 8 16; do
		printf '\n[profile golden%s]\njobs = %s\nmemory = 32G\n' "$j" "$j" >>"$d/cugen.ini"
	done
}

keep() { # name variant builddir: the files setup wrote, paths normalised
	dest=$out/$1/$2
	mkdir -p "$dest"
	(cd "$3" && find . -type f ! -name edges.log ! -name probe.ini ! -name '.ninja_*' | sort) | while read -r f; do
		mkdir -p "$dest/$(dirname "$f")"
		sed -e "s#$3#@BUILD@#g" -e "s#$work/src/$1#@SRC@#g" -e "s#$work/cache#@CACHE@#g" -e "s#$CUGEN#@CUGEN@#g" \
			"$3/$f" >"$dest/$f"
	done
}

setup() { # name variant args...
	n=$1 v=$2
	shift 2
	b=$work/build/$n/$v
	if "$CUGEN" setup -S "$work/src/$n" -B "$b" "$@" >"$work/msg" 2>&1; then
		for f in cugen.mk cugen-vars.mk; do # automake: the fragments go beside cugen.ini
			if [ -f "$work/src/$n/$f" ]; then mkdir -p "$b" && mv "$work/src/$n/$f" "$b/"; fi
		done
		keep "$n" "$v" "$b"
	else
		mkdir -p "$out/$n/$v"
	fi
	sed -e "s#$b#@BUILD@#g" -e "s#$work/src/$n#@SRC@#g" "$work/msg" >"$out/$n/$v/setup.txt"
	case $v in ninja-*) # the planner's choices and reasons
		"$CUGEN" plan -S "$work/src/$n" -B "$b" "$@" 2>&1 |
			sed -e "s#$b#@BUILD@#g" -e "s#$work/src/$n#@SRC@#g" >"$out/$n/$v/plan.txt" ;;
	esac
}

measured() { # name variant args...: set up, given a last build's
	# measurements (synthetic: device compiles of 10-59 s, by edge, the
	# front ends and host compiles 5 s), and set up again: the planner's
	# choices on measured costs (a tail split, among others)
	m=$1 mv=$2
	shift 2
	b=$work/build/$m/$mv
	"$CUGEN" setup -S "$work/src/$m" -B "$b" "$@" >/dev/null 2>&1 || return 0
	"$NINJA" -C "$b" -t targets all | awk -F': ' '
		$2 ~ /^cuda_(dev|cicc)_/ { d = 10 + (NR * 7) % 50; printf "%s\tcicc\t100000\t%s\t%s\n", $1, d, d }
		$2 ~ /^cuda_ptxas_/ { d = 1 + (NR * 3) % 5; printf "%s\tptxas\t100000\t%s\t%s\n", $1, d, d }
		$2 ~ /^cuda_(host|fe)/ { printf "%s\tgcc\t100000\t5\t5\n", $1 }' >>"$b/.cugen/edges.log"
	rm -f "$b/.cugen/plan.ini"
	setup "$m" "$mv" "$@"
}

for n in saxpy multi rdc cdp bench-A bench-B bench-C scale-40; do
	project "$n"
	first=$(sed -n 's/^archs *= *\([0-9a-z_]*\).*/\1/p' "$work/src/$n/cugen.ini" | head -1)
	for j in 2 16; do
		setup "$n" "ninja-j$j" --profile "golden$j"
		setup "$n" "make-j$j" --profile "golden$j" --backend make
	done
	measured "$n" ninja-measured-j16 --profile golden16
	measured "$n" ninja-measured-j8 --profile golden8
	measured "$n" ninja-measured-whole-j16 --profile golden16 -D profile.golden16.ptxas_edges=no
	# ninja >= 1.12 (depth first): the rank stamps
	(
		PATH=$work/ninja-1.13.1:$PATH
		measured "$n" ninja113-measured-j16 --profile golden16
		setup "$n" ninja113-j16 --profile golden16
	)
	# line info named project-relative; one nvcc per TU
	setup "$n" ninja-lineinfo -D cuda.flags="-O3 -lineinfo" --profile golden16
	setup "$n" ninja-tu -D profile.golden16.split=tu --profile golden16
	setup "$n" automake --profile golden16 --backend automake
	setup "$n" "shard-$first" --profile golden16 --archs "$first"
	case $n in saxpy) # a data file copied into the build
		setup "$n" ninja-data -D target.saxpy.data=main.cpp --profile golden16 ;;
	rdc) # device LTO (nvlink -dlto, the libnvvm links); no libcudadevrt
		setup "$n" ninja-lto -D profile.golden16.lto=yes --profile golden16
		setup "$n" ninja-nodevrt -D target.rdc_app.devrt=no --profile golden16 ;;
	esac
	case $n in saxpy | multi | rdc) # the compile cache's wrappers, both module id kinds
		setup "$n" cache --profile golden16 -D toolchain.cache="$work/cache"
		setup "$n" cache-absolute --profile golden16 -D toolchain.cache="$work/cache" -D cuda.module_id=absolute ;;
	esac
	rm -rf "$work/build/$n"
done
echo "snapshot.sh: $(find "$out" -type f | wc -l) files in $out"
