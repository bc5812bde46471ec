# common/kit-lib.sh: the shell library every kit script sources (POSIX sh; sourced, not run).
#
#   . "$TL_ROOT/common/kit-lib.sh"
#
# Messages:   tl_say TEXT (stdout), tl_err TEXT ("$TL_WHO: TEXT" on stderr),
#             tl_die TEXT [CODE] (tl_err, then exit CODE, default 2: bad usage or input).
#             TL_WHO names the speaker (default "kit"; a script may set e.g. TL_WHO="kit bench").
# Packages:   tl_need_pkgs PKG... installs only the named Debian packages that are missing (as root,
#             with apt-get --no-install-recommends); otherwise it says what to install and returns 1,
#             leaving the missing names in TL_MISSING. Whether a package is "there" is judged by what
#             the kit uses of it (the command, the pkg-config module, the file), so a pip-installed
#             meson or a toolkit without dpkg counts.
# Builds:     tl_build TARGET... runs ninja in the configured $TL_BUILD; progress on a terminal (one
#             updating line), otherwise a line per tenth of a long build (100 steps or more) and one
#             line at the end of a shorter one; on failure it shows the
#             errors from the log, names the log and returns 1. No TARGET: everything.
#             tl_build_progress TARGET... is the same without the error report.
# Tools:      tl_find_nvcc (puts CUDA's bin/ on PATH when nvcc is in its usual home; TL_NO_CUDA=1
#             refuses), tl_gpu_status (builds only common/tl-device and asks it: 0 a usable GPU).
# Exit codes (every kit program): 0 ok, 1 a check failed, 2 bad usage or input, 77 skipped.

TL_WHO=${TL_WHO:-kit}

tl_say() { printf '%s\n' "$*"; }
tl_err() { printf '%s: %s\n' "$TL_WHO" "$*" >&2; }
tl_die() { tl_err "$1"; exit "${2:-2}"; }

# ------------------------------------------------------------------ Debian packages
# The kit's packages by purpose (README.md, "Requirements", says why each is needed).
TL_PKGS_CORE="meson ninja-build g++ pkg-config"
TL_PKGS_GRADER="libcjson-dev libarchive-dev libseccomp-dev libyaml-dev libpcre2-dev similarity-tester bubblewrap"
TL_PKGS_TESTS="libcriterion-dev"
TL_PKGS_PLOTS="gnuplot-nox"
# The grader's Slurm test starts a one-node cluster (tests/slurm): slurmctld, slurmd, munge, the client.
TL_PKGS_CLUSTER="slurm-wlm munge"
TL_PKGS_SLIDES="pandoc texlive-latex-base texlive-latex-recommended texlive-pictures lmodern poppler-utils"

