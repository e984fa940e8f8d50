# Inputs of the wrong kind and option values out of range, as a table:
# each row is a command, the exit status it must end with (2: a usage
# error, 1: a failure) and a fragment its message must hold. A FIFO with
# no writer never blocks (every row runs under a timeout, and a hang is a
# failure of its own), a directory, a FIFO or a device where a file is
# meant is named as such, and every option value that was accepted
# without a word (or called "no such file") is refused naming the option
# and what is valid. No input file changes (checksums before and after).
# Each row failed before: it hung, exited 0, or said something else.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
SS="$HWT_TESTDATA/opencsd"
ETM="$SS/a57_single_step/CSTMC_TRACE_FIFO.bin"
PTT="$HWT_TESTDATA/ptt/expected"
SYSFS="$HWT_SOURCE_DIR/tests/fixtures/sysfs/intel-client"
Q="$HWT_TESTDATA/perf-data/quipper/perf.data.intel_pt-4.14"

cd "$TMP" || exit 1
mkfifo f.fifo f.ini
printf 'code' > code.bin
mkdir adir
# Snapshots that name a FIFO: as their trace.ini, as their trace buffer.
cp -r "$SS/a57_single_step" snap_ini && rm snap_ini/trace.ini && mkfifo snap_ini/trace.ini
cp -r "$SS/a57_single_step" snap_buf && rm snap_buf/CSTMC_TRACE_FIFO.bin &&
	mkfifo snap_buf/CSTMC_TRACE_FIFO.bin
# A trace ID register that names no stream, a buffer format OpenCSD has
# no such name for.
cp -r "$SS/a57_single_step" snap_id
sed -i 's/^TRCTRACEIDR(id:0x10)=.*/TRCTRACEIDR(id:0x10)=0xFFFFFFFF/' snap_id/device2.ini
cp -r "$SS/a57_single_step" snap_fmt
sed -i 's/^format=coresight/format=bogus/' snap_fmt/trace.ini
printf 'backend = intel_pt\n[session]\nmode = full\n' > early.ini

inputs() { md5sum "$ETM" "$PTT/loop-tnt.pt" "$Q" code.bin early.ini \
	snap_id/device2.ini snap_fmt/trace.ini | sort; }
inputs > sums.before

# row EXIT FRAGMENT ARGS...: run hwtrace ARGS (60 s at most).
row() {
	local want=$1 frag=$2
	shift 2
	timeout 60 "$HWTRACE" "$@" >out.txt 2>err.txt </dev/null
	local rc=$?
	if [ "$rc" = 124 ]; then
		fail "hwtrace $*: hung (killed after 60 s)"
		return
	fi
	expect_eq "hwtrace $*: exit" "$rc" "$want"
	expect_contains "hwtrace $*: message" "$(cat err.txt)" "$frag"
}

RAW=cs_etm,etmv4,traceid=0x10
# Item 6: FIFOs with no writer.
row 2 "trace file f.fifo is a FIFO, not a regular file" \
	decode --raw "cs_etm,etmv4:f.fifo"
row 1 "snap_ini/trace.ini is a FIFO, not a regular file" decode --snapshot snap_ini
row 1 "trace buffer snap_buf/CSTMC_TRACE_FIFO.bin is a FIFO, not a regular file" \
	decode --snapshot snap_buf
row 1 "profile f.ini is a FIFO, not a regular file" config check f.ini
row 2 "--emulate-trace f.fifo is a FIFO, not a regular file" \
	record --sysfs "$SYSFS" -e intel_pt// --emulate-trace f.fifo -o emu.data
# A capture is read from a FIFO (perf's pipe mode), but its writer is
# waited for 10 seconds, not for ever.
row 1 "f.fifo: a FIFO with no writer (no data in 10 s): start the program that writes it first" \
	info f.fifo
# Directories and devices where a file is meant.
row 2 "is a directory, an OpenCSD snapshot (it holds snapshot.ini): decode it with --snapshot $SS/a57_single_step" \
	decode "$SS/a57_single_step"
row 2 "adir is a directory, not a perf.data capture" decode adir
# --unit: one parser for every command that takes it.
row 2 "hwtrace decode: --unit 0: out of range (valid: a unit number from 1 (hwtrace units lists them))" decode --unit 0 "$Q"
row 2 "hwtrace report: --unit 1x: " report --unit 1x "$Q"
row 2 "--map adir is a directory, not a regular file" decode --raw "$RAW:$ETM" --map adir@0
row 2 "--map f.fifo is a FIFO, not a regular file" decode --raw "$RAW:$ETM" --map f.fifo@0
row 2 "trace file /dev/zero is a character device, not a regular file" \
	decode --raw "$RAW:/dev/zero"
