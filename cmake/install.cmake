# cmake --install: the libraries, the public headers, pkg-config and CMake
# package files, the CLI, its man pages, bash completion and the shipped
# INI profiles.
include(CMakePackageConfigHelpers)

install(TARGETS hwtrace_shared hwtrace_static EXPORT hwtraceTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS hwtrace RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/hwtrace
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")
install(FILES ${CMAKE_BINARY_DIR}/include/hwtrace/version.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/hwtrace)

# pkg-config: the libraries libhwtrace.a needs, by module where Debian
# ships a .pc file, else by -l.
set(HWT_PC_REQUIRES "libelf libzstd libseccomp")
set(HWT_PC_LIBS "-liniparser -lpthread")
if(HWT_ATOMIC_LIBS)
  string(APPEND HWT_PC_LIBS " -latomic")
endif()
if(HWT_WITH_LIBIPT)
  string(APPEND HWT_PC_LIBS " -lipt")
endif()
if(HWT_WITH_OPENCSD)
  string(APPEND HWT_PC_REQUIRES " libopencsd")
  string(APPEND HWT_PC_LIBS " -lopencsd_c_api")
endif()
if(HWT_WITH_CAPSTONE)
  string(APPEND HWT_PC_REQUIRES " capstone")
endif()
file(RELATIVE_PATH HWT_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
configure_file(${CMAKE_SOURCE_DIR}/cmake/hwtrace.pc.in
               ${CMAKE_BINARY_DIR}/hwtrace.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/hwtrace.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

set(HWT_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/hwtrace)
install(EXPORT hwtraceTargets NAMESPACE hwtrace:: DESTINATION ${HWT_CMAKE_DIR})
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/hwtraceConfig.cmake.in
    ${CMAKE_BINARY_DIR}/hwtraceConfig.cmake INSTALL_DESTINATION ${HWT_CMAKE_DIR})
# 0.x: only the same minor version is compatible.
write_basic_package_version_file(${CMAKE_BINARY_DIR}/hwtraceConfigVersion.cmake
    VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/hwtraceConfig.cmake
              ${CMAKE_BINARY_DIR}/hwtraceConfigVersion.cmake
        DESTINATION ${HWT_CMAKE_DIR})

install(FILES ${CMAKE_SOURCE_DIR}/tools/completion/hwtrace.bash
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
        RENAME hwtrace)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/configs/
        DESTINATION ${CMAKE_INSTALL_DATADIR}/hwtrace/configs)
include(cmake/install_python.cmake)
