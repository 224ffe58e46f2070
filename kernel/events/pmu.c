// SPDX-License-Identifier: GPL-2.0
/*
 * The PMU registry: perf_pmu_register()/unregister(), type ids, finding
 * the PMU for a new event, per-(context, PMU) contexts, PMU disable
 * nesting, and the event_source bus in sysfs.
 *
 * Locking: pmus_lock (mutex) guards the list and the idr; lookups at event
 * creation walk the list under SRCU so that event_init may sleep.  A group
 * member's event_init runs under its leader's ctx->mutex, except for
 * software-context PMUs (pmu_event_init()); cpu_hotplug_lock nests outside
 * every ctx->mutex.
 *
 * PMU scopes: a PMU with a scope (pmu->scope, PERF_PMU_SCOPE_*) has
 * counters that all the CPUs of a core, die, cluster, package or of the
 * system share.  Its CPU events count on one designated CPU of each such
 * group of CPUs, the first to come online, which its sysfs "cpumask" shows;
 * when that CPU goes offline another online CPU of the group takes over.
 * perf_scope_cpus[] holds the designated CPUs of each scope: the CPU
 * hotplug callbacks and, for the boot CPU, an early initcall (under the
 * hotplug lock, which serializes them) write it, event
 * creation reads it without a lock (an event placed on a CPU that went
 * offline meanwhile fails with -ENODEV, like any event of an offline CPU).
 * An event asked for on an offline CPU of a package (or die) goes to the
 * designated CPU of that package, as on stock; of a core or a cluster, it
 * fails with -ENODEV.
 */
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/idr.h>
#include <linux/init.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/srcu.h>

#include "internal.h"

static LIST_HEAD(pmus);
static DEFINE_MUTEX(pmus_lock);
static DEFINE_IDR(pmu_idr);
DEFINE_STATIC_SRCU(pmus_srcu);
static bool pmu_bus_running;

static struct cpumask perf_scope_cpus[PERF_PMU_MAX_SCOPE];

/*
 * The CPUs that share the counters of a PMU of @scope with @cpu, widest
 * scope first: the system, a package, a cluster, a die, a core.
 */
static const struct cpumask *scope_group(unsigned int scope, int cpu)
{
	if (scope == PERF_PMU_SCOPE_SYS_WIDE)
		return cpu_online_mask;
	if (scope == PERF_PMU_SCOPE_PKG)
		return topology_core_cpumask(cpu);
	if (scope == PERF_PMU_SCOPE_CLUSTER)
		return topology_cluster_cpumask(cpu);
	if (scope == PERF_PMU_SCOPE_DIE)
		return topology_die_cpumask(cpu);
	if (scope == PERF_PMU_SCOPE_CORE)
		return topology_sibling_cpumask(cpu);
	return NULL;
}

static bool pmu_has_scope(struct pmu *pmu)
{
	return pmu->scope > PERF_PMU_SCOPE_NONE &&
	       pmu->scope < PERF_PMU_MAX_SCOPE;
}

/*
 * Does offline CPU @a belong to the group of @b in @scope?  Asked by the
 * package and die ids, which an offline CPU keeps (its topology masks are
 * cleared); for a core or a cluster, no: -ENODEV, as while no CPU of the
 * group is online.
 */
static bool scope_same(unsigned int scope, int a, int b)
{
	if (scope == PERF_PMU_SCOPE_SYS_WIDE)
		return true;
	if (scope != PERF_PMU_SCOPE_PKG && scope != PERF_PMU_SCOPE_DIE)
		return false;
	if (topology_physical_package_id(a) != topology_physical_package_id(b))
		return false;
	return scope == PERF_PMU_SCOPE_PKG ||
	       topology_die_id(a) == topology_die_id(b);
}

/*
 * The CPU designated for the group of @cpu in @scope, or nr_cpu_ids: also
 * for an offline @cpu of a package or die, whose events count on an online
 * CPU of it.
 */
