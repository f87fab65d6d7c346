/* SPDX-License-Identifier: GPL-2.0-or-later */
/* From stored runs to picture files: which curves a plot draws and against what, the footer naming each
 * run's kernel and host, the timeline's panels, and SVG, PNG (through rsvg-convert) or gnuplot output. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analysis/cmpmodel.h"
#include "report/plot.h"
#include "report/report.h"
#include "store/figures.h"
#include "util/util.h"

extern char **environ;

static const char png_magic[8] = {'\x89', 'P', 'N', 'G', '\r', '\n', '\x1a', '\n'};

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* The value of one environment key of a run, or "?"; caller frees. */
static char *env_value(struct store *st, int64_t run, const char *key)
{
	char **kv;
	size_t n;
	char *out = NULL;
	if (store_get_env(st, run, &kv, &n) < 0)
		return xstrdup("?");
	size_t klen = strlen(key);
	for (size_t i = 0; i < n; i++) {
		if (!out && strncmp(kv[i], key, klen) == 0 && kv[i][klen] == '\t')
			out = xstrdup(kv[i] + klen + 1);
		free(kv[i]);
	}
	free(kv);
	return out ? out : xstrdup("?");
}

/* "kernel-a (run 1): kernel 6.1.0, host vm, started 2026-11-30T12:17:26Z" */
static char *footer_line(struct store *st, int64_t run)
{
	struct store_run_row r;
	if (store_get_run(st, run, &r) < 0)
		return xasprintf("run %lld", (long long)run);
	char *kernel = env_value(st, run, "kernel.release"), *host = env_value(st, run, "hostname");
	char *line = xasprintf("%s (run %lld): kernel %s, host %s, started %s", r.label, (long long)run, kernel, host,
			       r.started);
	free(kernel);
	free(host);
	return line;
}

void plot_set_free(struct plot_set *ps)
{
	for (size_t i = 0; i < ps->n; i++)
		curve_free(&ps->curves[i]);
	free(ps->curves);
	free(ps->base);
	for (size_t i = 0; i < ps->nfooter; i++)
		free(ps->footer[i]);
	free(ps->footer);
	free(ps->left_out);
	for (size_t i = 0; ps->diffs && i < ps->n; i++)
		free((void *)ps->diffs[i].pts);
	free(ps->diffs);
	free(ps->note);
	memset(ps, 0, sizeof(*ps));
}

/* The side of the model a curve of group g belongs to: the group's, or (one run) its variant's or
 * O_SYNC setting's; -1 when the model has no such side. */
static long side_of(const struct compare_model *m, size_t g, const struct curve *c)
{
	if (!m || m->nsides < 2)
		return -1;
	if (m->kind == COMPARE_GROUPS)
		return g < m->nsides ? (long)g : -1;
	for (size_t s = 0; s < m->nsides; s++)
		if (m->kind == COMPARE_VARIANTS ? strcmp(m->sides[s].variant, c->variant) == 0
						: m->sides[s].osync == c->osync)
			return (long)s;
	return -1;
}

/* Each curve's base (the base side's curve of the same block) and its differences: the model's
 * cells, nothing computed here. Only Jobs/Min is judged by the model. */
