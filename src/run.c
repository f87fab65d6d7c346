/* `reaim run`: resolve the plan, check it can run, open the store, then hand each workload
 * to the runner, which stores each point as it completes and prints the classic table. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "config/cfg.h"
#include "engine/engine.h"
#include "report/progress.h"
#include "report/report.h"
#include "runner.h"
#include "store/store.h"
#include "util/env.h"
#include "util/util.h"

struct run_args {
	const char *suite, *db;
	int dry_run, verbose;
	struct overrides ov;
};

enum { FLAG_DB = 1000, FLAG_DRY_RUN };

/* getopt tables built from the option table, so a new option is one row there. */
static int parse_run_args(int argc, char **argv, struct run_args *a)
{
	struct option *longs = xcalloc(option_count + 8, sizeof(*longs));
	char **names = xcalloc(option_count, sizeof(char *));
	struct strbuf shorts = {0};
	strbuf_add(&shorts, "+s:qvh", 6);
	size_t k = 0;
	for (size_t i = 0; i < option_count; i++) {
		names[i] = xstrdup(option_table[i].key);
		for (char *c = names[i]; *c; c++)
			*c = *c == '_' ? '-' : *c;
		longs[k++] = (struct option){names[i], required_argument, NULL, (int)(2000 + i)};
		if (option_table[i].short_flag)
			strbuf_addf(&shorts, "%c:", option_table[i].short_flag);
	}
	longs[k++] = (struct option){"suite", required_argument, NULL, 's'};
	longs[k++] = (struct option){"db", required_argument, NULL, FLAG_DB};
	longs[k++] = (struct option){"dry-run", no_argument, NULL, FLAG_DRY_RUN};
	longs[k++] = (struct option){"quiet", no_argument, NULL, 'q'};
	longs[k++] = (struct option){"verbose", no_argument, NULL, 'v'};
	longs[k++] = (struct option){"help", no_argument, NULL, 'h'};

	run_opts_defaults(&a->ov.opts);
	int rc = 0, c;
	optind = 1;
	while (rc == 0 && (c = getopt_long(argc, argv, shorts.buf, longs, NULL)) != -1) {
		const struct option_def *def = c >= 2000 ? &option_table[c - 2000] : option_find_short((char)c);
		const char *why;
		if (def) {
			if (!a->ov.given[def - option_table])
				option_clear(&a->ov.opts, def); /* flags replace the suite's list */
			if (option_set(&a->ov.opts, def, optarg, &why) < 0) {
				char range[160], *shown = text_escape(optarg);
				option_range(def, range, sizeof(range));
				log_error("--%s %s: %s%s%s%s", names[def - option_table], shown, why,
					  range[0] ? " (allowed: " : "", range, range[0] ? ")" : "");
				free(shown);
				rc = -1;
			}
			a->ov.given[def - option_table] = 1;
			continue;
		}
		switch (c) {
		case 's': a->suite = optarg; break;
		case FLAG_DB: a->db = optarg; break;
		case FLAG_DRY_RUN: a->dry_run = 1; break;
		case 'q': log_set_level(0); break;
		case 'v': a->verbose = 1; log_set_level(2); break;
		case 'h': cli_usage(stdout); rc = 1; break;
		default: rc = -1; break;
		}
	}
	if (rc == 0 && optind < argc) {
		log_error("unexpected argument '%s'", argv[optind]);
		rc = -1;
	}
	for (size_t i = 0; i < option_count; i++)
		free(names[i]);
	free(names);
	free(longs);
	strbuf_free(&shorts);
	return rc;
}

