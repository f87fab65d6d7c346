/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `reaim help [COMMAND]`: the commands and where to begin (a screen, shorter than --help), or one
 * command's --help. */
#include "config.h"

#include "cmd/cmd.h"

struct help_args {
	struct cli_list command;
};

const struct cli_opt cmd_help_opts[] = {
	CLI_OPT_OPERANDS("COMMAND", struct help_args, command, 0, 1, "the command to explain",
			 .complete = CLI_COMPLETE_COMMAND),
	CLI_OPT_END,
};

enum outcome cmd_help(const struct command *self, int argc, char **argv)
{
	struct help_args a = {0};
	enum outcome out = OUT_OK;
	if (cmd_parse(self, argc, argv, &a, &out))
		return out;
	if (!a.command.count) {
		cmd_overview(stdout, self->all);
	} else {
		const struct command *c = cmd_find(self->all, a.command.v[0]);
		if (c && !c->hidden) {
			cmd_print_help(stdout, c);
		} else {
			cmd_unknown_command(self->all, a.command.v[0]);
			out = OUT_USAGE;
		}
	}
	cli_free(self->opts, &a);
	return out;
}
