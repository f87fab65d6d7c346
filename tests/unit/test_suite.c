/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checks suites: keys, workloads, overrides by flags, errors with file:line, @include
 * (relative to the including file, errors naming the file), and keys that would otherwise be
 * ignored. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/cfg.h"
#include "tap.h"
#include "util/util.h"

static char dir[] = "/tmp/reaim-suite-XXXXXX";

/* The files the cases wrote, removed at the end (a name written again is listed once). */
static char *written[32];
static size_t nwritten;

/* Writes text to dir/name; the path returned is the table's, freed at the end. */
static char *write_file(const char *name, const char *text)
{
	char *path = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	ok(f != NULL, "a suite file is written");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	for (size_t i = 0; i < nwritten; i++)
		if (strcmp(written[i], path) == 0) {
			free(path);
			return written[i];
		}
	if (nwritten < ARRAY_SIZE(written))
		written[nwritten++] = path;
	return path;
}

/* The workfile every suite names, and a suite of one workload. */
static char *good_suite(void)
{
	write_file("mix", "FILESIZE: 20K\n10 add_int\n10 disk_rd\n");
	return write_file("good.cfg", "name = \"demo\";\nworkfile = \"mix\";\ntasks = [1, 2, 4];\njobs_per_task = 7;\n"
				      "osync = false;\ndirs = [\"/tmp\", \"/var/tmp\"];\nseed = 9;\n");
}

/* A suite's keys, and the workfile's FILESIZE. */
static void suite_keys(void)
{
	char *good = good_suite();
	struct plan p;
	struct errlist errs = {0};
	ok(plan_from_suite(good, NULL, &p, &errs) == 0, "good suite loads");
	errlist_print(&errs);
	is_str(p.suite_name, "demo", "suite name");
	is_int(p.nwl, 1, "one workload");
	is_int(p.wl[0].opts.jobs_per_task, 7, "jobs_per_task from suite");
	is_int(p.wl[0].opts.tasks.count, 3, "task array");
	is_int(p.wl[0].opts.osync, OSYNC_OFF, "osync = false is off");
	is_int(p.wl[0].opts.dirs.count, 2, "dir list");
	is_int(p.wl[0].opts.filesize_kib, 20, "FILESIZE from the workfile");
	ok(strstr(p.suite_text, "jobs_per_task = 7") != NULL, "suite text kept for the store");
	plan_free(&p);
	errlist_free(&errs);
}

/* Flags beat a suite's keys and the workfile's; keys not flagged stay. */
static void overrides(void)
{
	char *good = good_suite();
	struct plan p;
	struct errlist errs = {0};
	struct overrides ov = {0};
	char why[256];
	run_opts_defaults(&ov.opts);
	option_set(&ov.opts, option_find("jobs_per_task"), "3", why, sizeof(why));
	overrides_mark(&ov, option_find("jobs_per_task"));
	option_set(&ov.opts, option_find("filesize"), "1M", why, sizeof(why));
	overrides_mark(&ov, option_find("filesize"));
	ok(plan_from_suite(good, &ov, &p, &errs) == 0, "suite with overrides");
	is_int(p.wl[0].opts.jobs_per_task, 3, "flag beats suite key");
	is_int(p.wl[0].opts.filesize_kib, 1024, "flag beats workfile FILESIZE");
	is_int(p.wl[0].opts.seed, 9, "unflagged keys kept");
	plan_free(&p);
	run_opts_free(&ov.opts);
	errlist_free(&errs);
}

/* A list of workloads: top-level keys inherited, a workload's own winning. */
static void workload_list(void)
{
	good_suite();
	struct plan p;
	struct errlist errs = {0};
	char *multi = write_file("multi.cfg",
				 "jobs_per_task = 5;\nworkloads = (\n { name = \"a\"; workfile = \"mix\"; },\n"
				 " { name = \"b\"; workfile = \"mix\"; jobs_per_task = 9; osync = \"both\"; }\n);\n");
	ok(plan_from_suite(multi, NULL, &p, &errs) == 0, "workload list");
	is_int(p.nwl, 2, "two workloads");
	is_int(p.wl[0].opts.jobs_per_task, 5, "top-level key inherited");
	is_int(p.wl[1].opts.jobs_per_task, 9, "workload key overrides");
	is_int(p.wl[1].opts.osync, OSYNC_BOTH, "osync both");
	plan_free(&p);
	errlist_free(&errs);
}

