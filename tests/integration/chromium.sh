# Headless Chromium driven over the DevTools protocol (devtools.mjs), for
# the tests that open a page in it (sourced after lib.sh, not run).
#   chromium_need: fails the test (and exits) when Chromium or a node with
#     WebSocket is missing; sets NODE, the node command line.
#   chromium_start SIZE: starts the browser on a free DevTools port, with
#     its profile in $TMP/profile and a window of SIZE ("W,H"); sets
#     browser_pid and devtools (the port). Fails the test and exits when
#     it does not come up.
#   chromium_stop: stops the browser (the test's EXIT trap calls it).
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
browser_pid=""

chromium_need() {
	[ -x "$CHROMIUM" ] || { fail "no $CHROMIUM (Debian: chromium; make deps)"; finish; exit 1; }
	NODE=(node)
	node -e 'process.exit(typeof WebSocket === "function" ? 0 : 1)' 2>/dev/null ||
		NODE=(node --experimental-websocket)
	"${NODE[@]}" -e 'process.exit(typeof WebSocket === "function" ? 0 : 1)' 2>/dev/null ||
		{ fail "node has no WebSocket (Node.js 20.10 or later)"; finish; exit 1; }
}

chromium_start() {
	"$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic \
		--no-first-run --disable-background-networking \
		--disable-component-update --disable-sync \
		--user-data-dir="$TMP/profile" --remote-debugging-port=0 \
		--remote-debugging-address=127.0.0.1 --window-size="$1" \
		about:blank >"$TMP/chromium.log" 2>&1 &
	browser_pid=$!
	devtools=""
	for _ in $(seq 100); do
		[ -s "$TMP/profile/DevToolsActivePort" ] &&
			devtools=$(head -n 1 "$TMP/profile/DevToolsActivePort")
		[ -n "$devtools" ] && return 0
		sleep 0.2
	done
	fail "chromium did not start: $(tail -3 "$TMP/chromium.log")"
	finish
	exit 1
}

chromium_stop() {
	[ -n "$browser_pid" ] && kill "$browser_pid" 2>/dev/null && wait "$browser_pid" 2>/dev/null
	browser_pid=""
}
