/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer harness for the suite parser (libconfig text into a plan). */
#include "config.h"

#include "config/cfg.h"
#include "fuzz_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	if (!text)
		return 0;
	struct plan p;
	struct errlist errs = {0};
	plan_from_suite_text(FUZZ_SUITE_PATH, text, NULL, &p, &errs);
	plan_free(&p);
	errlist_free(&errs);
	free(text);
	return 0;
}
