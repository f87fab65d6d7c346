/* Checks compare on synthetic runs: identical data is not significant, a 10% shift with low
 * noise is, --fail-above decides the regression flag, and single runs cannot be judged. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/report.h"
#include "store/store.h"
#include "tap.h"
#include "util/util.h"

static struct store *st;

/* A run with one workload whose points have the given Jobs/Min (reps repeats per task count). */
static int64_t fake_run(const char *label, const double *jpm, int reps, int ntasks)
{
	struct store_run r = {.uuid = label, .label = label, .suite_name = "s", .suite_text = "",
			      .command_line = "reaim", .version = "0", .mode = "sweep", .seed = 1};
	int64_t id, wl;
	store_run_begin(st, &r, NULL, &id);
	store_run_env(st, id, "cpu.online", "2");
	struct store_workload w = {.name = "dbase", .workfile_name = "dbase", .workfile_text = "", .sync_mode = "fsync",
				   .osync = "on", .dirs = "/tmp", .tasks = "1,2", .jobs_per_task = 10, .repeat = reps};
	store_workload_add(st, id, &w, &wl);
	for (int t = 0; t < ntasks; t++)
		for (int k = 0; k < reps; k++) {
			double v = jpm[t * reps + k];
			struct store_point p = {.run_id = id, .workload_id = wl, .osync = 1, .tasks = 1 << t, .repeat = k,
						.valid = 1, .jobs_per_task = 10, .jobs_per_min = v, .real_s = 600.0 / v,
						.user_s = 1, .sys_s = 1};
			struct store_test tt = {.name = "sieve", .count = 10, .total_s = 1000.0 / v, .p99_s = 300.0 / v};
			store_point_add(st, &p, &tt, 1, NULL, 0);
		}
	return id;
}

static char *compare(int64_t a, int64_t b, double fail_above, int *regressed)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int64_t ids[2] = {a, b};
	struct compare_options o = {.format = "table", .alpha = 0.05, .fail_above_pct = fail_above};
	report_compare(f, st, ids, 2, &o, regressed);
	fclose(f);
	return buf;
}

int main(void)
{
	char dir[] = "/tmp/reaim-cmp-XXXXXX";
	if (!mkdtemp(dir))
		return 1;
	char *db = xasprintf("%s/c.db", dir), err[256];
	if (store_open(db, &st, err, sizeof(err)) < 0)
		return 1;
	const double base[] = {1000, 1004, 996, 2000, 2010, 1990};
	const double same[] = {1000, 1004, 996, 2000, 2010, 1990};
	const double up10[] = {1100, 1104, 1096, 2200, 2210, 2190};
	const double down15[] = {850, 853, 847, 1700, 1710, 1690};
	int64_t b = fake_run("base", base, 3, 2), s = fake_run("same", same, 3, 2);
	int64_t u = fake_run("up10", up10, 3, 2), d = fake_run("down15", down15, 3, 2);
	const double one_a[] = {1000, 2000}, one_b[] = {900, 1800};
	int64_t oa = fake_run("single-a", one_a, 1, 2), ob = fake_run("single-b", one_b, 1, 2);

	int reg;
	char *out = compare(b, s, 0, &reg);
	ok(strstr(out, "+0.0% ") != NULL && strstr(out, "%*") == NULL, "identical data: no significant change");
	free(out);

	out = compare(b, u, 0, &reg);
	ok(strstr(out, "+10.0%*") != NULL, "a 10% shift with low noise is significant");
	ok(strstr(out, "geomean +10.0%") != NULL, "geometric mean of the ratios");
	ok(strstr(out, "sieve -9.1% (p99 -9%)") != NULL, "per-test attribution: mean and p99 job time change");
	ok(strstr(out, "Peak: base 2000.0 at 2 tasks") != NULL, "peak of the base");
	printf("# %s", out);
	free(out);

	out = compare(b, d, 10, &reg);
	ok(reg == 1, "-15% beyond --fail-above 10: regression");
	free(out);
	out = compare(b, d, 20, &reg);
	ok(reg == 0, "-15% within --fail-above 20: no regression");
	free(out);
	out = compare(b, u, 5, &reg);
	ok(reg == 0, "an improvement is never a regression");
	free(out);

	out = compare(oa, ob, 5, &reg);
	ok(strstr(out, "-10.0%?") != NULL, "single runs: significance cannot be judged");
	ok(reg == 1, "single runs: a drop beyond the threshold still fails");
	free(out);

	store_close(st);
	unlink(db);
	char *wal = xasprintf("%s-wal", db), *shm = xasprintf("%s-shm", db);
	unlink(wal);
	unlink(shm);
	rmdir(dir);
	free(wal);
	free(shm);
	free(db);
	return done_testing();
}
