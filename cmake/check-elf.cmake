# ELF header checker for cross builds, run by ctest (test cross.elf_header) as:
#   cmake -DFILES=<exe>|<exe>... -DCLASS=<1|2> -DDATA=<1|2> -P check-elf.cmake
# Passes only if every FILE is an ELF file of class CLASS (1: 32-bit, 2: 64-bit)
# and data encoding DATA (1: little-endian, 2: big-endian): the executables
# were built for the target machine, not the host.
foreach(_var FILES CLASS DATA)
  if(NOT DEFINED ${_var} OR "${${_var}}" STREQUAL "")
    message(FATAL_ERROR "check-elf.cmake: -D${_var}=... is required")
  endif()
endforeach()
string(REPLACE "|" ";" _files "${FILES}")
foreach(_file IN LISTS _files)
  # e_ident: 7f 'E' 'L' 'F', then EI_CLASS and EI_DATA.
  file(READ "${_file}" _ident LIMIT 6 HEX)
  if(NOT _ident MATCHES "^7f454c46(..)(..)$")
    message(SEND_ERROR "${_file}: not an ELF file (starts ${_ident})")
  elseif(NOT CMAKE_MATCH_1 EQUAL CLASS OR NOT CMAKE_MATCH_2 EQUAL DATA)
    message(SEND_ERROR "${_file}: ELF class ${CMAKE_MATCH_1}, data ${CMAKE_MATCH_2}; "
      "expected class ${CLASS}, data ${DATA}")
  else()
    message(STATUS "${_file}: ELF class ${CLASS}, data ${DATA}")
  endif()
endforeach()
