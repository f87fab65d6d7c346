/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Classic re-aim-7 compatibility on the input side: its reaim.config file and its command
 * line, translated into reaim's own run options. */
#ifndef REAIM_CONFIG_CLASSIC_INPUTS_H
#define REAIM_CONFIG_CLASSIC_INPUTS_H

#include <stdio.h>

#include "config/cfg.h"

/* ---- reaim.config (classic_config.c) ---- */

/* What a classic reaim.config said; -1 (or 0 dirs) where it said nothing. */
struct classic_config {
	long long filesize_kib, poolsize_kib; /* FILESIZE, POOLSIZE: <n>K or <n>M */
	struct str_list dirs;                 /* DISKDIR lines, in order */
	int dirs_off;                         /* the first DISKDIR was OFF: no disk dirs */
	long long start_users, end_users, increment, jobs; /* STARTUSERS ENDUSERS INCREMENT JOBS */
	int crossover, verbose, brief;        /* CROSSOVER VERBOSE BRIEF: 1 on, else off */
};

/* Parse text read from path; 0, or -1 with every problem ("path:line: ...") in errs. */
int classic_config_parse(const char *path, const char *text, struct classic_config *c, struct errlist *errs);
/* Read and parse path. */
int classic_config_load(const char *path, struct classic_config *c, struct errlist *errs);
void classic_config_free(struct classic_config *c);

/* ---- the classic command line (classic_cli.c) ---- */

/*
 * When a command line is classic: it has no subcommand, and either it uses a flag that only
 * classic re-aim has (-e -i -c -l -x -g -y -o -m -b -Z -z, or a classic long option such as
 * --startusers or --config), or its -s value is a number. A numeric -s alone while a suite
 * of that name exists is ambiguous. Every command line reaim accepted before keeps its
 * meaning: none of them used those flags, and -s took a suite name.
 */
enum classic_verdict { CLASSIC_NO = 0, CLASSIC_YES = 1, CLASSIC_AMBIGUOUS = -1 };
/* reason is set for CLASSIC_YES (what made it classic) and CLASSIC_AMBIGUOUS (the error). */
enum classic_verdict classic_cli_detect(int argc, char *const argv[], char *reason, size_t reasonlen);

/* A classic command line, translated. */
struct classic_cli {
	struct overrides ov;      /* reaim's run options; given marks what the line set */
	char *log_prefix;         /* -l: PREFIX.csv is written ("reaim" by default, as classic) */
	char *db, *label;         /* reaim's --db and --label, allowed alongside */
	int single;               /* -o: AIM9 single-user mode */
	int help;                 /* -h: print classic_cli_usage and do nothing else */
	int verbose, debug;       /* -v, -d[N] */
	struct str_list notes;    /* what the line asked that reaim does differently, one line each */
};

/* Parse argv (argv[0] the program) as classic re-aim 7.0.1.13 did and translate it; reads the
 * -c config and the workfile's size lines. 0, or -1 with every problem in errs. */
int classic_cli_parse(int argc, char *const argv[], struct classic_cli *out, struct errlist *errs);
void classic_cli_free(struct classic_cli *c);
/* The same run as reaim's own command line: "run", a long option per value the classic line
 * set (--dirs once per dir), then --db and -v when given; NULL-terminated. */
void classic_cli_native_argv(const struct classic_cli *c, struct str_list *argv);
/* The classic options and what each becomes: as help text, and as man page paragraphs, each
 * piece of text through roff. */
void classic_cli_usage(FILE *f);
void classic_cli_man(FILE *f, void (*roff)(FILE *, const char *));

#endif
