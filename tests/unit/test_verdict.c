/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checks the verdicts against R's published t.test output, intervals worked by hand, and values
 * computed independently at 40 digits (mpmath: regularized incomplete beta, bisection). */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "measure/measure.h"
#include "analysis/stats.h"
#include "analysis/verdict.h"
#include "tap.h"

/* Cushny and Peebles' sleep data (R's `sleep`), extra hours of sleep under two drugs, 10 patients. */
static const double sleep1[] = {0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0};
static const double sleep2[] = {1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4};

/* Six rounds of Jobs/Min of two configurations, the second about 2.7 % faster in every round. */
static const double jpm_a[] = {1012.5, 998.0, 1030.2, 1005.7, 990.1, 1021.4};
static const double jpm_b[] = {1040.9, 1019.3, 1062.0, 1031.2, 1009.8, 1055.5};

static void welch_published(void)
{
	struct verdict v;
	/* R: t.test(extra ~ group, data = sleep) gives t = -1.8608, df = 17.776, p-value = 0.07939,
	 * 95 percent CI -3.3654832 0.2054832 (group 1 - group 2; here b - a, so the signs flip). */
	is_int(verdict_welch_samples(sleep1, 10, sleep2, 10, 0.05, 0.8, &v), 0, "welch sleep: judged");
	is_near(v.t, 1.86081346749, 1e-9, "welch sleep: t = 1.8608");
	is_near(v.df, 17.7764735162, 1e-9, "welch sleep: df = 17.776");
	is_near(v.p, 0.0793941401874, 1e-10, "welch sleep: p = 0.07939");
	is_near(v.diff, 1.58, 1e-12, "welch sleep: diff = 1.58");
	is_near(v.diff_low, -0.2054832, 1e-7, "welch sleep: diff CI low = -0.2054832");
	is_near(v.diff_high, 3.3654832, 1e-7, "welch sleep: diff CI high = 3.3654832");
	is_int(v.significant, 0, "welch sleep: not significant at 0.05");
	is_int(v.paired, 0, "welch sleep: not paired");
	/* base mean 0.75 with se 0.566: 0.75^2 < t^2 * 0.32 (g > 1), so the ratio has no bounded interval */
	is_int(v.bounded, 0, "welch sleep: base mean near 0 leaves the % interval unbounded");
	ok(isinf(v.ci_low_pct) && v.ci_low_pct < 0 && isinf(v.ci_high_pct) && v.ci_high_pct > 0,
	   "welch sleep: ... reported as -inf..+inf");
}

static void paired_published(void)
{
	struct verdict v;
	/* R: t.test(sleep1, sleep2, paired = TRUE) gives t = -4.0621, df = 9, p-value = 0.002833,
	 * 95 percent CI -2.4598858 -0.7001142 (again a - b there). */
	is_int(verdict_paired(sleep1, sleep2, 10, 0.05, 0.8, &v), 0, "paired sleep: judged");
	is_near(v.t, 4.06212768338, 1e-9, "paired sleep: t = 4.0621");
	is_near(v.df, 9, 0, "paired sleep: df = 9");
	is_near(v.p, 0.00283289019738, 1e-11, "paired sleep: p = 0.002833");
	is_near(v.diff_low, 0.7001142, 1e-7, "paired sleep: diff CI low = 0.7001142");
	is_near(v.diff_high, 2.4598858, 1e-7, "paired sleep: diff CI high = 2.4598858");
	is_int(v.significant, 1, "paired sleep: significant");
	is_int(v.paired, 1, "paired sleep: paired");
	is_int((int)v.na * 100 + (int)v.nb, 1010, "paired sleep: 10 pairs on each side");
	is_int(v.bounded, 0, "paired sleep: base mean near 0, % interval unbounded");
}

