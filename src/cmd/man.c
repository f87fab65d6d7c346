/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The man pages, generated from the command, option and test tables so they cannot drift; on a
 * terminal rendered through man(1). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "config/cfg.h"
#include "catalog/catalog.h"
#include "config/classic_inputs.h"
#include "util/util.h"

/* The suite keys of the option table, for reaim-suite(5). */
static void suite_keys(FILE *f)
{
	for (size_t i = 0; i < option_count; i++) {
		const struct option_def *o = &option_table[i];
		fprintf(f, ".TP\n.B ");
		cli_roff(f, o->key);
		fprintf(f, " \\fI");
		cli_roff(f, o->arg);
		fprintf(f, "\\fR\n");
		cli_roff(f, o->help);
		if (o->def && strcmp(o->def, "0") != 0) {
			fprintf(f, " (default ");
			cli_roff(f, o->def);
			fprintf(f, ")");
		}
		fprintf(f, ".\n");
	}
}

/* Command lines worth copying, for EXAMPLES. */
/* What each exit status means, for the man page (docs/DESIGN.md keeps the same table). */
static const struct {
	const char *code, *meaning;
} exit_statuses[] = {
	{.code = "0", .meaning = "Success."},
	{.code = "1", .meaning = "A usage or configuration error: an unknown command or option, a bad value, a missing "
				 "argument, a RUN that names no stored run, a suite or workfile that does not parse "
				 "(reported as file:line), or a plan this machine cannot run. With compare --bisect: bad."},
	{.code = "2", .meaning = "The work could not be done: the run failed or a point is not trustworthy (stored as "
				 "invalid), or the results database could not be opened, read or written (from every "
				 "command alike), or an output file could not be written."},
	{.code = "3", .meaning = "Interrupted (SIGINT, SIGTERM, SIGHUP, or any other signal that would end reaim but "
				 "SIGKILL); the points finished so far are kept; an interrupted merge merges nothing."},
	{.code = "4", .meaning = "compare --fail-above found a significant regression beyond the threshold, one the "
				 "outside load of the sides' points cannot explain."},
	{.code = "5", .meaning = "compare could not judge or vouch: nothing in common, unlike runs, or one run with "
				 "nothing inside; with --fail-above, also a side without a valid point at a task count the "
				 "base measured, a cell with fewer than 2 samples a side, a change confounded with the "
				 "outside load, or an interval that does not rule out a drop beyond the threshold. A gate "
				 "passes only what it measured."},
	{.code = "125", .meaning = "compare --bisect: the side under test measured nothing in common with the base "
				   "(git bisect run: skip this commit)."},
	{.code = "128", .meaning = "compare --bisect could not judge or vouch (it could not have seen a drop of "
				   "--fail-above, or 5 % without it: more runs a side), or could not run (a usage or "
				   "database error): git bisect run stops."},
};

static const struct {
	const char *line, *what;
} examples[] = {
	{"reaim -s quick", "a short suite; the run is stored in results/reaim.db"},
	{"reaim -f fserver -t 1-64*2 -d /mnt/test", "one workfile at 1, 2, 4 ... 64 tasks, its files on /mnt/test"},
	{"reaim -s dbase --dry-run", "the resolved plan (jobs per task, file sizes, disk space); nothing runs"},
	{"reaim -s dbase -r 3 --label 6.1", "on kernel A: three rounds of the task list"},
	{"reaim -s dbase -r 3 --label 6.2-rc1", "on kernel B"},
	{"reaim compare 6.1 6.2-rc1", "per task count: the change in Jobs/Min, its spread and significance"},
	{"reaim compare 6.1 6.2-rc1 --fail-above 5", "exit 4 on a significant drop beyond 5%, 0 when the intervals rule "
						      "one out, 5 when it cannot vouch"},
	{"git bisect run reaim compare good-kernel last --bisect", "0 good, 1 bad, 125 skip, 128 stop: as git bisect run reads it"},
	{"reaim plot 6.1 6.2-rc1 -o dbase.svg --diff", "both curves and their difference in one SVG"},
	{"reaim -s osync && reaim compare last", "O_SYNC on against off, per task count"},
	{"reaim show last -v --tests", "the last run again, with per-test latency percentiles"},
	{"reaim export last --format json", "every stored figure, for scripts"},
	{"reaim single -f aim9 -p 5", "each test alone for 5 seconds (AIM9)"},
	{"reaim merge lab-box-7.db", "gather the runs of another machine"},
};

