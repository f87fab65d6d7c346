/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checks the classic re-aim input side: reaim.config files, when a command line is classic,
 * and what the command lines of LKP, mmtests and autotest mean in reaim's options. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/opt.h"
#include "config/classic_inputs.h"
#include "tap.h"
#include "testfs.h"
#include "util/util.h"

static char dir[] = "/tmp/reaim-classic-XXXXXX";

static void write_file(const char *name, const char *text)
{
	if (test_put(dir, name, text) < 0)
		fprintf(stderr, "# cannot write %s/%s\n", dir, name);
}

static void remove_file(const char *name)
{
	char *p = xasprintf("%s/%s", dir, name);
	unlink(p);
	free(p);
}

/* ---- reaim.config ---- */

static void config_tests(void)
{
	struct classic_config c;
	struct errlist e = {0};
	/* classic's own sample file, comments and all */
	const char *stock = "# Sample configuration file for the reaim workload\n#\n# FILESIZE and POOLSIZE\n"
			    "FILESIZE 10k\nPOOLSIZE 1m\n# \n# A list of disk directories for the exerciser\n"
			    "DISKDIR /tmp/diskdir\n# STARTUSERS 2\n# ENDUSERS 3\n# VERBOSE 1\n";
	ok(classic_config_parse("reaim.config", stock, &c, &e) == 0, "classic's sample reaim.config parses");
	is_int(c.filesize_kib, 10, "FILESIZE 10k");
	is_int(c.poolsize_kib, 1024, "POOLSIZE 1m");
	ok(c.dirs.count == 1 && strcmp(c.dirs.v[0], "/tmp/diskdir") == 0, "DISKDIR");
	is_int(c.start_users, -1, "commented-out counts stay unset");
	classic_config_free(&c);

	ok(classic_config_parse("c", "FILESIZE: 5M\nDISKDIR /a\nDISKDIR /b\nSTARTUSERS 2\nENDUSERS 8\nINCREMENT 3\n"
				    "JOBS 40\nCROSSOVER 1\nverbose 0\n\n   \n",
				&c, &e) == 0,
	   "every classic key, a colon, lower case and blank lines");
	ok(c.filesize_kib == 5120 && c.dirs.count == 2 && strcmp(c.dirs.v[1], "/b") == 0, "sizes and two dirs");
	ok(c.start_users == 2 && c.end_users == 8 && c.increment == 3 && c.jobs == 40, "the counts");
	ok(c.crossover == 1 && c.verbose == 0 && c.brief == -1, "the switches");
	classic_config_free(&c);

	ok(classic_config_parse("c", "DISKDIR OFF\nDISKDIR /x\n", &c, &e) == 0 && c.dirs_off && c.dirs.count == 0,
	   "a first DISKDIR of OFF turns the dirs off");
	classic_config_free(&c);

	ok(classic_config_parse("c", "FILESIZE 10k # per task\nDISKDIR /d#1\n", &c, &e) == 0 &&
		   strcmp(c.dirs.v[0], "/d#1") == 0,
	   "a comment after a blank; '#' inside a path kept");
	classic_config_free(&c);

	ok(classic_config_parse("c", "FILESIZE 10\nPOOLZISE 1m\nDISKDIR\nJOBS 0\nFILESIZE 1k 2k\n", &c, &e) < 0,
	   "bad lines refused");
	is_int(e.count, 5, "every bad line reported in one pass");
	is_str(e.msgs[0], "c:1: bad FILESIZE '10' (expected a size with its unit, like 10K or 1M)", "size needs a unit");
	ok(strstr(e.msgs[1], "c:2: unknown key 'POOLZISE' (a reaim.config knows FILESIZE") == e.msgs[1],
	   "an unknown key is named with the known ones");
	is_str(e.msgs[2], "c:3: DISKDIR needs a value", "missing value");
	is_str(e.msgs[3], "c:4: bad JOBS '0' (expected a whole number from 1 to 100000)", "counts are positive");
	is_str(e.msgs[4], "c:5: unexpected '2k' after FILESIZE 1k", "trailing words refused");
	classic_config_free(&c);
	errlist_free(&e);

	ok(classic_config_load("/nonexistent/reaim.config", &c, &e) < 0 &&
		   strncmp(e.msgs[0], "/nonexistent/reaim.config: cannot read the config file", 54) == 0,
	   "an unreadable config names the file");
	classic_config_free(&c);
	errlist_free(&e);
}

/* ---- when a command line is classic ---- */

