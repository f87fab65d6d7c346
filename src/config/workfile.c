/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The classic workfile format, parsed strictly: "<weight> <test>" lines, '#' comments,
 * FILESIZE/POOLSIZE lines; also AIM9's s9workfile (bare test names) and LKP's hyphenated
 * names. Every problem in a file is reported in one pass. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "config/cfg.h"
#include "util/util.h"

void errlist_add(struct errlist *e, const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *msg = xvasprintf(fmt, ap);
	va_end(ap);
	e->msgs = xrealloc(e->msgs, (e->count + 1) * sizeof(*e->msgs));
	if (!file) /* never "(null)": a message without a file is about the command line */
		file = "command line";
	char *raw = line > 0 ? xasprintf("%s:%d: %s", file, line, msg) : xasprintf("%s: %s", file, msg);
	/* bytes from a broken file (or its name) must not reach the terminal raw */
	e->msgs[e->count++] = text_escape(raw);
	free(raw);
	free(msg);
}

void errlist_print(const struct errlist *e)
{
	for (size_t i = 0; i < e->count; i++)
		fprintf(stderr, "reaim: error: %s\n", e->msgs[i]);
}

void errlist_free(struct errlist *e)
{
	for (size_t i = 0; i < e->count; i++)
		free(e->msgs[i]);
	free(e->msgs);
	e->msgs = NULL;
	e->count = 0;
}

/* Up to three catalog names close to an unknown one, as ", did you mean a, b?". */
static void suggest(const char *name, char *out, size_t len)
{
	const struct test_def *best[3] = {0};
	size_t dist[3] = {SIZE_MAX, SIZE_MAX, SIZE_MAX};
	const struct test_def *t;
	for (size_t i = 0; (t = test_at(i)) != NULL; i++) {
		size_t d = edit_distance(name, t->name);
		for (int k = 0; k < 3; k++) {
			if (d < dist[k]) {
				for (int m = 2; m > k; m--) {
					dist[m] = dist[m - 1];
					best[m] = best[m - 1];
				}
				dist[k] = d;
				best[k] = t;
				break;
			}
		}
	}
	out[0] = '\0';
	size_t limit = strlen(name) / 2 + 2;
	for (int k = 0; k < 3 && best[k] && dist[k] <= limit; k++) {
		size_t used = strlen(out);
		snprintf(out + used, len - used, "%s%s", k ? ", " : "; did you mean ", best[k]->name);
	}
	if (out[0])
		strncat(out, "?", len - strlen(out) - 1);
}

/* FILESIZE / POOLSIZE lines: "FILESIZE: 10K", "FILESIZE 10k" or "FILESIZE=10K". */
static int size_line(char *word, char **rest, const char *path, int line, struct workfile *wf,
		     struct errlist *errs)
{
	long long *slot;
	size_t klen;
	if (strncasecmp(word, "FILESIZE", 8) == 0)
		slot = &wf->filesize_kib, klen = 8;
	else if (strncasecmp(word, "POOLSIZE", 8) == 0)
		slot = &wf->poolsize_kib, klen = 8;
	else
		return 0;
	char *val = word + klen;
	if (*val == ':' || *val == '=')
		val++;
	if (!*val)
		val = next_word(rest);
	if (val && (*val == ':' || *val == '=') && !val[1])
		val = next_word(rest);
	long long kib;
	/* the same bound as the option that overrides it */
	const struct option_def *def = option_find(slot == &wf->filesize_kib ? "filesize" : "poolsize");
	if (!val || parse_kib(val, &kib) < 0)
		errlist_add(errs, path, line, "bad %.8s value '%s' (expected a size like 10K, 5M or 1G)",
			    word, val ? val : "");
	else if (kib > def->max)
		errlist_add(errs, path, line, "%.8s %s is too large (at most %lldG)", word, val, def->max >> 20);
	else if (*slot >= 0)
		errlist_add(errs, path, line, "%.8s given twice", word);
	else
		*slot = kib;
	char *extra = next_word(rest);
	if (extra)
		errlist_add(errs, path, line, "unexpected '%s' after %.8s", extra, word);
	return 1;
}

/* A test by its catalog name, or by LKP's spelling of it (creat-clo for creat_clo). */
static const struct test_def *find_test(const char *name)
{
	const struct test_def *t = test_find(name);
	if (t || !strchr(name, '-'))
		return t;
	char *underscored = xstrdup(name);
	for (char *c = underscored; *c; c++)
		*c = *c == '-' ? '_' : *c;
	t = test_find(underscored);
	free(underscored);
	return t;
}

