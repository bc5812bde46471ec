/* lms.c: a class as courses collect it: `--from gradescope|canvas|moodle SOURCE`.
 *
 * Theory of operation. An LMS's bulk download is turned into the same list of students a class
 * run gets from folders and archives given one by one (gstudent: a path intake.c then takes the
 * student files from), with who they are as the LMS names them (name, email, SID) and when they
 * submitted. Nothing is graded here and nothing a student wrote is trusted: exports are unpacked
 * by intake.c's sandboxed unpacker (export-sized limits), files are copied as regular files only,
 * and every name from the export is checked before it becomes a path.
 *
 *   gradescope  "Export Submissions": a zip (or its folder) holding submission_metadata.yml and a
 *               folder submission_ID/ per submission. The YAML (read with libyaml, never by hand)
 *               maps each submission_ID to :submitters: (a list of :name:, :sid:, :email:) and
 *               :created_at:. Each submitter is a student (a group's members each get the group's
 *               folder); a student named in several submissions keeps the latest by :created_at:,
 *               the others are reported as superseded. A metadata entry without its folder is a
 *               "not graded" student; a folder without an entry is reported, not guessed at.
 *   canvas      "Download Submissions": loose files at the top of a zip, each named
 *               `sortablename[_LATE]_USERID_ATTACHMENTID_filename` (canvas-lms lib/content_zipper.rb;
 *               anonymous grading: `[LATE_]anon_ID_ATTACHMENTID_filename`).
 *   moodle      "Download all submissions": `Full Name_ID_assignsubmission_file_filename`, or with
 *               "download submissions in folders" a folder `Full Name_ID_assignsubmission_file_`
 *               (moodle mod/assign/locallib.php, download_submissions).
 *
 * Loose files go to students through a regular expression with named groups (PCRE2, Debian's
 * libpcre2-8: POSIX regex has no named groups), the LMS's own by default, or --name-pattern.
 * Groups read: sid, name, email (at least one of them: who), file (the name the student gave the
 * file; absent: the whole entry name), late (set: the LMS marked it late). Other groups are
 * allowed and ignored. Entries with the same sid (else email, else name) are one student: their
 * files are copied into a folder of their own under `stage`, where intake.c looks for the lab's
 * files (a renamed `gmm-1.c` taken when it is the only candidate). A student whose one file is an
 * archive is graded from that archive. Entries the pattern does not match are listed in the
 * report, never graded under a guessed name. */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <yaml.h>
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "grade.h"

/* ------------------------------------------------------------ the list being built */

typedef struct lms_list {
    gstudent *st;
    long long *when;          /* the submission's time (LLONG_MIN unknown)                         */
    char     (*key)[300];     /* who: "sid:..", "email:..", "name:.."                              */
    char     (*entry)[300];   /* gradescope: submission_ID; canvas/moodle: the first entry's name  */
    int       n, cap;
} lms_list;

#define NO_TIME (-9223372036854775807LL - 1)

static int list_add(lms_list *L)
{
    if (L->n == L->cap) {
        int cap = L->cap ? 2 * L->cap : 64;
        gstudent *st = realloc(L->st, (size_t)cap * sizeof *st);
        long long *w = realloc(L->when, (size_t)cap * sizeof *w);
        char(*k)[300] = realloc(L->key, (size_t)cap * sizeof *k);
        char(*e)[300] = realloc(L->entry, (size_t)cap * sizeof *e);
        if (st)
            L->st = st;
        if (w)
            L->when = w;
        if (k)
            L->key = k;
        if (e)
            L->entry = e;
        if (!st || !w || !k || !e)
            return -1;
        L->cap = cap;
    }
    memset(&L->st[L->n], 0, sizeof L->st[0]);
    L->when[L->n] = NO_TIME;
    L->key[L->n][0] = L->entry[L->n][0] = '\0';
    return L->n++;
}

static void list_free(lms_list *L)
{
    free(L->st);
    free(L->when);
    free(L->key);
    free(L->entry);
}

/* who: the SID when there is one, else the email (case folded), else the name. */
static void who_key(char *out, size_t len, const char *sid, const char *email, const char *name)
{
    if (sid && *sid)
        snprintf(out, len, "sid:%s", sid);
    else if (email && *email) {
        snprintf(out, len, "email:%s", email);
        for (char *c = out; *c; ++c)
            *c = (char)tolower((unsigned char)*c);
    } else
        snprintf(out, len, "name:%s", name ? name : "");
}

