/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `reaim lab`: kernels compared on a LAVA lab, one boot a job, ABBA on each device, every job's
 * database brought home, then compared with the devices as blocks. The words only; lab/ does it. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "engine/engine.h"
#include "lab/lab.h"
#include "store/store.h"
#include "util/util.h"
#include "vm/vm.h"

struct lab_args {
	const char *identity, *device_type, *root, *prompt, *ledger, *db;
	struct cli_list kernels, qemu_options, run;
	long long boots, timeout;
	double poll;
	int no_compare;
};

const struct cli_opt cmd_lab_opts[] = {
	CLI_OPT_STRING(0, "identity", "NAME", struct lab_args, identity,
		       "the lab: an identity of lavacli's file ($XDG_CONFIG_HOME/lavacli.yaml, else "
		       "~/.config/lavacli.yaml), its uri and token (never a token on the command line)",
		       .def = "default"),
	CLI_OPT_STRING(0, "device-type", "TYPE", struct lab_args, device_type,
		       "the lab's device type; every device of it that is not retired runs jobs, each pinned by a tag "
		       "of its own name", .flags = CLI_REQUIRED),
	CLI_OPT_LIST(0, "kernel", "NAME=URL-or-PATH[:CMDLINE]", struct lab_args, kernels,
		     "a kernel to boot: its name (the label of its runs), its image (a URL the lab's workers fetch, or a "
		     "path, given as a file:// URL) and what its command line adds; give two or more",
		     .flags = CLI_REQUIRED, .complete = CLI_COMPLETE_FILE),
	CLI_OPT_STRING(0, "root", "URL-or-PATH", struct lab_args, root,
		       "the guests' initramfs: reaim at /usr/local/bin, the project's contrib/ at /opt/reaim, a shell "
		       "on the console (contrib/lava/lab-root.sh makes one)",
		       .flags = CLI_REQUIRED, .complete = CLI_COMPLETE_FILE),
	CLI_OPT_STRING(0, "prompt", "TEXT", struct lab_args, prompt, "the root's shell prompt, which LAVA waits for",
		       .def = "root@reaim:~#"),
	CLI_OPT_INT(0, "boots", "N", struct lab_args, boots, 0, 10000, NULL,
		    "jobs in all, a multiple of kernels times devices (default: each kernel twice on each device)"),
	CLI_OPT_LIST(0, "qemu-option", "WORDS", struct lab_args, qemu_options,
		     "a QEMU option of the jobs' context (extra_options), e.g. '-smp 2'"),
	CLI_OPT_INT(0, "timeout", "MIN", struct lab_args, timeout, 5, 10000, "30", "minutes a job may take"),
	CLI_OPT_DOUBLE(0, "poll", "S", struct lab_args, poll, 0.2, 3600, "5", "seconds between looks at the jobs"),
	CLI_OPT_STRING(0, "ledger", "FILE", struct lab_args, ledger,
		       "the jobs submitted, kept so that a second call resumes (default: the database's path and "
		       "\".lab\")", .complete = CLI_COMPLETE_FILE),
	CLI_OPT_FLAG(0, "no-compare", struct lab_args, no_compare, "do not end with reaim compare"),
	CMD_OPT_DB(struct lab_args),
	CLI_OPT_OPERANDS("-- RUN-WORDS", struct lab_args, run, 0, -1,
			 "the words of the `reaim run` each job runs, after -- (its --label is the kernel's NAME)"),
	CLI_OPT_END,
};

static int lab_cancelled(void *unused)
{
	(void)unused;
	engine_poll_signals();
	return engine_interrupted();
}

/* The words checked and turned into the request; OUT_OK, or OUT_USAGE after saying why. */
static enum outcome prepare(const struct lab_args *a, struct lab_request *rq, char **root_url)
{
	char err[1024];
	if (a->kernels.count < 2) {
		log_error("give two or more --kernel: a comparison needs two sides");
		return OUT_USAGE;
	}
	for (size_t i = 0; i < a->kernels.count; i++) {
		if (lab_kernel_parse(a->kernels.v[i], &rq->kernels[i], err, sizeof(err)) < 0) {
			log_error("%s", err);
			return OUT_USAGE;
		}
		for (size_t j = 0; j < i; j++)
			if (strcmp(rq->kernels[j].name, rq->kernels[i].name) == 0) {
				log_error("--kernel %s: the name %s is given twice", a->kernels.v[i], rq->kernels[i].name);
				return OUT_USAGE;
			}
	}
	int bad = lab_word_check("--device-type", a->device_type, err, sizeof(err)) < 0 ||
		  lab_quoted_check("--prompt", a->prompt, err, sizeof(err)) < 0 ||
		  vm_run_args_check((char *const *)a->run.v, a->run.count, err, sizeof(err)) < 0 ||
		  !(*root_url = lab_url_of(a->root, err, sizeof(err)));
	for (size_t i = 0; !bad && i < a->run.count; i++)
		bad = lab_word_check("a run word", a->run.v[i], err, sizeof(err)) < 0;
	for (size_t i = 0; !bad && i < a->qemu_options.count; i++)
		bad = lab_quoted_check("--qemu-option", a->qemu_options.v[i], err, sizeof(err)) < 0;
	if (bad) {
		log_error("%s", err);
		return OUT_USAGE;
	}
	rq->spec = (struct lab_job_spec){.device_type = a->device_type, .root_url = *root_url, .prompt = a->prompt,
					 .run_words = (char *const *)a->run.v, .nrun_words = a->run.count,
					 .qemu_options = (char *const *)a->qemu_options.v,
					 .nqemu_options = a->qemu_options.count, .timeout_min = a->timeout};
	return OUT_OK;
}

