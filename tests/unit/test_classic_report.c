/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checks the outputs other programs parse, by parsing them as those programs do: LKP's reaim,
 * aim7 and aim9 parsers, mmtests' reaim CSV and aim9 extraction, autotest's reaim keyval and
 * LAVA's send-to-lava; their patterns are written here as our own test data. */
#include "config.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/classic.h"
#include "tap.h"

/* ---- the clients' patterns (from their public parsers, in POSIX ERE) ---- */

/* LKP programs/reaim/parse: a row is /^[ \d.]+$/; its fields after the first, in order */
static const char lkp_reaim_row[] = "^[ 0-9.]+$";
static const char *const lkp_reaim_keys[] = {"parent_time", "child_systime", "child_utime", "jobs_per_min",
					     "jobs_per_min_child", "std_dev_time", "std_dev_percent", "jti"};
/* autotest client/tests/reaim: re.match('Max Jobs per Minute (\d+)'), rows r"^[0-9\. ]+$" */
static const char autotest_max[] = "^Max Jobs per Minute ([0-9]+)";
static const char autotest_row[] = "^[0-9. ]+$";
/* LKP programs/aim7/parse: /Tasks.*jobs\/min.*jti/, then the next line's $2..$6 */
static const char lkp_aim7_head[] = "Tasks.*jobs/min.*jti";
/* LKP programs/aim9/parse: /^[ ]+[0-9]+.*[ ]+[0-9|.]+.*\/ -> "$2.ops_per_sec: $6" */
static const char lkp_aim9_row[] = "^[ ]+[0-9]+.*[ ]+[0-9|.]+.*";
/* mmtests aim9 parse-results: grep -E '[a-z]*_test', then $2 and $6 */
static const char mmtests_aim9_row[] = "[a-z]*_test";
/* Linaro send-to-lava.sh: grep -iq -E on each result.txt line */
static const char lava_measured[] = ".*+ (pass|fail|skip|unknown)+ .*+";
static const char lava_plain[] = ".* +(pass|fail|skip|unknown)$";

static int matches(const char *pattern, const char *line, regmatch_t *m, size_t nm)
{
	regex_t re;
	if (regcomp(&re, pattern, REG_EXTENDED | REG_ICASE | (m ? 0 : REG_NOSUB)) != 0)
		return 0;
	int hit = regexec(&re, line, m ? nm : 0, m, 0) == 0;
	regfree(&re);
	return hit;
}

/* Whitespace-split fields of line (awk's $1.. are fields[0..]); returns how many. */
static int split(char *line, char **fields, int max)
{
	int n = 0;
	for (char *w = strtok(line, " \t"); w && n < max; w = strtok(NULL, " \t"))
		fields[n++] = w;
	return n;
}

/* Render into a string. */
#define RENDER(buf, call)                                                                                 \
	do {                                                                                              \
		size_t len_;                                                                              \
		FILE *f_ = open_memstream(&(buf), &len_);                                                 \
		call;                                                                                     \
		fclose(f_);                                                                               \
	} while (0)

/* ---- test data: a run of three task counts, the middle one invalid, and an AIM9 run ---- */

static struct store_point multi[4];
static struct store_point single[5];