/* argv of "reaim" and the blank-separated words of line (cut in place), NULL-terminated. */
static int split_line(char *line, char **argv, int max)
{
	int argc = 0;
	argv[argc++] = (char *)"reaim";
	for (char *w = strtok(line, " "); w && argc < max - 1; w = strtok(NULL, " "))
		argv[argc++] = w;
	argv[argc] = NULL;
	return argc;
}

static enum classic_verdict verdict(const char *line, char *why, size_t len)
{
	char *copy = xstrdup(line);
	char *argv[64];
	int argc = split_line(copy, argv, 64);
	enum classic_verdict v = classic_cli_detect(argc, argv, why, len);
	free(copy);
	return v;
}

static void detect_tests(void)
{
	/* every command line of the README keeps its meaning */
	static const char *const ours[] = {
		"-s quick", "-s dbase -r 3 --label 6.1", "-s dbase -r 3 --label 6.2-rc1", "-s osync",
		"-s dbase", "-f workfiles/fserver -t 1-64*2 -d /mnt/test", "-s dbase --dry-run",
		"run -s 2 -e 3", "single -f aim9 -p 2", "-f quick -t 4 --file 10K", "--suite=quick -q",
		"-s dbase --label -e", "-v -s quick", "--help", "show last -v",
	};
	char why[256];
	int all = 1;
	for (size_t i = 0; i < ARRAY_SIZE(ours); i++)
		if (verdict(ours[i], why, sizeof(why)) != CLASSIC_NO) {
			printf("# classic: reaim %s\n", ours[i]);
			all = 0;
		}
	ok(all, "reaim's own command lines are not classic");

	static const char *const classic[] = {
		"-s2 -e2 -i2 -fworkfile.dbase -r1 -c./reaim.config -l/tmp/x/reaim_debug -j100",
		"-s1 -e16 -t -i1 -fdata/workfile.fserver.mmtests -r1 -c./reaim.config -l/tmp/reaim",
		"-f data/workfile.short -s 1 -e 10 -i 2 -c ./reaim.config", "-s 4", "-s4 -t", "-f wf -x",
		"--startusers=1 --endusers 3", "--config reaim.config", "-o -f workfile.aim9", "-vy -s 1",
		"-s dbase -e 5",
	};
	all = 1;
	for (size_t i = 0; i < ARRAY_SIZE(classic); i++)
		if (verdict(classic[i], why, sizeof(why)) != CLASSIC_YES) {
			printf("# not classic: reaim %s\n", classic[i]);
			all = 0;
		}
	ok(all, "the command lines of LKP, mmtests, autotest and classic are classic");
	verdict("-s2 -e2 -i2", why, sizeof(why));
	is_str(why, "-e is a classic re-aim option", "what made it classic");

	/* a numeric -s alone, with a suite of that name: neither meaning is assumed */
	char *cwd = getcwd(NULL, 0);
	char *suites = xasprintf("%s/suites", dir);
	mkdir(suites, 0755);
	write_file("suites/7.cfg", "workfile = \"quick\";\n");
	if (chdir(dir) == 0) {
		is_int(verdict("-s 7", why, sizeof(why)), CLASSIC_AMBIGUOUS, "-s 7 with suites/7.cfg is ambiguous");
		ok(strstr(why, "reaim run -s 7") != NULL, "the error says how to mean either");
		is_int(verdict("-s 7 -e 9", why, sizeof(why)), CLASSIC_YES, "-s 7 -e 9 is classic all the same");
		is_int(verdict("run -s 7", why, sizeof(why)), CLASSIC_NO, "run -s 7 is the suite");
		if (cwd && chdir(cwd) != 0)
			perror("chdir");
	}
	remove_file("suites/7.cfg");
	rmdir(suites);
	free(suites);
	free(cwd);
}

/* ---- what the clients' command lines mean ---- */

static char *subst(const char *s)
{
	struct strbuf sb = {0};
	strbuf_add(&sb, "", 0);
	for (const char *p = s; *p;) {
		if (strncmp(p, "@DIR@", 5) == 0) {
			strbuf_addf(&sb, "%s", dir);
			p += 5;
		} else if (p[0] == '\\' && p[1] == 'n') {
			strbuf_add(&sb, "\n", 1);
			p += 2;
		} else {
			strbuf_add(&sb, p++, 1);
		}
	}
	return sb.buf;
}