static void model_diffs(struct plot_set *ps, const struct compare_model *m, const long *side, int jpm)
{
	ps->diffs = xcalloc(ps->n + 1, sizeof(*ps->diffs));
	size_t adjusted = 0; /* differences the model adjusted for others' demand: the means above are raw */
	for (size_t i = 0; i < ps->n; i++) {
		const struct curve *c = &ps->curves[i];
		ps->base[i] = -1;
		if (side[i] <= 0)
			continue;
		for (size_t j = 0; j < ps->n && ps->base[i] < 0; j++)
			if (side[j] == 0 && (m->kind == COMPARE_OSYNC || ps->curves[j].osync == c->osync) &&
			    (m->kind == COMPARE_VARIANTS || strcmp(ps->curves[j].variant, c->variant) == 0) &&
			    ps->curves[j].cpus == c->cpus && strcmp(ps->curves[j].load, c->load) == 0)
				ps->base[i] = (int)j;
		const struct compare_panel *p =
			compare_panel_find(m, (size_t)side[i], c->workload, c->osync, c->variant, c->load, c->cpus);
		if (!p || !jpm)
			continue;
		struct plot_diff_point *d = xcalloc(p->ncells + 1, sizeof(*d));
		size_t k = 0;
		for (size_t q = 0; q < p->ncells; q++) {
			const struct compare_cell *cell = &p->cells[q];
			if (!cell->present)
				continue;
			adjusted += strcmp(report_pct_kind(cell), "adjusted") == 0;
			d[k++] = (struct plot_diff_point){
				.tasks = cell->tasks,
				.pct = report_cell_pct(cell),
				.lo = cell->v.ci_low_pct, .hi = cell->v.ci_high_pct,
				.interval = cell->judged && cell->v.bounded, .significant = cell->significant,
				.confounded = cell->state == CELL_CONFOUNDED};
		}
		ps->diffs[i] = (struct plot_diff){d, k};
	}
	char level[32];
	ps->level_pct = 100 * (1 - m->alpha);
	snprintf(level, sizeof(level), "%g %%", 100 * (1 - m->alpha));
	const char *first = m->nsides ? m->sides[0].label : "the base";
	if (m->kind == COMPARE_VARIANTS)
		snprintf(ps->caption, sizeof(ps->caption), "Each variant against %s (A), at the task counts both have",
			 first);
	else if (m->kind == COMPARE_OSYNC)
		snprintf(ps->caption, sizeof(ps->caption), "O_SYNC on against off in %s, at the task counts both have",
			 m->run_label);
	else
		snprintf(ps->caption, sizeof(ps->caption), "Difference against A (%s), at the task counts both have",
			 first);
	size_t used = strlen(ps->caption);
	if (adjusted)
		snprintf(ps->caption + used, sizeof(ps->caption) - used,
			 "; %zu adjusted for others' demand (the means above are raw)", adjusted);
	ps->note = xasprintf("the %s intervals of the change from %s (paired by round within one run, else "
			     "Welch's test with the runs as replicates, Fieller's interval), as reaim compare states them",
			     level, jpm ? "the comparison model" : "nothing");
	if (!jpm) {
		snprintf(ps->caption, sizeof(ps->caption), "Differences of Jobs/Min only");
		ps->empty = "the comparison judges Jobs/Min: plot it for the differences";
	}
}

/* A group's curve named by the group, and by what sets it apart from the group's other curves. */
static void group_label(struct curve *out, const char *group, const struct curve *c)
{
	char cpus[24] = "";
	if (c->cpus)
		snprintf(cpus, sizeof(cpus), ", %d CPU%s", c->cpus, c->cpus == 1 ? "" : "s");
	snprintf(out->label, sizeof(out->label), "%.70s%s%.30s%s%.20s%.20s", group, c->variant[0] ? ", variant " : "",
		 c->variant, c->load[0] ? ", " : "", c->load, cpus);
}

/* The runs of a plot's groups in order, each with its curves. */
struct run_curves {
	int64_t *runs;
	struct curve **cs;
	size_t *nc;
	size_t n;
};

/* One curve per group and block: a group of one run, that run's curves; of several, their merge.
 * The group's runs start at first_run of rcs; each curve's side in *sides is -1 (set by the caller). */
