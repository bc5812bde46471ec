/* policy.h: what a lab file may not do, checked two ways for the rubric's policy test.
 *
 * Static: the student file is scanned (after comments and string literals are blanked) for calls
 * a lab file never needs: the network, processes, files, raw system calls, dlopen, getenv,
 * inline assembly, and network headers. Each finding names the file, the line and the call.
 *
 * Run time: the sandboxed child installs a seccomp filter before exec, written by libseccomp
 * (no_new_privs, an architecture check that kills any other ABI) that kills the process (SIGSYS)
 * when it asks for an AF_INET, AF_INET6 or AF_PACKET socket. AF_UNIX and AF_NETLINK stay allowed (CUDA uses
 * them). Not used under compute-sanitizer (it talks to its target over TCP). */
#ifndef TILELAB_GRADER_POLICY_H
#define TILELAB_GRADER_POLICY_H

#include <stddef.h>

#include "util.h"

/* Scans one file's text; appends "FILE:LINE: calls X() (...)" lines to findings. Returns the
 * number of findings. */
int tg_policy_scan(const char *file, const char *text, size_t len, tg_buf *findings);

/* Judges one compiled student object from the digest tg_policy_objdump_script() printed for it
 * in the sandbox: every undefined symbol on the allow-list (math, memory, printing, the kit's tl_
 * API, the CUDA runtime calls a lab uses), no system call instruction. Appends
 * "FILE: gmm.c:LINE: links SYMBOL (why)" lines; returns the number of findings. emu: the
 * emulator's rewritten C++ (its runtime and the C++ library allowed). -1: the digest is not
 * whole (objdump missing or failed): no verdict from it. */
int tg_policy_objects(const char *file, const char *report, int emu, tg_buf *findings);
/* The shell script (sh -c SCRIPT sh OBJECT) that prints that digest with objdump. */
const char *tg_policy_objdump_script(void);

/* Installs the network filter in the calling process (inherited across fork and exec).
 * 0 ok, -1 not installed (errno). */
int tg_seccomp_net_install(void);

#endif
