# The two commands of the README:
#   make run    set up, build, and run the main job
#   make check  set up, build, and run every test (plain, ASan+UBSan, TSan, fuzz)

DEBIAN_PACKAGES := cmake make gcc clang pkg-config libclang-rt-14-dev \
	libipt-dev libopencsd-dev libopencsd-bin libelf-dev libiniparser-dev \
	libcapstone-dev libzstd-dev linux-perf xz-utils binutils libdw-dev \
	libdebuginfod-dev debuginfod elfutils curl perl \
	libprotobuf-c-dev protobuf-c-compiler protobuf-compiler bsdutils procps \
	python3-pyside2.qtsql g++ python3-jsonschema jq chromium nodejs \
	scdoc man-db bsdextrautils libsqlite3-dev zlib1g-dev golang-go \
	golang-github-google-pprof-dev autofdo bolt-15 llvm-15 libpq-dev \
	postgresql gcc-riscv64-linux-gnu qemu-user \
	python3-numpy python3-pandas python3-pytest python3-setuptools \
	python3-wheel python3-pip python3-dask python3-distributed \
	libseccomp-dev
# npm packages the tests load from disk (no network at test time): the
# flame-graph viewer that the timeline test opens hwtrace's file in.
NPM_DIR := build/npm
NPM_PACKAGES := speedscope@1.25.0
JOBS ?= $(shell nproc)
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
CTEST := ctest --output-on-failure --no-tests=error -j$(JOBS)
# Seconds each fuzz target fuzzes in check-fuzz (12 targets; their kept
# corpora are replayed besides).
FUZZ_TIME ?= 17

# The arm64 build (make check-arm64): Debian's cross compiler and qemu-user
# on the host, the libraries as arm64 multiarch packages. ARM64_LIBS are
# needed. ARM64_OPTIONAL_LIBS: each is installed for arm64 when the host has
# it (the project uses it: it is in DEBIAN_PACKAGES) and is left out, with a
# note, when it cannot be; the build configures without it. Add a library
# the project starts to use to one of the two lists. The benchmarks are
# built as on a board (README: no libipt there, so the Intel PT ones are
# left out), which keeps the board's build command as written working.
ARM64_HOST_PACKAGES := gcc-aarch64-linux-gnu g++-aarch64-linux-gnu qemu-user
ARM64_LIBS := libc6 libopencsd-dev libelf-dev libdw-dev libiniparser-dev \
	libcapstone-dev libzstd-dev libdebuginfod-dev libprotobuf-c-dev \
	libseccomp-dev
ARM64_OPTIONAL_LIBS := libsqlite3-dev libpq-dev
# What check-arm64 adds to the README's board configure line (it builds
# through tests/tools/readme_board_build.sh, which runs that line).
ARM64_CMAKE := -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake \
	-DCMAKE_BUILD_TYPE=RelWithDebInfo -DHWT_WERROR=ON

# The riscv64 build (make check-riscv64): Debian's cross compilers and
# qemu-user on the host. Bookworm has no riscv64 architecture, so there are
# no libfoo-dev:riscv64 multiarch packages: cmake/riscv64_sysroot.sh
# unpacks RISCV64_LIBS and what they depend on from Debian trixie's riscv64
# packages (trixie has the architecture) into build-riscv64/sysroot, with
# an apt configuration of its own (nothing is installed on the host). The
# same libraries as on an arm64 board, OpenCSD and Capstone included (plus
# libc6-dev: the sysroot's glibc is the one everything links against;
# libatomic1: GCC 12 calls it for one-byte atomics on RISC-V; libopencsd-bin:
# trc_pkt_lister of the same OpenCSD release, the CoreSight tests' oracle).
RISCV64_HOST_PACKAGES := gcc-riscv64-linux-gnu g++-riscv64-linux-gnu qemu-user \
	debian-archive-keyring
RISCV64_LIBS := libc6-dev libopencsd-dev libelf-dev libdw-dev libiniparser-dev \
	libcapstone-dev libzstd-dev libdebuginfod-dev libprotobuf-c-dev \
	libseccomp-dev libsqlite3-dev libpq-dev zlib1g-dev libatomic1 \
	libopencsd-bin
RISCV64_CMAKE := -DCMAKE_TOOLCHAIN_FILE=cmake/riscv64-linux-gnu.cmake \
	-DCMAKE_BUILD_TYPE=RelWithDebInfo -DHWT_WERROR=ON
