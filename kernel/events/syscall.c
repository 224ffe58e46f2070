// SPDX-License-Identifier: GPL-2.0
/*
 * The user interface: perf_event_open(2) (attr copy and validation, access
 * checks, the chain copy -> validate -> find PMU -> allocate -> find
 * context -> install -> fd_install), the event file operations and ioctls,
 * and the perf sysctls.
 *
 * Locking: the open path holds the target task's exec_update_lock (read)
 * from the ptrace check to the install, ctx->mutex nested inside it to
 * install, and, after dropping both, current->perf_event_mutex to list
 * the event on its owner.  A group member's allocation holds the leader's
 * ctx->mutex only around its PMU's event_init (pmu_event_init()): nothing
 * else of the allocation may run under a ctx->mutex, since it may take
 * cpu_hotplug_lock, which nests outside it.
 */
#include <kunit/visibility.h>
#include <linux/anon_inodes.h>
#include <linux/capability.h>
#include <linux/compat.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/poll.h>
#include <linux/ptrace.h>
#include <linux/sched/signal.h>
#include <linux/security.h>
#include <linux/syscalls.h>
#include <linux/timekeeping.h>
#include <linux/trace_events.h>
#include <linux/sysctl.h>
#include <linux/uaccess.h>

#include "internal.h"

int sysctl_perf_event_paranoid __read_mostly =
	IS_ENABLED(CONFIG_SECURITY_PERF_EVENTS_RESTRICT) ? 3 : 2;
/* 512 KiB plus the user page */
int sysctl_perf_event_mlock __read_mostly = 512 + (PAGE_SIZE / 1024);
int sysctl_perf_event_sample_rate __read_mostly = 100000;
int sysctl_perf_cpu_time_max_percent __read_mostly = 25;
int sysctl_perf_event_max_stack __read_mostly = PERF_MAX_STACK_DEPTH;
int sysctl_perf_event_max_contexts_per_stack __read_mostly =
	PERF_MAX_CONTEXTS_PER_STACK;

/* The sample rate is fixed while throttling is off (0 or 100 percent). */
int perf_event_max_sample_rate_handler(const struct ctl_table *table,
				       int write, void *buffer, size_t *lenp,
				       loff_t *ppos)
{
	int ret;

	/*
	 * With the throttling feedback off (0 or 100 percent) the rate is not
	 * the user's to set: refused before anything is stored.
	 */
	if (write && (sysctl_perf_cpu_time_max_percent == 0 ||
		      sysctl_perf_cpu_time_max_percent == 100))
		return -EINVAL;
	ret = proc_dointvec_minmax(table, write, buffer, lenp, ppos);
	if (ret || !write)
		return ret;
	perf_sample_budget_update();
	return 0;
}

int perf_cpu_time_max_percent_handler(const struct ctl_table *table,
				      int write, void *buffer, size_t *lenp,
				      loff_t *ppos)
{
	int ret = proc_dointvec_minmax(table, write, buffer, lenp, ppos);

	if (ret || !write)
		return ret;
	/* 0 and 100 turn the feedback of perf_sample_event_took() off */
	if (sysctl_perf_cpu_time_max_percent == 0 ||
	    sysctl_perf_cpu_time_max_percent == 100)
		pr_warn("perf: Dynamic interrupt throttling disabled, can hang your system!\n");
	perf_sample_budget_update();
	return 0;
}

/**
 * perf_allow_kernel - may the current task observe the kernel?
 *
 * Counting the kernel needs paranoid <= 1 or CAP_PERFMON
 * (kernel.perf_event_paranoid, perf_event_open(2)); the LSM has the last
 * word.  The open path asks it for events that count or sample the
 * kernel, PMU drivers for what else their events would reveal of it (a
 * trace's kernel addresses, context ids).
 *
 * Context: process context, on behalf of the task opening the event.
 *
 * Return: 0 if allowed, -EACCES, or the LSM's error.
 */
int perf_allow_kernel(void)
{
	if (sysctl_perf_event_paranoid > 1 && !perfmon_capable())
		return -EACCES;
	return security_perf_event_open(PERF_SECURITY_KERNEL);
}
EXPORT_SYMBOL_GPL(perf_allow_kernel);

