#!/bin/sh
# setup.sh (Gradescope autograder, made by ./kit gradescope): runs once when Gradescope builds the
# autograder's image (Ubuntu, as root, with network). Installs what is missing, never what is
# there: the build tools and the grader's libraries (Debian/Ubuntu packages), meson from pip where
# the image's is missing or older than 1.0.1, then builds tl-grade once. AUTOGRADER (default
# /autograder) is the layout's root; the kit's own tests run it in a fresh root.
set -eu
A=${AUTOGRADER:-/autograder}
S=$A/source
. "$S/lab.env"
pkgs="build-essential g++ pkg-config ninja-build python3 python3-pip libcjson-dev libarchive-dev libseccomp-dev
      libyaml-dev libpcre2-dev bubblewrap zip"
missing=""
for p in $pkgs; do
    dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "setup.sh: installing$missing"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
fi
# Meson 1.0.1 or newer (the kit's meson_version); Ubuntu 22.04 ships 0.61: pip's then.
meson_ok() {
    v=$(meson --version 2>/dev/null) || return 1
    [ "$(printf '%s\n1.0.1\n' "$v" | sort -V | head -1)" = 1.0.1 ]
}
if ! meson_ok; then
    echo "setup.sh: meson $(meson --version 2>/dev/null || echo missing) is older than 1.0.1: pip install meson"
    python3 -m pip install -q 'meson>=1.0.1' || pip3 install -q --break-system-packages 'meson>=1.0.1'
    hash -r
    meson_ok || { echo "setup.sh: no meson >= 1.0.1 after pip" >&2; exit 1; }
fi
cuda=disabled
if [ "$GPU_LAB" = 1 ] && { nvcc --version >/dev/null 2>&1 || /usr/local/cuda/bin/nvcc --version >/dev/null 2>&1; }; then
    cuda=enabled; PATH=$PATH:/usr/local/cuda/bin
fi
# A build folder already there (setup.sh run again in the same image) is reconfigured and brought up
# to date rather than built again from clean; one that Meson cannot reconfigure is made afresh.
if ! { [ -f "$S/build/build.ninja" ] &&
       meson setup --reconfigure "$S/build" "$S/kit" -Dtests=false -Dcuda=$cuda --buildtype=debugoptimized >/dev/null 2>&1; }; then
    rm -rf "$S/build"
    meson setup "$S/build" "$S/kit" -Dtests=false -Dcuda=$cuda --buildtype=debugoptimized >/dev/null
fi
ninja -C "$S/build" grader/tl-grade >/dev/null
echo "setup.sh: tl-grade built ($S/build/grader/tl-grade); lab $LAB; CUDA $cuda"
if [ "$GPU_LAB" = 1 ] && [ $cuda = disabled ]; then
    echo "setup.sh: no nvcc in this image: lab $LAB is graded emulated (its kernels run on the CPU; the emulated"
    echo "  build needs only the host compilers installed above); the speed test is 'not graded here' (0 points)."
    echo "  For the GPU-only parts use an image with the CUDA toolkit and a GPU."
fi