static void set_text(char *dst, size_t len, const char *s)
{
    char *clean = tg_utf8_clean(s ? s : "", s ? strlen(s) : 0);
    snprintf(dst, len, "%s", clean ? clean : "");
    free(clean);
    for (char *c = dst; *c; ++c)        /* one line, one TSV field */
        if (*c == '\t' || *c == '\n' || *c == '\r')
            *c = ' ';
}

/* One path component from an export: not empty, not . or .., no '/'. */
static int safe_component(const char *s)
{
    return *s && strcmp(s, ".") != 0 && strcmp(s, "..") != 0 && !strchr(s, '/');
}

/* The export's top: SOURCE itself (a folder), or SOURCE unpacked into stage/export (a zip). */
static int export_root(const char *kind, const char *source, const char *stage, char *root, size_t len, char *err,
                       size_t errlen)
{
    struct stat st;
    if (stat(source, &st) != 0) {
        snprintf(err, errlen, "--from %s '%s': no such file or folder", kind, source);
        return 2;
    }
    if (S_ISDIR(st.st_mode)) {
        if (!realpath(source, root)) {
            snprintf(err, errlen, "--from %s '%s': cannot resolve it (%s)", kind, source, strerror(errno));
            return 2;
        }
        return 0;
    }
    if (!S_ISREG(st.st_mode) || !tg_is_archive_name(source)) {
        snprintf(err, errlen, "--from %s '%s': give the LMS's download as its .zip or as the folder it unzips to",
                 kind, source);
        return 2;
    }
    snprintf(root, len, "%s/export", stage);
    tg_rmtree(root);
    if (tg_mkdirs(root, 0700) != 0) {
        snprintf(err, errlen, "cannot make %s (%s)", root, strerror(errno));
        return 2;
    }
    char e2[600];
    int rc = tg_unpack_export(source, root, e2, sizeof e2);
    if (rc) {
        snprintf(err, errlen, "--from %s '%s': %s", kind, source, e2);
        return 2;
    }
    return 0;
}

/* The one folder of dir when dir holds exactly one folder and no file (an export unzipped into a
 * folder of its own, Gradescope's assignment_N_export/): into out; 0 when there is none. */
static int only_folder(const char *dir, char *out, size_t len)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    struct dirent *e;
    int dirs = 0, files = 0;
    char one[512] = "";
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || strcmp(e->d_name, "__MACOSX") == 0)
            continue;
        char p[PATH_MAX + 600];
        struct stat st;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
            ++dirs;
            snprintf(one, sizeof one, "%s", e->d_name);
        } else {
            ++files;
        }
    }
    closedir(d);
    if (dirs != 1 || files)
        return 0;
    snprintf(out, len, "%s/%s", dir, one);
    return 1;
}

/* ------------------------------------------------------------ Gradescope */

static const char *scalar(yaml_node_t *n)
{
    return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* The value of key in mapping m; Gradescope writes Ruby symbols (":submitters"), either accepted. */
static yaml_node_t *map_get(yaml_document_t *d, yaml_node_t *m, const char *key)
{
    if (!m || m->type != YAML_MAPPING_NODE)
        return NULL;
    for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; ++p) {
        const char *k = scalar(yaml_document_get_node(d, p->key));
        if (k && (strcmp(k, key) == 0 || (k[0] == ':' && strcmp(k + 1, key) == 0)))
            return yaml_document_get_node(d, p->value);
    }
    return NULL;
}