/* The end: reaim compare of the kernels in the database. */
static enum outcome compare_them(const struct command *self, const struct lab_args *a, const char *db)
{
	const struct command *cmp = cmd_find(self->all, "compare");
	char **argv = xcalloc(a->kernels.count + 4, sizeof(*argv));
	int n = 0;
	argv[n++] = (char *)"compare";
	for (size_t i = 0; i < a->kernels.count; i++)
		argv[n++] = xasprintf("%.*s", (int)strcspn(a->kernels.v[i], "="), a->kernels.v[i]);
	argv[n++] = (char *)"--db";
	argv[n++] = (char *)db;
	printf("\n$ reaim compare");
	for (int i = 1; i < n; i++)
		printf(" %s", argv[i]);
	printf("\n");
	fflush(stdout);
	enum outcome out = cmp->fn(cmp, n, argv);
	for (size_t i = 0; i < a->kernels.count; i++)
		free(argv[i + 1]);
	free(argv);
	return out;
}

/* The comparison on the lab; its outcome, and in *merged how many jobs' runs the database has. */
static enum outcome run_lab(const struct lab_args *a, const struct lab_request *words, const char *db, char *ledger,
			    size_t *merged)
{
	struct lab_request r = *words, *rq = &r;
	char err[1024];
	struct lab_identity id;
	char *path = lab_identity_path();
	int rc = lab_identity_read(path, a->identity, &id, err, sizeof(err));
	free(path);
	if (rc < 0) {
		log_error("%s", err);
		return OUT_USAGE;
	}
	rq->id = &id;
	rq->db = db;
	rq->ledger = ledger;
	rq->boots = (size_t)a->boots;
	rq->poll_s = a->poll;
	rq->cancelled = lab_cancelled;
	struct lab_summary sum;
	rc = lab_run(rq, &sum, err, sizeof(err));
	lab_identity_free(&id);
	*merged = rc >= 0 && !sum.interrupted ? sum.merged : 0;
	if (rc < 0) {
		log_error("%s", err);
		return sum.interrupted ? OUT_INTERRUPTED : rc == -2 ? OUT_USAGE : OUT_FAILED;
	}
	printf("reaim lab: %zu of %zu jobs merged into %s, on %zu devices, in %.0f s", sum.merged, sum.jobs, db,
	       sum.devices, sum.wall_s);
	if (sum.resubmitted)
		printf(", %zu resubmitted after an infrastructure failure", sum.resubmitted);
	if (sum.failed)
		printf(", %zu failed", sum.failed);
	if (sum.interrupted)
		printf("; stopped: the same command again resumes (the jobs out are in %s)", ledger);
	printf("\n");
	return sum.interrupted ? OUT_INTERRUPTED : rc ? OUT_FAILED : OUT_OK;
}

enum outcome cmd_lab(const struct command *self, int argc, char **argv)
{
	struct lab_args a = {0};
	enum outcome out = OUT_OK;
	if (cmd_parse(self, argc, argv, &a, &out))
		return out;
	struct lab_request rq = {.nkernels = a.kernels.count};
	rq.kernels = xcalloc(a.kernels.count + 1, sizeof(*rq.kernels));
	char *root_url = NULL, *ledger = NULL;
	size_t merged = 0;
	const char *db = store_db_path(a.db);
	out = prepare(&a, &rq, &root_url);
	if (out == OUT_OK && engine_init() < 0) {
		log_error("cannot set up the stop signals: %s", strerror(errno));
		out = OUT_FAILED;
	}
	if (out == OUT_OK) {
		ledger = a.ledger ? xstrdup(a.ledger) : xasprintf("%s.lab", db);
		out = run_lab(&a, &rq, db, ledger, &merged);
	}
	/* what came home is compared even when a job failed; the failure stays the outcome */
	if ((out == OUT_OK || out == OUT_FAILED) && merged && !a.no_compare) {
		enum outcome cmp = compare_them(self, &a, db);
		out = out == OUT_OK ? cmp : out;
	}
	for (size_t i = 0; i < a.kernels.count; i++)
		lab_kernel_free(&rq.kernels[i]);
	free(rq.kernels);
	free(root_url);
	free(ledger);
	cli_free(self->opts, &a);
	return out;
}
