/* SPDX-License-Identifier: GPL-2.0-or-later */
/* reaim-forker: forks the tasks of reaim's points (engine/forker_loop.c). Started by reaim alone,
 * with its end of a socketpair as the one argument; linked with nothing reaim's tasks do not need. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "engine/forker.h"

int main(int argc, char **argv)
{
	char *end;
	long fd = argc == 2 ? strtol(argv[1], &end, 10) : -1;
	if (argc != 2 || *end || fd < 0) {
		fprintf(stderr, "reaim-forker: started by reaim only (it forks the tasks of reaim's points)\n");
		return 1;
	}
	forker_main((int)fd);
}
