#!/bin/sh
# README command 1: install dependencies, build, install into PREFIX
# (default: _install inside the checkout) and run a demo job. A PREFIX other
# than the one _build was configured for reconfigures _build (with its other
# configure options kept), so that the install goes where PREFIX says.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
PREFIX=${PREFIX:-$top/_install}
case $PREFIX in
  /*) ;;
  *) PREFIX=$(pwd)/$PREFIX ;;   # configure wants an absolute prefix
esac
cd "$top"
sh scripts/deps.sh
[ -x configure ] || ./autogen.sh >/dev/null
mkdir -p _build && cd _build
if [ ! -f Makefile ]; then
  ../configure --prefix="$PREFIX" -q
else
  was=$(sed -n 's/^prefix = //p' Makefile)
  if [ "$was" != "$PREFIX" ]; then
    echo "_build was configured for prefix $was: reconfiguring for $PREFIX"
    # The previous configure's arguments, quoted as config.status gives them.
    eval "set -- $(./config.status --config)"
    for a in "$@"; do
      shift
      case $a in --prefix=*) ;; *) set -- "$@" "$a" ;; esac
    done
    ../configure "$@" --prefix="$PREFIX" -q
  fi
fi
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