static void print_plan(const struct plan *p)
{
	printf("Suite %s%s%s\n", p->suite_name, p->suite_path ? " from " : "", p->suite_path ? p->suite_path : "");
	for (size_t w = 0; w < p->nwl; w++) {
		const struct workload *wl = &p->wl[w];
		const struct run_opts *o = &wl->opts;
		size_t per_task = plan_jobs_per_task(&wl->wf, o->jobs_per_task);
		printf("\nWorkload %s: workfile %s (%zu tests)\n", wl->name, wl->wf.path, wl->wf.count);
		printf("  jobs per task P = %zu (nominal %lld), repeat %lld, mode %s", per_task, o->jobs_per_task,
		       o->repeat, mode_names[o->mode]);
		if (o->mode == MODE_CROSSOVER || o->mode == MODE_QUICK)
			printf(" (until Jobs/Min per task < %g, at most %lld tasks)", o->threshold, o->max_tasks);
		printf("\n  osync %s, sync_mode %s, seed %lld, label %s\n", osync_names[o->osync],
		       sync_mode_names[o->sync_mode], o->seed, o->label);
		printf("  dirs:");
		for (size_t d = 0; d < o->dirs.count; d++)
			printf(" %s", o->dirs.v[d]);
		printf("\n  FILESIZE %lldK POOLSIZE %lldK\n", o->filesize_kib, o->poolsize_kib);
		printf("  %-8s %-12s %-14s %s\n", "Tasks", "File KiB", "Jobs", "Disk space");
		for (size_t i = 0; i < o->tasks.count; i++) {
			int n = o->tasks.n[i];
			long long kib = plan_file_kib(o, n);
			/* each task holds at most one file of n KiB at a time, plus one source per dir */
			long long space = kib * (n + (long long)o->dirs.count);
			printf("  %-8d %-12lld %-14zu %.1f MiB\n", n, kib, per_task * (size_t)n, (double)space / 1024);
		}
	}
}

static char *make_uuid(void)
{
	char *u = read_text_file("/proc/sys/kernel/random/uuid", 64);
	if (u) {
		u[strcspn(u, "\n")] = '\0';
		return u;
	}
	return xasprintf("%lx-%lx", (unsigned long)getpid(), (unsigned long)clock_now_ns());
}

static char *join_args(int argc, char **argv)
{
	struct strbuf sb = {0};
	strbuf_add(&sb, "reaim", 5);
	for (int i = 1; i < argc; i++)
		strbuf_addf(&sb, " %s", argv[i]);
	return sb.buf;
}

static int begin_run(struct runner *rn, const struct plan *p, int argc, char **argv)
{
	char host[256] = "";
	gethostname(host, sizeof(host) - 1);
	int dead;
	if (store_reap_dead_runs(rn->st, host, &dead) < 0)
		return -1;
	if (dead)
		log_warn("marked %d earlier run%s whose reaim process died as interrupted", dead, dead > 1 ? "s" : "");
	for (size_t w = 0; w < p->nwl; w++)
		engine_scratch_sweep(&p->wl[w].opts.dirs);
	char *uuid = make_uuid(), *cmdline = join_args(argc, argv);
	const struct run_opts *o0 = &p->wl[0].opts;
	struct store_run r = {
		.uuid = uuid,
		.label = o0->label,
		.suite_name = p->suite_name,
		.suite_text = p->suite_text ? p->suite_text : "",
		.command_line = cmdline,
		.version = PACKAGE_VERSION,
		.mode = mode_names[o0->mode],
		.seed = o0->seed,
		.pid = getpid(),
		.host = host,
	};
	struct env_list env;
	env_collect(&env, o0->dirs.v, o0->dirs.count);
	int rc = store_run_begin(rn->st, &r, &env, &rn->run_id);
	env_free(&env);
	free(uuid);
	free(cmdline);
	return rc;
}

/* Points a run will measure, for the ETA (growing modes may add more). */
static size_t planned_points(const struct plan *p)
{
	size_t n = 0;
	for (size_t w = 0; w < p->nwl; w++) {
		const struct run_opts *o = &p->wl[w].opts;
		n += o->tasks.count * (size_t)o->repeat * (o->osync == OSYNC_BOTH ? 2 : 1);
	}
	return n;
}

