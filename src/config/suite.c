/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Suites (libconfig files) resolved into a plan: the workloads, each with its options
 * after defaults, suite keys, workload keys and command-line flags, in that order. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <libconfig.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "config/cfg.h"
#include "util/util.h"

/* Keys that are not options: they describe the suite itself. */
static const char *const meta_keys[] = {"name", "description", "workloads", NULL};

static int is_meta(const char *key)
{
	for (int i = 0; meta_keys[i]; i++)
		if (strcmp(meta_keys[i], key) == 0)
			return 1;
	return 0;
}

/* ---- @include, expanded here rather than by libconfig: a path is relative to the file that
 * includes it, every file is read as a bounded regular file, and each line of the text
 * libconfig sees maps back to its file and line for messages. ---- */

/* libconfig's own limit on nested includes. */
#define INCLUDE_DEPTH_MAX 10

struct suite_src {
	char **files;             /* files[0] is the suite */
	size_t nfiles;
	unsigned *line_file;      /* per line of the expanded text: index into files */
	int *line_no;             /* and the line in that file */
	size_t nlines;
	int top_lines;            /* lines of the suite itself: libconfig reports an error at its end past them */
};

/* The file and line a line of the expanded text came from. */
static void src_at(const struct suite_src *src, int line, const char **file, int *fline)
{
	if (line <= 0 || src->nlines == 0) {
		*file = src->files[0];
		*fline = line > 0 ? line : 0;
		return;
	}
	if ((size_t)line > src->nlines) {
		*file = src->files[0];
		*fline = src->top_lines + (int)((size_t)line - src->nlines);
		return;
	}
	*file = src->files[src->line_file[line - 1]];
	*fline = src->line_no[line - 1];
}

