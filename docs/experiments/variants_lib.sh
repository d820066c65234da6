#!/bin/bash
# Shared by the sessions' variants.sh (source it from the repository root on the GPU machine):
# mk NAME PATCH [ROOT] copies ROOT/policies (default: this tree's) to $V/NAME/policies and runs
# the python PATCH there; sub FILE A B prints a patch replacing A by B in policies/FILE;
# build_variants BENCH [NVCC FLAGS..] builds $V/bench_NAME for each NAME in $VARIANTS.
# The generated pscan/backends.hpp of a CUDA build is expected in .exp/gen/.
set -u
root=$(pwd)
V=${VROOT-/root/v}
mkdir -p $V
mk() {
  local name=$1 patch=$2 src=${3-$root}
  rm -rf $V/$name && mkdir -p $V/$name && cp -r $src/policies $V/$name/
  (cd $V/$name && python3 -c "$patch") || { echo "patch $name failed"; return 1; }
}
sub() { echo "import sys
p='policies/$1'; s=open(p).read(); a='''$2'''; b='''$3'''
assert a in s, (p, a); open(p,'w').write(s.replace(a,b))"; }
build_variants() {
  local bench=$1; shift
  for v in $VARIANTS; do
    ( nvcc -std=c++20 -O3 -arch=sm_90 -Xcompiler -fopenmp -I include -I $V/$v/policies -I .exp/gen \
        -DVARIANT="\"$v\"" $([ "${v#trace}" != "$v" ] && echo -DPSCAN_TRACE) "$@" $bench lib/*.cu -lgomp \
        -o $V/bench_$v > $V/build_$v.log 2>&1 || echo "build $v FAILED" ) &
  done
  wait
}
