/* Small shared helpers: allocation that aborts, messages, number parsing, paths. */
#ifndef REAIM_UTIL_H
#define REAIM_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Allocation wrappers: the only places allowed to abort the program. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Verbosity of diagnostics on stderr: 0 quiet, 1 normal, 2 verbose. */
void log_set_level(int level);
int log_level(void);
void log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* "123", "4k", "2m", "1g" as KiB-based units: returns 0 and the value in KiB. */
int parse_kib(const char *s, long long *kib);
/* A whole decimal number in [min, max]; 0 on success. */
int parse_long(const char *s, long long min, long long max, long long *out);
/* Seconds with optional fraction and s/m/h suffix. */
int parse_seconds(const char *s, double *out);

/* Growable byte buffer for building text. */
struct strbuf {
	char *buf;
	size_t len, cap;
};
void strbuf_add(struct strbuf *sb, const char *s, size_t n);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strbuf_free(struct strbuf *sb);

/* Read a whole (small) file into a NUL-terminated string; NULL with errno. */
char *read_text_file(const char *path, size_t max);

/* Directory of the running executable (from /proc/self/exe), or NULL. */
const char *exe_dir(void);
/* First existing "DIR/NAME" over the data search path, or NULL; caller frees. */
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

/* Remove a directory tree we created; never follows symlinks. 0 or -1 with errno. */
int remove_tree(const char *path);

/* Levenshtein distance, for "did you mean" suggestions. */
size_t edit_distance(const char *a, const char *b);
/* Index of the name closest to a misspelled word (the only one it begins, else the nearest
 * within a third of its length, at least 2 edits), or -1 when none is that close. */
long closest_name(const char *word, const char *const *names, size_t n);

#endif