/* A section per command: its synopsis, what it does, and every option of its table. */
static void commands(FILE *f, const struct command_table *t)
{
	fprintf(f, ".SH COMMANDS\nWith no command, \\fBreaim\\fR runs: \\fBreaim \\-s quick\\fR is "
	       "\\fBreaim run \\-s quick\\fR. Every command answers \\fB\\-h\\fR, \\fB\\-\\-help\\fR. "
	       "Options may come before, between or after the other arguments; \\fB\\-\\-\\fR ends them; "
	       "a value follows its option as the next word or after '=' (\\fB\\-\\-db=FILE\\fR), and "
	       "short options cluster (\\fB\\-qv\\fR, \\fB\\-n5\\fR). A RUN is a run's id, \\fBlast\\fR, "
	       "\\fBlast~N\\fR (the Nth before the last), or its label (the newest with it).\n");
	for (size_t i = 0; i < t->count; i++) {
		const struct command *c = &t->rows[i];
		if (c->hidden)
			continue;
		fprintf(f, ".SS \"reaim %s\"\n.PP\n", c->name);
		char *synopsis = cli_synopsis(c->name, c->opts);
		int depth = 0;
		for (const char *p = synopsis; *p; p++) { /* "[-n N]" is not broken across lines */
			depth += (*p == '[') - (*p == ']');
			if (*p == ' ' && depth > 0)
				fputs("\\ ", f);
			else
				cli_roff(f, (char[2]){*p, '\0'});
		}
		free(synopsis);
		fprintf(f, "\n.PP\n");
		cli_roff(f, c->summary);
		fprintf(f, ".\n");
		if (c->opts == t->rows[0].opts) /* the run command */
			fprintf(f, "Each option but \\fB\\-s\\fR, \\fB\\-\\-db\\fR, \\fB\\-\\-dry\\-run\\fR, "
			       "\\fB\\-q\\fR and \\fB\\-v\\fR is also a suite key (see \\fBreaim\\-suite\\fR(5)); "
			       "the command line overrides the suite.\n");
		if (i > 0 && c->opts == t->rows[i - 1].opts && c->opts[0].type != CLI_END) {
			fprintf(f, "It takes the options of \\fBreaim %s\\fR.\n", t->rows[i - 1].name);
			continue;
		}
		cli_print_man(f, c->opts);
	}
}

/* An installed path in italics, breakable after each '/': a long --prefix would otherwise overrun
 * the line and troff would say so on the reader's terminal. */
static void roff_path(FILE *f, const char *path)
{
	fputs("\\fI", f);
	for (const char *p = path; *p; p++) {
		if (*p == '-')
			fputs("\\-", f);
		else
			fputc(*p, f);
		if (*p == '/')
			fputs("\\:", f);
	}
	fputs("\\fR", f);
}

static void environment_and_files(FILE *f)
{
	fprintf(f, ".SH ENVIRONMENT\n"
	       ".TP\n.B REAIM_DB\nThe results database when \\fB\\-\\-db\\fR is not given "
	       "(default \\fIresults/reaim.db\\fR under the current directory, created with its directory).\n"
	       ".TP\n.B RESULT_ROOT, LAVA_RESULT_DIR, AUTODIR\nSet by LKP, LAVA's test shell and autotest: "
	       "without \\fB\\-\\-db\\fR and \\fBREAIM_DB\\fR, the database is \\fIreaim.db\\fR in "
	       "the job's result directory (\\fB$RESULT_ROOT\\fR, \\fB$LAVA_RESULT_DIR\\fR, or the "
	       "newest \\fB$AUTODIR/results/*/TEST/results\\fR), and a run says so at its start.\n"
	       ".TP\n.B TMPDIR\nThe disk directory when neither \\fB\\-d\\fR nor the suite's \\fBdirs\\fR "
	       "names one (default \\fI/var/tmp\\fR). Each run works in a private "
	       "\\fIreaim\\-PID\\-XXXXXX\\fR directory there and removes it.\n"
	       ".TP\n.B REAIM_DATADIR\nSearched first for \\fIsuites/\\fR and \\fIworkfiles/\\fR, "
	       "before the build tree, the binary's own directory (a build copied whole), "
	       "\\fIBINDIR/../share/reaim\\fR (an install moved whole) and the installed data directory.\n"
	       ".TP\n.B REAIM_LIBEXECDIR\nSearched first for \\fBreaim\\-exec\\-helper\\fR (the program "
	       "the exec tests run), before the binary's own directory and the installed one.\n"
	       ".TP\n.B PATH\nRead by the \\fBmisc_rtns_1\\fR test, as a shell user's tools read it.\n"
	       ".SH FILES\n"
	       ".TP\n.I results/reaim.db\nThe default results database (SQLite): every run, point, "
	       "per\\-test figure, sampler row and environment fingerprint.\n"
	       ".TP\n.I ./suites/NAME.cfg\nA suite named on the command line is looked for here first.\n"
	       ".TP\n");
	roff_path(f, PKGDATADIR "/suites, ");
	roff_path(f, PKGDATADIR "/workfiles");
	fprintf(f, "\nThe shipped suites and workfiles "
	       "(see \\fBreaim\\-suite\\fR(5)); \\fBreaim tests\\fR lists the tests a workfile may name.\n"
	       ".TP\n");
	roff_path(f, PKGDATADIR "/scripts");
	fprintf(f, "\nThe scripts the shell_rtns tests run.\n");
}

