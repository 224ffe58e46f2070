// SPDX-License-Identifier: GPL-2.0
/*
 * Uprobes: breakpoints on an instruction of a file, wherever the file is
 * mapped privately and read-only in a way that may run it (see
 * vma_takes_probes()), with handlers run in the task that hits them.
 *
 * A uprobe is an (inode, offset) pair with its consumers.  Registering the
 * first consumer writes the architecture's breakpoint instruction over the
 * probed instruction in every mapping of the file whose mm a consumer
 * wants (its filter); mappings made later get it from uprobe_mmap().  The
 * write goes to a private copy of the page, as ptrace's does: the file and
 * its page cache never see it.  A hit traps to the arch code, which flags
 * the task (TIF_UPROBE); on its way back to user space the task runs the
 * handlers, then executes the displaced instruction, either emulated by the
 * arch code or single-stepped from a slot of the mm's XOL page (a special
 * mapping, "[uprobes]"), and goes on after it.  A return probe replaces the
 * return address with the trampoline at the start of the XOL page and keeps
 * the original on the task's stack of return instances; the trampoline
 * brings the task back here, the return handlers run and the task resumes
 * at the original address.  A USDT semaphore (the ref_ctr_offset of a
 * uprobe) is a short in the file's data that is raised by one in each mm
 * while the breakpoint is in that mm's text.
 *
 * Locking (outer first):
 *   uprobe->reg_rwsem     registration walks over the mappings of a uprobe
 *                         (write) and a handler's removal of the breakpoint
 *                         from its own mm (read)
 *     fork_sem        (percpu, write) fork (read) does not copy an mm
 *                         while a registration walks
 *       mmap_lock         of each mm, read, while its text is written
 *         uprobe->prep_mutex  first read and analysis of the instruction
 *         delayed_lock    semaphores waiting for their mapping
 *           uprobes_lock  (spinlock) the tree of uprobes
 * uprobe_mmap() looks at uprobes_tree and delayed_ref_ctrs without their
 * locks only to leave early: a registration that races with the mmap finds
 * the new mapping in its own walk (the vma is in i_mmap before the call).
 * Consumers are added and removed under reg_rwsem; handlers and filters see
 * the list under uprobes_srcu, so a handler may sleep, and
 * uprobe_unregister_sync() waits for those that may still see a removed
 * consumer.  A uprobe lives while it is referenced: a registration, a task
 * at its breakpoint or between call and return, a pending semaphore.
 * The per-task state (struct uprobe_task) is only touched by its task,
 * except at fork and when the task is freed.
 */
#include <linux/cacheflush.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/pagemap.h>
#include <linux/percpu-rwsem.h>
#include <linux/ptrace.h>
#include <linux/rmap.h>
#include <linux/sched/coredump.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/shmem_fs.h>
#include <linux/slab.h>
#include <linux/srcu.h>
#include <linux/task_work.h>
#include <linux/kdebug.h>
#include <linux/uprobes.h>

#include "internal.h"

/* slots of the XOL page; the return trampoline takes the first ones */
#define XOL_SLOTS	(PAGE_SIZE / UPROBE_XOL_SLOT_BYTES)

struct uprobe {
	struct rb_node		node;		/* uprobes_tree, by inode then offset */
	refcount_t		ref;
	struct inode		*inode;		/* held (igrab) */
	loff_t			offset;
	loff_t			ref_ctr_offset;	/* 0: no semaphore */
	struct rw_semaphore	reg_rwsem;
	struct list_head	consumers;
	struct mutex		prep_mutex;	/* the first prepare_uprobe() */
	bool			prepared;	/* arch set up from the insn */
	struct arch_uprobe	arch;
};

/* the XOL page of an mm; freed with the mm (uprobe_clear_state()) */
struct xol_area {
	wait_queue_head_t	wq;		/* tasks waiting for a free slot */
	atomic_t		used;		/* slots taken */
	unsigned long		*bitmap;
	struct page		*page;
	unsigned long		vaddr;
};

/* a semaphore to raise once the mm maps the data holding it */
struct delayed_ref_ctr {
	struct list_head	node;
	struct uprobe		*uprobe;	/* held */
	struct mm_struct	*mm;		/* not held: gone by uprobe_clear_state() */
};

static struct rb_root uprobes_tree = RB_ROOT;
static DEFINE_SPINLOCK(uprobes_lock);
DEFINE_STATIC_SRCU(uprobes_srcu);
DEFINE_STATIC_PERCPU_RWSEM(fork_sem);
static LIST_HEAD(delayed_ref_ctrs);
static DEFINE_MUTEX(delayed_lock);

static void uprobe_warn(struct task_struct *t, const char *what)
{
	pr_warn_ratelimited("uprobe: %s:%d failed to %s\n",
			    t->comm, t->pid, what);
}

/* ---- the tree of uprobes ---- */

static int uprobe_cmp(const struct inode *inode, loff_t offset,
		      const struct uprobe *u)
{
	if (inode != u->inode)
		return inode < u->inode ? -1 : 1;
	if (offset != u->offset)
		return offset < u->offset ? -1 : 1;
	return 0;
}

static struct uprobe *get_uprobe(struct uprobe *u)
{
	refcount_inc(&u->ref);
	return u;
}

static void put_uprobe(struct uprobe *u)
{
	if (!refcount_dec_and_lock(&u->ref, &uprobes_lock))
		return;
	rb_erase(&u->node, &uprobes_tree);
	spin_unlock(&uprobes_lock);
	iput(u->inode);
	kfree(u);
}

/*
 * The uprobe of @inode with the lowest offset in [@from, @to), held, or
 * NULL.  @to == @from + 1 looks one offset up.
 */
static struct uprobe *find_uprobe_range(struct inode *inode, loff_t from,
					loff_t to)
{
	struct rb_node *n, *best = NULL;
	struct uprobe *u;

	spin_lock(&uprobes_lock);
	n = uprobes_tree.rb_node;
	while (n) {
		u = rb_entry(n, struct uprobe, node);
		if (uprobe_cmp(inode, from, u) <= 0) {
			best = n;
			n = n->rb_left;
		} else {
			n = n->rb_right;
		}
	}
	u = best ? rb_entry(best, struct uprobe, node) : NULL;
	if (u && (u->inode != inode || u->offset >= to))
		u = NULL;
	if (u)
		get_uprobe(u);
	spin_unlock(&uprobes_lock);
	return u;
}

/*
 * The uprobe of (@inode, @offset), made if there is none, held.  A second
 * registration must name the same semaphore.
 */
static struct uprobe *get_or_add_uprobe(struct inode *inode, loff_t offset,
					loff_t ref_ctr_offset)
{
	struct rb_node **link, *parent = NULL;
	struct uprobe *new, *u;
	int cmp;

	new = kzalloc(sizeof(*new), GFP_KERNEL);
	if (!new)
		return ERR_PTR(-ENOMEM);
	refcount_set(&new->ref, 1);
	new->offset = offset;
	new->ref_ctr_offset = ref_ctr_offset;
	init_rwsem(&new->reg_rwsem);
	INIT_LIST_HEAD(&new->consumers);
	mutex_init(&new->prep_mutex);

	spin_lock(&uprobes_lock);
	link = &uprobes_tree.rb_node;
	while (*link) {
		parent = *link;
		u = rb_entry(parent, struct uprobe, node);
		cmp = uprobe_cmp(inode, offset, u);
		if (!cmp) {
			get_uprobe(u);
			spin_unlock(&uprobes_lock);
			kfree(new);
			if (u->ref_ctr_offset != ref_ctr_offset) {
				pr_warn("uprobe: ref_ctr_offset mismatch for inode %lu offset %#llx\n",
					inode->i_ino, (unsigned long long)offset);
				put_uprobe(u);
				return ERR_PTR(-EINVAL);
			}
			return u;
		}
		link = cmp < 0 ? &parent->rb_left : &parent->rb_right;
	}
	new->inode = igrab(inode);
	rb_link_node(&new->node, parent, link);
	rb_insert_color(&new->node, &uprobes_tree);
	spin_unlock(&uprobes_lock);
	return new;
}

