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
 * registered; registration is rare and serialised by the hypervisor's own
 * init and exit.  Unregistering waits for an RCU grace period, so no
 * interrupt still runs a callback of a module being unloaded.
 */
#include <linux/perf_event.h>
#include <linux/rcupdate.h>
#include <linux/static_call.h>

struct perf_guest_info_callbacks __rcu *perf_guest_cbs;
DEFINE_STATIC_CALL_RET0(__perf_guest_state, *perf_guest_cbs->state);
DEFINE_STATIC_CALL_RET0(__perf_guest_get_ip, *perf_guest_cbs->get_ip);
DEFINE_STATIC_CALL_RET0(__perf_guest_handle_intel_pt_intr,
			*perf_guest_cbs->handle_intel_pt_intr);

void perf_register_guest_info_callbacks(struct perf_guest_info_callbacks *cbs)
{
	if (WARN_ON_ONCE(rcu_access_pointer(perf_guest_cbs)))
		return;
	rcu_assign_pointer(perf_guest_cbs, cbs);
	static_call_update(__perf_guest_state, cbs->state);
	static_call_update(__perf_guest_get_ip, cbs->get_ip);
	/* optional: only KVM on Intel forwards PT interrupts */
	if (cbs->handle_intel_pt_intr)
		static_call_update(__perf_guest_handle_intel_pt_intr,
				   cbs->handle_intel_pt_intr);
}
EXPORT_SYMBOL_GPL(perf_register_guest_info_callbacks);

void perf_unregister_guest_info_callbacks(struct perf_guest_info_callbacks *cbs)
{
	if (WARN_ON_ONCE(rcu_access_pointer(perf_guest_cbs) != cbs))
		return;
	rcu_assign_pointer(perf_guest_cbs, NULL);
	static_call_update(__perf_guest_state, (void *)&__static_call_return0);
	static_call_update(__perf_guest_get_ip, (void *)&__static_call_return0);
	static_call_update(__perf_guest_handle_intel_pt_intr,
			   (void *)&__static_call_return0);
	synchronize_rcu();
}
EXPORT_SYMBOL_GPL(perf_unregister_guest_info_callbacks);
