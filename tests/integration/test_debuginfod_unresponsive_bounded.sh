# A debuginfod server that accepts connections and never answers (a
# socket on 127.0.0.1 started here) costs a decode one timeout per build
# id, said on standard error as it starts, not libdebuginfod's 90 s three
# times per binary: a program dlopens two copies of one stripped library
# (one build id, two binaries), and the decode asks the server once, for
# DEBUGINFOD_TIMEOUT seconds, or 10 when it is not set.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
for t in gcc strip python3 readelf; do
	command -v $t >/dev/null || { echo "FAIL: $t is not installed" >&2; exit 1; }
done
cd "$TMP" || exit 1
export DEBUGINFOD_CACHE_PATH="$TMP/cache"
unset DEBUGINFOD_TIMEOUT DEBUGINFOD_RETRY_LIMIT

cat >twin.c <<'EOF'
int twin_fn(int x) { return x * 7 + 1; }
EOF
cat >dl2.c <<'EOF'
#include <dlfcn.h>
int main(int argc, char **argv)
{
	int s = 0;
	for (int i = 1; i < argc; i++) {
		void *h = dlopen(argv[i], RTLD_NOW);
		int (*f)(int) = h ? (int (*)(int))dlsym(h, "twin_fn") : 0;
		if (!f)
			return 1;
		s += f(i);
	}
	return s == 12345;
}
EOF
gcc -O1 -shared -fPIC -Wl,--build-id -o full.so twin.c || fail "building the library"
strip --strip-all -o a.so full.so && cp a.so b.so
gcc -O1 -g -o dl2 dl2.c -ldl || fail "building the program"
id=$(readelf -n a.so | sed -n 's/.*Build ID: \([0-9a-f]*\)/\1/p')
[ ${#id} -eq 40 ] || fail "no build id in the library"
"$HWTRACE" record -e sw_branch -q -o s.data -- ./dl2 "$TMP/a.so" "$TMP/b.so" \
	>/dev/null 2>rec.err
expect_eq "record exit" "$?" 0

# The server: listens, and lets connections wait (the kernel accepts them
# into the backlog; nothing ever reads or answers).
python3 -c '
import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(64)
print(s.getsockname()[1], flush=True)
time.sleep(600)' >port.txt &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$TMP"' EXIT
for i in $(seq 1 50); do [ -s port.txt ] && break; sleep 0.1; done
port=$(cat port.txt)
url="http://127.0.0.1:$port"

# decode_timed ENV...: decodes with ENV, how long it took beyond the
# decode without a server in $took (tenths of a second), its standard
# error in d.err.
decode_timed() {
	local t0 t1
	t0=$(date +%s%N)
	env "$@" "$HWTRACE" decode --srcline --format jsonl s.data >d.jsonl 2>d.err
	expect_eq "decode exit ($*)" "$?" 0
	t1=$(date +%s%N)
	took=$(( (t1 - t0) / 100000000 - ${base:-0} ))
}
decode_timed DEBUGINFOD_URLS=
base=$took

decode_timed DEBUGINFOD_URLS="$url" DEBUGINFOD_TIMEOUT=2
expect_eq "one lookup for the two copies' build id" \
	"$(grep -c "fetching debug info for $TMP/[ab].so (build id $id) from $url" d.err)" 1
expect_contains "the lookup says how long it may wait" "$(cat d.err)" \
	"(waiting at most 2 s: DEBUGINFOD_TIMEOUT)"
expect_eq "no other lookups" "$(grep -c 'fetching debug info' d.err)" 1
# One wait of 2 s, not one per binary and retry (2 x 3 x 2 s before);
# the bounds leave room for a busy machine.
[ "$took" -ge 15 ] && [ "$took" -lt 80 ] ||
	fail "DEBUGINFOD_TIMEOUT=2: the lookups took $took tenths of a second, want 1.5 to 8"
expect_eq "both copies named as lacking debug info" \
	"$(grep -c "$TMP/[ab].so: no debug info, so no source lines" d.err)" 2

# Unset, the wait is 10 s.
decode_timed DEBUGINFOD_URLS="$url"
expect_contains "default: the lookup waits 10 s" "$(cat d.err)" \
	"fetching debug info for $TMP/a.so (build id $id) from $url (waiting at most 10 s: DEBUGINFOD_TIMEOUT)"
[ "$took" -ge 95 ] && [ "$took" -lt 200 ] ||
	fail "default timeout: the lookups took $took tenths of a second, want 9.5 to 20"
finish
