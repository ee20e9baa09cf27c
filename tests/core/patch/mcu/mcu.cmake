# SPDX-License-Identifier: MIT
# core/patch on Cortex-M: the bare-metal apply harness cross-built with arm-none-eabi-gcc (newlib
# for memcpy/memset/strcmp only), for QEMU's mps2-an386 (Cortex-M4F) and microbit (Cortex-M0,
# the Cortex-M0+'s ARMv6-M instruction set); the test mcu_apply applies real bundles in QEMU and
# compares with dpu-apply byte for byte. Included from tests/core/patch/CMakeLists.txt.
find_program(DPU_ARM_GCC NAMES arm-none-eabi-gcc)
find_program(DPU_QEMU_ARM NAMES qemu-system-arm)
set(DPU_MCU_NEWLIB OFF)
if(DPU_ARM_GCC)
  # newlib-nano (libnewlib-arm-none-eabi): gcc prints the bare name when the file is missing
  execute_process(COMMAND ${DPU_ARM_GCC} -print-file-name=libc_nano.a OUTPUT_VARIABLE _nano
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(IS_ABSOLUTE "${_nano}")
    set(DPU_MCU_NEWLIB ON)
  endif()
endif()

if(NOT (DPU_ARM_GCC AND DPU_QEMU_ARM AND DPU_MCU_NEWLIB))
  message(STATUS "mcu_apply NOT registered: needs gcc-arm-none-eabi, libnewlib-arm-none-eabi and "
                 "qemu-system-arm (scripts/deps installs them)")
  return()
endif()

set(_mcu_dir ${CMAKE_CURRENT_LIST_DIR})
get_target_property(_mcu_lib_sources dpu_patch SOURCES) # the library's one list (absolute paths)
set(_mcu_harness ${_mcu_dir}/mcu_apply.c ${_mcu_dir}/mcu_counter.c ${_mcu_dir}/mcu_semihost.c
                 ${_mcu_dir}/mcu_startup.c)
file(GLOB _mcu_headers ${_mcu_dir}/*.h ${_mcu_dir}/*.ld ${PROJECT_SOURCE_DIR}/core/patch/include/*.h
                       ${PROJECT_SOURCE_DIR}/core/patch/src/*.h)
# The library exactly as firmware_patch builds it (C99, freestanding, strict warnings as errors);
# the harness needs GNU C for its inline assembly.
set(_mcu_lib_flags -std=c99 -ffreestanding -fno-builtin -Wall -Wextra -Wpedantic -Werror -Wshadow
                   -Wconversion -Wstrict-prototypes -ffunction-sections -fdata-sections)
set(_mcu_m4 -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16)
set(_mcu_m0 -mcpu=cortex-m0plus -mthumb -mfloat-abi=soft)

# dpu_mcu_image(<name> <opt> <board script> <cpu Hz> <cpu flags...>): builds mcu/<name>.elf and
# keeps the library's objects in mcu/<name>/lib (their size is the library's code size).
function(dpu_mcu_image name opt script hz)
  set(out ${CMAKE_CURRENT_BINARY_DIR}/mcu/${name})
  set(lib_objs)
  foreach(src ${_mcu_lib_sources})
    get_filename_component(base ${src} NAME_WE)
    list(APPEND lib_objs ${out}/lib/${base}.o)
  endforeach()
  set(harness_objs)
  foreach(src ${_mcu_harness})
    get_filename_component(base ${src} NAME_WE)
    list(APPEND harness_objs ${out}/${base}.o)
  endforeach()
  add_custom_command(OUTPUT ${out}.elf
    COMMAND ${CMAKE_COMMAND} -E make_directory ${out}/lib
    COMMAND ${CMAKE_COMMAND} -E chdir ${out}/lib ${DPU_ARM_GCC} ${ARGN} ${opt} ${_mcu_lib_flags}
            -I${PROJECT_SOURCE_DIR}/core/patch/include -c ${_mcu_lib_sources}
    COMMAND ${CMAKE_COMMAND} -E chdir ${out} ${DPU_ARM_GCC} ${ARGN} ${opt} -std=gnu99 -Wall -Wextra -Werror
            -ffunction-sections -fdata-sections -DMCU_CPU_HZ=${hz} -I${PROJECT_SOURCE_DIR}/core/patch/include
            -c ${_mcu_harness}
    COMMAND ${DPU_ARM_GCC} ${ARGN} -nostartfiles --specs=nano.specs -Wl,--gc-sections -L${_mcu_dir}
            -T ${_mcu_dir}/${script} -Wl,-Map=${out}.map -o ${out}.elf ${harness_objs} ${lib_objs}
    DEPENDS ${_mcu_lib_sources} ${_mcu_harness} ${_mcu_headers}
    COMMENT "Cross-building the Cortex-M apply harness ${name}" VERBATIM)
  set(DPU_MCU_ELF_${name} ${out}.elf PARENT_SCOPE)
endfunction()

# QEMU 7.2 clocks SysTick at 25 MHz on mps2-an386 and 16 MHz on microbit (the processor clocks;
# mcu_apply_check.cmake checks the counter against a loop of known length on each).
dpu_mcu_image(m4-Os -Os mps2-an386.ld 25000000 ${_mcu_m4})
dpu_mcu_image(m0-Os -Os microbit.ld 16000000 ${_mcu_m0})
add_custom_target(dpu_mcu_images ALL DEPENDS ${DPU_MCU_ELF_m4-Os} ${DPU_MCU_ELF_m0-Os})
# -O2 builds: their code size is documented and checked (mcu_code_size); bench/mcu/measure.sh also
# counts their instructions (the other common setting)
dpu_mcu_image(m4-O2 -O2 mps2-an386.ld 25000000 ${_mcu_m4})
dpu_mcu_image(m0-O2 -O2 microbit.ld 16000000 ${_mcu_m0})
add_custom_target(dpu_mcu_images_o2 ALL DEPENDS ${DPU_MCU_ELF_m4-O2} ${DPU_MCU_ELF_m0-O2})

add_test(NAME mcu_apply
  COMMAND ${CMAKE_COMMAND} -DQEMU=${DPU_QEMU_ARM} -DAPPLY=$<TARGET_FILE:dpu-apply>
          -DFIXTURES=${PROJECT_SOURCE_DIR}/tests/data/mcu
          "-DIMAGES=mps2-an386=${DPU_MCU_ELF_m4-Os}|microbit=${DPU_MCU_ELF_m0-Os}"
          -DWORK=${CMAKE_CURRENT_BINARY_DIR}/mcu/work -P ${_mcu_dir}/mcu_apply_check.cmake)
set_tests_properties(mcu_apply PROPERTIES TIMEOUT 180 LABELS core)

# The code sizes the documents give (docs/benchmarks.md section 17, docs/fleet.md) are the build's:
# the library's objects of the four images and the -Os harness images, measured here.
find_program(DPU_ARM_SIZE NAMES arm-none-eabi-size)
if(DPU_ARM_SIZE)
  set(_mcu_lib_names)
  foreach(src ${_mcu_lib_sources})
    get_filename_component(base ${src} NAME_WE)
    list(APPEND _mcu_lib_names ${base})
  endforeach()
  list(JOIN _mcu_lib_names "|" _mcu_lib_names)
  add_test(NAME mcu_code_size
    COMMAND ${CMAKE_COMMAND} -DSIZE=${DPU_ARM_SIZE} -DGCC=${DPU_ARM_GCC} -DIMAGES=${CMAKE_CURRENT_BINARY_DIR}/mcu
            -DLIB_NAMES=${_mcu_lib_names} -DDOCS=${PROJECT_SOURCE_DIR}/docs -P ${_mcu_dir}/mcu_size_check.cmake)
  set_tests_properties(mcu_code_size PROPERTIES TIMEOUT 60 LABELS core
                       SKIP_REGULAR_EXPRESSION "mcu_code_size skipped")
endif()
message(STATUS "mcu_apply registered: core/patch applied in qemu-system-arm (mps2-an386, microbit)")
