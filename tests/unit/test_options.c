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

/* Every option's value printed (as --dry-run does) reads back as the same value. */
static void formats(void)
{
	struct run_opts o, back;
	run_opts_defaults(&o);
	run_opts_defaults(&back);
	const char *why;
	static const char *const set[][2] = {{"workfile", "dbase"}, {"tasks", "1-4,8"}, {"filesize", "10K"},
					      {"poolsize", "1M"}, {"dirs", "/a"}, {"label", "6.1"},
					      {"threshold", "2.5"}, {"period", "1.5"}, {"osync", "both"}};
	for (size_t i = 0; i < ARRAY_SIZE(set); i++)
		option_set(&o, option_find(set[i][0]), set[i][1], &why);
	option_set(&o, option_find("dirs"), "/b", &why);
	int same = 1;
	for (size_t i = 0; i < option_count; i++) {
		const struct option_def *d = &option_table[i];
		char *text = option_format(&o, d), *again;
		if (d->type == OPT_STRLIST) { /* a list is given one item per flag */
			str_list_free(&back.dirs);
			for (char *save = NULL, *item = strtok_r(text, " ", &save); item; item = strtok_r(NULL, " ", &save))
				option_set(&back, d, item, &why);
			free(text);
			text = option_format(&o, d);
		} else if (option_set(&back, d, text, &why) < 0) {
			printf("# %s: '%s' does not read back: %s\n", d->key, text, why);
			same = 0;
		}
		again = option_format(&back, d);
		if (strcmp(text, again) != 0) {
			printf("# %s: '%s' reads back as '%s'\n", d->key, text, again);
			same = 0;
		}
		free(text);
		free(again);
	}
	ok(same, "every option prints as text that reads back as the same value");
	char *t = option_format(&o, option_find("tasks")), *k = option_format(&o, option_find("poolsize")),
	     *dirs = option_format(&o, option_find("dirs")), *sync = option_format(&o, option_find("osync"));
	ok(strcmp(t, "1,2,3,4,8") == 0 && strcmp(k, "1024K") == 0 && strcmp(dirs, "/a /b") == 0 &&
	   strcmp(sync, "both") == 0, "tasks, sizes, lists and choices as a suite gives them");
	free(t);
	free(k);
	free(dirs);
	free(sync);
	run_opts_free(&o);
	run_opts_free(&back);
}

int main(void)
{
	task_lists();
	sizes();
	table();
	formats();
	return done_testing();
}
