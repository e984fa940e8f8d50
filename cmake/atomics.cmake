# Whether C11 atomics on small objects link without libatomic. GCC before
# 13 has no inline one-byte atomic exchange on RISC-V and calls
# __atomic_exchange_1 in libatomic (the driver adds -latomic only with
# -pthread), so on such a compiler the library links libatomic; elsewhere
# (x86-64, arm64, newer GCC) nothing is added. Sets HWT_ATOMIC_LIBS.
include(CheckCSourceCompiles)
include(CMakePushCheckState)
set(_hwt_atomics_src [=[
#include <stdatomic.h>
#include <stdint.h>
static atomic_bool flag;
static _Atomic uint16_t half;
static _Atomic uint64_t word;
int main(void)
{
	atomic_store(&half, 1);
	return (int)atomic_exchange(&flag, 1) + (int)atomic_fetch_add(&half, 1) +
	       (int)atomic_fetch_add(&word, 1);
}
]=])
check_c_source_compiles("${_hwt_atomics_src}" HWT_ATOMICS_INLINE)
set(HWT_ATOMIC_LIBS "")
if(NOT HWT_ATOMICS_INLINE)
  cmake_push_check_state(RESET)
  set(CMAKE_REQUIRED_LIBRARIES atomic)
  check_c_source_compiles("${_hwt_atomics_src}" HWT_ATOMICS_WITH_LIBATOMIC)
  cmake_pop_check_state()
  if(NOT HWT_ATOMICS_WITH_LIBATOMIC)
    message(FATAL_ERROR "C11 atomics link neither inline nor with libatomic: "
      "install the compiler's libatomic (Debian: libatomic1)")
  endif()
  set(HWT_ATOMIC_LIBS atomic)
  message(STATUS "C11 atomics need libatomic: linking it")
endif()
