# Writes one public header for installation (cmake -P, from
# cmake/install.cmake): the source header with its includes of other
# pascal headers ("model/static.h", as the source tree writes them) turned
# into <pascal/model/static.h>, so that the installed headers need only the
# include folder that holds pascal/ (no -I.../include/pascal).
#   -DIN=source header  -DOUT=header to write
file(READ ${IN} text)
string(REGEX REPLACE "#include \"((common|model|vocab|devices|sweeps|engine|calibrate|validate|spot|info|output)/[^\"]+)\"" "#include <pascal/\\1>"
       text "${text}")
file(WRITE ${OUT} "${text}")
