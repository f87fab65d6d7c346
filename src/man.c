/* The man pages, generated from the command, option and test tables so they cannot drift. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "config/cfg.h"
#include "catalog/catalog.h"

/* roff needs '-' and '\' escaped in running text. */
static void roff(const char *s)
{
	for (; *s; s++) {
		if (*s == '-' || *s == '\\')
			putchar('\\');
		putchar(*s);
	}
}

static void option_list(int as_flags)
{
	for (size_t i = 0; i < option_count; i++) {
		const struct option_def *o = &option_table[i];
		printf(".TP\n.B ");
		if (as_flags) {
			if (o->short_flag)
				printf("\\-%c, ", o->short_flag);
			printf("\\-\\-");
			for (const char *c = o->key; *c; c++)
				fputs(*c == '_' ? "\\-" : (char[2]){*c, 0}, stdout);
		} else {
			roff(o->key);
		}
		printf(" \\fI");
		roff(o->arg);
		printf("\\fR\n");
		roff(o->help);
		if (o->def && strcmp(o->def, "0") != 0) {
			printf(" (default ");
			roff(o->def);
			printf(")");
		}
		printf(".\n");
	}
}

static void page1(void)
{
	printf(".TH REAIM 1 \"\" \"reaim " PACKAGE_VERSION "\" \"User Commands\"\n"
	       ".SH NAME\nreaim \\- multiuser workload harness (AIM Suite VII / re\\-aim\\-7 line)\n"
	       ".SH SYNOPSIS\n.B reaim\n[\\fBrun\\fR] \\fB\\-s\\fR \\fISUITE\\fR [\\fIoptions\\fR]\n"
	       ".br\n.B reaim\n\\fICOMMAND\\fR [\\fIargs\\fR]\n"
	       ".SH DESCRIPTION\nForks N tasks at increasing task counts; each runs a weighted random mix "
	       "of the AIM tests from a workfile. For each task count reaim reports Jobs/Min, wall time "
	       "and CPU time and stores the point in an SQLite database.\n"
	       ".SH COMMANDS\n");
	for (size_t i = 0; i < cli_command_count; i++) {
		printf(".TP\n.B reaim ");
		roff(cli_commands[i].name);
		printf(" \\fI");
		roff(cli_commands[i].args);
		printf("\\fR\n");
		roff(cli_commands[i].summary);
		printf(".\n");
	}
	printf(".SH RUN OPTIONS\nEach option is also a suite key (see \\fBreaim\\-suite\\fR(5)).\n"
	       ".TP\n.B \\-s, \\-\\-suite \\fISUITE\\fR\na suite name looked up in ./suites and the data "
	       "directory, or a path.\n");
	option_list(1);
	printf(".TP\n.B \\-\\-db \\fIFILE\\fR\nresults database (default $REAIM_DB, else results/reaim.db).\n"
	       ".TP\n.B \\-\\-dry\\-run\nprint the resolved plan and exit.\n"
	       ".TP\n.B \\-q, \\-v\nquiet; verbose (more table columns).\n.SH TESTS\n");
	const struct test_def *t;
	for (size_t i = 0; (t = test_at(i)) != NULL; i++) {
		printf(".TP\n.B ");
		roff(t->name);
		printf("\n");
		roff(t->desc);
		printf(" (%ld ", t->ops_per_call);
		roff(t->units);
		printf(" per call).\n");
	}
	printf(".SH EXIT STATUS\n0 success; 1 usage or configuration error; 2 the run failed or a point is "
	       "not trustworthy; 3 interrupted; 4 compare found a significant regression.\n"
	       ".SH SEE ALSO\n\\fBreaim\\-suite\\fR(5)\n");
}

static void page5(void)
{
	printf(".TH REAIM\\-SUITE 5 \"\" \"reaim " PACKAGE_VERSION "\" \"File Formats\"\n"
	       ".SH NAME\nreaim\\-suite \\- reaim suite files and workfiles\n"
	       ".SH SUITES\nA suite is a libconfig file. Top\\-level keys set options for every workload; "
	       "an optional \\fBworkloads\\fR list of groups, each with a \\fBworkfile\\fR and any other "
	       "keys, overrides them per workload. Command\\-line flags override both. \\fBname\\fR and "
	       "\\fBdescription\\fR describe the suite.\n.SH KEYS\n");
	option_list(0);
	printf(".SH WORKFILES\nOne \\fIweight test\\fR pair per line; \\fB#\\fR starts a comment; "
	       "\\fBFILESIZE:\\fR and \\fBPOOLSIZE:\\fR lines take sizes with K, M or G. Unknown tests, "
	       "weights below 1 and duplicate tests are errors reported as \\fIfile:line\\fR.\n"
	       ".SH SEE ALSO\n\\fBreaim\\fR(1)\n");
}

enum outcome cmd_man(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "1") == 0)
		page1();
	else if (argc == 2 && strcmp(argv[1], "5") == 0)
		page5();
	else {
		fprintf(stderr, "usage: reaim man 1|5\n");
		return OUT_USAGE;
	}
	return OUT_OK;
}
