#!/bin/sh
# tests/toylab/toylab.sh: a lab is one folder plus one table entry (common/CONTRACTS.md, "Adding a
# lab"). In a copy of the kit it adds lab 09 "toy" exactly as the recipe says - labs/09-toy/ and its
# solution, and one entry in common/labtable.c, nothing else - then sees the lab
#   listed by tl-lab, in the rubric and the README tables, configured for the GPU build,
#   built emulated (its program and its reference), checked (./kit check 09: the reference passes,
#   the skeleton fails) and graded (tl-grade --emulate: the solution full marks, the skeleton less).
#
# Run:  sh tests/toylab/toylab.sh SOURCE_ROOT BUILD_ROOT   (meson test 'toy lab' runs it)
# Exit: 0 every expectation held, 1 one did not (named), 77 no copy could be made (no git, no tar).
set -u
root=$1 build=$2
work=$build/toylab
rm -rf "$work"
mkdir -p "$work/kit"
kit=$work/kit
fail=0
say() { printf '%s\n' "$*"; }
bad() { say "FAIL: $*"; fail=1; }

# ---------------------------------------------------------------- the copy (what git would ship)
if git -C "$root" rev-parse --git-dir >/dev/null 2>&1; then
    git -C "$root" ls-files -co --exclude-standard | grep -v '^build' >"$work/files.txt"
else
    (cd "$root" && find . -path ./.git -prune -o -path './build*' -prune -o -type f -print) >"$work/files.txt"
fi
(cd "$root" && tar -cf - -T "$work/files.txt") | (cd "$kit" && tar -xf -) || { say "SKIP: cannot copy the kit"; exit 77; }

# ---------------------------------------------------------------- the lab folder
L=$kit/labs/09-toy S=$kit/solutions/09-toy
mkdir -p "$L" "$S"
cat >"$L/README.md" <<'MD'
# Lab 09: toy

One thread per element of P (a test's lab: tests/toylab/toylab.sh).
MD
cat >"$L/lab.h" <<'H'
/* lab.h: what the toy lab's student file provides. */
#ifndef TILELAB_LAB09_H
#define TILELAB_LAB09_H
#ifdef __cplusplus
extern "C" {
#endif
int launch_toy(float *Md, float *Nd, float *Pd, int Width);
#ifdef __cplusplus
}
#endif
#endif
H
cat >"$L/lab.c" <<'C'
/* lab.c: the toy lab's program: code only, every fact is in the lab table. */
#include "lab.h"
#include "tilelab.h"

static int run_toy(const float *d_M, const float *d_N, float *d_P, int m, int k, int n, const void *ctx)
{
    (void)k; (void)n; (void)ctx;
    return launch_toy((float *)d_M, (float *)d_N, d_P, m);
}

static const tl_lab_code code[] = {
    {"toy", .gpu = run_toy},
};

int main(int argc, char **argv)
{
    return tl_lab_run("09", code, (int)(sizeof code / sizeof code[0]), NULL, argc, argv);
}
C
cat >"$L/toy.cu" <<'CU'
/* toy.cu: TODO launch one thread per element of P. */
#include "cuda_check.h"
#include "lab.h"

__global__ void ToyKernel(float *Md, float *Nd, float *Pd, int Width)
{
    (void)Md; (void)Nd; (void)Pd; (void)Width;   /* TODO */
}

extern "C" int launch_toy(float *Md, float *Nd, float *Pd, int Width)
{
    ToyKernel<<<1, 1>>>(Md, Nd, Pd, Width);
    return (int)cudaGetLastError();
}
CU
cat >"$S/toy.cu" <<'CU'
/* toy.cu, completed. */
#include "cuda_check.h"
#include "lab.h"

__global__ void ToyKernel(float *Md, float *Nd, float *Pd, int Width)
{
    int Row = blockIdx.y * blockDim.y + threadIdx.y;
    int Col = blockIdx.x * blockDim.x + threadIdx.x;
    if (Row < Width && Col < Width) {
        float Pvalue = 0;
        for (int k = 0; k < Width; ++k)
            Pvalue += Md[Row * Width + k] * Nd[k * Width + Col];
        Pd[Row * Width + Col] = Pvalue;
    }
}

extern "C" int launch_toy(float *Md, float *Nd, float *Pd, int Width)
{
    dim3 block(16, 16, 1), grid(ceil_div(Width, 16), ceil_div(Width, 16), 1);
    ToyKernel<<<grid, block>>>(Md, Nd, Pd, Width);
    return (int)cudaGetLastError();
}
CU
# The recipe's meson.build files: lab 06's, with 06 and the file name replaced.
sed -e 's/06/09/g' -e 's/regtile/toy/g' "$kit/labs/06-register-tiling/meson.build" >"$L/meson.build"
sed -e 's/06/09/g' -e 's/regtile/toy/g' "$kit/solutions/06-register-tiling/meson.build" >"$S/meson.build"

# ---------------------------------------------------------------- the one table entry
entry=$work/entry.c
cat >"$entry" <<'E'
    {
        TL_LAB_BUILDS("09", "09-toy"), TL_LAB_EMULATED("09"),
        .title = "A toy lab (tests/toylab)",
        .writes = "one thread per element of P (toy)",
        .files = {"toy.cu", NULL},
        .gpu = 1,
        .public_sizes = "1,17,64",
        .hidden_count = 2, .hidden_min = 2, .hidden_max = 40, .hidden_ragged = 1,
        .case_limit_s = 20.0, .sanitizer_limit_s = 120.0,
        TL_VARIANTS({.name = "toy", .what = "ToyKernel: one thread per element", .on_gpu = 1, .tile = 16,
                     .square_only = 1}),
        TL_TESTS({.name = "toy kernel (toy), public sizes", .kind = TL_TEST_PUBLIC, .variant = "toy", .points = 60},
                 {.name = "toy kernel (toy), hidden sizes", .kind = TL_TEST_HIDDEN, .variant = "toy", .points = 35},
                 TL_POLICY_TEST("toy.cu")),
    },
E
t=$kit/common/labtable.c
grep -q '^const int tl_nlabs' "$t" || { bad "common/labtable.c has no 'const int tl_nlabs' line after tl_labs[]"; exit 1; }
awk -v f="$entry" '/^};$/ && !done { getline nx; if (nx ~ /^const int tl_nlabs/) { while ((getline l < f) > 0) print l; done = 1 }
                     print; print nx; next } { print }' "$t" >"$t.new" && mv "$t.new" "$t"