static void src_err(struct errlist *errs, const struct suite_src *src, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void src_err(struct errlist *errs, const struct suite_src *src, int line, const char *fmt, ...)
{
	char msg[600];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	const char *file;
	int fline;
	src_at(src, line, &file, &fline);
	errlist_add(errs, file, fline, "%s", msg);
}

static void src_free(struct suite_src *src)
{
	for (size_t i = 0; i < src->nfiles; i++)
		free(src->files[i]);
	free(src->files);
	free(src->line_file);
	free(src->line_no);
	memset(src, 0, sizeof(*src));
}

static void src_add_line(struct suite_src *src, unsigned file, int line)
{
	if ((src->nlines & (src->nlines - 1)) == 0) { /* grow at powers of two */
		size_t cap = src->nlines ? src->nlines * 2 : 1;
		src->line_file = xrealloc(src->line_file, cap * sizeof(*src->line_file));
		src->line_no = xrealloc(src->line_no, cap * sizeof(*src->line_no));
	}
	src->line_file[src->nlines] = file;
	src->line_no[src->nlines++] = line;
}

/* Lexical state carried from line to line, as libconfig's scanner has it: an @include is
 * one only at the start of a line outside strings and block comments. */
enum lex_state { LEX_CODE, LEX_STRING, LEX_COMMENT };

/* libconfig 1.5 reads an integer literal with atoi (and an L one with atoll), so one past
 * their range is silently cut to other bits: such a literal is an error here. Returns the
 * length of the number token at p (0 if none), setting *bad for an integer out of range. */
static size_t number_token(const char *p, const char *end, int *bad)
{
	const char *q = p;
	*bad = 0;
	if (q < end && (*q == '+' || *q == '-'))
		q++;
	if (q == end || !isdigit((unsigned char)*q))
		return 0;
	int hex = end - q > 2 && q[0] == '0' && (q[1] == 'x' || q[1] == 'X');
	const char *digits = hex ? q + 2 : q;
	for (q = digits; q < end && (hex ? isxdigit((unsigned char)*q) : isdigit((unsigned char)*q)); q++)
		;
	if (!hex && q < end && (*q == '.' || *q == 'e' || *q == 'E')) {
		while (q < end && (isalnum((unsigned char)*q) || *q == '.' || *q == '+' || *q == '-'))
			q++;
		return (size_t)(q - p); /* a float: libconfig's atof gives inf for huge ones, refused later */
	}
	int wide = q < end && *q == 'L';
	size_t n = (size_t)(q - digits);
	char num[64];
	if (n >= sizeof(num)) {
		*bad = 1;
	} else {
		memcpy(num, digits, n);
		num[n] = '\0';
		errno = 0;
		unsigned long long v = strtoull(num, NULL, hex ? 16 : 10);
		*bad = errno == ERANGE || v > (wide ? (unsigned long long)INT64_MAX : (unsigned long long)INT32_MAX);
	}
	while (q < end && *q == 'L')
		q++;
	return (size_t)(q - p);
}

static enum lex_state lex_line(const char *p, const char *end, enum lex_state st, const struct suite_src *src,
			       unsigned file, int line, struct errlist *errs)
{
	for (const char *start = p; p < end; p++) {
		int bad;
		size_t n;
		if (st == LEX_CODE && (p == start || !(isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '-' || p[-1] == '*' || p[-1] == '.')) &&
		    (n = number_token(p, end, &bad)) > 0) {
			if (bad)
				errlist_add(errs, src->files[file], line, "the number %.*s is too large (the most is %d, "
					    "or %lld written with an L suffix)", (int)n, p, INT32_MAX, (long long)INT64_MAX);
			p += n - 1;
			continue;
		}
		if (st == LEX_STRING) {
			if (*p == '\\' && p + 1 < end)
				p++;
			else if (*p == '"')
				st = LEX_CODE;
		} else if (st == LEX_COMMENT) {
			if (*p == '*' && p + 1 < end && p[1] == '/')
				st = LEX_CODE, p++;
		} else if (*p == '"') {
			st = LEX_STRING;
		} else if (*p == '/' && p + 1 < end && p[1] == '*') {
			st = LEX_COMMENT, p++;
		} else if (*p == '#' || (*p == '/' && p + 1 < end && p[1] == '/')) {
			return st; /* a line comment: the rest of the line is not code */
		}
	}
	return st;
}

/* If the line is `@include "NAME"`, the name (malloc'd) or NULL; *bad says it was an
 * @include line that could not be read. */
static char *include_name(const char *p, const char *end, int *bad)
{
	*bad = 0;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (end - p < 8 || strncmp(p, "@include", 8) != 0)
		return NULL;
	p += 8;
	*bad = 1;
	if (p == end || (*p != ' ' && *p != '\t'))
		return NULL;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p == end || *p++ != '"')
		return NULL;
	struct strbuf name = {0};
	strbuf_add(&name, "", 0);
	for (; p < end && *p != '"'; p++) {
		if (*p == '\\' && p + 1 < end)
			p++;
		strbuf_add(&name, p, 1);
	}
	if (p == end) {
		strbuf_free(&name);
		return NULL;
	}
	for (p++; p < end && (*p == ' ' || *p == '\t' || *p == '\r'); p++)
		;
	if ((p < end && *p != '#' && !(*p == '/' && p + 1 < end && (p[1] == '/' || p[1] == '*'))) ||
	    !name.buf[0]) {
		strbuf_free(&name);
		return NULL; /* text after the file name, or an empty name */
	}
	*bad = 0;
	return name.buf;
}

/* The path an @include names: absolute, or relative to the including file's directory. */
static char *include_path(const char *including, const char *name)
{
	const char *slash = strrchr(including, '/');
	if (name[0] == '/' || !slash)
		return xstrdup(name);
	return xasprintf("%.*s/%s", (int)(slash - including), including, name);
}

static int expand_text(struct suite_src *src, unsigned file, const char *text, int depth, struct strbuf *out,
		       struct errlist *errs);

/* Read and expand one included file in place of the @include line. */
static int expand_include(struct suite_src *src, unsigned from, int line, const char *name, int depth,
			  struct strbuf *out, struct errlist *errs)
{
	const char *file = src->files[from];
	if (depth >= INCLUDE_DEPTH_MAX) {
		errlist_add(errs, file, line, "@include \"%s\": more than %d nested includes (a cycle?)", name,
			    INCLUDE_DEPTH_MAX);
		return -1;
	}
	char *path = include_path(file, name);
	char why[160];
	int why_line;
	char *text = read_input_file(path, INPUT_FILE_MAX, why, sizeof(why), &why_line);
	if (!text) {
		if (why_line > 0)
			errlist_add(errs, path, why_line, "%s", why);
		else
			errlist_add(errs, file, line, "@include \"%s\": cannot read %s: %s", name, path, why);
		free(path);
		return -1;
	}
	src->files = xrealloc(src->files, (src->nfiles + 1) * sizeof(char *));
	src->files[src->nfiles++] = path;
	int rc = expand_text(src, (unsigned)src->nfiles - 1, text, depth + 1, out, errs);
	free(text);
	return rc;
}