/* ---- mappings ---- */

/* A mapping whose text may carry a breakpoint: private, of a file. */
static bool vma_is_probeable(struct vm_area_struct *vma)
{
	return vma->vm_file &&
	       !(vma->vm_flags & (VM_HUGETLB | VM_MAYSHARE | VM_IO));
}

/*
 * ... and where a new breakpoint goes: a mapping that may run the text,
 * now or after an mprotect(PROT_EXEC) (VM_MAYEXEC), and that is not
 * writable.  The mapping need not be executable yet: mprotect() changes
 * the flags of a mapping it does not split without telling us, and where
 * it splits one, uprobe_mmap() sees the pieces before their new flags.
 * A writable private mapping is left alone: its text may be the
 * program's own to change (and the breakpoint would be its data).
 */
static bool vma_takes_probes(struct vm_area_struct *vma)
{
	return vma_is_probeable(vma) &&
	       (vma->vm_flags & (VM_WRITE | VM_MAYEXEC)) == VM_MAYEXEC;
}

static loff_t vma_file_start(struct vm_area_struct *vma)
{
	return (loff_t)vma->vm_pgoff << PAGE_SHIFT;
}

static loff_t vma_file_end(struct vm_area_struct *vma)
{
	return vma_file_start(vma) + (vma->vm_end - vma->vm_start);
}

static unsigned long offset_to_vaddr(struct vm_area_struct *vma, loff_t off)
{
	return vma->vm_start + (off - vma_file_start(vma));
}

static bool vma_maps_offset(struct vm_area_struct *vma, struct inode *inode,
			    loff_t off)
{
	return vma->vm_file && file_inode(vma->vm_file) == inode &&
	       off >= vma_file_start(vma) && off < vma_file_end(vma);
}

/* Read @len bytes of @mm at @vaddr, even from text.  mmap_lock held. */
static int peek_user(struct mm_struct *mm, unsigned long vaddr, void *dst,
		     int len)
{
	struct vm_area_struct *vma;
	struct page *page;
	void *kaddr;

	page = get_user_page_vma_remote(mm, vaddr, FOLL_FORCE, &vma);
	if (IS_ERR(page))
		return PTR_ERR(page);
	kaddr = kmap_local_page(page);
	memcpy(dst, kaddr + offset_in_page(vaddr), len);
	kunmap_local(kaddr);
	put_page(page);
	return 0;
}

/*
 * Write @len bytes at @vaddr of @mm the way ptrace pokes text: a private
 * mapping gets its own copy of the page first.  mmap_lock held.
 */
static int poke_user(struct mm_struct *mm, unsigned long vaddr,
		     const void *src, int len)
{
	struct vm_area_struct *vma;
	struct page *page;
	void *kaddr;

	page = get_user_page_vma_remote(mm, vaddr, FOLL_FORCE | FOLL_WRITE,
					&vma);
	if (IS_ERR(page))
		return PTR_ERR(page);
	kaddr = kmap_local_page(page);
	copy_to_user_page(vma, page, vaddr, kaddr + offset_in_page(vaddr),
			  src, len);
	kunmap_local(kaddr);
	set_page_dirty_lock(page);
	put_page(page);
	return 0;
}

/*
 * The breakpoint at @vaddr of @mm was just taken out again.  When the
 * private copy of the page that held it now reads exactly as the file's
 * page, the copy is dropped and the mapping goes back to the page cache
 * (as MADV_DONTNEED would do), so that unprobing leaves no anonymous
 * memory behind.  A copy with other changes (a debugger's) is kept, as
 * is one in a mapping made writable or locked since.  mmap_lock held.
 */
static void drop_private_copy(struct mm_struct *mm, unsigned long vaddr)
{
	struct vm_area_struct *vma;
	struct folio *cached;
	struct page *page;
	bool same = false;
	pgoff_t index;
	void *a, *b;

	page = get_user_page_vma_remote(mm, vaddr, FOLL_FORCE, &vma);
	if (IS_ERR(page))
		return;
	if (!PageAnon(page) || !vma->vm_file ||
	    (vma->vm_flags & (VM_WRITE | VM_LOCKED)))
		goto out;
	index = vma->vm_pgoff + ((vaddr - vma->vm_start) >> PAGE_SHIFT);
	cached = filemap_get_folio(vma->vm_file->f_mapping, index);
	if (IS_ERR(cached))
		goto out;
	if (folio_test_uptodate(cached)) {
		a = kmap_local_page(page);
		b = kmap_local_page(folio_page(cached, index - cached->index));
		same = !memcmp(a, b, PAGE_SIZE);
		kunmap_local(b);
		kunmap_local(a);
	}
	folio_put(cached);
out:
	put_page(page);
	if (same)
		zap_page_range_single(vma, vaddr & PAGE_MASK, PAGE_SIZE, NULL);
}

/* ---- USDT semaphores ---- */

/* The writable private mapping of @mm holding @u's semaphore, or NULL. */
static struct vm_area_struct *ref_ctr_vma(struct uprobe *u,
					  struct mm_struct *mm)
{
	struct vm_area_struct *vma;

	VMA_ITERATOR(vmi, mm, 0);

	for_each_vma(vmi, vma) {
		if ((vma->vm_flags & (VM_WRITE | VM_MAYSHARE)) == VM_WRITE &&
		    vma_maps_offset(vma, u->inode, u->ref_ctr_offset))
			return vma;
	}
	return NULL;
}

static int add_to_ref_ctr(struct uprobe *u, struct vm_area_struct *vma,
			  short delta)
{
	unsigned long vaddr = offset_to_vaddr(vma, u->ref_ctr_offset);
	short val;
	int ret;

	ret = peek_user(vma->vm_mm, vaddr, &val, sizeof(val));
	if (ret)
		return ret;
	if (val + delta < 0 || val + delta > SHRT_MAX) {
		pr_warn("uprobe: semaphore at %#lx would become %d\n",
			vaddr, val + delta);
		return -EINVAL;
	}
	val += delta;
	return poke_user(vma->vm_mm, vaddr, &val, sizeof(val));
}

static void drop_delayed(struct delayed_ref_ctr *d)
{
	list_del(&d->node);
	put_uprobe(d->uprobe);
	kfree(d);
}

/*
 * Raise (@delta 1) or lower (-1) @u's semaphore in @mm.  A semaphore whose
 * data is not mapped yet (the text of a binary is mapped before its data)
 * is raised by uprobe_mmap() when it is.
 */
static int update_ref_ctr(struct uprobe *u, struct mm_struct *mm,
			  short delta)
{
	struct vm_area_struct *vma = ref_ctr_vma(u, mm);
	struct delayed_ref_ctr *d;

	if (vma)
		return add_to_ref_ctr(u, vma, delta);

	mutex_lock(&delayed_lock);
	if (delta > 0) {
		d = kzalloc(sizeof(*d), GFP_KERNEL);
		if (!d) {
			mutex_unlock(&delayed_lock);
			return -ENOMEM;
		}
		d->uprobe = get_uprobe(u);
		d->mm = mm;
		list_add(&d->node, &delayed_ref_ctrs);
	} else {
		list_for_each_entry(d, &delayed_ref_ctrs, node) {
			if (d->uprobe == u && d->mm == mm) {
				drop_delayed(d);
				break;
			}
		}
	}
	mutex_unlock(&delayed_lock);
	return 0;
}

