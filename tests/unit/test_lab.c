/* SPDX-License-Identifier: GPL-2.0-or-later */
/* reaim lab's parts that need no server: the order of jobs per device, a job's YAML (read back with
 * libyaml), the --kernel words, the ledger a second call resumes from, lavacli's identity file. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <yaml.h>

#include "analysis/cmpblock.h"
#include "lab/lab.h"
#include "tap.h"
#include "testfs.h"
#include "util/util.h"

static char dir[] = "/tmp/reaim-test-lab.XXXXXX";

/* Every device runs each kernel equally often, in ABBA order of its own, and devices side by side run
 * different kernels. */
static void order_per_device(void)
{
	struct lab_slot s[16];
	char err[256];
	ok(lab_order(2, 2, 8, s, err, sizeof(err)) == 0, "8 boots of 2 kernels on 2 devices are planned");
	size_t count[2][2] = {{0}};
	for (size_t i = 0; i < 8; i++)
		count[s[i].device][s[i].kernel]++;
	ok(count[0][0] == 2 && count[0][1] == 2 && count[1][0] == 2 && count[1][1] == 2,
	   "each device runs each kernel twice");
	/* device 0: A B B A; device 1 rotated: B A A B */
	const size_t want0[] = {0, 1, 1, 0}, want1[] = {1, 0, 0, 1};
	int abba = 1;
	for (size_t t = 0; t < 4; t++) {
		abba &= s[2 * t].device == 0 && s[2 * t].kernel == want0[t] && s[2 * t].turn == t;
		abba &= s[2 * t + 1].device == 1 && s[2 * t + 1].kernel == want1[t];
	}
	ok(abba, "device 0 runs A B B A, device 1 B A A B, turn by turn");
	ok(lab_order(3, 1, 6, s, err, sizeof(err)) == 0 && s[0].kernel == 0 && s[2].kernel == 2 && s[3].kernel == 2 &&
		   s[5].kernel == 0,
	   "one device, three kernels: ABC CBA");
	ok(lab_order(2, 2, 6, s, err, sizeof(err)) < 0 && strstr(err, "multiple of 4"),
	   "6 boots on 2 devices of 2 kernels refused, naming the multiple");
	ok(lab_order(2, 0, 4, s, err, sizeof(err)) < 0, "no device: refused");
}

/* The scalar under a path of mapping keys and sequence indexes ("actions", "0", "deploy", ...). */
static const char *yaml_at(yaml_document_t *doc, const char *const *path, size_t n)
{
	yaml_node_t *node = yaml_document_get_root_node(doc);
	for (size_t i = 0; node && i < n; i++) {
		yaml_node_t *next = NULL;
		if (node->type == YAML_MAPPING_NODE) {
			for (yaml_node_pair_t *p = node->data.mapping.pairs.start; p < node->data.mapping.pairs.top; p++) {
				yaml_node_t *k = yaml_document_get_node(doc, p->key);
				if (k->type == YAML_SCALAR_NODE && strcmp((char *)k->data.scalar.value, path[i]) == 0)
					next = yaml_document_get_node(doc, p->value);
			}
		} else if (node->type == YAML_SEQUENCE_NODE) {
			long idx = atol(path[i]);
			if (idx >= 0 && node->data.sequence.items.start + idx < node->data.sequence.items.top)
				next = yaml_document_get_node(doc, node->data.sequence.items.start[idx]);
		}
		node = next;
	}
	return node && node->type == YAML_SCALAR_NODE ? (const char *)node->data.scalar.value : NULL;
}

#define AT(doc, ...) yaml_at(doc, (const char *const[]){__VA_ARGS__}, sizeof((const char *const[]){__VA_ARGS__}) / sizeof(char *))

/* A job's YAML is YAML, and says what it must: the device's tag, the kernel and its command line, the
 * root, the definition with the run words and the kernel's name as label. */
