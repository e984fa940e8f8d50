# The Python package python/hwtrace, installed into the prefix's
# site-packages with a _libpath.py that names the library installed
# beside it, so `import hwtrace` finds libhwtrace.so.0 without
# LD_LIBRARY_PATH. The directory is HWT_PYTHON_DIR under the prefix:
# Debian's Python searches PREFIX/lib/python3.X/dist-packages (for
# /usr/local) where other Pythons search .../site-packages; give
# -DHWT_PYTHON_DIR=... for another layout.
find_program(HWT_PYTHON3 NAMES python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(NOT HWT_PYTHON3)
  find_program(HWT_PYTHON3 python3)
endif()
set(hwt_py_default "")
if(HWT_PYTHON3)
  execute_process(
    COMMAND ${HWT_PYTHON3} -c "import sys; d='dist-packages' if any(p.endswith('dist-packages') for p in sys.path) else 'site-packages'; print('lib/python%d.%d/%s' % (sys.version_info[0], sys.version_info[1], d))"
    OUTPUT_VARIABLE hwt_py_default OUTPUT_STRIP_TRAILING_WHITESPACE)
endif()
if(NOT hwt_py_default)
  set(hwt_py_default lib/python3/site-packages)
endif()
set(HWT_PYTHON_DIR "${hwt_py_default}" CACHE STRING
    "where the hwtrace Python package goes, under the install prefix")

install(DIRECTORY ${CMAKE_SOURCE_DIR}/python/hwtrace
        DESTINATION ${HWT_PYTHON_DIR}
        PATTERN __pycache__ EXCLUDE)
# Written at install time: the prefix may be given then (--prefix).
install(CODE "
  set(hwt_lib \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/libhwtrace.so.${PROJECT_VERSION_MAJOR}\")
  set(hwt_py \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${HWT_PYTHON_DIR}/hwtrace/_libpath.py\")
  message(STATUS \"Installing: \${hwt_py}\")
  file(WRITE \"\${hwt_py}\" \"# Written by cmake --install: the library installed with the package.\\nLIBRARY = '\${hwt_lib}'\\n\")
")
