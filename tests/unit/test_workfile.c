/* Checks the workfile parser: the classic format, and every error named by file:line. */
#include "config.h"

#include <stdlib.h>

#include "config/cfg.h"
#include "tap.h"

static int parse(const char *text, struct workfile *wf, struct errlist *errs)
{
	errlist_free(errs);
	workfile_free(wf);
	return workfile_parse("w.txt", text, wf, errs);
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

	ok(parse("1 add_int\n2 add_int\n", &wf, &errs) < 0, "duplicate refused");
	is_str(errs.msgs[0], "w.txt:2: duplicate test 'add_int' (first at line 1)", "duplicate message");

	ok(parse("ten add_int\n", &wf, &errs) < 0, "garbage weight refused");
	is_str(errs.msgs[0], "w.txt:1: bad weight 'ten' (expected a whole number)", "garbage weight message");
	ok(parse("10\n", &wf, &errs) < 0, "missing test refused");
	ok(parse("10 add_int extra\n", &wf, &errs) < 0, "trailing word refused");
	ok(parse("FILESIZE: lots\n1 add_int\n", &wf, &errs) < 0, "bad size refused");
	ok(parse("# nothing\n\n", &wf, &errs) < 0, "empty mix refused");
	is_str(errs.msgs[0], "w.txt: no tests listed", "empty mix message");

	ok(parse("1 add_int\n0 sieve\n1 nosuch\n1 add_int\n", &wf, &errs) < 0, "several errors");
	is_int(errs.count, 3, "all errors of a file reported in one pass");
	is_str(errs.msgs[2], "w.txt:4: duplicate test 'add_int' (first at line 1)", "third error at line 4");

	workfile_free(&wf);
	errlist_free(&errs);
	return done_testing();
}
