#include "internal.h"
#include <linux/cgroup.h>
#include <linux/slab.h>

/* cgroup.c: the controller exists, cgroup events are refused */
#ifdef CONFIG_CGROUP_PERF
static struct cgroup_subsys_state *
perf_cgroup_css_alloc(struct cgroup_subsys_state *parent)
{
	struct perf_cgroup *cgrp = kzalloc(sizeof(*cgrp), GFP_KERNEL);

	return cgrp ? &cgrp->css : ERR_PTR(-ENOMEM);
}

static void perf_cgroup_css_free(struct cgroup_subsys_state *css)
{
	kfree(container_of(css, struct perf_cgroup, css));
}

struct cgroup_subsys perf_event_cgrp_subsys = {
	.css_alloc	= perf_cgroup_css_alloc,
	.css_free	= perf_cgroup_css_free,
	.implicit_on_dfl = true,
	.threaded	= true,
};

int perf_cgroup_connect(struct perf_event *event, int fd)
{
	return -EOPNOTSUPP;
}

void perf_cgroup_disconnect(struct perf_event *event)
{
}

bool perf_cgroup_match(struct perf_event *event)
{
	return true;
}

void perf_cgroup_account(struct perf_event *event,
			 struct perf_event_context *ctx, bool add)
{
}

u64 perf_cgroup_sample_id(void)
{
	return 0;
}

void perf_cgroup_set(struct perf_cpu_context *cpuctx, struct perf_cgroup *cgrp)
{
}

u64 perf_cgroup_time(struct perf_event *event)
{
	return 0;
}

u64 perf_cgroup_time_now(struct perf_event *event)
{
	return 0;
}

void perf_cgroup_update_clocks(struct perf_cpu_context *cpuctx, u64 now)
{
}
#endif
