/* pristine.c: the pristine copy of the kit that a student's files are laid over (solutions,
 * tests, build trees, grader secrets and out dirs left out), and the copying of single files,
 * regular files only, never through a link. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grade.h"
#include "proc.h"
#include "tilelab.h"

int tg_path_excluded(const char *rel)
{
    while (rel[0] == '.' && rel[1] == '/')
        rel += 2;
    static const char *const top[] = {"solutions", "tests", ".git", ".carry", ".gl", ".whl", NULL};
    for (int i = 0; top[i]; ++i) {
        if (tg_path_under(rel, top[i]))
            return 1;
    }
    if (strncmp(rel, "build", 5) == 0)   /* build/ and build-X/: configured trees */
        return 1;
    /* Grader secrets and hidden data, whatever their extension. */
    if (strncmp(rel, "grader/secret", 13) == 0 || strncmp(rel, "grader/hidden", 13) == 0 || strstr(rel, ".secret"))
        return 1;
    return 0;
}

int tg_copy_file(const char *from, const char *to, char *err, size_t errlen)
{
    int in = open(from, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (in < 0) {
        snprintf(err, errlen, "cannot open '%s' (%s)", from, strerror(errno));
        return -1;
    }
    return tg_copy_fd(in, from, to, err, errlen);
}

int tg_copy_fd(int in, const char *from, const char *to, char *err, size_t errlen)
{
    struct stat st;
    if (fstat(in, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(in);
        snprintf(err, errlen, "'%s' is not a regular file", from);
        return -1;
    }
    int out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, (st.st_mode & 0111) ? 0755 : 0644);
    if (out < 0) {
        close(in);
        snprintf(err, errlen, "cannot create '%s' (%s)", to, strerror(errno));
        return -1;
    }
    char buf[65536];
    ssize_t r;
    int rc = 0;
    while ((r = read(in, buf, sizeof buf)) > 0)
        if (write(out, buf, (size_t)r) != r) {
            rc = -1;
            break;
        }
    if (r < 0)
        rc = -1;
    close(in);
    if (close(out) != 0)
        rc = -1;
    if (rc)
        snprintf(err, errlen, "copying '%s' to '%s' failed (%s)", from, to, strerror(errno));
    return rc;
}

/* Copies root/rel to dst/rel; with dst NULL, prints rel on a line instead (--print-pristine). */
static int copy_rel(const char *root, const char *dst, const char *rel, char *err, size_t errlen)
{
    char from[4200], to[4200];
    snprintf(from, sizeof from, "%s/%s", root, rel);
    struct stat st;
    if (lstat(from, &st) != 0 || !S_ISREG(st.st_mode))
        return 0;                              /* deleted in the working tree, or a link */
    if (!dst) {
        printf("%s\n", rel);
        return 1;
    }
    snprintf(to, sizeof to, "%s/%s", dst, rel);
    char dir[4200];
    snprintf(dir, sizeof dir, "%s", to);
    char *slash = strrchr(dir, '/');
    if (slash) {
        *slash = '\0';
        if (tg_mkdirs(dir, 0755) != 0) {
            snprintf(err, errlen, "cannot make '%s' (%s)", dir, strerror(errno));
            return -1;
        }
    }
    if (tg_copy_file(from, to, err, errlen) != 0)
        return -1;
    /* The kit's file times kept: a kit build cached from an earlier run (TL_GRADE_KIT_CACHE,
     * build.c) is then up to date over this copy. */
    struct timespec ts[2] = {st.st_atim, st.st_mtim};
    utimensat(AT_FDCWD, to, ts, 0);
    return 1;
}

static const char *walk_root, *walk_dst;
static int walk_count, walk_fail;
static char walk_err[512];

static int walk_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st; (void)ftw;
    const char *rel = path + strlen(walk_root);
    while (*rel == '/')
        ++rel;
    if (!*rel)
        return 0;
    if (flag == FTW_D && tg_path_excluded(rel))
        return FTW_SKIP_SUBTREE;
    if (flag == FTW_D) {
        /* A build folder under another name, or a grader out dir: never part of the kit. */
        char probe[4200];
        snprintf(probe, sizeof probe, "%s/meson-private", path);
        if (tg_is_dir(probe))
            return FTW_SKIP_SUBTREE;
        snprintf(probe, sizeof probe, "%s/.state/lock", path);
        if (tg_is_file(probe))
            return FTW_SKIP_SUBTREE;
    }
    if (flag != FTW_F || tg_path_excluded(rel))
        return 0;
    int r = copy_rel(walk_root, walk_dst, rel, walk_err, sizeof walk_err);
    if (r < 0) {
        walk_fail = 1;
        return FTW_STOP;
    }
    walk_count += r;
    return 0;
}

/* Is rel inside a grader out dir (a folder holding .state/lock) below root? Its seed and other
 * students' results must never reach a student build. */
static int under_out_dir(const char *root, const char *rel)
{
    char pre[4200];
    const char *p = rel;
    while ((p = strchr(p, '/'))) {
        snprintf(pre, sizeof pre, "%s/%.*s/.state/lock", root, (int)(p - rel), rel);
        if (access(pre, F_OK) == 0)
            return 1;
        ++p;
    }
    return 0;
}

int tg_copy_pristine(const char *root, const char *dst, int untracked, int *nfiles, char *err, size_t errlen)
{
    *nfiles = 0;
    if (dst && tg_mkdirs(dst, 0755) != 0) {
        snprintf(err, errlen, "cannot make '%s' (%s)", dst, strerror(errno));
        return -1;
    }
    char gitdir[4200];
    snprintf(gitdir, sizeof gitdir, "%s/.git", root);
    if (access(gitdir, F_OK) == 0) {
        /* Tracked files plus new ones not ignored: the working tree as its author sees it. */
        const char *tracked[] = {"git", "-C", root, "ls-files", "-z", NULL};
        const char *all[] = {"git", "-C", root, "ls-files", "-z", "-co", "--exclude-standard", NULL};
        {
            tg_buf b = {0};
            tg_proc_io io = {.out = TG_PROC_CAPTURE, .all = &b, .err = TG_PROC_NULL, .search = 1};
            int st = tg_proc_run(untracked ? all : tracked, &io);
            if (st == 0 && b.len > 0) {
                for (size_t i = 0; i < b.len;) {
                    const char *rel = b.s + i;
                    size_t l = strlen(rel);
                    i += l + 1;
                    if (!l || tg_path_excluded(rel) || under_out_dir(root, rel))
                        continue;
                    int c = copy_rel(root, dst, rel, err, errlen);
                    if (c < 0) {
                        tg_buf_free(&b);
                        return -1;
                    }
                    *nfiles += c;
                }
                tg_buf_free(&b);
                return 0;
            }
            tg_buf_free(&b);
        }
        /* git missing or not a repository after all: walk the tree instead. */
    }
    walk_root = root;
    walk_dst = dst;
    walk_count = walk_fail = 0;
    nftw(root, walk_one, 32, FTW_PHYS | FTW_ACTIONRETVAL);
    if (walk_fail) {
        snprintf(err, errlen, "%s", walk_err);
        return -1;
    }
    *nfiles = walk_count;
    return 0;
}