static void group_curves(struct plot_set *ps, const struct run_curves *rcs, const struct compare_group *g,
			 size_t first_run, long **sides, const char *label)
{
	struct curve *const *cs = rcs->cs;
	const size_t *nc = rcs->nc;
	for (size_t r = 0; r < g->n; r++)
		for (size_t k = 0; k < nc[first_run + r]; k++) {
			const struct curve *c = &cs[first_run + r][k];
			if (c->workload[0] == '\0')
				continue; /* already merged with an earlier run's */
			const struct curve **same = xcalloc(g->n + 1, sizeof(*same));
			size_t ns = 0;
			for (size_t q = r; q < g->n; q++)
				for (size_t j = 0; j < nc[first_run + q]; j++) {
					const struct curve *o = &cs[first_run + q][j];
					if (o->workload[0] && strcmp(o->workload, c->workload) == 0 && o->osync == c->osync &&
					    strcmp(o->variant, c->variant) == 0 && strcmp(o->load, c->load) == 0 &&
					    o->cpus == c->cpus)
						same[ns++] = o;
				}
			ps->curves = xrealloc(ps->curves, (ps->n + 1) * sizeof(*ps->curves));
			*sides = xrealloc(*sides, (ps->n + 1) * sizeof(**sides));
			struct curve *out = &ps->curves[ps->n];
			curve_merge(out, same, ns);
			if (g->n == 1)
				snprintf(out->label, sizeof(out->label), "%s", c->label);
			else
				group_label(out, label, c);
			ps->bars_of_runs |= g->n > 1;
			(*sides)[ps->n++] = -1;
			for (size_t q = 1; q < ns; q++)
				((struct curve *)same[q])->workload[0] = '\0';
			free(same);
		}
}

/* Every run of the groups in order into runs[], and its curves of the metric (without the points
 * measured in noise when the model judges without them). 0, or -1 with the reason. */
static int load_curves(struct store *st, const struct plot_query *q, struct run_curves *rcs, char *err,
		       size_t errlen)
{
	size_t at = 0;
	int skip_noisy = q->model && q->model->exclude_noisy;
	for (size_t g = 0; g < q->ngroups; g++)
		for (size_t i = 0; i < q->groups[g].n; i++)
			rcs->runs[at++] = q->groups[g].runs[i];
	for (size_t r = 0; r < at; r++)
		if (curves_load_quiet(st, rcs->runs[r], q->m, skip_noisy, &rcs->cs[r], &rcs->nc[r]) < 0) {
			snprintf(err, errlen, "%s", store_error(st));
			return -1;
		}
	return 0;
}

/* What is not drawn, said once per curve: other workloads and settings (their workload cleared). */
static void leave_out(const struct run_curves *rcs, const char *workload, int osync, struct strbuf *left)
{
	for (size_t r = 0; r < rcs->n; r++)
		for (size_t k = 0; k < rcs->nc[r]; k++) {
			struct curve *c = &rcs->cs[r][k];
			if (strcmp(c->workload, workload) != 0 || (osync >= 0 && c->osync != osync)) {
				strbuf_addf(left, "%s%s workload %s O_SYNC %s", left->len ? "; " : "Not drawn: ", c->label,
					    c->workload, c->osync ? "on" : "off");
				c->workload[0] = '\0';
			}
		}
}

