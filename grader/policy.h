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

/* Installs the network filter in the calling process (inherited across fork and exec).
 * 0 ok, -1 not installed (errno). */
int tg_seccomp_net_install(void);

#endif
