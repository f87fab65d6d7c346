/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The figure tables of store/figures.h as data, for the code that walks every figure. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "store/store.h"

#define GROUP_CORE STORE_FIG_CORE
#define GROUP_SYSTEM STORE_FIG_SYSTEM
#define PLOTS_PLOT 1
#define PLOTS_PLOT_UP 1
#define PLOTS_NOPLOT 0
#define ROW(s, name, type, unit, label, fmt, group, plot)                                                  \
	{#name, STORE_FIG_##type, offsetof(struct s, name), sizeof(((struct s *)0)->name), unit, label, fmt,  \
	 GROUP_##group, PLOTS_##plot},
#define POINT_ROW(...) ROW(store_point, __VA_ARGS__)
#define TEST_ROW(...) ROW(store_test, __VA_ARGS__)
#define SAMPLE_ROW(...) ROW(store_sample, __VA_ARGS__)

static const struct store_figure point_figures[] = {STORE_POINT_FIGURES(POINT_ROW)};
static const struct store_figure test_figures[] = {STORE_TEST_FIGURES(TEST_ROW)};
static const struct store_figure sample_figures[] = {STORE_SAMPLE_FIGURES(SAMPLE_ROW)};

#define TABLE(sql, a) {sql, a, sizeof(a) / sizeof((a)[0])}
const struct store_figure_table store_point_table = TABLE("points", point_figures);
const struct store_figure_table store_test_table = TABLE("test_stats", test_figures);
const struct store_figure_table store_sample_table = TABLE("samples", sample_figures);

const struct store_figure *store_figure_find(const struct store_figure_table *t, const char *name)
{
	for (size_t i = 0; i < t->count; i++)
		if (strcmp(t->fig[i].name, name) == 0)
			return &t->fig[i];
	return NULL;
}

const char *store_figure_sql_type(const struct store_figure *f)
{
	switch (f->type) {
	case STORE_FIG_REAL: return "REAL";
	case STORE_FIG_TEXT: return "TEXT";
	case STORE_FIG_INT:
	case STORE_FIG_I64:
	case STORE_FIG_BOOL: break;
	}
	return "INTEGER";
}

double store_figure_double(const struct store_figure *f, const void *row)
{
	double v;
	if (f->type != STORE_FIG_REAL)
		return NAN;
	memcpy(&v, (const char *)row + f->offset, sizeof(v));
	return v;
}

void store_point_from_sample(struct store_point *p, const struct store_sample *avg)
{
	for (size_t i = 0; i < store_sample_table.count; i++) {
		const struct store_figure *from = &store_sample_table.fig[i];
		const struct store_figure *to = store_figure_find(&store_point_table, from->name);
		if (to && to->group == STORE_FIG_SYSTEM && to->type == from->type && to->size == from->size)
			memcpy((char *)p + to->offset, (const char *)avg + from->offset, from->size);
	}
}