/* A word that could be a test name: a letter, then letters, digits, '_' or '-'. */
static int looks_like_name(const char *w)
{
	if (!isalpha((unsigned char)*w))
		return 0;
	for (; *w; w++)
		if (!isalnum((unsigned char)*w) && *w != '_' && *w != '-')
			return 0;
	return 1;
}

/* How the file names its tests: "<weight> <test>" lines, or AIM9's bare names. */
enum wf_form { FORM_UNKNOWN, FORM_WEIGHTED, FORM_BARE };

/* Per-parse state beyond the workfile itself. */
struct wf_parse {
	const char *path;
	enum wf_form form;
	int form_line;        /* the first line that set the form */
	struct strbuf merged; /* the tests listed twice, for the one note */
};

/* Add weight w of test t found at line; a test listed again gets the weights added. */
static void add_entry(struct wf_parse *ps, const struct test_def *t, long long w, int line, struct workfile *wf,
		      struct errlist *errs)
{
	for (size_t i = 0; i < wf->count; i++) {
		struct wf_entry *e = &wf->entries[i];
		if (e->test != t)
			continue;
		if (e->weight + w > 1000000000LL) {
			errlist_add(errs, ps->path, line, "weight of %s too large once added to line %d's", t->name,
				    e->line);
			return;
		}
		strbuf_addf(&ps->merged, "%s%s (lines %d and %d: %d + %lld)", ps->merged.len ? ", " : "", t->name,
			    e->line, line, e->weight, w);
		e->weight += (int)w;
		return;
	}
	wf->entries = xrealloc(wf->entries, (wf->count + 1) * sizeof(*wf->entries));
	wf->entries[wf->count++] = (struct wf_entry){t, (int)w, line};
}

/* A weighted and a bare-name line in one file: the file cannot mean both. */
static int same_form(struct wf_parse *ps, enum wf_form form, int line, struct errlist *errs)
{
	if (ps->form == FORM_UNKNOWN) {
		ps->form = form;
		ps->form_line = line;
	}
	if (ps->form == form)
		return 1;
	errlist_add(errs, ps->path, line, "%s, but line %d %s (an AIM9 s9workfile lists bare test names only)",
		    form == FORM_BARE ? "a test name without a weight" : "a weighted test", ps->form_line,
		    ps->form == FORM_BARE ? "lists a bare name" : "gives a weight");
	return 0;
}

/* An unknown test, with the closest catalog names. */
static void unknown_test(const char *path, int line, const char *name, struct errlist *errs)
{
	char hint[128];
	suggest(name, hint, sizeof(hint));
	errlist_add(errs, path, line, "unknown test '%s'%s", name, hint);
}

static void entry_line(struct wf_parse *ps, char *weight, char **rest, int line, struct workfile *wf,
		       struct errlist *errs)
{
	const char *path = ps->path;
	char *name = next_word(rest);
	long long w;
	if (!name) {
		/* one word: an s9workfile's bare test name (weight 1), or a weight missing its test */
		const struct test_def *bare = find_test(weight);
		if (!bare && !looks_like_name(weight)) {
			errlist_add(errs, path, line, "expected '<weight> <test>', got '%s'", weight);
			return;
		}
		if (!bare) {
			unknown_test(path, line, weight, errs);
			return;
		}
		if (same_form(ps, FORM_BARE, line, errs))
			add_entry(ps, bare, 1, line, wf, errs);
		return;
	}
	if (parse_long(weight, -1000000000LL, 1000000000LL, &w) < 0) {
		errlist_add(errs, path, line, "bad weight '%s' (expected a whole number)", weight);
		return;
	}
	if (w <= 0) {
		errlist_add(errs, path, line, "weight of %s must be positive, got %lld", name, w);
		return;
	}
	char *extra = next_word(rest);
	if (extra) {
		errlist_add(errs, path, line, "unexpected '%s' after test name", extra);
		return;
	}
	const struct test_def *t = find_test(name);
	if (!t) {
		unknown_test(path, line, name, errs);
		return;
	}
	if (same_form(ps, FORM_WEIGHTED, line, errs))
		add_entry(ps, t, w, line, wf, errs);
}

static char *short_name(const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	if (strncmp(base, "workfile.", 9) == 0 && base[9])
		base += 9;
	return xstrdup(base);
}