int plot_set_load(struct store *st, const struct plot_query *q, struct plot_set *ps, char *err, size_t errlen)
{
	const struct compare_model *model = q->model;
	const char *workload = q->workload;
	int osync = q->osync;
	memset(ps, 0, sizeof(*ps));
	size_t nruns = 0, at = 0;
	for (size_t g = 0; g < q->ngroups; g++)
		nruns += q->groups[g].n;
	struct curve **cs = xcalloc(nruns + 1, sizeof(*cs));
	size_t *nc = xcalloc(nruns + 1, sizeof(*nc));
	int64_t *runs = xcalloc(nruns + 1, sizeof(*runs));
	struct run_curves rcs = {.runs = runs, .cs = cs, .nc = nc, .n = nruns};
	int rc = load_curves(st, q, &rcs, err, errlen);
	for (size_t r = 0; r < nruns && rc == 0 && !workload; r++)
		if (nc[r])
			workload = cs[r][0].workload;
	if (rc == 0 && !workload) {
		snprintf(err, errlen, "the runs have no valid points to plot");
		rc = -1;
	}
	if (rc == 0)
		snprintf(ps->workload, sizeof(ps->workload), "%s", workload);
	struct strbuf left = {0};
	if (rc == 0)
		leave_out(&rcs, ps->workload, osync, &left);
	long *sides = NULL;
	at = 0;
	for (size_t g = 0; g < q->ngroups && rc == 0; g++) {
		char label[256];
		if (model && model->kind == COMPARE_GROUPS && g < model->nsides)
			compare_side_name(model, g, label, sizeof(label));
		else
			snprintf(label, sizeof(label), "group %zu", g + 1);
		size_t before = ps->n;
		group_curves(ps, &rcs, &q->groups[g], at, &sides, label);
		for (size_t i = before; i < ps->n; i++)
			sides[i] = side_of(model, g, &ps->curves[i]);
		at += q->groups[g].n;
	}
	if (rc == 0 && ps->n == 0) {
		snprintf(err, errlen, "no run has %s points%s", ps->workload,
			 osync < 0 ? "" : osync ? " with O_SYNC on" : " with O_SYNC off");
		rc = -1;
	}
	if (rc == 0) {
		/* one run's two settings, or runs of different settings, must be told apart in the legend */
		int mixed = 0;
		for (size_t i = 1; i < ps->n; i++)
			mixed |= ps->curves[i].osync != ps->curves[0].osync;
		ps->base = xcalloc(ps->n, sizeof(*ps->base));
		if (model)
			model_diffs(ps, model, sides, strcmp(q->m->name, "jobs_per_min") == 0);
		else
			for (size_t i = 0; i < ps->n; i++)
				ps->base[i] = -1;
		for (size_t i = 0; i < ps->n && mixed; i++) {
			size_t len = strlen(ps->curves[i].label);
			snprintf(ps->curves[i].label + len, sizeof(ps->curves[i].label) - len, ", O_SYNC %s",
				 ps->curves[i].osync ? "on" : "off");
		}
		ps->footer = xcalloc(nruns + 1, sizeof(*ps->footer));
		for (size_t r = 0; r < nruns; r++)
			ps->footer[ps->nfooter++] = footer_line(st, runs[r]);
		if (left.len)
			strbuf_addf(&left, " (choose with --workload and --osync)");
		ps->left_out = left.len ? xstrdup(left.buf) : NULL;
	}
	strbuf_free(&left);
	for (size_t r = 0; r < nruns; r++)
		if (cs[r])
			curves_free(cs[r], nc[r]);
	free(cs);
	free(nc);
	free(runs);
	free(sides);
	if (rc < 0)
		plot_set_free(ps);
	return rc;
}

static int is_percentage(const struct metric *m)
{
	return ends_with(m->name, "_pct");
}

void plot_set_options(const struct plot_set *ps, const struct metric *m, struct plot_options *opt)
{
	opt->y_label = m->label;
	opt->y_max = is_percentage(m) ? 100 : 0;
	opt->diff_base = ps->base;
	opt->diff_caption = ps->caption;
	opt->footer = (const char *const *)ps->footer;
	opt->footer_lines = ps->nfooter;
	opt->left_out = ps->left_out;
	opt->diffs = ps->diffs;
	opt->diff_note = ps->note;
	opt->level_pct = ps->level_pct;
	opt->diff_empty_note = ps->empty;
	opt->bars_of_runs = ps->bars_of_runs;
}