int perf_scope_cpu(unsigned int scope, int cpu)
{
	const struct cpumask *group = scope_group(scope, cpu);
	int d;

	if (!group)
		return nr_cpu_ids;
	if (cpu_online(cpu))
		return cpumask_any_and(group, &perf_scope_cpus[scope]);
	for_each_cpu(d, &perf_scope_cpus[scope]) {
		if (scope_same(scope, cpu, d))
			return d;
	}
	return nr_cpu_ids;
}

/* Hotplug, @cpu online: the first of its group in a scope is designated. */
void perf_pmu_scope_online(unsigned int cpu)
{
	unsigned int scope;

	for (scope = PERF_PMU_SCOPE_NONE + 1; scope < PERF_PMU_MAX_SCOPE;
	     scope++) {
		if (!cpumask_intersects(scope_group(scope, cpu),
					&perf_scope_cpus[scope]))
			cpumask_set_cpu(cpu, &perf_scope_cpus[scope]);
	}
}

/*
 * The boot CPU's place in the scopes.  Not from perf_event_init(), which
 * runs before smp_prepare_cpus() has set up (and, with
 * CONFIG_CPUMASK_OFFSTACK, allocated) the topology masks scope_group()
 * reads; the early initcalls run after it, before the other CPUs come up
 * and before any scoped PMU registers.
 */
static int __init perf_pmu_scope_boot_cpu(void)
{
	cpus_read_lock();
	perf_pmu_scope_online(cpumask_first(cpu_online_mask));
	cpus_read_unlock();
	return 0;
}
early_initcall(perf_pmu_scope_boot_cpu);

/* Another online CPU of the group of @cpu in @scope, or nr_cpu_ids. */
static int scope_heir(unsigned int scope, unsigned int cpu)
{
	int other;

	for_each_cpu_and(other, scope_group(scope, cpu), cpu_online_mask) {
		if (other != cpu)
			return other;
	}
	return nr_cpu_ids;
}

/*
 * Hotplug, @cpu about to go offline (still online): where it was the
 * designated CPU, another online CPU of its group takes over, and the CPU
 * events of the PMUs of that scope move there.
 */
void perf_pmu_scope_offline(unsigned int cpu)
{
	unsigned int scope;
	struct pmu *pmu;
	int heir, idx;

	/*
	 * Moving events takes the contexts' mutexes inside the CPU hotplug
	 * lock: lockdep learns that order at every CPU offline, not only on
	 * the rare one that moves events.
	 */
	might_lock(&per_cpu_ptr(&perf_cpu_ctx, cpu)->ctx.mutex);
	for (scope = PERF_PMU_SCOPE_NONE + 1; scope < PERF_PMU_MAX_SCOPE;
	     scope++) {
		if (!cpumask_test_and_clear_cpu(cpu, &perf_scope_cpus[scope]))
			continue;
		heir = scope_heir(scope, cpu);
		if (heir >= nr_cpu_ids)
			continue;
		cpumask_set_cpu(heir, &perf_scope_cpus[scope]);
		idx = srcu_read_lock(&pmus_srcu);
		list_for_each_entry_srcu(pmu, &pmus, entry,
					 srcu_read_lock_held(&pmus_srcu)) {
			if (pmu->scope == scope)
				perf_pmu_migrate_context(pmu, cpu, heir);
		}
		srcu_read_unlock(&pmus_srcu, idx);
	}
}

/*
 * A CPU event of a scoped PMU goes to the designated CPU of the group of
 * the CPU it asked for; -ENODEV if that group has none online.
 */
static int pmu_scope_place(struct pmu *pmu, struct perf_event *event)
{
	int cpu;

	if (!pmu_has_scope(pmu) || event->cpu < 0)
		return 0;
	cpu = perf_scope_cpu(pmu->scope, event->cpu);
	if (cpu >= nr_cpu_ids)
		return -ENODEV;
	event->cpu = cpu;
	event->event_caps |= PERF_EV_CAP_READ_SCOPE;
	return 0;
}

