# tests/gpu/device-env.sh: source it on the GPU machine (no apt there) before building the kit.
# It unpacks the Debian packages carried in .carry/debs/ (libcjson, libarchive, libseccomp,
# libyaml, libpcre2 and bubblewrap, fetched on the build machine with
#   mkdir -p .carry/debs && (cd .carry/debs && apt-get download libcjson-dev libcjson1 \
#       libarchive-dev libarchive13 libseccomp-dev libseccomp2 libyaml-dev libyaml-0-2 \
#       libpcre2-dev libpcre2-8-0 bubblewrap)
# and carried with the device call) into a folder of its own, never into /, and points
# pkg-config, the loader and PATH at it, so tl-grade builds and runs there.
# Usage: . tests/gpu/device-env.sh        (prints one line saying what it found)
_tl_debs=${TL_CARRY_DEBS:-.carry/debs}
_tl_root=${TL_CARRY_ROOT:-/tmp/tl-carried}
if ls "$_tl_debs"/*.deb >/dev/null 2>&1; then
    mkdir -p "$_tl_root"
    for _d in "$_tl_debs"/*.deb; do dpkg -x "$_d" "$_tl_root"; done
    _tl_lib=$_tl_root/usr/lib/x86_64-linux-gnu
    for _pc in "$_tl_lib"/pkgconfig/*.pc; do
        [ -f "$_pc" ] && sed -i "s|^prefix=/usr|prefix=$_tl_root/usr|; s|=/usr/|=$_tl_root/usr/|g" "$_pc"
    done
    PKG_CONFIG_PATH=$_tl_lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
    LD_LIBRARY_PATH=$_tl_lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    PATH=$_tl_root/usr/bin:/usr/local/cuda/bin:$PATH
    export PKG_CONFIG_PATH LD_LIBRARY_PATH PATH
    echo "device-env: carried packages unpacked in $_tl_root: $(ls "$_tl_debs" | sed 's/_.*//' | tr '\n' ' ')"
else
    PATH=/usr/local/cuda/bin:$PATH
    export PATH
    echo "device-env: no carried packages in $_tl_debs: using what the machine has"
fi