/* rsvg-convert's PNG of svg, read from the unnamed file it wrote to; NULL with the reason in err. */
static char *convert_png(const char *svg, size_t len, const char *path, size_t *out_len, char *err, size_t errlen)
{
	/* a socket rather than a pipe: send() with MSG_NOSIGNAL cannot raise SIGPIPE in a caller that
	 * did not ignore it, when rsvg-convert gives up before reading everything */
	int fds[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) < 0) {
		snprintf(err, errlen, "socketpair: %s", strerror(errno));
		return NULL;
	}
	FILE *png = tmpfile();
	if (!png) {
		snprintf(err, errlen, "a temporary file for rsvg-convert: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return NULL;
	}
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[0], STDIN_FILENO);
	posix_spawn_file_actions_adddup2(&fa, fileno(png), STDOUT_FILENO);
	char *argv[] = {"rsvg-convert", "--format", "png", NULL};
	pid_t pid;
	int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[0]);
	if (rc != 0) {
		close(fds[1]);
		fclose(png);
		if (rc == ENOENT)
			snprintf(err, errlen, "cannot write %s: rsvg-convert is not installed (Debian: apt-get install "
				 "librsvg2-bin); write an SVG with -o FILE.svg instead", path);
		else
			snprintf(err, errlen, "cannot run rsvg-convert: %s", strerror(rc));
		return NULL;
	}
	size_t off = 0;
	int werr = 0;
	while (off < len) {
		ssize_t w = send(fds[1], svg + off, len - off, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			werr = errno; /* EPIPE: rsvg-convert gave up, its status says why */
			break;
		}
		off += (size_t)w;
	}
	close(fds[1]);
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			snprintf(err, errlen, "waiting for rsvg-convert: %s", strerror(errno));
			fclose(png);
			return NULL;
		}
	struct strbuf sb = {0};
	char chunk[4096];
	size_t got;
	rewind(png);
	while ((got = fread(chunk, 1, sizeof(chunk), png)) > 0)
		strbuf_add(&sb, chunk, got);
	int rerr = ferror(png) ? errno : 0;
	fclose(png);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || werr || rerr || sb.len < sizeof(png_magic) ||
	    memcmp(sb.buf, png_magic, sizeof(png_magic)) != 0) {
		snprintf(err, errlen, "rsvg-convert could not write %s (%s)", path,
			 werr || rerr ? strerror(werr ? werr : rerr)
			 : !WIFEXITED(status) ? "killed" : "exit status or output not a PNG");
		strbuf_free(&sb);
		return NULL;
	}
	*out_len = sb.len;
	return sb.buf;
}

/* Bytes to an output file, which keeps what it held when anything fails. */
static int write_out(const char *buf, size_t len, const char *path, char *err, size_t errlen)
{
	struct out_file of;
	if (out_file_open(&of, path, err, errlen) < 0)
		return -1;
	int ok = fwrite(buf, 1, len, of.f) == len;
	if (!ok)
		snprintf(err, errlen, "writing %s: %s", path, strerror(errno));
	if (out_file_close(&of, ok, ok ? err : NULL, ok ? errlen : 0) < 0 || !ok)
		return -1;
	return 0;
}

int plot_write_png(const char *svg, size_t len, const char *path, char *err, size_t errlen)
{
	size_t n = 0;
	char *png = convert_png(svg, len, path, &n, err, errlen);
	if (!png)
		return -1;
	int rc = write_out(png, n, path, err, errlen);
	free(png);
	return rc;
}

/* The rendered picture to its file: as it is for SVG, converted for PNG. */
static int write_picture(const char *buf, size_t len, const char *out, int png, char *err, size_t errlen)
{
	return png ? plot_write_png(buf, len, out, err, errlen) : write_out(buf, len, out, err, errlen);
}


/* `plot --timeline`: the first run's points of one workload and O_SYNC setting (one task count with
 * --point), a sampled metric against seconds into each point, a panel per task count. */
