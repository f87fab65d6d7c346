/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Small shared helpers: invariants (BUG_ON), allocation that aborts, messages, number parsing,
 * text buffers, output and input files, data paths, lock files, user text and SysV objects. */
#ifndef REAIM_UTIL_UTIL_H
#define REAIM_UTIL_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
/* offsetof(T, f), and a compile error when f's type is not ctype: a table row that writes
 * through an offset says the type it writes, and the compiler holds it to the member's. */
#define FIELD_OFFSET(T, f, ctype)                                                                  \
	(offsetof(T, f) +                                                                           \
	 0 * sizeof(char[__builtin_types_compatible_p(__typeof__(((T *)0)->f), ctype) ? 1 : -1]))

/* An invariant the code relies on, checked where a comment would only claim it: when cond
 * holds, BUG_ON says "BUG at FILE:LINE: cond" on stderr and aborts; BUG says a message instead
 * (printf-like). For a bug in reaim only: a user's input, the machine and the database get an
 * error, never these. cond is always evaluated (never compiled out), so it may do work. */
#define BUG_ON(cond)                                                                               \
	do {                                                                                        \
		if (cond)                                                                           \
			bug_at(__FILE__, __LINE__, "%s", #cond);                                    \
	} while (0)
#define BUG(...) bug_at(__FILE__, __LINE__, __VA_ARGS__)
_Noreturn void bug_at(const char *file, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Allocation wrappers and bug_at: the only places allowed to abort the program. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvasprintf(const char *fmt, va_list ap);

/* Verbosity of diagnostics on stderr: 0 quiet, 1 normal, 2 verbose. */
void log_set_level(int level);
int log_level(void);
void log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A warning that must be seen when it happens (a wait), even while messages are held. */
void log_warn_now(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same broken at spaces within 100 columns, continuation lines indented by two: the long notes
 * of a run's first screen (the quiet check, the accounting, the counters). */
void log_warn_wrapped(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_info_wrapped(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* While a table is printed to where stderr also goes, hold the messages and print them after it
 * (log_release; also at exit), so none lands between its rows. */
void log_hold(void);
void log_release(void);

/* "123", "4k", "2m", "1g" as KiB-based units: returns 0 and the value in KiB. */
int parse_kib(const char *s, long long *kib);
/* A whole decimal number in [min, max]; 0 on success. */
int parse_long(const char *s, long long min, long long max, long long *out);
/* A finite decimal number in [min, max] (no inf, nan or hex); 0 on success. */
int parse_double(const char *s, double min, double max, double *out);
/* Finite, non-negative seconds with optional fraction and ms/s/m/h/d suffix. */
int parse_seconds(const char *s, double *out);
/* The next blank-separated word at *p, ended in place with a NUL, *p moved past it; NULL when
 * only blanks are left. */
char *next_word(char **p);
/* The decimal number after blanks (spaces, tabs: never past the end of a line) at *pp, *pp moved
 * past it; 0, or -1 (no digits, overflow) with *pp unchanged. Safe in any thread: no locale. */
int next_u64(const char **pp, unsigned long long *v);

/* Growable byte buffer for building text. */
struct strbuf {
	char *buf;
	size_t len, cap;
};
void strbuf_add(struct strbuf *sb, const char *s, size_t n);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* word as one word of a POSIX shell: as is when it is plain, else in single quotes. */
void strbuf_add_shell_word(struct strbuf *sb, const char *word);
void strbuf_free(struct strbuf *sb);

/* SHA-256 (codec.c), streamed: init, add, hex. */
#define SHA256_HEX_LEN 64
struct sha256 {
	uint32_t h[8];
	uint64_t len;
	unsigned char buf[64];
	size_t fill;
};
void sha256_init(struct sha256 *s);
void sha256_add(struct sha256 *s, const void *data, size_t n);
void sha256_hex(struct sha256 *s, char hex[SHA256_HEX_LEN + 1]);
/* A file's SHA-256 in hex; 0, or -1 with errno. */
int sha256_file(const char *path, char hex[SHA256_HEX_LEN + 1]);
/* Base64 (RFC 4648) decoding in pieces: white space is skipped, padding is optional but must end
 * the text. Start with a zeroed struct base64; decode appends bytes to out; 0, or -1 with EINVAL
 * at a character that cannot be there. base64_finish: -1 (EINVAL) when the text ends mid-byte. */
struct base64 {
	unsigned acc, count, pad;
};
int base64_decode(struct base64 *d, const char *text, size_t n, struct strbuf *out);
int base64_finish(const struct base64 *d);

/* A database carried in a job's console (lava_log.c; contrib/lava/reaim.sh prints it): a line with
 * LAVA_DB_BEGIN, then its gzip in base64 on lines each after LAVA_DB_LINE, then LAVA_DB_END with
 * "sha256=HEX bytes=N" of the gzip. Whatever wraps a line around that (LAVA's YAML log) is ignored. */
#define LAVA_DB_BEGIN "REAIM-DB-BEGIN"
#define LAVA_DB_LINE "REAIM-DB: "
#define LAVA_DB_END "REAIM-DB-END"
/* Every database the log carries, each checked against its end marker and unpacked into a new file in
 * dir (paths allocated, in the order they came); 0 (n may be 0), or -1 with err naming the log's line
 * (a database begun and not ended before the next begins is one). The log is read from fd, opened by
 * open_input; cancelled, when set, is asked every few thousand lines and ends the scan (-1, errno
 * EINTR). */
struct lava_extract {
	const char *log, *dir;
	int fd;
	int (*cancelled)(void *arg);
	void *arg;
	char **paths; /* out */
	size_t n;     /* out */
};
int lava_log_extract(struct lava_extract *x, char *err, size_t errlen);

/* An output file (outfile.c). A regular file or a new path is written to a temporary file beside
 * it and renamed into place only when everything was written; a symlink to a regular file has its
 * target replaced (the link stays); a device, a FIFO or a dangling link is written in place; `-` is
 * stdout. Nothing this call did not make is ever unlinked. */
struct out_file {
	FILE *f;
	const char *name; /* as given, for messages */
	char *target;     /* the path the temporary file replaces, NULL when written in place */
	char *tmp;        /* the temporary file beside target */
};
/* 0 with o->f open, or -1 with the reason in err (naming the file) and nothing made. */
int out_file_open(struct out_file *o, const char *path, char *err, size_t errlen);
/* Finish: with keep, flush and put the file in place (-1 with the reason in err when any write or
 * the rename failed, the previous file then left as it was); without keep, drop what was written. */
int out_file_close(struct out_file *o, int keep, char *err, size_t errlen);

/* The mode for a file or directory reaim makes that was asked for mode: the umask applied, but
 * never to the owner's bits of mode (umask 0777 must not make a report its owner cannot read). */
mode_t out_file_mode(mode_t mode);
/* fchmod(fd, out_file_mode(mode)): for a file this process has just created. 0 or -1 with errno. */
int out_file_fchmod(int fd, mode_t mode);
/* Whether key (one line) was recorded before in the marker file (what was said once, beside a
 * database): 1 it was; 0 it was not, and now is; -1 the marker cannot be kept (say it anyway). Never
 * follows a link in the marker's place, nor writes anything but a regular file. */
int said_before(const char *marker, const char *key);

/* Read a whole (small) file into a NUL-terminated string; NULL with errno. */
char *read_text_file(const char *path, size_t max);

/* Read an input file (workfile, suite, include): a regular file of at most max bytes
 * holding no NUL byte. NULL with the reason in err (without the path) and its line in
 * *err_line (0 for the whole file) otherwise; a fifo, device or directory is refused at
 * once, never waited on. */
char *read_input_file(const char *path, size_t max, char *err, size_t errlen, int *err_line);
/* Open an input file for reading: a regular file, or -1 with the reason in err (without the path);
 * a fifo, device or directory is refused at once, never waited on (opened O_NONBLOCK, then fstat). */
int open_input(const char *path, char *err, size_t errlen);
/* The most bytes an input file may hold. */
#define INPUT_FILE_MAX (1 << 20)

/* Directory of the running executable (from /proc/self/exe), or NULL. */
const char *exe_dir(void);
/* First existing "DIR/NAME" over the data search path ($REAIM_DATADIR; the build tree when running
 * uninstalled; beside the binary, or BINDIR/../share/reaim, for a build or install moved whole; the
 * configured data directory), or NULL; caller frees. */
char *find_data_file(const char *subdir, const char *name);
/* Names of the files in SUBDIR of every data dir (and of ./SUBDIR when local), with suffix
 * (when given) required and removed: sorted, unique, NULL-terminated; free with free_names. */
char **data_names(const char *subdir, const char *suffix, int local);
void free_names(char **names);
/* "; did you mean NAME?" for the data file name nearest to word, else "". */
void data_suggest(const char *subdir, const char *suffix, int local, const char *word, char *out, size_t len);
/* The same search for a program or file beside the binary or in libexecdir. */
char *find_helper(const char *name);

/* Whether a process with this pid exists and is a reaim (its pid may have been reused). */
int pid_is_reaim(long pid);

/* Lock files (lock.c): the owner holds an exclusive flock for as long as it lives, so another
 * process can tell it is gone whatever its pid namespace or name. Create path (never an existing
 * file, never through a symlink) locked: its descriptor, or -1 with errno and nothing left. With
 * best_effort, a filesystem that cannot lock keeps the file unlocked (no tester can take the
 * lock there either, so it always looks alive). */
int lock_file_create(const char *path, int best_effort);
/* 1 when the owner of the open lock file fd is gone (its lock could be taken: the caller holds it
 * until fd is closed), 0 when it is held or cannot be tested (errs toward alive). */
int lock_fd_stale(int fd);
/* The same by path, the descriptor in *fd (-1 unless 1 is returned); -1 with errno ENOENT when
 * there is no such file. Anything but a regular file counts as held. */
int lock_file_stale(const char *path, int *fd);

/* path absolute, every link resolved (realpath), the last name allowed to be missing or a link
 * to a missing file, whose target it then names: where open(O_CREAT) would make it. The one name
 * of a file however it was reached (a link, ./, ..). NULL with errno (ENOENT when a directory on
 * the way is missing, ELOOP); caller frees. */
char *path_resolve(const char *path);

/* Remove a directory tree we created; never follows symlinks. 0 or -1 with errno. */
int remove_tree(const char *path);

/* User text (text.c). Length of the valid UTF-8 sequence at p (no overlong forms,
 * surrogates or code points past U+10FFFF), 0 when the bytes are not one. */
size_t utf8_seq_len(const unsigned char *p);
/* printf into a caller's error buffer (for functions that return -1 with a reason); nothing
 * when err is NULL or errlen 0. */
void set_err(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* 0 when s is valid UTF-8 without control characters, else -1 and why in err. */
int text_check(const char *s, char *err, size_t errlen);
/* A copy of s safe for a terminal: control characters and invalid bytes as \n, \xNN, \uNNNN. */
char *text_escape(const char *s);
/* text_escape(src) into dst[len], cut short at a character boundary if it must be. */
void text_copy(char *dst, size_t len, const char *src);
/* Write s escaped, padded with spaces to width characters (0: no padding). */
void fput_text(FILE *f, const char *s, int width);
/* text into f broken at spaces within width columns (0: never), each new line led by indent; a line
 * is not broken before column keep, so a long word (a path) can stay beside what leads it. No
 * newline at the end. */
void text_wrap(FILE *f, const char *text, const char *indent, size_t width, size_t keep);

/* System V IPC objects in use (sysvipc.c), from /proc/sysvipc. */
enum sysv_kind { SYSV_SEM, SYSV_SHM, SYSV_MSG };
struct sysv_obj {
	int32_t key;
	int id;
	unsigned cuid;            /* the creator's uid */
	unsigned long long size;  /* semaphores in the set, or bytes */
};
/* Every object of a kind; 0, or -1 with errno. */
int sysv_list(enum sysv_kind kind, struct sysv_obj **out, size_t *n);
/* Remove the semaphore sets and segments our user created with keys in [first, first+count);
 * how many were removed. */
int sysv_remove_keys(int32_t first, int32_t count);
/* Remove the semaphore set and segment of one key, if our user created them; how many. */
int sysv_remove_key(int32_t key);

/* One line of /proc/self/mountinfo (mountinfo.c), its fields decoded (\040 as a blank) and
 * allocated. */
struct mountinfo_entry {
	unsigned major, minor;    /* the device of the file system */
	char *root;               /* the path within the file system that is mounted */
	char *point;              /* where it is mounted */
	char *fstype, *source, *options; /* after the " - ": type, source, super-block options */
};
/* The entry of the line at *pp, *pp moved to the next line: 1, 0 for a line that does not parse
 * (e left empty), -1 at the end of the text. */
int mountinfo_next(const char **pp, struct mountinfo_entry *e);
void mountinfo_entry_free(struct mountinfo_entry *e);

/* The largest /proc/self/mountinfo or /proc/self/cgroup read (a container host has many mounts). */
#define CGROUP_PROC_FILE_MAX (1 << 22)
/* A cgroup hierarchy's mount (cgroup.c): where it is, and the hierarchy path it shows ("/" unless
 * a container mounted a subtree). */
struct cgroup_mount {
	char *point, *root;
};
/* From mountinfo text: the cgroup2 mount (v1_controller NULL) or the v1 one carrying the controller;
 * 0, or -1 when there is none. */
int cgroup_mount_parse(const char *mountinfo, const char *v1_controller, struct cgroup_mount *out);
void cgroup_mount_free(struct cgroup_mount *m);
/* From /proc/self/cgroup text: this process's path in cgroup2 (the "0::" line, v1_controller NULL)
 * or in the v1 hierarchy listing the controller; allocated, NULL when there is none. */
char *cgroup_self_parse(const char *self, const char *v1_controller);
/* The directory of this process's cgroup in a hierarchy: the mount point and the path below the
 * mount's root (allocated; NULL when not mounted or our cgroup lies outside what is mounted). With
 * mount, the mount point too (allocated). */
char *cgroup_dir_of(const char *mountinfo, const char *self, const char *v1_controller, char **mount);

/* This process's cgroup for a controller: cgroup v2 if it holds the controller, else the v1
 * hierarchy that does (the hybrid layout). */
struct cgroup_dir {
	char *mount;              /* where the hierarchy is mounted */
	char *dir;                /* our cgroup's directory in it */
	int v2;
};
int cgroup_find(const char *controller, struct cgroup_dir *out);
void cgroup_dir_free(struct cgroup_dir *cg);
/* The tightest limit on the way from our cgroup up to the mount: limit_file ("pids.max") less
 * usage_file ("pids.current"); limits at or above unlimited_from count as none. 1 with *out
 * set when some level limits, 0 when none does; free out->file. */
struct cgroup_limit {
	long long max, used, headroom;
	char *file;               /* the limiting file */
};
int cgroup_headroom(const struct cgroup_dir *cg, const char *limit_file, const char *usage_file,
		    long long unlimited_from, struct cgroup_limit *out);

/* Levenshtein distance, for "did you mean" suggestions. */
size_t edit_distance(const char *a, const char *b);
/* Index of the name closest to a misspelled word (the only one it begins, else the nearest
 * within a third of its length, at least 2 edits), or -1 when none is that close. */
long closest_name(const char *word, const char *const *names, size_t n);

#endif