int workfile_parse(const char *path, const char *text, struct workfile *wf, struct errlist *errs)
{
	size_t before = errs->count;
	memset(wf, 0, sizeof(*wf));
	wf->path = xstrdup(path);
	wf->name = short_name(path);
	wf->text = xstrdup(text);
	wf->filesize_kib = wf->poolsize_kib = -1;

	struct wf_parse ps = {.path = path};
	strbuf_add(&ps.merged, "", 0);
	char *copy = xstrdup(text);
	char *save = copy;
	int line = 0;
	for (char *ln = copy; ln; ln = save) {
		char *nl = strchr(ln, '\n');
		save = nl ? nl + 1 : NULL;
		if (nl)
			*nl = '\0';
		line++;
		char *hash = strchr(ln, '#');
		if (hash)
			*hash = '\0';
		ln[strcspn(ln, "\r")] = '\0'; /* files edited on other systems */
		char *rest = ln;
		char *word = next_word(&rest);
		if (!word)
			continue;
		if (!size_line(word, &rest, path, line, wf, errs))
			entry_line(&ps, word, &rest, line, wf, errs);
	}
	free(copy);
	if (wf->count == 0 && errs->count == before)
		errlist_add(errs, path, 0, "no tests listed");
	if (wf->count > UINT16_MAX)
		errlist_add(errs, path, 0, "too many tests");
	/* classic's alltests lists string_rtns twice: kept to be said once a run (plan_notes) */
	if (ps.merged.len && errs->count == before)
		wf->merged = xstrdup(ps.merged.buf);
	strbuf_free(&ps.merged);
	return errs->count == before ? 0 : -1;
}

/* A workfile named in a suite: a path is relative to the suite's directory; a bare name is
 * looked for beside the suite, in ../workfiles from it, then in the data dirs. */
static char *resolve_workfile(const char *name, const char *relative_to)
{
	const char *slash = relative_to ? strrchr(relative_to, '/') : NULL;
	int dir_len = slash ? (int)(slash - relative_to) : 0;
	if (name[0] == '/' || !slash)
		return strchr(name, '/') || access(name, F_OK) == 0 ? xstrdup(name) : NULL;
	char *p = xasprintf("%.*s/%s", dir_len, relative_to, name);
	if (strchr(name, '/') || access(p, F_OK) == 0)
		return p;
	free(p);
	p = xasprintf("%.*s/../workfiles/%s", dir_len, relative_to, name);
	if (access(p, F_OK) == 0)
		return p;
	free(p);
	return NULL;
}

int workfile_load(const char *name_or_path, const char *relative_to, int line, struct workfile *wf,
		  struct errlist *errs)
{
	memset(wf, 0, sizeof(*wf));
	char *path = resolve_workfile(name_or_path, relative_to);
	if (!path && !strchr(name_or_path, '/')) {
		/* "dbase", or classic's file name for it, "workfile.dbase" (LKP passes that) */
		const char *bare = strncmp(name_or_path, "workfile.", 9) == 0 && name_or_path[9] ? name_or_path + 9
												  : name_or_path;
		char *classic = xasprintf("workfile.%s", bare);
		path = find_data_file("workfiles", bare);
		if (!path)
			path = find_data_file("workfiles", classic);
		free(classic);
	}
	if (!path)
		path = xstrdup(name_or_path);
	char why[160];
	int why_line;
	char *text = read_input_file(path, INPUT_FILE_MAX, why, sizeof(why), &why_line);
	char hint[128] = "";
	if (!text && why_line <= 0 && access(path, F_OK) != 0 && !strchr(name_or_path, '/'))
		data_suggest("workfiles", NULL, 0, name_or_path, hint, sizeof(hint));
	if (!text && why_line > 0) {
		errlist_add(errs, path, why_line, "%s", why);
		free(path);
		return -1;
	}
	if (!text && relative_to && line > 0) {
		errlist_add(errs, relative_to, line, "cannot read workfile '%s': %s%s", name_or_path, why, hint);
		free(path);
		return -1;
	}
	if (!text) {
		errlist_add(errs, path, 0, "cannot read workfile: %s%s", why, hint);
		free(path);
		return -1;
	}
	int rc = workfile_parse(path, text, wf, errs);
	free(text);
	free(path);
	return rc;
}

unsigned workfile_flags(const struct workfile *wf)
{
	unsigned f = 0;
	for (size_t i = 0; i < wf->count; i++)
		f |= wf->entries[i].test->flags;
	return f;
}

void workfile_note(const struct workfile *wf)
{
	if (wf->merged)
		log_info("%s: note: listed twice, weights added: %s", wf->path, wf->merged);
}

void workfile_free(struct workfile *wf)
{
	free(wf->merged);
	free(wf->path);
	free(wf->name);
	free(wf->text);
	free(wf->entries);
	memset(wf, 0, sizeof(*wf));
}