static int gradescope(const char *source, const char *stage, lms_list *L, tg_buf *rep, char *err, size_t errlen)
{
    char root[PATH_MAX], meta[PATH_MAX + 64], inner[PATH_MAX];
    int rc = export_root("gradescope", source, stage, root, sizeof root, err, errlen);
    if (rc)
        return rc;
    snprintf(meta, sizeof meta, "%s/submission_metadata.yml", root);
    if (!tg_is_file(meta) && only_folder(root, inner, sizeof inner)) {
        snprintf(root, sizeof root, "%s", inner);
        snprintf(meta, sizeof meta, "%s/submission_metadata.yml", root);
    }
    struct stat ms;
    if (lstat(meta, &ms) != 0 || !S_ISREG(ms.st_mode)) {
        snprintf(err, errlen, "--from gradescope '%s': no submission_metadata.yml at its top or in its one folder; "
                 "give the zip of the assignment's \"Export Submissions\" (or the folder it unzips to)", source);
        return 2;
    }
    FILE *f = fopen(meta, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot read %s (%s)", meta, strerror(errno));
        return 2;
    }
    yaml_parser_t parser;
    yaml_document_t doc;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_file(&parser, f);
    if (!yaml_parser_load(&parser, &doc)) {
        snprintf(err, errlen, "--from gradescope: %s is not valid YAML: %s at line %zu, column %zu", meta,
                 parser.problem ? parser.problem : "unknown error", parser.problem_mark.line + 1,
                 parser.problem_mark.column + 1);
        yaml_parser_delete(&parser);
        fclose(f);
        return 2;
    }
    yaml_parser_delete(&parser);
    fclose(f);
    yaml_node_t *top = yaml_document_get_root_node(&doc);
    if (!top || top->type != YAML_MAPPING_NODE) {
        snprintf(err, errlen, "--from gradescope: %s holds no mapping of submissions (submission_ID: ...); is it "
                 "Gradescope's?", meta);
        yaml_document_delete(&doc);
        return 2;
    }
    int entries = 0;
    for (yaml_node_pair_t *p = top->data.mapping.pairs.start; p < top->data.mapping.pairs.top; ++p) {
        const char *sub = scalar(yaml_document_get_node(&doc, p->key));
        yaml_node_t *v = yaml_document_get_node(&doc, p->value);
        yaml_node_t *who = map_get(&doc, v, "submitters");
        if (!sub || !who || who->type != YAML_SEQUENCE_NODE) {
            tg_buf_printf(rep, "- submission_metadata.yml: entry '%s' has no :submitters: list: skipped\n",
                          sub ? sub : "?");
            continue;
        }
        ++entries;
        const char *created = scalar(map_get(&doc, v, "created_at"));
        long long when = NO_TIME;
        if (created && tg_parse_time(created, &when) != 0)
            when = NO_TIME;
        char folder[PATH_MAX + 400] = "";
        struct stat fs;
        int have = safe_component(sub) && (snprintf(folder, sizeof folder, "%s/%s", root, sub), 1) &&
                   lstat(folder, &fs) == 0 && S_ISDIR(fs.st_mode);
        for (yaml_node_item_t *it = who->data.sequence.items.start; it < who->data.sequence.items.top; ++it) {
            yaml_node_t *u = yaml_document_get_node(&doc, *it);
            const char *name = scalar(map_get(&doc, u, "name")), *sid = scalar(map_get(&doc, u, "sid")),
                       *email = scalar(map_get(&doc, u, "email"));
            if (!name && !sid && !email)
                continue;
            int i = list_add(L);
            if (i < 0) {
                snprintf(err, errlen, "out of memory reading %s", meta);
                yaml_document_delete(&doc);
                return 2;
            }
            gstudent *s = &L->st[i];
            set_text(s->display, sizeof s->display, name && *name ? name : email && *email ? email : sid);
            set_text(s->email, sizeof s->email, email);
            set_text(s->sid, sizeof s->sid, sid);
            set_text(s->submitted_at, sizeof s->submitted_at, created);
            snprintf(s->from, sizeof s->from, "gradescope");
            snprintf(L->entry[i], sizeof L->entry[i], "%.299s", sub);
            L->when[i] = when;
            who_key(L->key[i], sizeof L->key[i], s->sid, s->email, s->display);
            if (have) {
                snprintf(s->path, sizeof s->path, "%s", folder);
            } else {
                snprintf(s->path, sizeof s->path, "%s/%s", root, safe_component(sub) ? sub : "(unsafe name)");
                snprintf(s->not_graded, sizeof s->not_graded, "the export has no folder '%s' for this "
                         "student's submission (submission_metadata.yml names it); download the export again", sub);
            }
            if (who->data.sequence.items.top - who->data.sequence.items.start > 1)
                snprintf(s->lms_note, sizeof s->lms_note, "a group submission (%s): each member is graded on it",
                         sub);
        }
    }
    yaml_document_delete(&doc);
    if (!entries) {
        snprintf(err, errlen, "--from gradescope: %s lists no submissions", meta);
        return 2;
    }
    /* Folders the metadata does not name: reported, never graded under a guessed name. */
    DIR *d = opendir(root);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.' || strcmp(e->d_name, "submission_metadata.yml") == 0 ||
            strcmp(e->d_name, "__MACOSX") == 0)
            continue;
        int named = 0;
        for (int i = 0; i < L->n && !named; ++i)
            named = strcmp(L->entry[i], e->d_name) == 0;
        if (!named)
            tg_buf_printf(rep, "- '%s' is in the export but not in submission_metadata.yml: not graded\n", e->d_name);
    }
    if (d)
        closedir(d);
    return 0;
}

