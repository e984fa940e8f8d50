# A cross build's tests run through CMAKE_CROSSCOMPILING_EMULATOR. Check once,
# at configure time, that it runs a threaded program: with qemu-user's -L
# pointing at a cross toolchain's sysroot (/usr/aarch64-linux-gnu) while the
# target's multiarch libc6 is also installed, the loader comes from one
# glibc build and libc.so.6 (found through /etc/ld.so.cache) from another;
# their private layouts differ and the first pthread_create spins forever
# in libc. Every capture (and every test of one) would hang at 100% CPU.
set(_hwt_dir ${CMAKE_BINARY_DIR}/CMakeFiles/hwt_emulator_check)
try_compile(_hwt_emu_built ${_hwt_dir}
  SOURCES ${CMAKE_SOURCE_DIR}/cmake/emulator_threads.c
  LINK_LIBRARIES Threads::Threads
  COPY_FILE ${_hwt_dir}/emulator_threads
  OUTPUT_VARIABLE _hwt_emu_log)
if(NOT _hwt_emu_built)
  message(FATAL_ERROR "cannot build the emulator check program:\n${_hwt_emu_log}")
endif()
execute_process(COMMAND ${CMAKE_CROSSCOMPILING_EMULATOR} ${_hwt_dir}/emulator_threads
  TIMEOUT 30 RESULT_VARIABLE _hwt_emu_rc OUTPUT_VARIABLE _hwt_emu_out
  ERROR_VARIABLE _hwt_emu_out)
if(NOT _hwt_emu_rc STREQUAL "0")
  list(JOIN CMAKE_CROSSCOMPILING_EMULATOR " " _hwt_emu_cmd)
  message(FATAL_ERROR
    "the test emulator cannot run a threaded program "
    "(`${_hwt_emu_cmd} emulator_threads`: ${_hwt_emu_rc} ${_hwt_emu_out}).\n"
    "If it timed out: its -L sysroot's dynamic loader and the libc.so.6 it "
    "loads come from different glibc builds (a cross toolchain's sysroot "
    "beside the multiarch libc6 of the target); run without -L so that the "
    "multiarch loader in /lib is used, or point -L at one consistent sysroot.")
endif()
message(STATUS "Test emulator runs threads: ${CMAKE_CROSSCOMPILING_EMULATOR}")