# ctest arguments that select the part of the suite check-riscv64 runs
# (all of it when empty). CI runs RISCV64_TESTS_CI: the suite without
# test_dump_corrupt, the longest test under qemu-riscv64 (234 s alone;
# without it the suite took 369 s instead of 470 s on 2 cores, which
# keeps the CI stage near 7 minutes). It feeds the file parsers corrupt
# inputs: code that is the same on every architecture, and that the
# native and arm64 stages run.
RISCV64_TESTS ?=
RISCV64_TESTS_CI := -E test_dump_corrupt

PREFIX ?= /usr/local

.PHONY: all deps build install run check check-plain check-asan check-tsan check-fuzz check-release clean
.PHONY: deps-arm64 check-arm64 deps-riscv64 check-riscv64 check-riscv64-ci check-board-build

all: build

# A package is there when installed for this machine's architecture (or
# for all): libpq-dev:arm64 alone does not count for the host build.
HOST_HAS = dpkg-query -W -f='$${db:Status-Abbrev}$${Architecture}\n' $$p 2>/dev/null | \
	grep -Eqx "ii *($$(dpkg --print-architecture)|all)"

deps:
	@missing=""; \
	for p in $(DEBIAN_PACKAGES); do \
		$(HOST_HAS) || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		$(SUDO) apt-get update && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y $$missing; \
	fi
	@for p in $(NPM_PACKAGES); do \
		name=$${p%@*}; want=$${p##*@}; \
		have=$$(node -p "require('./$(NPM_DIR)/node_modules/$$name/package.json').version" 2>/dev/null); \
		if [ "$$have" != "$$want" ]; then \
			echo "installing $$p into $(NPM_DIR)"; \
			mkdir -p $(NPM_DIR) && \
			npm install --prefix $(NPM_DIR) --no-audit --no-fund $$p || exit 1; \
		fi; \
	done

build: deps
	cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHWT_WERROR=ON
	cmake --build build -j$(JOBS)

# Installs the library, headers, pkg-config and CMake files, the CLI, man
# pages and bash completion under PREFIX (DESTDIR is honoured too).
install: build
	cmake --install build --prefix $(PREFIX)

# The main job: on a machine without trace hardware, record a small real
# program with the software branch tracer (sw_branch: ptrace single-step,
# Intel BTS records in a perf.data file), decode it, and summarise it.
RUN_PROG := build/tests/programs/swb_demo
RUN_DATA := build/run-sw_branch.data
run: build
	./build/tools/hwtrace list
	@echo
	@echo "== sw_branch: stepping $(RUN_PROG) from main to exit (every instruction traps) =="
	./build/tools/hwtrace record -e sw_branch --start main --stop exit -o $(RUN_DATA) -- $(RUN_PROG) 200
	./build/tools/hwtrace decode $(RUN_DATA) > build/run-sw_branch.txt
	./build/tools/hwtrace decode --format jsonl $(RUN_DATA) > build/run-sw_branch.jsonl
	@echo
	@echo "== the first elements (all of them: build/run-sw_branch.txt) =="
	@head -n 12 build/run-sw_branch.txt
	@echo
	@echo "== summary =="
	@awk -f tests/programs/run_summary.awk build/run-sw_branch.jsonl
	@echo "  most called functions (hwtrace's symbols):"
	@sed -n 's/.*"kind":"call".*"to_sym":"\([^"]*\)".*/\1/p' build/run-sw_branch.jsonl | \
		sort | uniq -c | sort -rn | head -n 6 | sed 's/^/  /'

# The full suite runs last, so its summary closes the output. Each stage
# says how long it took (.ci/run's header keeps the figures).
CHECK_STAGES := check-release check-fuzz check-tsan check-plain check-asan
check: deps
	@for s in $(CHECK_STAGES); do \
		start=$$(date +%s); \
		$(MAKE) --no-print-directory $$s || exit $$?; \
		echo "make $$s took $$(($$(date +%s) - start)) s"; \
	done

# What a packager runs: a plain Release build with the distribution's
# compiler. Warnings are errors here so that one the optimiser finds (and
# only it) cannot come back unseen.
check-release: deps
	cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release -DHWT_WERROR=ON
	cmake --build build-release -j$(JOBS)
	./build-release/tools/hwtrace --version

check-plain: build
	@cd build && { $(CTEST); rc=$$?; \
		../tests/tools/skip_report.sh Testing/Temporary/LastTest.log; exit $$rc; }

check-asan: deps
	cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DHWT_SANITIZE=ON -DHWT_BENCH=OFF -DHWT_WERROR=ON
	cmake --build build-asan -j$(JOBS)
	cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 $(CTEST)

# The ThreadSanitizer and fuzz builds build only what their labelled
# tests run (the hwt_tsan_tests and hwt_fuzz_tests targets of
# tests/CMakeLists.txt), and run those tests two at a time: each fuzz
# target fuzzes for FUZZ_TIME seconds of its own core.
check-tsan: deps
	cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHWT_TSAN=ON -DHWT_BENCH=OFF -DHWT_WERROR=ON
	cmake --build build-tsan -j$(JOBS) --target hwt_tsan_tests
	cd build-tsan && ctest --output-on-failure --no-tests=ignore -j$(JOBS) -L tsan

check-fuzz: deps
	CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHWT_FUZZ=ON -DHWT_BENCH=OFF -DHWT_WERROR=ON \
		-DHWT_FUZZ_TIME=$(FUZZ_TIME)
	cmake --build build-fuzz -j$(JOBS) --target hwt_fuzz_tests
	cd build-fuzz && ctest --output-on-failure --no-tests=ignore -j$(JOBS) -L fuzz

deps-arm64: deps
	@dpkg --print-foreign-architectures | grep -qx arm64 || \
		{ echo "adding the arm64 architecture"; $(SUDO) dpkg --add-architecture arm64 && \
		  $(SUDO) apt-get update; }
	@missing=""; \
	for p in $(ARM64_HOST_PACKAGES) $(addsuffix :arm64,$(ARM64_LIBS)); do \
		dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y $$missing || \
		{ $(SUDO) apt-get update && \
		  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y $$missing; }; \
	fi
	@for p in $(ARM64_OPTIONAL_LIBS); do \
		$(HOST_HAS) || continue; \
		dpkg -s $$p:arm64 >/dev/null 2>&1 && continue; \
		if $(SUDO) apt-get install -s -y $$p:arm64 2>/dev/null | grep -q '^Remv'; then \
			echo "arm64: $$p:arm64 would remove host packages (it is not Multi-Arch: same); building without it"; \
			continue; \
		fi; \
		echo "installing (optional): $$p:arm64"; \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y $$p:arm64 || \
			echo "arm64: $$p:arm64 could not be installed; building without it"; \
	done

# Cross-build everything (tests included) for arm64 and run the suite under
# qemu-aarch64; the x86-64 build (make build) is the peer that
# test_record_decode_cross_arch records and decodes with. Tests this run cannot do (ptrace, perf_event_open, sw_branch
# on arm64, the Intel PT decoder) print their reason and count as skipped;
# the report after the run lists them.
check-arm64: deps-arm64 build
	@start=$$(date +%s); \
	JOBS=$(JOBS) tests/tools/readme_board_build.sh README.md build-arm64 $(ARM64_CMAKE) \
		-DHWT_PEER_HWTRACE=$(CURDIR)/build/tools/hwtrace && \
	{ cd build-arm64 && $(CTEST); rc=$$?; \
	  ../tests/tools/skip_report.sh Testing/Temporary/LastTest.log; \
	  echo "check-arm64: build and tests took $$(( $$(date +%s) - start )) s"; \
	  exit $$rc; }

# The README's board build as written ("On Arm and RISC-V boards": Release,
# no libipt, benchmarks included), natively: what a board runs, with this
# machine's compiler.
check-board-build: deps
	JOBS=$(JOBS) tests/tools/readme_board_build.sh README.md build-board

deps-riscv64: deps
	@missing=""; \
	for p in $(RISCV64_HOST_PACKAGES); do \
		$(HOST_HAS) || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y $$missing || \
		{ $(SUDO) apt-get update && \
		  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y $$missing; }; \
	fi
	cmake/riscv64_sysroot.sh build-riscv64 $(RISCV64_LIBS)

# Cross-build everything for riscv64 against that sysroot and run the suite
# (or the part RISCV64_TESTS selects) under qemu-riscv64, skips listed with
# their reason as in check-arm64. `make check-riscv64-ci`: the part CI runs.
check-riscv64: deps-riscv64 build
	@start=$$(date +%s); \
	JOBS=$(JOBS) tests/tools/readme_board_build.sh README.md build-riscv64/hwtrace \
		$(RISCV64_CMAKE) -DHWT_PEER_HWTRACE=$(CURDIR)/build/tools/hwtrace && \
	{ cd build-riscv64/hwtrace && $(CTEST) $(RISCV64_TESTS); rc=$$?; \
	  ../../tests/tools/skip_report.sh Testing/Temporary/LastTest.log; \
	  echo "check-riscv64: build and tests took $$(( $$(date +%s) - start )) s"; \
	  exit $$rc; }

check-riscv64-ci:
	$(MAKE) check-riscv64 RISCV64_TESTS='$(RISCV64_TESTS_CI)'

clean:
	rm -rf build build-asan build-tsan build-fuzz build-release build-arm64 \
		build-board build-riscv64