static int expand_text(struct suite_src *src, unsigned file, const char *text, int depth, struct strbuf *out,
		       struct errlist *errs)
{
	enum lex_state st = LEX_CODE;
	int rc = 0, line = 0;
	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n'), *end = nl ? nl : p + strlen(p);
		line++;
		int bad = 0;
		char *name = st == LEX_CODE ? include_name(p, end, &bad) : NULL;
		if (name) {
			if (expand_include(src, file, line, name, depth, out, errs) < 0)
				rc = -1;
			free(name);
		} else if (bad) {
			errlist_add(errs, src->files[file], line, "expected @include \"FILE\" alone on its line");
			rc = -1;
		} else {
			size_t before = errs->count;
			st = lex_line(p, end, st, src, file, line, errs);
			if (errs->count != before)
				rc = -1;
			strbuf_add(out, p, (size_t)(end - p));
			strbuf_add(out, "\n", 1);
			src_add_line(src, file, line);
		}
		p = nl ? nl + 1 : end;
	}
	if (file == 0)
		src->top_lines = line;
	return rc;
}

/* The text form of a scalar setting, as option_set() expects it. */
static char *scalar_text(const config_setting_t *s, const struct option_def *def)
{
	int type = config_setting_type(s);
	/* names, lists of names and choices are strings; numbers only where a number is meant */
	int textual = def->type == OPT_STR || def->type == OPT_STRLIST || def->type == OPT_ENUM;
	if (textual && type != CONFIG_TYPE_STRING && !(type == CONFIG_TYPE_BOOL && def->choices == osync_names))
		return NULL;
	if (def->type == OPT_INT && type != CONFIG_TYPE_INT && type != CONFIG_TYPE_INT64)
		return NULL;
	switch (type) {
	case CONFIG_TYPE_INT:
	case CONFIG_TYPE_INT64:
		return xasprintf("%lld", config_setting_get_int64(s));
	case CONFIG_TYPE_FLOAT:
		return xasprintf("%.17g", config_setting_get_float(s));
	case CONFIG_TYPE_STRING:
		return xstrdup(config_setting_get_string(s));
	case CONFIG_TYPE_BOOL:
		if (def->choices == osync_names)
			return xstrdup(config_setting_get_bool(s) ? "on" : "off");
		return NULL;
	default:
		return NULL;
	}
}

/* " (allowed: RANGE)" for a message about def's value. */
static const char *allowed(const struct option_def *def, char *buf, size_t len)
{
	char range[160];
	option_range(def, range, sizeof(range));
	if (range[0])
		snprintf(buf, len, " (allowed: %s)", range);
	else
		buf[0] = '\0';
	return buf;
}

static void apply_setting(struct run_opts *o, const config_setting_t *s, const struct suite_src *src,
			  struct errlist *errs)
{
	const char *key = config_setting_name(s);
	int line = (int)config_setting_source_line(s);
	const struct option_def *def = option_find(key);
	char hint[200];
	if (!def || strchr(key, '-')) {
		src_err(errs, src, line, "unknown key '%s'", key);
		return;
	}
	char err[256];
	if (config_setting_is_group(s)) {
		src_err(errs, src, line, "'%s' is a group { ... }; it takes %s", key,
			def->type == OPT_STRLIST || def->type == OPT_TASKS ? "a value or a list [ ... ]" : "a single value");
		return;
	}
	if (config_setting_is_aggregate(s)) {
		if (def->type != OPT_STRLIST && def->type != OPT_TASKS) {
			src_err(errs, src, line, "'%s' takes a single value", key);
			return;
		}
		struct strbuf joined = {0};
		strbuf_add(&joined, "", 0);
		option_clear(o, def); /* a list replaces, not extends */
		for (int i = 0; i < config_setting_length(s); i++) {
			const config_setting_t *el = config_setting_get_elem(s, (unsigned)i);
			char *v = scalar_text(el, def);
			if (!v) {
				src_err(errs, src, line, "'%s': element %d has the wrong type", key, i + 1);
				strbuf_free(&joined);
				return;
			}
			if (def->type == OPT_STRLIST && option_set(o, def, v, err, sizeof(err)) < 0)
				src_err(errs, src, line, "'%s': element %d: %s", key, i + 1, err);
			strbuf_addf(&joined, "%s%s", i ? "," : "", v);
			free(v);
		}
		if (def->type == OPT_STRLIST && config_setting_length(s) == 0)
			src_err(errs, src, line, "'%s' is an empty list", key);
		if (def->type == OPT_TASKS && option_set(o, def, joined.buf, err, sizeof(err)) < 0) {
			char *at = option_fault_at(def, joined.buf);
			src_err(errs, src, line, "'%s': %s%s%s", key, at, err, allowed(def, hint, sizeof(hint)));
			free(at);
		}
		strbuf_free(&joined);
		return;
	}
	char *v = scalar_text(s, def);
	if (!v) {
		src_err(errs, src, line, "'%s' has the wrong type", key);
		return;
	}
	option_clear(o, def);
	if (option_set(o, def, v, err, sizeof(err)) < 0) {
		char *shown = text_escape(v), *at = option_fault_at(def, v);
		src_err(errs, src, line, "'%s' = '%s': %s%s%s", key, shown, at, err, allowed(def, hint, sizeof(hint)));
		free(at);
		free(shown);
	}
	free(v);
}

