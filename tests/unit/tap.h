/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A minimal TAP producer for the unit tests (Automake's tap-driver reads it). */
#ifndef REAIM_TESTS_UNIT_TAP_H
#define REAIM_TESTS_UNIT_TAP_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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

/* The cases of a test program: main() calls each as tap_case(fn) (or tap_case(fn, args...)).
 * With TAP_ONLY=NAME[,NAME...] in the environment only the cases of those names run
 * (`TAP_ONLY=table,formats tests/unit/test_options`); checks main() makes outside a case run
 * always. A name that is no case of the program fails it, so a misspelt one never passes. */
#define tap_case(fn, ...)                                                                       \
	do {                                                                                    \
		if (tap_wanted(#fn))                                                            \
			fn(__VA_ARGS__);                                                        \
	} while (0)

static const char *tap_cases[256];
static size_t tap_ncases;

/* Whether NAME is among the comma-separated names of list. */
static inline int tap_listed(const char *list, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = list; *p;) {
		size_t len = strcspn(p, ",");
		if (len == n && strncmp(p, name, n) == 0)
			return 1;
		p += len + (p[len] == ',');
	}
	return 0;
}

static inline int tap_wanted(const char *name)
{
	const char *only = getenv("TAP_ONLY");
	if (tap_ncases < sizeof(tap_cases) / sizeof(tap_cases[0]))
		tap_cases[tap_ncases++] = name;
	return !only || !*only || tap_listed(only, name);
}

/* Each name TAP_ONLY gives is a case this program ran past: one "not ok" per one that is not. */
static inline void tap_only_known(void)
{
	const char *only = getenv("TAP_ONLY");
	for (const char *p = only ? only : ""; *p;) {
		char name[128];
		size_t len = strcspn(p, ",");
		snprintf(name, sizeof(name), "%.*s", (int)len, p);
		int known = 0;
		for (size_t i = 0; i < tap_ncases; i++)
			known |= strcmp(tap_cases[i], name) == 0;
		if (!known) {
			char what[200];
			snprintf(what, sizeof(what), "TAP_ONLY's '%s' is a case of this program", name);
			tap_ok(0, __FILE__, __LINE__, what);
		}
		p += len + (p[len] == ',');
	}
}

static inline int done_testing(void)
{
	tap_only_known();
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