static void page1(FILE *f, const struct command_table *commands_of)
{
	fprintf(f, ".TH REAIM 1 \"\" \"reaim " PACKAGE_VERSION "\" \"User Commands\"\n"
	       ".SH NAME\nreaim \\- multiuser workload harness (AIM Suite VII / re\\-aim\\-7 line)\n"
	       ".SH SYNOPSIS\n.B reaim\n[\\fBrun\\fR] \\fB\\-s\\fR \\fISUITE\\fR [\\fIoptions\\fR]\n"
	       ".br\n.B reaim\n\\fICOMMAND\\fR [\\fIoptions\\fR] [\\fIargs\\fR]\n"
	       ".SH DESCRIPTION\nForks N tasks at increasing task counts; each runs a weighted random mix "
	       "of the AIM tests from a workfile. For each task count reaim reports Jobs/Min, wall time "
	       "and CPU time and stores the point in an SQLite database.\n");
	commands(f, commands_of);
	fprintf(f, ".SH CLASSIC COMMAND LINE\nA command line with no command that uses a flag only classic "
	       "re\\-aim 7.0.1.13 has (\\fB\\-e\\fR, \\fB\\-i\\fR, \\fB\\-c\\fR, \\fB\\-l\\fR, "
	       "\\fB\\-x\\fR, \\fB\\-g\\fR, \\fB\\-y\\fR, \\fB\\-o\\fR, \\fB\\-m\\fR or one of its "
	       "long options), or a number after \\fB\\-s\\fR, is read as classic read it, as LKP, mmtests "
	       "and autotest issue it: it prints classic's table and writes \\fIPREFIX.csv\\fR, and the run "
	       "is stored as any other. A number after \\fB\\-s\\fR while a suite of that name exists is "
	       "refused as ambiguous. \\fBreaim \\-e 1 \\-h\\fR lists these flags.\n");
	classic_cli_man(f, cli_roff);
	fprintf(f, ".SH AIM PROGRAMS\nCalled as \\fBmultitask\\fR or \\fBsingleuser\\fR (the links "
	       "\\fBmake install\\fR puts beside \\fBreaim\\fR), reaim answers AIM Suite VII's and IX's "
	       "prompts as LKP's aim7 and aim9 jobs pipe them: \\fBmultitask \\-t\\fR reads the machine's "
	       "name and configuration, the iterations, and per iteration the start load, 1 (to crossover) "
	       "or 2 and the end load, and the increment, one a line on stdin, and \\fIworkfile\\fR and "
	       "\\fIconfig\\fR (disk directories) from the current directory; \\fBsingleuser \\-nl\\fR "
	       "reads the name, configuration, seconds per test and disk directory, and "
	       "\\fIs9workfile\\fR. Each runs reaim's own run, stored as any other, and prints AIM's table "
	       "(\\fBexport \\-\\-format aim7\\fR or \\fBaim9\\fR of that run).\n");
	fprintf(f, ".SH TESTS\n");
	const struct test_def *t;
	for (size_t i = 0; (t = test_at(i)) != NULL; i++) {
		fprintf(f, ".TP\n.B ");
		cli_roff(f, t->name);
		fprintf(f, "\n");
		cli_roff(f, t->desc);
		fprintf(f, " (%ld ", t->ops_per_call);
		cli_roff(f, t->units);
		fprintf(f, " per call).\n");
	}
	environment_and_files(f);
	fprintf(f, ".SH EXIT STATUS\n");
	for (size_t i = 0; i < ARRAY_SIZE(exit_statuses); i++) {
		fprintf(f, ".TP\n.B %s\n", exit_statuses[i].code);
		cli_roff(f, exit_statuses[i].meaning);
		fputc('\n', f);
	}
	fprintf(f, ".SH EXAMPLES\n");
	for (size_t i = 0; i < ARRAY_SIZE(examples); i++) {
		fprintf(f, ".TP\n.B ");
		cli_roff(f, examples[i].line);
		fputc('\n', f);
		cli_roff(f, examples[i].what);
		fprintf(f, ".\n");
	}
	fprintf(f, ".SH SEE ALSO\n\\fBreaim\\-suite\\fR(5)\n");
}

