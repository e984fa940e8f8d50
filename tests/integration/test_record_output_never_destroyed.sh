# What -o names is never destroyed: a failed record (sw_branch with a
# misspelt --start) or decode leaves the file as it was; a symbolic link,
# a directory, a device and the command's own input are refused (exit 2,
# the message names the path); a successful run replaces the file, and no
# temporary file is left behind in any case.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
PROG="$HWT_BUILD_DIR/tests/programs/swb_demo"
PT="$HWT_TESTDATA/perf-data/quipper/perf.data.intel_pt-4.14"
cd "$TMP" || exit 1

leftovers() { ls -a "$TMP" | grep -c '\.tmp\.'; }

# The command of the report: a failed sw_branch record over an old capture.
cp "$PT" keep.data
"$HWTRACE" record -e sw_branch --start mian -q -o keep.data -- "$PROG" 10 2>err
expect_eq "failed record exit" "$?" 1
expect_contains "failed record says why" "$(cat err)" "mian"
cmp -s "$PT" keep.data
expect_eq "keep.data unchanged after a failed record" "$?" 0
expect_eq "no temporary file after a failed record" "$(leftovers)" 0

# A symbolic link is neither written through nor replaced.
cp "$PT" target.data
ln -s target.data link.data
"$HWTRACE" record -e sw_branch --start main --max 100 -q -o link.data -- "$PROG" 10 2>err
expect_eq "symlink -o exit" "$?" 2
expect_contains "symlink -o named" "$(cat err)" "output link.data is a symbolic link"
cmp -s "$PT" target.data
expect_eq "symlink target unchanged" "$?" 0
expect_eq "link still a link" "$(readlink link.data)" "target.data"

# A directory, a device, the input itself.
mkdir outdir
"$HWTRACE" record -e sw_branch --max 100 -q -o outdir -- "$PROG" 10 2>err
expect_eq "directory -o exit" "$?" 2
expect_contains "directory -o named" "$(cat err)" "output outdir is a directory"
"$HWTRACE" record --emulate keep.data -o /dev/null 2>err
expect_eq "device -o exit" "$?" 2
expect_contains "device -o named" "$(cat err)" "output /dev/null is a character device"
"$HWTRACE" record --emulate keep.data -o keep.data 2>err
expect_eq "record --emulate X -o X exit" "$?" 2
expect_contains "input as output named" "$(cat err)" "output keep.data is the input file keep.data"
cmp -s "$PT" keep.data
expect_eq "input unchanged" "$?" 0
cp "$PROG" prog
"$HWTRACE" record -e sw_branch -q -o prog -- ./prog 10 2>err
expect_eq "record -o PROG -- PROG exit" "$?" 2
expect_contains "program as output named" "$(cat err)" "output prog is the input file ./prog"
cmp -s "$PROG" prog
expect_eq "traced program unchanged" "$?" 0
"$HWTRACE" decode keep.data -o keep.data 2>err
expect_eq "decode X -o X exit" "$?" 2
cmp -s "$PT" keep.data
expect_eq "decode input unchanged" "$?" 0

# A decode that fails leaves an existing -o file alone.
echo "old text" > old.txt
head -c 4096 "$PT" > cut.data
"$HWTRACE" decode cut.data -o old.txt 2>err
expect_eq "failed decode exit" "$?" 1
expect_eq "old.txt unchanged" "$(cat old.txt)" "old text"

# Success replaces the file, with a capture that reads.
"$HWTRACE" record -e sw_branch --start main --max 1000 -q -o keep.data -- "$PROG" 10 2>err
expect_eq "record exit" "$?" 0
"$HWTRACE" info keep.data > info.txt 2>&1
expect_eq "new capture reads" "$?" 0
expect_contains "new capture is sw_branch's" "$(cat info.txt)" "intel_bts"
"$HWTRACE" decode keep.data -o old.txt 2>/dev/null
expect_eq "decode -o exit" "$?" 0
expect_eq "decode -o replaced the text" "$(grep -c 'old text' old.txt)" 0
expect_eq "no temporary file left" "$(leftovers)" 0
finish