/* PMU disable nests per CPU; only the outermost calls the driver. */
void perf_pmu_disable(struct pmu *pmu)
{
	int *count = this_cpu_ptr(pmu->pmu_disable_count);

	if (!(*count)++ && pmu->pmu_disable)
		pmu->pmu_disable(pmu);
}

void perf_pmu_enable(struct pmu *pmu)
{
	int *count = this_cpu_ptr(pmu->pmu_disable_count);

	if (!--(*count) && pmu->pmu_enable)
		pmu->pmu_enable(pmu);
}

static ssize_t type_show(struct device *dev, struct device_attribute *attr,
			 char *page)
{
	struct pmu *pmu = dev_get_drvdata(dev);

	return sysfs_emit(page, "%d\n", pmu->type);
}
static DEVICE_ATTR_RO(type);

static ssize_t perf_event_mux_interval_ms_show(struct device *dev,
					       struct device_attribute *attr,
					       char *page)
{
	struct pmu *pmu = dev_get_drvdata(dev);

	return sysfs_emit(page, "%d\n", pmu->hrtimer_interval_ms);
}

static ssize_t perf_event_mux_interval_ms_store(struct device *dev,
						struct device_attribute *attr,
						const char *buf, size_t count)
{
	struct pmu *pmu = dev_get_drvdata(dev);
	int ms, ret;

	ret = kstrtoint(buf, 0, &ms);
	if (ret)
		return ret;
	if (ms < 1)
		return -EINVAL;
	/* running rotation timers take it at their next expiry */
	WRITE_ONCE(pmu->hrtimer_interval_ms, ms);
	return count;
}
static DEVICE_ATTR_RW(perf_event_mux_interval_ms);

static ssize_t cpumask_show(struct device *dev, struct device_attribute *attr,
			    char *page)
{
	struct pmu *pmu = dev_get_drvdata(dev);

	return cpumap_print_to_pagebuf(true, page,
				       &perf_scope_cpus[pmu->scope]);
}
static DEVICE_ATTR_RO(cpumask);

/* How many address filters an event of the PMU takes (AUX PMUs). */
static ssize_t nr_addr_filters_show(struct device *dev,
				    struct device_attribute *attr, char *page)
{
	struct pmu *pmu = dev_get_drvdata(dev);

	return sysfs_emit(page, "%d\n", pmu->nr_addr_filters);
}
static DEVICE_ATTR_RO(nr_addr_filters);

/* Does a driver's own unnamed attribute group have a file called @name? */
static bool pmu_driver_has(struct pmu *pmu, const char *name)
{
	const struct attribute_group **grp;
	struct attribute **attr;

	for (grp = pmu->attr_groups; grp && *grp; grp++) {
		if ((*grp)->name || !(*grp)->attrs)
			continue;
		for (attr = (*grp)->attrs; *attr; attr++) {
			if (!strcmp((*attr)->name, name))
				return true;
		}
	}
	return false;
}

/*
 * "cpumask" only for a scoped PMU whose driver does not show its own,
 * "nr_addr_filters" only for a PMU that has address filters.
 */
static umode_t pmu_dev_is_visible(struct kobject *kobj, struct attribute *attr,
				  int n)
{
	struct pmu *pmu = dev_get_drvdata(kobj_to_dev(kobj));

	if (attr == &dev_attr_cpumask.attr &&
	    (!pmu_has_scope(pmu) || pmu_driver_has(pmu, "cpumask")))
		return 0;
	if (attr == &dev_attr_nr_addr_filters.attr && !pmu->nr_addr_filters)
		return 0;
	return attr->mode;
}

static struct attribute *pmu_dev_attrs[] = {
	&dev_attr_type.attr,
	&dev_attr_perf_event_mux_interval_ms.attr,
	&dev_attr_cpumask.attr,
	&dev_attr_nr_addr_filters.attr,
	NULL,
};

static const struct attribute_group pmu_dev_group = {
	.attrs = pmu_dev_attrs,
	.is_visible = pmu_dev_is_visible,
};