static void welch_by_hand(void)
{
	struct verdict v;
	/* a = {10..14}, b = {12..16}: means 12 and 14, s^2 = 2.5, se = sqrt(0.5 + 0.5) = 1, t = 2, df = 8.
	 * T = t(0.975, 8) = 2.306004135, T^2 = 5.317655.
	 * Fieller: qa = 12^2 - T^2 * 0.5 = 141.341172, qb = 12 * 14 = 168, qc = 14^2 - T^2 * 0.5 = 193.341172;
	 * disc = 168^2 - qa * qc = 896.9086, sqrt = 29.94843;
	 * rho in [(168 - 29.94843) / 141.341172, (168 + 29.94843) / 141.341172] = [0.976723, 1.400504],
	 * so the change is 16.667 % with CI [-2.3277 %, +40.0504 %] (the naive diff CI / 12 would be
	 * [-2.55 %, +35.88 %]: it ignores that the base mean is uncertain too).
	 * MDE: (T + t(0.8, 8)) * se / 12 = (2.306004 + 0.888890) / 12 = 26.6241 %. */
	static const double a[] = {10, 11, 12, 13, 14}, b[] = {12, 13, 14, 15, 16};
	is_int(verdict_welch_samples(a, 5, b, 5, 0.05, 0.8, &v), 0, "welch hand: judged");
	is_near(v.t, 2, 1e-12, "welch hand: t = 2");
	is_near(v.df, 8, 1e-12, "welch hand: df = 8");
	is_near(v.p, 0.0805162379573, 1e-11, "welch hand: p = 0.08052");
	is_near(v.change_pct, 100.0 * 2 / 12, 1e-10, "welch hand: change 16.667 %");
	is_int(v.bounded, 1, "welch hand: bounded");
	is_near(v.ci_low_pct, -2.32769786312, 1e-8, "welch hand: Fieller low -2.3277 %");
	is_near(v.ci_high_pct, 40.0503615018, 1e-8, "welch hand: Fieller high +40.0504 %");
	/* exact (noncentral t, df 8): the effect with 80 % power is 3.20091965 standard errors, recomputed
	 * apart (quadrature over the chi-square, bisection; a Monte Carlo of 400,000 draws: power 0.8004);
	 * the normal approximation t(0.975, 8) + t(0.8, 8) = 3.1949 said 26.624 % */
	is_near(v.mde_pct, 26.6743304054, 1e-6, "welch hand: MDE 26.674 %");
	is_near(verdict_mde_pct(1, 12, 8, 0.05, 0.8), 26.6743304054, 1e-6, "mde: on its own");
	is_near(verdict_mde_pct(1, -12, 8, 0.05, 0.8), 26.6743304054, 1e-6, "mde: of |base mean|");
	is_near(stats_t_power(3.2009196486508884, 8, stats_t_quantile(0.975, 8)), 0.8, 1e-9,
		"the power at that effect is 80 %");
	is_near(stats_t_power(0, 8, stats_t_quantile(0.975, 8)), 0.05, 1e-9, "no effect: the power is alpha");
	is_int(v.significant, 0, "welch hand: p 0.08 not significant at 0.05");
	verdict_welch_samples(a, 5, b, 5, 0.10, 0.8, &v);
	is_int(v.significant, 1, "welch hand: significant at 0.10");
	ok(v.ci_low_pct > 0, "welch hand: ... and the 90 % interval excludes 0");
}

static void jobs_per_min(void)
{
	struct verdict v;
	/* the same six rounds judged as independent samples (mpmath at 40 digits) */
	is_int(verdict_welch_samples(jpm_a, 6, jpm_b, 6, 0.05, 0.8, &v), 0, "jpm welch: judged");
	is_near(v.t, 2.60738305746, 1e-9, "jpm welch: t");
	is_near(v.df, 9.15097651955, 1e-9, "jpm welch: df");
	is_near(v.p, 0.0280200659991, 1e-11, "jpm welch: p = 0.0280");
	is_near(v.change_pct, 2.65438518298, 1e-9, "jpm welch: change 2.654 %");
	is_near(v.ci_low_pct, 0.354393988436, 1e-8, "jpm welch: Fieller low 0.354 %");
	is_near(v.ci_high_pct, 4.99205326368, 1e-8, "jpm welch: Fieller high 4.992 %");
	is_near(v.mde_pct, 3.19966408366, 1e-6, "jpm welch: MDE 3.200 % (exact; the approximation said 3.196)");
	/* ... and paired round by round: the shared drift cancels, the interval narrows 4x */
	is_int(verdict_paired(jpm_a, jpm_b, 6, 0.05, 0.8, &v), 0, "jpm paired: judged");
	is_near(v.t, 11.4904052045, 1e-8, "jpm paired: t = 11.49");
	is_near(v.p, 8.7501261452e-5, 1e-13, "jpm paired: p = 8.75e-5");
	is_near(v.ci_low_pct, 2.09097761105, 1e-8, "jpm paired: Fieller low 2.091 %");
	is_near(v.ci_high_pct, 3.20171967483, 1e-8, "jpm paired: Fieller high 3.202 %");
	is_near(v.mde_pct, 0.811742595036, 1e-6, "jpm paired: MDE 0.812 % (exact; the approximation said 0.806)");
	is_near(v.diff_low, 20.8044243899, 1e-8, "jpm paired: diff CI low");
	is_near(v.diff_high, 32.7955756101, 1e-8, "jpm paired: diff CI high");
}

