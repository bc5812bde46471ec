/* intake.c: from a student's folder or archive to the files the grader builds, and the
 * pristine copy of the kit they are laid over. Nothing here trusts the submission: archives are
 * read with libarchive in a child process under limits, each entry checked before a byte of it
 * is written and sizes counted on the bytes written; only the allow-listed file names are ever
 * copied out, as regular files of bounded size. */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>

#include "proc.h"
#include "grade.h"
#include "policy.h"
#include "tilelab.h"

/* ------------------------------------------------------------ pristine copy */

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

static int copy_fd(int in, const char *from, const char *to, char *err, size_t errlen);

int tg_copy_file(const char *from, const char *to, char *err, size_t errlen)
{
    int in = open(from, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (in < 0) {
        snprintf(err, errlen, "cannot open '%s' (%s)", from, strerror(errno));
        return -1;
    }
    return copy_fd(in, from, to, err, errlen);
}

/* Copies the open regular file in (closed here) to a new file `to`. */
static int copy_fd(int in, const char *from, const char *to, char *err, size_t errlen)
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
        char cmd[4400];
        snprintf(cmd, sizeof cmd, "git -C '%s' ls-files -z %s 2>/dev/null", root,
                 untracked ? "-co --exclude-standard" : "");
        FILE *p = popen(cmd, "r");
        if (p) {
            tg_buf b = {0};
            char chunk[8192];
            size_t r;
            while ((r = fread(chunk, 1, sizeof chunk, p)) > 0)
                tg_buf_add(&b, chunk, r);
            int st = pclose(p);
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

/* ------------------------------------------------------------ sandboxed helper runs */

int tg_run_sandboxed(const tg_iso *iso, const tg_spawn_opts *o, double limit_s, tg_buf *output,
                     char *desc, size_t desclen, char *err, size_t errlen)
{
    tg_child c;
    if (tg_spawn(&c, iso, o, err, errlen) != 0)
        return -1;
    int w = tg_child_wait(&c, tl_now_ms() + limit_s * 1000.0);
    tg_child_kill(&c);   /* leftovers of the tree, cgroup removal */
    if (output)
        tg_buf_add(output, c.cap.s ? c.cap.s : "", c.cap.len);
    if (c.out_total > c.cap.len && output)
        tg_buf_printf(output, "\n[... %llu more bytes of output dropped]\n", c.out_total - c.cap.len);
    tg_child_describe(&c, desc, desclen);
    int ok = w == 0 && !c.timed_out && WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0;
    tg_child_free(&c);
    return ok ? 0 : 1;
}

/* ------------------------------------------------------------ archives */

static int ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

/* What one unpacking may use: a student's archive, or a whole class's export (an LMS's zip). */
typedef struct unpack_limits {
    long long packed, unpacked;      /* bytes of the archive; bytes written, counted as written */
    int       entries;
} unpack_limits;
static const unpack_limits student_limits = {TG_ARCHIVE_MAX, TG_UNPACK_MAX, TG_ENTRIES_MAX};
static const unpack_limits export_limits = {TG_EXPORT_MAX, TG_EXPORT_UNPACK_MAX, TG_EXPORT_ENTRIES_MAX};

/* A name from an archive listing is safe when relative, without ".." components. */
static int safe_name(const char *n)
{
    if (!*n || n[0] == '/')
        return 0;
    const char *p = n;
    while (*p) {
        size_t l = strcspn(p, "/");
        if (l == 2 && p[0] == '.' && p[1] == '.')
            return 0;
        p += l;
        while (*p == '/')
            ++p;
    }
    return 1;
}

/* Unpacks with libarchive (tar in its GNU, ustar, pax and bsdtar forms, compressed or not; zip
 * from Info-ZIP, Python's zipfile, macOS and Windows) into `into`, writing each file itself:
 * only regular files and folders, relative names without "..", at most TG_ENTRIES_MAX entries,
 * and at most TG_UNPACK_MAX bytes counted on the bytes actually written, whatever the headers
 * claim. Runs in the calling process: unpack() calls it in a child with limits, as root shut in
 * `into` (chroot) as nobody. 0 ok, 1 refused (err says why). */
static int extract(int archive_fd, const char *into, const unpack_limits *lim, char *err, size_t errlen)
{
    struct archive *a = archive_read_new();
    archive_read_support_format_tar(a);
    archive_read_support_format_zip(a);
    archive_read_support_filter_all(a);
    if (archive_read_open_fd(a, archive_fd, 65536) != ARCHIVE_OK) {
        snprintf(err, errlen, "archive refused: it cannot be read as a tar or zip archive (%.200s)",
                 archive_error_string(a) ? archive_error_string(a) : "unknown format");
        archive_read_free(a);
        return 1;
    }
    long long total = 0;
    int entries = 0, rc = 0;
    struct archive_entry *e;
    static char buf[65536];
    for (;;) {
        int r = archive_read_next_header(a, &e);
        if (r == ARCHIVE_EOF)
            break;
        if (r != ARCHIVE_OK && r != ARCHIVE_WARN) {
            snprintf(err, errlen, "archive refused: it is damaged or truncated (%.200s)", archive_error_string(a));
            rc = 1;
            break;
        }
        if (++entries > lim->entries) {
            snprintf(err, errlen, "archive refused: more than %d entries", lim->entries);
            rc = 1;
            break;
        }
        const char *raw = archive_entry_pathname(e);
        char name[2048];
        if (!raw || strlen(raw) >= sizeof name) {
            snprintf(err, errlen, "archive refused: an entry has no name or one longer than %zu bytes", sizeof name);
            rc = 1;
            break;
        }
        snprintf(name, sizeof name, "%s", raw);
        for (char *q = name; *q; ++q)          /* Windows archivers write '\' between folders */
            if (*q == '\\')
                *q = '/';
        mode_t type = archive_entry_filetype(e);
        size_t nl = strlen(name);
        if (type == 0)                         /* zip entries without Unix mode bits */
            type = nl && name[nl - 1] == '/' ? AE_IFDIR : AE_IFREG;
        if (archive_entry_hardlink(e) || type == AE_IFLNK) {
            snprintf(err, errlen, "archive refused: '%.200s' is a link (only regular files and folders are accepted)",
                     name);
            rc = 1;
            break;
        }
        if (type != AE_IFREG && type != AE_IFDIR) {
            snprintf(err, errlen, "archive refused: '%.200s' is a device, pipe or other special file", name);
            rc = 1;
            break;
        }
        if (!safe_name(name)) {
            snprintf(err, errlen, "archive refused: entry '%.200s' is an absolute path or climbs out with '..'", name);
            rc = 1;
            break;
        }
        while (nl > 1 && name[nl - 1] == '/')
            name[--nl] = '\0';
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", into, name);
        if (type == AE_IFDIR) {
            if (tg_mkdirs(path, 0700) != 0) {
                snprintf(err, errlen, "archive refused: folder '%.200s' cannot be made (%s)", name, strerror(errno));
                rc = 1;
                break;
            }
            continue;
        }
        char *slash = strrchr(path, '/');
        *slash = '\0';
        int made = tg_mkdirs(path, 0700);
        *slash = '/';
        int fd = made == 0 ? open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600) : -1;
        if (fd < 0) {
            snprintf(err, errlen, "archive refused: '%.200s' cannot be written (%s)", name, strerror(errno));
            rc = 1;
            break;
        }
        for (;;) {
            la_ssize_t got = archive_read_data(a, buf, sizeof buf);
            if (got == 0)
                break;
            if (got < 0) {
                snprintf(err, errlen, "archive refused: '%.200s' cannot be unpacked (%.200s)", name,
                         archive_error_string(a));
                rc = 1;
                break;
            }
            total += got;
            if (total > lim->unpacked) {
                snprintf(err, errlen, "archive refused: its contents exceed %lld MiB (counted on the bytes "
                         "unpacked, whatever its headers say)", lim->unpacked >> 20);
                rc = 1;
                break;
            }
            if (write(fd, buf, (size_t)got) != got) {
                snprintf(err, errlen, "archive refused: '%.200s' cannot be written (%s)", name, strerror(errno));
                rc = 1;
                break;
            }
        }
        close(fd);
        if (rc)
            break;
    }
    archive_read_free(a);
    return rc;
}

/* After unpacking: every entry must be a folder or a regular file (belt and braces). */
static char bad_entry[512];
static int verify_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)ftw; (void)flag;
    if (!S_ISDIR(st->st_mode) && !S_ISREG(st->st_mode)) {
        snprintf(bad_entry, sizeof bad_entry, "%s", path);
        return 1;
    }
    return 0;
}

