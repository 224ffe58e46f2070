#include "internal.h"
/* ring_buffer.c: without it no event has a ring buffer to detach */
void perf_rb_detach(struct perf_event *event)
{
}
