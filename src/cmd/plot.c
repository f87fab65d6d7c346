/* `reaim plot`: curves of runs (or one run's system time series) as a picture file. */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "report/plot.h"
#include "report/report.h"
#include "store/store.h"
#include "util/util.h"

struct plot_args {
	const char *db, *format, *workload, *osync, *title, *output, *metric;
	int diff, timeline;
	struct cli_list runs;
};

/* A picture format: its name, one line of help, and how it writes the curves to `out`. */
struct plot_format {
	const char *name, *help;
	int (*write)(const char *out, const struct curve *curves, size_t n, const struct plot_options *po);
};

static int write_svg(const char *out, const struct curve *curves, size_t n, const struct plot_options *po)
{
	FILE *f = fopen(out, "w");
	int rc = f && plot_svg(f, curves, n, po) == 0 ? 0 : -1;
	if (f && fclose(f) != 0)
		rc = -1;
	if (rc < 0)
		log_error("writing %s: %s", out, strerror(errno));
	return rc;
}

static int write_gnuplot(const char *out, const struct curve *curves, size_t n, const struct plot_options *po)
{
	char *data = xasprintf("%s.dat", out), *script = xasprintf("%s.gp", out), *image = xasprintf("%s.svg", out);
	FILE *fd = fopen(data, "w"), *fs = fopen(script, "w");
	const char *base = strrchr(data, '/');
	int rc = fd && fs && plot_gnuplot(fd, fs, base ? base + 1 : data, image, curves, n, po) == 0 ? 0 : -1;
	if ((fd && fclose(fd) != 0) || (fs && fclose(fs) != 0))
		rc = -1;
	if (rc < 0)
		log_error("writing %s and %s: %s", data, script, strerror(errno));
	else
		printf("wrote %s and %s (run: gnuplot %s)\n", data, script, script);
	free(data);
	free(script);
	free(image);
	return rc;
}

static const struct plot_format plot_formats[] = {
	{"svg", "a self-contained SVG file", write_svg},
	{"gnuplot", "FILE.dat and a script FILE.gp that draws FILE.svg", write_gnuplot},
	{NULL, NULL, NULL},
};

CLI_CHOICES_FROM(plot_format_at, plot_formats)

static int metric_at(const struct cli_opt *o, size_t i, const char **name, const char **help)
{
	(void)o;
	*name = metric_list()[i].name;
	*help = metric_list()[i].label;
	return *name != NULL;
}

static const char *const osync_choices[] = {"on", "off", NULL};

const struct cli_opt cmd_plot_opts[] = {
	CLI_OPT_OPERANDS("RUN", struct plot_args, runs, 1, -1,
			 "runs by id, last, last~N or label; with --timeline, the first one's points",
			 .complete = CLI_COMPLETE_RUN),
	CLI_OPT_STRING('o', "output", "FILE", struct plot_args, output, "the file to write",
		       .flags = CLI_REQUIRED, .complete = CLI_COMPLETE_FILE),
	CLI_OPT_CHOICE(0, "format", "FORMAT", struct plot_args, format, plot_format_at, "svg", "what to write:"),
	CLI_OPT_CHOICE(0, "metric", "NAME", struct plot_args, metric, metric_at, NULL,
		       "the figure to plot (default jobs_per_min; sys_pct with --timeline):"),
	CLI_OPT_FLAG(0, "diff", struct plot_args, diff, "add a panel: each run's % difference from the first"),
	CLI_OPT_STRING(0, "workload", "NAME", struct plot_args, workload,
		       "the workload to draw (default: the first run's first)"),
	CLI_OPT_CHOICE(0, "osync", "on|off", struct plot_args, osync, cli_choices_from_names, NULL,
		       "the O_SYNC setting to draw (default: the first run's first)", .data = osync_choices),
	CLI_OPT_STRING(0, "title", "TEXT", struct plot_args, title, "the picture's title"),
	CLI_OPT_FLAG(0, "timeline", struct plot_args, timeline,
		     "a sampled figure against seconds into each point of the first run, one line per point"),
	CMD_OPT_DB(struct plot_args),
	CLI_OPT_END,
};

/* The curves of one run matching a workload and O_SYNC choice (the first curve's when unset): one
 * per variant, never averaged together. Moved to the end of out; how many. */
static size_t pick_curves(struct curve *cs, size_t n, const char *workload, int osync, struct curve **out,
			  size_t *nout)
{
	size_t picked = 0;
	for (size_t i = 0; i < n; i++) {
		if ((workload && strcmp(cs[i].workload, workload) != 0) || (osync >= 0 && cs[i].osync != osync))
			continue;
		workload = cs[i].workload;
		osync = cs[i].osync;
		*out = xrealloc(*out, (*nout + 1) * sizeof(**out));
		(*out)[(*nout)++] = cs[i];
		cs[i].points = NULL; /* moved */
		cs[i].count = 0;
		picked++;
	}
	return picked;
}

/* `plot --timeline`: the first run's points (one workload and O_SYNC setting), a sampled
 * metric against seconds into each point. */