/* Unpacks in a child process under limits (memory, CPU time, file size, no inet sockets, no new
 * privileges; as root also shut in the folder with chroot and run as nobody): a flaw in an
 * archive reader meets those, not the grader. 0 ok, 1 refused, -1 grader-side error. */
static int unpack(const char *archive, const char *into, const unpack_limits *lim, char *err, size_t errlen)
{
    struct stat st;
    if (stat(archive, &st) != 0) {
        snprintf(err, errlen, "cannot read '%s' (%s)", archive, strerror(errno));
        return -1;
    }
    if (st.st_size > lim->packed) {
        snprintf(err, errlen, "archive refused: %lld bytes, more than the %lld MiB accepted",
                 (long long)st.st_size, lim->packed >> 20);
        return 1;
    }
    int afd = open(archive, O_RDONLY | O_CLOEXEC);
    if (afd < 0) {
        snprintf(err, errlen, "cannot read '%s' (%s)", archive, strerror(errno));
        return -1;
    }
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        close(afd);
        snprintf(err, errlen, "cannot make a pipe (%s)", strerror(errno));
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(afd);
        close(fds[0]);
        close(fds[1]);
        snprintf(err, errlen, "cannot fork (%s)", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        close(fds[0]);
        struct rlimit as = {1LL << 30, 1LL << 30}, cpu = {60, 60}, fsz = {(rlim_t)lim->unpacked + 1, (rlim_t)lim->unpacked + 1};
        setrlimit(RLIMIT_AS, &as);
        setrlimit(RLIMIT_CPU, &cpu);
        setrlimit(RLIMIT_FSIZE, &fsz);
        signal(SIGXFSZ, SIG_IGN);              /* a write past the cap fails (EFBIG) instead */
        const char *dest = into;
        if (geteuid() == 0) {                  /* nobody, shut in the folder it fills */
            if (chown(into, 65534, 65534) != 0 || chroot(into) != 0 || chdir("/") != 0 || setgroups(0, NULL) != 0 ||
                setgid(65534) != 0 || setuid(65534) != 0)
                _exit(2);
            dest = ".";
        }
        (void)tg_seccomp_net_install();
        char msg[600] = "";
        int rc = extract(afd, dest, lim, msg, sizeof msg);
        (void)!write(fds[1], msg, strlen(msg));
        _exit(rc);
    }
    close(fds[1]);
    close(afd);
    char msg[600];
    size_t got = 0;
    ssize_t r;
    while (got + 1 < sizeof msg && (r = read(fds[0], msg + got, sizeof msg - 1 - got)) != 0) {
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            break;
        got += (size_t)r;
    }
    msg[got] = '\0';
    close(fds[0]);
    int status;
    tg_proc_wait(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) > 1) {
        snprintf(err, errlen, "archive refused: unpacking it failed (%s %d: too large, too slow or malformed)",
                 WIFSIGNALED(status) ? "killed by signal" : "exit status",
                 WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
        return 1;
    }
    if (WEXITSTATUS(status) == 1) {
        snprintf(err, errlen, "%s", msg[0] ? msg : "archive refused");
        return 1;
    }
    bad_entry[0] = '\0';
    if (nftw(into, verify_one, 32, FTW_PHYS) != 0) {
        snprintf(err, errlen, "archive refused: '%s' unpacked as something other than a file or folder", bad_entry);
        return 1;
    }
    return 0;
}

