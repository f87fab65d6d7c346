# What LAVA's test shell (and Linaro's test-runner) make of a Lava-Test Test Definition 1.0,
# restated for our tests: the params as shell variables (an override given as -v NAME=VALUE pairs
# in "set", space-separated), then set -e and the run steps, in the tree the definition is in.
# Usage: awk -v tree=DIR -v set="NAME=VALUE ..." -f lava-run.awk DEFINITION.yaml > run.sh
BEGIN {
	n = split(set, kv, " ")
	for (i = 1; i <= n; i++) {
		eq = index(kv[i], "=")
		over[substr(kv[i], 1, eq - 1)] = substr(kv[i], eq + 1)
	}
	print "#!/bin/sh"
}
/^[a-z]/ { section = $1 }
section == "params:" && /^    [A-Z_]+: / {
	name = $1
	sub(/:$/, "", name)
	value = $0
	sub(/^    [A-Z_]+: /, "", value)
	if (name in over)
		value = "\"" over[name] "\""
	print name "=" value
}
section == "run:" && /^        - / {
	step = $0
	sub(/^        - /, "", step)
	steps[++ns] = step
}
END {
	print "set -e"
	print "cd " tree
	for (i = 1; i <= ns; i++)
		print steps[i]
}
