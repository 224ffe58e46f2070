// SPDX-License-Identifier: GPL-2.0
/*
 * What the rest of the kernel calls for features this series has not
 * built yet: the sample-rate heuristic and the PMU debug dump (no-ops).
 */
#include "internal.h"

void perf_sample_event_took(u64 sample_len_ns)
{
}

void perf_event_print_debug(void)
{
}