/* @vma is new: raise the semaphores that waited for it. */
static void apply_delayed_ref_ctrs(struct vm_area_struct *vma)
{
	struct delayed_ref_ctr *d, *tmp;
	struct inode *inode = file_inode(vma->vm_file);

	mutex_lock(&delayed_lock);
	list_for_each_entry_safe(d, tmp, &delayed_ref_ctrs, node) {
		if (d->mm != vma->vm_mm ||
		    !vma_maps_offset(vma, inode, d->uprobe->ref_ctr_offset))
			continue;
		if (add_to_ref_ctr(d->uprobe, vma, 1))
			uprobe_warn(current, "raise a USDT semaphore");
		drop_delayed(d);
	}
	mutex_unlock(&delayed_lock);
}

/* ---- breakpoints ---- */

/*
 * Write @opcode at @vaddr: the breakpoint, or the probed instruction back.
 * Nothing is written when the text already is what is asked; the
 * semaphore of the uprobe follows each change.  mmap_lock held.
 */
int uprobe_write_opcode(struct arch_uprobe *auprobe, struct mm_struct *mm,
			unsigned long vaddr, uprobe_opcode_t opcode)
{
	struct uprobe *u = container_of(auprobe, struct uprobe, arch);
	bool insert = is_swbp_insn(&opcode);
	uprobe_opcode_t cur;
	int ret;

	ret = peek_user(mm, vaddr, &cur, sizeof(cur));
	if (ret)
		return ret;
	if (is_swbp_insn(&cur) == insert)
		return 0;

	if (insert && u->ref_ctr_offset) {
		ret = update_ref_ctr(u, mm, 1);
		if (ret)
			return ret;
	}
	ret = poke_user(mm, vaddr, &opcode, sizeof(opcode));
	if (u->ref_ctr_offset && insert == !!ret)
		update_ref_ctr(u, mm, -1);
	if (!insert && !ret)
		drop_private_copy(mm, vaddr);
	return ret;
}

int __weak set_swbp(struct arch_uprobe *auprobe, struct mm_struct *mm,
		    unsigned long vaddr)
{
	return uprobe_write_opcode(auprobe, mm, vaddr, UPROBE_SWBP_INSN);
}

int __weak set_orig_insn(struct arch_uprobe *auprobe, struct mm_struct *mm,
			 unsigned long vaddr)
{
	return uprobe_write_opcode(auprobe, mm, vaddr,
				   *(uprobe_opcode_t *)&auprobe->insn);
}

bool __weak is_swbp_insn(uprobe_opcode_t *insn)
{
	return *insn == UPROBE_SWBP_INSN;
}

bool __weak is_trap_insn(uprobe_opcode_t *insn)
{
	return is_swbp_insn(insn);
}

/* Copy the probed instruction (as much of it as the arch keeps) from the file. */
static int copy_insn(struct uprobe *u)
{
	struct address_space *mapping = u->inode->i_mapping;
	char *dst = (char *)&u->arch.insn;
	loff_t off = u->offset;
	loff_t left = i_size_read(u->inode) - off;
	size_t len = min_t(loff_t, sizeof(u->arch.insn), left);

	if (left <= 0)
		return -EINVAL;
	while (len) {
		size_t chunk = min_t(size_t, len, PAGE_SIZE - offset_in_page(off));
		struct folio *folio;

		if (shmem_mapping(mapping))
			folio = shmem_read_folio(mapping, off >> PAGE_SHIFT);
		else
			folio = read_mapping_folio(mapping, off >> PAGE_SHIFT,
						   NULL);
		if (IS_ERR(folio))
			return PTR_ERR(folio);
		memcpy_from_folio(dst, folio, offset_in_folio(folio, off),
				  chunk);
		folio_put(folio);
		dst += chunk;
		off += chunk;
		len -= chunk;
	}
	return 0;
}

/*
 * Whether @u's instruction was read and analysed; pairs with the release
 * in prepare_uprobe(), so that the arch data is seen complete.
 */
static bool uprobe_prepared(struct uprobe *u)
{
	/* pairs with the release in prepare_uprobe() */
	return smp_load_acquire(&u->prepared);
}

/* Read and analyse the probed instruction, once, before the first write. */
static int prepare_uprobe(struct uprobe *u, struct mm_struct *mm,
			  unsigned long vaddr)
{
	int ret = 0;

	if (uprobe_prepared(u))
		return 0;
	mutex_lock(&u->prep_mutex);
	if (!u->prepared) {
		ret = copy_insn(u);
		/*
		 * A trap instruction cannot be probed: the errno user space
		 * sees is 524 (ENOTSUPP), on x86 and arm64 alike.
		 */
		if (!ret && is_trap_insn((uprobe_opcode_t *)&u->arch.insn))
			ret = -ENOTSUPP;
		if (!ret)
			ret = arch_uprobe_analyze_insn(&u->arch, mm, vaddr);
		if (!ret)	/* the arch data before the flag */
			smp_store_release(&u->prepared, true);
	}
	mutex_unlock(&u->prep_mutex);
	return ret;
}

static int install_breakpoint(struct uprobe *u, struct vm_area_struct *vma,
			      unsigned long vaddr)
{
	struct mm_struct *mm = vma->vm_mm;
	int ret;

	ret = prepare_uprobe(u, mm, vaddr);
	if (ret)
		return ret;
	/* before the write: a hit must find the flag */
	set_bit(MMF_HAS_UPROBES, &mm->flags);
	return set_swbp(&u->arch, mm, vaddr);
}

static int remove_breakpoint(struct uprobe *u, struct vm_area_struct *vma,
			     unsigned long vaddr)
{
	if (!uprobe_prepared(u))
		return 0;
	return set_orig_insn(&u->arch, vma->vm_mm, vaddr);
}

/* Does @uc want the breakpoint in @mm?  Does any consumer of @u? */
static bool consumer_wants(struct uprobe_consumer *uc, struct mm_struct *mm)
{
	return !uc->filter || uc->filter(uc, mm);
}

static bool uprobe_wanted(struct uprobe *u, struct mm_struct *mm)
{
	struct uprobe_consumer *uc;
	bool want = false;
	int idx;

	idx = srcu_read_lock(&uprobes_srcu);
	list_for_each_entry_srcu(uc, &u->consumers, cons_node,
				 srcu_read_lock_held(&uprobes_srcu)) {
		if (consumer_wants(uc, mm)) {
			want = true;
			break;
		}
	}
	srcu_read_unlock(&uprobes_srcu, idx);
	return want;
}

/* ---- registration ---- */

struct probe_site {
	struct mm_struct	*mm;		/* held (mmget) */
	unsigned long		vaddr;
};

/*
 * Every (mm, address) where @u's file maps its offset, the mms held, in a
 * kvmalloc'ed array of *@nr.  i_mmap_rwsem allows no sleeping allocation:
 * count, allocate, fill, and start again if the mappings grew meanwhile.
 */
static struct probe_site *collect_sites(struct uprobe *u, int *nr)
{
	struct address_space *mapping = u->inode->i_mapping;
	pgoff_t pgoff = u->offset >> PAGE_SHIFT;
	struct vm_area_struct *vma;
	struct probe_site *sites = NULL;
	int room = 0, n;

