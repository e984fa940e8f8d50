# Cross-build for riscv64 Linux with Debian's gcc-riscv64-linux-gnu. Used
# by `make check-riscv64`:
#   cmake -S . -B build-riscv64/hwtrace -DHWT_WITH_LIBIPT=OFF
#         -DCMAKE_TOOLCHAIN_FILE=cmake/riscv64-linux-gnu.cmake
# Debian bookworm has no riscv64 architecture, so the libraries cannot come
# by multiarch as arm64's do: cmake/riscv64_sysroot.sh unpacks Debian
# trixie's riscv64 packages (libc6-dev and the -dev packages, with what
# they depend on) into HWT_RISCV64_SYSROOT (default build-riscv64/sysroot),
# and only that tree is searched: neither the host's x86-64 libraries in
# /usr/lib nor the cross compiler's own glibc must be picked up.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR riscv64)
set(HWT_CROSS_TRIPLE riscv64-linux-gnu)

set(CMAKE_C_COMPILER ${HWT_CROSS_TRIPLE}-gcc)
set(CMAKE_CXX_COMPILER ${HWT_CROSS_TRIPLE}-g++)
set(CMAKE_LIBRARY_ARCHITECTURE ${HWT_CROSS_TRIPLE})

if(NOT HWT_RISCV64_SYSROOT)
  set(HWT_RISCV64_SYSROOT ${CMAKE_CURRENT_LIST_DIR}/../build-riscv64/sysroot)
endif()
get_filename_component(HWT_RISCV64_SYSROOT ${HWT_RISCV64_SYSROOT} ABSOLUTE)
set(HWT_RISCV64_SYSROOT ${HWT_RISCV64_SYSROOT} CACHE PATH
    "riscv64 sysroot laid out by cmake/riscv64_sysroot.sh")
if(NOT EXISTS ${HWT_RISCV64_SYSROOT}/.hwtrace-sysroot)
  message(FATAL_ERROR "no riscv64 sysroot at ${HWT_RISCV64_SYSROOT}: run "
    "`make deps-riscv64` (cmake/riscv64_sysroot.sh) first, or set HWT_RISCV64_SYSROOT")
endif()
# try_compile projects (the emulator check) see the same sysroot.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES HWT_RISCV64_SYSROOT)

set(CMAKE_SYSROOT ${HWT_RISCV64_SYSROOT})
set(CMAKE_FIND_ROOT_PATH ${HWT_RISCV64_SYSROOT})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
set(ENV{PKG_CONFIG_LIBDIR}
    ${HWT_RISCV64_SYSROOT}/usr/lib/${HWT_CROSS_TRIPLE}/pkgconfig:${HWT_RISCV64_SYSROOT}/usr/share/pkgconfig)
set(ENV{PKG_CONFIG_SYSROOT_DIR} ${HWT_RISCV64_SYSROOT})

# --sysroot alone is not enough: Debian's cross gcc searches its own glibc
# (2.36, /usr/riscv64-linux-gnu/include and lib) before the sysroot's.
# Trixie's libraries need glibc 2.38's symbols, so the sysroot's headers
# and libraries go first (gcc's own headers, crt files and libgcc still
# come from the compiler, as on any system). C++ keeps the compiler's
# headers: its libstdc++ headers reach the C library's by #include_next,
# which must find the glibc they were built with; a program built against
# the older headers runs with the newer glibc. -rpath-link finds the
# libraries' own dependencies at link time.
set(_hwt_rv_inc "-isystem ${HWT_RISCV64_SYSROOT}/usr/include/${HWT_CROSS_TRIPLE} -isystem ${HWT_RISCV64_SYSROOT}/usr/include")
set(_hwt_rv_lib "-L${HWT_RISCV64_SYSROOT}/usr/lib/${HWT_CROSS_TRIPLE} -Wl,-rpath-link,${HWT_RISCV64_SYSROOT}/usr/lib/${HWT_CROSS_TRIPLE}")
set(CMAKE_C_FLAGS_INIT "${_hwt_rv_inc}")
set(CMAKE_EXE_LINKER_FLAGS_INIT "${_hwt_rv_lib}")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "${_hwt_rv_lib}")
set(CMAKE_MODULE_LINKER_FLAGS_INIT "${_hwt_rv_lib}")

# qemu-user runs the tests with the sysroot's loader and libraries (-L:
# the guest's /lib/ld-linux-riscv64-lp64d.so.1 and /usr/lib/riscv64-linux-gnu
# are looked up under it first), one glibc build throughout.
find_program(HWT_QEMU_RISCV64 qemu-riscv64)
if(HWT_QEMU_RISCV64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${HWT_QEMU_RISCV64} -L ${HWT_RISCV64_SYSROOT})
endif()