/*
 * Copy the attr from user space, whatever its version: a shorter attr is
 * zero-extended, a longer one must be zero past what we know.  On -E2BIG
 * the size we know is written back to attr->size.
 */
static int perf_attr_copy(struct perf_event_attr __user *uattr,
			  struct perf_event_attr *attr)
{
	u32 size;
	int ret;

	memset(attr, 0, sizeof(*attr));
	if (get_user(size, &uattr->size))
		return -EFAULT;
	if (!size)
		size = PERF_ATTR_SIZE_VER0;
	if (size < PERF_ATTR_SIZE_VER0 || size > PAGE_SIZE)
		goto too_big;
	ret = copy_struct_from_user(attr, sizeof(*attr), uattr, size);
	if (ret == -E2BIG)
		goto too_big;
	if (ret)
		return ret;
	attr->size = size;
	return 0;
too_big:
	put_user(sizeof(*attr), &uattr->size);
	return -E2BIG;
}

/*
 * The checks of an attr that do not depend on the PMU or on privileges.
 * Pure: shared by the system call, in-kernel counters and KUnit.
 */
int perf_attr_check(struct perf_event_attr *attr)
{
	int ret;

	if (attr->__reserved_1 || attr->__reserved_2 || attr->__reserved_3)
		return -EINVAL;
	if (attr->sample_type & ~(PERF_SAMPLE_MAX - 1))
		return -EINVAL;
	if ((attr->sample_type & PERF_SAMPLE_WEIGHT_TYPE) ==
	    PERF_SAMPLE_WEIGHT_TYPE)
		return -EINVAL;
	/* an inherited sample's read values need the tid to be told apart */
	if (attr->inherit && (attr->sample_type & PERF_SAMPLE_READ) &&
	    !(attr->sample_type & PERF_SAMPLE_TID))
		return -EINVAL;
	if (attr->read_format & ~(PERF_FORMAT_MAX - 1))
		return -EINVAL;
	if (attr->sample_type & PERF_SAMPLE_BRANCH_STACK) {
		u64 mask = attr->branch_sample_type;

		if (!mask || (mask & ~(PERF_SAMPLE_BRANCH_MAX - 1)))
			return -EINVAL;
		if (!(mask & ~PERF_SAMPLE_BRANCH_PLM_ALL))
			return -EINVAL;
		/*
		 * No privilege level asked: the event's own (perf_event_open(2)),
		 * written back so that the privilege check and the PMU see it.
		 */
		if (!(mask & PERF_SAMPLE_BRANCH_PLM_ALL)) {
			if (!attr->exclude_user)
				mask |= PERF_SAMPLE_BRANCH_USER;
			if (!attr->exclude_kernel)
				mask |= PERF_SAMPLE_BRANCH_KERNEL;
			if (!attr->exclude_hv)
				mask |= PERF_SAMPLE_BRANCH_HV;
			attr->branch_sample_type = mask;
		}
	}
	if ((attr->sample_type & PERF_SAMPLE_STACK_USER) &&
	    !IS_ALIGNED(attr->sample_stack_user, sizeof(u64)))
		return -EINVAL;
	ret = perf_regs_check(attr);
	if (ret)
		return ret;
	if (attr->inherit_thread && !attr->inherit)
		return -EINVAL;
	if (attr->remove_on_exec && attr->enable_on_exec)
		return -EINVAL;
	if (attr->sigtrap && !attr->remove_on_exec)
		return -EINVAL;
	if ((attr->sample_type & PERF_SAMPLE_CGROUP) &&
	    !IS_ENABLED(CONFIG_CGROUP_PERF))
		return -EINVAL;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(perf_attr_check);

/*
 * The sampling rate: a frequency above perf_event_max_sample_rate, or a
 * period with bit 63 set.  The system call makes this check after its
 * access checks and before the target task is looked up: a caller
 * without the right to an event hears EACCES first.
 */
int perf_attr_check_period(struct perf_event_attr *attr)
{
	if (attr->freq)
		return attr->sample_freq > sysctl_perf_event_sample_rate ?
		       -EINVAL : 0;
	return attr->sample_period & (1ULL << 63) ? -EINVAL : 0;
}
EXPORT_SYMBOL_IF_KUNIT(perf_attr_check_period);

/*
 * Privilege checks of perf_event_open(2) on @attr alone; those of the
 * target task or CPU come once the PMU took the event (open_event()).
 */
/*
 * Whether an attr hands user space something of the kernel: its counts,
 * its part of callchains, physical addresses, or its text being patched.
 */
static bool attr_reveals_kernel(struct perf_event_attr *attr)
{
	if (!attr->exclude_kernel || attr->text_poke)
		return true;
	if ((attr->sample_type & PERF_SAMPLE_CALLCHAIN) &&
	    !attr->exclude_callchain_kernel)
		return true;
	return attr->sample_type & PERF_SAMPLE_PHYS_ADDR;
}

static int perf_open_access(struct perf_event_attr *attr)
{
	int ret;

	/*
	 * Level 3 (Debian's CONFIG_SECURITY_PERF_EVENTS_RESTRICT): no event
	 * for anyone without CAP_SYS_ADMIN, CAP_PERFMON or not.
	 */
	if (perf_paranoid_any() && !capable(CAP_SYS_ADMIN))
		return -EACCES;
	ret = security_perf_event_open(PERF_SECURITY_OPEN);
	if (ret)
		return ret;
	if (attr_reveals_kernel(attr)) {
		ret = perf_allow_kernel();
		if (ret)
			return ret;
	}
	/* the registers of the kernel at the interrupt: not under lockdown */
	if (attr->sample_type & PERF_SAMPLE_REGS_INTR) {
		ret = security_locked_down(LOCKDOWN_PERF);
		if (ret)
			return ret;
	}
	if (attr->namespaces && !perfmon_capable())
		return -EACCES;
	/* branches taken in the kernel or hypervisor: their addresses */
	if ((attr->sample_type & PERF_SAMPLE_BRANCH_STACK) &&
	    (attr->branch_sample_type &
	     (PERF_SAMPLE_BRANCH_KERNEL | PERF_SAMPLE_BRANCH_HV))) {
		ret = perf_allow_kernel();
		if (ret)
			return ret;
	}
	return 0;
}

static int perf_release(struct inode *inode, struct file *file)
{
	perf_event_release_kernel(file->private_data);
	return 0;
}

/* read() and ioctl() ask the LSMs first: reading and changing an event */
static ssize_t perf_read(struct file *file, char __user *buf, size_t count,
			 loff_t *ppos)
{
	struct perf_event *event = file->private_data;
	int ret;

	ret = security_perf_event_read(event);
	if (ret)
		return ret;
	return perf_read_format(event, buf, count);
}

static __poll_t perf_poll(struct file *file, poll_table *wait)
{
	return perf_event_poll(file->private_data, file, wait);
}

static int perf_fasync(int fd, struct file *file, int on)
{
	struct perf_event *event = file->private_data;
	struct inode *inode = file_inode(file);
	int ret;

	inode_lock(inode);
	ret = fasync_helper(fd, file, on, &event->fasync);
	inode_unlock(inode);
	return ret < 0 ? ret : 0;
}

static struct perf_event *perf_file_event(struct file *file)
{
	if (file->f_op != &perf_fops)
		return NULL;
	return file->private_data;
}

static long perf_ioctl_period(struct perf_event *event, u64 __user *arg)
{
	u64 period;

	if (copy_from_user(&period, arg, sizeof(period)))
		return -EFAULT;
	return perf_event_period(event, period);
}

/* SET_OUTPUT's argument is a long: -1 clears, anything else is an fd. */
static long perf_ioctl_set_output(struct perf_event *event, unsigned long fd)
{
	struct perf_event *output;
	struct file *file;
	long ret;

	if (fd == -1UL)
		return perf_event_set_output(event, NULL);
	if (fd > INT_MAX)
		return -EBADF;
	file = fget(fd);
	if (!file)
		return -EBADF;
	output = perf_file_event(file);
	ret = output ? perf_event_set_output(event, output) : -EBADF;
	fput(file);
	return ret;
}

/*
 * MODIFY_ATTRIBUTES: only breakpoints can change once open.  An attr of
 * another type than the event's is EINVAL, and a software clock is of
 * its clock PMU's type there (perf_sw_pmu_type()).
 */
static long perf_ioctl_modify(struct perf_event *event,
			      struct perf_event_attr __user *uattr)
{
	struct perf_event_attr attr;
	int ret;

	ret = perf_attr_copy(uattr, &attr);
	if (ret)
		return ret;
	if (attr.type != perf_sw_pmu_type(event))
		return -EINVAL;
	if (event->attr.type != PERF_TYPE_BREAKPOINT)
		return -EOPNOTSUPP;
	return perf_event_modify_breakpoint(event, &attr);
}

/*
 * SET_FILTER: address filters on a PMU that has them (addr_filter.c), an
 * ftrace filter otherwise (tracepoint events, see tracepoint.c); the
 * string is copied first, so a bad pointer is -EFAULT for any event.
 */
static long perf_ioctl_set_filter(struct perf_event *event,
				  const char __user *arg)
{
	char *filter;
	long ret;

	filter = strndup_user(arg, PAGE_SIZE);
	if (IS_ERR(filter))
		return PTR_ERR(filter);
	if (has_addr_filter(event))
		ret = perf_addr_filters_set(event, filter);
	else
		ret = perf_tp_set_filter(event, filter);
	kfree(filter);
	return ret;
}

static long perf_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct perf_event *event = file->private_data;
	bool group = arg & PERF_IOC_FLAG_GROUP;
	int ret;

	ret = security_perf_event_write(event);
	if (ret)
		return ret;
	switch (cmd) {
	case PERF_EVENT_IOC_ENABLE:
		return perf_event_for_group(event, group,
					    perf_event_enable_locked);
	case PERF_EVENT_IOC_DISABLE:
		return perf_event_for_group(event, group,
					    perf_event_disable_locked);
	case PERF_EVENT_IOC_RESET:
		return perf_event_for_group(event, group,
					    perf_event_reset);
	case PERF_EVENT_IOC_REFRESH:
		return perf_event_refresh(event, arg);
	case PERF_EVENT_IOC_PERIOD:
		return perf_ioctl_period(event, (u64 __user *)arg);
	case PERF_EVENT_IOC_ID:
		if (put_user(event->id, (u64 __user *)arg))
			return -EFAULT;
		return 0;
	case PERF_EVENT_IOC_SET_OUTPUT:
		return perf_ioctl_set_output(event, arg);
	case PERF_EVENT_IOC_PAUSE_OUTPUT:
		return perf_event_pause_output(event, arg);
	case PERF_EVENT_IOC_SET_FILTER:
		return perf_ioctl_set_filter(event, (const char __user *)arg);
	case PERF_EVENT_IOC_QUERY_BPF:
		return perf_event_query_prog_array(event, (void __user *)arg);
	case PERF_EVENT_IOC_SET_BPF:
		return perf_ioctl_set_bpf(event, arg);
	case PERF_EVENT_IOC_MODIFY_ATTRIBUTES:
		return perf_ioctl_modify(event, (void __user *)arg);
	default:
		return -ENOTTY;
	}
}

