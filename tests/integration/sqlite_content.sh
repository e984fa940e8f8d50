# Shared by the partial-result tests (sourced after lib.sh, not a test
# itself): the rows of an export's SQLite database with every id replaced
# by what it names, read by sqlite3, one line a row, sorted, so that two
# databases that number the same rows differently read the same.
# sqlite_content DB: samples (thread, comm, binaries, symbols, addresses,
# time, call path as its chain of symbols and addresses from the root),
# calls (thread, call path, times, counts, its call and return samples'
# addresses and times, its caller's path and call time), context
# switches (threads and comms by name) when the table is there.
sqlite_content() {
	local db=$1
	local chain="WITH RECURSIVE chain(id, txt) AS (SELECT 1, ''
		UNION ALL SELECT cp.id, chain.txt || '/' || coalesce(sy.name, '?') || '@' || cp.ip
		FROM call_paths cp JOIN chain ON cp.parent_id = chain.id
		JOIN symbols sy ON sy.id = cp.symbol_id WHERE cp.id > 1)"
	sqlite3 "$db" "$chain
		SELECT 'sample', t.pid, t.tid, c.comm, d.long_name, d.build_id, y.name,
			y.sym_start, y.sym_end, s.sym_offset, s.ip, s.time, s.cpu,
			td.long_name, ty.name, s.to_sym_offset, s.to_ip, s.branch_type,
			s.in_tx, ch.txt, s.insn_count, s.cyc_count, s.flags
		FROM samples s JOIN threads t ON t.id = s.thread_id
		JOIN comms c ON c.id = s.comm_id JOIN dsos d ON d.id = s.dso_id
		JOIN symbols y ON y.id = s.symbol_id JOIN dsos td ON td.id = s.to_dso_id
		JOIN symbols ty ON ty.id = s.to_symbol_id
		JOIN chain ch ON ch.id = s.call_path_id WHERE s.id > 0;" | sort
	sqlite3 "$db" "$chain
		SELECT 'call', t.pid, t.tid, c.comm, ch.txt, k.call_time, k.return_time,
			k.branch_count, cs.ip, cs.to_ip, cs.time, rs.ip, rs.to_ip, rs.time,
			pch.txt, k.flags, coalesce(pk.call_time, '-'), k.insn_count, k.cyc_count,
			c.has_calls
		FROM calls k JOIN threads t ON t.id = k.thread_id
		JOIN comms c ON c.id = k.comm_id JOIN chain ch ON ch.id = k.call_path_id
		JOIN samples cs ON cs.id = k.call_id JOIN samples rs ON rs.id = k.return_id
		JOIN chain pch ON pch.id = k.parent_call_path_id
		LEFT JOIN calls pk ON pk.id = k.parent_id AND k.parent_id > 0
		WHERE k.id > 0;" | sort
	if [ "$(sqlite3 "$db" "SELECT count(*) FROM sqlite_master WHERE name = 'context_switches'")" = 1 ]; then
		sqlite3 "$db" "SELECT 'switch', w.time, w.cpu, o.tid, co.comm, i.tid, ci.comm, w.flags
			FROM context_switches w LEFT JOIN threads o ON o.id = w.thread_out_id
			LEFT JOIN comms co ON co.id = w.comm_out_id
			LEFT JOIN threads i ON i.id = w.thread_in_id
			LEFT JOIN comms ci ON ci.id = w.comm_in_id;" | sort
	fi
}
