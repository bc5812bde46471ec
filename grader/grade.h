/* grade.h: the grader's internal interfaces between tl-grade.c (CLI, class run, reports) and
 * intake.c (submissions: folders and archives, the allow-list, the pristine copy). */
#ifndef TILELAB_GRADER_GRADE_H
#define TILELAB_GRADER_GRADE_H

#include <stddef.h>

#include "labs.h"
#include "sandbox.h"
#include "util.h"

#define TG_FILE_MAX     (256 * 1024)       /* largest student file taken                      */
#define TG_ARCHIVE_MAX  (8LL << 20)        /* largest archive accepted                        */
#define TG_UNPACK_MAX   (32LL << 20)       /* largest total of an archive's contents          */
#define TG_ENTRIES_MAX  2000               /* most entries in an archive                      */

/* Copies the kit at root to dst without solutions/, tests/, build folders, .git, grader out
 * dirs and grader secrets or hidden data. In a git tree the files are `git ls-files` (tracked
 * only: an instructor's untracked class folders stay out), or with untracked = 1 also the new
 * files git does not ignore (kit check on a student's working tree); elsewhere a walk.
 * 0 ok, -1 with err set. *nfiles gets the count. */
int tg_copy_pristine(const char *root, const char *dst, int untracked, int *nfiles, char *err, size_t errlen);
/* 1 when a kit-relative path must never reach a student build or the student edition. */
int tg_path_excluded(const char *rel);

/* Takes a submission (folder or archive) into work/: the allow-listed files only, each a
 * regular file up to TG_FILE_MAX. Archives are listed and checked first (no absolute paths,
 * no "..", no links, no devices, size caps), then unpacked in the sandbox. found[i] says
 * whether lab->files[i] was found; notes gets what the student should know ("ignored: ...").
 * Returns 0 ok, 1 refused (the student's problem: reason in err), -1 grader-side error. */
int tg_intake(const tg_lab *lab, const tg_iso *iso, const char *submission, const char *work,
              const char *dest_dir, int found[TG_MAX_FILES], tg_buf *notes, char *err, size_t errlen);

/* Copies one file (regular files only), mode 0644. 0 or -1. */
int tg_copy_file(const char *from, const char *to, char *err, size_t errlen);

/* Runs a program in the sandbox without the serve channel, output captured; *out_exit gets a
 * description. Returns 0 when it exited 0, 1 when it failed or timed out, -1 grader problem. */
int tg_run_sandboxed(const tg_iso *iso, const tg_spawn_opts *o, double limit_s, tg_buf *output,
                     char *desc, size_t desclen, char *err, size_t errlen);

#endif