static const struct attribute_group *pmu_dev_groups[] = {
	&pmu_dev_group,
	NULL,
};

static const struct bus_type pmu_bus = {
	.name = "event_source",
	.dev_groups = pmu_dev_groups,
};

static void pmu_dev_release(struct device *dev)
{
	kfree(dev);
}

static int pmu_dev_add(struct pmu *pmu)
{
	int ret;

	pmu->dev = kzalloc(sizeof(*pmu->dev), GFP_KERNEL);
	if (!pmu->dev)
		return -ENOMEM;
	device_initialize(pmu->dev);
	pmu->dev->groups = pmu->attr_groups;
	pmu->dev->bus = &pmu_bus;
	pmu->dev->parent = pmu->parent;
	pmu->dev->release = pmu_dev_release;
	dev_set_drvdata(pmu->dev, pmu);
	ret = dev_set_name(pmu->dev, "%s", pmu->name);
	if (!ret)
		ret = device_add(pmu->dev);
	if (!ret && pmu->attr_update)
		ret = sysfs_update_groups(&pmu->dev->kobj, pmu->attr_update);
	if (ret) {
		put_device(pmu->dev);
		pmu->dev = NULL;
	}
	return ret;
}

static void pmu_dev_del(struct pmu *pmu)
{
	struct device *dev = pmu->dev;

	pmu->dev = NULL;
	if (dev)
		device_unregister(dev);
}

static void pmu_free_percpu(struct pmu *pmu)
{
	int cpu;

	/* the rotation timers exist once both allocations succeeded */
	if (pmu->cpu_pmu_context && pmu->pmu_disable_count) {
		for_each_possible_cpu(cpu)
			hrtimer_cancel(&per_cpu_ptr(pmu->cpu_pmu_context,
						    cpu)->hrtimer);
	}
	free_percpu(pmu->pmu_disable_count);
	free_percpu(pmu->cpu_pmu_context);
}

static int pmu_alloc_percpu(struct pmu *pmu)
{
	int cpu;

	pmu->pmu_disable_count = alloc_percpu(int);
	pmu->cpu_pmu_context = alloc_percpu(struct perf_cpu_pmu_context);
	if (!pmu->pmu_disable_count || !pmu->cpu_pmu_context) {
		pmu_free_percpu(pmu);
		return -ENOMEM;
	}
	for_each_possible_cpu(cpu) {
		struct perf_cpu_pmu_context *cpc;

		cpc = per_cpu_ptr(pmu->cpu_pmu_context, cpu);
		cpc->epc.pmu = pmu;
		cpc->epc.ctx = &per_cpu_ptr(&perf_cpu_ctx, cpu)->ctx;
		cpc->epc.embedded = 1;
		INIT_LIST_HEAD(&cpc->epc.pmu_ctx_entry);
		INIT_LIST_HEAD(&cpc->epc.pinned_active);
		INIT_LIST_HEAD(&cpc->epc.flexible_active);
		atomic_set(&cpc->epc.refcount, 1);
		perf_mux_timer_init(cpc);
	}
	return 0;
}

/*
 * The first dynamic type id: the two ids after the fixed types belong to
 * the unnamed clock PMUs (sw_event.c), so the first PMU user
 * space finds in sysfs has type PERF_TYPE_MAX + 2.
 */
#define PERF_TYPE_DYNAMIC	(PERF_TYPE_MAX + 2)

