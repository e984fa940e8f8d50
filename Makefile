# The two commands of the README:
#   make run    set up, build, and run the main job
#   make check  set up, build, and run every test (plain, ASan+UBSan, TSan, fuzz)

DEBIAN_PACKAGES := cmake make gcc clang pkg-config libclang-rt-14-dev \
	libipt-dev libopencsd-dev libopencsd-bin libelf-dev libiniparser-dev \
	libcapstone-dev linux-perf xz-utils binutils libdw-dev \
	libdebuginfod-dev debuginfod elfutils curl perl \
	libprotobuf-c-dev protobuf-c-compiler protobuf-compiler bsdutils procps \
	python3-pyside2.qtsql g++ libsqlite3-dev zlib1g-dev golang-go \
	golang-github-google-pprof-dev
JOBS ?= $(shell nproc)
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
CTEST := ctest --output-on-failure --no-tests=error -j$(JOBS)

.PHONY: all deps build run check check-plain check-asan check-tsan check-fuzz check-release clean

all: build

deps:
	@missing=""; \
	for p in $(DEBIAN_PACKAGES); do \
		dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		$(SUDO) apt-get update && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y $$missing; \
	fi

build: deps
	cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHWT_WERROR=ON
	cmake --build build -j$(JOBS)

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

# The full suite runs last, so its summary closes the output.
check: check-release check-fuzz check-tsan check-plain check-asan

# What a packager runs: a plain Release build with the distribution's
# compiler. Warnings are errors here so that one the optimiser finds (and
# only it) cannot come back unseen.
check-release: deps
	cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release -DHWT_WERROR=ON
	cmake --build build-release -j$(JOBS)
	./build-release/tools/hwtrace --version

check-plain: build
	cd build && $(CTEST)

check-asan: deps
	cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DHWT_SANITIZE=ON -DHWT_BENCH=OFF -DHWT_WERROR=ON
	cmake --build build-asan -j$(JOBS)
	cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 $(CTEST)

check-tsan: deps
	cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHWT_TSAN=ON -DHWT_BENCH=OFF -DHWT_WERROR=ON
	cmake --build build-tsan -j$(JOBS)
	cd build-tsan && ctest --output-on-failure --no-tests=ignore -L tsan

check-fuzz: deps
	CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHWT_FUZZ=ON -DHWT_BENCH=OFF -DHWT_WERROR=ON
	cmake --build build-fuzz -j$(JOBS)
	cd build-fuzz && ctest --output-on-failure --no-tests=ignore -L fuzz

clean:
	rm -rf build build-asan build-tsan build-fuzz build-release
