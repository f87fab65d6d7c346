/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checks task lists, sizes and the option table: every numeric option at and past its bounds,
 * with infinities, NaN, huge and negative values; list options by their table offset. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/cfg.h"
#include "tap.h"
#include "util/util.h"

static void expect_tasks(const char *spec, const char *want)
{
	struct task_list t;
	char why[256];
	char label[128];
	snprintf(label, sizeof(label), "tasks '%s'", spec);
	if (tasks_parse(spec, &t, why, sizeof(why)) < 0) {
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
	expect_tasks("0", "bad task count");
	expect_tasks("100001", "bad task count");
	expect_tasks("1-648888", "bad range (expected A-B with 1 <= A <= B <= 100000)");
	expect_tasks("5-1", "bad range (expected A-B with 1 <= A <= B <= 100000)");
	expect_tasks("1-8*1", "bad factor after '*' (must be 2 or more)");
	expect_tasks("1-8:x", "bad step after ':'");
	expect_tasks("two", "bad task count");
	expect_tasks("1,1-100000", "too many task counts");
	expect_tasks("99999999999999999999", "bad task count");
	expect_tasks("1-100000*1000", "1,1000");
	/* an empty item is an error, never skipped */
	expect_tasks("1,,2", "an empty item between two commas");
	expect_tasks("1, ,2", "an empty item between two commas");
	expect_tasks("1,2,", "an empty item after the last comma");
	expect_tasks(",1", "an empty item before the first comma");
	expect_tasks(",", "an empty item before the first comma");
	expect_tasks(" ", "empty task list");
	expect_tasks("1 2,4", "1,2,4");
	/* the item at fault, to point at */
	static const struct {
		const char *spec, *item;
	} bad[] = {
		{.spec = "1,2,x", .item = "x"},    {.spec = "1,8-2,4", .item = "8-2"}, {.spec = "1 x,2", .item = "x"},
		{.spec = "1,,2", .item = ""},      {.spec = "x", .item = NULL},        {.spec = "1,2", .item = NULL},
		{.spec = "1,1-100000", .item = NULL},
	};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		char *got = tasks_bad_item(bad[i].spec), label[96];
		snprintf(label, sizeof(label), "the bad item of '%s'", bad[i].spec);
		if (bad[i].item)
			is_str(got, bad[i].item, label);
		else
			ok(got == NULL, label);
		free(got);
	}
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
	char why[256];
	run_opts_defaults(&o);
	is_int(o.jobs_per_task, 100, "default jobs_per_task");
	is_int(o.osync, OSYNC_ON, "O_SYNC on by default");
	is_int(o.sync_mode, SYNC_FSYNC, "fsync sync points by default");
	is_int(o.filesize_kib, -1, "filesize unset until a workfile or default fills it");
	ok(option_find("sync-mode") == option_find("sync_mode"), "flags spell keys with '-'");
	ok(option_find("nonsense") == NULL, "unknown key");
	ok(option_find_short('t') == option_find("tasks"), "-t is tasks");
	ok(option_set(&o, option_find("osync"), "both", why, sizeof(why)) == 0 && o.osync == OSYNC_BOTH, "osync both");
	ok(option_set(&o, option_find("osync"), "maybe", why, sizeof(why)) < 0, "osync maybe refused");
	ok(option_set(&o, option_find("label"), "a,b", why, sizeof(why)) < 0 && strstr(why, "comma"), "a label with a comma refused");
	ok(option_set(&o, option_find("label"), "12", why, sizeof(why)) < 0, "a label that reads as a run id refused");
	ok(option_set(&o, option_find("label"), "last~3", why, sizeof(why)) < 0, "a label that reads as last~N refused");
	ok(option_set(&o, option_find("label"), "6.1-rc2", why, sizeof(why)) == 0, "a kernel release is a label");
	ok(option_set(&o, option_find("label"), "0", why, sizeof(why)) == 0, "'0' names no run by id: a label");
	ok(option_set(&o, option_find("label"), "lastweek", why, sizeof(why)) == 0, "'lastweek' is no run's place: a label");
	ok(option_set(&o, option_find("jobs_per_task"), "0", why, sizeof(why)) < 0, "zero jobs refused");
	ok(option_set(&o, option_find("repeat"), "3", why, sizeof(why)) == 0 && o.repeat == 3, "repeat 3");
	ok(option_set(&o, option_find("dirs"), "/a", why, sizeof(why)) == 0 &&
	   option_set(&o, option_find("dirs"), "/b", why, sizeof(why)) == 0 && o.dirs.count == 2, "dirs accumulate");
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

/* Value a (0) or b (1) of an option, within its bounds, different from each other. */
static const char *sample_value(const struct option_def *d, int b, char *buf, size_t len)
{
	if (strcmp(d->key, "load") == 0) /* a list of the loads' names */
		return b ? "io" : "process";
	switch (d->type) {
	case OPT_INT: snprintf(buf, len, "%lld", d->min + 1 + b); return buf;
	case OPT_KIB: return b ? "16" : "8";
	case OPT_ENUM: return d->choices[b];
	case OPT_DOUBLE:
	case OPT_SECONDS:
	case OPT_TASKS: return b ? "3" : "2";
	case OPT_STR: return b ? "b2" : "a1";
	case OPT_STRLIST: return b ? "b=y" : "a=x";
	}
	return NULL;
}

/* Each row writes its own member, all of it and nothing else (the table's types match the
 * struct's): with every option set, changing one changes that option's text and no other's,
 * as a long long written over an int member would change its neighbour. */
static void own_members(void)
{
	struct run_opts o;
	char why[256];
	char buf[32];
	char *before[64];
	int set = 1, own = 1;
	run_opts_defaults(&o);
	for (size_t i = 0; i < option_count; i++) {
		option_clear(&o, &option_table[i]);
		set &= option_set(&o, &option_table[i], sample_value(&option_table[i], 0, buf, sizeof(buf)), why, sizeof(why)) == 0;
	}
	ok(set, "every option takes a sample value");
	for (size_t i = 0; i < option_count; i++)
		before[i] = option_text(&o, &option_table[i]);
	for (size_t i = 0; i < option_count; i++) {
		const struct option_def *d = &option_table[i];
		option_clear(&o, d);
		if (option_set(&o, d, sample_value(d, 1, buf, sizeof(buf)), why, sizeof(why)) < 0)
			own = 0;
		for (size_t j = 0; j < option_count; j++) {
			char *t = option_text(&o, &option_table[j]);
			if ((strcmp(t, before[j]) != 0) != (i == j)) {
				printf("#   setting %s to %s: %s is '%s', was '%s'\n", d->key, buf, option_table[j].key, t, before[j]);
				own = 0;
			}
			free(t);
		}
		option_clear(&o, d);
		option_set(&o, d, sample_value(d, 0, buf, sizeof(buf)), why, sizeof(why));
	}
	ok(own, "each option writes its own member and no other");
	for (size_t i = 0; i < option_count; i++)
		free(before[i]);
	run_opts_free(&o);
}

/* Every option's value printed (as --dry-run does) reads back as the same value. */
static void text_formats(void)
{
	struct run_opts o, back;
	run_opts_defaults(&o);
	run_opts_defaults(&back);
	char why[256];
	static const char *const set[][2] = {{"workfile", "dbase"}, {"tasks", "1-4,8"}, {"filesize", "10K"},
					      {"poolsize", "1M"}, {"dirs", "/a"}, {"label", "6.1"},
					      {"threshold", "2.5"}, {"period", "1.5"}, {"osync", "both"},
					      {"point_hook", "perf record -a"}, {"point_hook_tasks", "2,4"},
					      {"cpus", "1,2"}};
	for (size_t i = 0; i < ARRAY_SIZE(set); i++)
		option_set(&o, option_find(set[i][0]), set[i][1], why, sizeof(why));
	option_set(&o, option_find("dirs"), "/b", why, sizeof(why));
	int same = 1;
	for (size_t i = 0; i < option_count; i++) {
		const struct option_def *d = &option_table[i];
		char *text = option_text(&o, d), *again;
		if (d->type == OPT_STRLIST) { /* a list is given one item per flag */
			str_list_free(&back.dirs);
			for (char *save = NULL, *item = strtok_r(text, " ", &save); item; item = strtok_r(NULL, " ", &save))
				option_set(&back, d, item, why, sizeof(why));
			free(text);
			text = option_text(&o, d);
		} else if (option_set(&back, d, text, why, sizeof(why)) < 0) {
			printf("# %s: '%s' does not read back: %s\n", d->key, text, why);
			same = 0;
		}
		again = option_text(&back, d);
		if (strcmp(text, again) != 0) {
			printf("# %s: '%s' reads back as '%s'\n", d->key, text, again);
			same = 0;
		}
		free(text);
		free(again);
	}
	ok(same, "every option prints as text that reads back as the same value");
	char *t = option_text(&o, option_find("tasks")), *k = option_text(&o, option_find("poolsize")),
	     *dirs = option_text(&o, option_find("dirs")), *sync = option_text(&o, option_find("osync"));
	ok(strcmp(t, "1,2,3,4,8") == 0 && strcmp(k, "1024K") == 0 && strcmp(dirs, "/a /b") == 0 &&
	   strcmp(sync, "both") == 0, "tasks, sizes, lists and choices as a suite gives them");
	free(t);
	free(k);
	free(dirs);
	free(sync);
	run_opts_free(&o);
	run_opts_free(&back);
}

/* Each option of o as text, parsed into a fresh set and formatted again, must read the same. */
static void format_round_trip(const struct run_opts *o, const char *what)
{
	struct run_opts back;
	run_opts_defaults(&back);
	str_list_free(&back.dirs);
	int same = 1;
	for (size_t i = 0; i < option_count; i++) {
		const struct option_def *def = &option_table[i];
		struct str_list v, again;
		char why[256];
		option_format(o, def, &v);
		for (size_t k = 0; k < v.count; k++)
			if (option_set(&back, def, v.v[k], why, sizeof(why)) < 0) {
				printf("#   %s '%s': %s\n", def->key, v.v[k], why);
				same = 0;
			}
		option_format(&back, def, &again);
		same &= again.count == v.count;
		for (size_t k = 0; k < v.count && k < again.count; k++)
			if (strcmp(v.v[k], again.v[k]) != 0) {
				printf("#   %s: '%s' came back as '%s'\n", def->key, v.v[k], again.v[k]);
				same = 0;
			}
		str_list_free(&v);
		str_list_free(&again);
	}
	ok(same, what);
	run_opts_free(&back);
}

static void formats(void)
{
	struct run_opts o;
	char why[256];
	run_opts_defaults(&o);
	format_round_trip(&o, "defaults format to text that parses back to them");
	static const char *const set[][2] = {
		{"tasks", "1-512*2"}, {"jobs_per_task", "10000000"}, {"osync", "both"}, {"sync_mode", "global"},
		{"filesize", "5M"}, {"poolsize", "1G"}, {"dirs", "/a b"}, {"dirs", "/c:d"}, {"seed", "9223372036854775807"},
		{"label", "6.1 \"rc\" x"}, {"mode", "peak"}, {"threshold", "0.1"}, {"period", "1.5m"},
		{"sample_interval", "0.001"}, {"timeout", "3h"}, {"workfile", "dbase"},
		{"variant", "none=echo none > /sys/block/vda/queue/scheduler"}, {"variant", "b="},
		{"precision", "0.5"}, {"max_repeat", "1000"},
	};
	int all_set = 1;
	for (size_t i = 0; i < ARRAY_SIZE(set); i++)
		all_set &= option_set(&o, option_find(set[i][0]), set[i][1], why, sizeof(why)) == 0;
	ok(all_set, "extreme values set");
	format_round_trip(&o, "extreme values format to text that parses back to them");
	struct str_list v;
	option_format(&o, option_find("filesize"), &v);
	ok(v.count == 1 && strcmp(v.v[0], "5120K") == 0, "a size is written in KiB with its unit");
	str_list_free(&v);
	option_format(&o, option_find("threshold"), &v);
	ok(v.count == 1 && strcmp(v.v[0], "0.1") == 0, "a fraction in its shortest exact form");
	str_list_free(&v);
	option_format(&o, option_find("dirs"), &v);
	ok(v.count == 2 && strcmp(v.v[1], "/c:d") == 0, "a list option gives one text per item");
	str_list_free(&v);
	o.filesize_kib = -1;
	option_format(&o, option_find("filesize"), &v);
	ok(v.count == 0, "an unresolved size gives nothing");
	str_list_free(&v);
	run_opts_free(&o);
}

/* The bounds of one row as text a user could give: (min, max) and the values just outside. */
static void bound_texts(const struct option_def *d, char lo[32], char hi[32], char below[32], char above[32])
{
	if (d->type == OPT_SECONDS) {
		double min_s = d->min == 0 ? 0.001 : (double)d->min / 1000, max_s = (double)d->max / 1000;
		snprintf(lo, 32, "%.17g", min_s);
		snprintf(hi, 32, "%.17g", max_s);
		snprintf(below, 32, "%.17g", min_s / 2);
		snprintf(above, 32, "%.17g", max_s * 1.001);
	} else if (d->type == OPT_KIB) {
		snprintf(lo, 32, "%lld", d->min);
		snprintf(hi, 32, "%lldK", d->max);
		snprintf(below, 32, "-1");
		snprintf(above, 32, "%lldK", d->max + 1);
	} else {
		snprintf(lo, 32, "%lld", d->min);
		snprintf(hi, 32, "%lld", d->max);
		snprintf(below, 32, "%lld", d->min - 1);
		if (d->max == 0x7fffffffffffffffLL)
			snprintf(above, 32, "9223372036854775808");
		else
			snprintf(above, 32, "%lld", d->max + 1);
	}
}

/* Every numeric row of the table takes its bounds, refuses what lies past them and every
 * non-finite or malformed number, and says what it allows. */
static void numeric_bounds(void)
{
	static const char *const hostile[] = {"inf", "-inf", "nan", "infinity", "1e308", "-1e308", "1e999",
					      "99999999999999999999", "-99999999999999999999", "0x10", "", " ",
					      "1e308h", "12abc"};
	for (size_t i = 0; i < option_count; i++) {
		const struct option_def *d = &option_table[i];
		if (d->type != OPT_INT && d->type != OPT_KIB && d->type != OPT_DOUBLE && d->type != OPT_SECONDS)
			continue;
		struct run_opts o;
		char why[256];
		char lo[32], hi[32], below[32], above[32], what[160], range[160];
		run_opts_defaults(&o);
		bound_texts(d, lo, hi, below, above);
		snprintf(what, sizeof(what), "%s takes %s and %s", d->key, lo, hi);
		ok(option_set(&o, d, lo, why, sizeof(why)) == 0 && option_set(&o, d, hi, why, sizeof(why)) == 0, what);
		snprintf(what, sizeof(what), "%s refuses %s and %s", d->key, below, above);
		ok(option_set(&o, d, below, why, sizeof(why)) < 0 && option_set(&o, d, above, why, sizeof(why)) < 0, what);
		int refused = 1;
		for (size_t k = 0; k < ARRAY_SIZE(hostile); k++) {
			/* 1e308 is in range for no row; its refusal is the range's */
			if (option_set(&o, d, hostile[k], why, sizeof(why)) == 0) {
				printf("# %s accepted '%s'\n", d->key, hostile[k]);
				refused = 0;
			}
		}
		snprintf(what, sizeof(what), "%s refuses inf, nan, 1e308, huge, hex and blank values", d->key);
		ok(refused, what);
		snprintf(what, sizeof(what), "%s states its range (%s)", d->key, option_range(d, range, sizeof(range)));
		ok(range[0] != '\0', what);
		run_opts_free(&o);
	}
	struct run_opts o;
	char why[256];
	run_opts_defaults(&o);
	ok(option_set(&o, option_find("timeout"), "0", why, sizeof(why)) == 0 && option_set(&o, option_find("sample_interval"), "0", why, sizeof(why)) == 0,
	   "0 still means derived timeout and sampler off");
	ok(option_set(&o, option_find("period"), "0", why, sizeof(why)) < 0, "a period of 0 is refused");
	ok(option_set(&o, option_find("timeout"), "30d", why, sizeof(why)) == 0 && o.timeout_s == 2592000, "timeout 30d");
	ok(option_set(&o, option_find("timeout"), "31d", why, sizeof(why)) < 0, "timeout 31d refused");
	run_opts_free(&o);
}

/* A list option appends through its own table offset, and option_clear empties it. */
static void list_options(void)
{
	struct run_opts o;
	char why[256];
	const struct option_def *dirs = option_find("dirs");
	run_opts_defaults(&o);
	ok(dirs->offset == offsetof(struct run_opts, dirs), "dirs lives at its offset");
	option_set(&o, dirs, "/x", why, sizeof(why));
	option_clear(&o, dirs);
	is_int(o.dirs.count, 0, "option_clear empties the list");
	ok(option_set(&o, dirs, "/a\nb", why, sizeof(why)) < 0 && strstr(why, "control"), "a dir with a newline is refused");
	ok(option_set(&o, option_find("label"), "x\033]0;pwned\a", why, sizeof(why)) < 0, "a label with an escape sequence is refused");
	ok(option_set(&o, option_find("label"), "6.1-rc3 über", why, sizeof(why)) == 0, "a UTF-8 label is taken");
	option_clear(&o, option_find("repeat")); /* not a list: untouched */
	is_int(o.repeat, 1, "option_clear leaves other options alone");
	run_opts_free(&o);
	struct overrides ov = {0};
	size_t marked = 0;
	for (size_t i = 0; i < option_count; i++) {
		marked += !overrides_given(&ov, &option_table[i]);
		overrides_mark(&ov, &option_table[i]);
	}
	is_int((long long)marked, (long long)option_count, "one 'given' flag per option row, none shared");
}

static void variants_and_rounds(void)
{
	char name[VARIANT_NAME_MAX + 1];
	const char *cmd;
	ok(variant_split("mq=echo a=b", name, &cmd) == 0 && strcmp(name, "mq") == 0 && strcmp(cmd, "echo a=b") == 0,
	   "variant: the name ends at the first '='");
	ok(variant_split("x.1+y-z_=", name, &cmd) == 0 && *cmd == '\0', "variant: an empty command runs nothing");
	is_int(variant_split("=true", name, &cmd), -1, "variant: a name is needed");
	is_int(variant_split("a b=true", name, &cmd), -1, "variant: no space in a name");
	is_int(variant_split("true", name, &cmd), -1, "variant: NAME=COMMAND");
	is_int(variant_split("abcdefghijklmnopqrstuvwxyz012345=1", name, &cmd), 0, "variant: a 32-byte name");
	is_int(variant_split("abcdefghijklmnopqrstuvwxyz0123456=1", name, &cmd), -1, "variant: not 33");
	struct run_opts o;
	char why[256];
	run_opts_defaults(&o);
	const struct option_def *v = option_find("variant");
	ok(v && option_set(&o, v, "a=true", why, sizeof(why)) == 0 && option_set(&o, v, "b=false", why, sizeof(why)) == 0 &&
	   o.variants.count == 2 && o.dirs.count == 0, "variant: a list of its own, dirs untouched");
	ok(option_set(&o, v, "bad name=x", why, sizeof(why)) < 0 && strstr(why, "NAME=COMMAND"), "variant: a bad item says why");
	struct schedule_rounds r = schedule_rounds_of(&o);
	ok(r.least == 1 && r.most == 1 && r.looks == 1, "no --precision: --repeat rounds, one look");
	o.precision = 2;
	r = schedule_rounds_of(&o);
	ok(r.least == 3 && r.most == 20 && r.looks == 18, "--precision: from 3 rounds to --max-repeat, a look after each");
	o.repeat = 30;
	r = schedule_rounds_of(&o);
	ok(r.least == 30 && r.most == 30 && r.looks == 1, "--precision: never fewer than --repeat");
	run_opts_free(&o);
	ok(!option_measured("label") && !option_measured("repeat") && !option_measured("tasks") &&
	   option_measured("seed") && option_measured("jobs_per_task") && option_measured("filesize") &&
	   option_measured("sync_mode"), "options that change what a point measures");
	ok(option_measured("no_such_key"), "a key this version does not know counts as measured");
	struct overrides ov = {0};
	overrides_mark(&ov, option_find("drop_caches"));
	overrides_mark(&ov, &option_table[0]);
	ok(overrides_given(&ov, option_find("drop_caches")) && overrides_given(&ov, &option_table[0]) &&
	   !overrides_given(&ov, option_find("seed")), "overrides: given marks exactly the options set");
}

int main(void)
{
	tap_case(numeric_bounds);
	tap_case(list_options);
	tap_case(variants_and_rounds);
	tap_case(task_lists);
	tap_case(sizes);
	tap_case(table);
	tap_case(own_members);
	tap_case(formats);
	tap_case(text_formats);
	return done_testing();
}
