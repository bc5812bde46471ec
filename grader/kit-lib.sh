# grader/kit-lib.sh: the grader's kit-*.sh scripts' helper over the kit's shell library (POSIX sh;
# sourced, not run). Messages, refusals and builds are common/kit-lib.sh's (tl_say, tl_err, tl_die,
# tl_build); this file keeps only what is the grader's.
. "$TL_ROOT/common/kit-lib.sh"

# tl_build_grader WHO: makes sure $TL_BUILD/grader/tl-grade exists and is up to date, with the kit's
# own device query beside it (common/tl-device and tl-device-emu --facts: lab 02's expected facts);
# exit 2 when $TL_BUILD is not configured or ninja is missing, 1 when the build fails (its errors shown).
tl_build_grader() {
    TL_WHO=$1
    tl_build grader/tl-grade common/tl-device common/tl-device-emu || exit 1
}

# tl_need_grader_libs: exit 3 naming the packages when $TL_BUILD was configured without tl-grade
# (grader/meson.build leaves it out when pkg-config finds no libcjson, libarchive, libseccomp, libyaml or libpcre2).
tl_need_grader_libs() {
    if [ -f "$TL_BUILD/build.ninja" ] && command -v ninja >/dev/null 2>&1 &&
        ! ninja -C "$TL_BUILD" -t query grader/tl-grade >/dev/null 2>&1; then
        tl_err "tl-grade is not in this build: Meson found no libcjson, libarchive, libseccomp, libyaml or libpcre2"
        tl_err "when it configured '$TL_BUILD'. Install $TL_PKGS_GRADER (./kit setup does),"
        tl_die "then: meson setup --reconfigure '$TL_BUILD'" 3
    fi
}
