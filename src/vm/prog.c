/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the guest runs, on a share of its own: the reaim binary, its helper, the data files it reads
 * and the files the run's words name, copied from wherever they are on the host (a build in /tmp, a
 * copied build, an installed one) into a directory the guest mounts where it hides nothing. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vm/vm.h"

int vm_guest_hides(const char *path)
{
	static const char *const own[] = {"/tmp", "/run", "/var/tmp", "/proc", "/sys", "/dev"};
	for (size_t i = 0; i < ARRAY_SIZE(own); i++) {
		size_t l = strlen(own[i]);
		if (strncmp(path, own[i], l) == 0 && (path[l] == '/' || path[l] == '\0'))
			return 1;
	}
	return 0;
}

/* The data the guest's reaim looks up by name, as the host's finds it. */
static const char *const data_subdirs[] = {"suites", "workfiles", "scripts"};

int vm_copy_file(const char *from, const char *to, mode_t mode, char *err, size_t errlen)
{
	int in = open(from, O_RDONLY | O_NONBLOCK | O_CLOEXEC), out = -1, rc = -1;
	struct stat sb;
	char buf[65536];
	if (in < 0 || fstat(in, &sb) < 0) {
		set_err(err, errlen, "cannot read %s: %s", from, strerror(errno));
		goto done;
	}
	if (!S_ISREG(sb.st_mode)) {
		set_err(err, errlen, "%s is not a regular file", from);
		goto done;
	}
	if ((out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)) < 0) {
		set_err(err, errlen, "cannot make %s: %s", to, strerror(errno));
		goto done;
	}
	ssize_t n;
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n) {
			set_err(err, errlen, "cannot write %s: %s", to, strerror(errno));
			goto done;
		}
	if (n < 0)
		set_err(err, errlen, "cannot read %s: %s", from, strerror(errno));
	else
		rc = 0;
done:
	if (in >= 0)
		close(in);
	if (out >= 0 && close(out) < 0 && rc == 0) {
		set_err(err, errlen, "cannot write %s: %s", to, strerror(errno));
		rc = -1;
	}
	return rc;
}

static int make_dir(const char *path, char *err, size_t errlen)
{
	if (mkdir(path, 0755) < 0 && errno != EEXIST) {
		set_err(err, errlen, "cannot make %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* dir/data/SUBDIR/NAME for each data file the host's reaim would find, wherever it found it. */
static int copy_data(const char *dir, char *err, size_t errlen)
{
	char *data = xasprintf("%s/data", dir);
	int rc = make_dir(data, err, errlen);
	for (size_t i = 0; rc == 0 && i < ARRAY_SIZE(data_subdirs); i++) {
		char *sub = xasprintf("%s/%s", data, data_subdirs[i]);
		char **names = data_names(data_subdirs[i], NULL, 0);
		rc = make_dir(sub, err, errlen);
		for (size_t j = 0; rc == 0 && names[j]; j++) {
			char *from = find_data_file(data_subdirs[i], names[j]), *to = xasprintf("%s/%s", sub, names[j]);
			struct stat sb;
			if (from && stat(from, &sb) == 0 && S_ISREG(sb.st_mode))
				rc = vm_copy_file(from, to, sb.st_mode & 0755, err, errlen);
			free(from);
			free(to);
		}
		free_names(names);
		free(sub);
	}
	free(data);
	return rc;
}

/* The file a run word names (the word, or what follows '=' in --OPT=FILE) when the guest, on the
 * host's root, would not see it there: its offset in the word, or -1. */
static long hidden_file(const char *word)
{
	const char *eq = word[0] == '-' ? strchr(word, '=') : NULL;
	const char *path = eq ? eq + 1 : word;
	struct stat sb;
	if (!*path || stat(path, &sb) < 0 || !S_ISREG(sb.st_mode))
		return -1;
	char *real = realpath(path, NULL);
	int hidden = real && vm_guest_hides(real);
	free(real);
	return hidden ? (long)(path - word) : -1;
}

/* Each run word naming a file the guest would not see, copied to dir/files/N/NAME and named by its
 * path in the guest; the other words as they are. */
static int copy_named_files(const char *dir, char *const *args, size_t n, char **guest, char *err, size_t errlen)
{
	char *files = xasprintf("%s/files", dir);
	int rc = 0, made = 0;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		long at = hidden_file(args[i]);
		if (at < 0) {
			guest[i] = xstrdup(args[i]);
			continue;
		}
		const char *path = args[i] + at, *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
		char *one = xasprintf("%s/%zu", files, i + 1), *to = xasprintf("%s/%s", one, base);
		rc = (made++ || make_dir(files, err, errlen) == 0) ? make_dir(one, err, errlen) : -1;
		if (rc == 0)
			rc = vm_copy_file(path, to, 0644, err, errlen);
		guest[i] = xasprintf("%.*s%s/files/%zu/%s", (int)at, args[i], VM_PROG_GUEST, i + 1, base);
		free(one);
		free(to);
	}
	free(files);
	return rc;
}

int vm_prog_make(const char *dir, const char *reaim, char *const *args, size_t n, char ***guest_args, char *err,
		 size_t errlen)
{
	*guest_args = xcalloc(n + 1, sizeof(**guest_args));
	if (make_dir(dir, err, errlen) < 0)
		return -1;
	char *bin = xasprintf("%s/reaim", dir);
	int rc = vm_copy_file(reaim, bin, 0755, err, errlen);
	static const char *const helpers[] = {"reaim-exec-helper", "reaim-forker"};
	for (size_t h = 0; h < sizeof(helpers) / sizeof(helpers[0]) && rc == 0; h++) {
		char *helper = find_helper(helpers[h]);
		if (!helper)
			continue;
		char *to = xasprintf("%s/%s", dir, helpers[h]);
		rc = vm_copy_file(helper, to, 0755, err, errlen);
		free(to);
		free(helper);
	}
	if (rc == 0)
		rc = copy_data(dir, err, errlen);
	if (rc == 0)
		rc = copy_named_files(dir, args, n, *guest_args, err, errlen);
	free(bin);
	return rc;
}
