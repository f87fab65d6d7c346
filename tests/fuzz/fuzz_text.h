/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by the fuzz harnesses: the fuzzer's bytes as a NUL-terminated string. */
#ifndef REAIM_TESTS_FUZZ_FUZZ_TEXT_H
#define REAIM_TESTS_FUZZ_FUZZ_TEXT_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static inline char *fuzz_text(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (text) {
		memcpy(text, data, size);
		text[size] = '\0';
	}
	return text;
}

#endif
