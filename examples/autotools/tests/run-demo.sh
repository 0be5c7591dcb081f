#!/bin/sh
# run-demo.sh -- make check: the program's --help must work anywhere; the
# GPU run passes, or skips (77) without a GPU.
./demo --help || exit 1
./demo