# Item 12: option values.
row 2 "cs_etm option traceid=999: out of range (valid: 0x0 to 0x6f)" \
	decode --raw "cs_etm,etmv4,traceid=999:$ETM"
row 2 "cs_etm option traceid=-1: out of range (valid: 0x0 to 0x6f)" \
	decode --raw "cs_etm,etmv4,traceid=-1:$ETM"
row 2 "cs_etm options etmv4 and etmv3: give one trace protocol (etmv4, ete, etmv3 or ptm)" \
	decode --raw "cs_etm,etmv4,etmv3:$ETM"
# An option given twice, whose first value went unused (any backend).
row 2 "cs_etm option traceid is given twice (traceid=0x10, then traceid=0x11): give each option once" \
	decode --raw "cs_etm,etmv4,traceid=0x10,traceid=0x11:$ETM"
row 2 "cs_etm option ETMV4 is given twice (etmv4, then ETMV4): give each option once" \
	decode --raw "cs_etm,etmv4,ETMV4,traceid=0x10:$ETM"
# An empty option (a comma doubled or at an end), which every backend's
# own loop skipped, so that a typo could eat an option unseen.
row 2 'cs_etm option list "etmv4,": option 2 of 2 is empty (a comma doubled or at an end): remove the extra comma' \
	decode --raw "cs_etm,etmv4,:$ETM"
row 2 'cs_etm option list ",etmv4,traceid=0x10": option 1 of 3 is empty' \
	decode --raw "cs_etm,,etmv4,traceid=0x10:$ETM"
row 2 'cs_etm option list "etmv4,,traceid=0x10": option 2 of 3 is empty' \
	decode --raw "cs_etm,etmv4,,traceid=0x10:$ETM"
row 2 "cs_etm option list is empty (a comma after cs_etm and no option): remove the comma" \
	decode --raw "cs_etm,:$ETM"
# Filters a packet listing would ignore (it has every packet), and
# filters of a raw stream or a snapshot that selected nothing unsaid.
row 2 "--packets with --cpu on a raw trace stream: the listing has every packet of it, and --cpu selects a perf.data capture's AUX buffers, not packets: give one of them" \
	decode --raw "$RAW:$ETM" --packets --cpu 0
row 2 "--packets with --cpu on a snapshot directory: the listing has every packet of it" \
	decode --snapshot "$SS/Snowball" --packets --cpu 1
row 2 "--packets with --tid: the listing has every packet of the trace, and --tid selects decoded elements, not packets: give one of them" \
	decode --snapshot "$SS/a57_single_step" --packets --tid 5
row 2 "--packets with --time: the listing has every packet of the trace" \
	decode --raw "$RAW:$ETM" --packets --time 1,2
row 0 "warning: --cpu 0 matches nothing: a raw trace stream names no CPU, so its elements carry none" \
	decode --raw "$RAW:$ETM" --cpu 0
row 0 "warning: --tid 5 matches nothing: no element of the trace is of that thread (without a capture's sideband, a thread is known only from the trace's context IDs)" \
	decode --raw "$RAW:$ETM" --tid 5
row 0 "warning: --tid 5 matches nothing: no element of the trace is of that thread" \
	decode --snapshot "$SS/Snowball" --tid 5
row 0 "warning: --time 0.000000001,0.000000002 matches nothing: the capture's elements span 381.866740353 to 381.872764121 s" \
	decode --snapshot "$SS/Snowball" --time 1,2
row 1 "snap_fmt/trace.ini: [buffer0] format=bogus is not a buffer format (valid: coresight, dstream_coresight, source_data)" \
	decode --snapshot snap_fmt
row 1 "snap_id/device2.ini: [regs] TRCTRACEIDR=0xffffffff is not a trace ID (valid: 0x0 to 0x6f)" \
	decode --snapshot snap_id
row 2 "--map code.bin@0x2 (0x2-0x6) overlaps --map code.bin@0x0 (0x0-0x4): give each address once" \
	decode --raw "$RAW:$ETM" --map code.bin@0 --map code.bin@2
row 2 "--packets lists packets, --disasm decoded instructions: give one of them" \
	decode --snapshot "$SS/a57_single_step" --disasm --packets
# A kernel symbol file that is not there: a warning at the start, even
# where no kernel address comes, and the decode goes on.
row 0 "warning: --kallsyms /nonexistent does not exist: kernel addresses get no names" \
	decode --snapshot "$SS/a57_single_step" --kallsyms /nonexistent