# tl_have_pkg PKG: 0 when what the kit uses of PKG is usable here.
tl_have_pkg() {
    case $1 in
    meson) command -v meson >/dev/null 2>&1 ;;
    ninja-build) command -v ninja >/dev/null 2>&1 ;;
    g++) command -v g++ >/dev/null 2>&1 ;;
    gcc) command -v gcc >/dev/null 2>&1 ;;
    pkg-config) command -v pkg-config >/dev/null 2>&1 ;;
    libcriterion-dev) tl_have_pc criterion ;;
    libcjson-dev) tl_have_pc libcjson || tl_build_has_grader ;;
    libarchive-dev) tl_have_pc libarchive || tl_build_has_grader ;;
    libseccomp-dev) tl_have_pc libseccomp || tl_build_has_grader ;;
    libyaml-dev) tl_have_pc yaml-0.1 || tl_build_has_grader ;;
    libpcre2-dev) tl_have_pc libpcre2-8 || tl_build_has_grader ;;
    similarity-tester) command -v sim_c >/dev/null 2>&1 ;;
    bubblewrap) command -v bwrap >/dev/null 2>&1 ;;
    slurm-wlm) [ -x /usr/sbin/slurmctld ] && [ -x /usr/sbin/slurmd ] && command -v sbatch >/dev/null 2>&1 ;;
    munge) [ -x /usr/sbin/munged ] ;;
    gnuplot-nox) command -v gnuplot >/dev/null 2>&1 ;;
    pandoc) command -v pandoc >/dev/null 2>&1 ;;
    texlive-latex-base) command -v pdflatex >/dev/null 2>&1 ;;
    texlive-latex-recommended) tl_have_tex beamer.cls ;;
    texlive-pictures) tl_have_tex pgfcore.sty ;;
    lmodern) tl_have_tex lmodern.sty ;;
    poppler-utils) command -v pdfinfo >/dev/null 2>&1 ;;
    *) command -v dpkg-query >/dev/null 2>&1 &&
        dpkg-query -W -f '${Status}' "$1" 2>/dev/null | grep -q 'install ok installed' ;;
    esac
}
tl_have_pc() {
    if command -v pkg-config >/dev/null 2>&1; then
        pkg-config --exists "$1" 2>/dev/null
    else
        # no pkg-config yet: ask dpkg (its package comes with the core)
        return 1
    fi
}
# tl_build_has_grader: 0 when $TL_BUILD is configured with tl-grade, i.e. Meson found the grader's
# libraries (grader/meson.build leaves tl-grade out otherwise): libraries in an admin's prefix or a
# module, which pkg-config here may not list and dpkg never installed, count as there.
tl_build_has_grader() {
    [ -n "${TL_BUILD:-}" ] && [ -f "$TL_BUILD/build.ninja" ] && command -v ninja >/dev/null 2>&1 &&
        ninja -C "$TL_BUILD" -t query grader/tl-grade >/dev/null 2>&1
}
tl_have_tex() { command -v kpsewhich >/dev/null 2>&1 && [ -n "$(kpsewhich "$1" 2>/dev/null)" ]; }

# tl_missing_pkgs PKG...: prints the missing ones, space-separated (empty when none).
tl_missing_pkgs() {
    _m=
    for _p in "$@"; do
        tl_have_pkg "$_p" || _m="$_m $_p"
    done
    printf '%s' "${_m# }"
}

# tl_need_pkgs PKG...: the one apt installer (see the top of this file).
tl_need_pkgs() {
    TL_MISSING=$(tl_missing_pkgs "$@")
    [ -n "$TL_MISSING" ] || return 0
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        tl_err "installing from Debian: $TL_MISSING"
        _log=${TMPDIR:-/tmp}/tl-apt.$$.log
        # shellcheck disable=SC2086
        if ! DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -q \
                --no-install-recommends $TL_MISSING >"$_log" 2>&1; then
            # a stale package list is the usual reason: refresh it once and retry
            DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 update -q >>"$_log" 2>&1
            # shellcheck disable=SC2086
            DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -q \
                --no-install-recommends $TL_MISSING >>"$_log" 2>&1 ||
                { grep -E '^(E|W):' "$_log" | tail -n 5 >&2; }
        fi
        rm -f "$_log"
        TL_MISSING=$(tl_missing_pkgs "$@")
        [ -n "$TL_MISSING" ] || return 0
        tl_err "apt-get could not install: $TL_MISSING (no network, or no such package here)"
        return 1
    fi
    if command -v apt-get >/dev/null 2>&1; then
        tl_err "missing: $TL_MISSING; install with: sudo apt-get install --no-install-recommends $TL_MISSING"
    else
        tl_err "missing: $TL_MISSING (Debian package names; no apt here: install their equivalents another way, e.g. pip install meson ninja)"
    fi
    return 1
}

# ------------------------------------------------------------------ tools
# tl_find_nvcc: 0 when nvcc is usable (on PATH, or CUDA's usual home, which it then adds to PATH).
tl_find_nvcc() {
    [ "${TL_NO_CUDA:-0}" != 1 ] || return 1
    command -v nvcc >/dev/null 2>&1 && return 0
    for _d in /usr/local/cuda/bin /usr/local/cuda-13.0/bin /usr/local/cuda-12/bin; do
        if [ -x "$_d/nvcc" ]; then
            PATH=$_d:$PATH
            export PATH
            return 0
        fi
    done
    return 1
}

