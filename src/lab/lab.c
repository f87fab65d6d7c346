/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A kernel comparison on a LAVA lab: the jobs planned ABBA per device and kept in a ledger, submitted,
 * followed until each finishes, and each finished job's database merged with the job's facts. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lab/lab.h"
#include "store/store.h"
#include "util/env.h"
#include "util/util.h"

struct lab_state {
	const struct lab_request *rq;
	struct lab_rest *rest;
	struct lab_device *devs;
	size_t ndevs;
	struct lab_slot *slots;
	struct lab_ledger ledger;
	struct lab_summary *sum;
	struct store *st;
	char **seen;          /* the last state said of each slot */
	char *work;           /* while a finished job is taken in: a temporary directory for its log */
	size_t boots;         /* --boots, or two a kernel on each device */
};

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The plan's fingerprint: what decides which jobs there are (a ledger resumes only the same plan). */
static void plan_of(const struct lab_state *s, char hex[SHA256_HEX_LEN + 1])
{
	const struct lab_request *rq = s->rq;
	struct sha256 h;
	sha256_init(&h);
	struct strbuf sb = {0};
	strbuf_addf(&sb, "%s\n%s\n%zu\n%s\n", rq->id->uri, rq->spec.device_type, s->boots, rq->spec.root_url);
	for (size_t i = 0; i < rq->nkernels; i++)
		strbuf_addf(&sb, "k %s %s %s\n", rq->kernels[i].name, rq->kernels[i].url, rq->kernels[i].cmdline);
	for (size_t i = 0; i < s->ndevs; i++)
		strbuf_addf(&sb, "d %s\n", s->devs[i].hostname);
	for (size_t i = 0; i < rq->spec.nrun_words; i++)
		strbuf_addf(&sb, "w %s\n", rq->spec.run_words[i]);
	sha256_add(&h, sb.buf, sb.len);
	sha256_hex(&h, hex);
	strbuf_free(&sb);
}

/* The lab's devices of the type, each pinned by a tag of its own name; -2 with err when the lab cannot
 * take the plan (unknown type, no device, a device without its tag). */
static int find_devices(struct lab_state *s, char *err, size_t errlen)
{
	const struct lab_request *rq = s->rq;
	if (lab_rest_devices(s->rest, rq->spec.device_type, &s->devs, &s->ndevs, err, errlen) < 0)
		return strstr(err, "no device type") ? -2 : -1;
	if (s->ndevs == 0) {
		set_err(err, errlen, "%s has no device of type %s that is not retired", lab_rest_server(s->rest),
			rq->spec.device_type);
		return -2;
	}
	for (size_t i = 0; i < s->ndevs; i++)
		if (!s->devs[i].own_tag) {
			set_err(err, errlen, "device %s has no tag of its own name, by which a job is pinned to it: "
				"`lavacli -i %s devices tags add %s %s` (after `lavacli -i %s tags add %s`)",
				s->devs[i].hostname, rq->id->name, s->devs[i].hostname, s->devs[i].hostname, rq->id->name,
				s->devs[i].hostname);
			return -2;
		}
	return 0;
}

/* Submit slot i's job (attempt given); 0, or -1 with err. */
static int submit(struct lab_state *s, size_t i, int attempt, char *err, size_t errlen)
{
	const struct lab_request *rq = s->rq;
	const struct lab_slot *sl = &s->slots[i];
	const struct lab_kernel *k = &rq->kernels[sl->kernel];
	const char *dev = s->devs[sl->device].hostname;
	char *yaml = lab_job_yaml(&rq->spec, k, dev, i + 1, s->boots);
	struct lab_entry e = {.state = LAB_SUBMITTED, .attempt = attempt};
	text_copy(e.device, sizeof(e.device), dev);
	int rc = lab_rest_submit(s->rest, yaml, &e.job, err, errlen);
	free(yaml);
	if (rc == 0)
		rc = lab_ledger_put(&s->ledger, i, &e, err, errlen);
	if (rc == 0) {
		s->sum->submitted++;
		printf("job %" PRId64 ": %s, boot %zu of %zu, pinned to %s%s: submitted\n", e.job, k->name, i + 1, s->boots,
		       dev, attempt > 1 ? " (again)" : "");
		fflush(stdout);
	}
	return rc;
}