/* ------------------------------------------------------------ Canvas, Moodle: loose files */

const char *tg_lms_default_pattern(const char *kind)
{
    if (strcmp(kind, "canvas") == 0)
        return "^(?:(?<name>.+?)(?:_(?<late>LATE))?_(?<sid>[0-9]+)|(?:(?<late>LATE)_)?(?<sid>anon_[A-Za-z0-9]+))"
               "_(?<attachment>[0-9]+)_(?<file>.+)$";
    if (strcmp(kind, "moodle") == 0)
        return "^(?<name>[^_]+)_(?<sid>[0-9]+)_assignsubmission_file_(?<file>.*)$";
    return NULL;
}

/* The named group's text in a match ("" unset or absent). */
static void group(pcre2_code *re, pcre2_match_data *md, const char *name, char *out, size_t len)
{
    PCRE2_UCHAR *v = NULL;
    PCRE2_SIZE vl = 0;
    out[0] = '\0';
    if (pcre2_substring_get_byname(md, (PCRE2_SPTR)name, &v, &vl) == 0) {
        snprintf(out, len, "%.*s", (int)vl, (const char *)v);
        pcre2_substring_free(v);
    }
    (void)re;
}

static int has_group(pcre2_code *re, const char *name)
{
    return pcre2_substring_number_from_name(re, (PCRE2_SPTR)name) >= 0 ||
           pcre2_substring_number_from_name(re, (PCRE2_SPTR)name) == PCRE2_ERROR_NOUNIQUESUBSTRING;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

static int loose(const char *kind, const char *source, const char *pattern, const char *stage, lms_list *L,
                 tg_buf *rep, char *err, size_t errlen)
{
    int errcode;
    PCRE2_SIZE erroff;
    pcre2_code *re = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, PCRE2_UTF | PCRE2_DUPNAMES, &errcode,
                                   &erroff, NULL);
    if (!re) {
        PCRE2_UCHAR msg[256];
        pcre2_get_error_message(errcode, msg, sizeof msg);
        snprintf(err, errlen, "--name-pattern '%s': %s at offset %zu (a PCRE2 regular expression with named groups, "
                 "e.g. (?<sid>[0-9]+))", pattern, (const char *)msg, (size_t)erroff);
        return 2;
    }
    if (!has_group(re, "sid") && !has_group(re, "name") && !has_group(re, "email")) {
        snprintf(err, errlen, "--name-pattern '%s': it names no student: give it a group (?<sid>...), (?<name>...) or "
                 "(?<email>...)", pattern);
        pcre2_code_free(re);
        return 2;
    }
    char root[PATH_MAX], inner[PATH_MAX];
    int rc = export_root(kind, source, stage, root, sizeof root, err, errlen);
    if (rc) {
        pcre2_code_free(re);
        return rc;
    }
    if (only_folder(root, inner, sizeof inner)) {
        /* One folder and nothing else: the download unzipped into a folder of its own, unless that
         * folder is itself a student's (Moodle's folders). */
        const char *b = strrchr(inner, '/') + 1;
        pcre2_match_data *m1 = pcre2_match_data_create_from_pattern(re, NULL);
        if (pcre2_match(re, (PCRE2_SPTR)b, PCRE2_ZERO_TERMINATED, 0, 0, m1, NULL) < 0)
            snprintf(root, sizeof root, "%s", inner);
        pcre2_match_data_free(m1);
    }
    struct dirent **ents = NULL;
    int ne = scandir(root, &ents, NULL, by_name);
    if (ne < 0) {
        snprintf(err, errlen, "--from %s: cannot read %s (%s)", kind, root, strerror(errno));
        pcre2_code_free(re);
        return 2;
    }
    pcre2_match_data *md = pcre2_match_data_create_from_pattern(re, NULL);
    int matched = 0, unmatched = 0;
    tg_buf um = {0};
    for (int k = 0; k < ne; ++k) {
        const char *en = ents[k]->d_name;
        if (en[0] == '.' || strcmp(en, "__MACOSX") == 0)
            continue;
        char p[PATH_MAX + 600];
        struct stat st;
        snprintf(p, sizeof p, "%s/%s", root, en);
        if (lstat(p, &st) != 0)
            continue;
        if (pcre2_match(re, (PCRE2_SPTR)en, PCRE2_ZERO_TERMINATED, 0, 0, md, NULL) < 0 ||
            !(S_ISREG(st.st_mode) || S_ISDIR(st.st_mode))) {
            tg_buf_printf(&um, "%s%s%s", unmatched ? ", " : "", en,
                          S_ISREG(st.st_mode) || S_ISDIR(st.st_mode) ? "" : " (not a file or folder)");
            ++unmatched;
            continue;
        }
        ++matched;
        char name[256], sid[128], email[256], file[512], late[16], key[300];
        group(re, md, "name", name, sizeof name);
        group(re, md, "sid", sid, sizeof sid);
        group(re, md, "email", email, sizeof email);
        group(re, md, "file", file, sizeof file);
        group(re, md, "late", late, sizeof late);
        if (!has_group(re, "file"))
            snprintf(file, sizeof file, "%s", en);
        who_key(key, sizeof key, sid, email, name);
        int i = -1;
        for (int j = 0; j < L->n && i < 0; ++j)
            if (strcmp(L->key[j], key) == 0)
                i = j;
        if (i < 0) {
            if ((i = list_add(L)) < 0) {
                snprintf(err, errlen, "out of memory");
                rc = 2;
                break;
            }
            gstudent *s = &L->st[i];
            set_text(s->display, sizeof s->display, *name ? name : *email ? email : sid);
            set_text(s->email, sizeof s->email, email);
            set_text(s->sid, sizeof s->sid, sid);
            snprintf(s->from, sizeof s->from, "%s", kind);
            snprintf(L->key[i], sizeof L->key[i], "%s", key);
            snprintf(L->entry[i], sizeof L->entry[i], "%.299s", en);
            snprintf(s->path, sizeof s->path, "%s/students/%d", stage, i);
        }
        gstudent *s = &L->st[i];
        if (*late && !s->lms_note[0])   /* the first late entry of the student says it (no other note here) */
            snprintf(s->lms_note, sizeof s->lms_note, "the %s download marks this submission late", kind);
        if (S_ISDIR(st.st_mode)) {               /* Moodle's folder per student: its files */
            snprintf(s->path, sizeof s->path, "%s", p);
            continue;
        }
        /* A loose file: copied under the name the student gave it. */
        char dir[PATH_MAX + 64], to[PATH_MAX + 700];
        snprintf(dir, sizeof dir, "%s/students/%d", stage, i);
        const char *fb = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
        if (!safe_component(fb))
            fb = en;
        snprintf(to, sizeof to, "%s/%s", dir, fb);
        if (st.st_size > TG_ARCHIVE_MAX) {
            snprintf(s->not_graded, sizeof s->not_graded, "'%s' is %lld bytes, more than the %lld MiB a "
                     "submission may have", en, (long long)st.st_size, TG_ARCHIVE_MAX >> 20);
            continue;
        }
        if (tg_is_file(to)) {
            snprintf(s->not_graded, sizeof s->not_graded, "two files of this student are named '%s' in "
                     "the %s download (one is '%s'); keep one and grade again", fb, kind, en);
            continue;
        }
        char e2[600];
        if (tg_mkdirs(dir, 0700) != 0 || tg_copy_file(p, to, e2, sizeof e2) != 0) {
            snprintf(err, errlen, "--from %s: cannot copy '%s' into %s (%s)", kind, en, dir, strerror(errno));
            rc = 2;
            break;
        }
    }
    for (int k = 0; k < ne; ++k)
        free(ents[k]);
    free(ents);
    pcre2_match_data_free(md);
    pcre2_code_free(re);
    if (unmatched)
        tg_buf_printf(rep, "- %d entr%s of the %s download not matched by the file-name pattern (not graded; give "
                      "--name-pattern to map them): %s\n", unmatched, unmatched == 1 ? "y" : "ies", kind, um.s);
    tg_buf_free(&um);
    if (!rc && !matched) {
        snprintf(err, errlen, "--from %s '%s': no entry matches the file-name pattern %s; is it the %s download? Give "
                 "--name-pattern to map its names", kind, source, pattern, kind);
        rc = 2;
    }
    /* A student whose only file is an archive is graded from the archive. */
    for (int i = 0; !rc && i < L->n; ++i) {
        DIR *d = opendir(L->st[i].path);
        if (!d || !tg_path_under(L->st[i].path, stage)) {
            if (d)
                closedir(d);
            continue;
        }
        struct dirent *e;
        int files = 0;
        char one[512] = "";
        while ((e = readdir(d)))
            if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
                ++files;
                snprintf(one, sizeof one, "%s", e->d_name);
            }
        closedir(d);
        if (files == 1 && tg_is_archive_name(one)) {
            size_t l = strlen(L->st[i].path);
            snprintf(L->st[i].path + l, sizeof L->st[i].path - l, "/%s", one);
        }
    }
    return rc;
}