# tl_need_build: refuses (exit 2) when $TL_BUILD is not a configured build folder or ninja is missing.
tl_need_build() {
    [ -n "${TL_BUILD:-}" ] || tl_die "TL_BUILD is not set (run this through ./kit)"
    [ -f "$TL_BUILD/build.ninja" ] ||
        tl_die "'$TL_BUILD' is not a configured build folder; run ./kit setup (or: meson setup '$TL_BUILD')"
    command -v ninja >/dev/null 2>&1 || tl_die "ninja is not on PATH; install ninja-build (./kit setup)"
}

# tl_build TARGET...: see the top of this file. The log: $TL_BUILD/kit-build.log.
tl_build() {
    tl_build_progress "$@" && return 0
    # The errors: what ninja reports as failed, and the compilers' error lines with their context.
    if grep -q -E 'FAILED:|error|Error' "$_log"; then
        grep -E -A3 '(FAILED:|[Ee]rror[: ]|undefined reference|ninja: error)' "$_log" | grep -v '^\[[0-9]*/[0-9]*\]' | head -n 40 >&2
    else
        tail -n 30 "$_log" >&2
    fi
    tl_err "the build failed (errors above); the whole log: $_log"
    return 1
}

# tl_build_progress TARGET...: tl_build without the error report (for a caller that reports a failed
# build its own way, e.g. as the grader's FAIL); returns ninja's status, the log in $TL_BUILD/kit-build.log.
tl_build_progress() {
    tl_need_build
    _log=$TL_BUILD/kit-build.log
    _rc=$TL_BUILD/.kit-build.rc
    _tty=0
    [ -t 2 ] && _tty=1
    # ninja's status line is '[done/total] what'; everything else it prints is the compilers'.
    { NINJA_STATUS='[%f/%t] ' ninja -C "$TL_BUILD" "$@" 2>&1; echo $? >"$_rc"; } | {
        : >"$_log"
        _shown=0
        _step=0
        _last=
        while IFS= read -r _l; do
            printf '%s\n' "$_l" >>"$_log"
            case $_l in
            '['[0-9]*/[0-9]*']'*) ;;
            *) continue ;;
            esac
            _f=${_l#\[}; _f=${_f%%/*}
            _t=${_l#*/}; _t=${_t%%\]*}
            case $_f$_t in *[!0-9]*) continue ;; esac
            if [ $_tty = 1 ]; then
                # one line that updates in place, cut to the terminal's usual width
                printf '\r\033[K%s' "$(printf '%s' "$_l" | cut -c1-78)" >&2
                _shown=1
            elif [ "$_t" -ge 100 ] && [ $((_f * 10 / _t)) -gt $_step ]; then
                # a long (cold) build off a terminal: a line per tenth
                _step=$((_f * 10 / _t))
                tl_err "building: $_f of $_t steps done"
            else
                _last=$_f/$_t
            fi
        done
        [ $_shown = 0 ] || printf '\r\033[K' >&2
        # a short build off a terminal: one line when it is done, not one per step
        [ $_tty = 1 ] || [ -z "${_last:-}" ] || [ "${_last%/*}" != "${_last#*/}" ] || tl_err "built: ${_last#*/} steps"
    }
    _status=$(cat "$_rc" 2>/dev/null || echo 1)
    rm -f "$_rc"
    [ "$_status" = 0 ]
}

# tl_gpu_status: builds only common/tl-device and asks it. 0: a usable CUDA device; otherwise the
# reason is in TL_GPU_WHY (no CUDA in this build, no driver, no device).
tl_gpu_status() {
    TL_GPU_WHY=
    if ! tl_build common/tl-device >/dev/null 2>&1; then
        TL_GPU_WHY="could not build common/tl-device (see $TL_BUILD/kit-build.log)"
        return 1
    fi
    _info=$("$TL_BUILD/common/tl-device" --brief 2>&1) && return 0
    TL_GPU_WHY=$(printf '%s\n' "$_info" | sed -n 's/^why: //p' | head -n 1)
    [ -n "$TL_GPU_WHY" ] || TL_GPU_WHY=$(printf '%s\n' "$_info" | head -n 1)
    return 1
}
