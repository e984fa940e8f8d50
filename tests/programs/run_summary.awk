# `make run`'s summary of a decoded capture (hwtrace decode --format jsonl).
/"type":"range"/ {
	ranges++
	s = $0; sub(/.*"insns":/, "", s); sub(/[,}].*/, "", s); insns += s
}
/"type":"branch"/ {
	branches++
	k = $0; sub(/.*"kind":"/, "", k); sub(/".*/, "", k); kind[k]++
}
/"type":"gap"/ { gaps++ }
/"type":"error"/ { errors++ }
END {
	printf "  %d instructions in %d straight-line ranges, %d taken branches\n", insns, ranges, branches
	printf "  branches by kind:"
	n = split("call return cond jump indirect syscall sysret interrupt exception eret", order, " ")
	for (i = 1; i <= n; i++)
		if (kind[order[i]])
			printf " %s %d", order[i], kind[order[i]]
	printf "\n  %d gaps, %d errors (lost or undecodable trace is always shown)\n", gaps, errors
	if (branches)
		printf "  %.1f instructions per taken branch\n", insns / branches
}