/* ------------------------------------------------------------ intake */

/* Opens rel (a/b/c) below the folder fd top component by component, following no link
 * anywhere on the way (a `labs` that is a link to the kit's solutions is refused, not only a
 * link as the last component). want_dir: the last component must be a folder. -1 with errno. */
static int open_beneath(int top, const char *rel, int want_dir)
{
    char buf[2048];
    snprintf(buf, sizeof buf, "%s", rel);
    int dfd = dup(top);
    if (dfd < 0)
        return -1;
    char *save = NULL;
    char *c = strtok_r(buf, "/", &save);
    while (c) {
        char *next = strtok_r(NULL, "/", &save);
        if (strcmp(c, "..") == 0 || strcmp(c, ".") == 0) {
            close(dfd);
            errno = EINVAL;
            return -1;
        }
        int last = next == NULL;
        int flags = O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | ((!last || want_dir) ? O_DIRECTORY | O_RDONLY : O_RDONLY);
        int fd = openat(dfd, c, flags);
        int e = errno;
        close(dfd);
        if (fd < 0) {
            errno = e;
            return -1;
        }
        dfd = fd;
        c = next;
    }
    return dfd;
}

/* Where a student file may sit in a submission: at the top, in labs/DIR/, in one wrapping
 * folder, or in one wrapping folder's labs/DIR/ (no link followed on the way: a folder that is a
 * link is not a folder here). Each of those folders is read whole: a file with the student
 * file's exact name is a candidate, and so is one named like it (tg_named_like: `gmm (1).c`,
 * `gmm-1.c`, `GMM.c`, as browsers and LMSs rename uploads). Exactly one exact candidate is
 * taken; else exactly one named like it, and the notes say so; several, or none, and the
 * submission is not graded, with the files found listed: the instructor decides, never the
 * skeleton in its place and never a 0. */
