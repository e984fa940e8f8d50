# `decode --raw ... --elf FILE[@BIAS]`: the ELF's PT_LOAD segments are
# the memory image (t1's text segment at 0x20010000 decodes t1, checked
# against test-PCOUT.txt's count); with a bias they move (the same trace
# then finds no code: a no_image gap at the first address; an '@' without
# a number after it belongs to the file's name); a missing
# file, a file that is no ELF and --elf without --raw are refused, naming
# the file and the option, with exit status 1 (failure) or 2 (usage).
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
T="$HWT_TESTDATA/riscv-ntrace/t1"
R="riscv_ntrace,xlen=32,callstack=8:$T/test-NEX.bin"

"$HWTRACE" decode --format jsonl --no-symbols --raw "$R" --elf "$T/test.elf" \
	>"$TMP/out" 2>"$TMP/err"
expect_eq "--elf: exit" $? 0
expect_contains "--elf: the whole run" "$(cat "$TMP/err")" \
	"($(grep -c . "$T/test-PCOUT.txt") instructions)"

"$HWTRACE" decode --format jsonl --no-symbols --raw "$R" --elf "$T/test.elf@0x1000" \
	>"$TMP/out" 2>"$TMP/err"
expect_eq "--elf @0x1000: exit" $? 0
expect_contains "--elf @0x1000: no code where the trace starts" "$(cat "$TMP/out")" \
	'"reason":"no_image","offset":7,"detail":"no code at 0x20010522'
expect_contains "--elf @0x1000: nothing decoded" "$(cat "$TMP/err")" "(0 instructions)"

"$HWTRACE" decode --raw "$R" --elf "$TMP/nothing.elf" >/dev/null 2>"$TMP/err"
expect_eq "missing file: exit" $? 1
expect_contains "missing file: named" "$(cat "$TMP/err")" "--elf $TMP/nothing.elf does not exist"

"$HWTRACE" decode --raw "$R" --elf "$T/test-NEX.bin" >/dev/null 2>"$TMP/err"
expect_eq "not an ELF: exit" $? 1
expect_contains "not an ELF: named" "$(cat "$TMP/err")" "--elf $T/test-NEX.bin: not an ELF file"

"$HWTRACE" decode "$T/test-NEX.bin" --elf "$T/test.elf" >/dev/null 2>"$TMP/err"
expect_eq "--elf without --raw: exit" $? 2
expect_contains "--elf without --raw: said" "$(cat "$TMP/err")" "--map and --elf are for --raw input"
# An '@' not followed by a number is part of the file's name.
cp "$T/test.elf" "$TMP/t1@v2.elf"
"$HWTRACE" decode --raw "$R" --elf "$TMP/t1@v2.elf" >/dev/null 2>"$TMP/err"
expect_eq "a name with @: exit" $? 0
finish
