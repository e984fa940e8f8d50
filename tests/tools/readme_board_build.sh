#!/bin/bash
# readme_board_build.sh README BUILD_DIR [CMAKE_ARG...]: run the board
# build of the README ("On Arm and RISC-V boards") as written: its
# `cmake` lines, in order, with `-B build` turned into `-B BUILD_DIR` and
# CMAKE_ARGs (a cross toolchain file, the peer of a cross-architecture
# test) added to the configure line. `make check-arm64` and
# `make check-riscv64` build through it, so a board command that stops
# configuring or linking fails those checks, not a user on a board.
set -euo pipefail
readme=${1:?usage: readme_board_build.sh README BUILD_DIR [CMAKE_ARG...]}
dir=${2:?usage: readme_board_build.sh README BUILD_DIR [CMAKE_ARG...]}
shift 2
# The section's first code block holds the install and build commands.
mapfile -t lines < <(awk '
	/^## On Arm and RISC-V boards/ { sect = 1; next }
	sect && /^## / { exit }
	sect && /^```/ { if (inblk) exit; inblk = 1; next }
	inblk && /^cmake / { print }
' "$readme")
if [ "${#lines[@]}" -ne 2 ]; then
	echo "readme_board_build: $readme: expected a configure and a build line (cmake -S ... and cmake --build ...) in the first block of \"On Arm and RISC-V boards\", found ${#lines[@]}" >&2
	exit 1
fi
for line in "${lines[@]}"; do
	read -ra words <<<"$line"
	cmd=()
	for i in "${!words[@]}"; do
		w=${words[$i]}
		# "-B build" and "--build build": the directory is this run's.
		if [ "$w" = build ] && [ "$i" -gt 0 ] && \
		   { [ "${words[$((i - 1))]}" = -B ] || [ "${words[$((i - 1))]}" = --build ]; }; then
			w=$dir
		fi
		cmd+=("$w")
	done
	case "$line" in
	"cmake -S "*) cmd+=("$@") ;;
	"cmake --build "*) cmd+=(-j"${JOBS:-$(nproc)}") ;;
	esac
	echo "+ ${cmd[*]}"
	"${cmd[@]}"
done