	for (;;) {
		n = 0;
		i_mmap_lock_read(mapping);
		vma_interval_tree_foreach(vma, &mapping->i_mmap, pgoff, pgoff) {
			if (!vma_is_probeable(vma))
				continue;
			if (n < room) {
				if (!mmget_not_zero(vma->vm_mm))
					continue;
				sites[n].mm = vma->vm_mm;
				sites[n].vaddr = offset_to_vaddr(vma, u->offset);
			}
			n++;
		}
		i_mmap_unlock_read(mapping);
		if (n <= room)
			break;
		while (room--)
			mmput(sites[room].mm);
		kvfree(sites);
		room = n + 4;
		sites = kvmalloc_array(room, sizeof(*sites), GFP_KERNEL);
		if (!sites)
			return ERR_PTR(-ENOMEM);
	}
	*nr = n;
	return sites;
}

/*
 * Bring every mapping of @u in line with its consumers: with @added, put
 * the breakpoint where that consumer wants it (the others already have
 * theirs); without, take it out of the mms no consumer wants any more.
 * The first failure to put a breakpoint is returned.  reg_rwsem held.
 */
static int sync_breakpoints(struct uprobe *u, struct uprobe_consumer *added)
{
	struct probe_site *sites;
	int i, nr = 0, ret = 0, err;

	percpu_down_write(&fork_sem);
	sites = collect_sites(u, &nr);
	if (IS_ERR(sites)) {
		percpu_up_write(&fork_sem);
		return PTR_ERR(sites);
	}
	for (i = 0; i < nr; i++) {
		struct mm_struct *mm = sites[i].mm;
		unsigned long vaddr = sites[i].vaddr;
		struct vm_area_struct *vma;

		err = 0;
		mmap_read_lock(mm);
		vma = vma_lookup(mm, vaddr);
		/* the mapping may have changed since it was collected */
		if (!vma || !vma_maps_offset(vma, u->inode, u->offset) ||
		    offset_to_vaddr(vma, u->offset) != vaddr) {
			/* nothing of @u there any more */
		} else if (added) {
			if (vma_takes_probes(vma) && consumer_wants(added, mm))
				err = install_breakpoint(u, vma, vaddr);
		} else if (vma_is_probeable(vma) && !uprobe_wanted(u, mm)) {
			remove_breakpoint(u, vma, vaddr);
		}
		mmap_read_unlock(mm);
		mmput(mm);
		if (err && !ret)
			ret = err;
	}
	kvfree(sites);
	percpu_up_write(&fork_sem);
	return ret;
}

/**
 * uprobe_register - add a consumer to the uprobe of a file offset
 * @inode: the file
 * @offset: the offset in it of the instruction to probe
 * @ref_ctr_offset: the offset of its USDT semaphore, or 0 for none
 * @uc: the consumer: its handler and/or ret_handler, and an optional
 *	filter() choosing the mms it wants the breakpoint in
 *
 * The uprobe of (@inode, @offset) is made if there is none; the
 * breakpoint goes into every current mapping of the file whose mm @uc
 * wants, and into later mappings as they are made.  On failure @uc is
 * taken out again, and so are the breakpoints no other consumer wants.
 *
 * Context: process context, may sleep; takes the uprobe's reg_rwsem and
 * the mmap_lock of each mm that maps the file.
 *
 * Return: the uprobe, which uprobe_apply() and uprobe_unregister_nosync()
 * take, or an ERR_PTR(): -EINVAL for a consumer without handlers, an
 * offset past the end of the file or misaligned, a bad @ref_ctr_offset or
 * one that differs from that of the uprobe's other consumers; -EIO for a
 * file that cannot be read page by page; -ENOMEM; or the first error of
 * putting a breakpoint in.
 */
struct uprobe *uprobe_register(struct inode *inode, loff_t offset,
			       loff_t ref_ctr_offset,
			       struct uprobe_consumer *uc)
{
	struct address_space *mapping = inode->i_mapping;
	struct uprobe *u;
	int ret;

	if (!uc->handler && !uc->ret_handler)
		return ERR_PTR(-EINVAL);
	if (!mapping->a_ops->read_folio && !shmem_mapping(mapping))
		return ERR_PTR(-EIO);
	if (offset < 0 || offset > i_size_read(inode))
		return ERR_PTR(-EINVAL);
	/*
	 * Where every instruction has the breakpoint's size (arm64: 4
	 * bytes), one cannot start at a misaligned offset: refused at once,
	 * not at the first mapping, where nothing could say so.
	 */
	if (!IS_ALIGNED(offset, UPROBE_SWBP_INSN_SIZE))
		return ERR_PTR(-EINVAL);
	/*
	 * The semaphore is not held to the file's size: it is only ever
	 * written where a mapping of the file covers it (the file may yet
	 * grow, and user space may open such an event).
	 */
	if (ref_ctr_offset < 0 || !IS_ALIGNED(ref_ctr_offset, sizeof(short)))
		return ERR_PTR(-EINVAL);

	u = get_or_add_uprobe(inode, offset, ref_ctr_offset);
	if (IS_ERR(u))
		return u;

	down_write(&u->reg_rwsem);
	list_add_rcu(&uc->cons_node, &u->consumers);
	ret = sync_breakpoints(u, uc);
	if (ret) {
		list_del_rcu(&uc->cons_node);
		sync_breakpoints(u, NULL);
	}
	up_write(&u->reg_rwsem);
	if (ret) {
		synchronize_srcu(&uprobes_srcu);
		put_uprobe(u);
		return ERR_PTR(ret);
	}
	return u;
}
EXPORT_SYMBOL_GPL(uprobe_register);

/**
 * uprobe_apply - follow a change of a consumer's filter
 * @u: the uprobe that uprobe_register() returned
 * @uc: a consumer registered on @u
 * @add: true to put breakpoints in, false to take them out
 *
 * Put in (@add) or take out @uc's breakpoints after its filter changed:
 * with @add, the breakpoint goes into each mapping whose mm @uc wants;
 * without, it leaves each mm that no consumer of @u wants any more.
 *
 * Context: process context, may sleep; takes @u's reg_rwsem.
 *
 * Return: 0, -ENOENT if @uc is not a consumer of @u, or the first error
 * of putting a breakpoint in.
 */
int uprobe_apply(struct uprobe *u, struct uprobe_consumer *uc, bool add)
{
	struct uprobe_consumer *con;
	int ret = -ENOENT;

	down_write(&u->reg_rwsem);
	list_for_each_entry(con, &u->consumers, cons_node) {
		if (con == uc) {
			ret = sync_breakpoints(u, add ? uc : NULL);
			break;
		}
	}
	up_write(&u->reg_rwsem);
	return ret;
}
EXPORT_SYMBOL_GPL(uprobe_apply);

/**
 * uprobe_unregister_nosync - remove a consumer from a uprobe
 * @u: the uprobe that uprobe_register() returned for @uc
 * @uc: the consumer
 *
 * @uc leaves @u, whose breakpoints go where no consumer wants them any
 * more, and the registration's reference to @u is dropped.  A handler may
 * still be running on @uc: uprobe_unregister_sync() waits for it before
 * @uc may be freed or registered again.
 *
 * Context: process context, may sleep; takes @u's reg_rwsem.
 */