/* The facts of a job, stored with its run: where and as what it ran. */
static void job_facts(struct env_list *e, const struct lab_state *s, size_t i, const struct lab_entry *en)
{
	const struct lab_request *rq = s->rq;
	const struct lab_kernel *k = &rq->kernels[s->slots[i].kernel];
	char buf[64];
	memset(e, 0, sizeof(*e));
	env_add(e, "boot.kernel", k->name);
	env_add(e, "boot.image", k->url);
	env_add(e, "boot.cmdline", k->cmdline);
	char hex[SHA256_HEX_LEN + 1];
	env_add(e, "boot.image_sha256",
		strncmp(k->url, "file://", 7) == 0 && sha256_file(k->url + 7, hex) == 0 ? hex : k->url);
	snprintf(buf, sizeof(buf), "%" PRId64, en->job);
	env_add(e, "lab.job", buf);
	char *url = xasprintf("%s/scheduler/job/%" PRId64, lab_rest_server(s->rest), en->job);
	env_add(e, "lab.job_url", url);
	free(url);
	env_add(e, "lab.device", en->device);
	for (size_t d = 0; d < s->ndevs; d++)
		if (strcmp(s->devs[d].hostname, en->device) == 0)
			env_add(e, "lab.worker", s->devs[d].worker);
	env_add(e, "lab.device_type", rq->spec.device_type);
	snprintf(buf, sizeof(buf), "%zu", i + 1);
	env_add(e, "lab.boot", buf);
	snprintf(buf, sizeof(buf), "%d", en->attempt);
	env_add(e, "lab.attempt", buf);
}

/* The database a finished job's log carries, given the job's facts and merged; 0, or -1 with err (and
 * nothing merged). */
static int bring_home(struct lab_state *s, size_t i, const char *log, const struct lab_entry *en, char *err,
		      size_t errlen)
{
	const struct lab_request *rq = s->rq;
	char *dir = xasprintf("%s/db-%zu", s->work, i), why[1024];
	struct lava_extract x = {.log = log, .dir = dir, .fd = -1};
	size_t copied, skipped;
	int rc = -1;
	if (mkdir(dir, 0700) != 0)
		set_err(err, errlen, "cannot make %s: %s", dir, strerror(errno));
	else if ((x.fd = open_input(log, why, sizeof(why))) < 0)
		set_err(err, errlen, "its log %s: %s", log, why);
	else if (lava_log_extract(&x, why, sizeof(why)) < 0) /* it closes the log */
		set_err(err, errlen, "its log: %s", why);
	else if (x.n != 1)
		set_err(err, errlen, "its log carries %zu databases, not one (did reaim.sh run? was the log cut?)", x.n);
	else {
		struct env_list facts;
		job_facts(&facts, s, i, en);
		const struct store_gift g = {
			.name = rq->kernels[s->slots[i].kernel].name, .whose = "its database", .facts = &facts};
		rc = store_give_facts(x.paths[0], &g, err, errlen);
		env_free(&facts);
		if (rc == 0 && !s->st && store_open(rq->db, &s->st, err, errlen) < 0)
			rc = -1;
		if (rc == 0 && store_merge(s->st, x.paths[0], &copied, &skipped) < 0) {
			set_err(err, errlen, "%s", store_error(s->st));
			rc = -1;
		}
	}
	for (size_t j = 0; j < x.n; j++)
		free(x.paths[j]);
	free(x.paths);
	remove_tree(dir);
	free(dir);
	return rc;
}

/* LAVA's error type of a job that ended Incomplete, from its log's results ("Infrastructure", "Job",
 * "Test", "Bug", "Configuration"), into out; "" when the log names none. */
