#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# shell_rtns_3: classic AIM's aim_3 script, a user listing a directory. Run with the
# current directory the task's scratch dir; $1 is classic's load argument (unused here).
# ls exits 1 on minor problems (an entry gone while listing), which is not a failure.
ls -l > /dev/null 2>&1
[ $? -le 1 ]