static void make_points(void)
{
	const struct store_point a = {.workload_id = 1, .osync = 1, .tasks = 1, .valid = 1, .jobs_per_task = 100,
				      .file_kib = 1034, .jobs_per_min = 3157.894, .jobs_per_min_task = 3157.894,
				      .real_s = 1.9, .user_s = 1.234, .sys_s = 0.456, .cpu_s = 1.69,
				      /* less than the lives: the classic outputs must keep classic's whole-life CPU */
				      .window_cpu_s = 0.5, .std_dev_s = 0, .std_dev_pct = 0, .jti = 100, .min_task_s = 1.9,
				      .max_task_s = 1.9};
	multi[0] = a;
	multi[1] = a;
	multi[1].tasks = 4;
	multi[1].valid = 0;
	multi[2] = a;
	multi[2].tasks = 8;
	multi[2].jobs_per_min = 9876.543;
	multi[2].jobs_per_min_task = 1234.568;
	multi[2].real_s = 4.86;
	multi[2].user_s = 9.87;
	multi[2].sys_s = 3.21;
	multi[2].cpu_s = 13.08;
	multi[2].std_dev_s = 0.123;
	multi[2].std_dev_pct = 2.6;
	multi[2].jti = 97.4;
	multi[2].min_task_s = 4.5;
	multi[2].max_task_s = 4.86;
	/* a second round of 8 tasks */
	multi[3] = multi[2];
	multi[3].repeat = 1;
	multi[3].jobs_per_min = 9000.25;
	for (size_t i = 0; i < 4; i++)
		snprintf(multi[i].workload, sizeof(multi[i].workload), "dbase");

	/* single-user: a calibration point, then the measured one, per test */
	const char *names[] = {"add_int", "add_int", "creat_clo", "disk_rr", "page_test"};
	const long long calls[] = {1, 200, 3000, 40, 700};
	for (int i = 0; i < 5; i++) {
		struct store_point *p = &single[i];
		memset(p, 0, sizeof(*p));
		snprintf(p->workload, sizeof(p->workload), "%s", names[i]);
		p->workload_id = i > 0 ? i : 1;
		p->tasks = 1;
		p->valid = 1;
		p->repeat = i == 1;
		p->jobs_per_task = calls[i];
		p->file_kib = 1034;
		p->real_s = 2.0;
	}
}

/* ---- re-aim-7 stdout: LKP and autotest ---- */

static void reaim7_tests(void)
{
	char *out = NULL;
	RENDER(out, report_reaim7(f_, multi, 4));
	int rows = 0, right = 1, maxes = 0;
	double autotest_last_jpm = 0;
	long autotest_max_jpm = -1;
	char *copy;
	copy = strdup(out);
	for (char *ln = copy, *nl; ln && *ln; ln = nl) {
		nl = strchr(ln, '\n');
		if (nl)
			*nl++ = '\0';
		regmatch_t m[2];
		if (matches(autotest_max, ln, m, 2)) {
			autotest_max_jpm = strtol(ln + m[1].rm_so, NULL, 10);
			maxes++;
		}
		if (!matches(lkp_reaim_row, ln, NULL, 0))
			continue;
		char *save = strdup(ln), *fields[16];
		int nf = split(save, fields, 16);
		const struct store_point *p = rows == 0 ? &multi[0] : rows == 1 ? &multi[2] : &multi[3];
		const double want[] = {p->real_s, p->sys_s, p->user_s, p->jobs_per_min, p->jobs_per_min_task,
				       p->std_dev_s, p->std_dev_pct, (int)p->jti};
		right &= nf == 9 && atoi(fields[0]) == p->tasks;
		for (int k = 0; k < 8 && nf == 9; k++)
			if (!(fabs(atof(fields[k + 1]) - want[k]) <= 0.005)) {
				printf("# row %d: %s is %s, stored %g\n", rows, lkp_reaim_keys[k], fields[k + 1], want[k]);
				right = 0;
			}
		if (matches(autotest_row, ln, NULL, 0) && nf == 9)
			autotest_last_jpm = atof(fields[4]);
		rows++;
		free(save);
	}
	free(copy);
	is_int(rows, 3, "LKP's reaim parser finds a row per valid point, none for the invalid one");
	ok(right, "each row carries the stored figures in the columns LKP's keys name");
	is_int(maxes, 2, "a Max Jobs per Minute line per round");
	is_int(autotest_max_jpm, 9000, "autotest's max_jobs_per_min: the last round's maximum, integer part");
	is_near(autotest_last_jpm, 9000.25, 0.005, "autotest's jobs_min: its last row");
	ok(strstr(out, "Num     Parent   Child   Child  Jobs per   Jobs/min/  Std_dev  Std_dev  JTI\n") != NULL,
	   "re-aim-7's heading");
	ok(strstr(out, "8       4.86     3.21    9.87    9876.54    1234.57    0.12     2.60     97   \n") != NULL,
	   "a row column for column (JTI cut to an int)");
	free(out);

	/* a round whose every point is invalid: no Max line a parser would read as 0 Jobs/Min measured */
	RENDER(out, report_reaim7(f_, &multi[1], 1));
	ok(strstr(out, "Max Jobs per Minute") == NULL, "a round without a valid point has no Max line");
	free(out);
	RENDER(out, report_reaim7_max(f_, &multi[1], 1));
	is_str(out, "", "nor a Max line of its own");
	free(out);

	RENDER(out, report_reaim7_preamble(f_, 0); report_reaim7_preamble(f_, 1));
	is_str(out, "\nUsing default sync behavior during disk activity;  consider using -y.\n"
		    "\nNot executing sync during disk activity---faster execution.\n",
	       "the sync line, with and without -y");
	free(out);
}

