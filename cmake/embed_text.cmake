# Turns a text file of the tree into a C string, for the library to write
# out (the view page's script and style, analysis/view/).
#   cmake -DINPUT=FILE -DOUTPUT=FILE.c -DNAME=symbol -P embed_text.cmake
# The text goes into an HTML element, so it must not close one: a file
# holding "</script" or "</style" stops the build.
file(READ "${INPUT}" text HEX)
file(READ "${INPUT}" plain)
string(TOLOWER "${plain}" lower)
foreach(closer "</script" "</style")
  string(FIND "${lower}" "${closer}" at)
  if(NOT at EQUAL -1)
    message(FATAL_ERROR "${INPUT} holds ${closer}, which would end its element in the page")
  endif()
endforeach()
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${text}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" bytes "${bytes}")
get_filename_component(source "${INPUT}" NAME)
file(WRITE "${OUTPUT}"
  "/* Generated from ${source} by cmake/embed_text.cmake: do not edit. */\n"
  "const char ${NAME}[] = {\n${bytes}0x00};\n")
