# Writes the man page pascal.1 (cmake -P, from cmake/install.cmake):
# help2man over `pascal --help` and `pascal --version`, plus a section with
# each command's own --help, so the page says what the binary says.
#   -DPASCAL=path of the binary  -DHELP2MAN=path of help2man  -DOUT=pascal.1
#   -DWORK=folder for the include file
foreach(v PASCAL HELP2MAN OUT WORK)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "manpage.cmake: -D${v}=... is required")
  endif()
endforeach()

execute_process(COMMAND ${PASCAL} --complete OUTPUT_VARIABLE commands RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "manpage.cmake: ${PASCAL} --complete failed (${rc})")
endif()
string(STRIP "${commands}" commands)
string(REPLACE "\n" ";" commands "${commands}")

# roff: backslashes and hyphens escaped, a leading . or ' made literal.
function(roff_escape text out)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REPLACE "-" "\\-" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

set(inc "[SYNOPSIS]\n.B pascal\n\\fICOMMAND\\fR [\\fIoptions\\fR]\n.br\n.B pascal\n\\-\\-help | \\-\\-version\n[COMMANDS]\n")
foreach(cmd ${commands})
  execute_process(COMMAND ${PASCAL} ${cmd} --help OUTPUT_VARIABLE help RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "manpage.cmake: pascal ${cmd} --help failed (${rc})")
  endif()
  roff_escape("${help}" help)
  string(APPEND inc ".SS \"pascal ${cmd}\"\n.nf\n${help}.fi\n")
endforeach()
string(APPEND inc "[EXIT STATUS]\n0 success; 1 a failure while running; 2 bad input (spec, flag, "
                  "unwritable output), with one line naming the file, line, column, key, what was "
                  "expected and what was found; 130 stopped by Ctrl-C (a run can be resumed).\n"
                  "[FILES]\n.I share/pascal/\nunder the installation prefix: device profiles "
                  "(devices/), example sweep specs and calibration reference sets.\n"
                  "[SEE ALSO]\nThe documentation in docs/ of the source tree; docs/library.md "
                  "for the C library and its headers under include/pascal.\n")
file(WRITE ${WORK}/pascal.h2m "${inc}")
execute_process(COMMAND ${HELP2MAN} --no-info --section=1
                        "--name=design-space sweeps of the PASCAL shared-cache model"
                        --include=${WORK}/pascal.h2m --output=${OUT} ${PASCAL}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "manpage.cmake: help2man failed (${rc})")
endif()
