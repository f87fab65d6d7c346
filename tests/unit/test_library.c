/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A program built on libreaim.a alone (no main.o) links and drives the commands through their table:
 * the layer a lab's own tool would use. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "store/store.h"
#include "tap.h"
#include "testdb.h"

static void command_table(void)
{
	const struct command *run = cmd_find(&cmd_table, "run");
	ok(run && run == &cmd_table.rows[0], "the run command is the table's first row");
	ok(cmd_find(&cmd_table, "no-such-command") == NULL, "an unknown name finds no row");
	size_t reach = 0;
	for (size_t i = 0; i < cmd_table.count; i++)
		reach += cmd_table.rows[i].all == &cmd_table && cmd_table.rows[i].fn && cmd_table.rows[i].opts;
	is_int((long long)reach, (long long)cmd_table.count, "every row has a handler, an option table and its table");
}

static void resolve(void)
{
	struct test_db t;
	if (test_db_open(&t) < 0) {
		ok(0, "a test database");
		return;
	}
	int64_t id = -1;
	fprintf(stderr, "# the error below is expected: the database has no run\n");
	ok(cmd_resolve_run(t.st, NULL, &id) == OUT_USAGE, "cmd_resolve_run: an empty database has no last run");
	test_db_remove(&t);
	ok(strcmp(store_db_path("x.db"), "x.db") == 0, "store_db_path: --db wins");
}

int main(void)
{
	tap_case(command_table);
	tap_case(resolve);
	return done_testing();
}
