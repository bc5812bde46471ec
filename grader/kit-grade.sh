#!/bin/sh
# grader/kit-grade.sh: `./kit grade --lab NN --out DIR [--secret FILE] [--public-only] [--jobs N] SUBMISSION...`
# Called by the kit's front door as `sh grader/kit-grade.sh ARGS` with TL_ROOT (the kit's top folder)
# and TL_BUILD (its configured build folder) exported. Builds tl-grade if needed, then runs it.
# Everything else (options, exit codes) is tl-grade's: `./kit grade --help`.
set -eu

: "${TL_ROOT:?kit grade: TL_ROOT is not set (run it as ./kit grade ...)}"
: "${TL_BUILD:?kit grade: TL_BUILD is not set (run it as ./kit grade ...)}"

. "$TL_ROOT/grader/kit-lib.sh"
if [ -f "$TL_BUILD/build.ninja" ] && command -v ninja >/dev/null 2>&1 && ! ninja -C "$TL_BUILD" -t query grader/tl-grade >/dev/null 2>&1; then
    echo "kit grade: tl-grade is not in this build: Meson found no libcjson, libarchive or libseccomp when it" >&2
    echo "  configured '$TL_BUILD'. Install libcjson-dev libarchive-dev libseccomp-dev (./kit setup does)," >&2
    echo "  then: meson setup --reconfigure '$TL_BUILD'" >&2
    exit 3
fi
tl_build_grader "kit grade"
exec "$TL_BUILD/grader/tl-grade" --kit "$TL_ROOT" "$@"
