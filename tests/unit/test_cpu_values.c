/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checks the floating-point tests' value tables: classic's construction of vals[] and vals10[]. */
#include "config.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "tap.h"
#include "catalog/cpu_values.h"

static void vals(void)
{
	int rule = cpu_vals[0] == 0.0 && cpu_vals[1] == 1.0 && cpu_vals[2] == DBL_TRUE_MIN;
	for (int i = 3; i < NUMVALS; i++)
		rule &= cpu_vals[i] == fabs(cpu_vals[i - 2] - cpu_vals[i - 1]) / 2.0;
	ok(rule, "vals[]: 0, 1, the smallest subnormal, then half the difference of the two before");
	ok(cpu_vals[3] == 0.5 && cpu_vals[NUMVALS - 1] == ldexp(1.0, -497), "vals[] halves from 2^-1 to 2^-497");
}

static void vals10(void)
{
	int tiny = 1, range = 1, distinct = 1;
	double sum = 0.0;
	for (int i = 0; i < NUM10VALS; i++) {
		double v = cpu_vals10[i];
		if (i % 100 == 0) {
			tiny &= v == DBL_TRUE_MIN;
			continue;
		}
		range &= v >= -10.0 && v <= 10.0;
		distinct &= v != cpu_vals10[i - 1];
		sum += v;
	}
	ok(tiny, "vals10[]: every 100th value is the smallest subnormal");
	ok(range, "vals10[]: the others lie in [-10, 10]");
	ok(distinct, "vals10[]: no value repeats the one before");
	is_near(sum / (NUM10VALS - NUM10VALS / 100), 0.0, 0.25, "vals10[]: spread around 0");

	/* classic filled vals10[] from rand() at start-up: with glibc's generator, the same values */
	if (rand() != 1804289383) {
		skip("vals10[] is rand()'s sequence", "this libc's rand() is not glibc's");
	} else {
		srand(1);
		int same = 1;
		for (int i = 0; i < NUM10VALS; i++)
			if (i % 100 != 0)
				same &= cpu_vals10[i] == (double)rand() / RAND_MAX * 20. - 10.;
		ok(same, "vals10[] is rand() / RAND_MAX * 20 - 10 from rand()'s initial state");
	}
}

int main(void)
{
	tap_case(vals);
	tap_case(vals10);
	return done_testing();
}
