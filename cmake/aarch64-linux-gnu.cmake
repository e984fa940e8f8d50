# Cross-build for arm64 Linux with Debian's gcc-aarch64-linux-gnu and the
# arm64 libraries installed through multiarch (libfoo-dev:arm64). Used by
# `make check-arm64`:
#   cmake -S . -B build-arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake
#         -DHWT_WITH_LIBIPT=OFF
# Tests run through qemu-user (CMAKE_CROSSCOMPILING_EMULATOR below).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(HWT_CROSS_TRIPLE aarch64-linux-gnu)

set(CMAKE_C_COMPILER ${HWT_CROSS_TRIPLE}-gcc)
set(CMAKE_CXX_COMPILER ${HWT_CROSS_TRIPLE}-g++)
set(CMAKE_LIBRARY_ARCHITECTURE ${HWT_CROSS_TRIPLE})

# Headers of multiarch packages live in /usr/include (shared by every
# architecture), their libraries in /usr/lib/aarch64-linux-gnu; the cross
# C library is in /usr/aarch64-linux-gnu.
set(CMAKE_FIND_ROOT_PATH /usr/${HWT_CROSS_TRIPLE})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)

set(ENV{PKG_CONFIG_LIBDIR}
    /usr/lib/${HWT_CROSS_TRIPLE}/pkgconfig:/usr/share/pkgconfig)

# qemu-user runs the tests. With the multiarch libc6:arm64 installed (the
# arm64 -dev packages pull it in) its loader is /lib/ld-linux-aarch64.so.1
# and qemu needs no -L; -L /usr/aarch64-linux-gnu would pair the cross
# sysroot's loader with the multiarch libc.so.6, two glibc builds whose
# private layouts differ: the first pthread_create then spins forever
# (cmake/check_emulator.cmake checks this at configure time).
find_program(HWT_QEMU_AARCH64 qemu-aarch64)
if(HWT_QEMU_AARCH64)
  if(EXISTS /lib/ld-linux-aarch64.so.1)
    set(CMAKE_CROSSCOMPILING_EMULATOR ${HWT_QEMU_AARCH64})
  else()
    set(CMAKE_CROSSCOMPILING_EMULATOR ${HWT_QEMU_AARCH64} -L /usr/${HWT_CROSS_TRIPLE})
  endif()
endif()
