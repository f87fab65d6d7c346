/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernels compared on a LAVA lab: jobs written from the project's definition, one boot a job,
 * ordered ABBA on each device, submitted through the lab's REST API, followed until they finish, and
 * each job's database brought home from its log with the job's facts. */
#ifndef REAIM_LAB_LAB_H
#define REAIM_LAB_LAB_H

#include <stddef.h>
#include <stdint.h>

/* ---- the identity (identity.c): lavacli's own file ---- */
struct lab_identity {
	char *name, *uri, *username, *token; /* username may be NULL */
	char *file;                          /* the file it was read from */
};
/* The identity file lavacli reads: $XDG_CONFIG_HOME/lavacli.yaml, else ~/.config/lavacli.yaml
 * (allocated). */
char *lab_identity_path(void);
/* Read identity name from the YAML file path: 0, or -1 with the reason, naming the file (and its line
 * for YAML that does not parse), in err. */
int lab_identity_read(const char *path, const char *name, struct lab_identity *id, char *err, size_t errlen);
void lab_identity_free(struct lab_identity *id);

/* ---- the REST client (rest.c): libcurl and json-c ---- */
struct lab_rest;
/* A client of the server id names (its uri's /RPC2 is LAVA's XML-RPC; the REST API is beside it).
 * NULL with err when the uri is not http(s). */
struct lab_rest *lab_rest_open(const struct lab_identity *id, char *err, size_t errlen);
void lab_rest_close(struct lab_rest *r);
/* The server's address (scheme, host, port), for messages and the jobs' URLs. */
const char *lab_rest_server(const struct lab_rest *r);
/* A device of the lab. */
struct lab_device {
	char hostname[128], worker[128], health[32];
	int own_tag;      /* carries a tag named as itself: jobs are pinned to it by that tag */
};
/* The devices of a type (retired ones left out), sorted by hostname: 0 with *devs (free it), -1 with
 * err (an unknown device type is an error naming it). */
int lab_rest_devices(struct lab_rest *r, const char *device_type, struct lab_device **devs, size_t *n, char *err,
		     size_t errlen);
/* Submit a job's YAML: 0 with its id, or -1 with err (the server's message when it refused it). */
int lab_rest_submit(struct lab_rest *r, const char *definition, int64_t *id, char *err, size_t errlen);
/* Where a job is. */
struct lab_job_status {
	char state[32];          /* Submitted, Scheduling, Scheduled, Running, Canceling, Finished */
	char health[32];         /* Unknown, Complete, Incomplete, Canceled */
	char device[128];        /* the device it runs on, "" before it is scheduled */
	char failure[512];       /* LAVA's failure comment, "" when none */
};
int lab_rest_job(struct lab_rest *r, int64_t id, struct lab_job_status *st, char *err, size_t errlen);
/* A finished job's log (LAVA's YAML log) written into path; 0 or -1 with err. */
int lab_rest_log(struct lab_rest *r, int64_t id, const char *path, char *err, size_t errlen);

/* ---- the order of jobs (device_order.c) ---- */
/* One planned job: the device it is pinned to, the kernel it boots, its place in the device's own
 * order (from 0). */
struct lab_slot {
	size_t device, kernel, turn;
};
/* Every device runs boots / ndevices jobs, each kernel equally often, in the ABBA order of reaim vm
 * (AB BA BA AB ...) on that device; the slots go round the devices turn by turn. -1 with err when
 * boots is not a multiple of nkernels * ndevices. out: room for boots. */
int lab_order(size_t nkernels, size_t ndevices, size_t boots, struct lab_slot *out, char *err, size_t errlen);

