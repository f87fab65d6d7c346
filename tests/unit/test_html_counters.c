/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checks the report's counters section against `compare --counters` on one made-up database: a CPU hog
 * beside side B moves context-switches, cpu-migrations, an interrupt with markup in its name and TIMER
 * per job; the page lists exactly the rows the JSON lists, in its order, with the same numbers, those
 * against Jobs/Min highlighted; names are escaped; runs whose counters did not move, and runs without
 * counters, get a sentence instead. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cmpmodel.h"
#include "report/html.h"
#include "report/report.h"
#include "store/store.h"
#include "tap.h"
#include "testdb.h"
#include "util/util.h"

static struct store *st;

#define TASKS 4
#define JOBS 10 /* per task: a point is 40 jobs */
#define ROUNDS 3

/* A run of workload compute at 4 tasks, three rounds; hog: fewer Jobs/Min, more switches and
 * migrations, fewer timer softirqs per job; counted: store counters at all. */
static int64_t fake_run(const char *label, int hog, int r, int counted)
{
	int64_t wl, id = test_db_run(st, label);
	struct store_workload w = {.name = "compute", .workfile_name = "compute", .workfile_text = ""};
	test_db_workload(st, id, &w, &wl, "jobs_per_task=%lld repeat=%lld", (long long)JOBS, (long long)ROUNDS);
	for (int i = 0; i < ROUNDS; i++) {
		double wobble = (double)((r * ROUNDS + i) % 4) - 1.5; /* run to run noise: -1.5 .. +1.5 */
		double jpm = (hog ? 6000 : 10000) + 40 * wobble;
		struct store_point p = {.run_id = id, .workload_id = wl, .osync = 1, .tasks = TASKS, .repeat = i,
					.valid = 1, .jobs_per_task = JOBS, .jobs_per_min = jpm, .real_s = 2400.0 / jpm,
					.cpu_s = 1};
		struct store_counter k[] = {
			{.source = "perf", .name = "context-switches", .unit = "events",
			 .value = (hog ? 3000 : 1000) + 20 * wobble, .running_pct = 100},
			{.source = "perf", .name = "cpu-migrations", .unit = "events",
			 .value = (hog ? 400 : 40) + 4 * wobble, .running_pct = hog ? 80 : 100},
			{.source = "vmstat", .name = "pgfault", .unit = "events", .value = 8000 + 300 * wobble * (hog ? -1 : 1),
			 .running_pct = NAN},
			{.source = "interrupts", .name = "i8042 <kbd> & \"mouse\"", .unit = "interrupts",
			 .value = (hog ? 90 : 30) + wobble, .running_pct = NAN},
			{.source = "softirqs", .name = "TIMER", .unit = "softirqs", .value = (hog ? 200 : 400) + 4 * wobble,
			 .running_pct = NAN},
		};
		store_point_add_counted(
			st, &p,
			&(const struct store_point_rows){.counters = k, .ncounters = counted ? ARRAY_SIZE(k) : 0});
	}
	return id;
}

static void side(const char *label, int hog, int counted, int64_t ids[3])
{
	for (int r = 0; r < 3; r++)
		ids[r] = fake_run(label, hog, r, counted);
}

static char *compare_json(const struct compare_group *g)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct compare_options o = {.format = "json", .alpha = 0.05};
	ok(f && report_compare_counters(f, st, g, 2, &o) == 0, "compare --counters --format json");
	if (f)
		fclose(f);
	return buf;
}

/* The report's page, from its counters section's heading to the next section's. */
static char *report_section(const struct compare_group *g)
{
	char *buf = NULL, err[256];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct html_options o = {.alpha = 0.05};
	ok(f && report_html(f, st, g, 2, &o, err, sizeof(err)) == 0, "report of the same groups");
	if (f)
		fclose(f);
	char *from = buf ? strstr(buf, "<h2 id=\"counters\">") : NULL;
	char *to = from ? strstr(from + 1, "<h2") : NULL;
	char *section = from ? xasprintf("%.*s", (int)(to ? to - from : (ptrdiff_t)strlen(from)), from) : NULL;
	free(buf);
	return section;
}