#ifdef CONFIG_COMPAT
/*
 * A 32-bit caller's ioctl numbers.  Four of them encode the size of a
 * pointer (_IOR/_IOW of a pointer type): the 32-bit program's number says
 * 4 bytes where ours says 8.  Their argument, like that of PERIOD, is a
 * user pointer.  The others pass as they are: SET_OUTPUT's -1 arrives as
 * 0xffffffff, no fd (EBADF).
 */
static const unsigned int perf_ioctl_ptr_cmds[] = {
	PERF_EVENT_IOC_ID, PERF_EVENT_IOC_SET_FILTER,
	PERF_EVENT_IOC_QUERY_BPF, PERF_EVENT_IOC_MODIFY_ATTRIBUTES,
};

static long perf_compat_ioctl(struct file *file, unsigned int cmd,
			      unsigned long arg)
{
	unsigned int i, native;

	for (i = 0; i < ARRAY_SIZE(perf_ioctl_ptr_cmds); i++) {
		native = perf_ioctl_ptr_cmds[i];
		if (cmd == _IOC(_IOC_DIR(native), _IOC_TYPE(native),
				_IOC_NR(native), sizeof(compat_uptr_t))) {
			cmd = native;
			break;
		}
	}
	switch (cmd) {
	case PERF_EVENT_IOC_PERIOD:
	case PERF_EVENT_IOC_ID:
	case PERF_EVENT_IOC_SET_FILTER:
	case PERF_EVENT_IOC_QUERY_BPF:
	case PERF_EVENT_IOC_MODIFY_ATTRIBUTES:
		return perf_ioctl(file, cmd, (unsigned long)compat_ptr(arg));
	default:
		return perf_ioctl(file, cmd, arg);
	}
}
#else
#define perf_compat_ioctl	NULL
#endif

