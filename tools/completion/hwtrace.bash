# bash completion for hwtrace(1): subcommands, options, INI profiles, trace
# PMU names and CoreSight @sink names, read from sysfs (or from the tree
# given with --sysfs on the same command line).

# The sysfs root the command line names, else /sys.
_hwtrace_sysfs()
{
	local i
	for ((i = 1; i < ${#COMP_WORDS[@]}; i++)); do
		case ${COMP_WORDS[i]} in
		--sysfs) echo "${COMP_WORDS[i + 1]:-/sys}"; return ;;
		--sysfs=*) echo "${COMP_WORDS[i]#--sysfs=}"; return ;;
		esac
	done
	echo /sys
}

# The AUX-capable PMUs of the machine (those with an AUX format hwtrace
# can drive, and any PMU with caps or sinks), plus the software tracer.
_hwtrace_pmus()
{
	local root dir name
	root="$(_hwtrace_sysfs)/bus/event_source/devices"
	for dir in "$root"/*; do
		[ -d "$dir" ] || continue
		name=${dir##*/}
		case $name in
		intel_pt | intel_bts | cs_etm | arm_spe* | *etm*) echo "$name" ;;
		esac
	done
	echo sw_branch
}

_hwtrace_sinks()
{
	local dir
	for dir in "$(_hwtrace_sysfs)"/bus/event_source/devices/cs_etm/sinks/*; do
		[ -e "$dir" ] && echo "${dir##*/}"
	done
}

# Files ending in .ini, and directories to descend into.
_hwtrace_ini()
{
	local IFS=$'\n'
	COMPREPLY=($(compgen -d -S / -- "$1") $(compgen -f -X '!*.ini' -- "$1"))
	compopt -o nospace 2>/dev/null
}