/* The number after key at or after from, NaN when absent, null or past stop. */
static double number_after(const char *from, const char *key, const char *stop)
{
	const char *s = from ? strstr(from, key) : NULL;
	if (!s || (stop && s >= stop))
		return NAN;
	s += strlen(key);
	char *end;
	double v = strtod(s, &end);
	return end == s ? NAN : v;
}

static int same(double a, double b)
{
	return a == b || (isnan(a) && isnan(b));
}

/* What html_text makes of s. */
static char *escaped(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	html_text(f, s, 0);
	fclose(f);
	return buf;
}

/* The next row of a moved counter at or after from (the header rows have no figures), or NULL. */
static const char *next_row(const char *from)
{
	const char *r = from ? strstr(from, "<tr") : NULL;
	static const char plain[] = "<tr data-mean-a=", highlighted[] = "<tr class=\"moved\" data-mean-a=";
	while (r && strncmp(r, plain, strlen(plain)) != 0 && strncmp(r, highlighted, strlen(highlighted)) != 0)
		r = strstr(r + 1, "<tr");
	return r;
}

/* The JSON string after key (its opening quote included), its \" and \\ undone. */
static void json_string(const char *from, const char *key, char *out, size_t size)
{
	const char *s = strstr(from, key);
	size_t n = 0;
	for (s = s ? s + strlen(key) : ""; *s && *s != '"' && n + 1 < size; s++)
		out[n++] = *s == '\\' && s[1] ? *++s : *s;
	out[n] = 0;
}

/* ok() with a formatted description. */
#define okf(cond, ...)                                                                            \
	do {                                                                                       \
		char what_[160];                                                                   \
		snprintf(what_, sizeof(what_), __VA_ARGS__);                                       \
		tap_ok(!!(cond), __FILE__, __LINE__, what_);                                       \
	} while (0)

/* Each row of the JSON's "moved" against the section's rows, in order. */
static void same_rows(const char *json, const char *html)
{
	const char *jr = json ? strstr(json, "\"moved\": [") : NULL;
	const char *hr = html;
	size_t rows = 0, against = 0, first_other = 0;
	int all_same = 1, order = 1;
	while (jr && (jr = strstr(jr + 1, "{\"workload\": ")) != NULL) {
		const char *jnext = strstr(jr + 1, "{\"workload\": ");
		hr = next_row(hr);
		if (!hr) {
			all_same = 0;
			break;
		}
		const char *hend = strstr(hr, "</tr>");
		rows++;
		static const struct {
			const char *json, *html;
		} keys[] = {
			{.json = "\"mean_base_per_job\": ", .html = "data-mean-a=\""},
			{.json = "\"mean_other_per_job\": ", .html = "data-mean-b=\""},
			{.json = "\"change_pct\": ", .html = "data-pct=\""},
			{.json = "\"ci_low_pct\": ", .html = "data-lo=\""},
			{.json = "\"ci_high_pct\": ", .html = "data-hi=\""},
			{.json = "\"p_adj\": ", .html = "data-p-adj=\""},
		};
		for (size_t k = 0; k < ARRAY_SIZE(keys); k++) {
			double j = number_after(jr, keys[k].json, jnext), h = number_after(hr, keys[k].html, hend);
			if (!same(j, h) || (k != 3 && k != 4 && isnan(j))) {
				printf("# row %zu: %s%g in the JSON, %g in the page\n", rows, keys[k].json, j, h);
				all_same = 0;
			}
		}
		/* the name and unit, escaped, in the row's first cells */
		char source[16], name[96], unit[24];
		json_string(jr, "\"source\": \"", source, sizeof(source));
		json_string(jr, "\"name\": \"", name, sizeof(name));
		json_string(jr, "\"unit\": \"", unit, sizeof(unit));
		char *label = xasprintf("%s %s", source, name), *el = escaped(label), *eu = escaped(unit);
		int per_job = strstr(jr, "\"per_job\": true") && (!jnext || strstr(jr, "\"per_job\": true") < jnext);
		char *cells = xasprintf("<td class=\"l\">%s", el),
		     *ucell = xasprintf("<td class=\"l\">%s%s</td>", eu, per_job ? " per job" : "");
		const char *at = strstr(hr, cells), *uat = strstr(hr, ucell);
		if (!at || at > hend || !uat || uat > hend) {
			printf("# row %zu: %s not in the page's row\n", rows, label);
			all_same = 0;
		}
		free(label), free(el), free(eu), free(cells), free(ucell);
		int j_against = strstr(jr, "\"against_jobs_per_min\": true") &&
				(!jnext || strstr(jr, "\"against_jobs_per_min\": true") < jnext);
		int h_against = strncmp(hr, "<tr class=\"moved\"", strlen("<tr class=\"moved\"")) == 0;
		if (j_against != h_against)
			all_same = 0;
		against += j_against;
		if (!j_against && !first_other)
			first_other = rows;
		if (j_against && first_other)
			order = 0;
		hr = hend;
	}
	okf(rows == 4 && all_same, "the page's %zu rows carry the JSON's numbers, names and units", rows);
	is_int(against, 3, "three move against Jobs/Min, highlighted in the page as in the JSON");
	ok(order && first_other == 4, "those listed first; TIMER, which fell with Jobs/Min, after them");
	ok(!next_row(hr), "the page has no row the JSON lacks");
}