/* ------------------------------------------------------------ the class */

int tg_lms_collect(const char *kind, const char *source, const char *pattern, const char *stage,
                   gstudent **stp, int *nsp, tg_buf *report, char *err, size_t errlen)
{
    lms_list L = {0};
    tg_rmtree(stage);
    if (tg_mkdirs(stage, 0700) != 0) {
        snprintf(err, errlen, "cannot make %s (%s)", stage, strerror(errno));
        return 2;
    }
    int rc;
    if (strcmp(kind, "gradescope") == 0)
        rc = gradescope(source, stage, &L, report, err, errlen);
    else if (tg_lms_default_pattern(kind))
        rc = loose(kind, source, pattern && *pattern ? pattern : tg_lms_default_pattern(kind), stage, &L, report, err,
                   errlen);
    else {
        snprintf(err, errlen, "--from '%s': give gradescope, canvas or moodle (folders and archives of GitHub "
                 "Classroom or your own are given as SUBMISSION... without --from)", kind);
        rc = 2;
    }
    if (rc) {
        list_free(&L);
        return rc;
    }
    /* The latest submission per student: later ones win, the others are said. */
    int *keep = calloc((size_t)L.n + 1, sizeof *keep);
    for (int i = 0; i < L.n; ++i)
        keep[i] = 1;
    for (int i = 0; i < L.n; ++i)
        for (int j = 0; j < L.n; ++j) {
            if (i == j || !keep[i] || !keep[j] || strcmp(L.key[i], L.key[j]) != 0)
                continue;
            int drop = L.when[j] > L.when[i] || (L.when[j] == L.when[i] && j > i) ? i : j, win = drop == i ? j : i;
            keep[drop] = 0;
            tg_buf_printf(report, "- %s: %s (%s) superseded by %s (%s), the latest\n", L.st[win].display,
                          L.entry[drop], L.st[drop].submitted_at[0] ? L.st[drop].submitted_at : "time unknown",
                          L.entry[win], L.st[win].submitted_at[0] ? L.st[win].submitted_at : "time unknown");
            size_t l = strlen(L.st[win].lms_note);
            snprintf(L.st[win].lms_note + l, sizeof L.st[win].lms_note - l, "%sthe latest of several submissions "
                     "(%s of %s superseded)", l ? "; " : "", L.entry[drop],
                     L.st[drop].submitted_at[0] ? L.st[drop].submitted_at : "an unknown time");
        }
    gstudent *st = calloc((size_t)L.n + 1, sizeof *st);
    int ns = 0;
    for (int i = 0; i < L.n; ++i)
        if (keep[i])
            st[ns++] = L.st[i];
    free(keep);
    list_free(&L);
    *stp = st;
    *nsp = ns;
    return 0;
}

