# What LKP's aim9 parser reads of singleuser's stdout, restated for our tests: a row that
# starts with blanks and a test number and has a figure is "NAME.ops_per_sec: <field 6>"; a
# row saying Skipping is "NAME.skip: 1" and ends the parse with status 1.
/^ +[0-9]+ .* Skipping/ {
	print $2 ".skip: 1"
	exit 1
}
/^ +[0-9]+ .* [0-9.]+/ {
	print $2 ".ops_per_sec: " $6
}