/* ---- a job (job.c) ---- */
/* One --kernel NAME=URL-or-PATH[:CMDLINE]: a path becomes a file:// URL of its absolute path. */
struct lab_kernel {
	char *name, *url, *cmdline;
};
/* Parse one --kernel word; 0 or -1 with err naming it. */
int lab_kernel_parse(const char *spec, struct lab_kernel *k, char *err, size_t errlen);
void lab_kernel_free(struct lab_kernel *k);
/* A URL from a path or URL (a path must be a readable file): allocated, or NULL with err. */
char *lab_url_of(const char *what, char *err, size_t errlen);
/* What every job of a comparison shares. */
struct lab_job_spec {
	const char *device_type;
	const char *root_url;        /* the guest's initramfs: reaim at /usr/local/bin, contrib at /opt/reaim */
	const char *prompt;          /* the root's shell prompt */
	char *const *run_words;      /* the guest's reaim run words (each checked by lab_word_check) */
	size_t nrun_words;
	char *const *qemu_options;   /* the job context's extra_options */
	size_t nqemu_options;
	long timeout_min;            /* the job's timeout, at least 5 */
};
/* The YAML of one job: kernel k booted on the device with tag device (NULL: any of the type), its run
 * labelled with k's name (allocated). */
char *lab_job_yaml(const struct lab_job_spec *s, const struct lab_kernel *k, const char *device, size_t boot,
		   size_t boots);
/* The seconds after which a job's run is stopped (reaim.sh -T) so its database is printed before LAVA's
 * own timeout ends the job. */
long lab_run_limit_s(long timeout_min);
/* 0 when a word can be written into a job as it is (printable, no quotes, backslashes or spaces);
 * -1 with err naming it. */
int lab_word_check(const char *what, const char *word, char *err, size_t errlen);
/* 0 when a text can go into a job inside quotes (printable ASCII, no quote, no backslash); -1 with err. */
int lab_quoted_check(const char *what, const char *text, char *err, size_t errlen);

/* ---- the ledger (ledger.c): the jobs a comparison submitted, so a second call resumes ---- */
enum lab_job_state { LAB_PLANNED, LAB_SUBMITTED, LAB_MERGED, LAB_FAILED };
struct lab_entry {
	enum lab_job_state state;
	int attempt;             /* 1, or 2 after an infrastructure failure */
	int64_t job;             /* 0 while planned */
	char device[128];        /* where it ran, once known */
	char note[256];          /* why it failed */
};
struct lab_ledger {
	char *path, *plan;       /* the plan's fingerprint */
	struct lab_entry *e;
	size_t n;
};
/* Open the ledger at path for a plan of n slots: a new file is made; an existing one must be of the same
 * plan, and its entries are read back (the last line of a slot wins). 0, or -1 with err naming the file
 * and line. */
int lab_ledger_open(struct lab_ledger *l, const char *path, const char *plan, size_t n, char *err, size_t errlen);
/* Record slot's entry (appended, flushed to disk before it returns); 0 or -1 with err. */
int lab_ledger_put(struct lab_ledger *l, size_t slot, const struct lab_entry *e, char *err, size_t errlen);
void lab_ledger_free(struct lab_ledger *l);
const char *lab_state_name(enum lab_job_state s);

/* ---- the whole of `reaim lab` (lab.c) ---- */
struct lab_request {
	const struct lab_identity *id;
	struct lab_kernel *kernels;
	size_t nkernels, boots;
	struct lab_job_spec spec;
	const char *db, *ledger;
	double poll_s;
	int (*cancelled)(void *);
	void *cancel_arg;
};
struct lab_summary {
	size_t jobs, merged, failed, resubmitted, submitted, devices;
	int interrupted;
	double wall_s;
};
/* Run the comparison: submit what the ledger has not, follow every job, merge each finished job's
 * database with its facts (lab.job, lab.job_url, lab.device, lab.worker). 0 when every job was merged,
 * 1 when some failed, -1 with err when it could not be done at all (the server, the identity, the
 * plan), -2 with err for words the lab refused (an unknown device type, a ledger of another plan). */
int lab_run(const struct lab_request *rq, struct lab_summary *sum, char *err, size_t errlen);

#endif