static void job_yaml(void)
{
	struct lab_kernel k;
	char err[512];
	ok(lab_kernel_parse("pti=http://example.test:8080/k/vmlinuz:pti=on quiet", &k, err, sizeof(err)) == 0,
	   "a URL with a port and a command line parses");
	is_str(k.url, "http://example.test:8080/k/vmlinuz", "the URL keeps its port");
	is_str(k.cmdline, "pti=on quiet", "the command line after the path's colon");
	char *words[] = {"-s", "quick", "-t", "1,2"}, *qemu[] = {"-smp 2", "-accel tcg"};
	struct lab_job_spec s = {.device_type = "qemu", .root_url = "file:///srv/root.cpio.gz", .prompt = "root@reaim:~#",
				 .run_words = words, .nrun_words = 4, .qemu_options = qemu, .nqemu_options = 2,
				 .timeout_min = 30};
	char *y = lab_job_yaml(&s, &k, "qemu02", 3, 8);
	yaml_parser_t p;
	yaml_document_t doc;
	yaml_parser_initialize(&p);
	yaml_parser_set_input_string(&p, (const unsigned char *)y, strlen(y));
	int parsed = yaml_parser_load(&p, &doc) && yaml_document_get_root_node(&doc);
	ok(parsed, "the job is YAML");
	if (!parsed) {
		printf("# %s\n", y);
		skip("the job's fields", "not YAML");
	} else {
		is_str(AT(&doc, "device_type"), "qemu", "device_type");
		is_str(AT(&doc, "tags", "0"), "qemu02", "pinned by the device's own tag");
		is_str(AT(&doc, "actions", "0", "deploy", "images", "kernel", "url"), "http://example.test:8080/k/vmlinuz",
		       "the kernel's URL");
		const char *arg = AT(&doc, "actions", "0", "deploy", "images", "kernel", "image_arg");
		ok(arg && strstr(arg, "-append \"console=ttyS0,115200 rdinit=/init panic=-1 softlockup_panic=1 hung_task_panic=1 pti=on quiet\""),
		   "the kernel's command line in its -append");
		is_str(AT(&doc, "actions", "0", "deploy", "images", "initrd", "url"), "file:///srv/root.cpio.gz", "the root");
		is_str(AT(&doc, "actions", "1", "boot", "prompts", "0"), "root@reaim:~#", "the prompt");
		is_str(AT(&doc, "context", "extra_options", "1"), "-accel tcg", "the QEMU options in the context");
		const char *step = AT(&doc, "actions", "2", "test", "definitions", "0", "repository", "run", "steps", "0");
		ok(step && strstr(step, "./reaim.sh -b /usr/local/bin/reaim -S true -l pti -T 1560 -a \"-s quick -t 1,2\""),
		   "the definition runs reaim.sh with the label and the run words");
		ok(AT(&doc, "job_name") && strstr(AT(&doc, "job_name"), "boot 3 of 8 on qemu02"), "the job's name says which");
		yaml_document_delete(&doc);
	}
	yaml_parser_delete(&p);
	free(y);
	lab_kernel_free(&k);
}

/* --kernel words and the words a job carries: bad ones refused, naming what is wrong. */
static void kernel_words(void)
{
	struct lab_kernel k;
	char err[512];
	char *file = xasprintf("%s/bz", dir);
	test_put(dir, "bz", "kernel");
	char *spec = xasprintf("base=%s", file), *want = xasprintf("file://%s", file);
	ok(lab_kernel_parse(spec, &k, err, sizeof(err)) == 0, "a path parses");
	is_str(k.url, want, "a path becomes a file:// URL");
	is_str(k.cmdline, "", "no command line");
	lab_kernel_free(&k);
	ok(lab_kernel_parse("a b=http://x/k", &k, err, sizeof(err)) < 0 && strstr(err, "a name"), "a name with a space");
	ok(lab_kernel_parse("=http://x/k", &k, err, sizeof(err)) < 0, "no name");
	ok(lab_kernel_parse("a=/nonexistent/k", &k, err, sizeof(err)) < 0 && strstr(err, "/nonexistent/k"),
	   "a missing path, named");
	ok(lab_kernel_parse("a=http://x/k:init=\"x\"", &k, err, sizeof(err)) < 0 && strstr(err, "'\"'"),
	   "a quote in the command line");
	ok(lab_word_check("w", "--time-limit=600", err, sizeof(err)) == 0, "an option word passes");
	ok(lab_word_check("w", "$(reboot)", err, sizeof(err)) < 0 && strstr(err, "'$'"), "a shell expansion is refused");
	ok(lab_quoted_check("p", "root@reaim:~# ", err, sizeof(err)) == 0, "a prompt passes");
	ok(lab_quoted_check("p", "it's", err, sizeof(err)) < 0, "a quote in a quoted text is refused");
	free(spec);
	free(want);
	unlink(file);
	free(file);
}

/* The ledger: entries written are read back by a second open of the same plan; another plan's, a cut
 * or a foreign file is refused naming its line, and left as it was. */
