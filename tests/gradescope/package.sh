#!/bin/sh
# tests/gradescope/package.sh: `./kit gradescope` end to end without Gradescope. The package is
# built, unpacked into /autograder/source of a fresh root (bubblewrap: the system's /usr, /etc and
# dpkg database read-only, an empty /tmp, nothing else of this machine), and its own scripts run
# there as Gradescope runs them: setup.sh once (it finds every package installed and meson new
# enough, so it installs nothing and builds tl-grade), then run_autograder per submission, each
# into /autograder/results/results.json. Checked: lab 01's solution full marks and a wrong file
# less, by Gradescope's spec (score, output, tests; tilelab's data under extra_data, no top-level
# key of ours); a submission without the student file gets a failing results.json that says it is
# not a grade; an emulated GPU lab (03, in a root without nvcc) grades the solution with speed named
# not graded.
# Not tested without Gradescope: its image (Ubuntu's packages, pip meson), its network, its
# container (whether bubblewrap can run there), its submission_metadata.json. Speaks TAP.
set -u
root=${TL_ROOT:?set TL_ROOT to the kit}
build=${TL_BUILD:?set TL_BUILD to the build folder}
[ "$(id -u)" = 0 ] || { echo "1..0 # SKIP the fresh root needs root (bubblewrap binds)"; exit 0; }
command -v bwrap >/dev/null 2>&1 || { echo "1..0 # SKIP bubblewrap is missing"; exit 0; }
command -v zip >/dev/null 2>&1 && command -v unzip >/dev/null 2>&1 || { echo "1..0 # SKIP zip/unzip missing"; exit 0; }
T=$(mktemp -d /tmp/tl-gs-test.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
n=0; failed=0
ok()     { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do echo "# $l"; done; }
show()   { sed 's/^/#   /' "$@" | head -40; }
echo "1..6"

echo 4242 > "$T/seed"
if TL_ROOT=$root TL_BUILD=$build sh "$root/grader/kit-gradescope.sh" --lab 01 --secret "$T/seed" --out "$T/ag01.zip" \
       > "$T/pkg.log" 2>&1 && unzip -Z1 "$T/ag01.zip" > "$T/list" && grep -qx setup.sh "$T/list" &&
   grep -qx run_autograder "$T/list" && grep -q '^kit/labs/01-cpu-baseline/gmm.c$' "$T/list" &&
   ! grep -q '^kit/solutions/\|^kit/tests/' "$T/list"; then
    ok "./kit gradescope --lab 01 writes a zip with setup.sh and run_autograder at its root, the kit without solutions"
else
    not_ok "./kit gradescope --lab 01 writes a zip with setup.sh and run_autograder at its root" ; show "$T/pkg.log"
fi

# A fresh root with Gradescope's layout; $1 the package, $2 a submission folder ("" none), $3 the step.
# (The host's /proc is bound: a nested bubblewrap, the grader's sandbox, cannot mount a new one.)
fresh() {
    A=$T/root/autograder
    [ "$3" = setup ] && { rm -rf "$T/root"; mkdir -p "$A/source" "$A/results" && (cd "$A/source" && unzip -q "$1"); }
    [ "$3" = setup ] && [ -n "${GS_SEED:-}" ] && [ -d "$GS_SEED" ] && cp -a "$GS_SEED" "$A/source/build"
    rm -rf "$A/submission" "$A/results"/*; mkdir -p "$A/submission"
    [ -n "$2" ] && cp -r "$2"/. "$A/submission/"
    bwrap --ro-bind /usr /usr --ro-bind /etc /etc --ro-bind /var/lib/dpkg /var/lib/dpkg \
          --symlink usr/bin /bin --symlink usr/sbin /sbin --symlink usr/lib /lib --symlink usr/lib64 /lib64 \
          --bind /proc /proc --dev-bind /dev /dev --tmpfs /tmp --bind /sys/fs/cgroup /sys/fs/cgroup \
          --bind "$A" /autograder --chdir /autograder --setenv HOME /tmp ${GS_ENV:-} ${GS_HIDE:-} \
          --setenv PATH /usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/usr/local/cuda/bin \
          sh -c "if [ $3 = setup ]; then sh /autograder/source/setup.sh; else cp /autograder/source/run_autograder /autograder/ && /autograder/run_autograder; fi"
}

if fresh "$T/ag01.zip" "" setup > "$T/setup.log" 2>&1 && [ -x "$T/root/autograder/source/build/grader/tl-grade" ]; then
    ok "setup.sh in a fresh root installs nothing that is there and builds tl-grade"
else
    not_ok "setup.sh in a fresh root installs nothing that is there and builds tl-grade"; show "$T/setup.log"
fi

mkdir -p "$T/sol" "$T/wrong" "$T/empty"
cp "$root/solutions/01-cpu-baseline/gmm.c" "$T/sol/"
cp "$root/tests/wrong/01/adds.c" "$T/wrong/gmm.c"
echo "my notes" > "$T/empty/notes.txt"
res=$T/root/autograder/results/results.json
json() { python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print($2)" "$res"; }
fresh "$T/ag01.zip" "$T/sol" run > "$T/run1.log" 2>&1
if [ -f "$res" ] && [ "$(json x 'r["score"]')" = 100 ] && [ "$(json x '"tilelab" in r')" = False ] &&
   [ "$(json x 'r["extra_data"]["tilelab"]["max"]')" = 100 ] && [ "$(json x 'len(r["tests"]) > 5')" = True ]; then
    ok "run_autograder grades lab 01's solution 100 by Gradescope's spec (our data under extra_data)"
else
    not_ok "run_autograder grades lab 01's solution 100 by Gradescope's spec"; show "$T/run1.log"; [ -f "$res" ] && show "$res"
fi
fresh "$T/ag01.zip" "$T/wrong" run > "$T/run2.log" 2>&1
s2=$(json x 'r["score"]' 2>/dev/null)
fresh "$T/ag01.zip" "$T/empty" run > "$T/run3.log" 2>&1
if [ -n "$s2" ] && python3 -c "import sys; sys.exit(0 if 0 < float(sys.argv[1]) < 100 else 1)" "$s2" &&
   grep -q "NOT GRADED" "$res" && grep -q "no gmm.c in the submission" "$res" && [ "$(json x 'r["score"]')" = 0 ]; then
    ok "a wrong file scores less ($s2); no gmm.c gives a failing results.json that says it is not a grade"
else
    not_ok "a wrong file scores less; no gmm.c gives a failing results.json that says it is not a grade" "wrong: $s2"
    show "$T/run3.log"; [ -f "$res" ] && show "$res"
fi

# A container where bubblewrap cannot work (as Gradescope's may be): a failing results.json, not none.
GS_ENV="--setenv TL_GRADE_NO_BWRAP 1" fresh "$T/ag01.zip" "$T/sol" run > "$T/run5.log" 2>&1
if [ -f "$res" ] && grep -q "NOT GRADED" "$res" && grep -q "bubblewrap cannot isolate" "$res" &&
   grep -q "allow-unsandboxed" "$res" && [ "$(json x 'r["score"]')" = 0 ]; then
    ok "without a sandbox run_autograder writes a failing results.json saying why and what to do"
else
    not_ok "without a sandbox run_autograder writes a failing results.json saying why and what to do"
    show "$T/run5.log"; [ -f "$res" ] && show "$res"
fi

# An emulated GPU lab: lab 03 in a root without nvcc (Gradescope's base image has none): the CUDA
# toolkit hidden under an empty folder, setup.sh builds tl-grade without CUDA, and the grader builds
# the emulated program alone (host compilers only).
cuda_dir=$(readlink -f /usr/local/cuda 2>/dev/null || echo /usr/local/cuda)
GS_HIDE=""
[ -d "$cuda_dir" ] && GS_HIDE="--tmpfs $cuda_dir"
for p in $(command -v nvcc 2>/dev/null) /usr/local/bin/nvcc /usr/bin/nvcc; do   # others (wrappers): /dev/null there
    case $(readlink -f "$p" 2>/dev/null || echo "$p") in "$cuda_dir"/*) continue ;; esac
    case $p in /usr/local/cuda/*) continue ;; esac
    { [ -e "$p" ] || [ -L "$p" ]; } && GS_HIDE="$GS_HIDE --ro-bind /dev/null $p"
done
export GS_HIDE
mkdir -p "$T/sol3" && cp "$root/solutions/03-tiled-kernel/tiled.cu" "$T/sol3/"
# The lab 03 root starts with the lab 01 root's build folder (the same kit, both without CUDA, the same
# /autograder paths inside the root): its setup.sh takes the path of a build folder already there
# (reconfigured, tl-grade up to date) instead of a second tl-grade built from clean, which the lab 01
# root's setup.sh proves (about 15 CPU-s; tests/bench/README.md, session 12).
rm -rf "$T/build01"
cp -a "$T/root/autograder/source/build" "$T/build01" 2>/dev/null || rm -rf "$T/build01"
GS_SEED=$T/build01
export GS_SEED
if TL_ROOT=$root TL_BUILD=$build sh "$root/grader/kit-gradescope.sh" --lab 03 \
       --secret "$T/seed" --out "$T/ag03.zip" > "$T/pkg3.log" 2>&1 &&
   fresh "$T/ag03.zip" "" setup > "$T/setup3.log" 2>&1 && grep -q "CUDA disabled" "$T/setup3.log" &&
   fresh "$T/ag03.zip" "$T/sol3" run > "$T/run4.log" 2>&1 &&
   [ "$(json x 'r["score"]')" = 80 ] && [ "$(json x 'r["extra_data"]["tilelab"]["max"]')" = 100 ] &&
   grep -q "not graded here: speed against the reference" "$res"; then
    ok "lab 03 emulated without nvcc: the solution 80/100, the speed test named as not graded here (no GPU)"
else
    not_ok "lab 03 emulated without nvcc: the solution 80/100, the speed test named as not graded here"
    show "$T/pkg3.log" "$T/setup3.log" "$T/run4.log"; [ -f "$res" ] && show "$res"
fi
unset GS_HIDE
[ $failed = 0 ]