_hwtrace()
{
	local cur=${COMP_WORDS[COMP_CWORD]}
	local prev=${COMP_WORDS[COMP_CWORD - 1]}
	local cmd opts="" first=1
	COMPREPLY=()

	# Global options before the command: --plugin FILE, any number.
	while [[ ${COMP_WORDS[first]:-} == --plugin ]] && ((first + 1 < COMP_CWORD)); do
		first=$((first + 2))
	done
	if [[ $prev == --plugin ]] && ((COMP_CWORD == first + 1)); then
		local IFS=$'\n'
		COMPREPLY=($(compgen -d -S / -- "$cur") $(compgen -f -X '!*.so' -- "$cur"))
		compopt -o nospace 2>/dev/null
		return
	fi
	cmd=${COMP_WORDS[first]:-}
	if ((COMP_CWORD == first)); then
		COMPREPLY=($(compgen -W "list config record decode dump info report annotate timeline view export units merge cluster --version --help --plugin" -- "$cur"))
		return
	fi
	# Positions below count from the command.
	local cword=$((COMP_CWORD - first + 1))
	case $cmd in
	record)
		case $prev in
		-c | --config) _hwtrace_ini "$cur"; return ;;
		-e | --event)
			case $cur in
			*/@*)
				local head=${cur%@*}
				COMPREPLY=($(compgen -P "$head@" -S / -W "$(_hwtrace_sinks)" -- "${cur##*@}"))
				compopt -o nospace 2>/dev/null
				;;
			*) COMPREPLY=($(compgen -W "$(_hwtrace_pmus)" -- "$cur")) ;;
			esac
			return
			;;
		--sink) COMPREPLY=($(compgen -W "$(_hwtrace_sinks)" -- "$cur")); return ;;
		--sysfs) COMPREPLY=($(compgen -d -- "$cur")); return ;;
		-o | --output | --emulate | --emulate-trace | --emulate-branches)
			COMPREPLY=($(compgen -f -- "$cur")); return ;;
		# Branch records: perf record -j's filter names, comma-separated.
		-j | --branch-filter)
			local head=
			[[ $cur == *,* ]] && head=${cur%,*},
			COMPREPLY=($(compgen -P "$head" -W "any any_call any_ret ind_call
				call cond ind_jmp u k hv save_type priv hw_index counter
				no_flags no_cycles stack abort_tx in_tx no_tx" -- "${cur##*,}"))
			compopt -o nospace 2>/dev/null
			return
			;;
		# sw_branch's flight recorder: the kinds of trigger.
		--trigger)
			COMPREPLY=($(compgen -W "symbol: latency: signal:" -- "$cur"))
			compopt -o nospace 2>/dev/null
			return
			;;
		esac
		opts="-c --config -e --event --sink --filter -S --snapshot
		      --snapshot-interval --control --aux-sample -m --mmap-pages
		      -a --all-cpus -C --cpu -p --pid --per-thread -o --output -z
		      --compression-level --compress-aux --keep-partial --emulate --emulate-rate
		      --emulate-lossless --sysfs --emulate-trace --emulate-tsc
		      --start --stop --max -q --quiet --trigger --trigger-count --trigger-after --tid
		      -b --branch-any -j --branch-filter --count -F --freq --emulate-branches
		      -h --help"
		;;
	decode)
		case $prev in
		--format) COMPREPLY=($(compgen -W "text jsonl" -- "$cur")); return ;;
		--symfs | --buildid-dir | --kcore | --snapshot) COMPREPLY=($(compgen -d -- "$cur")); return ;;
		-o | --vmlinux | --map | --elf) COMPREPLY=($(compgen -f -- "$cur")); return ;;
		--comm | --sym) return ;;
		--dso) COMPREPLY=($(compgen -f -- "$cur")); return ;;
		-F | --fields)
			local done=${cur%"${cur##*,}"}
			COMPREPLY=($(compgen -P "$done" -W "comm tid pid cpu time flags ip sym symoff dso addr insn srcline" -- "${cur##*,}"))
			return ;;
		esac
		opts="--format -o -F --fields --comm --dso --sym --packets --disasm --branch-profile --virtual-lbr --edges
		      --edges-bitmap --partial --unit --calls
		      --per-cpu -j --jobs --ignore-build-ids --isolate --no-isolate
		      --isolate-timeout --tid --cpu --cpu-model --time
		      --raw --map --elf --snapshot --symfs --buildid-dir --vmlinux --kcore
		      --srcline --no-demangle --no-symbols --debuginfod --kallsyms
		      --perf-map -q --quiet -h --help"
		;;
	report | timeline | view | export | annotate)
		case $prev in
		--to) COMPREPLY=($(compgen -W "sqlite pprof postgresql autofdo bolt bolt-preagg" -- "$cur")); return ;;
		--db) return ;;
		--format)
			if [ "$cmd" = annotate ]; then
				COMPREPLY=($(compgen -W "text jsonl" -- "$cur"))
			else
				COMPREPLY=($(compgen -W "perfetto chrome" -- "$cur"))
			fi
			return ;;
		--weight) COMPREPLY=($(compgen -W "insns time calls" -- "$cur")); return ;;
		--sort)
			# KEY[,KEY...]: complete the key after the last comma.
			local done_keys=${cur%"${cur##*,}"}
			COMPREPLY=($(compgen -P "$done_keys" -W "self total children calls dso sym" -- "${cur##*,}"))
			return ;;
		--symfs | --buildid-dir | --kcore | --perf-map) COMPREPLY=($(compgen -d -- "$cur")); return ;;
		-o | --output | --vmlinux | --kallsyms) COMPREPLY=($(compgen -f -- "$cur")); return ;;
		--callers | --callees | --comm | --sym) return ;;
		--dso) COMPREPLY=($(compgen -f -- "$cur")); return ;;
		esac
		opts="-o --output --per-cpu --tid --cpu --time --symfs --buildid-dir
		      --vmlinux --kcore --virtual-lbr --srcline --no-demangle --no-symbols
		      --debuginfod --kallsyms --perf-map -h --help"
		# The frame filters (report, timeline, export).
		case $cmd in report | timeline | export) opts="$opts --comm --dso --sym" ;; esac
		if [ "$cmd" = annotate ]; then
			opts="-o --output --format --tid --cpu --time --symfs --buildid-dir
			      --vmlinux --kcore --no-demangle --debuginfod --kallsyms
			      --perf-map -h --help"
		elif [ "$cmd" = report ]; then
			opts="$opts --collapsed --weight --top --callers --callees
			      --call-graph --per-thread --children --no-children
			      --sort --partial --unit"
		elif [ "$cmd" = export ]; then
			opts="$opts --to --replace --no-labels --db --partial --columns -j --jobs"
		elif [ "$cmd" = view ]; then
			opts="${opts/ --srcline/} --timeline-pixels -j --jobs"
		else
			opts="$opts --format --min-duration --max-depth"
		fi
		;;
	config)
		if ((cword == 2)); then
			COMPREPLY=($(compgen -W "check" -- "$cur"))
			return
		fi
		case $prev in
		-e) COMPREPLY=($(compgen -W "$(_hwtrace_pmus)" -- "$cur")); return ;;
		--sysfs) COMPREPLY=($(compgen -d -- "$cur")); return ;;
		--set | --filter) return ;;
		esac
		if [[ $cur != -* ]]; then
			_hwtrace_ini "$cur"
			return
		fi
		opts="--sysfs -e --set --filter -h --help"
		;;
	list)
		[[ $prev == --sysfs ]] && { COMPREPLY=($(compgen -d -- "$cur")); return; }
		opts="--sysfs -h --help"
		;;
	dump) opts="--hex --raw --header-only -h --help" ;;
	cluster)
		case $prev in
		--to) COMPREPLY=($(compgen -W "report collapsed edges autofdo bolt bolt-preagg pprof sqlite branch-profile" -- "$cur")); return ;;
		--weight) COMPREPLY=($(compgen -W "insns time calls" -- "$cur")); return ;;
		--scheduler | --local | --top | --fanin) return ;;
		-o | --output) COMPREPLY=($(compgen -f -- "$cur")); return ;;
		esac
		opts="--scheduler --local --to -o --output --top --weight --fanin -h --help"
		;;
	units)
		[[ $prev == -o ]] && { COMPREPLY=($(compgen -f -- "$cur")); return; }
		opts="-o -h --help"
		;;
	merge)
		case $prev in
		--kind) COMPREPLY=($(compgen -W "report collapsed edges autofdo bolt bolt-preagg pprof sqlite branch-profile" -- "$cur")); return ;;
		--weight) COMPREPLY=($(compgen -W "insns time calls" -- "$cur")); return ;;
		--format) COMPREPLY=($(compgen -W "text jsonl" -- "$cur")); return ;;
		--top) return ;;
		-o | --output) COMPREPLY=($(compgen -f -- "$cur")); return ;;
		esac
		opts="--kind --partial --weight --top --format -o --output -h --help"
		;;
	info)
		[[ $prev == --symfs ]] && { COMPREPLY=($(compgen -d -- "$cur")); return; }
		opts="--symfs -h --help"
		;;
	*) return ;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$opts" -- "$cur"))
	else
		COMPREPLY=($(compgen -f -- "$cur"))
	fi
}
complete -F _hwtrace hwtrace