void uprobe_unregister_nosync(struct uprobe *u, struct uprobe_consumer *uc)
{
	down_write(&u->reg_rwsem);
	list_del_rcu(&uc->cons_node);
	sync_breakpoints(u, NULL);
	up_write(&u->reg_rwsem);
	put_uprobe(u);
}
EXPORT_SYMBOL_GPL(uprobe_unregister_nosync);

/**
 * uprobe_unregister_sync - wait for handlers of removed consumers
 *
 * Returns once no handler or filter can still be running on a consumer
 * that uprobe_unregister_nosync() removed before the call: one call
 * covers any number of removals.
 *
 * Context: process context, may sleep (waits for an SRCU grace period).
 */
void uprobe_unregister_sync(void)
{
	synchronize_srcu(&uprobes_srcu);
}
EXPORT_SYMBOL_GPL(uprobe_unregister_sync);

/* ---- the mm side ---- */

/*
 * @vma was mapped (or grew, or was split): the breakpoints of its range
 * that a consumer wants in this mm go in, and semaphores waiting for its
 * data are raised.  mmap_lock held for writing.
 */
int uprobe_mmap(struct vm_area_struct *vma)
{
	struct inode *inode;
	struct uprobe *u;
	loff_t off, end;

	if (!vma->vm_file || RB_EMPTY_ROOT(&uprobes_tree))
		return 0;
	inode = file_inode(vma->vm_file);
	if ((vma->vm_flags & (VM_WRITE | VM_MAYSHARE)) == VM_WRITE &&
	    !list_empty(&delayed_ref_ctrs))
		apply_delayed_ref_ctrs(vma);
	if (!vma_takes_probes(vma))
		return 0;

	end = vma_file_end(vma);
	off = vma_file_start(vma);
	while ((u = find_uprobe_range(inode, off, end))) {
		if (uprobe_wanted(u, vma->vm_mm))
			install_breakpoint(u, vma,
					   offset_to_vaddr(vma, u->offset));
		/* the next offset before our reference goes: @u may with it */
		off = u->offset + 1;
		put_uprobe(u);
	}
	return 0;
}

static bool vma_has_uprobes(struct vm_area_struct *vma, unsigned long start,
			    unsigned long end)
{
	loff_t from = vma_file_start(vma) + (start - vma->vm_start);
	struct uprobe *u;

	u = find_uprobe_range(file_inode(vma->vm_file), from,
			      from + (end - start));
	if (!u)
		return false;
	put_uprobe(u);
	return true;
}

/*
 * [@start, @end) of @vma goes away.  The text goes with it; only the mm's
 * flag may now be wrong, and is worked out again at the next stray trap.
 */
void uprobe_munmap(struct vm_area_struct *vma, unsigned long start,
		   unsigned long end)
{
	struct mm_struct *mm = vma->vm_mm;

	if (!test_bit(MMF_HAS_UPROBES, &mm->flags) ||
	    test_bit(MMF_RECALC_UPROBES, &mm->flags) ||
	    !vma_is_probeable(vma))
		return;
	if (vma_has_uprobes(vma, start, end))
		set_bit(MMF_RECALC_UPROBES, &mm->flags);
}

/* Clear MMF_HAS_UPROBES when no mapping of @mm has a uprobe.  mmap_lock held. */
static void recalc_has_uprobes(struct mm_struct *mm)
{
	struct vm_area_struct *vma;

	VMA_ITERATOR(vmi, mm, 0);

	/* a mapping made writable since may still have its breakpoints */
	for_each_vma(vmi, vma) {
		if (vma_is_probeable(vma) &&
		    vma_has_uprobes(vma, vma->vm_start, vma->vm_end))
			return;
	}
	clear_bit(MMF_HAS_UPROBES, &mm->flags);
}

/*
 * fork: dup_mmap() copies the parent's text with its breakpoints, between
 * uprobe_start_dup_mmap() and uprobe_end_dup_mmap(), so that no
 * registration walk writes the parent's text half way through the copy
 * (the walks hold fork_sem for writing).  The child's mm inherits the
 * flag with the breakpoints.
 */
void uprobe_start_dup_mmap(void)
{
	percpu_down_read(&fork_sem);
}

void uprobe_dup_mmap(struct mm_struct *oldmm, struct mm_struct *newmm)
{
	bool probed = test_bit(MMF_HAS_UPROBES, &oldmm->flags);

	if (probed)
		set_bit(MMF_HAS_UPROBES, &newmm->flags);
}

void uprobe_end_dup_mmap(void)
{
	percpu_up_read(&fork_sem);
}

/* ---- the XOL page ---- */

static vm_fault_t xol_fault(const struct vm_special_mapping *sm,
			    struct vm_area_struct *vma, struct vm_fault *vmf)
{
	struct xol_area *area = READ_ONCE(vma->vm_mm->uprobes_state.xol_area);

	if (!area)
		return VM_FAULT_SIGBUS;
	vmf->page = area->page;
	get_page(vmf->page);
	return 0;
}

/* the address in the page is where the return trampoline is */
static int xol_mremap(const struct vm_special_mapping *sm,
		      struct vm_area_struct *new_vma)
{
	return -EPERM;
}

static const struct vm_special_mapping xol_mapping = {
	.name	= "[uprobes]",
	.fault	= xol_fault,
	.mremap	= xol_mremap,
};

void __weak arch_uprobe_copy_ixol(struct page *page, unsigned long vaddr,
				  void *src, unsigned long len)
{
	void *kaddr = kmap_local_page(page);

	memcpy(kaddr + offset_in_page(vaddr), src, len);
	kunmap_local(kaddr);
	flush_dcache_page(page);
}

void * __weak arch_uprobe_trampoline(unsigned long *psize)
{
	static uprobe_opcode_t insn = UPROBE_SWBP_INSN;

	*psize = UPROBE_SWBP_INSN_SIZE;
	return &insn;
}

unsigned long __weak arch_uprobe_get_xol_area(void)
{
	return get_unmapped_area(NULL, TASK_SIZE - PAGE_SIZE, PAGE_SIZE, 0, 0);
}

void uprobe_xol_free(struct xol_area *area)
{
	if (area->page)
		put_page(area->page);
	kfree(area->bitmap);
	kfree(area);
}

/*
 * An XOL page not mapped yet: its slots free but for the first ones,
 * where the return trampoline is (arch_uprobe_trampoline(), for current).
 */
struct xol_area *uprobe_xol_alloc(void)
{
	struct xol_area *area;
	unsigned long size;
	void *tramp;
	int nr;

	area = kzalloc(sizeof(*area), GFP_KERNEL);
	if (!area)
		return NULL;
	area->bitmap = bitmap_zalloc(XOL_SLOTS, GFP_KERNEL);
	area->page = alloc_page(GFP_HIGHUSER | __GFP_ZERO);
	if (!area->bitmap || !area->page) {
		uprobe_xol_free(area);
		return NULL;
	}
	init_waitqueue_head(&area->wq);
	tramp = arch_uprobe_trampoline(&size);
	arch_uprobe_copy_ixol(area->page, 0, tramp, size);
	nr = DIV_ROUND_UP(size, UPROBE_XOL_SLOT_BYTES);
	bitmap_set(area->bitmap, 0, nr);
	atomic_set(&area->used, nr);
	return area;
}

/*
 * Give current's mm its XOL page, at @vaddr (a child's, where its parent
 * has it) or wherever the arch puts it (@vaddr 0), with the trampoline in
 * its first slots.  Returns the mm's page, made by us or by a racing task.
 */