typedef struct cand_set {
    char exact[4][1100], like[8][1100];
    int  nexact, nlike;
    tg_buf seen;                      /* "a.c, labs/ (a link, not followed), ..." for the reasons */
    int  nseen;
} cand_set;

static void seen_add(cand_set *cs, const char *rel, const char *what)
{
    if (cs->nseen < 16)
        tg_buf_printf(&cs->seen, "%s%s%s", cs->nseen ? ", " : "", rel, what);
    else if (cs->nseen == 16)
        tg_buf_printf(&cs->seen, ", ...");
    ++cs->nseen;
}

int tg_named_like(const char *want, const char *have)
{
    const char *wd = strrchr(want, '.'), *hd = strrchr(have, '.');
    if (!wd || !hd || strcasecmp(wd, hd) != 0)
        return 0;
    size_t ws = (size_t)(wd - want), hs = (size_t)(hd - have);
    if (hs < ws || strncasecmp(want, have, ws) != 0)
        return 0;
    const char *p = have + ws, *end = hd;
    if (p == end)
        return 1;                                   /* GMM.c: only the case differs */
    if (*p == ' ')
        ++p;
    if (*p == '(' && end - p >= 3 && end[-1] == ')') {   /* gmm (1).c, gmm(2).c */
        ++p;
        --end;
    } else if (*p == '-' || *p == '_') {             /* gmm-1.c (Canvas), gmm_2.c */
        ++p;
    } else {
        return 0;
    }
    if (p == end)
        return 0;
    for (; p < end; ++p)
        if (!isdigit((unsigned char)*p))
            return 0;
    return 1;
}

/* Reads the folder dirrel (relative to top, "" the top itself) for candidates of name. */
static void scan_folder(int tfd, const char *dirrel, const char *name, cand_set *cs)
{
    /* (a fresh open of the top, not a dup: a dup shares the offset another readdir left at the end) */
    int dfd = dirrel[0] ? open_beneath(tfd, dirrel, 1) : openat(tfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0) {
        if (dirrel[0] && (errno == ELOOP || errno == ENOTDIR))   /* labs/01-cpu-baseline a link, or a file */
            seen_add(cs, dirrel, " (not a folder: a link is not followed)");
        return;
    }
    DIR *d = fdopendir(dfd);
    if (!d) {
        close(dfd);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 || strcmp(e->d_name, "__MACOSX") == 0)
            continue;
        char rel[1100];
        snprintf(rel, sizeof rel, "%s%s%s", dirrel, dirrel[0] ? "/" : "", e->d_name);
        struct stat st;
        if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
        if (S_ISLNK(st.st_mode)) {
            seen_add(cs, rel, " (a link, not followed)");
            continue;
        }
        if (S_ISDIR(st.st_mode)) {
            if (strcmp(e->d_name, "labs") != 0)
                seen_add(cs, rel, "/");
            continue;
        }
        if (strcmp(e->d_name, name) == 0) {
            if (cs->nexact < 4)
                snprintf(cs->exact[cs->nexact], sizeof cs->exact[0], "%s", rel);
            ++cs->nexact;
        } else if (tg_named_like(name, e->d_name)) {
            if (cs->nlike < 8)
                snprintf(cs->like[cs->nlike], sizeof cs->like[0], "%s", rel);
            ++cs->nlike;
        }
        seen_add(cs, rel, S_ISREG(st.st_mode) ? "" : " (not a regular file)");
    }
    closedir(d);
}

