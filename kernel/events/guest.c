// SPDX-License-Identifier: GPL-2.0
/*
 * Guest-info callbacks.  A hypervisor (KVM, Xen PV) registers three
 * functions that tell a PMU interrupt whether it hit while this CPU ran a
 * guest, in guest user or kernel mode (perf_guest_state()), at which guest
 * instruction (perf_guest_get_ip()), and let Intel PT interrupts be
 * forwarded to the guest.  The arch code marks such samples
 * PERF_RECORD_MISC_GUEST_* with the guest's address.
 *
 * One hypervisor at a time.  Readers are interrupt handlers that go through
 * the static calls, which return 0 ("no guest") while nobody is
 * registered; registration and removal take a mutex.  Removal waits for
 * an RCU grace period, so that no interrupt still runs a callback of a
 * module being unloaded.
 */
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/rcupdate.h>
#include <linux/static_call.h>

struct perf_guest_info_callbacks __rcu *perf_guest_cbs;
DEFINE_STATIC_CALL_RET0(__perf_guest_state, *perf_guest_cbs->state);
DEFINE_STATIC_CALL_RET0(__perf_guest_get_ip, *perf_guest_cbs->get_ip);
DEFINE_STATIC_CALL_RET0(__perf_guest_handle_intel_pt_intr,
			*perf_guest_cbs->handle_intel_pt_intr);

static DEFINE_MUTEX(perf_guest_mutex);

/* Point the three static calls at @cbs, or back at "return 0" (NULL). */
static void guest_calls_point(struct perf_guest_info_callbacks *cbs)
{
	void *none = (void *)&__static_call_return0;
	void *pt = none;

	if (cbs && cbs->handle_intel_pt_intr)
		pt = cbs->handle_intel_pt_intr;
	static_call_update(__perf_guest_state, cbs ? (void *)cbs->state : none);
	static_call_update(__perf_guest_get_ip, cbs ? (void *)cbs->get_ip : none);
	static_call_update(__perf_guest_handle_intel_pt_intr, pt);
}

/* Install @cbs (new) or remove @old; false when that is not the state. */
static bool guest_swap(struct perf_guest_info_callbacks *old,
		       struct perf_guest_info_callbacks *cbs)
{
	bool ok;

	mutex_lock(&perf_guest_mutex);
	ok = rcu_dereference_protected(perf_guest_cbs,
				       lockdep_is_held(&perf_guest_mutex)) == old;
	if (ok) {
		rcu_assign_pointer(perf_guest_cbs, cbs);
		guest_calls_point(cbs);
	}
	mutex_unlock(&perf_guest_mutex);
	return ok;
}

/**
 * perf_register_guest_info_callbacks - install a hypervisor's callbacks
 * @cbs: its state(), get_ip() and, optionally, handle_intel_pt_intr()
 *
 * From now on PMU interrupts ask @cbs whether, and where, they hit a
 * guest.  Only one hypervisor may be registered at a time: a second
 * registration warns and is ignored.
 *
 * Context: process context, may sleep (takes a mutex and updates static
 * calls).
 */
void perf_register_guest_info_callbacks(struct perf_guest_info_callbacks *cbs)
{
	/* a second hypervisor: its samples would be told as the first's */
	WARN_ON_ONCE(!guest_swap(NULL, cbs));
}
EXPORT_SYMBOL_GPL(perf_register_guest_info_callbacks);

/**
 * perf_unregister_guest_info_callbacks - remove a hypervisor's callbacks
 * @cbs: the callbacks perf_register_guest_info_callbacks() installed
 *
 * PMU interrupts go back to "no guest".  Returns once no interrupt handler
 * can still be running one of @cbs, so that their module may go.  Removing
 * callbacks that are not the installed ones warns and does nothing.
 *
 * Context: process context, may sleep (waits for an RCU grace period).
 */
void perf_unregister_guest_info_callbacks(struct perf_guest_info_callbacks *cbs)
{
	if (WARN_ON_ONCE(!guest_swap(cbs, NULL)))
		return;
	/* no interrupt handler may still be inside one of @cbs */
	synchronize_rcu();
}
EXPORT_SYMBOL_GPL(perf_unregister_guest_info_callbacks);