void tg_lms_intake_report(const grun *R, const gstudent *st, int ns, const tg_buf *report)
{
    char p[PATH_MAX + 32];
    const tg_buf *rep = report;
    tg_buf md = {0};
    tg_buf_printf(&md, "# intake: --from %s %s\n\n%d student(s).\n\n", R->opt->from_kind, R->opt->from_source, ns);
    for (int i = 0; i < ns; ++i)
        tg_buf_printf(&md, "- %s%s%s%s%s%s: %s%s%s\n", st[i].display, st[i].email[0] ? " <" : "", st[i].email,
                      st[i].email[0] ? ">" : "", st[i].sid[0] ? ", SID " : "", st[i].sid,
                      st[i].not_graded[0] ? st[i].not_graded : st[i].path, st[i].lms_note[0] ? "; " : "",
                      st[i].lms_note);
    if (rep->len) {
        tg_buf_printf(&md, "\n## to look at\n\n%s", rep->s);
        fprintf(stderr, "tl-grade: intake of the %s export, to look at (also in %s/intake.md):\n%s", R->opt->from_kind,
                R->run.out, rep->s);
    }
    snprintf(p, sizeof p, "%s/intake.md", R->run.out);
    tg_write_atomic(p, md.s ? md.s : "", md.len);
    tg_buf_free(&md);
}