/* ---- PREFIX.csv: mmtests' ExtractReaim ---- */

static void csv_tests(void)
{
	char *out = NULL;
	RENDER(out, report_classic_csv(f_, multi, 4));
	char *copy = strdup(out), *line = copy, *nl = strchr(line, '\n');
	*nl = '\0';
	/* mmtests splits the header on ',' and takes the index of "JPM" */
	int index = -1, k = 0;
	for (char *h = strtok(line, ","); h; h = strtok(NULL, ","), k++)
		if (strcmp(h, "JPM") == 0)
			index = k;
	is_int(index, 1, "the header has JPM where mmtests looks for it");
	int rows = 0, right = 1;
	for (char *ln = nl + 1, *next; ln && *ln; ln = next) {
		next = strchr(ln, '\n');
		if (next)
			*next++ = '\0';
		char *e[16];
		int ne = 0;
		for (char *w = strtok(ln, ","); w && ne < 16; w = strtok(NULL, ","))
			e[ne++] = w;
		const struct store_point *p = rows == 0 ? &multi[0] : rows == 1 ? &multi[2] : &multi[3];
		right &= ne == 11 && atoi(e[0]) == p->tasks && fabs(atof(e[index]) - p->jobs_per_min) <= 0.005;
		right &= fabs(atof(e[5]) - p->user_s) <= 0.005 && fabs(atof(e[6]) - p->sys_s) <= 0.005;
		rows++;
	}
	is_int(rows, 3, "one CSV row per valid point");
	ok(right, "Forks and JPM (mmtests' key and value) and the child times in classic's columns");
	static const char head[] = "Forks,JPM,JPM_C,JPS_C,parent_tm,childU_tm,childS_tm,std_dev,JTI,max_c,min_c\n"
				   "1,3157.89,3157.89,52.63,1.90,1.23,0.46,0.00,100.00,1.90,1.90\n";
	ok(strncmp(out, head, strlen(head)) == 0, "classic's header and number format");
	free(copy);
	free(out);
}

/* ---- AIM Suite VII: LKP's aim7 parser ---- */

static void aim7_tests(void)
{
	char *out = NULL;
	RENDER(out, report_aim7(f_, multi, 3));
	char *copy = strdup(out), *after = NULL;
	for (char *ln = copy, *nl; ln && *ln; ln = nl) {
		nl = strchr(ln, '\n');
		if (nl)
			*nl++ = '\0';
		if (matches(lkp_aim7_head, ln, NULL, 0)) {
			after = nl;
			break;
		}
	}
	ok(after != NULL, "LKP finds the Tasks heading");
	if (after) {
		char *nl = strchr(after, '\n'), *f[8];
		if (nl)
			*nl = '\0';
		int nf = split(after, f, 8);
		ok(nf == 6 && atoi(f[0]) == 1, "the next line is the first point");
		is_near(atof(f[1]), multi[0].jobs_per_min, 0.005, "jobs-per-min is $2");
		is_int(atoi(f[2]), 100, "jti is $3");
		is_near(atof(f[3]), multi[0].jobs_per_min_task, 0.00005, "jobs-per-min-per-task is $4");
		is_near(atof(f[4]), multi[0].real_s, 0.005, "real is $5");
		is_near(atof(f[5]), multi[0].cpu_s, 0.005, "cpu is $6");
	}
	ok(strstr(out, "    8     9876.54   97      1234.5680      4.86     13.08\n") != NULL,
	   "AIM7's row layout");
	free(copy);
	free(out);
}