static int timeline(struct store *st, int64_t id, const struct plot_request *rq, const struct metric *m, FILE *f,
		    char *err, size_t errlen)
{
	const struct store_figure *field = store_figure_find(&store_sample_table, m->name);
	if (!field || !field->plot) {
		struct strbuf names = {0};
		for (size_t i = 0; i < store_sample_table.count; i++)
			if (store_sample_table.fig[i].plot)
				strbuf_addf(&names, "%s%s", names.len ? ", " : "", store_sample_table.fig[i].name);
		snprintf(err, errlen, "--timeline plots a sampled metric (%s), not %s", names.buf, m->name);
		strbuf_free(&names);
		return -1;
	}
	struct store_point *pts;
	size_t np;
	if (store_get_points(st, id, &pts, &np) < 0) {
		snprintf(err, errlen, "%s", store_error(st));
		return -1;
	}
	const struct store_point *first = NULL;
	for (size_t i = 0; i < np && !first; i++)
		if (pts[i].valid && (!rq->workload || strcmp(pts[i].workload, rq->workload) == 0) &&
		    (rq->osync < 0 || pts[i].osync == rq->osync) && (!rq->point || pts[i].tasks == rq->point))
			first = &pts[i];
	struct timeline *lines = xcalloc(np + 1, sizeof(*lines));
	struct store_sample **rows = xcalloc(np + 1, sizeof(*rows));
	size_t n = 0, others = 0;
	for (size_t i = 0; i < np && first; i++) {
		const struct store_point *p = &pts[i];
		if (!p->valid || strcmp(p->workload, first->workload) != 0 || p->osync != first->osync)
			continue;
		if (rq->point && p->tasks != rq->point)
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
		lines[n] = (struct timeline){.t = t, .y = y, .count = count, .tasks = p->tasks, .repeat = p->repeat};
		snprintf(lines[n].label, sizeof(lines[n].label), "%d tasks, repeat %d%s%.16s", p->tasks, p->repeat + 1,
			 p->variant[0] ? ", variant " : "", p->variant);
		n++;
	}
	for (size_t i = 0; i < np && first; i++)
		others += pts[i].valid && (strcmp(pts[i].workload, first->workload) != 0 || pts[i].osync != first->osync);
	int rc = 0;
	if (!first && rq->point) {
		snprintf(err, errlen, "run %lld has no valid point at %d tasks", (long long)id, rq->point);
		rc = -1;
	} else {
		char heading[200];
		if (first)
			snprintf(heading, sizeof(heading), "%s during each point of run %lld (%s, O_SYNC %s)", m->label,
				 (long long)id, first->workload, first->osync ? "on" : "off");
		else
			snprintf(heading, sizeof(heading), "%s during each point of run %lld", m->label, (long long)id);
		if (others)
			log_warn("the timeline draws %s with O_SYNC %s; %zu points of other workloads or settings left "
				 "out (choose with --workload and --osync)", first->workload, first->osync ? "on" : "off",
				 others);
		rc = plot_timeline_svg(f, lines, n, rq->title ? rq->title : heading, m->label,
				       is_percentage(m) ? 100 : 0);
		if (rc < 0)
			snprintf(err, errlen, "rendering the timeline: %s", strerror(errno));
	}
	for (size_t i = 0; i < n; i++) {
		free((void *)lines[i].t);
		free((void *)lines[i].y);
		free(rows[i]);
	}
	free(lines);
	free(rows);
	free(pts);
	return rc;
}

/* gnuplot data and script beside each other; the script names the data and its picture by absolute
 * path, so it runs from any directory. */
static int gnuplot_files(const struct plot_set *ps, const struct plot_options *po, const char *out, char *err,
			 size_t errlen)
{
	const char *slash = strrchr(out, '/');
	char *dir = slash ? xasprintf("%.*s", (int)(slash - out), out) : xstrdup(".");
	char *real = realpath(dir[0] ? dir : "/", NULL);
	if (!real) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		free(dir);
		return -1;
	}
	size_t rl = strlen(real);
	char *abs_out = xasprintf("%s%s%s", real, rl && real[rl - 1] == '/' ? "" : "/", slash ? slash + 1 : out);
	char *data = xasprintf("%s.dat", out), *script = xasprintf("%s.gp", out);
	char *abs_data = xasprintf("%s.dat", abs_out), *image = xasprintf("%s.svg", abs_out);
	struct out_file od = {0}, os = {0};
	int rc = out_file_open(&od, data, err, errlen);
	if (rc == 0)
		rc = out_file_open(&os, script, err, errlen);
	if (rc == 0 && plot_gnuplot(od.f, os.f, abs_data, image, ps->curves, ps->n, po) < 0) {
		snprintf(err, errlen, "writing %s and %s: %s", data, script, strerror(errno));
		rc = -1;
	}
	/* the data first: a script is never left naming data that failed */
	if (out_file_close(&od, rc == 0, err, errlen) < 0)
		rc = -1;
	if (out_file_close(&os, rc == 0, err, errlen) < 0)
		rc = -1;
	if (rc == 0)
		printf("wrote %s and %s (run: gnuplot %s; it draws %s)\n", data, script, script, image);
	free(abs_data);
	free(image);
	free(data);
	free(script);
	free(abs_out);
	free(real);
	free(dir);
	return rc;
}

