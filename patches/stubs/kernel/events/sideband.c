#include "internal.h"
/* sideband.c: no side-band records are written */
atomic_t perf_switch_events;

void __perf_sideband_switch(struct task_struct *other, bool out)
{
}

void perf_event_bpf_event(struct bpf_prog *prog,
			  enum perf_bpf_event_type type, u16 flags)
{
}

void perf_event_comm(struct task_struct *task, bool exec)
{
}

void perf_event_fork(struct task_struct *task)
{
}

void perf_event_ksymbol(u16 ksym_type, u64 addr, u32 len, bool unregister,
			const char *sym)
{
}

void perf_event_mmap(struct vm_area_struct *vma)
{
}

void perf_event_namespaces(struct task_struct *task)
{
}

void perf_event_text_poke(const void *addr, const void *old_bytes,
			  size_t old_len, const void *new_bytes,
			  size_t new_len)
{
}

void perf_sideband_account(struct perf_event *event)
{
}

void perf_sideband_exit(struct task_struct *task,
			struct perf_event_context *ctx)
{
}

void perf_sideband_free(struct perf_event *event)
{
}