static enum outcome execute(const struct plan *p, const struct run_args *a, int argc, char **argv)
{
	char err[512];
	struct runner rn = {.verbose = a->verbose};
	const char *db = cli_db_path(a->db);
	if (!a->db && !getenv("REAIM_DB") && mkdir("results", 0755) < 0 && errno != EEXIST) {
		log_error("cannot create the results directory: %s", strerror(errno));
		return OUT_USAGE;
	}
	if (store_open(db, &rn.st, err, sizeof(err)) < 0) {
		log_error("%s", err);
		return OUT_USAGE;
	}
	if (begin_run(&rn, p, argc, argv) < 0) {
		log_error("%s", store_error(rn.st));
		store_close(rn.st);
		return OUT_USAGE;
	}
	log_info("run %lld stored in %s", (long long)rn.run_id, db);
	progress_start(log_level() > 0, planned_points(p));
	for (size_t w = 0; w < p->nwl && !runner_stop_now(&rn); w++) {
		const struct workload *wl = &p->wl[w];
		struct engine_scratch scratch;
		int64_t wl_id;
		if (wl->opts.mode == MODE_SINGLE) {
			if (engine_scratch_create(&wl->opts.dirs, &scratch, rn.first_failure,
						  sizeof(rn.first_failure)) < 0) {
				log_error("%s", rn.first_failure);
				rn.failed = rn.fatal = 1;
				break;
			}
			runner_single(&rn, wl, &scratch);
			engine_scratch_destroy(&scratch);
			continue;
		}
		if (runner_store_workload(&rn, wl, &wl_id) < 0) {
			log_error("%s", store_error(rn.st));
			rn.failed = rn.fatal = 1;
			break;
		}
		if (engine_scratch_create(&wl->opts.dirs, &scratch, rn.first_failure,
					  sizeof(rn.first_failure)) < 0) {
			log_error("%s", rn.first_failure);
			rn.failed = rn.fatal = 1;
			break;
		}
		static const int both[] = {1, 0};
		int nosync = wl->opts.osync == OSYNC_BOTH ? 2 : 1;
		for (int k = 0; k < nosync && !runner_stop_now(&rn); k++)
			runner_block(&rn, wl, wl_id, nosync == 2 ? both[k] : wl->opts.osync, &scratch);
		engine_scratch_destroy(&scratch);
	}
	progress_stop();
	int sig = engine_interrupted();
	const char *status = sig ? "interrupted" : rn.failed ? "failed" : "complete";
	char reason[400] = "";
	if (sig)
		snprintf(reason, sizeof(reason), "stopped by signal %d (%s)", sig, strsignal(sig));
	else if (rn.failed)
		snprintf(reason, sizeof(reason), "%s", rn.first_failure);
	if (store_run_finish(rn.st, rn.run_id, status, reason[0] ? reason : NULL) < 0) {
		log_error("%s", store_error(rn.st));
		rn.failed = 1;
	}
	store_close(rn.st);
	if (sig) {
		log_error("interrupted; finished points are kept in run %lld", (long long)rn.run_id);
		return OUT_INTERRUPTED;
	}
	return rn.failed ? OUT_FAILED : OUT_OK;
}

static enum outcome run_command(int argc, char **argv, int single)
{
	struct run_args a = {0};
	int prc = parse_run_args(argc, argv, &a);
	if (single) {
		const struct option_def *mode = option_find("mode");
		a.ov.opts.mode = MODE_SINGLE;
		a.ov.given[mode - option_table] = 1;
	}
	if (prc != 0) {
		run_opts_free(&a.ov.opts);
		return prc > 0 ? OUT_OK : OUT_USAGE;
	}
	struct plan p;
	struct errlist errs = {0};
	int rc;
	if (a.suite)
		rc = plan_from_suite(a.suite, &a.ov, &p, &errs);
	else if (a.ov.given[option_find("workfile") - option_table])
		rc = plan_from_workfile(a.ov.opts.workfile, &a.ov, &p, &errs);
	else {
		log_error("nothing to run: give a suite (-s quick) or a workfile (-f FILE); see reaim --help");
		run_opts_free(&a.ov.opts);
		return OUT_USAGE;
	}
	enum outcome out = OUT_OK;
	if (rc < 0) {
		errlist_print(&errs);
		out = OUT_USAGE;
	} else if (a.dry_run) {
		print_plan(&p);
	} else if (preflight(&p) < 0) {
		out = OUT_USAGE;
	} else if (engine_init() < 0) {
		log_error("cannot set up signal handling: %s", strerror(errno));
		out = OUT_FAILED;
	} else {
		out = execute(&p, &a, argc, argv);
	}
	errlist_free(&errs);
	plan_free(&p);
	run_opts_free(&a.ov.opts);
	return out;
}

enum outcome cmd_run(int argc, char **argv) { return run_command(argc, argv, 0); }
enum outcome cmd_single(int argc, char **argv) { return run_command(argc, argv, 1); }
