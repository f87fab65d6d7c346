/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Environment facts about the kernel and what shapes a point: its config, preemption model, SMT and
 * boost, the cgroup limits reaim starts under, the vm writeback and memory knobs, and each disk
 * dir's queue settings. Every reader takes a root ("" for the machine, a fake tree in tests). */
#ifndef REAIM_MEASURE_ENV_FACTS_H
#define REAIM_MEASURE_ENV_FACTS_H

#include <stddef.h>

struct env_list;

/* The kernel's build configuration: ROOT/proc/config.gz (decompressed), else
 * ROOT/boot/config-RELEASE; NULL when neither can be read. */
char *env_facts_kernel_config(const char *root, const char *release);
/* The fact stored for a config text: "fnv1a64:" and 16 hex digits of its hash. */
char *env_facts_config_hash(const char *config);
/* The preemption model: the running one from ROOT/sys/kernel/debug/sched/preempt where readable,
 * else the config's (with " (dynamic)" when the model can be changed at boot); NULL if unknown. */
char *env_facts_preempt(const char *root, const char *config);

/* cpu.smt_control (ROOT/sys/devices/system/cpu/smt/control) and cpu.boost (cpufreq/boost, or
 * intel_pstate's no_turbo turned around: "on" or "off"). */
void env_facts_cpu(struct env_list *env, const char *root);
/* vm.dirty_ratio, dirty_background_ratio, dirty_bytes, dirty_background_bytes,
 * dirty_expire_centisecs, swappiness, overcommit_memory (ROOT/proc/sys/vm). */
void env_facts_vm(struct env_list *env, const char *root);
/* The limits of the cgroup this process is in (ROOT/proc/self/cgroup and mountinfo), cgroup2's as
 * cgroup.<file> and v1's as cgroup.v1.<file>: for each, the nearest value set walking up from our
 * cgroup to its hierarchy's root, or the value meaning no limit ("max", "-1", "") where none is. */
void env_facts_cgroup(struct env_list *env, const char *root);
/* PREFIX.<setting> for each queue setting in QUEUE_DIR (a block device's queue directory). */
void env_facts_queue(struct env_list *env, const char *prefix, const char *queue_dir);
/* The queue directory of the block device holding DIR under ROOT/sys (a partition's is its
 * disk's), or NULL. */
char *env_facts_queue_dir(const char *root, const char *dir);

/* Every fact above for the machine, with kernel.config (the hash) and sched.preempt, and each
 * disk dir's queue as dirN.*; *config gets the config text (NULL when unreadable) for the run
 * to store once. */
void env_facts_collect(struct env_list *env, char *const *dirs, size_t ndirs, char **config);

#endif
