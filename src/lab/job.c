/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One LAVA job of a comparison: a kernel booted with the guest's root, the project's definition
 * (contrib/lava/reaim.sh) run in it with the comparison's run words, its run labelled with the
 * kernel's name; pinned to a device by the tag named as it. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lab/lab.h"
#include "util/util.h"

/* Characters a word may hold to go into a job's YAML and the guest's shell as it is. */
static int word_char(int c)
{
	return isalnum(c) || strchr("-_=.,:/+@%^~", c);
}

int lab_word_check(const char *what, const char *word, char *err, size_t errlen)
{
	if (!*word) {
		set_err(err, errlen, "%s: an empty word", what);
		return -1;
	}
	for (const char *p = word; *p; p++)
		if (!word_char((unsigned char)*p)) {
			set_err(err, errlen, "%s: '%s' holds '%c', which a job cannot carry as it is (letters, digits and "
				"-_=.,:/+@%%^~ only)", what, word, isprint((unsigned char)*p) ? *p : '?');
			return -1;
		}
	return 0;
}

int lab_quoted_check(const char *what, const char *text, char *err, size_t errlen)
{
	for (const char *p = text; *p; p++)
		if ((unsigned char)*p < ' ' || (unsigned char)*p > '~' || strchr("\"'\\", *p)) {
			set_err(err, errlen, "%s: '%s' holds a quote, a backslash or a character that is not printable "
				"ASCII, which a job cannot carry", what, text);
			return -1;
		}
	return 0;
}

/* Whether s begins with a URL's scheme and "://". */
static const char *url_rest(const char *s)
{
	const char *p = s;
	while (isalpha((unsigned char)*p) || (p > s && (isdigit((unsigned char)*p) || strchr("+.-", *p))))
		p++;
	return p > s && strncmp(p, "://", 3) == 0 ? p + 3 : NULL;
}

char *lab_url_of(const char *what, char *err, size_t errlen)
{
	if (url_rest(what)) {
		for (const char *p = what; *p; p++)
			if ((unsigned char)*p <= ' ' || strchr("\"'\\{}", *p)) {
				set_err(err, errlen, "%s: a URL with a space, quote, brace or backslash", what);
				return NULL;
			}
		return xstrdup(what);
	}
	struct stat st;
	char *abs = realpath(what, NULL);
	if (!abs || stat(abs, &st) != 0 || !S_ISREG(st.st_mode) || access(abs, R_OK) != 0) {
		set_err(err, errlen, "%s: %s", what, abs ? "not a readable file" : strerror(errno));
		free(abs);
		return NULL;
	}
	char *url;
	for (const char *p = abs; *p; p++)
		if ((unsigned char)*p <= ' ' || strchr("\"'\\{}", *p)) {
			set_err(err, errlen, "%s: a path with a space, quote, brace or backslash cannot be a job's URL", abs);
			free(abs);
			return NULL;
		}
	url = xasprintf("file://%s", abs);
	free(abs);
	return url;
}

int lab_kernel_parse(const char *spec, struct lab_kernel *k, char *err, size_t errlen)
{
	memset(k, 0, sizeof(*k));
	const char *eq = strchr(spec, '=');
	if (!eq || eq == spec) {
		set_err(err, errlen, "--kernel %s: give NAME=URL-or-PATH[:CMDLINE]", spec);
		return -1;
	}
	for (const char *p = spec; p < eq; p++)
		if (!isalnum((unsigned char)*p) && !strchr("._-", *p)) {
			set_err(err, errlen, "--kernel %s: a name of letters, digits, '.', '_' and '-' (it labels the runs)",
				spec);
			return -1;
		}
	const char *img = eq + 1, *rest = url_rest(img);
	/* the command line begins at the first ':' after a URL's host (a port has one too) */
	const char *from = rest ? (strchr(rest, '/') ? strchr(rest, '/') : rest + strlen(rest)) : img;
	const char *colon = strchr(from, ':');
	char *image = colon ? xasprintf("%.*s", (int)(colon - img), img) : xstrdup(img);
	const char *cmdline = colon ? colon + 1 : "";
	for (const char *p = cmdline; *p; p++)
		if ((unsigned char)*p < ' ' || strchr("\"'\\{}$`", *p)) {
			set_err(err, errlen, "--kernel %s: the command line holds '%c', which a job cannot carry", spec,
				isprint((unsigned char)*p) ? *p : '?');
			free(image);
			return -1;
		}
	char why[1024];
	k->url = lab_url_of(image, why, sizeof(why));
	free(image);
	if (!k->url) {
		set_err(err, errlen, "--kernel %s: %s", spec, why);
		return -1;
	}
	k->name = xasprintf("%.*s", (int)(eq - spec), spec);
	k->cmdline = xstrdup(cmdline);
	return 0;
}