grep -q '"09-toy"' "$t" || { bad "the toy entry did not go into labtable.c"; exit 1; }
# Nothing else: the copy differs from the kit only by the two folders and the table.
extra=$(cd "$kit" && git -C "$root" diff --no-index --name-only "$root/common" "$kit/common" 2>/dev/null | grep -v labtable.c)
[ -z "$extra" ] || bad "files other than labtable.c changed in common/: $extra"

# ---------------------------------------------------------------- built
B=$work/build
say "== configure and build the copy (no CUDA; tests off; unoptimised)"
PATH=$(printf '%s' "$PATH" | tr ':' '\n' | grep -v cuda | paste -sd: -)
export PATH
# No CUDA for ./kit in the copy either: its configure finds nvcc in /usr/local/cuda/bin, off PATH or
# not, and had reconfigured this build with CUDA at the first ./kit check (tl-grade's device code
# and the labs' GPU programs compiled by nvcc: 12 of the test's 53 CPU-s, session 13). The CUDA
# build of the copy is configured below, on its own.
TL_NO_CUDA=1
export TL_NO_CUDA
# Unoptimised (-O0, no debug information): what is proven is that the lab builds, is listed,
# checked and graded; its sizes are at most 64 (the emulator's work there is milliseconds even
# unoptimised). Half of the copy's build CPU (tl-grade, tl-lab, lab 09's emulated programs and the
# emulator's runtime); the grading run below builds its own kit in the sandbox, as the grader does.
if ! meson setup "$B" "$kit" -Dcuda=disabled -Dtests=false -Doptimization=0 -Ddebug=false >"$work/setup.log" 2>&1; then
    bad "meson setup of the copy failed"; tail -20 "$work/setup.log"; exit 1
fi
if ! ninja -C "$B" common/tl-lab grader/tl-grade labs/emulated/lab09-emu labs/emulated/lab09-ref-emu \
        >"$work/build.log" 2>&1; then
    bad "building the toy lab failed"; tail -30 "$work/build.log"; exit 1
fi
TL=$B/common/tl-lab
"$TL" list | grep -qx 09 || bad "tl-lab list has no 09"
[ "$("$TL" dir 9)" = 09-toy ] || bad "tl-lab dir 9 is not 09-toy"
[ "$("$TL" get 09 emulated)" = 1 ] || bad "tl-lab get 09 emulated is not 1"
"$TL" rubric | grep -q "toy kernel (toy), public sizes" || bad "the rubric has no toy test"
"$TL" readme "$kit/README.md" "$kit/grader/README.md" || bad "tl-lab readme failed"
grep -q '| 09-toy | one thread per element of P (toy)' "$kit/README.md" || bad "README.md's table has no toy row"
grep -q '| 09-toy | `toy.cu`' "$kit/grader/README.md" || bad "grader/README.md's table has no toy row"
say "ok: listed, in the rubric and in both README tables"