static void moved(void)
{
	int64_t a[3], b[3];
	side("quiet", 0, 1, a);
	side("hog", 1, 1, b);
	struct compare_group g[2] = {{a, 3}, {b, 3}};
	char *json = compare_json(g), *html = report_section(g);
	ok(html != NULL, "the report has a counters section");
	same_rows(json, html);
	double j_jpm = number_after(json, "\"jobs_per_min_change_pct\": ", NULL);
	double h_jpm = number_after(html, "data-jpm-pct=\"", NULL);
	okf(isfinite(j_jpm) && same(j_jpm, h_jpm), "the cell's Jobs/Min change: %g in both", h_jpm);
	ok(html && strstr(html, "compute, O_SYNC on, 4 tasks: B against A, Jobs/Min -40.0 %</h3>"),
	   "each cell headed by what it compares and its Jobs/Min change");
	ok(html && strstr(html, "i8042 &lt;kbd&gt; &amp; &quot;mouse&quot;") && !strstr(html, "<kbd>"),
	   "a counter's name is escaped");
	ok(html && strstr(html, "perf cpu-migrations ~</td>"), "a multiplexed counter marked ~");
	ok(html && strstr(html, "over the 5 counter tests of 1 cell with counters on both sides"),
	   "the note says how many tests the correction was over");
	ok(html && !strstr(html, "pgfault"), "pgfault, the same on both sides, not listed");
	free(json);
	free(html);
}

static void unmoved(void)
{
	int64_t a[3], b[3];
	side("same-a", 0, 1, a);
	side("same-b", 0, 1, b);
	struct compare_group g[2] = {{a, 3}, {b, 3}};
	char *json = compare_json(g), *html = report_section(g);
	ok(json && strstr(json, "\"moved\": [\n ]"), "compare --counters: nothing moved");
	ok(html && strstr(html, "No counter moved significantly: none of the 5 counter tests is below 0.05") &&
		   !strstr(html, "<table"),
	   "the report says so, with no table");
	free(json);
	free(html);
}

static void uncounted(void)
{
	int64_t a[3], b[3];
	side("bare-a", 0, 0, a);
	side("bare-b", 1, 0, b);
	struct compare_group g[2] = {{a, 3}, {b, 3}};
	char *json = compare_json(g), *html = report_section(g);
	ok(json && strstr(json, "\"cells_with_counters\": 0"), "compare --counters: no cell with counters");
	ok(html && strstr(html, "No counters to compare: no cell has the kernel's counters stored on both sides") &&
		   !strstr(html, "<table"),
	   "the report says the runs hold none");
	free(json);
	free(html);
}

int main(void)
{
	struct test_db db;
	if (test_db_open(&db) < 0)
		return 1;
	st = db.st;
	tap_case(moved);
	tap_case(unmoved);
	tap_case(uncounted);
	test_db_remove(&db);
	return done_testing();
}