static void ledger(void)
{
	char *path = xasprintf("%s/l.lab", dir), err[512];
	struct lab_ledger l;
	ok(lab_ledger_open(&l, path, "PLAN1", 4, err, sizeof(err)) == 0, "a new ledger is made");
	struct lab_entry e = {.state = LAB_SUBMITTED, .attempt = 1, .job = 41};
	text_copy(e.device, sizeof(e.device), "qemu01");
	ok(lab_ledger_put(&l, 2, &e, err, sizeof(err)) == 0, "an entry is put");
	e.state = LAB_FAILED;
	e.job = 42;
	e.attempt = 2;
	snprintf(e.note, sizeof(e.note), "Incomplete (Test):\nline two");
	ok(lab_ledger_put(&l, 3, &e, err, sizeof(err)) == 0, "a failed entry with a note of two lines");
	e.state = LAB_MERGED;
	e.job = 41;
	e.attempt = 1;
	e.note[0] = '\0';
	lab_ledger_put(&l, 2, &e, err, sizeof(err));
	lab_ledger_free(&l);
	ok(lab_ledger_open(&l, path, "PLAN1", 4, err, sizeof(err)) == 0, "opened again for the same plan");
	ok(l.e[2].state == LAB_MERGED && l.e[2].job == 41 && strcmp(l.e[2].device, "qemu01") == 0,
	   "the last line of a slot wins");
	ok(l.e[3].state == LAB_FAILED && l.e[3].attempt == 2 && strcmp(l.e[3].note, "Incomplete (Test): line two") == 0,
	   "the failure and its note, on one line");
	ok(l.e[0].state == LAB_PLANNED && l.e[0].job == 0, "a slot never put is planned");
	lab_ledger_free(&l);
	char *before = read_text_file(path, 1 << 20);
	ok(lab_ledger_open(&l, path, "PLAN2", 4, err, sizeof(err)) == -2 && strstr(err, ":2: the ledger of another"),
	   "another plan's ledger is refused at its line 2");
	lab_ledger_free(&l);
	char *after = read_text_file(path, 1 << 20);
	ok(before && after && strcmp(before, after) == 0, "and left as it was");
	test_put(dir, "bad.lab", "# reaim lab: the jobs of one comparison, one line per change (read back to resume)\n"
				 "plan PLAN1\nslot 9 merged 1 5 qemu01 \n");
	char *bad = xasprintf("%s/bad.lab", dir);
	ok(lab_ledger_open(&l, bad, "PLAN1", 4, err, sizeof(err)) == -1 && strstr(err, "bad.lab:3:"),
	   "a slot out of the plan: refused at its line");
	lab_ledger_free(&l);
	test_put(dir, "foreign.lab", "hello\n");
	char *foreign = xasprintf("%s/foreign.lab", dir);
	ok(lab_ledger_open(&l, foreign, "PLAN1", 4, err, sizeof(err)) == -1 && strstr(err, ":1: not a reaim lab ledger"),
	   "a file of another kind is refused");
	lab_ledger_free(&l);
	unlink(path);
	unlink(bad);
	unlink(foreign);
	free(path);
	free(bad);
	free(foreign);
	free(before);
	free(after);
}

/* lavacli's identity file: the identity's uri and token; a missing identity, token or file, and YAML
 * that does not parse, each named. */
static void identity(void)
{
	char *path = xasprintf("%s/lavacli.yaml", dir), err[512];
	struct lab_identity id;
	test_put(dir, "lavacli.yaml", "default:\n  uri: https://lava.example.test/RPC2\n  token: abc\n"
				      "reaim-lab:\n  uri: http://127.0.0.1:8000/RPC2\n  username: reaim-lab\n  token: s3cret\n");
	ok(lab_identity_read(path, "reaim-lab", &id, err, sizeof(err)) == 0, "an identity is read");
	is_str(id.uri, "http://127.0.0.1:8000/RPC2", "its uri");
	is_str(id.token, "s3cret", "its token");
	is_str(id.username, "reaim-lab", "its user");
	lab_identity_free(&id);
	ok(lab_identity_read(path, "other", &id, err, sizeof(err)) < 0 && strstr(err, "no identity other") &&
		   strstr(err, "default, reaim-lab"),
	   "a missing identity, with the ones there are");
	test_put(dir, "lavacli.yaml", "x:\n  uri: http://127.0.0.1/RPC2\n");
	ok(lab_identity_read(path, "x", &id, err, sizeof(err)) < 0 && strstr(err, "has no token"), "no token");
	test_put(dir, "lavacli.yaml", "x:\n  uri: [\n");
	ok(lab_identity_read(path, "x", &id, err, sizeof(err)) < 0 && strstr(err, "lavacli.yaml:"), "bad YAML, at its line");
	unlink(path);
	ok(lab_identity_read(path, "x", &id, err, sizeof(err)) < 0 && strstr(err, "no such file"), "no file");
	free(path);
}

/* compare's blocks: each side's runs paired with the other's on the same device, in the order they
 * ran; a run without a partner on its device left out. */
static void pairs_by_device(void)
{
	char *a[] = {"qemu01", "qemu02", "qemu02", "qemu01", "qemu03"}, *b[] = {"qemu02", "qemu01", "qemu01", "qemu02"};
	size_t ia[5], ib[5];
	size_t n = cmpblock_pair(a, 5, b, 4, ia, ib);
	is_int(n, 4, "four pairs: qemu03's run has no partner");
	ok(ia[0] == 0 && ib[0] == 1 && ia[1] == 1 && ib[1] == 0 && ia[2] == 2 && ib[2] == 3 && ia[3] == 3 && ib[3] == 2,
	   "the i-th of a device's runs on one side with its i-th on the other");
	is_int(cmpblock_count(a, 5), 3, "three devices");
	is_int(cmpblock_pair(a, 1, b, 1, ia, ib), 0, "no device in common: no pair");
}

int main(void)
{
	if (!mkdtemp(dir)) {
		printf("Bail out! cannot make %s\n", dir);
		return 1;
	}
	tap_case(order_per_device);
	tap_case(job_yaml);
	tap_case(kernel_words);
	tap_case(ledger);
	tap_case(identity);
	tap_case(pairs_by_device);
	rmdir(dir);
	return done_testing();
}