static void page5(FILE *f, const struct command_table *commands_of)
{
	(void)commands_of; /* every page gets the table; this one lists no command */
	fprintf(f, ".TH REAIM\\-SUITE 5 \"\" \"reaim " PACKAGE_VERSION "\" \"File Formats\"\n"
	       ".SH NAME\nreaim\\-suite \\- reaim suite files and workfiles\n"
	       ".SH SUITES\nA suite is a libconfig file. Top\\-level keys set options for every workload; "
	       "an optional \\fBworkloads\\fR list of groups, each with a \\fBworkfile\\fR and any other "
	       "keys, overrides them per workload. Command\\-line flags override both. \\fBname\\fR and "
	       "\\fBdescription\\fR describe the suite.\n.SH KEYS\n");
	suite_keys(f);
	fprintf(f, ".SH WORKFILES\nOne \\fIweight test\\fR pair per line; \\fB#\\fR starts a comment; "
	       "\\fBFILESIZE:\\fR and \\fBPOOLSIZE:\\fR lines take sizes with K, M or G. Unknown tests, "
	       "weights below 1 and a key given twice are errors reported as \\fIfile:line\\fR; a test listed "
	       "twice has its weights added, with a note.\n"
	       ".SH SEE ALSO\n\\fBreaim\\fR(1)\n");
}

struct man_args {
	struct cli_list section;
	int roff;
};

static const struct {
	const char *name, *help;
	void (*page)(FILE *f, const struct command_table *t);
} pages[] = {
	{"1", "reaim(1): the commands and their options, the tests, environment, exit status", page1},
	{"5", "reaim-suite(5): suite keys and the workfile format", page5},
	{NULL, NULL, NULL},
};

CLI_CHOICES_FROM(page_at, pages)

const struct cli_opt cmd_man_opts[] = {
	CLI_OPT_OPERANDS("SECTION", struct man_args, section, 0, 1, "which page (default 1, as man(1) opens the first):",
			 .choices = page_at),
	CLI_OPT_FLAG(0, "roff", struct man_args, roff,
		     "print the page's roff source (what man(1) and a manpath read), not the page rendered"),
	CLI_OPT_END,
};

/* A narrow terminal or a long install path leaves lines troff cannot fill; the page still reads
 * well, so its warnings about them (groff's "break" class) are not the reader's business. Appended
 * to the user's own MANROFFOPT, which man(1) hands to troff. */
static void quiet_line_breaks(void)
{
	const char *mine = getenv("MANROFFOPT");
	char opts[512];
	int n = snprintf(opts, sizeof(opts), "%s%s-Wbreak", mine ? mine : "", mine && *mine ? " " : "");
	if (n > 0 && (size_t)n < sizeof(opts))
		setenv("MANROFFOPT", opts, 1);
}

/* The page is read, not parsed: render it through man(1) (`man -l -` reads roff on stdin, pages it
 * on a terminal and writes plain text to a pipe). 0 when man showed it; -1 when man cannot be run,
 * and the raw page is printed instead. */
static int through_man(const char *roff, size_t len)
{
	int fd[2];
	if (pipe2(fd, O_CLOEXEC) < 0)
		return -1;
	fflush(stdout);
	quiet_line_breaks(); /* before the fork: setenv is no call for a forked child */
	pid_t pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	if (pid == 0) {
		signal(SIGPIPE, SIG_DFL); /* ignored by reaim; man and its pager expect the default */
		if (dup2(fd[0], STDIN_FILENO) < 0)
			_exit(127);
		execlp("man", "man", "-l", "-", (char *)NULL);
		_exit(127);
	}
	close(fd[0]);
	/* a pager the user quits early closes the pipe: EPIPE then is no failure */
	for (size_t done = 0; done < len;) {
		ssize_t n = write(fd[1], roff + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	close(fd[1]);
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 127 ? -1 : 0;
}

enum outcome cmd_man(const struct command *self, int argc, char **argv)
{
	struct man_args a = {0};
	enum outcome out;
	if (cmd_parse(self, argc, argv, &a, &out))
		return out;
	char *roff = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&roff, &len);
	if (!f) {
		log_error("rendering the page: %s", strerror(errno));
		cli_free(self->opts, &a);
		return OUT_FAILED;
	}
	const char *section = a.section.count ? a.section.v[0] : pages[0].name;
	for (size_t i = 0; pages[i].name; i++)
		if (strcmp(pages[i].name, section) == 0)
			pages[i].page(f, self->all);
	if (fclose(f) != 0) {
		log_error("rendering the page: %s", strerror(errno));
		free(roff);
		cli_free(self->opts, &a);
		return OUT_FAILED;
	}
	/* the rendered page (`reaim man 1 | head` is read by a person), raw roff with --roff (for a
	 * manpath, a build) or where man(1) cannot be run */
	if (a.roff || through_man(roff, len) < 0)
		fwrite(roff, 1, len, stdout);
	free(roff);
	cli_free(self->opts, &a);
	return OUT_OK;
}