/* The translated options in the tsv's key=value form; an even task list as A-B:STEP. */
static char *describe(const struct classic_cli *c)
{
	const struct run_opts *o = &c->ov.opts;
	struct strbuf sb = {0};
	const struct task_list *t = &o->tasks;
	int step = t->count > 2 ? t->n[1] - t->n[0] : 0;
	for (size_t i = 2; i < t->count; i++)
		step = t->n[i] - t->n[i - 1] == step ? step : 0;
	char *tasks = step > 0 ? xasprintf("%d-%d:%d", t->n[0], t->n[t->count - 1], step) : tasks_format(t);
	strbuf_addf(&sb, "workfile=%s tasks=%s jobs=%lld repeat=%lld", o->workfile, tasks, o->jobs_per_task,
		    o->repeat);
	free(tasks);
	if (overrides_given(&c->ov, option_find("filesize")))
		strbuf_addf(&sb, " filesize=%lld", o->filesize_kib);
	else
		strbuf_addf(&sb, " filesize=-");
	if (overrides_given(&c->ov, option_find("poolsize")))
		strbuf_addf(&sb, " poolsize=%lld", o->poolsize_kib);
	else
		strbuf_addf(&sb, " poolsize=-");
	strbuf_addf(&sb, " dirs=");
	for (size_t i = 0; i < o->dirs.count; i++)
		strbuf_addf(&sb, "%s%s", i ? ":" : "", o->dirs.v[i]);
	if (o->dirs.count == 0)
		strbuf_addf(&sb, "-");
	strbuf_addf(&sb, " sync=%s mode=%s", sync_mode_names[o->sync_mode], mode_names[o->mode]);
	if (overrides_given(&c->ov, option_find("threshold")))
		strbuf_addf(&sb, " threshold=%g", o->threshold);
	if (o->mode == MODE_SINGLE)
		strbuf_addf(&sb, " period=%g", o->period_s);
	strbuf_addf(&sb, " prefix=%s", c->log_prefix);
	return sb.buf;
}

static int translate(const char *config, const char *line, struct classic_cli *c, struct errlist *e)
{
	if (strcmp(config, "-") != 0) {
		char *text = subst(config);
		write_file("reaim.config", text);
		free(text);
	} else {
		remove_file("reaim.config");
	}
	char *copy = subst(line);
	char *argv[64];
	int argc = split_line(copy, argv, 64);
	int rc = classic_cli_parse(argc, argv, c, e);
	free(copy);
	return rc;
}

static void client_tests(void)
{
	const char *src = getenv("REAIM_SRCDIR");
	char *path = xasprintf("%s/tests/data/classic_clients.tsv", src ? src : ".");
	char *text = read_text_file(path, 1 << 20);
	free(path);
	ok(text != NULL, "classic_clients.tsv read");
	if (!text)
		return;
	char *cwd = getcwd(NULL, 0);
	if (chdir(dir) != 0)
		perror("chdir");
	write_file("wf", "10 add_int\n10 sieve\n");
	write_file("sized", "FILESIZE: 64K\n10 add_int\n");
	int n = 0;
	for (char *ln = text, *next; ln && *ln; ln = next) {
		next = strchr(ln, '\n');
		if (next)
			*next++ = '\0';
		if (ln[0] == '#' || !ln[0])
			continue;
		char *who = ln, *config = strchr(who, '\t'), *line = config ? strchr(config + 1, '\t') : NULL;
		char *want = line ? strchr(line + 1, '\t') : NULL;
		if (!want) {
			ok(0, "a tsv row has four columns");
			continue;
		}
		*config++ = *line++ = *want++ = '\0';
		struct classic_cli c;
		struct errlist e = {0};
		int rc = translate(config, line, &c, &e);
		char what[512];
		snprintf(what, sizeof(what), "%s: reaim %s", who, line);
		if (rc < 0) {
			ok(0, what);
			errlist_print(&e);
		} else {
			char *got = describe(&c), *expect = subst(want);
			is_str(got, expect, what);
			free(got);
			free(expect);
		}
		classic_cli_free(&c);
		errlist_free(&e);
		n++;
	}
	ok(n >= 10, "the clients' command lines were all tried");
	remove_file("wf");
	remove_file("sized");
	remove_file("reaim.config");
	if (cwd && chdir(cwd) != 0)
		perror("chdir");
	free(cwd);
	free(text);
}

/* ---- what is refused, and how ---- */

static void refusal(const char *line, const char *want)
{
	struct classic_cli c;
	struct errlist e = {0};
	int rc = translate("-", line, &c, &e);
	char what[256];
	snprintf(what, sizeof(what), "refused: reaim %s", line);
	ok(rc < 0 && e.count > 0, what);
	if (e.count)
		is_str(e.msgs[0], want, "  with its reason");
	classic_cli_free(&c);
	errlist_free(&e);
}

