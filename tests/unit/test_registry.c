/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checks the test catalog: names, table fields, and that CPU work was not optimised away. */
#include "config.h"

#include <string.h>

#include "measure/measure.h"
#include "tap.h"
#include "catalog/catalog.h"

/* Every classic name (from the stock mixes) must be in the registry. */
static const char *const classic_names[] = {
	"add_double", "add_float", "add_int", "add_long", "add_short", "array_rtns", "brk_test",
	"creat_clo", "dgram_pipe", "dir_rtns_1", "disk_bcp", "disk_brd", "disk_brr", "disk_brw",
	"disk_bwrt", "disk_cp", "disk_dio_cp", "disk_dio_rd", "disk_dio_rr", "disk_dio_rw",
	"disk_dio_wrt", "disk_rd", "disk_rr", "disk_rw", "disk_src", "disk_wrt", "div_double",
	"div_float", "div_int", "div_long", "div_short", "exec_test", "fifo_test", "fork_test",
	"fun_cal", "fun_cal1", "fun_cal15", "fun_cal2", "jmp_test", "link_test", "matrix_rtns",
	"mem_rtns_1", "mem_rtns_2", "misc_rtns_1", "mul_double", "mul_float", "mul_int", "mul_long",
	"mul_short", "new_raph", "num_rtns_1", "page_test", "pipe_cpy", "ram_copy", "series_1",
	"shared_memory", "shell_rtns_1", "shell_rtns_2", "shell_rtns_3", "sieve", "signal_test",
	"sort_rtns_1", "stream_pipe", "string_rtns", "sync_disk_cp", "sync_disk_rw",
	"sync_disk_update", "sync_disk_wrt", "tcp_test", "trig_rtns", "udp_test",
};

static void names(void)
{
	size_t n = sizeof(classic_names) / sizeof(classic_names[0]);
	is_int(n, 71, "71 classic names");
	is_int(test_count(), 71, "71 tests registered");
	int all = 1;
	for (size_t i = 0; i < n; i++)
		if (!test_find(classic_names[i])) {
			printf("# missing %s\n", classic_names[i]);
			all = 0;
		}
	ok(all, "every classic name is registered");
	int unique = 1, complete = 1;
	const struct test_def *t;
	for (size_t i = 0; (t = test_at(i)) != NULL; i++) {
		unique &= test_find(t->name) == t;
		complete &= t->run && t->desc && *t->desc && t->units && *t->units && t->ops_per_call > 0 &&
			    strlen(t->name) < 32;
	}
	ok(unique, "names are unique");
	ok(complete, "every row has a function, description, units and ops per call");
	ok(test_find("nosuch") == NULL, "unknown name not found");
	is_str(test_family_of(test_find("sieve")), "cpu_int", "family lookup");
}

/* The compiler must not have deleted the work: a call takes at least elem_ops * 0.05 ns. */
static void cpu_work(void)
{
	const struct test_def *t;
	struct test_ctx ctx = {.rng = 1};
	for (size_t i = 0; (t = test_at(i)) != NULL; i++) {
		if (!(t->flags & TF_CPU) || t->elem_ops < 100000)
			continue;
		uint64_t t0 = clock_now_ns();
		enum test_status r = t->run(&ctx, t);
		uint64_t ns = clock_now_ns() - t0;
		char what[96];
		snprintf(what, sizeof(what), "%s: %llu ns for %llu ops", t->name, (unsigned long long)ns,
			 (unsigned long long)t->elem_ops);
		ok(r == TEST_OK && (double)ns >= (double)t->elem_ops * 0.05, what);
	}
}

int main(void)
{
	tap_case(names);
	tap_case(cpu_work);
	return done_testing();
}
