# fakecuda.sh -- sourced by the prepare of cases whose point is an nvcc
# that misbehaves. fake_cuda SNIPPET makes $CASE_TMP/cuda: the real
# toolkit ($CUDA_PATH, else /usr/local/cuda) entry by entry as symbolic
# links, but bin/nvcc a script that runs SNIPPET (sh, with the arguments
# in "$@") and then the real nvcc.
fake_cuda() {
	real=${CUDA_PATH:-/usr/local/cuda}
	[ -x "$real/bin/nvcc" ] || { echo "no CUDA toolkit at $real"; exit 77; }
	mkdir -p "$CASE_TMP/cuda/bin"
	for f in "$real"/*; do
		[ "$(basename "$f")" = bin ] || ln -s "$f" "$CASE_TMP/cuda/$(basename "$f")"
	done
	for f in "$real"/bin/*; do
		[ "$(basename "$f")" = nvcc ] || ln -s "$f" "$CASE_TMP/cuda/bin/$(basename "$f")"
	done
	{
		echo '#!/bin/sh'
		echo "$1"
		echo "exec '$real/bin/nvcc' \"\$@\""
	} >"$CASE_TMP/cuda/bin/nvcc"
	chmod +x "$CASE_TMP/cuda/bin/nvcc"
}