const struct file_operations perf_fops = {
	.release	= perf_release,
	.read		= perf_read,
	.poll		= perf_poll,
	.unlocked_ioctl	= perf_ioctl,
	.compat_ioctl	= perf_compat_ioctl,
	.mmap		= perf_event_mmap_fop,
	.fasync		= perf_fasync,
};

/* perf_event_open(2)'s group_fd: a perf event file, or -EBADF. */
static struct perf_event *open_group_leader(int group_fd, struct fd *f)
{
	struct perf_event *leader;

	*f = fdget(group_fd);
	if (!fd_file(*f))
		return ERR_PTR(-EBADF);
	leader = perf_file_event(fd_file(*f));
	if (!leader) {
		fdput(*f);
		return ERR_PTR(-EBADF);
	}
	return leader;
}

static int check_group(struct perf_event *event, struct perf_event *leader,
		       struct perf_event_context *ctx)
{
	if (leader->group_leader != leader)
		return -EINVAL;
	if (leader->ctx != ctx || leader->cpu != event->cpu)
		return -EINVAL;
	/* a leader that exec or exit took off its task is gone for good */
	if (leader->state <= PERF_EVENT_STATE_EXIT)
		return -ENODEV;
	/* only a leader can be pinned or exclusive */
	if (event->attr.pinned || event->attr.exclusive)
		return -EINVAL;
	/* the times of a group's records come from one clock */
	if (event->clock != leader->clock)
		return -EINVAL;
	/*
	 * A group is on one PMU: a hardware event must be of the group's,
	 * unless the group has only software events so far (it moves).
	 */
	if (!is_software_event(event) && !perf_group_is_software(leader) &&
	    event->pmu != leader->pmu_ctx->pmu)
		return -EINVAL;
	return 0;
}

