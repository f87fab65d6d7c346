/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checks the workfile parser: the classic format, and every error named by file:line. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/cfg.h"
#include "tap.h"
#include "util/util.h"

static int parse(const char *text, struct workfile *wf, struct errlist *errs)
{
	errlist_free(errs);
	workfile_free(wf);
	return workfile_parse("w.txt", text, wf, errs);
}

/* Every stock mix of re-aim 7.0.1.13 (tests/data/classic_mixes.tsv, one row per line of the
 * classic file) loads by its classic file name with exactly its tests, a test listed twice
 * weighing the sum of its lines. */
struct mix_row {
	char mix[32], test[32];
	int weight;
};

static int check_mix(const struct mix_row *rows, size_t n, struct workfile *wf, struct errlist *errs)
{
	char *name = xasprintf("workfile.%s", rows[0].mix);
	workfile_free(wf);
	errlist_free(errs);
	int rc = workfile_load(name, NULL, 0, wf, errs);
	free(name);
	if (rc < 0)
		return 0;
	size_t distinct = 0;
	for (size_t i = 0; i < n; i++) {
		int sum = 0, first = 1;
		for (size_t k = 0; k < n; k++)
			if (strcmp(rows[k].test, rows[i].test) == 0) {
				sum += rows[k].weight;
				first &= k >= i;
			}
		distinct += first;
		int got = -1;
		for (size_t e = 0; e < wf->count; e++)
			if (strcmp(wf->entries[e].test->name, rows[i].test) == 0)
				got = wf->entries[e].weight;
		if (got != sum) {
			printf("# %s: %s weighs %d, classic %d\n", rows[0].mix, rows[i].test, got, sum);
			return 0;
		}
	}
	return distinct == wf->count;
}

static void classic_mixes(struct workfile *wf, struct errlist *errs)
{
	const char *src = getenv("REAIM_SRCDIR");
	char *path = xasprintf("%s/tests/data/classic_mixes.tsv", src ? src : ".");
	char *text = read_text_file(path, 1 << 20);
	free(path);
	ok(text != NULL, "classic_mixes.tsv read");
	if (!text)
		return;
	struct mix_row rows[512];
	size_t n = 0;
	for (char *ln = strtok(text, "\n"); ln && n < 512; ln = strtok(NULL, "\n"))
		if (ln[0] != '#' && sscanf(ln, "%31s %31s %d", rows[n].mix, rows[n].test, &rows[n].weight) == 3)
			n++;
	free(text);
	int mixes = 0, good = 0;
	for (size_t s = 0, e; s < n; s = e) {
		for (e = s; e < n && strcmp(rows[e].mix, rows[s].mix) == 0; e++)
			;
		mixes++;
		good += check_mix(rows + s, e - s, wf, errs);
	}
	is_int(mixes, 15, "15 classic mixes in the facts");
	is_int(good, 15, "each loads by its classic file name with classic's tests and weights");
	workfile_free(wf);
	errlist_free(errs);
}

int main(void)
{
	struct workfile wf = {0};
	struct errlist errs = {0};

	ok(parse("# dbase\nFILESIZE: 10K\nPOOLSIZE: 1M\n\n20 add_int\n05 disk_rr  # trailing\n", &wf, &errs) == 0,
	   "classic workfile parses");
	is_int(wf.count, 2, "two tests");
	is_int(wf.entries[1].weight, 5, "weight 05 is 5");
	is_int(wf.entries[1].line, 6, "line numbers kept");
	is_int(wf.filesize_kib, 10, "FILESIZE 10K");
	is_int(wf.poolsize_kib, 1024, "POOLSIZE 1M");
	is_str(wf.name, "w.txt", "name from path");

	ok(parse("FILESIZE 64k\n1 sieve\r\n", &wf, &errs) == 0 && wf.filesize_kib == 64, "FILESIZE without colon, CRLF");

	ok(parse("10 add_itn\n", &wf, &errs) < 0, "unknown test refused");
	is_str(errs.msgs[0], "w.txt:1: unknown test 'add_itn'; did you mean add_int, add_long, add_short?",
	       "unknown test names the closest known names");

	ok(parse("0 add_int\n", &wf, &errs) < 0, "zero weight refused");
	is_str(errs.msgs[0], "w.txt:1: weight of add_int must be positive, got 0", "zero weight message");
	ok(parse("-3 add_int\n", &wf, &errs) < 0, "negative weight refused");

	/* classic's alltests lists string_rtns twice: the weights are added (and a note printed) */
	ok(parse("20 string_rtns\n10 sieve\n30 string_rtns\n", &wf, &errs) == 0, "a test listed twice is accepted");
	is_int(wf.count, 2, "listed twice: one entry");
	is_int(wf.entries[0].weight, 50, "listed twice: weights added");
	is_int(wf.entries[0].line, 1, "listed twice: the first line is kept");

	/* AIM9's s9workfile: bare names, weight 1 each */
	ok(parse("# @(#) s9workfile:1.2\nFILESIZE: 5M\nadd_double\ncreat_clo\n", &wf, &errs) == 0,
	   "s9workfile form parses");
	ok(wf.count == 2 && wf.entries[0].weight == 1 && wf.entries[1].weight == 1, "bare names weigh 1");
	is_int(wf.filesize_kib, 5120, "s9workfile FILESIZE");
	ok(parse("10 add_int\nsieve\n", &wf, &errs) < 0, "weighted and bare lines in one file refused");
	is_str(errs.msgs[0], "w.txt:2: a test name without a weight, but line 1 gives a weight (an AIM9 s9workfile "
			     "lists bare test names only)", "mixed forms message");
	ok(parse("nosuch\n", &wf, &errs) < 0, "an unknown bare name refused");
	ok(strncmp(errs.msgs[0], "w.txt:1: unknown test 'nosuch'", 30) == 0, "unknown bare name message");

	/* LKP's job names spell some tests with hyphens */
	ok(parse("10 creat-clo\n", &wf, &errs) == 0 && wf.entries[0].test == test_find("creat_clo"),
	   "creat-clo is creat_clo");
	ok(parse("creat-clo\n10 x-y\n", &wf, &errs) < 0, "a hyphenated unknown name is still unknown");

	ok(parse("ten add_int\n", &wf, &errs) < 0, "garbage weight refused");
	is_str(errs.msgs[0], "w.txt:1: bad weight 'ten' (expected a whole number)", "garbage weight message");
	ok(parse("10\n", &wf, &errs) < 0, "missing test refused");
	ok(parse("10 add_int extra\n", &wf, &errs) < 0, "trailing word refused");
	ok(parse("FILESIZE: lots\n1 add_int\n", &wf, &errs) < 0, "bad size refused");
	ok(parse("# nothing\n\n", &wf, &errs) < 0, "empty mix refused");
	is_str(errs.msgs[0], "w.txt: no tests listed", "empty mix message");

	ok(parse("1 add_int\n0 sieve\n1 nosuch\nsieve\n", &wf, &errs) < 0, "several errors");
	is_int(errs.count, 3, "all errors of a file reported in one pass");
	ok(strncmp(errs.msgs[2], "w.txt:4: a test name without a weight", 37) == 0, "third error at line 4");

	tap_case(classic_mixes, &wf, &errs);

	workfile_free(&wf);
	errlist_free(&errs);
	/* a message with no file says whose it is, never "(null)" */
	errlist_add(&errs, NULL, 0, "a message");
	ok(errs.count == 1 && strcmp(errs.msgs[0], "command line: a message") == 0, "no file: the command line's");
	errlist_free(&errs);
	return done_testing();
}