/* Bad keys, a syntax error and a missing workfile: every error in one pass, with file:line. */
static void bad_keys(void)
{
	good_suite();
	struct plan p;
	struct errlist errs = {0};
	char *bad = write_file("bad.cfg", "workfile = \"mix\";\njobs = 3;\nrepeat = \"x\";\nosync = \"sometimes\";\n");
	ok(plan_from_suite(bad, NULL, &p, &errs) < 0, "bad keys refused");
	is_int(errs.count, 3, "all errors in one pass");
	char *want = xasprintf("%s:2: unknown key 'jobs'", bad);
	is_str(errs.msgs[0], want, "unknown key with file:line");
	free(want);
	want = xasprintf("%s:4: 'osync' = 'sometimes': unknown value (allowed: off, on, both)", bad);
	is_str(errs.msgs[2], want, "bad value with file:line");
	free(want);
	plan_free(&p);
	errlist_free(&errs);

	char *syntax = write_file("syntax.cfg", "workfile = \"mix\";\njobs_per_task = 2;\ntasks = ;\n");
	ok(plan_from_suite(syntax, NULL, &p, &errs) < 0, "syntax error refused");
	ok(errs.count == 1 && strncmp(errs.msgs[0], syntax, strlen(syntax)) == 0 &&
	   strstr(errs.msgs[0], ":3: ") != NULL, "libconfig's line number in the message");
	plan_free(&p);
	errlist_free(&errs);

	char *badwf = write_file("badwf.cfg", "workfile = \"nosuch\";\n");
	ok(plan_from_suite(badwf, NULL, &p, &errs) < 0, "missing workfile refused");
	ok(errs.count == 1 && strstr(errs.msgs[0], "cannot read workfile") != NULL, "missing workfile named");
	plan_free(&p);
	errlist_free(&errs);
}

/* @include: relative to the including file, nested, messages from the included file. */
static void includes(void)
{
	good_suite();
	struct plan p;
	struct errlist errs = {0};
	char *want;
	char *sub = xasprintf("%s/sub", dir), *subsub = xasprintf("%s/sub/deeper", dir);
	mkdir(sub, 0700);
	mkdir(subsub, 0700);
	char *inc_top = write_file("inc.cfg", "name = \"inc\";\n@include \"sub/part.cfg\"\nseed = 5;\n");
	write_file("sub/part.cfg", "jobs_per_task = 11;\n  @include \"deeper/wl.cfg\" # nested\n");
	write_file("sub/deeper/wl.cfg", "workfile = \"../../mix\";\ntasks = [2];\n");
	ok(plan_from_suite(inc_top, NULL, &p, &errs) == 0, "a suite with nested includes loads");
	errlist_print(&errs);
	is_int(p.nwl ? p.wl[0].opts.jobs_per_task : 0, 11, "a key from the included file");
	is_int(p.nwl ? p.wl[0].opts.tasks.n[0] : 0, 2, "a key from the file it includes, relative to it");
	is_int(p.nwl ? p.wl[0].opts.seed : 0, 5, "a key after the include");
	ok(p.nwl && strstr(p.wl[0].wf.path, "sub/deeper/../../mix") != NULL,
	   "a workfile named in an included file is found relative to that file");
	ok(p.suite_text && strstr(p.suite_text, "jobs_per_task = 11") && !strstr(p.suite_text, "@include"),
	   "the stored suite text has its includes expanded");
	plan_free(&p);
	errlist_free(&errs);

	char *inc_bad = write_file("sub/bad.cfg", "jobs_per_task = 7;\nrepeat = 0;\n");
	char *inc_uses_bad = write_file("usesbad.cfg", "workfile = \"mix\";\n\n@include \"sub/bad.cfg\"\n");
	ok(plan_from_suite(inc_uses_bad, NULL, &p, &errs) < 0, "an error inside an included file");
	want = xasprintf("%s:2: 'repeat' = '0'", inc_bad);
	ok(errs.count == 1 && strncmp(errs.msgs[0], want, strlen(want)) == 0, "names the included file and its line");
	if (errs.count)
		printf("# %s\n", errs.msgs[0]);
	free(want);
	plan_free(&p);
	errlist_free(&errs);

	char *inc_missing = write_file("missing.cfg", "workfile = \"mix\";\n@include \"nope.cfg\"\n");
	ok(plan_from_suite(inc_missing, NULL, &p, &errs) < 0, "a missing include refused");
	want = xasprintf("%s:2: @include \"nope.cfg\": cannot read %s/nope.cfg: No such file", inc_missing, dir);
	ok(errs.count == 1 && strncmp(errs.msgs[0], want, strlen(want)) == 0, "names the including file, its line and the path");
	if (errs.count)
		printf("# %s\n", errs.msgs[0]);
	free(want);
	plan_free(&p);
	errlist_free(&errs);

	char *inc_self = write_file("self.cfg", "workfile = \"mix\";\n@include \"self.cfg\"\n");
	ok(plan_from_suite(inc_self, NULL, &p, &errs) < 0 && errs.count == 1 && strstr(errs.msgs[0], "nested includes"),
	   "a suite including itself is refused, not followed forever");
	plan_free(&p);
	errlist_free(&errs);

	char *inc_dir = write_file("incdir.cfg", "workfile = \"mix\";\n@include \"sub\"\n");
	ok(plan_from_suite(inc_dir, NULL, &p, &errs) < 0 && errs.count == 1 && strstr(errs.msgs[0], "a directory"),
	   "including a directory is refused");
	plan_free(&p);
	errlist_free(&errs);

	char *inc_junk = write_file("incjunk.cfg", "workfile = \"mix\";\n@include \"mix\" seed = 3;\n@include\n");
	ok(plan_from_suite(inc_junk, NULL, &p, &errs) < 0 && errs.count == 2 && strstr(errs.msgs[0], ":2: expected @include") &&
	   strstr(errs.msgs[1], ":3: expected @include"), "text after an include, or no file name, is an error");
	plan_free(&p);
	errlist_free(&errs);

	char *inc_quoted = write_file("quoted.cfg", "workfile = \"mix\";\ndescription = \"multi\n@include \\\"x\\\"\nline\";\n"
						    "/* a comment\n@include \"nope\"\n*/\n");
	ok(plan_from_suite(inc_quoted, NULL, &p, &errs) == 0, "an @include inside a string or a comment is text, as libconfig reads it");
	errlist_print(&errs);
	plan_free(&p);
	errlist_free(&errs);
	free(subsub);
	free(sub);
}