static struct task_struct *open_target_task(pid_t pid)
{
	struct task_struct *task;

	rcu_read_lock();
	task = pid ? find_task_by_vpid(pid) : current;
	if (task)
		get_task_struct(task);
	rcu_read_unlock();
	return task ? task : ERR_PTR(-ESRCH);
}

/*
 * May the caller monitor @task with @event?  Reading it takes ptrace read
 * rights or CAP_PERFMON; sending it SIGTRAPs (attr.sigtrap) takes the
 * right to attach, or CAP_PERFMON together with CAP_KILL.
 *
 * Called with the task's exec_update_lock held for reading, and that lock
 * is kept until the event is installed: an exec that changes the task's
 * credentials (setuid) either comes first, and is what the check sees, or
 * waits, and then finds the event installed and removes it with the rest
 * (fs/exec.c calls perf_event_exit_task() for a task it made undumpable).
 */
static int open_check_task(struct perf_event *event, struct task_struct *task)
{
	unsigned int mode = PTRACE_MODE_READ_REALCREDS;

	if (perfmon_capable() && (!event->attr.sigtrap || capable(CAP_KILL)))
		return 0;
	if (event->attr.sigtrap)
		mode = PTRACE_MODE_ATTACH_REALCREDS;
	return ptrace_may_access(task, mode) ? 0 : -EACCES;
}

/* Clocks that an NMI may read whenever it lands; the others may deadlock. */
static bool perf_clock_nmi_safe(clockid_t id)
{
	return id == CLOCK_MONOTONIC || id == CLOCK_MONOTONIC_RAW;
}

/* The context for a new event: of @task, or of @cpu. */
static struct perf_event_context *open_context(struct task_struct *task,
					       int cpu)
{
	if (task)
		return perf_ctx_get_task(task);
	if (!cpu_online(cpu))
		return ERR_PTR(-ENODEV);
	return perf_ctx_get_cpu(cpu);
}

struct perf_open {
	struct perf_event_attr attr;
	pid_t pid;
	int cpu;
	int group_fd;
	unsigned long flags;
	struct task_struct *task;
	struct perf_event *leader;
	struct perf_event *output;	/* PERF_FLAG_FD_OUTPUT */
	struct perf_event *event;
	struct perf_event_context *ctx;
	struct rw_semaphore *exec_lock;	/* held from check to install */
};