/**
 * perf_pmu_register - make a PMU available to perf_event_open()
 * @pmu: the PMU, its callbacks and capabilities filled in
 * @name: its name in sysfs (event_source/devices/<name>), or NULL for
 *	none; kept, not copied
 * @type: a fixed PERF_TYPE_* id, or -1 for a dynamic one
 *
 * Register @pmu under @name.  @type is a fixed PERF_TYPE_* id, or -1 for a
 * dynamic one (PERF_TYPE_DYNAMIC and up) that user space reads from sysfs.
 * The PMU gets its per-CPU contexts and multiplexing timers (interval
 * PERF_MUX_DEFAULT_MS unless set) and, once the event_source bus is up,
 * its sysfs device with @pmu->attr_groups; PMUs registered before that get
 * theirs when the bus comes up.
 *
 * Context: process context, may sleep; takes pmus_lock.
 *
 * Return: 0, or -ENOMEM, -ENOSPC when the fixed @type is taken (or no
 * dynamic id is left), or the error of the sysfs device.
 */
int perf_pmu_register(struct pmu *pmu, const char *name, int type)
{
	int ret;

	mutex_lock(&pmus_lock);
	ret = pmu_alloc_percpu(pmu);
	if (ret)
		goto out;
	ret = idr_alloc(&pmu_idr, pmu, type >= 0 ? type : PERF_TYPE_DYNAMIC,
			type >= 0 ? type + 1 : 0, GFP_KERNEL);
	if (ret < 0) {
		pmu_free_percpu(pmu);
		goto out;
	}
	pmu->type = ret;
	pmu->name = name;
	if (!pmu->hrtimer_interval_ms)
		pmu->hrtimer_interval_ms = PERF_MUX_DEFAULT_MS;
	if (pmu_bus_running && name) {
		ret = pmu_dev_add(pmu);
		if (ret) {
			idr_remove(&pmu_idr, pmu->type);
			pmu_free_percpu(pmu);
			goto out;
		}
	}
	list_add_tail_rcu(&pmu->entry, &pmus);
	ret = 0;
out:
	mutex_unlock(&pmus_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(perf_pmu_register);

/**
 * perf_pmu_unregister - withdraw a registered PMU
 * @pmu: the PMU
 *
 * New events can no longer find @pmu; once the event creations that may
 * still be looking at it are done, its sysfs device and per-CPU contexts
 * go.  The caller must have no events of @pmu left (each holds a
 * reference to the PMU's module).
 *
 * Context: process context, may sleep (waits for an SRCU grace period);
 * takes pmus_lock.
 */
void perf_pmu_unregister(struct pmu *pmu)
{
	scoped_guard(mutex, &pmus_lock) {
		idr_remove(&pmu_idr, pmu->type);
		list_del_rcu(&pmu->entry);
	}
	/* event creation may still be walking the list: let it finish */
	synchronize_srcu(&pmus_srcu);
	pmu_dev_del(pmu);
	pmu_free_percpu(pmu);
}
EXPORT_SYMBOL_GPL(perf_pmu_unregister);

void perf_pmu_put(struct pmu *pmu)
{
	module_put(pmu->module);
}

/*
 * A group member's PMU validates the group in event_init by walking the
 * leader's siblings, which for_each_sibling_event() asserts is done under
 * the leader's ctx->mutex: held around event_init, and only there, for
 * every PMU but those of the software context.  These walk no group, and
 * their event_init takes cpu_hotplug_lock (static keys, probe and
 * tracepoint registration), which nests outside every ctx->mutex: the
 * scoped PMUs' events move at CPU hotplug under it (perf_pmu_scope_offline()).
 */
static int pmu_event_init(struct pmu *pmu, struct perf_event *event)
{
	struct perf_event *leader = event->group_leader;
	struct perf_event_context *ctx;
	int ret;

	if (leader == event || pmu->task_ctx_nr == perf_sw_context)
		return pmu->event_init(event);
	ctx = perf_event_ctx_lock(leader);
	ret = pmu->event_init(event);
	mutex_unlock(&ctx->mutex);
	return ret;
}

static int pmu_try_init(struct pmu *pmu, struct perf_event *event)
{
	int ret;

	if (!try_module_get(pmu->module))
		return -ENODEV;
	event->pmu = pmu;
	ret = pmu_event_init(pmu, event);
	if (ret) {
		event->pmu = NULL;
		module_put(pmu->module);
		return ret;
	}
	if ((pmu->capabilities & PERF_PMU_CAP_NO_EXCLUDE) &&
	    event_has_any_exclude_flag(event)) {
		ret = -EINVAL;
		goto undo;
	}
	/*
	 * An event of a software-context PMU (software, tracepoint, probe,
	 * breakpoint and msr events) counts in groups as a software event:
	 * it may join a hardware group, or lead one that a hardware event
	 * then joins (the group moves to the hardware PMU).
	 */
	if (pmu->task_ctx_nr == perf_sw_context)
		event->event_caps |= PERF_EV_CAP_SOFTWARE;
	ret = pmu_scope_place(pmu, event);
	if (ret)
		goto undo;
	return 0;
undo:
	if (event->destroy)
		event->destroy(event);
	event->destroy = NULL;
	event->pmu = NULL;
	module_put(pmu->module);
	return ret;
}

/*
 * Find the PMU that accepts @event: the one registered under its type, or
 * for the generic hardware types any PMU that does not answer -ENOENT.
 * Returns the PMU with a module reference held.
 */
struct pmu *perf_pmu_find(struct perf_event *event)
{
	u32 type = event->attr.type;
	struct pmu *pmu;
	bool ext = false;
	int idx, ret;

	idx = srcu_read_lock(&pmus_srcu);
	/* a clone goes to the PMU that accepted its parent */
	if (event->parent) {
		pmu = event->parent->pmu;
		ret = pmu_try_init(pmu, event);
		goto out;
	}
	/* generic hardware events may name their PMU in config's top half */
	if ((type == PERF_TYPE_HARDWARE || type == PERF_TYPE_HW_CACHE) &&
	    event->attr.config >> PERF_PMU_TYPE_SHIFT) {
		type = event->attr.config >> PERF_PMU_TYPE_SHIFT;
		ext = true;
	}
	rcu_read_lock();
	pmu = idr_find(&pmu_idr, type);
	rcu_read_unlock();
	/*
	 * A PMU named in config that takes no generic events: ENOENT.  One
	 * that does not exist: the search below, as for no PMU named.
	 */
	ret = -ENOENT;
	if (pmu && ext && !(pmu->capabilities & PERF_PMU_CAP_EXTENDED_HW_TYPE))
		goto out;
	if (pmu) {
		ret = pmu_try_init(pmu, event);
		goto out;
	}
	if (event->attr.type != PERF_TYPE_HARDWARE &&
	    event->attr.type != PERF_TYPE_HW_CACHE &&
	    event->attr.type != PERF_TYPE_RAW)
		goto out;
	list_for_each_entry_srcu(pmu, &pmus, entry,
				 srcu_read_lock_held(&pmus_srcu)) {
		ret = pmu_try_init(pmu, event);
		if (ret != -ENOENT)
			break;
	}
out:
	srcu_read_unlock(&pmus_srcu, idx);
	return ret ? ERR_PTR(ret) : pmu;
}

/* @pmu's context in the task context @ctx, referenced, or NULL. */
static struct perf_event_pmu_context *
pmu_ctx_lookup(struct pmu *pmu, struct perf_event_context *ctx)
{
	struct perf_event_pmu_context *epc;

	lockdep_assert_held(&ctx->lock);
	list_for_each_entry(epc, &ctx->pmu_ctx_list, pmu_ctx_entry) {
		if (epc->pmu == pmu) {
			atomic_inc(&epc->refcount);
			return epc;
		}
	}
	return NULL;
}

/*
 * The (context, PMU) pair's context with a reference, created for a task
 * context on first use; a CPU context uses the PMU's per-CPU one.
 */
struct perf_event_pmu_context *
perf_pmu_ctx_get(struct pmu *pmu, struct perf_event_context *ctx, int cpu)
{
	struct perf_event_pmu_context *epc, *new;

	if (!ctx->task) {
		epc = &per_cpu_ptr(pmu->cpu_pmu_context, cpu)->epc;
		raw_spin_lock_irq(&ctx->lock);
		if (list_empty(&epc->pmu_ctx_entry))
			list_add(&epc->pmu_ctx_entry, &ctx->pmu_ctx_list);
		atomic_inc(&epc->refcount);
		raw_spin_unlock_irq(&ctx->lock);
		return epc;
	}

	/* most events of a task context find their PMU's there already */
	raw_spin_lock_irq(&ctx->lock);
	epc = pmu_ctx_lookup(pmu, ctx);
	raw_spin_unlock_irq(&ctx->lock);
	if (epc)
		return epc;
	new = kzalloc(sizeof(*new), GFP_KERNEL);
	if (!new)
		return ERR_PTR(-ENOMEM);
	raw_spin_lock_irq(&ctx->lock);
	epc = pmu_ctx_lookup(pmu, ctx);
	if (epc) {
		raw_spin_unlock_irq(&ctx->lock);
		kfree(new);
		return epc;
	}
	new->pmu = pmu;
	new->ctx = ctx;
	INIT_LIST_HEAD(&new->pinned_active);
	INIT_LIST_HEAD(&new->flexible_active);
	atomic_set(&new->refcount, 1);
	list_add(&new->pmu_ctx_entry, &ctx->pmu_ctx_list);
	raw_spin_unlock_irq(&ctx->lock);
	return new;
}

void perf_pmu_ctx_put(struct perf_event_pmu_context *epc)
{
	struct perf_event_context *ctx = epc->ctx;
	unsigned long flags;

	raw_spin_lock_irqsave(&ctx->lock, flags);
	/*
	 * A per-CPU one keeps its base reference; without events it leaves
	 * the CPU context's list, which must not outlive its PMU.
	 */
	if (epc->embedded) {
		if (atomic_dec_return(&epc->refcount) == 1)
			list_del_init(&epc->pmu_ctx_entry);
		raw_spin_unlock_irqrestore(&ctx->lock, flags);
		return;
	}
	if (!atomic_dec_and_test(&epc->refcount)) {
		raw_spin_unlock_irqrestore(&ctx->lock, flags);
		return;
	}
	WARN_ON_ONCE(perf_pmu_ctx_is_active(epc));
	list_del_init(&epc->pmu_ctx_entry);
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
	kfree_rcu(epc, rcu_head);
}

/* PMUs registered before the bus existed get their devices now. */
static int __init perf_pmu_bus_init(void)
{
	struct pmu *pmu;
	int ret;

	mutex_lock(&pmus_lock);
	ret = bus_register(&pmu_bus);
	if (ret)
		goto out;
	list_for_each_entry(pmu, &pmus, entry) {
		if (!pmu->name || pmu->type < 0)
			continue;
		ret = pmu_dev_add(pmu);
		if (ret)
			pr_warn("perf: no sysfs entry for PMU %s (%d)\n",
				pmu->name, ret);
	}
	pmu_bus_running = true;
	ret = 0;
out:
	mutex_unlock(&pmus_lock);
	return ret;
}
device_initcall(perf_pmu_bus_init);

/**
 * perf_event_sysfs_show - sysfs show helper for PMU event attributes
 * @dev: the PMU's device
 * @attr: the device_attribute of a struct perf_pmu_events_attr
 * @page: the sysfs buffer
 *
 * The show() of PMU_EVENT_ATTR_STRING() event attributes: the event's
 * string (such as "event=0x3c") and a newline.
 *
 * Context: process context (a sysfs read).
 *
 * Return: the bytes written to @page, 0 when the attribute has no string.
 */
ssize_t perf_event_sysfs_show(struct device *dev, struct device_attribute *attr,
			      char *page)
{
	struct perf_pmu_events_attr *pmu_attr =
		container_of(attr, struct perf_pmu_events_attr, attr);

	if (pmu_attr->event_str)
		return sysfs_emit(page, "%s\n", pmu_attr->event_str);
	return 0;
}
EXPORT_SYMBOL_GPL(perf_event_sysfs_show);
