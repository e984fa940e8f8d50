#!/bin/sh
# Checks that every function a public header declares (HWT_API) has a
# comment: directly above it, or above the group of declarations it
# belongs to (no blank line between). Prints each undocumented function
# as FILE:LINE: NAME and exits 1 when there is one.
# usage: check_api_docs.sh INCLUDE_DIR
status=0
for h in "$1"/hwtrace/*.h; do
	awk -v file="$h" '
		# A comment ends: the next declaration (group) is documented.
		/\*\/[ \t]*$/ { documented = 1; next }
		/^[ \t]*$/ { documented = 0; next }
		/^#/ { next }
		/HWT_API/ {
			if (!documented) {
				line = $0
				if (line !~ /hwt_[a-z0-9_]+[ \t]*\(/) { getline nxt; line = line " " nxt }
				match(line, /hwt_[a-z0-9_]+[ \t]*\(/)
				name = substr(line, RSTART, RLENGTH - 1)
				printf "%s:%d: %s has no comment\n", file, NR, name
				bad = 1
			}
		}
		END { exit bad }
	' "$h" || status=1
done
exit $status