/* Everything of the open before the event is visible to anyone. */
static int open_event(struct perf_open *o)
{
	int ret;

	if (o->pid != -1 && !(o->flags & PERF_FLAG_PID_CGROUP)) {
		o->task = open_target_task(o->pid);
		if (IS_ERR(o->task)) {
			ret = PTR_ERR(o->task);
			o->task = NULL;
			return ret;
		}
	}
	/*
	 * A group is inherited whole or not at all: told before the PMU is
	 * asked, once the target task is found.
	 */
	if (o->leader && o->attr.inherit != o->leader->attr.inherit)
		return -EINVAL;
	o->event = perf_event_alloc(&o->attr, o->cpu, o->task, o->leader, NULL,
				    NULL);
	if (IS_ERR(o->event)) {
		ret = PTR_ERR(o->event);
		o->event = NULL;
		return ret;
	}
	/* a clock that is not NMI-safe only for PMUs that raise no NMI */
	if (o->attr.use_clockid && !perf_clock_nmi_safe(o->attr.clockid) &&
	    !(o->event->pmu->capabilities & PERF_PMU_CAP_NO_NMI))
		return -EINVAL;
	if (o->flags & PERF_FLAG_PID_CGROUP) {
		/* a cgroup event counts the tasks of its cgroup: task PMUs only */
		if (o->event->pmu->task_ctx_nr == perf_invalid_context)
			return -EINVAL;
		ret = perf_cgroup_connect(o->event, o->pid);
		if (ret)
			return ret;
	}
	if (o->task) {
		ret = down_read_interruptible(&o->task->signal->exec_update_lock);
		if (ret)
			return ret;
		o->exec_lock = &o->task->signal->exec_update_lock;
	}
	/* a CPU event's access is checked after its PMU's (the errno order) */
	ret = o->task ? open_check_task(o->event, o->task) : perf_allow_cpu();
	if (ret)
		return ret;
	/* a scoped PMU may have placed the event on another CPU */
	o->ctx = open_context(o->task, o->event->cpu);
	if (IS_ERR(o->ctx)) {
		ret = PTR_ERR(o->ctx);
		o->ctx = NULL;
		return ret;
	}
	/*
	 * A member is checked against its group and takes the group's PMU
	 * context under the leader's ctx->mutex: the group may move to
	 * another PMU context (perf_group_adopt()) whenever it is not held.
	 */
	if (o->leader) {
		mutex_lock(&o->ctx->mutex);
		ret = check_group(o->event, o->leader, o->ctx);
		if (!ret)
			ret = perf_event_attach(o->event, o->ctx);
		mutex_unlock(&o->ctx->mutex);
	} else {
		ret = perf_event_attach(o->event, o->ctx);
	}
	if (!ret)
		o->ctx = NULL;	/* the event owns the reference now */
	return ret;
}

static int open_validate(struct perf_open *o)
{
	int ret;

	ret = perf_attr_check(&o->attr);
	if (ret)
		return ret;
	if (o->flags & ~PERF_FLAG_ALL)
		return -EINVAL;
	ret = perf_open_access(&o->attr);
	if (ret)
		return ret;
	ret = perf_attr_check_period(&o->attr);
	if (ret)
		return ret;
	/* a cgroup event: pid is a cgroup directory's fd, cpu one CPU */
	if ((o->flags & PERF_FLAG_PID_CGROUP) &&
	    (!IS_ENABLED(CONFIG_CGROUP_PERF) || o->cpu == -1 || o->pid == -1))
		return -EINVAL;
	/* a SIGTRAP goes to the task the event is on: there must be one */
	if (o->attr.sigtrap &&
	    (o->pid == -1 || (o->flags & PERF_FLAG_PID_CGROUP)))
		return -EINVAL;
	if (o->cpu < -1 || (o->cpu >= 0 && o->cpu >= nr_cpu_ids))
		return -EINVAL;
	if (o->pid == -1 && o->cpu == -1)
		return -EINVAL;
	return 0;
}

