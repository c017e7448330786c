#!/bin/sh
# README command 1: install dependencies, build, install into PREFIX
# (default: _install inside the checkout) and run a demo job.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
PREFIX=${PREFIX:-$top/_install}
cd "$top"
sh scripts/deps.sh
[ -x configure ] || ./autogen.sh >/dev/null
mkdir -p _build && cd _build
[ -f Makefile ] || ../configure --prefix="$PREFIX" -q
make -s -j"$(nproc)"
make -s install >/dev/null
cd "$top"
echo "rdmpi installed in $PREFIX"
echo "== demo: $PREFIX/bin/mpicc examples/hello.c examples/pingpong.c; mpirun -np 2"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$PREFIX/bin/mpicc" -O2 -o "$tmp/hello" examples/hello.c
"$PREFIX/bin/mpicc" -O2 -o "$tmp/pingpong" examples/pingpong.c
"$PREFIX/bin/mpirun" -np 2 "$tmp/hello"
"$PREFIX/bin/mpirun" -np 2 "$tmp/pingpong"
