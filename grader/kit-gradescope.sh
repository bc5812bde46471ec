#!/bin/sh
# grader/kit-gradescope.sh: `./kit gradescope --lab NN --out autograder.zip [--secret FILE] [--allow-unsandboxed]`
# Writes a Gradescope autograder: setup.sh and run_autograder at the zip's root (Gradescope unpacks
# it into /autograder/source), the kit's pristine copy (tl-grade --print-pristine: no solutions,
# tests or secrets) under kit/, the lab in lab.env and the seed of the hidden cases (--secret FILE,
# else a fresh one) in lab.seed. On Gradescope's Ubuntu image
# setup.sh installs what is missing (the grader's Debian packages; a pip meson where the image's is
# older than 1.0.1) and builds tl-grade once; run_autograder grades /autograder/submission through
# the same grader and writes /autograder/results/results.json by Gradescope's spec (tilelab's own
# data under extra_data), or a clear failing results.json whenever it cannot grade.
# Called by the kit's front door with TL_ROOT and TL_BUILD exported.
set -eu
: "${TL_ROOT:?kit gradescope: TL_ROOT is not set (run it as ./kit gradescope ...)}"
: "${TL_BUILD:?kit gradescope: TL_BUILD is not set (run it as ./kit gradescope ...)}"
. "$TL_ROOT/grader/kit-lib.sh"
# shellcheck disable=SC2034  # read by common/kit-lib.sh (tl_err)
TL_WHO="kit gradescope"

lab=""; out=""; secret=""; unsafe=0
while [ $# -gt 0 ]; do
    case $1 in
    # (a missing value is named here: `shift 2` past the end would stop the shell with its own words)
    --lab) [ $# -ge 2 ] || tl_die "--lab needs a lab: --lab NN, e.g. --lab 02 (./kit gradescope --help)"
        lab=$2; shift 2 ;;
    --out) [ $# -ge 2 ] || tl_die "--out needs the zip to write: --out autograder.zip (./kit gradescope --help)"
        out=$2; shift 2 ;;
    --secret) [ $# -ge 2 ] || tl_die "--secret needs a file holding the seed: --secret FILE (./kit gradescope --help)"
        secret=$2; shift 2 ;;
    --allow-unsandboxed) unsafe=1; shift ;;
    -h|--help)
        tl_say "usage: ./kit gradescope --lab NN --out autograder.zip [--secret FILE] [--allow-unsandboxed]"
        tl_say "A Gradescope autograder for lab NN: upload the zip as the programming assignment's autograder."
        tl_say "  --secret FILE        the seed of the hidden cases (default: a fresh one, kept only in the zip)"
        tl_say "  --allow-unsandboxed  grade even where bubblewrap cannot run in Gradescope's container (the"
        tl_say "                       container is then the only isolation; every result says UNSAFE);"
        tl_say "                       default: such a submission gets a failing results.json saying why"
        exit 0 ;;
    *) tl_die "unknown option '$1' (./kit gradescope --help)" ;;
    esac
done
[ -n "$lab" ] || tl_die "give the lab: --lab NN"
[ -n "$out" ] || tl_die "give the zip to write: --out autograder.zip"
case $out in *.zip) ;; *) tl_die "--out '$out': the autograder is a .zip" ;; esac
# ./kit runs this part with TL_KIT_ARGS_ONLY=1 before it installs, configures or builds anything
[ "${TL_KIT_ARGS_ONLY:-0}" != 1 ] || exit 0
command -v zip >/dev/null 2>&1 || tl_die "zip is missing (Debian: apt-get install zip)" 3
tl_need_grader_libs
tl_build_grader "kit gradescope"
tg=$TL_BUILD/grader/tl-grade
tl_lab=$TL_BUILD/common/tl-lab      # the lab table for scripts
[ -x "$tl_lab" ] || ninja -C "$TL_BUILD" common/tl-lab >/dev/null || tl_die "cannot build common/tl-lab in $TL_BUILD" 3
dir=$("$tl_lab" dir "$lab" 2>/dev/null) || tl_die "unknown lab '$lab'; the labs: $("$tl_lab" list | tr '\n' ' ')"
id=$("$tl_lab" get "$lab" id)

T=$(mktemp -d "${TMPDIR:-/tmp}/tl-gradescope.XXXXXX") || exit 3
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/pkg/kit"
# The kit as a student build sees it: the pristine copy's files only.
"$tg" --print-pristine "$TL_ROOT" > "$T/files" || tl_die "cannot list the kit's files" 3
(cd "$TL_ROOT" && tar -cf - -T "$T/files") | (cd "$T/pkg/kit" && tar -xf -)
if [ -n "$secret" ]; then
    [ -f "$secret" ] || tl_die "--secret '$secret': no such file"
    cp "$secret" "$T/pkg/lab.seed"
else
    od -An -tu8 -N8 /dev/urandom | tr -d ' \n' > "$T/pkg/lab.seed"; echo >> "$T/pkg/lab.seed"
fi
chmod 600 "$T/pkg/lab.seed"
gpu=$("$tl_lab" get "$id" gpu)
printf 'LAB=%s\nGPU_LAB=%s\nALLOW_UNSANDBOXED=%s\n' "$id" "$gpu" "$unsafe" > "$T/pkg/lab.env"
cp "$TL_ROOT/grader/gradescope/setup.sh" "$TL_ROOT/grader/gradescope/run_autograder" "$T/pkg/"
chmod 755 "$T/pkg/setup.sh" "$T/pkg/run_autograder"
rm -f "$out.tmp"
(cd "$T/pkg" && zip -qr "$(cd "$(dirname "$out")" && pwd)/$(basename "$out").tmp" setup.sh run_autograder lab.env lab.seed kit)
mv "$out.tmp" "$out"
tl_say "kit gradescope: $out: lab $id ($dir), setup.sh and run_autograder at its root, the kit under kit/"
[ -n "$secret" ] || tl_say "kit gradescope: the hidden cases' seed was drawn fresh; it is only in the zip (lab.seed)"
