# SPDX-License-Identifier: MIT
# CTest script of mcu_code_size: measures core/patch's Cortex-M code size as the mcu images build it
# and fails when the figures documented in docs/benchmarks.md section 17 and docs/fleet.md differ.
# Usage: cmake -DSIZE=<arm-none-eabi-size> -DGCC=<arm-none-eabi-gcc> -DIMAGES=<dir of the mcu images>
#              -DLIB_NAMES=<a|b|...> -DDOCS=<docs dir> -P mcu_size_check.cmake
# The figures hold for one toolchain, the one section 17 names; with another the check is skipped
# (it prints "mcu_code_size skipped", CTest's SKIP_REGULAR_EXPRESSION) rather than failed.
foreach(v SIZE GCC IMAGES LIB_NAMES DOCS)
  if(NOT DEFINED ${v} OR "${${v}}" STREQUAL "")
    message(FATAL_ERROR "mcu_code_size: ${v} not given")
  endif()
endforeach()
string(REPLACE "|" ";" LIB_NAMES "${LIB_NAMES}")

# 12345 -> "12,345", as the documents write their figures.
function(thousands n out_var)
  set(s "${n}")
  set(r "")
  string(LENGTH "${s}" len)
  while(len GREATER 3)
    math(EXPR cut "${len} - 3")
    string(SUBSTRING "${s}" ${cut} 3 tail)
    string(SUBSTRING "${s}" 0 ${cut} s)
    set(r ",${tail}${r}")
    string(LENGTH "${s}" len)
  endwhile()
  set(${out_var} "${s}${r}" PARENT_SCOPE)
endfunction()

# Runs `size` (-t for several files) and sets <prefix>_TEXT, _DATA, _BSS from the totals line, or
# from the only line for one file.
function(measure prefix)
  execute_process(COMMAND ${SIZE} -t ${ARGN} OUTPUT_VARIABLE out RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "mcu_code_size: ${SIZE} failed: ${err}")
  endif()
  if(NOT out MATCHES "[ \t]*([0-9]+)[ \t]+([0-9]+)[ \t]+([0-9]+)[ \t]+[0-9]+[ \t]+[0-9a-f]+[ \t]+\\(TOTALS\\)")
    message(FATAL_ERROR "mcu_code_size: no TOTALS line in: ${out}")
  endif()
  set(${prefix}_TEXT ${CMAKE_MATCH_1} PARENT_SCOPE)
  set(${prefix}_DATA ${CMAKE_MATCH_2} PARENT_SCOPE)
  set(${prefix}_BSS ${CMAKE_MATCH_3} PARENT_SCOPE)
endfunction()

# The toolchain the documents' figures are for.
file(READ ${DOCS}/benchmarks.md bench)
string(FIND "${bench}" "\n## 17. " at)
if(at LESS 0)
  message(FATAL_ERROR "mcu_code_size: docs/benchmarks.md has no section 17")
endif()
string(SUBSTRING "${bench}" ${at} -1 section)
string(FIND "${section}" "\n## 18. " end)
if(end GREATER 0)
  string(SUBSTRING "${section}" 0 ${end} section)
endif()
if(NOT section MATCHES "`gcc-arm-none-eabi` ([0-9.]+)")
  message(FATAL_ERROR "mcu_code_size: section 17 names no gcc-arm-none-eabi version")
endif()
set(documented_gcc ${CMAKE_MATCH_1})
execute_process(COMMAND ${GCC} -dumpfullversion OUTPUT_VARIABLE gcc_version OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT gcc_version STREQUAL documented_gcc)
  message("mcu_code_size skipped: the figures are for gcc-arm-none-eabi ${documented_gcc}, this is ${gcc_version}")
  return()
endif()

# What the build measures: the library's own objects per image (text includes the read-only data),
# and the whole -Os harness image.
set(measured)
foreach(image m4-Os m0-Os m4-O2 m0-O2)
  set(objects)
  foreach(name ${LIB_NAMES})
    if(NOT EXISTS ${IMAGES}/${image}/lib/${name}.o)
      message(FATAL_ERROR "mcu_code_size: ${IMAGES}/${image}/lib/${name}.o missing: build dpu_mcu_images "
                          "and dpu_mcu_images_o2 first")
    endif()
    list(APPEND objects ${IMAGES}/${image}/lib/${name}.o)
  endforeach()
  measure(lib ${objects})
  if(NOT lib_DATA EQUAL 0 OR NOT lib_BSS EQUAL 0)
    message(FATAL_ERROR "mcu_code_size: ${image}: the library has data ${lib_DATA} B and bss ${lib_BSS} B; "
                        "the documents say it has none (all state lives in the caller's context)")
  endif()
  thousands(${lib_TEXT} ${image}_lib)
endforeach()
foreach(image m4-Os m0-Os)
  measure(elf ${IMAGES}/${image}.elf)
  math(EXPR flash "${elf_TEXT} + ${elf_DATA}")
  thousands(${flash} ${image}_elf)
endforeach()
message(STATUS "measured with gcc-arm-none-eabi ${gcc_version}: library text -Os ${m4-Os_lib} B (M4F), "
               "${m0-Os_lib} B (M0+); -O2 ${m4-O2_lib} B, ${m0-O2_lib} B; whole -Os image ${m4-Os_elf} B, "
               "${m0-Os_elf} B")

# Each documented figure: the text around it (a regular expression with one group per figure) and
# the measured values, in order.
set(drift)
function(expect file text regex)
  if(NOT text MATCHES "${regex}")
    message(FATAL_ERROR "mcu_code_size: ${file}: the code-size figures are not where this check reads them "
                        "(${regex}); keep them in that form")
  endif()
  set(i 1)
  foreach(want ${ARGN})
    if(NOT CMAKE_MATCH_${i} STREQUAL want)
      list(APPEND drift "${file}: ${CMAKE_MATCH_${i}} B documented where the build measures ${want} B")
    endif()
    math(EXPR i "${i} + 1")
  endforeach()
  set(drift "${drift}" PARENT_SCOPE)
endfunction()

expect("docs/benchmarks.md section 17, the code-size table (Cortex-M4F)" "${section}"
       "\n\\| Cortex-M4F \\| ([0-9,]+) \\| ([0-9,]+) \\|" ${m4-Os_lib} ${m4-O2_lib})
expect("docs/benchmarks.md section 17, the code-size table (Cortex-M0+)" "${section}"
       "\n\\| Cortex-M0\\+ \\(ARMv6-M, soft float\\) \\| ([0-9,]+) \\| ([0-9,]+) \\|" ${m0-Os_lib} ${m0-O2_lib})
expect("docs/benchmarks.md section 17, the whole harness image" "${section}"
       "harness image[^|]* is ([0-9,]+) B \\(M4F\\) and ([0-9,]+) B \\(M0\\+\\) of flash" ${m4-Os_elf} ${m0-Os_elf})
file(READ ${DOCS}/fleet.md fleet)
expect("docs/fleet.md, the device side's code size" "${fleet}"
       "\\*\\*Code\\*\\*: ([0-9,]+) B of flash on a Cortex-M4F, ([0-9,]+) B on a Cortex-M0\\+"
       ${m4-Os_lib} ${m0-Os_lib})
if(drift)
  string(REPLACE ";" "\n  " lines "${drift}")
  message(FATAL_ERROR "mcu_code_size: the documented Cortex-M code sizes drifted from the build:\n  ${lines}\n"
                      "Update the documents to the measured values above.")
endif()
message(STATUS "mcu_code_size: docs/benchmarks.md section 17 and docs/fleet.md give the measured sizes")