static void refusal_tests(void)
{
	char *cwd = getcwd(NULL, 0);
	if (chdir(dir) != 0)
		perror("chdir");
	write_file("wf", "10 add_int\n");
	refusal("-s 5 -e 2 -fwf", "command line: cannot run backwards: start count 5 is above end count 2");
	refusal("-s 1 -x -g -fwf", "command line: cannot run both crossover (-x) and peak (-g), as classic re-aim");
	refusal("-s 1 -o -m -fwf", "command line: cannot run both multiuser (-m) and single-user (-o)");
	refusal("-s 1 -b -fwf", "command line: -b (classic's STP report files) is not supported");
	refusal("-s 1 -Z tool.sh -fwf", "command line: -Z (classic's external monitoring tool) is not supported");
	refusal("-s two -e 3", "command line: -s two: expected a whole number from 1 to 100000");
	refusal("-s 1 -k", "command line: -k is not a classic re-aim option");
	refusal("-s 1 --tasks 4", "command line: --tasks is not a classic re-aim option");
	refusal("-s 1 -e 2 extra", "command line: unexpected argument 'extra' (classic re-aim takes options only)");
	refusal("-s 1 -e", "command line: -e needs a value");
	refusal("--startusers 0 -e 3", "command line: -s 0: expected a whole number from 1 to 100000");
	refusal("-s 1 --endusers", "command line: --endusers needs a value");
	refusal("-s 1 --brief", "command line: -b (classic's STP report files) is not supported");
	refusal("-s 1 -c missing.config", "missing.config: cannot read the config file: No such file or directory");

	struct classic_cli c;
	struct errlist e = {0};
	ok(translate("-", "-h", &c, &e) == 0 && c.help, "-h asks for the classic usage");
	classic_cli_free(&c);
	ok(translate("-", "-s1 -e12 -i1 -fwf", &c, &e) == 0 && c.notes.count == 1 &&
		   strstr(c.notes.v[0], "adaptive increment") != NULL,
	   "more than 9 points without -t: a note that the increment does not adapt");
	classic_cli_free(&c);
	ok(translate("-", "-s1 -e12 -i1 -t -fwf", &c, &e) == 0 && c.notes.count == 0, "with -t: no note");
	classic_cli_free(&c);
	ok(translate("-", "-s1 -e2 -fwf --db x.db --label k", &c, &e) == 0 && strcmp(c.db, "x.db") == 0 &&
		   strcmp(c.label, "k") == 0,
	   "--db and --label pass through");
	classic_cli_free(&c);
	errlist_free(&e);
	remove_file("wf");
	if (cwd && chdir(cwd) != 0)
		perror("chdir");
	free(cwd);
}

/* The help and the man page come from the parser's own table: every flag it takes is listed. */
static void usage_tests(void)
{
	char *text = NULL, *man = NULL;
	size_t len = 0, mlen = 0;
	FILE *f = open_memstream(&text, &len);
	FILE *m = open_memstream(&man, &mlen);
	if (!f || !m) {
		ok(0, "open_memstream");
		return;
	}
	classic_cli_usage(f);
	classic_cli_man(m, cli_roff);
	fclose(f);
	fclose(m);
	static const char *const listed[] = {"-s, --startusers N", "-e, --endusers N", "-d, --debug[=N]",
					     "-y, --nosync", "-g, --guesspeak", "-Z N ", "--sync-mode fsync|none|global"};
	for (size_t i = 0; i < sizeof(listed) / sizeof(listed[0]); i++) {
		char what[96];
		snprintf(what, sizeof(what), "the classic usage lists '%s'", listed[i]);
		ok(strstr(text, listed[i]) != NULL, what);
	}
	ok(strstr(text, "refused: classic's external monitoring tool") != NULL, "... and says which it refuses");
	int wide = 0;
	for (char *line = text; *line; line += strcspn(line, "\n") + (line[strcspn(line, "\n")] != 0))
		wide += strcspn(line, "\n") > 80;
	is_int(wide, 0, "the classic usage fits in 80 columns");
	ok(strstr(man, ".B \\-c, \\-\\-config FILE\n") != NULL, "the man page has a paragraph per flag");
	free(text);
	free(man);
}

int main(void)
{
	if (!mkdtemp(dir))
		return 1;
	tap_case(config_tests);
	tap_case(detect_tests);
	tap_case(client_tests);
	tap_case(refusal_tests);
	tap_case(usage_tests);
	rmdir(dir);
	return done_testing();
}