SYSCALL_DEFINE5(perf_event_open, struct perf_event_attr __user *, attr_uptr,
		pid_t, pid, int, cpu, int, group_fd, unsigned long, flags)
{
	struct perf_open o = {
		.pid = pid, .cpu = cpu, .group_fd = group_fd, .flags = flags,
	};
	struct fd group = EMPTY_FD;
	struct perf_event *event;
	struct file *file;
	int fd, ret;

	ret = perf_attr_copy(attr_uptr, &o.attr);
	if (ret)
		return ret;
	ret = open_validate(&o);
	if (ret)
		return ret;
	fd = get_unused_fd_flags(O_RDWR |
				 (flags & PERF_FLAG_FD_CLOEXEC ? O_CLOEXEC : 0));
	if (fd < 0)
		return fd;
	if (group_fd != -1) {
		o.leader = open_group_leader(group_fd, &group);
		if (IS_ERR(o.leader)) {
			ret = PTR_ERR(o.leader);
			o.leader = NULL;
			goto out_fd;
		}
		if (flags & PERF_FLAG_FD_OUTPUT)
			o.output = o.leader;
		if (flags & PERF_FLAG_FD_NO_GROUP)
			o.leader = NULL;
	}
	ret = open_event(&o);
	if (!ret && o.output)
		ret = perf_event_set_output(o.event, o.output);
	if (ret)
		goto out_event;
	event = o.event;
	file = anon_inode_getfile("[perf_event]", &perf_fops, event, O_RDWR);
	if (IS_ERR(file)) {
		ret = PTR_ERR(file);
		goto out_event;
	}
	mutex_lock(&event->ctx->mutex);
	/* the task exited since its context was found: nothing to watch */
	if (o.task && READ_ONCE(event->ctx->task) == PERF_TASK_GONE)
		ret = -ESRCH;
	else if (o.leader && o.leader->state <= PERF_EVENT_STATE_EXIT)
		ret = -ENODEV;
	else if (o.leader)
		ret = perf_group_size_check(event);
	if (!ret)
		ret = perf_exclusive_check(event, event->ctx);
	if (ret) {
		mutex_unlock(&event->ctx->mutex);
		fput(file);	/* releases the event */
		goto out_task;
	}
	ret = perf_group_adopt(event);
	if (ret) {
		mutex_unlock(&event->ctx->mutex);
		fput(file);	/* releases the event */
		goto out_task;
	}
	perf_event_install(event);
	mutex_unlock(&event->ctx->mutex);
	if (o.exec_lock)
		up_read(o.exec_lock);

	event->owner = current;
	mutex_lock(&current->perf_event_mutex);
	list_add_tail(&event->owner_entry, &current->perf_event_list);
	mutex_unlock(&current->perf_event_mutex);

	if (o.task)
		put_task_struct(o.task);
	fdput(group);
	fd_install(fd, file);
	return fd;

out_event:
	if (o.ctx)
		perf_ctx_put(o.ctx);
	if (o.event)
		perf_event_free(o.event);
out_task:
	if (o.exec_lock)
		up_read(o.exec_lock);
	if (o.task)
		put_task_struct(o.task);
	fdput(group);
out_fd:
	put_unused_fd(fd);
	return ret;
}

/* For BPF and KVM: the file of a perf event descriptor, referenced. */
struct file *perf_event_get(unsigned int fd)
{
	struct file *file = fget(fd);

	if (file && perf_file_event(file))
		return file;
	if (file)
		fput(file);
	return ERR_PTR(-EBADF);
}

const struct perf_event *perf_get_event(struct file *file)
{
	return perf_file_event(file) ?: ERR_PTR(-EINVAL);
}

const struct perf_event_attr *perf_event_attrs(struct perf_event *event)
{
	return event ? &event->attr : ERR_PTR(-EINVAL);
}

static u64 clock_realtime(void)
{
	return ktime_get_real_ns();
}

static u64 clock_boottime(void)
{
	return ktime_get_boottime_ns();
}

static u64 clock_tai(void)
{
	return ktime_get_clocktai_ns();
}

u64 (*perf_clock_of(clockid_t id))(void)
{
	switch (id) {
	case CLOCK_MONOTONIC:
		return ktime_get_mono_fast_ns;
	case CLOCK_MONOTONIC_RAW:
		return ktime_get_raw_fast_ns;
	case CLOCK_REALTIME:
		return clock_realtime;
	case CLOCK_BOOTTIME:
		return clock_boottime;
	case CLOCK_TAI:
		return clock_tai;
	default:
		return NULL;
	}
}