void lab_kernel_free(struct lab_kernel *k)
{
	free(k->name);
	free(k->url);
	free(k->cmdline);
	memset(k, 0, sizeof(*k));
}

/* The words of a list as one YAML flow sequence of single-quoted strings. */
static void flow_list(struct strbuf *sb, char *const *v, size_t n)
{
	strbuf_addf(sb, "[");
	for (size_t i = 0; i < n; i++)
		strbuf_addf(sb, "%s'%s'", i ? ", " : "", v[i]);
	strbuf_addf(sb, "]");
}

long lab_run_limit_s(long timeout_min)
{
	/* the job's minutes less the boot's and deploy's 2 and 2 more to print the database */
	return (timeout_min - 4) * 60;
}

/* The inline test definition: the project's reaim.sh, as contrib/lava/reaim.yaml runs it. */
static void test_action(struct strbuf *sb, const struct lab_job_spec *s, const struct lab_kernel *k)
{
	strbuf_addf(sb, "- test:\n    timeout: {minutes: %ld}\n    definitions:\n    - repository:\n"
		    "        metadata: {format: Lava-Test Test Definition 1.0, name: reaim}\n"
		    "        run:\n          steps:\n"
		    "          - 'cd /opt/reaim/contrib/lava && ./reaim.sh -b /usr/local/bin/reaim -S true -l %s -T %ld",
		    s->timeout_min - 2, k->name, lab_run_limit_s(s->timeout_min));
	if (s->nrun_words) {
		strbuf_addf(sb, " -a \"");
		for (size_t i = 0; i < s->nrun_words; i++)
			strbuf_addf(sb, "%s%s", i ? " " : "", s->run_words[i]);
		strbuf_addf(sb, "\"");
	}
	strbuf_addf(sb, "'\n      from: inline\n      name: reaim-%s\n      path: inline/reaim.yaml\n", k->name);
}

char *lab_job_yaml(const struct lab_job_spec *s, const struct lab_kernel *k, const char *device, size_t boot,
		   size_t boots)
{
	struct strbuf sb = {0};
	strbuf_addf(&sb, "device_type: %s\njob_name: 'reaim lab: %s, boot %zu of %zu%s%s'\n", s->device_type, k->name,
		    boot, boots, device ? " on " : "", device ? device : "");
	if (device)
		strbuf_addf(&sb, "tags: ['%s']\n", device);
	strbuf_addf(&sb, "timeouts: {job: {minutes: %ld}, action: {minutes: %ld}, connection: {minutes: 2}}\n"
		    "priority: medium\nvisibility: public\n", s->timeout_min, s->timeout_min);
	if (strcmp(s->device_type, "qemu") == 0 || s->nqemu_options) {
		strbuf_addf(&sb, "context:\n  arch: amd64\n  extra_options: ");
		flow_list(&sb, s->qemu_options, s->nqemu_options);
		strbuf_addf(&sb, "\n");
	}
	strbuf_addf(&sb, "actions:\n- deploy:\n    to: tmpfs\n    images:\n      kernel:\n"
		    "        image_arg: '-kernel {kernel} -append \"console=ttyS0,115200 rdinit=/init panic=-1 softlockup_panic=1 hung_task_panic=1%s%s\"'\n"
		    "        url: '%s'\n      initrd:\n        image_arg: -initrd {initrd}\n        url: '%s'\n",
		    k->cmdline[0] ? " " : "", k->cmdline, k->url, s->root_url);
	strbuf_addf(&sb, "- boot:\n    method: qemu\n    media: tmpfs\n    prompts: ['%s']\n", s->prompt);
	test_action(&sb, s, k);
	return sb.buf;
}
