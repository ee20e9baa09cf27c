/* SPDX-License-Identifier: MIT */
/* What the harness knows of its board: the SysTick-based instruction counter and the stack's peak. */
#ifndef MCU_BOARD_H
#define MCU_BOARD_H

#include <stdint.h>

/** Starts SysTick on the processor clock (MCU_CPU_HZ, from the build) with a wrap interrupt. */
void mcu_counter_start(void);

/** Virtual nanoseconds since mcu_counter_start(): under QEMU's -icount shift=0 the virtual clock
 *  advances 1 ns per executed instruction, so this is the instruction count (to one SysTick period). */
uint64_t mcu_counter_ns(void);

/** Deepest stack use since reset in bytes (the free RAM was painted with a pattern). */
uint32_t mcu_stack_peak(void);

#endif