row 2 "--sysfs /nonexistent: the directory does not exist" \
	record --sysfs /nonexistent -e intel_pt// -o emu.data
row 2 "--sysfs /nonexistent: the directory does not exist" \
	config check --sysfs /nonexistent -e intel_pt//
row 2 "--filter '': an empty filter" config check -e intel_pt// --sysfs "$SYSFS" --filter ''
row 2 "--filter '': an empty filter" record --sysfs "$SYSFS" -e intel_pt// --filter '' -o emu.data
row 2 "--filter '': an empty filter" record -e sw_branch --filter '' -o emu.data -- /bin/true
row 1 "early.ini:1: backend is before any [section], where it has no effect" config check early.ini
if have_pt_decoder "intel_pt raw options and --cpu-model"; then
	row 2 "intel_pt option mtc_freq=-1: not a number" \
		decode --raw "intel_pt,mtc_freq=-1:$PTT/loop-tnt.pt"
	row 2 "intel_pt option mtc_freq=16: out of range (valid: 0 to 15)" \
		decode --raw "intel_pt,mtc_freq=16:$PTT/loop-tnt.pt"
	row 2 "intel_pt option mtc_freq is given twice (mtc_freq=3, then mtc_freq=4): give each option once" \
		decode --raw "intel_pt,mtc_freq=3,mtc_freq=4:$PTT/loop-tnt.pt"
	row 2 'intel_pt option list ",cpuid=6/85/4": option 1 of 2 is empty' \
		decode --raw "intel_pt,,cpuid=6/85/4:$PTT/loop-tnt.pt"
	row 2 'intel_pt option list "mtc_freq=3,": option 2 of 2 is empty' \
		decode --raw "intel_pt,mtc_freq=3,:$PTT/loop-tnt.pt"
	row 2 "intel_pt option list is empty (a comma after intel_pt and no option)" \
		decode --raw "intel_pt,:$PTT/loop-tnt.pt"
	row 2 "intel_pt option addr0_cfg=7: not an address range setting (valid: 0 off, 1 filter, 2 stop)" \
		decode --raw "intel_pt,addr0_cfg=7:$PTT/loop-tnt.pt"
	row 2 "--packets with --tid: the listing has every packet of the trace" \
		decode --packets --tid 5 "$Q"
	row 2 "--packets with --time: the listing has every packet of the trace" \
		decode --packets --time 641.2568,641.2580 "$Q"
	row 2 "--cpu-model 999/999/999: not a traced CPU (valid: FAMILY/MODEL[/STEPPING]" \
		decode --cpu 999/999/999 "$Q"
fi
expect_eq "no output was written" "$(ls emu.data 2>/dev/null)" ""

# Positive controls: the same inputs, given right, are taken.
row 0 "" decode --raw "$RAW:$ETM" --map code.bin@0 --map code.bin@4
row 0 "" decode --raw "cs_etm,etmv4,formatted,traceid=0x10:$ETM" --map code.bin@0
row 0 "" config check -e intel_pt// --sysfs "$SYSFS"
row 0 "" decode --snapshot "$SS/a57_single_step"
row 0 "" decode --snapshot "$SS/init-short-addr"
# The thread a57_single_step's trace names (context ID 0), its time.
row 0 "" decode --snapshot "$SS/a57_single_step" --tid 0
expect_eq "--tid of the snapshot's thread: no warning" "$(grep -c 'matches nothing' err.txt)" 0
# (its 4 elements, and the gap that passes every filter)
expect_eq "--tid of the snapshot's thread: its elements" "$(grep -c . out.txt)" 5
row 0 "" decode --snapshot "$SS/Snowball" --time 381.8667,381.8728
expect_eq "--time of the snapshot's span: no warning" "$(grep -c 'matches nothing' err.txt)" 0
if perf inject -i "$Q" -o - >q.pipe 2>/dev/null; then
	# A FIFO whose writer comes is read, in perf's pipe mode.
	cat q.pipe >f.fifo &
	row 0 "" info f.fifo
	expect_contains "info of a FIFO: pipe mode" "$(cat out.txt)" "perf pipe mode"
	wait
else
	echo "SKIP part: a capture through a FIFO: perf inject cannot write pipe mode here" >&2
	skipped_parts=$((skipped_parts + 1))
fi

inputs > sums.after
expect_eq "no input changed" "$(diff sums.before sums.after)" ""
finish
