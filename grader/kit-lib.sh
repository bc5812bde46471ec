# grader/kit-lib.sh: shared by the grader's kit-*.sh scripts (POSIX sh; sourced, not run).

# tl_build_grader WHO: makes sure $TL_BUILD/grader/tl-grade exists and is up to date.
tl_build_grader() {
    if [ ! -f "$TL_BUILD/build.ninja" ]; then
        echo "$1: '$TL_BUILD' is not a configured build folder; run ./kit setup (or: meson setup '$TL_BUILD')" >&2
        exit 2
    fi
    if ! command -v ninja >/dev/null 2>&1; then
        echo "$1: not run: build tool missing (ninja is not on PATH); install ninja-build" >&2
        exit 3
    fi
    if ! _log=$(ninja -C "$TL_BUILD" grader/tl-grade 2>&1); then
        printf '%s\n' "$_log" | tail -n 20 >&2
        echo "$1: building tl-grade failed (above)" >&2
        exit 3
    fi
}
