#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# shell_rtns_2: classic AIM's aim_2 script: it sleeps 5 s when its load argument is below
# 10 and 1 s otherwise. Classic always passed 9, and so does reaim, so a call lasts 5 s.
if [ $# -lt 1 ]; then
	exit 0
fi
if [ "$1" -lt 10 ]; then
	sleep 5
else
	sleep 1
fi
