/* SPDX-License-Identifier: GPL-2.0-or-later */
/* System V IPC objects in use, read from /proc/sysvipc: to pick keys nobody uses, to remove
 * what a run's tasks left when they were killed, and to count what is taken against the limits. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <unistd.h>

#include "util/util.h"

static const char *const sysv_files[] = {"/proc/sysvipc/sem", "/proc/sysvipc/shm", "/proc/sysvipc/msg"};
/* The column holding the object's size: semaphores in a set, bytes of a segment, bytes queued. */
static const char *const size_columns[] = {"nsems", "size", "cbytes"};
static const char *const id_columns[] = {"semid", "shmid", "msqid"};

/* Index of a named column in the header line, or -1. */
static int column_of(const char *header, const char *name)
{
	char *copy = xstrdup(header), *save = NULL;
	int i = 0, found = -1;
	for (char *w = strtok_r(copy, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save), i++)
		if (strcmp(w, name) == 0) {
			found = i;
			break;
		}
	free(copy);
	return found;
}

int sysv_list(enum sysv_kind kind, struct sysv_obj **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	char *text = read_text_file(sysv_files[kind], 64u << 20);
	if (!text)
		return -1;
	char *nl = strchr(text, '\n');
	if (!nl) {
		free(text);
		return 0;
	}
	*nl = '\0';
	int ckey = column_of(text, "key"), cid = column_of(text, id_columns[kind]);
	int ccuid = column_of(text, "cuid"), csize = column_of(text, size_columns[kind]);
	if (ckey < 0 || cid < 0 || ccuid < 0 || csize < 0) {
		free(text);
		errno = EPROTO;
		return -1;
	}
	size_t cap = 0;
	for (char *line = nl + 1, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		struct sysv_obj o = {0};
		char *save = NULL;
		int i = 0, got = 0;
		for (char *w = strtok_r(line, " \t", &save); w; w = strtok_r(NULL, " \t", &save), i++) {
			if (i == ckey)
				o.key = (int32_t)strtoll(w, NULL, 10), got++;
			else if (i == cid)
				o.id = (int)strtol(w, NULL, 10), got++;
			else if (i == ccuid)
				o.cuid = (unsigned)strtoul(w, NULL, 10), got++;
			else if (i == csize)
				o.size = strtoull(w, NULL, 10), got++;
		}
		if (got < 4)
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 16;
			*out = xrealloc(*out, cap * sizeof(**out));
		}
		(*out)[(*n)++] = o;
	}
	free(text);
	return 0;
}

int sysv_remove_keys(int32_t first, int32_t count)
{
	int removed = 0;
	for (int kind = SYSV_SEM; kind <= SYSV_SHM; kind++) {
		struct sysv_obj *objs;
		size_t n;
		if (sysv_list((enum sysv_kind)kind, &objs, &n) < 0)
			continue;
		for (size_t i = 0; i < n; i++) {
			const struct sysv_obj *o = &objs[i];
			if (o->key < first || o->key - first >= count || o->cuid != (unsigned)geteuid())
				continue;
			int rc = kind == SYSV_SEM ? semctl(o->id, 0, IPC_RMID) : shmctl(o->id, IPC_RMID, NULL);
			removed += rc == 0;
		}
		free(objs);
	}
	return removed;
}

int sysv_remove_key(int32_t key)
{
	int removed = 0;
	int id = semget(key, 0, 0);
	struct semid_ds sd;
	union {
		int val;
		struct semid_ds *buf;
	} arg = {.buf = &sd};
	/* only what we created: a key is ours to remove only if its creator is our user */
	if (id >= 0 && semctl(id, 0, IPC_STAT, arg) == 0 && sd.sem_perm.cuid == geteuid() &&
	    semctl(id, 0, IPC_RMID) == 0)
		removed++;
	id = shmget(key, 0, 0);
	struct shmid_ds md;
	if (id >= 0 && shmctl(id, IPC_STAT, &md) == 0 && md.shm_perm.cuid == geteuid() &&
	    shmctl(id, IPC_RMID, NULL) == 0)
		removed++;
	return removed;
}
