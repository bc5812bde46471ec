/* unpack.c: a student's archive, or a class's export, unpacked with libarchive in a child process
 * under limits (memory, CPU time, bytes written, entries; no inet sockets; as root shut in the folder
 * as nobody), each entry checked before a byte of it is written and sizes counted on the bytes
 * written. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
    /* A fork, not proc.c's posix_spawn: the child runs libarchive itself (extract) after setting
     * limits, chroot and nobody's uid, which posix_spawn cannot do before a program's code runs. */
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
int tg_is_archive_name(const char *name)
{
    return ends_with(name, ".tar") || ends_with(name, ".tar.gz") || ends_with(name, ".tgz") || ends_with(name, ".zip");
}

int tg_unpack_export(const char *archive, const char *into, char *err, size_t errlen)
{
    return unpack(archive, into, &export_limits, err, errlen);
}

int tg_unpack_submission(const char *archive, const char *into, char *err, size_t errlen)
{
    return unpack(archive, into, &student_limits, err, errlen);
}
