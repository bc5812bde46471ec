#!/bin/sh
# tests/hardening.sh PROGRAM: the program is built hardened (grader/meson.build says why): a
# position-independent executable, RELRO with immediate binding (-z relro -z now), the stack
# protector and _FORTIFY_SOURCE's checked functions in use. Read back with readelf.
# Exit 0 all there, 1 one missing (named), 77 no readelf here.
set -u
p=$1
command -v readelf >/dev/null 2>&1 || { echo "SKIP: no readelf (binutils)"; exit 77; }
fail=0
readelf -hW "$p" | grep -q 'Type:.*DYN' || { echo "FAIL: $p is not a position-independent executable (-pie)"; fail=1; }
readelf -lW "$p" | grep -q 'GNU_RELRO' || { echo "FAIL: $p has no RELRO segment (-Wl,-z,relro)"; fail=1; }
readelf -dW "$p" | grep -qE 'BIND_NOW|FLAGS.*NOW' || { echo "FAIL: $p does not bind immediately (-Wl,-z,now)"; fail=1; }
syms=$(readelf -sW "$p")
printf '%s\n' "$syms" | grep -q '__stack_chk_fail' || { echo "FAIL: $p calls no stack protector (-fstack-protector-strong)"; fail=1; }
printf '%s\n' "$syms" | grep -qE '__(snprintf|memcpy|fprintf|vsnprintf|strcpy|read)_chk' ||
    { echo "FAIL: $p uses no _FORTIFY_SOURCE checked function (-D_FORTIFY_SOURCE=2)"; fail=1; }
[ $fail = 0 ] && echo "ok: $p is PIE, full RELRO, stack-protected and fortified"
exit $fail