static struct xol_area *create_xol_area(unsigned long vaddr)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	struct xol_area *area;

	area = uprobe_xol_alloc();
	if (!area)
		return NULL;
	if (mmap_write_lock_killable(mm))
		goto fail;
	if (mm->uprobes_state.xol_area) {
		mmap_write_unlock(mm);
		uprobe_xol_free(area);
		return mm->uprobes_state.xol_area;
	}
	if (!vaddr) {
		vaddr = arch_uprobe_get_xol_area();
		if (IS_ERR_VALUE(vaddr))
			goto fail_unlock;
	} else if (find_vma_intersection(mm, vaddr, vaddr + PAGE_SIZE)) {
		goto fail_unlock;
	}
	vma = _install_special_mapping(mm, vaddr, PAGE_SIZE,
				       VM_EXEC | VM_MAYEXEC | VM_DONTCOPY |
				       VM_IO, &xol_mapping);
	if (IS_ERR(vma))
		goto fail_unlock;
	area->vaddr = vaddr;
	/* published complete: see xol_area_of_current() */
	smp_store_release(&mm->uprobes_state.xol_area, area);
	mmap_write_unlock(mm);
	return area;

fail_unlock:
	mmap_write_unlock(mm);
fail:
	uprobe_xol_free(area);
	return NULL;
}

/* current's XOL page if it has one; pairs with create_xol_area()'s release */
static struct xol_area *xol_area_of_current(void)
{
	/* pairs with the release in create_xol_area() */
	return smp_load_acquire(&current->mm->uprobes_state.xol_area);
}

static struct xol_area *get_xol_area(void)
{
	return xol_area_of_current() ?: create_xol_area(0);
}

unsigned long uprobe_get_trampoline_vaddr(void)
{
	struct xol_area *area = xol_area_of_current();

	return area ? area->vaddr : UPROBE_NO_TRAMPOLINE_VADDR;
}

/* A free slot of @area, now taken, or -ENOSPC when all are. */
long uprobe_xol_try_take(struct xol_area *area)
{
	unsigned long slot;

	do {
		slot = find_first_zero_bit(area->bitmap, XOL_SLOTS);
		if (slot >= XOL_SLOTS)
			return -ENOSPC;
	} while (test_and_set_bit(slot, area->bitmap));
	atomic_inc(&area->used);
	return slot;
}

void uprobe_xol_put(struct xol_area *area, unsigned long slot)
{
	clear_bit(slot, area->bitmap);
	/* the slot is free before the count says so */
	smp_mb__after_atomic();
	atomic_dec(&area->used);
	wake_up(&area->wq);
}

/* A slot of the XOL page holding @u's instruction; 0 if there is none. */
static unsigned long take_xol_slot(struct uprobe *u)
{
	struct xol_area *area = get_xol_area();
	unsigned long vaddr;
	long slot;

	if (!area)
		return 0;
	while ((slot = uprobe_xol_try_take(area)) < 0) {
		if (wait_event_killable(area->wq,
					atomic_read(&area->used) < XOL_SLOTS))
			return 0;
	}
	vaddr = area->vaddr + slot * UPROBE_XOL_SLOT_BYTES;
	arch_uprobe_copy_ixol(area->page, vaddr, &u->arch.ixol,
			      sizeof(u->arch.ixol));
	return vaddr;
}

static void free_xol_slot(struct uprobe_task *utask, struct mm_struct *mm)
{
	struct xol_area *area;
	unsigned long slot;

	if (!utask->xol_vaddr || !mm)
		return;
	area = mm->uprobes_state.xol_area;
	if (WARN_ON_ONCE(!area))
		return;
	slot = (utask->xol_vaddr - area->vaddr) / UPROBE_XOL_SLOT_BYTES;
	utask->xol_vaddr = 0;
	uprobe_xol_put(area, slot);
}

/* the mm goes: its XOL page and the semaphores it still waited for */
void uprobe_clear_state(struct mm_struct *mm)
{
	struct xol_area *area = mm->uprobes_state.xol_area;
	struct delayed_ref_ctr *d, *tmp;

	mutex_lock(&delayed_lock);
	list_for_each_entry_safe(d, tmp, &delayed_ref_ctrs, node) {
		if (d->mm == mm)
			drop_delayed(d);
	}
	mutex_unlock(&delayed_lock);
	if (area)
		uprobe_xol_free(area);
}

/* ---- the task side ---- */

static struct uprobe_task *get_utask(void)
{
	if (!current->utask)
		current->utask = kzalloc(sizeof(*current->utask),
					 GFP_KERNEL);
	return current->utask;
}

/* Pop the return instances of @utask above @stop (NULL: all of them). */
static void pop_instances(struct uprobe_task *utask,
			  struct return_instance *stop)
{
	while (utask->return_instances != stop) {
		struct return_instance *top = utask->return_instances;

		/* unlinked before freed: see uprobe_callchain_fixup() */
		WRITE_ONCE(utask->return_instances, top->next);
		barrier();
		utask->depth--;
		put_uprobe(top->uprobe);
		kfree(top);
	}
}

/*
 * mm_release(): @t (current) leaves its mm at exit or exec, and with it
 * its slot, its pending returns and the uprobe it was stepping.
 */
void uprobe_free_utask(struct task_struct *t)
{
	struct uprobe_task *utask = t->utask;

	if (!utask)
		return;
	free_xol_slot(utask, t->mm);
	pop_instances(utask, NULL);
	if (utask->active_uprobe)
		put_uprobe(utask->active_uprobe);
	t->utask = NULL;
	kfree(utask);
}

/* in the child of a fork: the XOL page where the parent's trampoline is */
static void dup_xol_work(struct callback_head *work)
{
	if (current->flags & PF_EXITING)
		return;
	if (!create_xol_area(current->utask->dup_xol_addr))
		uprobe_warn(current, "dup xol area");
}

/*
 * The child of a fork returns through its parent's frames: it gets a copy
 * of the pending return instances, and, with an mm of its own, an XOL page
 * at the same address (the page is not copied with the mm).
 */
void uprobe_copy_process(struct task_struct *t, unsigned long flags)
{
	struct uprobe_task *utask = current->utask, *n;
	struct return_instance *ri, **tail;
	struct xol_area *area;

	t->utask = NULL;
	if (!utask || !utask->return_instances)
		return;
	if (t->mm == current->mm && !(flags & CLONE_VFORK))
		return;

	n = kzalloc(sizeof(*n), GFP_KERNEL);
	if (!n)
		goto fail;
	t->utask = n;
	tail = &n->return_instances;
	for (ri = utask->return_instances; ri; ri = ri->next) {
		struct return_instance *copy = kmemdup(ri, sizeof(*ri),
						       GFP_KERNEL);

		if (!copy)
			goto fail;
		get_uprobe(copy->uprobe);
		copy->next = NULL;
		*tail = copy;
		tail = &copy->next;
		n->depth++;
	}
	if (t->mm == current->mm)
		return;
	area = READ_ONCE(current->mm->uprobes_state.xol_area);
	if (!area)
		goto fail;
	n->dup_xol_addr = area->vaddr;
	init_task_work(&n->dup_xol_work, dup_xol_work);
	task_work_add(t, &n->dup_xol_work, TWA_RESUME);
	return;
fail:
	uprobe_warn(t, "dup return instances");
}

/* ---- return probes ---- */

bool __weak arch_uretprobe_is_alive(struct return_instance *ri,
				    enum rp_check ctx, struct pt_regs *regs)
{
	return true;
}

/* drop the instances of frames left without returning (longjmp) */
static void drop_dead_instances(struct uprobe_task *utask, bool chained,
				struct pt_regs *regs)
{
	enum rp_check ctx = chained ? RP_CHECK_CHAIN_CALL : RP_CHECK_CALL;
	struct return_instance *ri = utask->return_instances;