/* A key that describes the suite rather than a run option: a string where one is allowed,
 * an error anywhere else, never silently ignored. */
static void check_meta(const config_setting_t *s, int top, const struct suite_src *src, struct errlist *errs)
{
	const char *key = config_setting_name(s);
	int line = (int)config_setting_source_line(s);
	if (strcmp(key, "workloads") == 0) {
		if (!top)
			src_err(errs, src, line, "'workloads' cannot be nested inside a workload");
		return; /* the top-level list is read by the caller */
	}
	char err[256];
	if (config_setting_type(s) != CONFIG_TYPE_STRING)
		src_err(errs, src, line, "'%s' must be a string", key);
	else if (strcmp(key, "name") == 0 && text_check(config_setting_get_string(s), err, sizeof(err)) < 0)
		src_err(errs, src, line, "'%s': %s", key, err); /* names reach tables and terminals */
}

/* Apply every option key of a group (the suite's top level or one workload). */
static void apply_group(struct run_opts *o, const config_setting_t *group, int top, const struct suite_src *src,
			struct errlist *errs)
{
	for (int i = 0; i < config_setting_length(group); i++) {
		const config_setting_t *s = config_setting_get_elem(group, (unsigned)i);
		if (is_meta(config_setting_name(s)))
			check_meta(s, top, src, errs);
		else
			apply_setting(o, s, src, errs);
	}
}

static void apply_overrides(struct run_opts *o, const struct overrides *ov)
{
	if (!ov)
		return;
	struct run_opts given;
	run_opts_copy(&given, &ov->opts);
	for (size_t i = 0; i < option_count; i++)
		if (overrides_given(ov, &option_table[i]))
			option_swap(o, &given, &option_table[i]);
	run_opts_free(&given); /* now holds the values the flags replaced */
}

/* Fill what nothing set: dirs, label, sizes from the workfile, mode threshold. */
static void finish_opts(struct run_opts *o, const struct workfile *wf)
{
	if (o->dirs.count == 0) {
		const char *tmp = getenv("TMPDIR");
		o->dirs.v = xcalloc(1, sizeof(char *));
		o->dirs.v[o->dirs.count++] = xstrdup(tmp && *tmp ? tmp : "/var/tmp");
	}
	if (!o->label) {
		struct utsname u;
		o->label = xstrdup(uname(&u) == 0 ? u.release : "unknown");
	}
	if (o->filesize_kib < 0)
		o->filesize_kib = wf->filesize_kib >= 0 ? wf->filesize_kib : 10;
	if (o->poolsize_kib < 0)
		o->poolsize_kib = wf->poolsize_kib >= 0 ? wf->poolsize_kib : 0;
	if (o->threshold <= 0)
		o->threshold = o->mode == MODE_QUICK ? 60.0 : o->mode == MODE_CROSSOVER ? 1.0 : 0.0;
	/* quick mode stops at --max-tasks: a suite's listed task counts beyond it are not run either (the
	 * first is kept, so a point is always measured); crossover runs its list whole, as classic did */
	if (o->mode == MODE_QUICK) {
		size_t k = 0;
		for (size_t i = 0; i < o->tasks.count; i++)
			if (i == 0 || o->tasks.n[i] <= o->max_tasks)
				o->tasks.n[k++] = o->tasks.n[i];
		o->tasks.count = k;
	}
}

