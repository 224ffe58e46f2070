// SPDX-License-Identifier: GPL-2.0
/*
 * What the rest of the kernel calls for features this series has not
 * built yet: the PMU debug dump (a no-op).
 */
#include "internal.h"

void perf_event_print_debug(void)
{
}