/* p < alpha exactly when the Fieller interval excludes 0 %, for both tests, over many shifts. */
static void ci_agrees_with_p(void)
{
	int agree_w = 1, agree_p = 1, n_sig = 0, n_not = 0;
	double a[6], b[6];
	for (double shift = -8; shift < 8; shift += 0.173) {
		for (int i = 0; i < 6; i++) {
			/* a fixed, uneven pattern of noise, partly shared between the sides */
			double noise = sin(i * 2.1) * 12, own = cos(i * 3.7 + shift) * 9;
			a[i] = 1000 + noise;
			b[i] = 1000 * (1 + shift / 100) + noise + own;
		}
		struct verdict v;
		verdict_welch_samples(a, 6, b, 6, 0.05, 0.8, &v);
		agree_w &= v.significant == (v.ci_low_pct > 0 || v.ci_high_pct < 0);
		verdict_paired(a, b, 6, 0.05, 0.8, &v);
		agree_p &= v.significant == (v.ci_low_pct > 0 || v.ci_high_pct < 0);
		n_sig += v.significant;
		n_not += !v.significant;
	}
	ok(agree_w, "welch: significant exactly when the % interval excludes 0");
	ok(agree_p, "paired: significant exactly when the % interval excludes 0");
	ok(n_sig > 5 && n_not > 5, "... over shifts both significant and not");
}

static void refusals(void)
{
	struct verdict v;
	static const double one[] = {5}, two[] = {5, 6}, zero[] = {1, -1, 0}, flat[] = {7, 7, 7}, flat2[] = {8, 8, 8};
	is_int(verdict_welch_samples(one, 1, two, 2, 0.05, 0.8, &v), -1, "welch: n = 1 refused");
	ok(v.p == 1 && !v.significant && isnan(v.ci_low_pct), "welch: refused means no evidence, no interval");
	is_int(verdict_paired(two, two, 1, 0.05, 0.8, &v), -1, "paired: one pair refused");
	is_int(verdict_welch_samples(zero, 3, two, 2, 0.05, 0.8, &v), -1, "welch: zero base mean refused");
	is_int(verdict_paired(zero, flat, 3, 0.05, 0.8, &v), -1, "paired: zero base mean refused");
	is_int(verdict_welch_samples(two, 2, two, 2, 0, 0.8, &v), -1, "welch: alpha 0 refused");
	is_int(verdict_welch_samples(two, 2, two, 2, 0.05, 1, &v), -1, "welch: power 1 refused");
	double bad[] = {1, NAN};
	is_int(verdict_welch_samples(bad, 2, two, 2, 0.05, 0.8, &v), -1, "welch: NaN refused");
	is_int(verdict_paired(two, bad, 2, 0.05, 0.8, &v), -1, "paired: NaN refused");
	is_int(verdict_welch_samples(flat, 3, flat, 3, 0.05, 0.8, &v), -1, "welch: constant and equal refused");
	is_int(verdict_paired(flat, flat, 3, 0.05, 0.8, &v), -1, "paired: constant and equal refused");

	/* constant and different (a deterministic count): a real change, with a zero-width interval */
	is_int(verdict_welch_samples(flat, 3, flat2, 3, 0.05, 0.8, &v), 0, "welch: constant, different judged");
	ok(v.p == 0 && v.significant && isinf(v.t) && v.t > 0, "welch: ... p 0, t +inf");
	is_near(v.ci_low_pct, 100.0 / 7, 1e-12, "welch: ... interval low = change");
	is_near(v.ci_high_pct, 100.0 / 7, 1e-12, "welch: ... interval high = change");
	is_near(v.mde_pct, 0, 0, "welch: ... mde 0");
	/* every pair moved by exactly +10: p 0, but the ratio of means still has an interval */
	static const double pa[] = {100, 120, 140}, pb[] = {110, 130, 150};
	is_int(verdict_paired(pa, pb, 3, 0.05, 0.8, &v), 0, "paired: constant difference judged");
	ok(v.p == 0 && v.significant, "paired: ... p 0");
	ok(v.ci_low_pct < v.change_pct && v.ci_high_pct > v.change_pct, "paired: ... interval around the change");
	is_near(v.diff_low, 10, 1e-12, "paired: ... diff interval is the point 10");
}

