/* SPDX-License-Identifier: MIT */
/* Instruction counter of the harness: SysTick (part of every Cortex-M core QEMU models) read against QEMU's icount clock. */
#include "mcu_board.h"

#ifndef MCU_CPU_HZ
#error "MCU_CPU_HZ (the board's processor clock that drives SysTick) must be defined"
#endif

#define SYST_CSR (*(volatile uint32_t *)0xe000e010u)
#define SYST_RVR (*(volatile uint32_t *)0xe000e014u)
#define SYST_CVR (*(volatile uint32_t *)0xe000e018u)
#define SYST_ENABLE 1u
#define SYST_TICKINT 2u
#define SYST_CLKSOURCE 4u /* the processor clock, not the optional reference clock */
#define SYST_RELOAD 0xffffffu /* the counter has 24 bits */

static volatile uint32_t wraps;

void systick_handler(void)
{
    ++wraps;
}

void mcu_counter_start(void)
{
    SYST_CSR = 0;
    wraps = 0;
    SYST_RVR = SYST_RELOAD;
    SYST_CVR = 0; /* any write clears the counter; it reloads on the next tick */
    SYST_CSR = SYST_ENABLE | SYST_TICKINT | SYST_CLKSOURCE;
    while (SYST_CVR == 0) { /* the cleared counter reloads on the first tick: count from there */
    }
}

uint64_t mcu_counter_ns(void)
{
    uint32_t w, v;
    /* The counter counts down; a wrap between the two reads of `wraps` means read again. */
    do {
        w = wraps;
        v = SYST_CVR;
    } while (w != wraps);
    {
        const uint64_t ticks = (uint64_t)w * (SYST_RELOAD + 1u) + (SYST_RELOAD - v);
        return ticks * 1000000000u / MCU_CPU_HZ;
    }
}
