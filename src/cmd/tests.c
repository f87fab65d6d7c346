/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `reaim tests`: the test catalog, or one test explained. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "catalog/catalog.h"
#include "cmd/cmd.h"
#include "util/util.h"

struct tests_args {
	struct cli_list name;
};

const struct cli_opt cmd_tests_opts[] = {
	CLI_OPT_OPERANDS("NAME", struct tests_args, name, 0, 1, "a test to explain: its family, work per call and flags",
			 .complete = CLI_COMPLETE_TEST),
	CLI_OPT_END,
};

static const char *flag_names(unsigned flags, char *buf, size_t len)
{
	static const struct {
		unsigned flag;
		const char *name;
	} names[] = {{TF_CPU, "cpu"},     {TF_DISK, "disk"},    {TF_SYNC, "sync"},   {TF_DIRECT, "direct"},
		     {TF_FORKS, "forks"}, {TF_NET, "network"}, {TF_SYSV, "sysv"},   {TF_SOURCE, "source"},
		     {TF_SCRATCH, "scratch"}, {TF_SIZED, "sized"}, {TF_HALF, "half-size"}};
	buf[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (flags & names[i].flag)
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", buf[0] ? "," : "", names[i].name);
	return buf;
}

/* "unknown test" with the nearest name in the catalog. */
static void unknown_test(const char *name)
{
	const char *names[256];
	size_t n = 0;
	const struct test_def *t;
	while (n < ARRAY_SIZE(names) && (t = test_at(n)) != NULL)
		names[n++] = t->name;
	long k = closest_name(name, names, n);
	if (k >= 0)
		log_error("unknown test '%s'; did you mean %s? (see reaim tests)", name, names[k]);
	else
		log_error("unknown test '%s' (see reaim tests)", name);
}

enum outcome cmd_tests(const struct command *self, int argc, char **argv)
{
	struct tests_args a = {0};
	enum outcome out = OUT_OK;
	char flags[128];
	if (cmd_parse(self, argc, argv, &a, &out))
		return out;
	if (a.name.count) {
		const struct test_def *t = test_find(a.name.v[0]);
		if (!t) {
			unknown_test(a.name.v[0]);
			out = OUT_USAGE;
		} else {
			printf("%s (family %s)\n  %s\n  one call: %ld %s\n  flags: %s\n", t->name, test_family_of(t),
			       t->desc, t->ops_per_call, t->units, flag_names(t->flags, flags, sizeof(flags)));
		}
		cli_free(self->opts, &a);
		return out;
	}
	printf("%-18s %-10s %10s  %-24s %s\n", "Test", "Family", "Ops/call", "Units", "Description");
	const struct test_def *t;
	for (size_t i = 0; (t = test_at(i)) != NULL; i++)
		printf("%-18s %-10s %10ld  %-24s %s\n", t->name, test_family_of(t), t->ops_per_call, t->units,
		       t->desc);
	cli_free(self->opts, &a);
	return OUT_OK;
}
