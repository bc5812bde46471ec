/* intake.c: from a student's folder or archive to the files the grader builds, and the
 * students' folder names. Nothing here trusts the submission: archives are unpacked under limits
 * (unpack.c); only the allow-listed file names are ever copied out, as regular files of bounded
 * size (pristine.c copies them). */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grade.h"
#include "tilelab.h"

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
    return tg_copy_fd(in, rel, to, err, errlen);   /* the opened file itself, by its descriptor */
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
        int rc = tg_unpack_submission(submission, top, err, errlen);
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