	while (ri && !arch_uretprobe_is_alive(ri, ctx, regs))
		ri = ri->next;
	pop_instances(utask, ri);
}

/* At the entry of a function of @u: its return comes to the trampoline. */
static void hijack_return(struct uprobe *u, struct pt_regs *regs)
{
	struct uprobe_task *utask = current->utask;
	struct return_instance *ri;
	unsigned long tramp, orig;
	struct xol_area *area;
	bool chained;

	/*
	 * The limit counts the instances of frames left by longjmp too,
	 * until they are dropped below or at the trampoline (kselftest
	 * uprobe_pmu, recursion and longjmp_out).
	 */
	if (utask->depth >= MAX_URETPROBE_DEPTH) {
		pr_warn_ratelimited("uprobe: omit uretprobe due to nestedness limit pid/tgid=%d/%d\n",
				    current->pid, current->tgid);
		return;
	}
	area = get_xol_area();
	if (!area)
		return;
	ri = kzalloc(sizeof(*ri), GFP_KERNEL);
	if (!ri)
		return;
	tramp = area->vaddr;
	orig = arch_uretprobe_hijack_return_addr(tramp, regs);
	if (orig == -1UL)
		goto free;
	/* a tail call from one probed function to another */
	chained = orig == tramp;
	drop_dead_instances(utask, chained, regs);
	if (chained) {
		if (!utask->return_instances) {
			uprobe_warn(current, "handle tail call");
			goto free;
		}
		orig = utask->return_instances->orig_ret_vaddr;
	}
	ri->uprobe = get_uprobe(u);
	ri->func = instruction_pointer(regs);
	ri->stack = user_stack_pointer(regs);
	ri->orig_ret_vaddr = orig;
	ri->chained = chained;
	ri->next = utask->return_instances;
	/* complete before it is seen: see uprobe_callchain_fixup() */
	barrier();
	WRITE_ONCE(utask->return_instances, ri);
	utask->depth++;
	return;
free:
	kfree(ri);
}

/*
 * @nr entries of a user callchain of current, from the innermost frame
 * out: where a return probe put the trampoline in place of a return
 * address, the address the function really returns to goes back in, so
 * that profiles (and BPF stack maps) show the caller.  Trampolines on
 * the stack stand, from the innermost one out, for the pending return
 * instances from the newest down, one for each frame: a run of instances
 * chained by tail calls shares the one return address of its last.
 * Instances of frames left by longjmp() and not dropped yet may make the
 * outer ones wrong, as they would make the trampoline's choice.
 *
 * Runs in the sampling context, NMI included, on current's own list:
 * current changes it only in the kernel, where the NMI may land, and
 * links a complete instance and unlinks one before freeing it.
 */
void uprobe_callchain_fixup(u64 *ip, unsigned int nr)
{
	struct uprobe_task *utask = READ_ONCE(current->utask);
	struct return_instance *ri;
	unsigned long tramp;
	unsigned int i;

	if (!utask || !current->mm)
		return;
	ri = READ_ONCE(utask->return_instances);
	if (!ri)
		return;
	tramp = uprobe_get_trampoline_vaddr();
	for (i = 0; i < nr && ri; i++) {
		if (ip[i] != tramp)
			continue;
		ip[i] = ri->orig_ret_vaddr;
		while (ri && ri->chained)
			ri = READ_ONCE(ri->next);
		if (ri)
			ri = READ_ONCE(ri->next);
	}
}

static void ret_handlers(struct return_instance *ri, struct pt_regs *regs)
{
	struct uprobe_consumer *uc;
	int idx;

	idx = srcu_read_lock(&uprobes_srcu);
	list_for_each_entry_srcu(uc, &ri->uprobe->consumers, cons_node,
				 srcu_read_lock_held(&uprobes_srcu)) {
		if (uc->ret_handler)
			uc->ret_handler(uc, ri->func, regs);
	}
	srcu_read_unlock(&uprobes_srcu, idx);
}

/*
 * A function returned to the trampoline.  The frames whose instances (from
 * @top down) are no longer alive at @regs are gone: the deepest of them,
 * *@last, returns now, with the instances chained to it by tail calls
 * from *@first on; those above *@first were left by longjmp and are
 * dropped without their handlers.
 */
void uprobe_find_returning(struct return_instance *top, struct pt_regs *regs,
			   struct return_instance **first,
			   struct return_instance **last)
{
	struct return_instance *ri;

	*last = NULL;
	for (ri = top; ri && !arch_uretprobe_is_alive(ri, RP_CHECK_RET, regs);
	     ri = ri->next)
		*last = ri;
	if (!*last) {
		/* no frame looks gone: the newest chain returns */
		for (ri = top; ri->chained && ri->next; ri = ri->next)
			;
		*last = ri;
	}
	*first = top;
	for (ri = top; ri != *last; ri = ri->next)
		if (!ri->chained)
			*first = ri->next;
}

void uprobe_handle_trampoline(struct pt_regs *regs)
{
	struct uprobe_task *utask = current->utask;
	struct return_instance *ri, *last, *first, *stop;

	if (!utask || !utask->return_instances) {
		uprobe_warn(current, "handle uretprobe, sending SIGILL.");
		force_sig(SIGILL);
		return;
	}
	uprobe_find_returning(utask->return_instances, regs, &first, &last);
	instruction_pointer_set(regs, last->orig_ret_vaddr);
	pop_instances(utask, first);
	stop = last->next;
	for (ri = first; ri != stop; ri = ri->next)
		ret_handlers(ri, regs);
	pop_instances(utask, stop);
}

/* ---- hits ---- */

unsigned long __weak uprobe_get_swbp_addr(struct pt_regs *regs)
{
	return instruction_pointer(regs) - UPROBE_SWBP_INSN_SIZE;
}

bool __weak arch_uprobe_ignore(struct arch_uprobe *aup, struct pt_regs *regs)
{
	return false;
}

/* where a fault of the task happened, as user space knows the address */
unsigned long uprobe_get_trap_addr(struct pt_regs *regs)
{
	struct uprobe_task *utask = current->utask;

	if (unlikely(utask && utask->active_uprobe))
		return utask->vaddr;
	return instruction_pointer(regs);
}

/*
 * The uprobe at @vaddr of current's mm, held.  Without one, *@trap says
 * whether a trap instruction of the task's own is there.
 */
static struct uprobe *find_active_uprobe(unsigned long vaddr, bool *trap)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	struct uprobe *u = NULL;
	uprobe_opcode_t insn;

	*trap = false;
	mmap_read_lock(mm);
	vma = vma_lookup(mm, vaddr);
	if (vma && vma_is_probeable(vma)) {
		loff_t off = vma_file_start(vma) + (vaddr - vma->vm_start);

		u = find_uprobe_range(file_inode(vma->vm_file), off, off + 1);
	}
	if (!u) {
		*trap = !peek_user(mm, vaddr, &insn, sizeof(insn)) &&
			is_trap_insn(&insn);
		if (test_and_clear_bit(MMF_RECALC_UPROBES, &mm->flags))
			recalc_has_uprobes(mm);
	}
	mmap_read_unlock(mm);
	return u;
}

