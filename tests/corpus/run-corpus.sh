#!/bin/sh
# run-corpus.sh: every kernel of tests/corpus/expected.tsv judged as `./kit check NN --emulate` judges
# it (tl-grade --check --emulate on a folder holding the file under the lab's name, built over a
# pristine copy of the kit), its verdict and headline compared with the expected ones.
#   tests/corpus/run-corpus.sh [BUILD [PATTERN]]    (BUILD: default build; PATTERN: a grep -E on names)
# Prints one line per kernel (ok / WRONG, exit code, the first line of its first failing test) and
# exits 1 when any verdict or headline differs. About a minute per kernel on one core.
# CORPUS_LOGS=DIR: where the logs of kernels that went wrong are kept (CORPUS_KEEP=1: every kernel's).
# CORPUS_GPU=1: judged on the GPU as `./kit check NN` does (no --emulate; tests/gpu/corpus-on-device.sh):
# the verdicts and the headlines must be the same (on a GPU a generic or symptom reason is replaced by
# the emulated run's diagnosis at one small size, grader/judges.c; where a GPU names another right
# reason, expected.tsv lists it as one more alternative).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
pat=${2:-.}
tg=$build/grader/tl-grade
[ -x "$tg" ] || { echo "run-corpus: no $tg: build it (ninja -C build grader/tl-grade)" >&2; exit 2; }
tl_lab=$build/common/tl-lab
[ -x "$tl_lab" ] || { echo "run-corpus: no $tl_lab: build it (ninja -C build common/tl-lab)" >&2; exit 2; }
work=$(mktemp -d /tmp/tl-corpus-XXXXXX)
trap 'rm -rf "$work"' EXIT
bad=0
tab=$(printf '\t')
grep -v '^#' "$root/tests/corpus/expected.tsv" | grep -E "$pat" | while IFS="$tab" read -r f lab verdict head; do
    name=$("$tl_lab" files "$lab" | head -1)
    rm -rf "$work/sub" "$work/out"
    mkdir -p "$work/sub"
    cp "$root/tests/corpus/$f" "$work/sub/$name"
    mode=--emulate
    [ "${CORPUS_GPU:-0}" = 1 ] && mode=
    "$tg" --check --quiet --kit "$root" --lab "$lab" --out "$work/out" $mode "$work/sub" > "$work/log" 2>&1
    rc=$?
    first=$(awk '/^FAIL  /{getline; sub(/^ +/, ""); print; exit}' "$work/log")
    [ -n "$first" ] || first=$(grep -m1 "BUILD FAILED" "$work/log")
    ok=ok
    case $verdict in
    PASS) [ $rc -eq 0 ] || ok=WRONG ;;
    FAIL) [ $rc -eq 1 ] || ok=WRONG
          if [ "$head" != "-" ]; then
              # every failing test's first line must hold one of the alternatives
              awk '/^FAIL  /{getline; print}' "$work/log" > "$work/heads"
              while read -r h; do
                  printf '%s\n' "$h" | grep -qE "$(printf '%s' "$head" | sed 's/[][()*.^$]/\\&/g')" || ok=WRONG
              done < "$work/heads"
          fi ;;
    esac
    printf '%-5s %-40s %s exit %d: %.200s\n' "$ok" "$f" "$verdict" "$rc" "$first"
    # the log of a kernel that went wrong (CORPUS_KEEP=1: of every kernel) into CORPUS_LOGS (default /tmp)
    { [ "$ok" = ok ] && [ "${CORPUS_KEEP:-0}" != 1 ]; } || cp "$work/log" "${CORPUS_LOGS:-$work/..}/tl-corpus-$f.log" 2>/dev/null
    # the kit's own build's log too, where that failed ("the kit itself ... does not build here")
    [ "$ok" = ok ] || [ ! -f "$work/out/.state/kitbuild.log" ] ||
        tail -n 60 "$work/out/.state/kitbuild.log" > "${CORPUS_LOGS:-$work/..}/tl-corpus-$f.kitbuild.log" 2>/dev/null
done | tee "$work/table"
grep -q '^WRONG' "$work/table" && exit 1
exit 0
