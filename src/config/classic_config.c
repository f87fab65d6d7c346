/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Classic re-aim-7's reaim.config: "KEY value" lines (FILESIZE, POOLSIZE, DISKDIR and the run
 * counts), parsed strictly with every problem named by file and line. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config/classic_inputs.h"
#include "util/util.h"

enum cc_kind { CC_SIZE, CC_DIR, CC_COUNT, CC_SWITCH };

/* The keys classic read_config_file knew, each with where its value goes. */
struct cc_key {
	const char *name;
	enum cc_kind kind;
	size_t offset; /* into struct classic_config */
};

#define CC_OFF(f) offsetof(struct classic_config, f)
static const struct cc_key cc_keys[] = {
	{"FILESIZE", CC_SIZE, CC_OFF(filesize_kib)},    {"POOLSIZE", CC_SIZE, CC_OFF(poolsize_kib)},
	{"DISKDIR", CC_DIR, CC_OFF(dirs)},              {"STARTUSERS", CC_COUNT, CC_OFF(start_users)},
	{"ENDUSERS", CC_COUNT, CC_OFF(end_users)},      {"INCREMENT", CC_COUNT, CC_OFF(increment)},
	{"JOBS", CC_COUNT, CC_OFF(jobs)},               {"CROSSOVER", CC_SWITCH, CC_OFF(crossover)},
	{"VERBOSE", CC_SWITCH, CC_OFF(verbose)},        {"BRIEF", CC_SWITCH, CC_OFF(brief)},
};

/* Classic sizes carry their unit: <n>K or <n>M (G too). */
static int parse_unit_size(const char *v, long long *kib)
{
	size_t n = strlen(v);
	if (n < 2 || !strchr("kKmMgG", v[n - 1]))
		return -1;
	return parse_kib(v, kib);
}

/* One "KEY value" line into c. */
static void cc_line(const char *path, int line, char *key, char *rest, struct classic_config *c,
		    struct errlist *errs)
{
	size_t klen = strlen(key);
	if (klen > 1 && key[klen - 1] == ':')
		key[--klen] = '\0'; /* "FILESIZE: 10K", as workfiles write it */
	const struct cc_key *k = NULL;
	for (size_t i = 0; i < ARRAY_SIZE(cc_keys); i++)
		if (strcasecmp(key, cc_keys[i].name) == 0)
			k = &cc_keys[i];
	if (!k) {
		errlist_add(errs, path, line, "unknown key '%s' (a reaim.config knows FILESIZE, POOLSIZE, DISKDIR, "
			    "STARTUSERS, ENDUSERS, INCREMENT, JOBS, CROSSOVER, VERBOSE and BRIEF)", key);
		return;
	}
	char *val = next_word(&rest);
	char *extra = val ? next_word(&rest) : NULL;
	if (!val) {
		errlist_add(errs, path, line, "%s needs a value", k->name);
		return;
	}
	if (extra) {
		errlist_add(errs, path, line, "unexpected '%s' after %s %s", extra, k->name, val);
		return;
	}
	void *slot = (char *)c + k->offset;
	long long v;
	switch (k->kind) {
	case CC_SIZE:
		if (parse_unit_size(val, &v) < 0)
			errlist_add(errs, path, line, "bad %s '%s' (expected a size with its unit, like 10K or 1M)",
				    k->name, val);
		else
			*(long long *)slot = v;
		return;
	case CC_DIR:
		if (c->dirs.count == 0 && strcmp(val, "OFF") == 0)
			c->dirs_off = 1; /* classic: a first DISKDIR of OFF turns them all off */
		c->dirs.v = xrealloc(c->dirs.v, (c->dirs.count + 1) * sizeof(char *));
		c->dirs.v[c->dirs.count++] = xstrdup(val);
		return;
	case CC_COUNT:
		if (parse_long(val, 1, 100000, &v) < 0)
			errlist_add(errs, path, line, "bad %s '%s' (expected a whole number from 1 to 100000)", k->name,
				    val);
		else
			*(long long *)slot = v;
		return;
	case CC_SWITCH:
		if (parse_long(val, -1000000000LL, 1000000000LL, &v) < 0)
			errlist_add(errs, path, line, "bad %s '%s' (expected 1 for on, another number for off)", k->name,
				    val);
		else
			*(int *)slot = v == 1;
		return;
	}
}

int classic_config_parse(const char *path, const char *text, struct classic_config *c, struct errlist *errs)
{
	size_t before = errs->count;
	memset(c, 0, sizeof(*c));
	c->filesize_kib = c->poolsize_kib = -1;
	c->start_users = c->end_users = c->increment = c->jobs = -1;
	c->crossover = c->verbose = c->brief = -1;
	char *copy = xstrdup(text);
	int line = 0;
	for (char *ln = copy, *next; ln; ln = next) {
		char *nl = strchr(ln, '\n');
		next = nl ? nl + 1 : NULL;
		if (nl)
			*nl = '\0';
		line++;
		ln[strcspn(ln, "\r")] = '\0';
		/* a comment: the line from '#' at its start or after a blank */
		for (char *h = strchr(ln, '#'); h; h = strchr(h + 1, '#'))
			if (h == ln || isspace((unsigned char)h[-1])) {
				*h = '\0';
				break;
			}
		char *rest = ln;
		char *key = next_word(&rest);
		if (key)
			cc_line(path, line, key, rest, c, errs);
	}
	free(copy);
	if (c->dirs_off)
		str_list_free(&c->dirs);
	return errs->count == before ? 0 : -1;
}

int classic_config_load(const char *path, struct classic_config *c, struct errlist *errs)
{
	char why[256];
	int line;
	char *text = read_input_file(path, 1 << 20, why, sizeof(why), &line);
	if (!text) {
		memset(c, 0, sizeof(*c));
		errlist_add(errs, path, line, "cannot read the config file: %s", why);
		return -1;
	}
	int rc = classic_config_parse(path, text, c, errs);
	free(text);
	return rc;
}

void classic_config_free(struct classic_config *c)
{
	str_list_free(&c->dirs);
}