/* the consumers' handlers; a unanimous UPROBE_HANDLER_REMOVE unprobes the mm */
static void handlers(struct uprobe *u, struct pt_regs *regs)
{
	struct uprobe_consumer *uc;
	bool remove = true, ret = false;
	struct vm_area_struct *vma;
	int idx;

	current->utask->auprobe = &u->arch;
	idx = srcu_read_lock(&uprobes_srcu);
	list_for_each_entry_srcu(uc, &u->consumers, cons_node,
				 srcu_read_lock_held(&uprobes_srcu)) {
		int rc = 0;

		if (uc->handler) {
			rc = uc->handler(uc, regs);
			WARN(rc & ~UPROBE_HANDLER_MASK,
			     "bad rc=0x%x from %ps()\n", rc, uc->handler);
		}
		remove &= rc == UPROBE_HANDLER_REMOVE;
		ret |= !!uc->ret_handler;
	}
	srcu_read_unlock(&uprobes_srcu, idx);
	current->utask->auprobe = NULL;

	/*
	 * Every handler asked to leave this mm: no consumer wants the
	 * task's return either, so it is not hijacked (the return handlers
	 * would run for an mm their consumers just refused).
	 */
	if (ret && !remove)
		hijack_return(u, regs);
	if (!remove)
		return;

	down_read(&u->reg_rwsem);
	if (!uprobe_wanted(u, current->mm)) {
		VMA_ITERATOR(vmi, current->mm, 0);

		mmap_read_lock(current->mm);
		for_each_vma(vmi, vma) {
			if (vma_is_probeable(vma) &&
			    vma_maps_offset(vma, u->inode, u->offset))
				remove_breakpoint(u, vma,
						  offset_to_vaddr(vma, u->offset));
		}
		mmap_read_unlock(current->mm);
	}
	up_read(&u->reg_rwsem);
}

/* Run the probed instruction from an XOL slot; @u stays held until done. */
static int start_xol(struct uprobe *u, struct pt_regs *regs,
		     unsigned long bp_vaddr)
{
	struct uprobe_task *utask = current->utask;
	int ret;

	utask->xol_vaddr = take_xol_slot(u);
	if (!utask->xol_vaddr)
		return -ENOMEM;
	/* set after the handlers, which may use it (trace_uprobe does) */
	utask->vaddr = bp_vaddr;
	ret = arch_uprobe_pre_xol(&u->arch, regs);
	if (ret) {
		free_xol_slot(utask, current->mm);
		return ret;
	}
	utask->active_uprobe = u;
	utask->state = UTASK_SSTEP;
	return 0;
}

static void handle_swbp(struct pt_regs *regs)
{
	unsigned long bp_vaddr = uprobe_get_swbp_addr(regs);
	struct uprobe *u;
	bool trap;

	if (bp_vaddr == uprobe_get_trampoline_vaddr()) {
		uprobe_handle_trampoline(regs);
		return;
	}

	u = find_active_uprobe(bp_vaddr, &trap);
	if (!u) {
		if (trap)
			force_sig(SIGTRAP);
		else	/* the breakpoint went meanwhile: run the text again */
			instruction_pointer_set(regs, bp_vaddr);
		return;
	}

	/* the handlers see the task at the probed instruction */
	instruction_pointer_set(regs, bp_vaddr);
	if (!get_utask() || !uprobe_prepared(u))
		goto out;
	if (arch_uprobe_ignore(&u->arch, regs))
		goto out;
	handlers(u, regs);
	if (arch_uprobe_skip_sstep(&u->arch, regs))
		goto out;
	if (!start_xol(u, regs, bp_vaddr))
		return;
	/* no slot: back at the breakpoint, to try again */
out:
	put_uprobe(u);
}

/* signals held back by uprobe_deny_signal() during a step are due now */
static void release_held_signals(void)
{
	struct sighand_struct *sighand = current->sighand;

	spin_lock_irq(&sighand->siglock);
	recalc_sigpending();
	spin_unlock_irq(&sighand->siglock);
}

/*
 * The instruction ran from its slot, or the step was cut short (a fatal
 * signal, or a fault of the instruction itself): either way the task
 * leaves the slot, at the instruction after the probed one or back at it.
 */
static void finish_xol(struct uprobe_task *utask, struct pt_regs *regs)
{
	struct uprobe *u = utask->active_uprobe;
	bool stepped = utask->state == UTASK_SSTEP_ACK;
	int err = 0;

	switch (utask->state) {
	case UTASK_SSTEP_ACK:
		err = arch_uprobe_post_xol(&u->arch, regs);
		break;
	case UTASK_SSTEP_TRAPPED:
		arch_uprobe_abort_xol(&u->arch, regs);
		break;
	default:
		WARN_ONCE(1, "uprobe: step state %d\n", utask->state);
	}
	free_xol_slot(utask, current->mm);
	utask->state = UTASK_RUNNING;
	utask->active_uprobe = NULL;
	put_uprobe(u);
	release_held_signals();

	if (stepped && err) {
		uprobe_warn(current, "finish the displaced instruction (SIGILL)");
		force_sig(SIGILL);
	}
}

/*
 * TIF_UPROBE on the way back to user space: the task stopped at a
 * breakpoint (or the return trampoline), or finished a step.
 */
void uprobe_notify_resume(struct pt_regs *regs)
{
	struct uprobe_task *utask = current->utask;

	clear_thread_flag(TIF_UPROBE);
	if (!utask || !utask->active_uprobe) {
		handle_swbp(regs);
		return;
	}
	finish_xol(utask, regs);
}

/*
 * A breakpoint trap in user space, in exception context.  Taken as ours
 * (and dealt with by uprobe_notify_resume()) when the mm has breakpoints
 * or the task has returns pending at the trampoline; otherwise it is the
 * task's own trap.
 */
int uprobe_pre_sstep_notifier(struct pt_regs *regs)
{
	struct uprobe_task *utask = current->utask;
	bool pending = utask && utask->return_instances;

	if (!current->mm)
		return 0;
	if (!pending && !test_bit(MMF_HAS_UPROBES, &current->mm->flags))
		return 0;
	set_thread_flag(TIF_UPROBE);
	return 1;
}

/* A single-step trap, in exception context: ours while a step is on. */
int uprobe_post_sstep_notifier(struct pt_regs *regs)
{
	struct uprobe_task *utask = current->utask;

	if (!utask || !utask->active_uprobe || !current->mm)
		return 0;
	utask->state = UTASK_SSTEP_ACK;
	set_thread_flag(TIF_UPROBE);
	return 1;
}

/*
 * get_signal(), siglock held: while the task steps an instruction in an
 * XOL slot, no signal is delivered (the frame would point into the slot).
 * The pending flag is cleared until finish_xol(); a fatal signal, or one
 * the stepped instruction raised, cuts the step short.
 */
bool uprobe_deny_signal(void)
{
	struct task_struct *t = current;
	struct uprobe_task *utask = t->utask;
	bool abort;

	if (!utask || !utask->active_uprobe)
		return false;
	WARN_ON_ONCE(utask->state != UTASK_SSTEP);
	if (!task_sigpending(t))
		return true;
	abort = __fatal_signal_pending(t) || arch_uprobe_xol_was_trapped(t);
	clear_tsk_thread_flag(t, TIF_SIGPENDING);
	if (abort) {
		utask->state = UTASK_SSTEP_TRAPPED;
		set_tsk_thread_flag(t, TIF_UPROBE);
	}
	return true;
}

static struct notifier_block uprobe_exception_nb = {
	.notifier_call	= arch_uprobe_exception_notify,
	.priority	= INT_MAX - 1,	/* notified before kprobes */
};

void __init uprobes_init(void)
{
	register_die_notifier(&uprobe_exception_nb);
}
