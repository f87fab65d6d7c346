/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checks the system counter readers on fake /proc trees: each file's parser on text worked by hand
 * (interrupts summed by device across CPUs, schedstat's run delay, lock_stat's classes, slab bytes,
 * each disk's I/Os of the three diskstats layouts),
 * a source whose file is missing left out, and the changes between two readings with the top N. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "measure/syscount.h"
#include "tap.h"
#include "testfs.h"

static const char vmstat_a[] = "nr_free_pages 1000\npgfault 500\npgpgin 64\nnuma_hit 7\n";
static const char vmstat_b[] = "nr_free_pages 900\npgfault 800\npgpgin 96\nnuma_hit 7\n";

/* vda with flushes (5.5 on), sdb without discards (before 4.18), an idle loop device, a partition */
static const char diskstats_a[] =
	"   7       0 loop0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
	" 254       0 vda 100 10 800 50 200 20 1600 300 1 400 350 0 0 0 0 30 60\n"
	" 254       1 vda1 90 10 700 40 180 20 1500 280 0 380 320 0 0 0 0 0 0\n"
	"   8      16 sdb 5 0 40 2 7 1 56 9 0 11 11\n";
static const char diskstats_b[] =
	"   7       0 loop0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
	" 254       0 vda 110 10 880 55 260 50 2600 500 4 500 600 0 0 0 0 42 90\n"
	" 254       1 vda1 100 10 780 45 240 50 2500 480 0 480 560 0 0 0 0 0 0\n"
	"   8      16 sdb 5 0 40 2 7 1 56 9 0 11 11\n";

static const char interrupts_a[] =
	"           CPU0       CPU1       \n"
	"  1:          9          0   IO-APIC   1-edge      i8042\n"
	" 11:        100         50   PCI-MSI 49152-edge      virtio0-input.0\n"
	" 12:         10         20   PCI-MSI 49153-edge      virtio0-input.0\n"
	" 14:          3          0   IO-APIC-edge  ata_piix\n"
	" 15:          0          0   IO-APIC\n"
	"LOC:       1000       2000   Local timer interrupts\n"
	"ERR:          0\n";
static const char interrupts_b[] =
	"           CPU0       CPU1       \n"
	"  1:          9          0   IO-APIC   1-edge      i8042\n"
	" 11:        130         70   PCI-MSI 49152-edge      virtio0-input.0\n"
	" 12:         15         25   PCI-MSI 49153-edge      virtio0-input.0\n"
	" 14:          4          0   IO-APIC-edge  ata_piix\n"
	" 15:          0          0   IO-APIC\n"
	"LOC:       1500       2600   Local timer interrupts\n"
	"ERR:          2\n";

static const char softirqs_a[] = "                    CPU0       CPU1       \n"
				 "          HI:          1          2\n"
				 "       TIMER:        100        200\n";
static const char softirqs_b[] = "                    CPU0       CPU1       \n"
				 "          HI:          1          2\n"
				 "       TIMER:        150        260\n";

/* version 15: cpuN yld legacy sched_count goidle ttwu ttwu_local rq_cpu_time run_delay pcount */
static const char schedstat_a[] = "version 15\ntimestamp 4295\n"
				  "cpu0 0 0 10 2 5 3 1000 400 9\ndomain0 3 1 2 3\n"
				  "cpu1 0 0 10 2 5 3 2000 600 11\n";
static const char schedstat_b[] = "version 15\ntimestamp 4395\n"
				  "cpu0 0 0 20 2 5 3 1500 700 19\ndomain0 3 1 2 3\n"
				  "cpu1 0 0 20 2 5 3 2600 1000 21\n";

static const char lockstat_a[] =
	"lock_stat version 0.4\n"
	"-----------------------------------------------------------\n"
	"                              class name    con-bounces    contentions   waittime-min   waittime-max "
	"waittime-total   waittime-avg    acq-bounces   acquisitions   holdtime-min   holdtime-max holdtime-total   "
	"holdtime-avg\n"
	"-----------------------------------------------------------\n"
	"\n"
	"                  &mm->mmap_lock-W:            20             26           0.24          12.50          "
	"76.33           2.94            480           6060           0.14          57.34        6297.84           1.04\n"
	"                  &mm->mmap_lock-R:             1              2           0.10           1.00           "
	"1.50           0.75             10            100           0.14           1.00          10.00           0.10\n"
	"                  ---------------\n"
	"                  &mm->mmap_lock             12          [<ffffffff81234567>] do_user_addr_fault+0x1b0/0x600\n"
	"                  key#3:             0              0           0.00           0.00           "
	"0.00           0.00              0              5           0.14           1.00          10.00           0.10\n";
static const char lockstat_b[] =
	"lock_stat version 0.4\n"
	"                  &mm->mmap_lock-W:            30             40           0.24          12.50          "
	"100.33           2.94            480           6060           0.14          57.34        6297.84           1.04\n"
	"                  &mm->mmap_lock-R:             1              2           0.10           1.00           "
	"1.50           0.75             10            100           0.14           1.00          10.00           0.10\n"
	"                  key#3:             0              0           0.00           0.00           "
	"0.00           0.00              0              5           0.14           1.00          10.00           0.10\n";

static const char slab_head[] = "slabinfo - version: 2.1\n"
				"# name            <active_objs> <num_objs> <objsize> <objperslab> <pagesperslab> : "
				"tunables <limit> <batchcount> <sharedfactor> : slabdata <active_slabs> <num_slabs> "
				"<sharedavail>\n";

static double value_of(const struct syscount_set *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->v[i].name, name) == 0)
			return s->v[i].value;
	return -1;
}