/* Keys that would be ignored are errors. */
static void ignored_keys(void)
{
	good_suite();
	struct plan p;
	struct errlist errs = {0};
	/* keys that would be ignored are errors */
	char *ignored = write_file("ignored.cfg", "name = 5;\ndescription = [1];\nworkfile = \"mix\";\n"
						  "tasks = { a = 1; };\nworkloads = ( { workfile = \"mix\"; workloads = (); name = 3; } );\n"
						  "dirs = [];\nlabel = \"a\\x1b[2J\";\n");
	ok(plan_from_suite(ignored, NULL, &p, &errs) < 0, "ignored keys refused");
	static const char *const expect[] = {":1: 'name' must be a string", ":2: 'description' must be a string",
					     ":4: 'tasks' is a group", ":6: 'dirs' is an empty list",
					     ":7: 'label' = 'a\\x1b[2J': contains a control character",
					     ":5: 'workloads' cannot be nested", ":5: 'name' must be a string"};
	for (size_t i = 0; i < ARRAY_SIZE(expect); i++) {
		int found = 0;
		for (size_t k = 0; k < errs.count; k++)
			found |= strstr(errs.msgs[k], expect[i]) != NULL;
		char *what = xasprintf("error '%s'", expect[i]);
		ok(found, what);
		free(what);
	}
	errlist_print(&errs);
	plan_free(&p);
	errlist_free(&errs);
}