# The GPU build's targets exist too where nvcc is (configured only: nvcc's time is not spent here).
if [ -x /usr/local/cuda/bin/nvcc ]; then
    if PATH=$PATH:/usr/local/cuda/bin meson setup "$work/build-gpu" "$kit" -Dtests=false -Dgpu_archs=90 \
            >"$work/setup-gpu.log" 2>&1; then
        for t in labs/09-toy/lab09 solutions/09-toy/lab09-ref solutions/speed/speed-ref; do
            ninja -C "$work/build-gpu" -t query "$t" >/dev/null 2>&1 || bad "the CUDA build has no target $t"
        done
        grep -q 'speed-lab09' "$work/build-gpu/build.ninja" || bad "speed-ref does not take the toy lab's rungs"
        say "ok: the CUDA build has lab09, lab09-ref and the toy rung in speed-ref"
    else
        bad "meson setup with CUDA failed"; tail -20 "$work/setup-gpu.log"
    fi
else
    say "SKIP (part): no nvcc here, the CUDA build's targets not configured"
fi

# ---------------------------------------------------------------- emulated
"$B/labs/emulated/lab09-ref-emu" --no-time >"$work/ref-emu.log" 2>&1
rc=$?; [ $rc = 0 ] || { bad "lab09-ref-emu exited $rc, expected 0"; tail -5 "$work/ref-emu.log"; }
"$B/labs/emulated/lab09-emu" --no-time >"$work/emu.log" 2>&1
rc=$?; [ $rc = 1 ] || bad "lab09-emu (the skeleton) exited $rc, expected 1"
grep -q "unwritten elements" "$work/emu.log" || bad "the skeleton's failure is not named 'unwritten elements'"
say "ok: emulated, the reference passes and the skeleton fails"

# ---------------------------------------------------------------- checked
export TL_BUILD="$B"
cp "$L/toy.cu" "$work/skeleton.cu"
(cd "$kit" && ./kit check 09 --emulate) >"$work/check-skel.log" 2>&1
rc=$?; [ $rc = 1 ] || { bad "./kit check 09 on the skeleton exited $rc, expected 1"; tail -15 "$work/check-skel.log"; }
cp "$S/toy.cu" "$L/toy.cu"
(cd "$kit" && ./kit check 09 --emulate) >"$work/check-ref.log" 2>&1
rc=$?; [ $rc = 0 ] || { bad "./kit check 09 on the solution exited $rc, expected 0"; tail -15 "$work/check-ref.log"; }
cp "$work/skeleton.cu" "$L/toy.cu"
say "ok: ./kit check 09 passes the solution and fails the skeleton"

# ---------------------------------------------------------------- graded
mkdir -p "$work/class/solution" "$work/class/skeleton"
cp "$S/toy.cu" "$work/class/solution/"
cp "$work/skeleton.cu" "$work/class/skeleton/toy.cu"
echo 4242 >"$work/secret"
"$B/grader/tl-grade" --kit "$kit" --lab 09 --emulate --out "$work/out" --secret "$work/secret" --jobs 2 \
    "$work/class/solution" "$work/class/skeleton" >"$work/grade.log" 2>&1
rc=$?; [ $rc = 0 ] || { bad "tl-grade --lab 09 exited $rc"; tail -20 "$work/grade.log"; }
score() { sed -n 's/^[[:space:]]*"score":[[:space:]]*\([0-9.]*\).*/\1/p' "$work/out/$1/results.json" | head -1; }
sol=$(score solution) skel=$(score skeleton)
awk -v a="$sol" 'BEGIN { exit !(a == 100) }' || bad "the solution scored '$sol' emulated, expected 100 (no speed test)"
[ -n "$skel" ] && awk -v a="$skel" -v b="$sol" 'BEGIN { exit !(a < b) }' || bad "the skeleton scored '$skel', not less than the solution's '$sol'"
say "ok: graded: the solution $sol, the skeleton $skel"

[ $fail = 0 ] && say "the toy lab: one folder and one table entry, built, checked, emulated, graded, in the rubric"
exit $fail