static const struct syscount_row *row_of(const struct syscount_row *r, size_t n, const char *source, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(r[i].source, source) == 0 && strcmp(r[i].name, name) == 0)
			return &r[i];
	return NULL;
}

static void parsers(void)
{
	struct syscount_set s = {0};
	ok(syscount_parse(SYSCOUNT_INTERRUPTS, interrupts_a, &s) == 0, "interrupts parse");
	is_near(value_of(&s, "virtio0-input.0"), 180, 0, "two IRQ lines of one device, both CPUs: 100+50+10+20");
	is_near(value_of(&s, "i8042"), 9, 0, "an IRQ named by its device");
	is_near(value_of(&s, "ata_piix"), 3, 0, "an older kernel's chip-and-type word");
	is_near(value_of(&s, "irq15"), 0, 0, "an IRQ without a device is named by its number");
	is_near(value_of(&s, "LOC"), 3000, 0, "a named kind by its key, summed over CPUs");
	is_near(value_of(&s, "ERR"), 0, 0, "a one-column line");
	free(s.v);
	s = (struct syscount_set){0};
	ok(syscount_parse(SYSCOUNT_SCHEDSTAT, schedstat_a, &s) == 0, "schedstat parse");
	is_near(value_of(&s, "run_delay_ns"), 1000, 0, "run delay: field 8 of each cpu line, summed");
	is_near(value_of(&s, "rq_cpu_time_ns"), 3000, 0, "run time: field 7");
	is_near(value_of(&s, "timeslices"), 20, 0, "timeslices: field 9");
	free(s.v);
	s = (struct syscount_set){0};
	ok(syscount_parse(SYSCOUNT_LOCKSTAT, lockstat_a, &s) == 0, "lock_stat parse");
	is_near(value_of(&s, "&mm->mmap_lock-W"), 26, 0, "a class's contentions (the second number)");
	is_near(value_of(&s, "key#3"), 0, 0, "a class name holding '#'");
	is_near(value_of(&s, "total.contentions"), 28, 0, "contentions over every class");
	is_near(value_of(&s, "total.wait_us"), 77.83, 1e-9, "wait time over every class (us)");
	is_near(value_of(&s, "&mm->mmap_lock"), -1, 0, "a contention point's line is not a class");
	free(s.v);
	s = (struct syscount_set){0};
	ok(syscount_parse(SYSCOUNT_DISKSTATS, diskstats_a, &s) == 0, "diskstats parse");
	is_near(value_of(&s, "vda.writes_merged"), 20, 0, "a disk's merged writes (field 6)");
	is_near(value_of(&s, "vda.write_kib"), 800, 0, "sectors written as KiB (1600 / 2)");
	is_near(value_of(&s, "vda.queue_ms"), 350, 0, "the weighted time in queue (field 11)");
	is_near(value_of(&s, "vda.flushes"), 30, 0, "flushes (field 16, kernels from 5.5)");
	is_near(value_of(&s, "vda1.reads"), 90, 0, "a partition is a device of its own");
	is_near(value_of(&s, "sdb.io_ms"), 11, 0, "the 11-field layout of older kernels");
	is_near(value_of(&s, "sdb.flushes"), -1, 0, "which has no flushes");
	is_near(value_of(&s, "loop0.reads"), -1, 0, "a device that never did I/O has no rows");
	size_t gauges = 0;
	for (size_t i = 0; i < s.n; i++)
		gauges += strstr(s.v[i].name, "flight") != NULL;
	is_int((long)gauges, 0, "the in-flight gauge is left out");
	free(s.v);
	s = (struct syscount_set){0};
	ok(syscount_parse(SYSCOUNT_DISKSTATS, "vda 1 2 3\n", &s) < 0, "diskstats of another format refused");
	ok(syscount_parse(SYSCOUNT_LOCKSTAT, "nothing like it\n", &s) < 0, "lock_stat of another format refused");
	ok(syscount_parse(SYSCOUNT_SLABINFO, "slabinfo - version: 1.1\n", &s) < 0, "slabinfo 1.x refused");
	ok(syscount_parse(SYSCOUNT_SCHEDSTAT, "version 15\n", &s) < 0, "schedstat without cpu lines refused");
	ok(syscount_parse(SYSCOUNT_INTERRUPTS, "", &s) < 0, "interrupts without a CPU header refused");
	free(s.v);
}