static void corrections(void)
{
	/* R: p.adjust(c(0.01, 0.04, 0.03, 0.005), "holm") = 0.03 0.06 0.06 0.02 (4*0.005, 3*0.01,
	 * 2*0.03, max(1*0.04, 0.06)); "BH" = 0.02 0.04 0.04 0.02 (4/4*0.04, min(4/3*0.03, 0.04),
	 * 4/2*0.01, min(4*0.005, 0.02)). The NaN cell is not counted. */
	double p[] = {0.01, 0.04, 0.03, 0.005, NAN}, adj[5];
	static const double holm[] = {0.03, 0.06, 0.06, 0.02}, bh[] = {0.02, 0.04, 0.04, 0.02};
	verdict_holm(p, 5, adj);
	int same = 1;
	for (int i = 0; i < 4; i++)
		same &= fabs(adj[i] - holm[i]) < 1e-15;
	ok(same, "holm: 0.03 0.06 0.06 0.02");
	ok(isnan(adj[4]), "holm: NaN stays NaN and is not counted");
	verdict_bh(p, 5, adj);
	same = 1;
	for (int i = 0; i < 4; i++)
		same &= fabs(adj[i] - bh[i]) < 1e-15;
	ok(same, "bh: 0.02 0.04 0.04 0.02");
	ok(isnan(adj[4]), "bh: NaN stays NaN");
	/* capped at 1; BH's step-up carries the largest down: {0.5, 0.6} -> holm {1, 1}, bh {0.6, 0.6} */
	double q[] = {0.5, 0.6};
	verdict_holm(q, 2, adj);
	ok(adj[0] == 1 && adj[1] == 1, "holm: capped at 1 and monotone");
	verdict_bh(q, 2, adj);
	ok(adj[0] == 0.6 && adj[1] == 0.6, "bh: 0.6 0.6");
	/* in place, and ties keep their order-free values */
	double r[] = {0.02, 0.02, 0.9};
	verdict_holm(r, 3, r);
	ok(r[0] == 0.06 && r[1] == 0.06 && r[2] == 0.9, "holm in place with ties: 0.06 0.06 0.9");
	double one_p[] = {0.03};
	verdict_bh(one_p, 1, one_p);
	is_near(one_p[0], 0.03, 0, "bh: a single p is unchanged");
	verdict_holm(NULL, 0, NULL); /* must not touch either pointer */
	double none_p[] = {0.5}, none_adj[] = {-7};
	verdict_holm(none_p, 0, none_adj);
	ok(none_p[0] == 0.5 && none_adj[0] == -7, "holm over no cells writes nothing");
	verdict_bh(none_p, 0, none_adj);
	ok(none_p[0] == 0.5 && none_adj[0] == -7, "bh over no cells writes nothing");
	/* a larger family: BH never exceeds Holm, and neither goes below the raw p */
	double big[40], h[40], b[40];
	for (int i = 0; i < 40; i++)
		big[i] = fmod(0.0013 * (i * 37 % 41) * (i % 3 + 1), 1);
	verdict_holm(big, 40, h);
	verdict_bh(big, 40, b);
	int order = 1;
	for (int i = 0; i < 40; i++)
		order &= b[i] <= h[i] + 1e-15 && b[i] >= big[i] && h[i] <= 1;
	ok(order, "raw <= bh <= holm <= 1 over 40 cells");
}

