/* SPDX-License-Identifier: GPL-2.0-or-later */
/* reaim called as AIM Suite VII's `multitask` or Suite IX's `singleuser`: their stdin dialogue,
 * their files in the current directory and their tables on stdout, the run stored as any other. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/live_table.h"
#include "config/cfg.h"
#include "report/classic.h"
#include "store/store.h"
#include "util/util.h"

/* AIM VII's bounds on its answers (multitask.c's prompts), and the jobs each task ran. */
enum {
	AIM7_MAX_ITERATIONS = 10,
	AIM7_MAX_LOAD = 10000,
	AIM7_MAX_INCREMENT = 100,
	AIM7_JOBS = 100,
	AIM7_ADAPT_AFTER = 8, /* its adaptive timer moved the increment after this many points */
	AIM9_MIN_SECONDS = 2,
	AIM9_MAX_SECONDS = 1000,
};
/* AIM VII's crossover: Jobs/Min per task (per "user") down to 1. */
#define AIM7_CROSSOVER 1.0
#define AIM7_NAME "AIM Multiuser Benchmark - Suite VII"
#define AIM9_NAME "AIM Independent Resource Benchmark - Suite IX"

/* What the flags said: the ones both programs took, and reaim's --db alongside. */
struct aim_flags {
	int timer_off; /* -t: AIM VII's adaptive timer off */
	const char *db;
};

/* The flags of both programs; -f and -N (AIM VII's datapoint file and Newton's method) are refused. */
static int aim_parse_flags(const char *prog, int argc, char **argv, struct aim_flags *f)
{
	memset(f, 0, sizeof(*f));
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "-t") == 0)
			f->timer_off = 1;
		else if (strcmp(a, "-nl") == 0 || strcmp(a, "-v") == 0 || strncmp(a, "-d", 2) == 0)
			continue; /* no logfile.suite7, verbose, debug: reaim's diagnostics are on stderr */
		else if (strcmp(a, "--db") == 0 && i + 1 < argc)
			f->db = argv[++i];
		else if (strncmp(a, "--db=", 5) == 0)
			f->db = a + 5;
		else {
			char *shown = text_escape(a);
			log_error("%s: unknown option '%s' (%s takes -t, -v, -dN and -nl, and reaim's --db FILE; "
				  "a datapoint file (-f) and Newton's method (-N) are not reproduced)",
				  prog, shown, prog);
			free(shown);
			return -1;
		}
	}
	return 0;
}

/* The answers come one a line on stdin, each after its prompt, as AIM printed them. A line is
 * read into a bounded buffer: an answer is a name or a number, and stdin may be anything (a
 * file with no newline in hundreds of megabytes is refused, never read whole). */
#define AIM_ANSWER_MAX 4096
struct dialogue {
	int line;
	char buf[AIM_ANSWER_MAX + 2]; /* the answer, its newline and the NUL */
};

static char *ask(struct dialogue *d, const char *prompt)
{
	printf("%-60s: ", prompt);
	fflush(stdout);
	d->line++;
	errno = 0;
	if (!fgets(d->buf, sizeof(d->buf), stdin)) {
		putchar('\n');
		if (errno)
			log_error("stdin: %s", strerror(errno));
		else
			log_error("stdin:%d: no answer to \"%s\" (the answers come one a line on stdin)", d->line,
				  prompt);
		return NULL;
	}
	size_t len = strlen(d->buf);
	if (len == sizeof(d->buf) - 1 && d->buf[len - 1] != '\n') {
		putchar('\n');
		log_error("stdin:%d: the answer to \"%s\" is longer than the %d bytes an answer may have (the "
			  "answers come one a line on stdin)", d->line, prompt, AIM_ANSWER_MAX);
		return NULL;
	}
	d->buf[strcspn(d->buf, "\r\n")] = '\0';
	return d->buf;
}

/* A whole number from lo to hi; AIM asked again, a piped dialogue cannot answer again. */
static int ask_number(struct dialogue *d, const char *what, long long lo, long long hi, long long *v)
{
	char prompt[160];
	snprintf(prompt, sizeof(prompt), hi - lo == 1 ? "%s [%lld or %lld]" : "%s [%lld to %lld]", what, lo, hi);
	char *a = ask(d, prompt);
	if (!a)
		return -1;
	char *shown = text_escape(a); /* before the words are cut out of it */
	char *rest = a, *word = next_word(&rest);
	int bad = !word || next_word(&rest) || parse_long(word, lo, hi, v) < 0;
	if (bad) {
		putchar('\n');
		log_error("stdin:%d: \"%s\": '%s' is not a whole number from %lld to %lld", d->line, what, shown, lo,
			  hi);
	}
	free(shown);
	return bad ? -1 : 0;
}

