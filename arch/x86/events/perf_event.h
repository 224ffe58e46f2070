/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What x86 code outside arch/x86/events reaches in here for: the PMU
 * interrupt handler that Xen PV's virtual PMU interrupt calls
 * (x86_pmu.handle_irq, arch/x86/xen/pmu.c) and the raw event encoding of
 * resctrl's pseudo-locking measurements (X86_CONFIG(), arch/x86/kernel/
 * cpu/resctrl/pseudo_lock.c).  The handler is the core PMU driver's
 * (pmu.c); without a core PMU it claims nothing.  Its users get
 * <linux/perf_event.h> with it, as they always have from this header
 * (Xen's PMU code relies on that).
 */
#ifndef _ARCH_X86_EVENTS_PERF_EVENT_H
#define _ARCH_X86_EVENTS_PERF_EVENT_H

#include <linux/perf_event.h>
#include <linux/types.h>

struct pt_regs;

/* The driver of the core PMU, as far as other x86 code calls into it. */
struct x86_pmu {
	/* a PMU interrupt: nonzero when one of our counters raised it */
	int (*handle_irq)(struct pt_regs *regs);
};

extern struct x86_pmu x86_pmu;

/*
 * The layout of a raw x86 event (PERF_TYPE_RAW config, IA32_PERFEVTSELx
 * and AMD's PERF_CTL): X86_CONFIG(.event = 0xd1, .umask = 0x10).
 */
union x86_raw_config {
	struct {
		u64 event:8,
		    umask:8,
		    usr:1,
		    os:1,
		    edge:1,
		    pc:1,
		    interrupt:1,
		    any:1,
		    en:1,
		    inv:1,
		    cmask:8,
		    event2:4,
		    reserved:4,
		    go:1,
		    ho:1;
	} bits;
	u64 value;
};

#define X86_CONFIG(args...) (((union x86_raw_config){ .bits = {args} }).value)

#endif /* _ARCH_X86_EVENTS_PERF_EVENT_H */
