// SPDX-License-Identifier: GPL-2.0
/*
 * The PMU registry: perf_pmu_register()/unregister(), type ids, finding
 * the PMU for a new event, per-(context, PMU) contexts, PMU disable
 * nesting, and the event_source bus in sysfs.
 *
 * Locking: pmus_lock (mutex) guards the list and the idr; lookups at event
 * creation walk the list under SRCU so that event_init may sleep.
 */
#include <linux/device.h>
#include <linux/idr.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/srcu.h>

#include "internal.h"

static LIST_HEAD(pmus);
static DEFINE_MUTEX(pmus_lock);
static DEFINE_IDR(pmu_idr);
DEFINE_STATIC_SRCU(pmus_srcu);
static bool pmu_bus_running;
/* the shortest perf_event_mux_interval_ms of all PMUs (pmus_lock) */
static int pmu_mux_ms = PERF_MUX_DEFAULT_MS;

/* How often flexible groups rotate when a PMU is overcommitted. */
int perf_mux_interval_ms(void)
{
	return READ_ONCE(pmu_mux_ms);
}

static void pmu_mux_update(void)
{
	struct pmu *pmu;
	int ms = INT_MAX;

	lockdep_assert_held(&pmus_lock);
	list_for_each_entry(pmu, &pmus, entry)
		ms = min(ms, pmu->hrtimer_interval_ms);
	WRITE_ONCE(pmu_mux_ms, ms == INT_MAX ? PERF_MUX_DEFAULT_MS : ms);
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
	mutex_lock(&pmus_lock);
	WRITE_ONCE(pmu->hrtimer_interval_ms, ms);
	pmu_mux_update();
	mutex_unlock(&pmus_lock);
	return count;
}
static DEVICE_ATTR_RW(perf_event_mux_interval_ms);

static struct attribute *pmu_dev_attrs[] = {
	&dev_attr_type.attr,
	&dev_attr_perf_event_mux_interval_ms.attr,
	NULL,
};
ATTRIBUTE_GROUPS(pmu_dev);

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
	}
	return 0;
}

/*
 * The first dynamic type id.  On stock the two ids after the fixed types
 * belong to unnamed PMUs of its core (its clocks), so the first PMU user
 * space finds in sysfs has type PERF_TYPE_MAX + 2; ours does too.
 */
#define PERF_TYPE_DYNAMIC	(PERF_TYPE_MAX + 2)

/*
 * Register @pmu under @name.  @type is a fixed PERF_TYPE_* id, or -1 for a
 * dynamic one (PERF_TYPE_DYNAMIC and up) that user space reads from sysfs.
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
	pmu_mux_update();
	ret = 0;
out:
	mutex_unlock(&pmus_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(perf_pmu_register);

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

static int pmu_try_init(struct pmu *pmu, struct perf_event *event)
{
	int ret;

	if (!try_module_get(pmu->module))
		return -ENODEV;
	event->pmu = pmu;
	ret = pmu->event_init(event);
	if (ret) {
		event->pmu = NULL;
		module_put(pmu->module);
		return ret;
	}
	if ((pmu->capabilities & PERF_PMU_CAP_NO_EXCLUDE) &&
	    event_has_any_exclude_flag(event)) {
		if (event->destroy)
			event->destroy(event);
		event->destroy = NULL;
		event->pmu = NULL;
		module_put(pmu->module);
		return -EINVAL;
	}
	return 0;
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
	/* generic hardware events may name their PMU in config's top half */
	if ((type == PERF_TYPE_HARDWARE || type == PERF_TYPE_HW_CACHE) &&
	    event->attr.config >> PERF_PMU_TYPE_SHIFT) {
		type = event->attr.config >> PERF_PMU_TYPE_SHIFT;
		ext = true;
	}
	rcu_read_lock();
	pmu = idr_find(&pmu_idr, type);
	rcu_read_unlock();
	if (pmu && ext && !(pmu->capabilities & PERF_PMU_CAP_EXTENDED_HW_TYPE))
		pmu = NULL;
	if (pmu) {
		ret = pmu_try_init(pmu, event);
		goto out;
	}
	ret = -ENOENT;
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

	new = kzalloc(sizeof(*new), GFP_KERNEL);
	if (!new)
		return ERR_PTR(-ENOMEM);
	raw_spin_lock_irq(&ctx->lock);
	list_for_each_entry(epc, &ctx->pmu_ctx_list, pmu_ctx_entry) {
		if (epc->pmu == pmu) {
			atomic_inc(&epc->refcount);
			raw_spin_unlock_irq(&ctx->lock);
			kfree(new);
			return epc;
		}
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

/* sysfs show helper for PMU_EVENT_ATTR_STRING() event attributes */
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