int report_plot(struct store *st, const struct plot_request *rq, char *err, size_t errlen)
{
	const char *format = rq->format ? rq->format : ends_with(rq->out, ".png") ? "png" : "svg";
	int png = strcmp(format, "png") == 0;
	if (!png && strcmp(format, "svg") != 0 && strcmp(format, "gnuplot") != 0) {
		snprintf(err, errlen, "unknown plot format '%s' (svg, png or gnuplot)", format);
		return -1;
	}
	if (!png && strcmp(format, "svg") == 0 && ends_with(rq->out, ".png")) {
		snprintf(err, errlen, "%s: an SVG under a .png name would mislead; use --format png or a .svg name",
			 rq->out);
		return -1;
	}
	if (rq->timeline && strcmp(format, "gnuplot") == 0) {
		snprintf(err, errlen, "--timeline draws SVG or PNG, not gnuplot");
		return -1;
	}
	const char *mname = rq->metric ? rq->metric : rq->timeline ? "sys_pct" : "jobs_per_min";
	const struct metric *m = metric_find(mname);
	if (!m) {
		struct strbuf sb = {0};
		for (const struct metric *k = metric_list(); k->name; k++)
			strbuf_addf(&sb, "%s%s", sb.len ? ", " : "", k->name);
		snprintf(err, errlen, "unknown metric '%s'; one of: %s", mname, sb.buf);
		strbuf_free(&sb);
		return -1;
	}
	if (rq->ngroups == 0 || rq->groups[0].n == 0) {
		snprintf(err, errlen, "no runs to plot");
		return -1;
	}
	int rc = 0;
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = rc == 0 ? open_memstream(&buf, &len) : NULL;
	if (rc == 0 && !mem) {
		snprintf(err, errlen, "open_memstream: %s", strerror(errno));
		rc = -1;
	}
	if (rc == 0 && rq->timeline) {
		if (rq->ngroups > 1 || rq->groups[0].n > 1)
			log_warn("--timeline draws the first run named (run %lld); the others are left out",
				 (long long)rq->groups[0].runs[0]);
		rc = timeline(st, rq->groups[0].runs[0], rq, m, mem, err, errlen);
	} else if (rc == 0) {
		struct plot_set ps;
		struct compare_model model;
		struct compare_options co = {.alpha = rq->alpha, .correction = rq->correction,
					     .exclude_noisy = rq->exclude_noisy};
		const struct plot_query q = {.groups = rq->groups, .ngroups = rq->ngroups, .model = &model,
					     .workload = rq->workload, .osync = rq->osync, .m = m};
		if ((rc = compare_model_build(st, rq->groups, rq->ngroups, &co, &model)) < 0)
			snprintf(err, errlen, "%s", store_error(st));
		else
			rc = plot_set_load(st, &q, &ps, err, errlen);
		compare_model_free(&model);
		if (rc == 0) {
			struct plot_options po = {.title = rq->title, .diff_panel = rq->diff};
			plot_set_options(&ps, m, &po);
			if (ps.left_out)
				log_warn("%s", ps.left_out);
			if (strcmp(format, "gnuplot") == 0)
				rc = gnuplot_files(&ps, &po, rq->out, err, errlen);
			else if ((rc = plot_svg(mem, ps.curves, ps.n, &po)) < 0)
				snprintf(err, errlen, "rendering the plot: %s", strerror(errno));
			plot_set_free(&ps);
		}
	}
	if (mem && fclose(mem) != 0 && rc == 0) {
		snprintf(err, errlen, "rendering the plot: %s", strerror(errno));
		rc = -1;
	}
	if (rc == 0 && strcmp(format, "gnuplot") != 0)
		rc = write_picture(buf, len, rq->out, png, err, errlen);
	free(buf);
	return rc ? -1 : 0;
}
