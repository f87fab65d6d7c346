#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Writes src/catalog/cpu_values.h, the value tables of the floating-point CPU tests, as classic
# re-aim filled them at start-up: vals[] (0, 1, the smallest subnormal, then each the half of the
# difference of the two before it, so 2^-1 down to 2^-497) and vals10[] (rand() / RAND_MAX * 20
# - 10 from rand()'s initial state, every 100th the smallest subnormal). Written once and
# checked in, so a test reads a constant table as classic read its array; the same output on
# every glibc machine (another libc's rand() is refused).
#
# usage: bench/gen_cpu_values.sh [OUTPUT]   (default: src/catalog/cpu_values.h; - for stdout)
# environment: CC (default cc)
set -eu
. "$(dirname "$0")/lib.sh"
out=${1:-$top/src/catalog/cpu_values.h}
bench_dir gen-values
cat >"$t/gen.c" <<'PROG'
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define NUMVALS 500
#define NUM10VALS 10000

static void table(const char *name, const char *size, const double *v, int n)
{
	printf("static const double %s[%s] = {\n", name, size);
	for (int i = 0; i < n; i++)
		printf("%s%a,%s", i % 4 ? " " : "\t", v[i], i % 4 == 3 || i == n - 1 ? "\n" : "");
	printf("};\n");
}

int main(void)
{
	static double vals[NUMVALS], vals10[NUM10VALS];
	/* glibc's first number from its initial state: another generator gives another table */
	if (rand() != 1804289383)
		return 2;
	srand(1);
	vals[0] = 0.0;
	vals[1] = 1.0;
	vals[2] = DBL_TRUE_MIN;
	for (int i = 3; i < NUMVALS; i++)
		vals[i] = fabs(vals[i - 2] - vals[i - 1]) / 2.0;
	for (int i = 0; i < NUM10VALS; i++)
		vals10[i] = i % 100 == 0 ? DBL_TRUE_MIN : (double)rand() / RAND_MAX * 20. - 10.;
	printf("/* SPDX-License-Identifier: GPL-2.0-or-later */\n"
	       "/* Classic's value tables of the floating-point CPU tests, written by\n"
	       " * bench/gen_cpu_values.sh (do not edit): vals[] 0, 1, the smallest subnormal, then\n"
	       " * 2^-1 to 2^-497; vals10[] rand() in [-10, 10], every 100th the smallest subnormal. */\n"
	       "#ifndef REAIM_CATALOG_CPU_VALUES_H\n#define REAIM_CATALOG_CPU_VALUES_H\n\n"
	       "#define NUMVALS %d\n#define NUM10VALS %d\n\n", NUMVALS, NUM10VALS);
	table("cpu_vals", "NUMVALS", vals, NUMVALS);
	printf("\n");
	table("cpu_vals10", "NUM10VALS", vals10, NUM10VALS);
	printf("\n#endif\n");
	return ferror(stdout) ? 1 : 0;
}
PROG
${CC:-cc} -std=gnu11 -O0 -o "$t/gen" "$t/gen.c" -lm
rc=0
"$t/gen" >"$t/out" || rc=$?
[ "$rc" -ne 2 ] || { echo "gen_cpu_values.sh: rand() is not glibc's, whose sequence the table holds" >&2; exit 1; }
[ "$rc" -eq 0 ] || { echo "gen_cpu_values.sh: the generator failed" >&2; exit 1; }
if [ "$out" = - ]; then cat "$t/out"; else cat "$t/out" >"$out"; fi