static void precision(void)
{
	/* mpmath: t(0.975, 5) * s / sqrt(6) / mean * 100 for jpm_a = 1.54309871773 % */
	is_near(verdict_halfwidth_pct(jpm_a, 6, 0.05), 1.54309871773, 1e-9, "halfwidth of six rounds: 1.543 %");
	double reached;
	is_int(verdict_precision_reached(jpm_a, 6, 2, 1, &reached), 1, "precision 2 % reached");
	is_near(reached, 1.54309871773, 1e-9, "... reports 1.543 %");
	is_int(verdict_precision_reached(jpm_a, 6, 1.5, 1, NULL), 0, "precision 1.5 % not reached");
	static const double same2[] = {100, 100}, same3[] = {100, 100, 100};
	is_int(verdict_precision_reached(same2, 2, 1, 1, &reached), 0, "two equal values are not enough");
	is_near(reached, 0, 0, "... although their half-width is 0");
	is_int(verdict_precision_reached(same3, 3, 1, 1, NULL), 1, "three equal values are");
	ok(isinf(verdict_halfwidth_pct(same2, 1, 0.05)), "one value: infinite half-width");
	static const double zero_mean[] = {-1, 1, 0};
	ok(isinf(verdict_halfwidth_pct(zero_mean, 3, 0.05)), "zero mean: infinite half-width");
	/* a CI half-width by hand: {98, 100, 102}, s = 2, t(0.975, 2) = 4.302653, 4.302653 * 2 / sqrt(3) = 4.96828 */
	static const double three[] = {98, 100, 102};
	is_near(verdict_halfwidth_pct(three, 3, 0.05), 4.968275, 1e-6, "halfwidth {98,100,102} = 4.968 %");
}

static void groups(void)
{
	struct verdict_samples s;
	static const double r1[] = {100, 102, 104}, r2[] = {110}, r3[] = {90, 94};
	struct verdict_run runs[] = {{r1, 3}, {NULL, 0}, {r2, 1}, {r3, 2}};
	verdict_group_samples(runs, 4, &s);
	is_int(s.source, VERDICT_SRC_RUNS, "group: three runs with values are the replicates");
	is_int(s.n, 3, "group: one sample per run with values");
	is_int(s.nruns, 3, "group: three runs counted");
	ok(s.n == 3 && s.v[0] == 102 && s.v[1] == 110 && s.v[2] == 92, "group: each sample is that run's mean");
	is_str(verdict_source_name(s.source), "runs", "group: named runs");
	verdict_samples_free(&s);
	ok(s.v == NULL && s.n == 0, "group: freed");

	struct verdict_run single[] = {{NULL, 0}, {r1, 3}};
	verdict_group_samples(single, 2, &s);
	is_int(s.source, VERDICT_SRC_REPEATS, "group: one run with values falls back to its repeats");
	ok(s.n == 3 && s.v[0] == 100 && s.v[2] == 104, "group: ... the repeats themselves");
	is_str(verdict_source_name(s.source), "repeats (one run)", "group: named as a caution");
	verdict_samples_free(&s);

	verdict_group_samples(single, 1, &s);
	is_int(s.source, VERDICT_SRC_NONE, "group: no values at all");
	is_int(s.n, 0, "group: ... no samples");
	verdict_samples_free(&s);
	/* more runs than the longest run has repeats: the buffer must hold the runs */
	struct verdict_run many[5] = {{r2, 1}, {r2, 1}, {r2, 1}, {r3, 2}, {r2, 1}};
	verdict_group_samples(many, 5, &s);
	ok(s.n == 5 && s.v[3] == 92 && s.v[4] == 110, "group: five one-repeat runs give five samples");
	verdict_samples_free(&s);
}

int main(void)
{
	tap_case(welch_published);
	tap_case(paired_published);
	tap_case(welch_by_hand);
	tap_case(jobs_per_min);
	tap_case(ci_agrees_with_p);
	tap_case(refusals);
	tap_case(corrections);
	tap_case(precision);
	tap_case(groups);
	return done_testing();
}
