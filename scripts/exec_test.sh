#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# exec_test: classic AIM's "true" program, which exec_test runs: a shell that lists its
# directory (the task's scratch dir) and exits 0 whatever ls said.
ls -l > /dev/null 2>&1
exit 0
