/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The order of a lab's jobs: on each device every kernel equally often, in ABBA order, so that a
 * device's own speed is a block of the comparison, not noise. */
#include "config.h"

#include <stdlib.h>

#include "lab/lab.h"
#include "util/util.h"
#include "vm/vm.h"

int lab_order(size_t nkernels, size_t ndevices, size_t boots, struct lab_slot *out, char *err, size_t errlen)
{
	if (!nkernels || !ndevices || !boots || boots % (nkernels * ndevices)) {
		set_err(err, errlen, "%zu boots cannot give each of %zu device%s every one of the %zu kernels equally "
			"often: give --boots a multiple of %zu", boots, ndevices, ndevices == 1 ? "" : "s", nkernels,
			nkernels * ndevices);
		return -1;
	}
	size_t per = boots / ndevices, *order = xcalloc(per, sizeof(*order));
	/* reaim vm's ABBA order on every device (its drift argument holds per device), the kernels rotated by
	 * the device's index: devices that run at once run different kernels, so a load they share (one
	 * host, one network) falls on every kernel alike */
	vm_schedule(nkernels, per, VM_ORDER_ABBA, 0, order);
	for (size_t turn = 0; turn < per; turn++)
		for (size_t d = 0; d < ndevices; d++)
			out[turn * ndevices + d] = (struct lab_slot){.device = d, .kernel = (order[turn] + d) % nkernels, .turn = turn};
	free(order);
	return 0;
}
