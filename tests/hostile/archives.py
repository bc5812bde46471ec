#!/usr/bin/env python3
"""tests/hostile/archives.py OUTDIR SOLUTION: makes, in OUTDIR, the archives the grader's class test
hands in, as the tools students use make them, plus one crafted to lie about its size:

  python_zip.zip     Python's zipfile: no Unix mode bits on the entries
  windows_zip.zip    a Windows zip: MS-DOS attributes, '\\' between folders (labs\\01-cpu-baseline\\gmm.c)
  macos_zip.zip      a macOS zip: the folder, and __MACOSX/ with an AppleDouble file beside it
  pax_tar.tar        Python's tarfile in pax format
  evil_zip_lies.zip  gmm.c and 40 MiB of zeros whose local and central headers say 1000 bytes:
                     a size check that believes the headers lets it through; the grader counts
                     the bytes it unpacks and refuses it
"""
import io
import struct
import sys
import tarfile
import zipfile

out, sol = sys.argv[1], sys.argv[2]
src = open(sol, "rb").read()

with zipfile.ZipFile(f"{out}/python_zip.zip", "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("python_zip/gmm.c", src)

with zipfile.ZipFile(f"{out}/windows_zip.zip", "w", zipfile.ZIP_DEFLATED) as z:
    info = zipfile.ZipInfo("labs\\01-cpu-baseline\\gmm.c")
    info.create_system = 0          # MS-DOS
    info.external_attr = 0x20       # the archive bit, no Unix mode
    z.writestr(info, src)

with zipfile.ZipFile(f"{out}/macos_zip.zip", "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("macos_zip/", b"")
    z.writestr("macos_zip/gmm.c", src)
    z.writestr("__MACOSX/macos_zip/._gmm.c", b"\x00\x05\x16\x07AppleDouble")

with tarfile.open(f"{out}/pax_tar.tar", "w", format=tarfile.PAX_FORMAT) as t:
    info = tarfile.TarInfo("pax_tar/gmm.c")
    info.size = len(src)
    t.addfile(info, io.BytesIO(src))

lies = f"{out}/evil_zip_lies.zip"
with zipfile.ZipFile(lies, "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("gmm.c", src)
    z.writestr("zeros.bin", bytes(40 << 20))
b = bytearray(open(lies, "rb").read())
# (signature, offset of the uncompressed size, offset of the name length, offset of the name)
for sig, size_at, nlen_at, name_at in ((b"PK\x03\x04", 22, 26, 30), (b"PK\x01\x02", 24, 28, 46)):
    at = b.find(sig)
    while at >= 0:
        n = struct.unpack_from("<H", b, at + nlen_at)[0]
        if bytes(b[at + name_at:at + name_at + n]) == b"zeros.bin":
            struct.pack_into("<I", b, at + size_at, 1000)
        at = b.find(sig, at + 4)
open(lies, "wb").write(b)