/* ---- AIM Suite IX: LKP's and mmtests' aim9 parsers ---- */

static void aim9_tests(void)
{
	char *out = NULL;
	RENDER(out, report_aim9(f_, single, 5));
	int lkp = 0, mm = 0, right = 1;
	char *copy = strdup(out);
	for (char *ln = copy, *nl; ln && *ln; ln = nl) {
		nl = strchr(ln, '\n');
		if (nl)
			*nl++ = '\0';
		int is_lkp = matches(lkp_aim9_row, ln, NULL, 0), is_mm = matches(mmtests_aim9_row, ln, NULL, 0);
		if (!is_lkp && !is_mm)
			continue;
		char *save = strdup(ln), *f[16];
		int nf = split(save, f, 16);
		lkp += is_lkp;
		mm += is_mm;
		double ops = nf > 5 ? atof(f[5]) : -1;
		if (nf > 5 && strcmp(f[1], "add_int") == 0)
			right &= fabs(ops - 200 / 2.0 * 60000) < 0.01; /* 100 calls/s x 60,000 thousand adds */
		else if (nf > 5 && strcmp(f[1], "creat-clo") == 0)
			right &= fabs(ops - 3000 / 2.0 * 1000) < 0.01;
		else if (nf > 5 && strcmp(f[1], "disk_rr") == 0)
			right &= fabs(ops - 40 / 2.0 * 1034) < 0.01; /* KiB/s: calls/s x n */
		else if (nf > 5 && strcmp(f[1], "page_test") == 0)
			right &= fabs(ops - 700 / 2.0 * 1700) < 0.01;
		else
			right = 0;
		free(save);
	}
	free(copy);
	is_int(lkp, 4, "LKP's aim9 parser finds one row per test (the measured point, not the calibration)");
	ok(right, "$2 is AIM9's test name and $6 its ops/s");
	is_int(mm, 1, "mmtests' aim9 extraction finds the *_test rows");
	ok(strstr(out, "     1 add_int              2.00        200  100.00000      6000000.00 ") != NULL,
	   "AIM9's row layout");
	ok(strstr(out, " Test        Test        Elapsed  Iteration    Iteration          Operation\n"
		       "Number       Name      Time (sec)   Count   Rate (loops/sec)    Rate (ops/sec)\n") != NULL,
	   "AIM9's heading");
	free(out);

	/* a fast test: count and rate stay separate columns however wide they grow */
	struct store_point fast = single[0];
	fast.jobs_per_task = 123456789;
	fast.repeat = 9;
	RENDER(out, report_aim9(f_, &fast, 1));
	char *row = strstr(out, "     1 add_int");
	char *f9[16];
	int n9 = row ? split(row, f9, 16) : 0;
	ok(n9 >= 6 && strtoll(f9[3], NULL, 10) == 123456789 && fabs(atof(f9[4]) - 61728394.5) < 0.01,
	   "AIM9's columns stay apart for a large count and rate");
	free(out);

	RENDER(out, report_reaim7_single(f_, single, 5));
	ok(strstr(out, "1      add_int      2.00      200       100.00          6000000.00 ") != NULL,
	   "re-aim-7's single-user row");
	free(out);
}

/* ---- LAVA ---- */