static void push(struct str_list *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void push(struct str_list *l, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	l->v = xrealloc(l->v, (l->count + 2) * sizeof(char *));
	l->v[l->count++] = s;
	l->v[l->count] = NULL;
}

/* AIM VII's `config`: a disk directory per line (its first word), '#' lines aside; a first OFF
 * turns them all off. */
static int aim7_read_config(const char *path, struct str_list *argv)
{
	char err[160];
	int err_line;
	char *text = read_input_file(path, 1 << 20, err, sizeof(err), &err_line);
	if (!text) {
		if (err_line > 0)
			log_error("%s:%d: %s", path, err_line, err);
		else
			log_error("%s: %s (AIM VII's multitask reads its disk directories from it)", path, err);
		return -1;
	}
	size_t first = argv->count;
	char *save = text;
	for (char *ln = text; ln; ln = save) {
		char *nl = strchr(ln, '\n');
		save = nl ? nl + 1 : NULL;
		if (nl)
			*nl = '\0';
		char *rest = ln, *dir = ln[0] == '#' ? NULL : next_word(&rest);
		if (!dir)
			continue;
		if (argv->count == first && strcmp(dir, "OFF") == 0)
			break;
		printf("\nUsing disk directory <%s>", dir);
		push(argv, "--dirs");
		push(argv, "%s", dir);
	}
	printf("\n");
	free(text);
	return 0;
}

/* The file AIM read from the current directory, there and readable. */
static int aim_need_file(const char *path, const char *prog)
{
	char why[256];
	int fd = open_input(path, why, sizeof(why));
	if (fd < 0) {
		log_error("%s: %s (%s reads it from the current directory)", path, why, prog);
		return -1;
	}
	close(fd);
	return 0;
}

/* Run the native command line, then print the stored run with table. */
static enum outcome aim_run(const struct command *run, const struct aim_flags *f, struct str_list *argv,
			    void (*table)(FILE *, const struct store_point *, size_t))
{
	if (f->db) {
		push(argv, "--db");
		push(argv, "%s", f->db);
	}
	fflush(stdout);
	struct run_view view = {0}; /* reaim's progress line on stderr; AIM's table once the run is stored */
	live_table_progress(&view);
	int64_t run_id = 0;
	enum outcome out = cmd_run_viewed(run, (int)argv->count, argv->v, &view, &run_id);
	struct store_point *pts;
	size_t n;
	if (out != OUT_USAGE && cmd_stored_points(store_db_path(f->db), run_id, &pts, &n) == 0) {
		table(stdout, pts, n);
		free(pts);
	} else if (out == OUT_OK) {
		out = OUT_FAILED;
	}
	return out;
}

/* What --name takes. */
#define AIM_NAME_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.+-"

/* The answers to AIM VII's questions, asked in its order. */
struct aim7_answers {
	long long iterations;
	struct aim7_iteration {
		long long start, end, increment;
		int crossover;
	} it[AIM7_MAX_ITERATIONS];
};

static int aim7_dialogue(struct dialogue *d, struct aim7_answers *a, char **config)
{
	const char *ans;
	if (!ask(d, "Machine's name") || !(ans = ask(d, "Machine's configuration")))
		return -1;
	*config = xstrdup(ans);
	if (ask_number(d, "Number of iterations to run", 1, AIM7_MAX_ITERATIONS, &a->iterations) < 0)
		return -1;
	for (long long j = 0; j < a->iterations; j++) {
		struct aim7_iteration *it = &a->it[j];
		long long mode;
		printf("\nInformation for iteration #%lld\n", j + 1);
		if (ask_number(d, "Starting number of operation loads", 1, AIM7_MAX_LOAD, &it->start) < 0 ||
		    ask_number(d, "1) Run to crossover\n2) Run to specific operation load           Enter", 1, 2,
			       &mode) < 0)
			return -1;
		it->crossover = mode == 1;
		it->end = it->start;
		if (!it->crossover &&
		    ask_number(d, "Maximum number of operation loads to simulate", it->start, AIM7_MAX_LOAD, &it->end) < 0)
			return -1;
		if (ask_number(d, "Operation load increment", 1, AIM7_MAX_INCREMENT, &it->increment) < 0)
			return -1;
	}
	return 0;
}

/* The task list and mode of the answers, as reaim's options. */
static int aim7_plan(const struct aim7_answers *a, int timer_off, struct str_list *argv)
{
	struct strbuf tasks = {0};
	long long points = 0;
	strbuf_add(&tasks, "", 0);
	for (long long j = 0; j < a->iterations; j++) {
		const struct aim7_iteration *it = &a->it[j];
		if (it->crossover && a->iterations > 1) {
			log_error("stdin: a crossover iteration among %lld: reaim runs to crossover in a run of one "
				  "iteration", a->iterations);
			strbuf_free(&tasks);
			return -1;
		}
		long long end = it->crossover ? AIM7_MAX_LOAD : it->end;
		strbuf_addf(&tasks, "%s%lld-%lld:%lld", j ? "," : "", it->start, end, it->increment);
		points += (end - it->start) / it->increment + 1;
	}
	push(argv, "--tasks");
	push(argv, "%s", tasks.buf);
	strbuf_free(&tasks);
	if (a->it[0].crossover) {
		push(argv, "--mode");
		push(argv, "crossover");
		push(argv, "--threshold");
		push(argv, "%g", AIM7_CROSSOVER);
		push(argv, "--max-tasks");
		push(argv, "%d", AIM7_MAX_LOAD);
	} else if (!timer_off && points > AIM7_ADAPT_AFTER) {
		log_info("note: the increment stays as answered: AIM VII's adaptive timer (off with -t) is not "
			 "reproduced");
	}
	return 0;
}

static enum outcome aim7_main(const struct command *run, int argc, char **argv)
{
	struct aim_flags f;
	if (aim_parse_flags("multitask", argc, argv, &f) < 0)
		return OUT_USAGE;
	printf("\n%s, as reaim %s runs it\n\n", AIM7_NAME, PACKAGE_VERSION);
	struct dialogue d = {0};
	struct aim7_answers a;
	char *config = NULL;
	memset(&a, 0, sizeof(a));
	struct str_list native = {0};
	push(&native, "run");
	enum outcome out = OUT_USAGE;
	if (aim7_dialogue(&d, &a, &config) < 0 || aim7_plan(&a, f.timer_off, &native) < 0 ||
	    aim7_read_config("config", &native) < 0 || aim_need_file("workfile", "multitask") < 0)
		goto done;
	push(&native, "--workfile");
	push(&native, "./workfile");
	push(&native, "--jobs-per-task");
	push(&native, "%d", AIM7_JOBS);
	push(&native, "--sync-mode");
	push(&native, "global"); /* the sync points AIM VII and classic re-aim-7 made */
	if (config[0]) {
		push(&native, "--label");
		push(&native, "%s", config);
	}
	/* LKP answers the configuration with the test its workfile runs: the workload is named so, not
	 * after the file every such run reads ("workfile") */
	if (config[0] && strlen(config) < 64 && strspn(config, AIM_NAME_CHARS) == strlen(config)) {
		push(&native, "--name");
		push(&native, "%s", config);
	}
	out = aim_run(run, &f, &native, report_aim7);
done:
	free(config);
	str_list_free(&native);
	return out;
}

static enum outcome aim9_main(const struct command *run, int argc, char **argv)
{
	struct aim_flags f;
	if (aim_parse_flags("singleuser", argc, argv, &f) < 0)
		return OUT_USAGE;
	printf("%s, as reaim %s runs it\n\n", AIM9_NAME, PACKAGE_VERSION);
	struct dialogue d = {0};
	char *config = NULL, *dir = NULL;
	long long seconds;
	struct str_list native = {0};
	push(&native, "run");
	enum outcome out = OUT_USAGE;
	const char *ans;
	if (!ask(&d, "Machine's name") || !(ans = ask(&d, "Machine's configuration")))
		goto done;
	config = xstrdup(ans);
	if (ask_number(&d, "Number of seconds to run each test", AIM9_MIN_SECONDS, AIM9_MAX_SECONDS, &seconds) < 0 ||
	    !(ans = ask(&d, "Path to disk files")))
		goto done;
	dir = xstrdup(ans);
	printf("\n");
	if (aim_need_file("s9workfile", "singleuser") < 0)
		goto done;
	time_t now = time(NULL);
	printf("\nStarting time:      %s\n", ctime(&now));
	fflush(stdout);
	/* classic re-aim-7's -o: each test alone for the period, one task, FILESIZE alone */
	push(&native, "--mode");
	push(&native, "single");
	push(&native, "--workfile");
	push(&native, "./s9workfile");
	push(&native, "--period");
	push(&native, "%lld", seconds);
	push(&native, "--tasks");
	push(&native, "1");
	push(&native, "--poolsize");
	push(&native, "0");
	push(&native, "--sync-mode");
	push(&native, "global");
	if (dir[0]) {
		push(&native, "--dirs");
		push(&native, "%s", dir);
	}
	if (config[0]) {
		push(&native, "--label");
		push(&native, "%s", config);
	}
	out = aim_run(run, &f, &native, report_aim9);
	printf("\n%s\n   Testing over\n", AIM9_NAME);
done:
	free(config);
	free(dir);
	str_list_free(&native);
	return out;
}

/* The names reaim answers to as AIM's programs (`make install` links them to reaim). */
static const struct aim_personality {
	const char *name;
	enum outcome (*fn)(const struct command *run, int argc, char **argv);
} aim_personalities[] = {
	{.name = "multitask", .fn = aim7_main},
	{.name = "singleuser", .fn = aim9_main},
};

enum outcome (*cmd_personality(const char *argv0))(const struct command *run, int argc, char **argv)
{
	const char *base = strrchr(argv0, '/');
	base = base ? base + 1 : argv0;
	for (size_t i = 0; i < ARRAY_SIZE(aim_personalities); i++)
		if (strcmp(base, aim_personalities[i].name) == 0)
			return aim_personalities[i].fn;
	return NULL;
}
