# The report module (included from CMakeLists.txt once libpascal, pascal and
# the tests are defined): its own library, pascal_report, over libpascal
# (the core does not link it); the plotting library, installed from
# the npm registry with `npm ci` (web/package.json, pinned by
# web/package-lock.json) into the build folder; a generated C source that
# embeds that library with the page's template, styles and scripts, so that
# `pascal report` needs neither network nor node; and the browser test.
file(GLOB PASCAL_REPORT_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/report/*.c)
set(PASCAL_WEB_SRC ${CMAKE_SOURCE_DIR}/web)
set(PASCAL_WEB_BIN ${CMAKE_BINARY_DIR}/web)
set(PASCAL_REPORT_ASSETS ${CMAKE_BINARY_DIR}/report_assets.c)
file(MAKE_DIRECTORY ${PASCAL_WEB_BIN})
find_program(PASCAL_NPM npm)
find_program(PASCAL_NODE node)

add_executable(pascal_embed ${CMAKE_SOURCE_DIR}/report/tools/embed.c)

set(embed_args)
set(embed_deps pascal_embed)
foreach(f report.html report.css report.js lab.js sizing.js pareto.js)
  list(APPEND embed_args ${f}=${PASCAL_WEB_SRC}/${f})
  list(APPEND embed_deps ${PASCAL_WEB_SRC}/${f})
endforeach()

set(libs vega/build/vega.min.js vega-lite/build/vega-lite.min.js
         vega-embed/build/vega-embed.min.js)
# vega-lite (and yargs, behind its vl2vg command) declare node >= 20 for
# running them under node; pascal only embeds their browser builds, which node
# never runs, so Debian 12's Node 18 installs them: engine-strict stays off
# even where a user's npmrc turns it on.
if(PASCAL_NPM)
  add_custom_command(OUTPUT ${PASCAL_WEB_BIN}/npm-ci.stamp
    COMMAND ${CMAKE_COMMAND} -E copy ${PASCAL_WEB_SRC}/package.json
            ${PASCAL_WEB_SRC}/package-lock.json ${PASCAL_WEB_BIN}/
    COMMAND ${PASCAL_NPM} ci --no-audit --no-fund --prefer-offline --ignore-scripts
            --engine-strict=false --loglevel=error
    COMMAND ${CMAKE_COMMAND} -E touch ${PASCAL_WEB_BIN}/npm-ci.stamp
    WORKING_DIRECTORY ${PASCAL_WEB_BIN}
    DEPENDS ${PASCAL_WEB_SRC}/package.json ${PASCAL_WEB_SRC}/package-lock.json
    COMMENT "npm ci: the plotting library for pascal report")
  foreach(lib ${libs})
    get_filename_component(name ${lib} NAME)
    list(APPEND embed_args ${name}=${PASCAL_WEB_BIN}/node_modules/${lib})
  endforeach()
  list(APPEND embed_deps ${PASCAL_WEB_BIN}/npm-ci.stamp)
else()
  message(WARNING "npm not found: pascal report will be built without its plotting library "
                  "(scripts/setup.sh installs npm)")
  foreach(lib ${libs})
    get_filename_component(name ${lib} NAME)
    list(APPEND embed_args ${name}=)
  endforeach()
endif()

add_custom_command(OUTPUT ${PASCAL_REPORT_ASSETS}
  COMMAND pascal_embed ${PASCAL_REPORT_ASSETS} ${embed_args}
  DEPENDS ${embed_deps}
  COMMENT "Embedding the report page and its plotting library")
add_library(pascal_report STATIC ${PASCAL_REPORT_SOURCES} ${PASCAL_REPORT_ASSETS})
target_compile_options(pascal_report PRIVATE ${PASCAL_WARNINGS})
target_link_libraries(pascal_report PUBLIC libpascal)
target_link_libraries(pascal_cli PUBLIC pascal_report)
if(TARGET pascal-hooked)
  target_link_libraries(pascal-hooked PRIVATE pascal_report)
endif()
if(TARGET pascal_tests)
  target_link_libraries(pascal_tests PRIVATE pascal_report)
endif()

# The browser test: headless Chromium driven through chromedriver by
# Selenium, all three Debian packages (chromium, chromium-driver,
# python3-selenium), run by Debian's python3 (/usr/bin first: another python3
# on PATH may lack selenium and h5py).  Exit status 77 means skipped (no
# chromium, chromedriver or selenium), which ctest reports as skipped rather
# than passed.
find_program(PASCAL_PYTHON3 NAMES python3 HINTS /usr/bin)
if(PASCAL_TESTS AND TARGET pascal)
  if(PASCAL_PYTHON3)
    add_test(NAME report_browser
      COMMAND ${PASCAL_PYTHON3} ${CMAKE_SOURCE_DIR}/tests/browser/report_browser_test.py
              --pascal $<TARGET_FILE:pascal> --source ${CMAKE_SOURCE_DIR}
              --out ${CMAKE_BINARY_DIR}/browser)
  else()
    add_test(NAME report_browser
      COMMAND sh -c "echo 'report_browser: skipped: python3 not found'; exit 77")
  endif()
  set_tests_properties(report_browser PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300
    ENVIRONMENT "OMP_NUM_THREADS=2")
endif()