/* How many of out's test case names are given more than once. */
static int lava_repeats(const char *out, size_t *lines)
{
	char *copy = strdup(out), *names[64];
	size_t nl = 0;
	int repeats = 0;
	for (char *ln = strtok(copy, "\n"); ln && nl < 64; ln = strtok(NULL, "\n")) {
		*strchr(ln, ' ') = '\0';
		for (size_t k = 0; k < nl; k++)
			repeats += strcmp(names[k], ln) == 0;
		names[nl++] = ln;
	}
	free(copy);
	*lines = nl;
	return repeats;
}

/* A --load run and a --cpus run: each load's and CPU count's points and maximum named apart. */
static void lava_arm_tests(void)
{
	struct store_point arm[4];
	const double jpm[] = {100, 40, 300, 80};
	for (size_t i = 0; i < 4; i++) {
		arm[i] = multi[0];
		arm[i].id = (int64_t)i + 1;
		arm[i].tasks = i < 2 ? 1 : 2;
		arm[i].jobs_per_min = jpm[i];
		snprintf(arm[i].load, sizeof(arm[i].load), "%s", i % 2 ? "process" : "no_load");
	}
	char *out = NULL;
	size_t nl;
	RENDER(out, report_lava(f_, arm, 4, 0));
	is_int(lava_repeats(out, &nl), 0, "loads: no test case name repeats");
	ok(strstr(out, "dbase-load_no_load-osync_on-tasks_2-jobs_per_min pass 300.00 jobs/min\n") &&
	   strstr(out, "dbase-load_process-osync_on-tasks_2-jobs_per_min pass 80.00 jobs/min\n"),
	   "loads: each point's test case names its load");
	ok(strstr(out, "dbase-load_no_load-osync_on-max_jobs_per_min pass 300.00 jobs/min\n") &&
	   strstr(out, "dbase-load_process-osync_on-max_jobs_per_min pass 80.00 jobs/min\n"),
	   "loads: a maximum per load, never a loaded figure as the workload's");
	free(out);
	for (size_t i = 0; i < 4; i++) {
		arm[i].load[0] = '\0';
		arm[i].tasks = 1;
		arm[i].repeat = (int)(i % 2);
		arm[i].cpus = i < 2 ? 1 : 2;
	}
	RENDER(out, report_lava(f_, arm, 4, 0));
	is_int(lava_repeats(out, &nl), 0, "CPU counts: no test case name repeats");
	ok(strstr(out, "dbase-cpus_2-osync_on-tasks_1-jobs_per_min pass 300.00 jobs/min\n") &&
	   strstr(out, "dbase-cpus_1-osync_on-max_jobs_per_min pass 70.00 jobs/min\n") && nl == 4 * 4 + 2,
	   "CPU counts: each block's test cases and maximum name its count");
	free(out);
}

