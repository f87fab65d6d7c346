# What LKP's aim7 parser reads of multitask's stdout, restated for our tests: the row after
# the "Tasks jobs/min jti ..." heading, its fields 2 to 6 under LKP's metric names.
$0 ~ /Tasks.*jobs\/min.*jti/ {
	if ((getline row) <= 0)
		exit 1
	split(row, f)
	print "jobs-per-min: " f[2]
	print "jti: " f[3]
	print "jobs-per-min-per-task: " f[4]
	print "real: " f[5]
	print "cpu: " f[6]
}
