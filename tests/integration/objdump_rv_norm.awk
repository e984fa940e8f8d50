# An `objdump -d -M no-aliases` listing of RISC-V code as hwt_insn_format
# writes it: "ADDR<tab>MNEMONIC OPERANDS", direct targets as 0x-prefixed
# addresses, without objdump's symbol names and "# ..." comments
# (test_riscv_insn_matches_objdump).
BEGIN { FS = "\t" }
/^ *[0-9a-f]+:\t[0-9a-f]+ +\t/ {
	addr = $1; sub(/^ */, "", addr); sub(/:$/, "", addr)
	ops = $4
	sub(/ #.*$/, "", ops)
	if (match(ops, /[0-9a-f]+ <[^>]*>$/)) {
		t = substr(ops, RSTART, RLENGTH); sub(/ <.*/, "", t)
		ops = substr(ops, 1, RSTART - 1) "0x" t
	}
	text = $3
	sub(/[ \t]+$/, "", text)
	if (ops != "") text = text " " ops
	print addr "\t" text
}