static void lava_tests(void)
{
	char *out = NULL;
	RENDER(out, report_lava(f_, multi, 4, 0));
	is_str(out, "dbase-osync_on-tasks_1-jobs_per_min pass 3157.89 jobs/min\n"
		    "dbase-osync_on-tasks_1-real_s pass 1.9000 s\n"
		    "dbase-osync_on-tasks_1-cpu_s pass 1.6900 s\n"
		    "dbase-osync_on-tasks_1-jti pass 100.00 %\n"
		    "dbase-osync_on-tasks_4-jobs_per_min fail\n"
		    "dbase-osync_on-tasks_4-real_s fail\n"
		    "dbase-osync_on-tasks_4-cpu_s fail\n"
		    "dbase-osync_on-tasks_4-jti fail\n"
		    "dbase-osync_on-tasks_8-jobs_per_min pass 9876.54 jobs/min\n"
		    "dbase-osync_on-tasks_8-real_s pass 4.8600 s\n"
		    "dbase-osync_on-tasks_8-cpu_s pass 13.0800 s\n"
		    "dbase-osync_on-tasks_8-jti pass 97.40 %\n"
		    "dbase-osync_on-tasks_8-round_2-jobs_per_min pass 9000.25 jobs/min\n"
		    "dbase-osync_on-tasks_8-round_2-real_s pass 4.8600 s\n"
		    "dbase-osync_on-tasks_8-round_2-cpu_s pass 13.0800 s\n"
		    "dbase-osync_on-tasks_8-round_2-jti pass 97.40 %\n"
		    "dbase-osync_on-max_jobs_per_min pass 9438.40 jobs/min\n",
	       "every figure of each point (Jobs/Min, Real, CPU, JTI), and the maximum: the best mean over rounds");
	int measured = 0, plain = 0, fields_right = 1;
	char *copy = strdup(out);
	for (char *ln = copy, *nl; ln && *ln; ln = nl) {
		nl = strchr(ln, '\n');
		if (nl)
			*nl++ = '\0';
		if (matches(lava_plain, ln, NULL, 0)) {
			plain++;
			continue;
		}
		if (matches(lava_measured, ln, NULL, 0)) {
			char *save = strdup(ln), *f[8];
			int nf = split(save, f, 8);
			fields_right &= nf == 4 && strcmp(f[1], "pass") == 0 && atof(f[2]) > 0 &&
					(strcmp(f[3], "jobs/min") == 0 || strcmp(f[3], "s") == 0 || strcmp(f[3], "%") == 0);
			measured++;
			free(save);
		}
	}
	free(copy);
	is_int(measured, 13, "send-to-lava reads thirteen measurements (four a valid point, the maximum)");
	is_int(plain, 4, "and four results without a measurement (the invalid point's)");
	ok(fields_right, "awk's $1..$4: name, result, measurement, units");
	free(out);

	RENDER(out, report_lava(f_, single, 5, 1));
	ok(strstr(out, "creat_clo-ops_per_sec pass 1500000.00 ops/s\n") != NULL, "single-user: ops/s per test");
	free(out);

	/* two variants at 1 task, two rounds each: a test case name and a maximum per variant */
	struct store_point var[4];
	const double jpm[] = {100, 300, 200, 220};
	for (size_t i = 0; i < 4; i++) {
		var[i] = multi[0];
		var[i].id = (int64_t)i + 1;
		var[i].repeat = (int)(i / 2);
		var[i].jobs_per_min = jpm[i];
		snprintf(var[i].variant, sizeof(var[i].variant), "%s", i % 2 ? "new" : "old");
	}
	RENDER(out, report_lava(f_, var, 4, 0));
	ok(strstr(out, "dbase-variant_old-osync_on-tasks_1-jobs_per_min pass 100.00 jobs/min\n") &&
	   strstr(out, "dbase-variant_new-osync_on-tasks_1-jobs_per_min pass 300.00 jobs/min\n") &&
	   strstr(out, "dbase-variant_old-osync_on-tasks_1-round_2-jobs_per_min pass 200.00 jobs/min\n"),
	   "variants: each point's test case names its variant");
	ok(strstr(out, "dbase-variant_old-osync_on-max_jobs_per_min pass 150.00 jobs/min\n") &&
	   strstr(out, "dbase-variant_new-osync_on-max_jobs_per_min pass 260.00 jobs/min\n"),
	   "variants: a maximum per variant, the best mean, not the variants pooled");
	int unique = 1;
	char *copy2 = strdup(out);
	size_t nl = 0;
	char *lines[64];
	for (char *ln = strtok(copy2, "\n"); ln && nl < 64; ln = strtok(NULL, "\n")) {
		*strchr(ln, ' ') = '\0';
		for (size_t k = 0; k < nl; k++)
			unique &= strcmp(lines[k], ln) != 0;
		lines[nl++] = ln;
	}
	ok(unique && nl == 4 * 4 + 2, "variants: no test case name repeats");
	free(copy2);
	free(out);
	lava_arm_tests();
}

int main(void)
{
	make_points();
	tap_case(reaim7_tests);
	tap_case(csv_tests);
	tap_case(aim7_tests);
	tap_case(aim9_tests);
	tap_case(lava_tests);
	is_str(report_aim9_name("creat_clo"), "creat-clo", "AIM9 spells creat_clo creat-clo");
	return done_testing();
}
