/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The ledger of a lab comparison: a text file of the jobs it submitted and what became of each, one
 * line per change appended and synced, so a comparison stopped at any moment resumes without
 * submitting a job twice. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab/lab.h"
#include "util/util.h"

#define LEDGER_HEAD "# reaim lab: the jobs of one comparison, one line per change (read back to resume)"
/* A ledger holds a few lines per job. */
#define LEDGER_MAX (4 << 20)

static const char *const state_names[] = {
	[LAB_PLANNED] = "planned", [LAB_SUBMITTED] = "submitted", [LAB_MERGED] = "merged", [LAB_FAILED] = "failed"};

const char *lab_state_name(enum lab_job_state s)
{
	return state_names[s];
}

static int state_of(const char *w)
{
	for (size_t i = 0; i < ARRAY_SIZE(state_names); i++)
		if (strcmp(w, state_names[i]) == 0)
			return (int)i;
	return -1;
}

/* Append text to the ledger and sync it; 0 or -1 with err. */
static int append(const char *path, const char *text, int create, char *err, size_t errlen)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW | (create ? O_CREAT | O_EXCL : 0), 0644);
	if (fd < 0) {
		set_err(err, errlen, "cannot %s %s: %s", create ? "make" : "write", path, strerror(errno));
		return -1;
	}
	size_t len = strlen(text);
	ssize_t w = write(fd, text, len);
	int rc = w == (ssize_t)len && fsync(fd) == 0 ? 0 : -1;
	if (rc < 0)
		set_err(err, errlen, "cannot write %s: %s", path, w < 0 || w == (ssize_t)len ? strerror(errno) : "short write");
	if (close(fd) != 0 && rc == 0) {
		set_err(err, errlen, "cannot write %s: %s", path, strerror(errno));
		rc = -1;
	}
	return rc;
}

/* One "slot N STATE ATTEMPT JOB DEVICE NOTE" line into l; 0 or -1. */
static int read_slot(struct lab_ledger *l, char *line)
{
	char *p = line, *w[6];
	for (size_t i = 0; i < ARRAY_SIZE(w); i++)
		if (!(w[i] = next_word(&p)))
			return -1;
	long long slot, attempt, job;
	int st = state_of(w[2]);
	if (strcmp(w[0], "slot") != 0 || parse_long(w[1], 0, (long long)l->n - 1, &slot) != 0 || st < 0 ||
	    parse_long(w[3], 1, 2, &attempt) != 0 || parse_long(w[4], 0, INT64_MAX, &job) != 0)
		return -1;
	struct lab_entry *e = &l->e[slot];
	e->state = (enum lab_job_state)st;
	e->attempt = (int)attempt;
	e->job = job;
	text_copy(e->device, sizeof(e->device), strcmp(w[5], "-") == 0 ? "" : w[5]);
	while (*p == ' ')
		p++;
	text_copy(e->note, sizeof(e->note), p);
	return 0;
}

/* The entries of an existing ledger; 0, -1 with err naming its line, -2 for another plan's ledger. */
static int read_back(struct lab_ledger *l, const char *text, char *err, size_t errlen)
{
	char *copy = xstrdup(text), *save = NULL;
	int rc = 0;
	size_t lineno = 0;
	for (char *line = strtok_r(copy, "\n", &save); line && rc == 0; line = strtok_r(NULL, "\n", &save)) {
		lineno++;
		if (lineno == 1 && strcmp(line, LEDGER_HEAD) != 0) {
			set_err(err, errlen, "%s:1: not a reaim lab ledger (give another --ledger, or move this file away)",
				l->path);
			rc = -1;
		} else if (lineno == 2) {
			if (strncmp(line, "plan ", 5) != 0 || strcmp(line + 5, l->plan) != 0) {
				set_err(err, errlen, "%s:2: the ledger of another comparison (other kernels, devices, boots, "
					"root or run words): give another --ledger, or the same words as then", l->path);
				rc = -2;
			}
		} else if (lineno > 2 && read_slot(l, line) < 0) {
			set_err(err, errlen, "%s:%zu: not a line of the ledger", l->path, lineno);
			rc = -1;
		}
	}
	if (rc == 0 && lineno < 2) {
		set_err(err, errlen, "%s: a ledger cut short (no plan line)", l->path);
		rc = -1;
	}
	free(copy);
	return rc;
}

int lab_ledger_open(struct lab_ledger *l, const char *path, const char *plan, size_t n, char *err, size_t errlen)
{
	memset(l, 0, sizeof(*l));
	l->path = xstrdup(path);
	l->plan = xstrdup(plan);
	l->n = n;
	l->e = xcalloc(n ? n : 1, sizeof(*l->e));
	for (size_t i = 0; i < n; i++)
		l->e[i].attempt = 1;
	if (access(path, F_OK) != 0 && errno == ENOENT) {
		char *head = xasprintf("%s\nplan %s\n", LEDGER_HEAD, plan);
		int rc = append(path, head, 1, err, errlen);
		free(head);
		return rc;
	}
	int line = 0;
	char why[256];
	char *text = read_input_file(path, LEDGER_MAX, why, sizeof(why), &line);
	if (!text) {
		set_err(err, errlen, "%s: %s", path, why);
		return -1;
	}
	int rc = read_back(l, text, err, errlen);
	free(text);
	return rc;
}

int lab_ledger_put(struct lab_ledger *l, size_t slot, const struct lab_entry *e, char *err, size_t errlen)
{
	char note[sizeof(e->note)];
	size_t j = 0;
	for (const char *p = e->note; *p && j + 1 < sizeof(note); p++)
		note[j++] = (unsigned char)*p < ' ' ? ' ' : *p; /* one line */
	note[j] = '\0';
	char *line = xasprintf("slot %zu %s %d %" PRId64 " %s %s\n", slot, lab_state_name(e->state), e->attempt, e->job,
			       e->device[0] ? e->device : "-", note);
	int rc = append(l->path, line, 0, err, errlen);
	free(line);
	if (rc == 0)
		l->e[slot] = *e;
	return rc;
}

void lab_ledger_free(struct lab_ledger *l)
{
	free(l->path);
	free(l->plan);
	free(l->e);
	memset(l, 0, sizeof(*l));
}
