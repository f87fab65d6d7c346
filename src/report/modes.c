/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `reaim list --modes`: the stored runs' best Jobs/Min per mode side by side, a row per label, workload
 * and variant, as OSDL's STP posts listed each kernel and I/O scheduler's Peak Load beside its Quick
 * Convergence with the runs' ids. Each best is the highest mean over the rounds of a task count of the
 * curves curves_load reads, the figure `list` shows a run by. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/curves.h"
#include "report/report.h"
#include "util/util.h"

/* The columns, in the order a mode is run to find the peak. */
static const struct {
	const char *mode, *head;
} mode_cols[] = {
	{"sweep", "Sweep"}, {"crossover", "Crossover"}, {"peak", "Peak Load"}, {"quick", "Quick Convergence"},
};

struct mode_row {
	char label[128], workload[64], variant[64];
	char runs[96];            /* the runs' ids, oldest first */
	double best[ARRAY_SIZE(mode_cols)];
};

static size_t row_of(struct mode_row **rows, size_t *n, const char *label, const struct curve *c)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*rows)[i].label, label) && !strcmp((*rows)[i].workload, c->workload) &&
		    !strcmp((*rows)[i].variant, c->variant))
			return i;
	*rows = xrealloc(*rows, (*n + 1) * sizeof(**rows));
	struct mode_row *r = &(*rows)[*n];
	memset(r, 0, sizeof(*r));
	snprintf(r->label, sizeof(r->label), "%s", label);
	snprintf(r->workload, sizeof(r->workload), "%s", c->workload);
	snprintf(r->variant, sizeof(r->variant), "%s", c->variant);
	for (size_t k = 0; k < ARRAY_SIZE(mode_cols); k++)
		r->best[k] = NAN;
	return (*n)++;
}

/* One run's curves into the rows: each curve's best mean in its mode's column, the run's id once a row. */
static int add_run(struct store *st, const struct store_run_row *run, struct mode_row **rows, size_t *n)
{
	size_t mode = 0;
	while (mode < ARRAY_SIZE(mode_cols) && strcmp(mode_cols[mode].mode, run->mode) != 0)
		mode++;
	struct curve *c;
	size_t nc;
	if (mode == ARRAY_SIZE(mode_cols))
		return 0; /* a mode no column shows */
	if (curves_load(st, run->id, &c, &nc) < 0)
		return -1;
	for (size_t i = 0; i < nc; i++) {
		size_t at = row_of(rows, n, run->label, &c[i]); /* before *rows is read: it may move */
		struct mode_row *r = &(*rows)[at];
		for (size_t p = 0; p < c[i].count; p++)
			if (!(r->best[mode] >= c[i].points[p].jpm.mean))
				r->best[mode] = c[i].points[p].jpm.mean;
		char id[24];
		snprintf(id, sizeof(id), "%lld", (long long)run->id);
		if (!strstr(r->runs, id) && strlen(r->runs) + strlen(id) + 2 < sizeof(r->runs))
			strcat(strcat(r->runs, r->runs[0] ? "," : ""), id);
	}
	curves_free(c, nc);
	return 0;
}

/* A text column's width: its head's, or its widest entry's (escaped). */
static int text_col(const struct mode_row *rows, size_t n, size_t offset, const char *head)
{
	int w = (int)strlen(head);
	for (size_t i = 0; i < n; i++) {
		char shown[200];
		text_copy(shown, sizeof(shown), (const char *)&rows[i] + offset);
		w = (int)strlen(shown) > w ? (int)strlen(shown) : w;
	}
	return w;
}

/* A mode's column: its head, or a Jobs/Min of 9 characters (1234567.8). */
static int value_width(size_t k)
{
	return strlen(mode_cols[k].head) > 9 ? (int)strlen(mode_cols[k].head) : 9;
}

static void put_rows(FILE *f, const struct mode_row *rows, size_t n)
{
	int used[ARRAY_SIZE(mode_cols)] = {0}, variants = 0, workloads = 0;
	for (size_t i = 0; i < n; i++) {
		variants |= rows[i].variant[0] != 0;
		workloads |= strcmp(rows[i].workload, rows[0].workload) != 0;
		for (size_t k = 0; k < ARRAY_SIZE(mode_cols); k++)
			used[k] |= isfinite(rows[i].best[k]);
	}
	int wl = text_col(rows, n, offsetof(struct mode_row, label), "Label");
	int ww = text_col(rows, n, offsetof(struct mode_row, workload), "Workload");
	int wv = text_col(rows, n, offsetof(struct mode_row, variant), "Variant");
	int wr = text_col(rows, n, offsetof(struct mode_row, runs), "Runs");
	fprintf(f, "Best Jobs/Min per mode\n%-*s", wl, "Label");
	if (workloads)
		fprintf(f, " %-*s", ww, "Workload");
	if (variants)
		fprintf(f, " %-*s", wv, "Variant");
	fprintf(f, " %*s", wr, "Runs");
	for (size_t k = 0; k < ARRAY_SIZE(mode_cols); k++)
		if (used[k])
			fprintf(f, " %*s", value_width(k), mode_cols[k].head);
	fputc('\n', f);
	for (size_t i = 0; i < n; i++) {
		char shown[200];
		text_copy(shown, sizeof(shown), rows[i].label);
		/* a label repeated on the rows under it is left blank, as the posts group the schedulers */
		fprintf(f, "%-*s", wl, i && !strcmp(rows[i].label, rows[i - 1].label) ? "" : shown);
		if (workloads) {
			text_copy(shown, sizeof(shown), rows[i].workload);
			fprintf(f, " %-*s", ww, shown);
		}
		if (variants) {
			text_copy(shown, sizeof(shown), rows[i].variant[0] ? rows[i].variant : "-");
			fprintf(f, " %-*s", wv, shown);
		}
		fprintf(f, " %*s", wr, rows[i].runs);
		for (size_t k = 0; k < ARRAY_SIZE(mode_cols); k++) {
			char v[32];
			snprintf(v, sizeof(v), isfinite(rows[i].best[k]) ? "%.1f" : "-", rows[i].best[k]);
			if (used[k])
				fprintf(f, " %*s", value_width(k), v);
		}
		fputc('\n', f);
	}
}

int report_list_modes(FILE *f, struct store *st, const struct run_filter *filter)
{
	struct store_run_row *runs;
	size_t nruns, n = 0;
	struct mode_row *rows = NULL;
	if (store_list_runs(st, filter, &runs, &nruns) < 0)
		return -1;
	int rc = 0;
	for (size_t i = nruns; i-- > 0 && rc == 0;) /* oldest first: the rows in the order the kernels ran */
		rc = add_run(st, &runs[i], &rows, &n);
	if (rc == 0 && n)
		put_rows(f, rows, n);
	free(rows);
	free(runs);
	return rc;
}
