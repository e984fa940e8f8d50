# Cross-build for riscv64 Linux with Debian's gcc-riscv64-linux-gnu. Used
# by `make check-riscv64`:
#   cmake -S . -B build-riscv64/hwtrace -DHWT_WITH_LIBIPT=OFF
#         -DCMAKE_TOOLCHAIN_FILE=cmake/riscv64-linux-gnu.cmake
# Debian bookworm has no riscv64 architecture, so the libraries cannot come
# by multiarch as arm64's do: cmake/riscv64_sysroot.sh cross-builds them
# from bookworm's source packages into HWT_RISCV64_SYSROOT (default
# build-riscv64/sysroot), and only that tree and the cross C library
# (/usr/riscv64-linux-gnu) are searched: the host's x86-64 libraries in
# /usr/lib must never be picked up.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR riscv64)
set(HWT_CROSS_TRIPLE riscv64-linux-gnu)

set(CMAKE_C_COMPILER ${HWT_CROSS_TRIPLE}-gcc)
set(CMAKE_CXX_COMPILER ${HWT_CROSS_TRIPLE}-g++)

if(NOT HWT_RISCV64_SYSROOT)
  set(HWT_RISCV64_SYSROOT ${CMAKE_CURRENT_LIST_DIR}/../build-riscv64/sysroot)
endif()
get_filename_component(HWT_RISCV64_SYSROOT ${HWT_RISCV64_SYSROOT} ABSOLUTE)
set(HWT_RISCV64_SYSROOT ${HWT_RISCV64_SYSROOT} CACHE PATH
    "riscv64 libraries built by cmake/riscv64_sysroot.sh")
# try_compile projects (the emulator check) see the same sysroot.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES HWT_RISCV64_SYSROOT)

set(CMAKE_FIND_ROOT_PATH ${HWT_RISCV64_SYSROOT} /usr/${HWT_CROSS_TRIPLE})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
set(ENV{PKG_CONFIG_LIBDIR} ${HWT_RISCV64_SYSROOT}/usr/lib/pkgconfig)
set(ENV{PKG_CONFIG_SYSROOT_DIR} "")

# The sysroot's shared libraries are found at link time through -rpath-link
# and at run time under qemu through LD_LIBRARY_PATH (set in the emulator
# command: qemu-user passes its environment to the guest's loader).
set(CMAKE_EXE_LINKER_FLAGS_INIT "-Wl,-rpath-link,${HWT_RISCV64_SYSROOT}/usr/lib")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "-Wl,-rpath-link,${HWT_RISCV64_SYSROOT}/usr/lib")

# qemu-user runs the tests with the cross C library's loader (-L); there is
# no multiarch libc6:riscv64 to mix with, so the two cannot disagree.
find_program(HWT_QEMU_RISCV64 qemu-riscv64)
if(HWT_QEMU_RISCV64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${HWT_QEMU_RISCV64} -L /usr/${HWT_CROSS_TRIPLE}
      -E LD_LIBRARY_PATH=${HWT_RISCV64_SYSROOT}/usr/lib)
endif()
