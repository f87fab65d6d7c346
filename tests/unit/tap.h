/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A minimal TAP producer for the unit tests (Automake's tap-driver reads it). */
#ifndef REAIM_TESTS_UNIT_TAP_H
#define REAIM_TESTS_UNIT_TAP_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

static inline void tap_ok(int cond, const char *file, int line, const char *what)
{
	tap_n++;
	printf("%sok %d - %s\n", cond ? "" : "not ", tap_n, what);
	if (!cond) {
		tap_failed++;
		printf("#   failed at %s:%d\n", file, line);
	}
}

static inline void tap_skip(const char *what, const char *why)
{
	printf("ok %d - %s # SKIP %s\n", ++tap_n, what, why);
}
#define skip(what, why) tap_skip(what, why)
#define ok(cond, what) tap_ok(!!(cond), __FILE__, __LINE__, what)
#define is_int(got, want, what)                                                                 \
	do {                                                                                    \
		long long g_ = (long long)(got), w_ = (long long)(want);                        \
		tap_ok(g_ == w_, __FILE__, __LINE__, what);                                     \
		if (g_ != w_)                                                                   \
			printf("#   got %lld, want %lld\n", g_, w_);                             \
	} while (0)
#define is_near(got, want, tol, what)                                                           \
	do {                                                                                    \
		double g_ = (got), w_ = (want);                                                 \
		tap_ok(fabs(g_ - w_) <= (tol), __FILE__, __LINE__, what);                       \
		if (!(fabs(g_ - w_) <= (tol)))                                                  \
			printf("#   got %.9g, want %.9g (+-%g)\n", g_, w_, (double)(tol));      \
	} while (0)
#define is_str(got, want, what)                                                                 \
	do {                                                                                    \
		const char *g_ = (got), *w_ = (want);                                           \
		int same_ = g_ && w_ && strcmp(g_, w_) == 0;                                    \
		tap_ok(same_, __FILE__, __LINE__, what);                                        \
		if (!same_)                                                                     \
			printf("#   got '%s', want '%s'\n", g_ ? g_ : "(null)", w_ ? w_ : "(null)"); \
	} while (0)

static inline int done_testing(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