/* A fake /proc with every file of one moment (slab caches given as text). */
static void put_tree(const char *root, int later, const char *slabs)
{
	char *slab = xasprintf("%s%s", slab_head, slabs);
	mkdir(root, 0700);
	test_put(root, "vmstat", later ? vmstat_b : vmstat_a);
	test_put(root, "interrupts", later ? interrupts_b : interrupts_a);
	test_put(root, "softirqs", later ? softirqs_b : softirqs_a);
	test_put(root, "schedstat", later ? schedstat_b : schedstat_a);
	test_put(root, "lock_stat", later ? lockstat_b : lockstat_a);
	test_put(root, "slabinfo", slab);
	test_put(root, "diskstats", later ? diskstats_b : diskstats_a);
	free(slab);
}

static void deltas(const char *base)
{
	char *ra = xasprintf("%s/a", base), *rb = xasprintf("%s/b", base);
	put_tree(ra, 0, "dentry 100 100 192 21 1 : tunables 0 0 0 : slabdata 5 5 0\n"
			"kmalloc-64 10 10 64 64 1 : tunables 0 0 0 : slabdata 1 1 0\n"
			"gone 1 1 1000 1 1 : tunables 0 0 0 : slabdata 1 1 0\n"
			"still 1 1 50 1 1 : tunables 0 0 0 : slabdata 1 1 0\n");
	put_tree(rb, 1, "dentry 200 200 192 21 1 : tunables 0 0 0 : slabdata 10 10 0\n"
			"kmalloc-64 20 20 64 64 1 : tunables 0 0 0 : slabdata 1 1 0\n"
			"new 3 3 100 1 1 : tunables 0 0 0 : slabdata 1 1 0\n"
			"still 1 1 50 1 1 : tunables 0 0 0 : slabdata 1 1 0\n");
	struct syscount_reading a, b;
	syscount_read(ra, &a);
	syscount_read(rb, &b);
	is_int(a.have, (1u << SYSCOUNT_NSOURCES) - 1, "every source read from the fake tree");
	size_t n;
	struct syscount_row *r = syscount_delta(&a, &b, 2, &n);
	const struct syscount_row *x;
	ok((x = row_of(r, n, "vmstat", "pgfault")) && x->value == 300 && strcmp(x->unit, "events") == 0,
	   "vmstat pgfault: 300 events");
	ok((x = row_of(r, n, "vmstat", "nr_free_pages")) && x->value == -100 && strcmp(x->unit, "pages") == 0,
	   "a gauge's change may be negative, in pages");
	ok((x = row_of(r, n, "vmstat", "pgpgin")) && strcmp(x->unit, "KiB") == 0, "pgpgin counts KiB");
	ok((x = row_of(r, n, "vmstat", "numa_hit")) && x->value == 0, "an unchanged vmstat counter is kept (0)");
	ok((x = row_of(r, n, "interrupts", "virtio0-input.0")) && x->value == 60, "interrupts by device, both lines and CPUs: 240 - 180");
	ok((x = row_of(r, n, "interrupts", "LOC")) && x->value == 1100, "LOC: 500 + 600");
	ok((x = row_of(r, n, "softirqs", "TIMER")) && x->value == 110, "softirqs TIMER: 50 + 60");
	ok((x = row_of(r, n, "schedstat", "run_delay_ns")) && x->value == 700 && strcmp(x->unit, "ns") == 0,
	   "run delay 300 + 400 ns");
	ok((x = row_of(r, n, "lock_stat", "total.contentions")) && x->value == 14, "lock_stat total contentions +14");
	ok((x = row_of(r, n, "lock_stat", "&mm->mmap_lock-W")) && x->value == 14, "the class that moved");
	ok(!row_of(r, n, "lock_stat", "key#3"), "a class that did not move is left out");
	ok((x = row_of(r, n, "slabinfo", "dentry")) && x->value == 19200 && strcmp(x->unit, "bytes") == 0,
	   "the largest slab change first: dentry +19200 bytes");
	ok((x = row_of(r, n, "slabinfo", "gone")) && x->value == -1000, "a cache that went: -1000 bytes");
	ok(!row_of(r, n, "slabinfo", "kmalloc-64") && !row_of(r, n, "slabinfo", "new") &&
	   !row_of(r, n, "slabinfo", "still"), "only the top 2 slab changes are kept");
	ok((x = row_of(r, n, "diskstats", "vda.writes_merged")) && x->value == 30 && strcmp(x->unit, "I/Os") == 0,
	   "diskstats: vda merged 30 more writes");
	ok((x = row_of(r, n, "diskstats", "vda.write_ms")) && x->value == 200 && strcmp(x->unit, "ms") == 0,
	   "diskstats: 200 ms more writing");
	ok((x = row_of(r, n, "diskstats", "vda.write_kib")) && x->value == 500 && strcmp(x->unit, "KiB") == 0,
	   "diskstats: 500 KiB more written");
	ok((x = row_of(r, n, "diskstats", "sdb.reads")) && x->value == 0, "an idle disk's counters are kept (0)");
	free(r);
	syscount_reading_free(&b);

	/* a machine without lock_stat and (as a user) without slabinfo: those sources are left out */
	char *rc = xasprintf("%s/c", base);
	mkdir(rc, 0700);
	test_put(rc, "vmstat", vmstat_b);
	syscount_read(rc, &b);
	is_int(b.have, 1u << SYSCOUNT_VMSTAT, "only the files present are read");
	r = syscount_delta(&a, &b, 2, &n);
	ok(n == 4 && row_of(r, n, "vmstat", "pgfault") && !row_of(r, n, "slabinfo", "dentry"),
	   "changes only for the sources both readings have");
	free(r);
	syscount_reading_free(&a);
	syscount_reading_free(&b);
	free(ra);
	free(rb);
	free(rc);
}

int main(void)
{
	tap_case(parsers);
	char base[] = "/tmp/reaim-syscount-XXXXXX";
	if (!mkdtemp(base)) {
		skip("fake /proc trees", "mkdtemp failed");
		return done_testing();
	}
	tap_case(deltas, base);
	if (remove_tree(base) < 0)
		printf("# could not remove %s\n", base);
	return done_testing();
}