static void error_type(const char *log, char *out, size_t len)
{
	char *text = read_text_file(log, 64u << 20), *p;
	out[0] = '\0';
	const char *key = "error_type";
	for (p = text ? strstr(text, key) : NULL; p; p = strstr(p + 1, key)) {
		const char *v = p + strlen(key);
		v += strspn(v, "\"': ");
		size_t n = strspn(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz");
		snprintf(out, len, "%.*s", (int)n, v);
	}
	free(text);
}

/* A finished job: merged, resubmitted once after an infrastructure failure, or failed. */
static int finished(struct lab_state *s, size_t i, const struct lab_job_status *js, char *err, size_t errlen)
{
	struct lab_entry e = s->ledger.e[i];
	const struct lab_kernel *k = &s->rq->kernels[s->slots[i].kernel];
	const char *tmp = getenv("TMPDIR");
	s->work = xasprintf("%s/reaim-lab.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(s->work)) {
		set_err(err, errlen, "cannot make a directory %s: %s", s->work, strerror(errno));
		free(s->work);
		return -1;
	}
	char *log = xasprintf("%s/job-%" PRId64 ".yaml", s->work, e.job), why[1024] = "", etype[32] = "";
	if (js->device[0])
		text_copy(e.device, sizeof(e.device), js->device);
	int have_log = lab_rest_log(s->rest, e.job, log, why, sizeof(why)) == 0;
	if (strcmp(js->health, "Complete") == 0 && have_log && bring_home(s, i, log, &e, why, sizeof(why)) == 0) {
		e.state = LAB_MERGED;
		s->sum->merged++;
		printf("job %" PRId64 ": %s on %s: complete, its run merged into %s\n", e.job, k->name, e.device, s->rq->db);
	} else {
		if (have_log)
			error_type(log, etype, sizeof(etype));
		if (strcmp(etype, js->health) == 0)
			etype[0] = '\0'; /* "Canceled (Canceled)" says it once */
		if (strcmp(js->health, "Complete") != 0)
			snprintf(why, sizeof(why), "%s%s%s%s%s", js->health, etype[0] ? " (" : "", etype, etype[0] ? ")" : "",
				 js->failure[0] ? ": " : "");
		if (strcmp(js->health, "Complete") != 0 && js->failure[0])
			text_copy(why + strlen(why), sizeof(why) - strlen(why), js->failure);
		e.state = LAB_FAILED;
		text_copy(e.note, sizeof(e.note), why);
		log_warn("job %" PRId64 " (%s on %s): %s", e.job, k->name, e.device[0] ? e.device : "no device", why);
	}
	free(log);
	remove_tree(s->work);
	free(s->work);
	s->work = NULL;
	fflush(stdout);
	if (e.state == LAB_FAILED && strcmp(etype, "Infrastructure") == 0 && e.attempt == 1) {
		s->sum->resubmitted++;
		return submit(s, i, 2, err, errlen);
	}
	s->sum->failed += e.state == LAB_FAILED;
	return lab_ledger_put(&s->ledger, i, &e, err, errlen);
}

/* One look at every job still out: progress said as it moves, finished jobs taken in. The number still
 * out, or -1 with err. */
static long follow(struct lab_state *s, char *err, size_t errlen)
{
	long out = 0;
	for (size_t i = 0; i < s->ledger.n; i++) {
		const struct lab_entry *e = &s->ledger.e[i];
		if (e->state != LAB_SUBMITTED)
			continue;
		struct lab_job_status js;
		if (lab_rest_job(s->rest, e->job, &js, err, errlen) < 0)
			return -1;
		char *now = xasprintf("%s %s %s", js.state, js.health, js.device);
		if (!s->seen[i] || strcmp(s->seen[i], now) != 0) {
			if (strcmp(js.state, "Finished") != 0)
				printf("job %" PRId64 ": %s, %s%s%s\n", e->job, s->rq->kernels[s->slots[i].kernel].name, js.state,
				       js.device[0] ? " on " : "", js.device);
			fflush(stdout);
			free(s->seen[i]);
			s->seen[i] = now;
		} else {
			free(now);
		}
		if (strcmp(js.state, "Finished") == 0 && finished(s, i, &js, err, errlen) < 0)
			return -1;
		out += s->ledger.e[i].state == LAB_SUBMITTED;
	}
	return out;
}

/* Sleep for the poll interval in short steps, so a stop is seen at once; 1 when stopped. */
static int wait_poll(const struct lab_request *rq)
{
	for (double t = 0; t < rq->poll_s; t += 0.2) {
		if (rq->cancelled && rq->cancelled(rq->cancel_arg))
			return 1;
		nanosleep(&(struct timespec){.tv_nsec = 200000000L}, NULL);
	}
	return rq->cancelled && rq->cancelled(rq->cancel_arg);
}

/* Submit each device's next planned job once the one before it on that device is done, so every device
 * keeps its ABBA order whatever LAVA's queue does; how many are still planned, or -1 with err. */
static long submit_ready(struct lab_state *s, char *err, size_t errlen)
{
	long planned = 0;
	for (size_t i = 0; i < s->ledger.n; i++) {
		if (s->ledger.e[i].state != LAB_PLANNED)
			continue;
		int ready = 1;
		for (size_t j = 0; j < i && ready; j++)
			ready = s->slots[j].device != s->slots[i].device || s->ledger.e[j].state == LAB_MERGED ||
				s->ledger.e[j].state == LAB_FAILED;
		if (ready && submit(s, i, 1, err, errlen) < 0)
			return -1;
		planned += !ready;
	}
	return planned;
}

/* Follow the jobs the ledger has out, submit the rest in turn, until none is left; 0, -1 with err, or 1
 * stopped. */
static int drive(struct lab_state *s, char *err, size_t errlen)
{
	for (size_t i = 0; i < s->ledger.n; i++) {
		const struct lab_entry *e = &s->ledger.e[i];
		if (e->state == LAB_MERGED)
			s->sum->merged++;
		else if (e->state == LAB_FAILED)
			s->sum->failed++;
		else if (e->state == LAB_SUBMITTED)
			printf("job %" PRId64 ": %s on %s: submitted before, followed again\n", e->job,
			       s->rq->kernels[s->slots[i].kernel].name, e->device);
	}
	for (;;) {
		if (s->rq->cancelled && s->rq->cancelled(s->rq->cancel_arg))
			return 1;
		long planned = submit_ready(s, err, errlen), out = planned < 0 ? -1 : follow(s, err, errlen);
		if (planned < 0 || out < 0)
			return -1;
		if (out == 0 && planned == 0) {
			/* a job finished in this look may have made the last one ready */
			if ((planned = submit_ready(s, err, errlen)) < 0)
				return -1;
			if (planned == 0 && follow(s, err, errlen) == 0)
				return 0;
		}
		if (wait_poll(s->rq))
			return 1;
	}
}

int lab_run(const struct lab_request *rq, struct lab_summary *sum, char *err, size_t errlen)
{
	struct lab_state s = {.rq = rq, .sum = sum};
	memset(sum, 0, sizeof(*sum));
	double t0 = now_s();
	int rc = (s.rest = lab_rest_open(rq->id, err, errlen)) ? find_devices(&s, err, errlen) : -1;
	if (rc == 0) {
		sum->devices = s.ndevs;
		sum->jobs = s.boots = rq->boots ? rq->boots : 2 * rq->nkernels * s.ndevs;
		s.slots = xcalloc(s.boots, sizeof(*s.slots));
		rc = lab_order(rq->nkernels, s.ndevs, s.boots, s.slots, err, errlen) < 0 ? -2 : 0;
	}
	char plan[SHA256_HEX_LEN + 1];
	if (rc == 0) {
		plan_of(&s, plan);
		rc = lab_ledger_open(&s.ledger, rq->ledger, plan, s.boots, err, errlen);
	}
	if (rc == 0) {
		s.seen = xcalloc(s.boots, sizeof(*s.seen));
		rc = drive(&s, err, errlen);
		sum->interrupted = rc == 1;
		rc = rc < 0 ? -1 : sum->failed ? 1 : 0;
	}
	for (size_t i = 0; s.seen && i < s.boots; i++)
		free(s.seen[i]);
	free(s.seen);
	store_close(s.st);
	lab_ledger_free(&s.ledger);
	lab_rest_close(s.rest);
	free(s.devs);
	free(s.slots);
	sum->wall_s = now_s() - t0;
	return rc;
}