static void find_candidates(const char *top, const tl_lab_info *lab, const char *name, cand_set *cs)
{
    char wrap[1024] = "";
    int tfd = open(top, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (tfd < 0)
        return;
    DIR *d = fdopendir(dup(tfd));
    if (d) {
        struct dirent *e;
        int dirs = 0;
        char only[256] = "";
        while ((e = readdir(d))) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
                strcmp(e->d_name, "__MACOSX") == 0)    /* macOS zips: resource forks beside the folder */
                continue;
            struct stat st;
            if (fstatat(tfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode)) {
                ++dirs;
                snprintf(only, sizeof only, "%s", e->d_name);
            }
        }
        closedir(d);
        if (dirs == 1 && strcmp(only, "labs") != 0)
            snprintf(wrap, sizeof wrap, "%s", only);
    }
    char dirs[4][1100];
    int nd = 0;
    snprintf(dirs[nd++], sizeof dirs[0], "%s", "");
    snprintf(dirs[nd++], sizeof dirs[0], "labs/%s", lab->dir);
    if (wrap[0]) {
        snprintf(dirs[nd++], sizeof dirs[0], "%s", wrap);
        snprintf(dirs[nd++], sizeof dirs[0], "%s/labs/%s", wrap, lab->dir);
    }
    for (int i = 0; i < nd; ++i)
        scan_folder(tfd, dirs[i], name, cs);
    close(tfd);
}

