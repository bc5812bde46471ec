#!/bin/sh
# tests/emu/golden.sh: stored expectations for the emulator's front end (common/emu/tl-emu-rewrite.c
# and its parts), as LLVM's FileCheck and gcc's dg tests keep them: every .cu file in the tree (the
# labs and their solutions, common/, the fixtures and corpora of tests/emu and tests/corpus, the
# known-wrong and hostile files) goes through `tl-emu-rewrite FILE OUT` (and, for the fixtures,
# `--fibers`), and its output must equal the file stored under tests/emu/golden/ at the same
# path + .emu.cpp (.fibers.emu.cpp); what it says on stderr, and its exit code when not 0, must
# equal the stored .err file (absent when it said nothing).
#
# Check:       sh tests/emu/golden.sh SOURCE_ROOT REWRITE            (meson test 'emu golden')
# Regenerate:  ninja -C build emu-golden    (= sh tests/emu/golden.sh SOURCE_ROOT REWRITE --update)
#              after a deliberate change of the rewrite; review `git diff tests/emu/golden` and
#              commit it with the change.
# Exit: 0 every output as stored (or, with --update, all rewritten), 1 one differs, is missing or
#       is stored for a file that is gone (each named, with the start of its diff), 2 bad usage.
set -u
[ $# -ge 2 ] || { echo "usage: golden.sh SOURCE_ROOT REWRITE [--update]" >&2; exit 2; }
root=$1 rw=$2 update=0
[ "${3:-}" = --update ] && update=1
[ -x "$rw" ] || { echo "golden.sh: $rw is not a program; build it: ninja -C build common/emu/tl-emu-rewrite" >&2; exit 2; }
cd "$root" || exit 2
gold=tests/emu/golden
tmp=$(mktemp -d /tmp/tl-golden-XXXXXX) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
# The inputs: relative paths, so the #line directives the rewrite writes are the same everywhere.
find labs solutions common tests -name '*.cu' ! -path "$gold/*" | LC_ALL=C sort >"$tmp/list"
fail=0 n=0 changed=0
one() {   # FILE SUFFIX [REWRITE OPTIONS]
    f=$1 suf=$2; shift 2
    n=$((n + 1))
    mkdir -p "$tmp/out/$(dirname "$f")"
    o=$tmp/out/$f$suf e=$tmp/out/$f$suf.err
    "$rw" "$@" "$f" "$o" 2>"$e"
    rc=$?
    [ $rc = 0 ] || echo "exit $rc" >>"$e"
    [ -f "$o" ] || : >"$o"
    g=$gold/$f$suf
    if [ $update = 1 ]; then
        mkdir -p "$(dirname "$g")"
        cmp -s "$o" "$g" 2>/dev/null || { cp "$o" "$g"; changed=$((changed + 1)); }
        if [ -s "$e" ]; then cmp -s "$e" "$g.err" 2>/dev/null || cp "$e" "$g.err"; else rm -f "$g.err"; fi
        return
    fi
    if [ ! -f "$g" ]; then
        echo "MISSING: $g (no stored rewrite of $f; regenerate: ninja -C build emu-golden)"
        fail=1
        return
    fi
    if ! cmp -s "$o" "$g"; then
        echo "CHANGED: the rewrite of $f ($*) differs from $g:"
        diff -u "$g" "$o" | sed -n '3,40p'
        fail=1
    fi
    if [ -s "$e" ] || [ -f "$g.err" ]; then
        if ! cmp -s "$e" "$g.err" 2>/dev/null; then
            echo "CHANGED: what the rewrite of $f says on stderr differs from $g.err:"
            diff -u "$g.err" "$e" 2>/dev/null | sed -n '3,20p'
            [ -f "$g.err" ] || sed 's/^/  + /' "$e" | head -10
            fail=1
        fi
    fi
}
while read -r f; do
    one "$f" .emu.cpp
    case $f in tests/emu/fixtures/*) one "$f" .fibers.emu.cpp --fibers ;; esac
done <"$tmp/list"
# Stored outputs of files that are gone.
find "$gold" -type f \( -name '*.emu.cpp' -o -name '*.emu.cpp.err' \) 2>/dev/null | LC_ALL=C sort | while read -r g; do
    src=${g#"$gold"/}
    src=${src%.err}
    src=${src%.emu.cpp}
    src=${src%.fibers}
    if ! grep -qxF "$src" "$tmp/list"; then
        if [ $update = 1 ]; then rm -f "$g"; echo "removed $g ($src is gone)";
        else echo "STALE: $g is stored for $src, which is gone (regenerate: ninja -C build emu-golden)"; echo x >>"$tmp/stale"; fi
    fi
done
[ -f "$tmp/stale" ] && fail=1
if [ $update = 1 ]; then
    echo "golden: $n rewrites stored under $gold ($changed changed); review: git diff --stat $gold"
    exit 0
fi
[ $fail = 0 ] && echo "golden: all $n rewrites as stored under $gold"
[ $fail = 0 ] || echo "golden: a rewrite changed; if on purpose: ninja -C build emu-golden, review git diff $gold, commit"
exit $fail
