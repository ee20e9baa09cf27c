/* SPDX-License-Identifier: MIT */
/* Reset, vector table and fault handler of the bare-metal harness (Cortex-M0/M0+/M4), no C library start files. */
#include "mcu_board.h"
#include "mcu_semihost.h"

#include <stdint.h>

/* From the linker script (mcu_sections.ld). */
extern uint32_t __data_load[], __data_start[], __data_end[], __bss_start[], __bss_end[], __stack_top[];

int main(void);

#define STACK_PAINT 0x5a5a5a5au

/* Fill the free RAM between the static data and the stack in use with a pattern, so that
 * mcu_stack_peak() can tell how deep the stack ever went. */
static void paint_stack(void)
{
    uint32_t *p = __bss_end;
    uint32_t *sp;
    __asm__ volatile("mov %0, sp" : "=r"(sp));
    while (p < sp - 16) /* leave the current frame alone */
        *p++ = STACK_PAINT;
}

uint32_t mcu_stack_peak(void)
{
    const uint32_t *p = __bss_end;
    while (p < __stack_top && *p == STACK_PAINT)
        ++p;
    return (uint32_t)((uintptr_t)__stack_top - (uintptr_t)p);
}

void reset_handler(void)
{
    uint32_t *src = __data_load, *dst = __data_start;
    while (dst < __data_end)
        *dst++ = *src++;
    for (dst = __bss_start; dst < __bss_end; ++dst)
        *dst = 0;
#if defined(__ARM_FP)
    /* The FPU is off after reset: grant full access to CP10 and CP11 before any float op. */
    *(volatile uint32_t *)0xe000ed88u |= 0xfu << 20;
    __asm__ volatile("dsb\n\tisb" ::: "memory");
#endif
    paint_stack();
    sh_exit(main() == 0);
}

static void fault_handler(void)
{
    sh_puts("mcu-apply: hard fault\n");
    sh_exit(0);
}

void systick_handler(void);

/* The architecture's first 16 entries; the harness enables no external interrupt. */
__attribute__((section(".vectors"), used)) static void (*const vectors[16])(void) = {
    (void (*)(void))(uintptr_t)__stack_top,
    reset_handler,
    fault_handler, /* NMI */
    fault_handler, /* HardFault */
    fault_handler, /* MemManage (v7-M) */
    fault_handler, /* BusFault (v7-M) */
    fault_handler, /* UsageFault (v7-M) */
    0, 0, 0, 0,
    fault_handler, /* SVCall */
    0, 0,
    fault_handler, /* PendSV */
    systick_handler,
};