/* Variants and --precision: rounds of a sweep, with variants named once each. */
static void check_rounds(const struct workload *w, const char *file, int line, struct errlist *errs)
{
	const struct run_opts *o = &w->opts;
	/* the other modes' points are one per task count: a load or variant there would run as the base */
	const char *sweep_only = o->variants.count ? "variants" : o->loads.count ? "--load" : o->precision > 0 ? "--precision" : NULL;
	if (sweep_only && o->mode != MODE_SWEEP)
		errlist_add(errs, file, line, "workload %s: %s go%s with --mode sweep only, not %s", w->name, sweep_only,
			    o->variants.count ? "" : "es", mode_names[o->mode]);
	if (o->variants.count > VARIANTS_MAX)
		errlist_add(errs, file, line, "workload %s: %zu variants, at most %d", w->name, o->variants.count,
			    VARIANTS_MAX);
	if (o->cpus.count && o->mode == MODE_SINGLE) /* single mode runs each test alone, never confined */
		errlist_add(errs, file, line, "workload %s: --cpus does not go with --mode single", w->name);
	for (size_t i = 0; i < o->variants.count; i++) {
		char a[VARIANT_NAME_MAX + 1], b[VARIANT_NAME_MAX + 1];
		const char *cmd;
		if (variant_split(o->variants.v[i], a, &cmd) < 0)
			continue; /* option_set refused it already */
		for (size_t k = 0; k < i; k++)
			if (variant_split(o->variants.v[k], b, &cmd) == 0 && strcmp(a, b) == 0)
				errlist_add(errs, file, line, "workload %s: variant '%s' is given twice", w->name, a);
	}
}

/* What every workload of a suite (or of the command line) starts from: the suite's own options,
 * its root setting (NULL on the command line), where its lines came from and the command line's
 * overrides. */
struct suite_base {
	const struct run_opts *opts;
	const config_setting_t *root;
	const struct suite_src *src;
	const struct overrides *ov;
};

static void add_workload(struct plan *p, const struct suite_base *sb, const char *name, const config_setting_t *group,
			 struct errlist *errs)
{
	const struct run_opts *base = sb->opts;
	const config_setting_t *root = sb->root;
	const struct suite_src *src = sb->src;
	const struct overrides *ov = sb->ov;
	struct workload w = {0};
	run_opts_copy(&w.opts, base);
	if (group)
		apply_group(&w.opts, group, 0, src, errs);
	apply_overrides(&w.opts, ov);
	if (!w.opts.workfile) {
		src_err(errs, src, group ? (int)config_setting_source_line(group) : 0, "no workfile given");
		run_opts_free(&w.opts);
		return;
	}
	const config_setting_t *where = group ? config_setting_get_member(group, "workfile") : NULL;
	if (!where && root)
		where = config_setting_get_member(root, "workfile");
	/* a workfile named in a suite (or a file it includes) is found relative to that file */
	const char *file = NULL;
	int line = 0;
	if (root && src->nfiles)
		src_at(src, where ? (int)config_setting_source_line(where) : 0, &file, &line);
	if (workfile_load(w.opts.workfile, file, line, &w.wf, errs) < 0) {
		workfile_free(&w.wf);
		run_opts_free(&w.opts);
		return;
	}
	w.name = xstrdup(name ? name : w.wf.name);
	finish_opts(&w.opts, &w.wf);
	check_rounds(&w, file, group ? (int)config_setting_source_line(group) : 0, errs);
	p->wl = xrealloc(p->wl, (p->nwl + 1) * sizeof(*p->wl));
	p->wl[p->nwl++] = w;
}

int suite_is_name(const char *word)
{
	if (!*word || strchr(word, '/') || strstr(word, ".cfg"))
		return 0;
	char *cfg = xasprintf("%s.cfg", word), *local = xasprintf("suites/%s", cfg), *data = NULL;
	int found = access(local, F_OK) == 0 || (data = find_data_file("suites", cfg)) != NULL;
	free(data);
	free(local);
	free(cfg);
	return found;
}