/* A plan from stored text alone: every option as stored, the workfile parsed from its text. */
static void from_stored(void)
{
	struct plan p;
	struct errlist errs = {0};
	/* a plan from stored text alone: every option as stored, the workfile parsed from its text */
	static const struct option_text opts[] = {
		{"dirs", "/nonexistent/a"}, {"dirs", "/nonexistent/b"},
		{"filesize", "20K"},	    {"jobs_per_task", "7"},
		{"label", "old"},	    {"mode", "crossover"},
		{"osync", "both"},	    {"seed", "99"},
		{"tasks", "1,3"},	    {"threshold", "5"},
		{"workfile", "/gone/mix"},
	};
	struct stored_workload sw[2] = {
		{.name = "a",
		 .workfile_name = "mix",
		 .workfile_text = "10 add_int\n5 creat_clo\n",
		 .opts = opts,
		 .nopts = ARRAY_SIZE(opts)},
		{.name = "b",
		 .workfile_name = "bad",
		 .workfile_text = "10 add_int\n3 no_such_test\n",
		 .opts = opts,
		 .nopts = 2},
	};
	ok(plan_from_stored(
		   &(const struct stored_suite){
			   .where = "run 5", .suite_name = "demo", .suite_text = "x = 1;", .wl = sw, .nwl = 1},
		   &p, &errs) == 0,
	   "a stored workload rebuilds");
	errlist_print(&errs);
	ok(p.nwl == 1 && strcmp(p.wl[0].name, "a") == 0 && strcmp(p.wl[0].wf.name, "mix") == 0, "its names kept");
	ok(p.wl[0].wf.count == 2 && strcmp(p.wl[0].wf.entries[1].test->name, "creat_clo") == 0,
	   "the workfile from its stored text");
	ok(p.wl[0].opts.dirs.count == 2 && strcmp(p.wl[0].opts.dirs.v[1], "/nonexistent/b") == 0,
	   "list items in order");
	ok(p.wl[0].opts.jobs_per_task == 7 && p.wl[0].opts.seed == 99 && p.wl[0].opts.mode == MODE_CROSSOVER &&
		   p.wl[0].opts.osync == OSYNC_BOTH && p.wl[0].opts.threshold == 5 && p.wl[0].opts.filesize_kib == 20 &&
		   p.wl[0].opts.tasks.count == 2 && p.wl[0].opts.tasks.n[1] == 3,
	   "every stored option applied");
	ok(p.wl[0].opts.label && strcmp(p.wl[0].opts.label, "old") != 0,
	   "the label is a new run's, not the stored one");
	ok(strcmp(p.suite_name, "demo") == 0 && strcmp(p.suite_text, "x = 1;") == 0, "suite name and text kept");
	plan_free(&p);
	ok(plan_from_stored(&(const struct stored_suite){.where = "run 5",
							 .suite_name = "demo",
							 .suite_text = "",
							 .wl = sw,
							 .nwl = 1,
							 .label = "again"},
			    &p, &errs) == 0 &&
		   strcmp(p.wl[0].opts.label, "again") == 0,
	   "a label asked for replaces it");
	plan_free(&p);
	ok(plan_from_stored(
		   &(const struct stored_suite){
			   .where = "run 5", .suite_name = "demo", .suite_text = "", .wl = sw, .nwl = 2},
		   &p, &errs) < 0,
	   "a stored workfile that no longer parses");
	ok(errs.count == 1 && strncmp(errs.msgs[0], "bad as stored with run 5:2: unknown test", 40) == 0,
	   "named with its line and the run");
	plan_free(&p);
	errlist_free(&errs);
	static const struct option_text odd[] = {{"speed", "9"}, {"repeat", "zero"}};
	sw[0].opts = odd;
	sw[0].nopts = ARRAY_SIZE(odd);
	ok(plan_from_stored(
		   &(const struct stored_suite){
			   .where = "run 6", .suite_name = "demo", .suite_text = "", .wl = sw, .nwl = 1},
		   &p, &errs) < 0 &&
		   errs.count == 2,
	   "odd options refused");
	ok(errs.count == 2 &&
		   strcmp(errs.msgs[0], "run 6, workload a: option 'speed' is not one this reaim knows") == 0,
	   "an unknown option named");
	plan_free(&p);
	errlist_free(&errs);
	ok(plan_from_stored(
		   &(const struct stored_suite){
			   .where = "run 7", .suite_name = "demo", .suite_text = "", .wl = sw, .nwl = 0},
		   &p, &errs) < 0 &&
		   errs.count == 1,
	   "no workloads refused");
	plan_free(&p);
	errlist_free(&errs);
	sw[0].opts = opts;
	sw[0].nopts = 1;
	ok(plan_from_stored(
		   &(const struct stored_suite){
			   .where = "run 8", .suite_name = "demo", .suite_text = "", .wl = sw, .nwl = 1, .label = ""},
		   &p, &errs) < 0 &&
		   errs.count == 1 && strcmp(errs.msgs[0], "--label: '': empty") == 0,
	   "an empty label refused as a run refuses it");
	plan_free(&p);
	errlist_free(&errs);
}

int main(void)
{
	if (!mkdtemp(dir))
		return 1;
	tap_case(suite_keys);
	tap_case(overrides);
	tap_case(workload_list);
	tap_case(bad_keys);
	tap_case(includes);
	tap_case(ignored_keys);
	tap_case(from_stored);
	for (size_t i = 0; i < nwritten; i++) {
		unlink(written[i]);
		free(written[i]);
	}
	char *sub = xasprintf("%s/sub", dir), *subsub = xasprintf("%s/sub/deeper", dir);
	rmdir(subsub);
	rmdir(sub);
	free(subsub);
	free(sub);
	ok(rmdir(dir) == 0, "nothing is left in the temp dir");
	return done_testing();
}
