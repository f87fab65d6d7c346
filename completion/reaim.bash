# bash completion for reaim: commands, each command's options, suite and workfile names,
# test names and the labels of stored runs. The candidates come from `reaim __complete`,
# which reads the same option tables as the parser, so completion cannot drift from it.

_reaim()
{
	local cur=${COMP_WORDS[COMP_CWORD]} bin=${COMP_WORDS[0]} kind
	local -a out
	# the reaim being completed: as typed (./reaim, a path), with a leading ~/ expanded
	[[ $bin == "~/"* ]] && bin=$HOME/${bin#"~/"}
	mapfile -t out < <("$bin" __complete -- "$COMP_CWORD" "${COMP_WORDS[@]}" 2>/dev/null)
	kind=${out[0]-}
	[[ $cur == "=" ]] && cur=""
	COMPREPLY=()
	case $kind in
	files)
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		;;
	dirs)
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -d -- "$cur")
		;;
	words)
		COMPREPLY=("${out[@]:1}")
		;;
	esac
	return 0
}
complete -F _reaim reaim ./reaim