static char *resolve_suite(const char *suite)
{
	if (strchr(suite, '/'))
		return xstrdup(suite);
	char *cfg = xasprintf("%s.cfg", suite);
	char *p = NULL;
	if (access(cfg, F_OK) == 0 && strstr(suite, ".cfg"))
		p = xstrdup(suite);
	if (!p) {
		char *local = xasprintf("suites/%s", cfg);
		if (access(local, F_OK) == 0)
			p = local;
		else
			free(local);
	}
	if (!p)
		p = find_data_file("suites", cfg);
	if (!p && strstr(suite, ".cfg") && access(suite, F_OK) == 0)
		p = xstrdup(suite);
	free(cfg);
	return p ? p : xstrdup(suite);
}

/* Expand the suite's includes and parse it; on success the caller owns *cfg and *expanded. */
static int parse_suite(const char *path, const char *text, config_t *cfg, struct suite_src *src, char **expanded,
		       struct errlist *errs)
{
	memset(src, 0, sizeof(*src));
	src->files = xcalloc(1, sizeof(char *));
	src->files[src->nfiles++] = xstrdup(path);
	struct strbuf out = {0};
	strbuf_add(&out, "", 0);
	if (expand_text(src, 0, text, 0, &out, errs) < 0) {
		strbuf_free(&out);
		return -1;
	}
	config_init(cfg);
	if (config_read_string(cfg, out.buf) != CONFIG_TRUE) {
		src_err(errs, src, config_error_line(cfg), "%s", config_error_text(cfg));
		config_destroy(cfg);
		strbuf_free(&out);
		return -1;
	}
	*expanded = out.buf;
	return 0;
}

int plan_from_suite(const char *suite, const struct overrides *ov, struct plan *p, struct errlist *errs)
{
	memset(p, 0, sizeof(*p));
	char *path = resolve_suite(suite);
	char why[160];
	int why_line;
	char *text = read_input_file(path, INPUT_FILE_MAX, why, sizeof(why), &why_line);
	if (!text) {
		char hint[128] = "";
		if (why_line <= 0 && access(path, F_OK) != 0 && !strchr(suite, '/'))
			data_suggest("suites", ".cfg", 1, suite, hint, sizeof(hint));
		if (why_line > 0)
			errlist_add(errs, path, why_line, "%s", why);
		else
			errlist_add(errs, path, 0, "cannot read suite: %s%s", why, hint);
		free(path);
		return -1;
	}
	int rc = plan_from_suite_text(path, text, ov, p, errs);
	free(path);
	free(text);
	return rc;
}

int plan_from_suite_text(const char *path_in, const char *text_in, const struct overrides *ov, struct plan *p,
			 struct errlist *errs)
{
	memset(p, 0, sizeof(*p));
	size_t before = errs->count;
	config_t cfg;
	struct suite_src src;
	char *text;
	if (parse_suite(path_in, text_in, &cfg, &src, &text, errs) < 0) {
		src_free(&src);
		return -1;
	}
	char *path = xstrdup(path_in);
	const config_setting_t *root = config_root_setting(&cfg);
	const config_setting_t *name = config_setting_get_member(root, "name");
	if (name && config_setting_type(name) == CONFIG_TYPE_STRING) {
		p->suite_name = xstrdup(config_setting_get_string(name));
	} else {
		const char *base = strrchr(path, '/');
		base = base ? base + 1 : path;
		p->suite_name = xasprintf("%.*s", (int)strcspn(base, "."), base);
	}
	p->suite_path = path;
	p->suite_text = text; /* with its includes expanded, so the stored text is the whole suite */

	struct run_opts base;
	run_opts_defaults(&base);
	apply_group(&base, root, 1, &src, errs);
	const struct suite_base sb = {.opts = &base, .root = root, .src = &src, .ov = ov};
	const config_setting_t *wls = config_setting_get_member(root, "workloads");
	int cli_workfile = ov && overrides_given(ov, option_find("workfile"));
	if (wls && !cli_workfile) {
		if (!config_setting_is_list(wls) && !config_setting_is_array(wls)) {
			src_err(errs, &src, (int)config_setting_source_line(wls),
				"'workloads' must be a list of groups: ( { workfile = \"...\"; }, ... )");
		}
		for (int i = 0; i < config_setting_length(wls); i++) {
			const config_setting_t *g = config_setting_get_elem(wls, (unsigned)i);
			if (!config_setting_is_group(g)) {
				src_err(errs, &src, (int)config_setting_source_line(g), "each workload must be a group { ... }");
				continue;
			}
			const char *wname = NULL;
			config_setting_lookup_string(g, "name", &wname);
			add_workload(p, &sb, wname, g, errs);
		}
	} else {
		add_workload(p, &sb, NULL, NULL, errs);
	}
	run_opts_free(&base);
	config_destroy(&cfg);
	if (errs->count == before && p->nwl == 0)
		errlist_add(errs, path, 0, "no workloads");
	src_free(&src);
	return errs->count == before ? 0 : -1;
}