static enum outcome plot_timeline(struct store *st, const char *run, const char *workload, int osync,
				  const struct metric *m, const char *title, const char *out)
{
	const struct store_figure *field = store_figure_find(&store_sample_table, m->name);
	if (!field || !field->plot) {
		struct strbuf names = {0};
		for (size_t i = 0; i < store_sample_table.count; i++)
			if (store_sample_table.fig[i].plot)
				strbuf_addf(&names, "%s%s", names.len ? ", " : "", store_sample_table.fig[i].name);
		log_error("--timeline plots a sampled metric (%s), not %s", names.buf, m->name);
		strbuf_free(&names);
		return OUT_USAGE;
	}
	int64_t id;
	struct store_point *pts;
	size_t np;
	if (cmd_resolve_run(st, run, &id) < 0)
		return OUT_USAGE;
	if (store_get_points(st, id, &pts, &np) < 0) {
		log_error("%s", store_error(st));
		return OUT_FAILED;
	}
	struct timeline *lines = xcalloc(np + 1, sizeof(*lines));
	struct store_sample **rows = xcalloc(np + 1, sizeof(*rows));
	size_t n = 0;
	for (size_t i = 0; i < np; i++) {
		const struct store_point *p = &pts[i];
		if (!p->valid || (workload && strcmp(p->workload, workload) != 0) || (osync >= 0 && p->osync != osync) ||
		    (n && (strcmp(p->workload, pts[0].workload) != 0 || p->osync != pts[0].osync) && !workload))
			continue;
		size_t count;
		if (store_get_samples(st, p->id, &rows[n], &count) < 0 || count == 0) {
			free(rows[n]);
			rows[n] = NULL;
			continue;
		}
		double *t = xcalloc(count, sizeof(double)), *y = xcalloc(count, sizeof(double));
		for (size_t k = 0; k < count; k++) {
			t[k] = rows[n][k].t_s;
			y[k] = store_figure_double(field, &rows[n][k]);
		}
		lines[n] = (struct timeline){.t = t, .y = y, .count = count};
		snprintf(lines[n].label, sizeof(lines[n].label), "%d tasks%s%.32s%s", p->tasks, p->variant[0] ? " " : "",
			 p->variant, p->repeat ? " (repeat)" : "");
		n++;
	}
	char heading[160];
	snprintf(heading, sizeof(heading), "%s during each point of run %lld", m->label, (long long)id);
	FILE *f = fopen(out, "w");
	int rc = f && plot_timeline_svg(f, lines, n, title ? title : heading, m->label) == 0 ? 0 : -1;
	if (f && fclose(f) != 0)
		rc = -1;
	if (rc < 0)
		log_error("writing %s: %s", out, strerror(errno));
	for (size_t i = 0; i < n; i++) {
		free((void *)lines[i].t);
		free((void *)lines[i].y);
		free(rows[i]);
	}
	free(lines);
	free(rows);
	free(pts);
	return rc < 0 ? OUT_FAILED : OUT_OK;
}

/* One curve per run (per variant of a run made with --variant), all of the first run's workload
 * and O_SYNC setting (or the asked ones). */
static enum outcome load_curves(struct store *st, const struct plot_args *a, const struct metric *metric,
				int osync, struct curve **curves, size_t *ncurves)
{
	for (size_t i = 0; i < a->runs.count; i++) {
		const char *run = a->runs.v[i];
		int64_t id;
		struct curve *cs;
		size_t nc;
		if (cmd_resolve_run(st, run, &id) < 0)
			return OUT_USAGE;
		if (curves_load_metric(st, id, metric, &cs, &nc) < 0) {
			log_error("%s", store_error(st));
			return OUT_FAILED;
		}
		const char *workload = a->workload ? a->workload : i ? (*curves)[0].workload : NULL;
		size_t got = pick_curves(cs, nc, workload, i ? (*curves)[0].osync : osync, curves, ncurves);
		curves_free(cs, nc);
		if (!got) {
			log_error("run %s has no %s points%s", run, a->workload ? a->workload : "matching",
				  osync >= 0 ? (osync ? " with O_SYNC on" : " with O_SYNC off") : "");
			return OUT_USAGE;
		}
	}
	return OUT_OK;
}

enum outcome cmd_plot(const struct command *self, int argc, char **argv)
{
	struct plot_args a = {0};
	enum outcome out = OUT_OK;
	if (cmd_parse(self, argc, argv, &a, &out))
		return out;
	const struct metric *metric = metric_find(a.metric ? a.metric : a.timeline ? "sys_pct" : "jobs_per_min");
	int osync = a.osync ? strcmp(a.osync, "on") == 0 : -1;
	struct plot_options po = {.title = a.title, .diff_panel = a.diff, .y_label = metric->label};
	struct store *st = cmd_open_store(a.db);
	if (!st) {
		out = OUT_FAILED;
	} else if (a.timeline) {
		out = plot_timeline(st, a.runs.v[0], a.workload, osync, metric, a.title, a.output);
	} else {
		size_t n = 0;
		struct curve *curves = NULL;
		const struct plot_format *fmt = plot_formats;
		while (strcmp(fmt->name, a.format) != 0)
			fmt++;
		out = load_curves(st, &a, metric, osync, &curves, &n);
		if (out == OUT_OK && fmt->write(a.output, curves, n, &po) < 0)
			out = OUT_FAILED;
		for (size_t i = 0; i < n; i++)
			curve_free(&curves[i]);
		free(curves);
	}
	store_close(st);
	cli_free(self->opts, &a);
	return out;
}
