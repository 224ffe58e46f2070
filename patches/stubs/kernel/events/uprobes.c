#include "internal.h"
#include <linux/uprobes.h>

/* uprobes.c: uprobes cannot be registered, so none is ever hit */
#ifdef CONFIG_UPROBES
void __init uprobes_init(void)
{
}

struct uprobe *uprobe_register(struct inode *inode, loff_t offset,
			       loff_t ref_ctr_offset,
			       struct uprobe_consumer *uc)
{
	return ERR_PTR(-EOPNOTSUPP);
}
EXPORT_SYMBOL_GPL(uprobe_register);

int uprobe_apply(struct uprobe *u, struct uprobe_consumer *uc, bool add)
{
	return -EOPNOTSUPP;
}
EXPORT_SYMBOL_GPL(uprobe_apply);

void uprobe_unregister_nosync(struct uprobe *u, struct uprobe_consumer *uc)
{
}
EXPORT_SYMBOL_GPL(uprobe_unregister_nosync);

void uprobe_unregister_sync(void)
{
}
EXPORT_SYMBOL_GPL(uprobe_unregister_sync);

int uprobe_mmap(struct vm_area_struct *vma)
{
	return 0;
}

void uprobe_munmap(struct vm_area_struct *vma, unsigned long start,
		   unsigned long end)
{
}

void uprobe_start_dup_mmap(void)
{
}

void uprobe_end_dup_mmap(void)
{
}

void uprobe_dup_mmap(struct mm_struct *oldmm, struct mm_struct *newmm)
{
}

void uprobe_clear_state(struct mm_struct *mm)
{
}

void uprobe_copy_process(struct task_struct *t, unsigned long flags)
{
}

void uprobe_free_utask(struct task_struct *t)
{
}

bool uprobe_deny_signal(void)
{
	return false;
}

void uprobe_notify_resume(struct pt_regs *regs)
{
}

int uprobe_pre_sstep_notifier(struct pt_regs *regs)
{
	return 0;
}

int uprobe_post_sstep_notifier(struct pt_regs *regs)
{
	return 0;
}

unsigned long uprobe_get_trap_addr(struct pt_regs *regs)
{
	return instruction_pointer(regs);
}

unsigned long uprobe_get_trampoline_vaddr(void)
{
	return UPROBE_NO_TRAMPOLINE_VADDR;
}

void uprobe_handle_trampoline(struct pt_regs *regs)
{
}

void uprobe_callchain_fixup(u64 *ip, unsigned int nr)
{
}
#endif