int plan_from_workfile(const char *wf, const struct overrides *ov, struct plan *p, struct errlist *errs)
{
	memset(p, 0, sizeof(*p));
	size_t before = errs->count;
	struct run_opts base;
	run_opts_defaults(&base);
	base.workfile = xstrdup(wf);
	struct suite_src cli = {0};
	char *where = xstrdup("command line");
	cli.files = &where;
	cli.nfiles = 1;
	const struct suite_base sb = {.opts = &base, .src = &cli, .ov = ov};
	add_workload(p, &sb, NULL, NULL, errs);
	free(where);
	run_opts_free(&base);
	if (p->nwl) {
		p->suite_name = xstrdup(p->wl[0].wf.name);
		p->suite_text = xstrdup("");
	}
	return errs->count == before ? 0 : -1;
}

/* One stored workload: defaults, then its options as stored, then the label asked for; its
 * workfile parsed from the stored text. */
static void add_stored(struct plan *p, const char *where, const struct stored_workload *w, const char *label,
		       struct errlist *errs)
{
	struct workload wl = {0};
	char *origin = xasprintf("%s, workload %s", where, w->name);
	run_opts_defaults(&wl.opts);
	for (size_t k = 0; k < w->nopts; k++) {
		const struct option_def *def = option_find(w->opts[k].key);
		char err[256];
		if (!def)
			errlist_add(errs, origin, 0, "option '%s' is not one this reaim knows", w->opts[k].key);
		else if (option_set(&wl.opts, def, w->opts[k].value, err, sizeof(err)) < 0)
			errlist_add(errs, origin, 0, "option %s = '%s': %s", def->key, w->opts[k].value, err);
	}
	free(origin);
	free(wl.opts.label);
	wl.opts.label = NULL;
	char err[256];
	if (label && option_set(&wl.opts, option_find("label"), label, err, sizeof(err)) < 0)
		errlist_add(errs, "--label", 0, "'%s': %s", label, err);
	char *wf_where = xasprintf("%s as stored with %s", w->workfile_name, where);
	int rc = workfile_parse(wf_where, w->workfile_text, &wl.wf, errs);
	free(wf_where);
	if (rc < 0) {
		workfile_free(&wl.wf);
		run_opts_free(&wl.opts);
		return;
	}
	free(wl.wf.name);
	wl.wf.name = xstrdup(w->workfile_name);
	wl.name = xstrdup(w->name);
	finish_opts(&wl.opts, &wl.wf);
	p->wl = xrealloc(p->wl, (p->nwl + 1) * sizeof(*p->wl));
	p->wl[p->nwl++] = wl;
}

int plan_from_stored(const struct stored_suite *run, struct plan *p, struct errlist *errs)
{
	memset(p, 0, sizeof(*p));
	size_t before = errs->count;
	p->suite_name = xstrdup(run->suite_name);
	p->suite_path = xstrdup(run->where);
	p->suite_text = xstrdup(run->suite_text);
	for (size_t i = 0; i < run->nwl; i++)
		add_stored(p, run->where, &run->wl[i], run->label, errs);
	if (errs->count == before && p->nwl == 0)
		errlist_add(errs, run->where, 0, "no workloads stored");
	return errs->count == before ? 0 : -1;
}

int suite_check(const char *path, struct errlist *errs)
{
	struct plan p;
	int rc = plan_from_suite(path, NULL, &p, errs);
	if (rc == 0)
		plan_notes(&p);
	plan_free(&p);
	return rc;
}

void plan_free(struct plan *p)
{
	for (size_t i = 0; i < p->nwl; i++) {
		free(p->wl[i].name);
		workfile_free(&p->wl[i].wf);
		run_opts_free(&p->wl[i].opts);
	}
	free(p->wl);
	free(p->suite_name);
	free(p->suite_path);
	free(p->suite_text);
	memset(p, 0, sizeof(*p));
}
