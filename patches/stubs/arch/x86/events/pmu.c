#include "perf_event.h"

/* pmu.c: no core PMU, so no PMU interrupt is ours */
struct x86_pmu x86_pmu;
