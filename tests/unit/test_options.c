/* Checks task lists, sizes and the option table. */
#include "config.h"

#include <stdlib.h>

#include "config/cfg.h"
#include "tap.h"
#include "util/util.h"

static void expect_tasks(const char *spec, const char *want)
{
	struct task_list t;
	const char *why;
	char label[128];
	snprintf(label, sizeof(label), "tasks '%s'", spec);
	if (tasks_parse(spec, &t, &why) < 0) {
		is_str(why, want, label);
		return;
	}
	char *got = tasks_format(&t);
	is_str(got, want, label);
	free(got);
	tasks_free(&t);
}

static void task_lists(void)
{
	expect_tasks("1,2,4", "1,2,4");
	expect_tasks("8-64:8", "8,16,24,32,40,48,56,64");
	expect_tasks("1-512*2", "1,2,4,8,16,32,64,128,256,512");
	expect_tasks("3-5", "3,4,5");
	expect_tasks("1, 2-3", "1,2,3");
	expect_tasks("", "empty task list");
	expect_tasks("0", "bad task count (1 to 100000)");
	expect_tasks("100001", "bad task count (1 to 100000)");
	expect_tasks("1-648888", "bad range (expected A-B with 1 <= A <= B <= 100000)");
	expect_tasks("5-1", "bad range (expected A-B with 1 <= A <= B <= 100000)");
	expect_tasks("1-8*1", "bad factor after '*' (must be 2 or more)");
	expect_tasks("1-8:x", "bad step after ':'");
	expect_tasks("two", "bad task count (1 to 100000)");
}

static void sizes(void)
{
	long long k;
	ok(parse_kib("10K", &k) == 0 && k == 10, "10K");
	ok(parse_kib("10k", &k) == 0 && k == 10, "10k");
	ok(parse_kib("5M", &k) == 0 && k == 5120, "5M");
	ok(parse_kib("1G", &k) == 0 && k == 1048576, "1G");
	ok(parse_kib("64", &k) == 0 && k == 64, "plain number is KiB");
	ok(parse_kib("1MB", &k) == 0 && k == 1024, "1MB");
	ok(parse_kib("-1K", &k) < 0, "negative refused");
	ok(parse_kib("10X", &k) < 0, "bad unit refused");
	double s;
	ok(parse_seconds("90s", &s) == 0 && s == 90, "90s");
	ok(parse_seconds("5m", &s) == 0 && s == 300, "5m");
	ok(parse_seconds("x", &s) < 0, "bad duration refused");
}

static void table(void)
{
	struct run_opts o;
	const char *why;
	run_opts_defaults(&o);
	is_int(o.jobs_per_task, 100, "default jobs_per_task");
	is_int(o.osync, OSYNC_ON, "O_SYNC on by default");
	is_int(o.sync_mode, SYNC_FSYNC, "fsync sync points by default");
	is_int(o.filesize_kib, -1, "filesize unset until a workfile or default fills it");
	ok(option_find("sync-mode") == option_find("sync_mode"), "flags spell keys with '-'");
	ok(option_find("nonsense") == NULL, "unknown key");
	ok(option_find_short('t') == option_find("tasks"), "-t is tasks");
	ok(option_set(&o, option_find("osync"), "both", &why) == 0 && o.osync == OSYNC_BOTH, "osync both");
	ok(option_set(&o, option_find("osync"), "maybe", &why) < 0, "osync maybe refused");
	ok(option_set(&o, option_find("jobs_per_task"), "0", &why) < 0, "zero jobs refused");
	ok(option_set(&o, option_find("repeat"), "3", &why) == 0 && o.repeat == 3, "repeat 3");
	ok(option_set(&o, option_find("dirs"), "/a", &why) == 0 &&
	   option_set(&o, option_find("dirs"), "/b", &why) == 0 && o.dirs.count == 2, "dirs accumulate");
	struct run_opts copy;
	run_opts_copy(&copy, &o);
	option_swap(&copy, &o, option_find("repeat"));
	is_int(copy.repeat, 3, "swap keeps equal values");
	run_opts_free(&copy);
	run_opts_free(&o);
	int documented = 1;
	for (size_t i = 0; i < option_count; i++)
		documented &= option_table[i].help && option_table[i].arg && option_table[i].key;
	ok(documented, "every option has help and an argument name");
}

int main(void)
{
	task_lists();
	sizes();
	table();
	return done_testing();
}