/* Copies top/rel to `to`, rel opened with no link followed anywhere (open_beneath). */
static int take_file(const char *top, const char *rel, const char *to, char *err, size_t errlen)
{
    int tfd = open(top, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int in = tfd >= 0 ? open_beneath(tfd, rel, 0) : -1;
    int e = errno;
    if (tfd >= 0)
        close(tfd);
    if (in < 0) {
        snprintf(err, errlen, "cannot open '%s' without following a link (%s)", rel, strerror(e));
        return -1;
    }
    return copy_fd(in, rel, to, err, errlen);   /* the opened file itself, by its descriptor */
}

int tg_is_archive_name(const char *name)
{
    return ends_with(name, ".tar") || ends_with(name, ".tar.gz") || ends_with(name, ".tgz") || ends_with(name, ".zip");
}

int tg_unpack_export(const char *archive, const char *into, char *err, size_t errlen)
{
    return unpack(archive, into, &export_limits, err, errlen);
}

int tg_intake(const tl_lab_info *lab, const char *submission, const char *work,
              const char *dest_dir, int list_ignored, int found[TL_LAB_MAX_FILES], tg_buf *notes, char *err,
              size_t errlen)
{
    for (int i = 0; i < TL_LAB_MAX_FILES; ++i)
        found[i] = 0;
    char top[4200];
    struct stat st;
    if (lstat(submission, &st) != 0) {
        snprintf(err, errlen, "submission '%s' is missing (%s)", submission, strerror(errno));
        return -1;
    }
    if (S_ISDIR(st.st_mode)) {
        snprintf(top, sizeof top, "%s", submission);
    } else if (S_ISREG(st.st_mode) && tg_is_archive_name(submission)) {
        snprintf(top, sizeof top, "%s/unpacked", work);
        tg_rmtree(top);
        if (tg_mkdirs(top, 0700) != 0) {
            snprintf(err, errlen, "cannot make '%s' (%s)", top, strerror(errno));
            return -1;
        }
        int rc = unpack(submission, top, &student_limits, err, errlen);
        if (rc)
            return rc;
    } else {
        /* A loose file (an LMS's renamed upload, a .c given alone): whose, and which file, is the
         * instructor's call (--from canvas|moodle map loose files to students). */
        const char *b = strrchr(submission, '/');
        snprintf(err, errlen, "'%s' is a loose %s, not a student's folder or a .tar, .tar.gz, .tgz or "
                 ".zip archive (files found: %s); put it in a folder named after the student, or grade the LMS's "
                 "download with --from canvas|moodle DIR", b ? b + 1 : submission,
                 S_ISREG(st.st_mode) ? "file" : "non-regular file", b ? b + 1 : submission);
        return 2;
    }
    for (int i = 0; i < TL_LAB_MAX_FILES && lab->files[i]; ++i) {
        cand_set cs;
        memset(&cs, 0, sizeof cs);
        find_candidates(top, lab, lab->files[i], &cs);
        const char *rel = NULL;
        if (cs.nexact == 1) {
            rel = cs.exact[0];
        } else if (cs.nexact == 0 && cs.nlike == 1) {
            rel = cs.like[0];
            tg_buf_printf(notes, "took %s as %s: the only file named like it (no %s was handed in)\n", rel,
                          lab->files[i], lab->files[i]);
        } else if (cs.nexact > 1 || cs.nlike > 1) {
            tg_buf cl = {0};
            int n = cs.nexact > 1 ? cs.nexact : cs.nlike;
            for (int k = 0; k < n && k < (cs.nexact > 1 ? 4 : 8); ++k)
                tg_buf_printf(&cl, "%s%s", k ? ", " : "", cs.nexact > 1 ? cs.exact[k] : cs.like[k]);
            snprintf(err, errlen, "%d candidates for %s (%s); which one is the student's? Keep one and "
                     "grade again", n, lab->files[i], cl.s ? cl.s : "");
            tg_buf_free(&cl);
            tg_buf_free(&cs.seen);
            return 2;
        } else {
            snprintf(err, errlen, "no %s in the submission (a folder on the way that is a link is not "
                     "followed); files found: %s", lab->files[i], cs.nseen ? cs.seen.s : "none");
            tg_buf_free(&cs.seen);
            return 2;
        }
        char at[6300];
        snprintf(at, sizeof at, "%s/%s", top, rel);
        if (lstat(at, &st) != 0 || !S_ISREG(st.st_mode)) {
            snprintf(err, errlen, "%s is not a regular file (a link or a folder?); files found: %s", rel,
                     cs.seen.s ? cs.seen.s : "none");
            tg_buf_free(&cs.seen);
            return 2;
        }
        tg_buf_free(&cs.seen);
        if (st.st_size > TG_FILE_MAX) {
            snprintf(err, errlen, "%s is %lld bytes, more than the %d KiB a student file may have", rel,
                     (long long)st.st_size, TG_FILE_MAX / 1024);
            return 2;
        }
        char to[4200];
        snprintf(to, sizeof to, "%s/%s", dest_dir, lab->files[i]);
        char e2[512];
        if (take_file(top, rel, to, e2, sizeof e2) != 0) {
            snprintf(err, errlen, "%s could not be taken (%s)", rel, e2);
            return 2;
        }
        found[i] = 1;
    }
    /* Tell the student what else they handed in (ignored by design), briefly. */
    DIR *d = list_ignored ? opendir(top) : NULL;
    if (d) {
        struct dirent *e;
        int shown = 0, more = 0;
        tg_buf ign = {0};
        while ((e = readdir(d))) {
            int like = 0;          /* a student file taken under a name like its own is not "ignored" */
            for (int i = 0; i < TL_LAB_MAX_FILES && lab->files[i]; ++i)
                like |= tg_named_like(lab->files[i], e->d_name);
            if (e->d_name[0] == '.' || tl_lab_is_student_file(lab, e->d_name) || like)
                continue;
            char p[4200];
            struct stat est;
            snprintf(p, sizeof p, "%s/%s", top, e->d_name);
            if (lstat(p, &est) == 0 && S_ISDIR(est.st_mode))
                continue;       /* folders: labs/, a wrapping folder; their files are not listed */
            if (shown < 8) {
                tg_buf_printf(&ign, "%s%s", shown ? ", " : "", e->d_name);
                ++shown;
            } else {
                ++more;
            }
        }
        closedir(d);
        if (shown)
            tg_buf_printf(notes, "ignored (only the lab's student files are taken): %s%s\n", ign.s,
                          more ? ", ..." : "");
        tg_buf_free(&ign);
    }
    return 0;
}

/* ------------------------------------------------------------ names */

static unsigned long long fnv1a(const char *s)
{
    unsigned long long h = 1469598103934665603ULL;
    for (; *s; ++s)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}
/* A key under which two names that look alike on screen are equal: the same name in Unicode's
 * composed (NFC, "caf\u00e9") and decomposed (NFD, "cafe\u0301") forms, which differ in bytes. Each
 * Latin letter with a diacritic, precomposed (U+00C0-U+024F, U+1E00-U+1EFF) or a letter followed by
 * combining marks (U+0300-U+036F, U+1AB0-U+1AFF, U+1DC0-U+1DFF, U+20D0-U+20FF, U+FE20-U+FE2F), becomes
 * '?'. Names that differ only in which diacritic they carry meet too: they are then told apart by
 * the extra detail every report shows, which costs nothing. */
static int combining(unsigned cp)
{
    return (cp >= 0x300 && cp <= 0x36f) || (cp >= 0x1ab0 && cp <= 0x1aff) || (cp >= 0x1dc0 && cp <= 0x1dff) ||
           (cp >= 0x20d0 && cp <= 0x20ff) || (cp >= 0xfe20 && cp <= 0xfe2f);
}

static void look_alike_key(const char *s, char *out, size_t len)
{
    size_t o = 0;
    const unsigned char *p = (const unsigned char *)s;
    while (*p && o + 5 < len) {
        unsigned cp = *p;
        int l = cp < 0x80 ? 1 : (cp >> 5) == 6 ? 2 : (cp >> 4) == 14 ? 3 : (cp >> 3) == 30 ? 4 : 1;
        for (int i = 1; i < l; ++i)
            if ((p[i] & 0xc0) != 0x80)
                l = 1;
        if (l > 1) {
            cp &= 0x3f >> (l - 1);
            for (int i = 1; i < l; ++i)
                cp = (cp << 6) | (p[i] & 0x3f);
        }
        if (combining(cp)) {            /* marks the letter before it: that letter is already out */
            if (o > 0)
                out[o - 1] = '?';
        } else if ((cp >= 0xc0 && cp <= 0x24f && cp != 0xd7 && cp != 0xf7) || (cp >= 0x1e00 && cp <= 0x1eff)) {
            out[o++] = '?';
        } else {
            memcpy(out + o, p, (size_t)l);
            o += (size_t)l;
        }
        p += l;
    }
    out[o] = '\0';
}


void tg_student_names(gstudent *st, int n)
{
    for (int i = 0; i < n; ++i) {
        char buf[PATH_MAX];
        snprintf(buf, sizeof buf, "%s", st[i].path);
        size_t l = strlen(buf);
        while (l > 1 && buf[l - 1] == '/')
            buf[--l] = '\0';
        const char *b = strrchr(buf, '/');
        b = b ? b + 1 : buf;
        char name[400];
        snprintf(name, sizeof name, "%s", b);
        static const char *const exts[] = {".tar.gz", ".tgz", ".tar", ".zip", NULL};
        for (int k = 0; exts[k]; ++k) {
            size_t nl = strlen(name), el = strlen(exts[k]);
            if (nl > el && strcmp(name + nl - el, exts[k]) == 0) {
                name[nl - el] = '\0';
                break;
            }
        }
        if (st[i].from[0]) {     /* an LMS's student (lms.c): named by the LMS, the SID keeps them apart */
            int same = strcmp(st[i].display, st[i].sid) == 0;
            snprintf(name, sizeof name, "%.300s%s%.90s", st[i].display, st[i].sid[0] && !same ? " " : "",
                     same ? "" : st[i].sid);
        } else {
            char *clean = tg_utf8_clean(name, strlen(name));
            snprintf(st[i].display, sizeof st[i].display, "%s", clean ? clean : "?");
            free(clean);
        }
        size_t j = 0;
        int changed = 0;
        for (size_t k = 0; name[k] && j < 60; ++k) {
            char c = name[k];
            int ok = isalnum((unsigned char)c) || c == '_' || (c == '-' && j > 0);
            st[i].name[j++] = ok ? c : '_';
            changed |= !ok;
        }
        changed |= name[j] != '\0' || j == 0;   /* cut short, or empty */
        st[i].name[j] = '\0';
        if (changed)
            snprintf(st[i].name + j, sizeof st[i].name - j, "%s-%08llx", j ? "" : "student",
                     fnv1a(st[i].display) & 0xffffffffULL);
    }
    /* Two students on one folder (the same name in two places, or a crafted name): each of them
     * gets a suffix from its own path, whatever the order they were given in. */
    for (int i = 0; i < n; ++i) {
        int clash = 0;
        for (int j = 0; j < n; ++j)
            clash |= j != i && strcmp(st[i].name, st[j].name) == 0;
        if (clash) {
            char base[100];
            snprintf(base, sizeof base, "%.80s", st[i].name);
            for (int j = i + 1; j < n; ++j)
                if (strcmp(st[j].name, base) == 0) {
                    char b2[100];
                    snprintf(b2, sizeof b2, "%.80s", st[j].name);
                    snprintf(st[j].name, sizeof st[j].name, "%s-%08llx", b2, fnv1a(st[j].path) & 0xffffffffULL);
                }
            snprintf(st[i].name, sizeof st[i].name, "%s-%08llx", base, fnv1a(st[i].path) & 0xffffffffULL);
        }
    }
    /* The same path given twice: indistinguishable, so numbered in order (-2, -3, ...). */
    for (int i = 0; i < n; ++i)
        for (int j = 0, k = 2; j < i; ++j)
            if (strcmp(st[i].name, st[j].name) == 0) {
                char base[100];
                snprintf(base, sizeof base, "%.80s", st[i].name);
                snprintf(st[i].name, sizeof st[i].name, "%s-%d", base, k++);
                j = -1;
            }
    /* Two students shown alike (a folder and an archive of one name, one name in two places): each
     * display gets what tells them apart in every report: its name as given and its folder in the
     * out dir ("alice (alice.zip, alice-1a2b3c4d)", "alice (alice/, alice-5e6f7a8b)"; "b/alice/"
     * when two places share the name). */
    char *clash = calloc((size_t)n + 1, 1);   /* all marked first: a changed display clashes no more */
    char (*key)[sizeof st[0].display] = calloc((size_t)n + 1, sizeof *key);
    for (int i = 0; key && i < n; ++i)
        look_alike_key(st[i].display, key[i], sizeof key[i]);
    for (int i = 0; clash && key && i < n; ++i)
        for (int j = 0; j < n; ++j)
            clash[i] |= j != i && strcmp(key[i], key[j]) == 0;
    free(key);
    for (int i = 0; clash && i < n; ++i) {
        if (!clash[i])
            continue;
        /* its name as given (twin/, twin.tar.gz); the last two components where that is shared */
        const char *base = strrchr(st[i].path, '/') ? strrchr(st[i].path, '/') + 1 : st[i].path;
        int same_base = 0;
        for (int j = 0; j < n; ++j) {
            const char *bj = strrchr(st[j].path, '/') ? strrchr(st[j].path, '/') + 1 : st[j].path;
            same_base |= j != i && strcmp(base, bj) == 0;
        }
        const char *b = base;
        if (same_base)
            for (const char *q = base - 1; q > st[i].path; --q)
                if (q[-1] == '/') {
                    b = q;
                    break;
                }
        char *clean = tg_utf8_clean(b, strlen(b));
        char shown[sizeof st[i].display];
        struct stat sb;
        snprintf(shown, sizeof shown, "%.200s (%.200s%s, %.60s)", st[i].display, clean ? clean : "?",
                 stat(st[i].path, &sb) == 0 && S_ISDIR(sb.st_mode) ? "/" : "", st[i].name);
        free(clean);
        snprintf(st[i].display, sizeof st[i].display, "%s", shown);
    }
    free(clash);
}
