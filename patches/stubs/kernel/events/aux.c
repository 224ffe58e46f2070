#include "internal.h"
/* aux.c: no AUX area can be mapped, so no PMU gets one to write */
int perf_aux_alloc(struct perf_buffer *rb, struct perf_event *event,
		   int nr_pages, bool overwrite)
{
	return -EOPNOTSUPP;
}

void perf_aux_init(struct perf_buffer *rb)
{
}

int perf_aux_mmap(struct perf_event *event, struct vm_area_struct *vma)
{
	return -EOPNOTSUPP;
}

void perf_aux_put(struct perf_buffer *rb)
{
}

void *perf_aux_output_begin(struct perf_output_handle *handle,
			    struct perf_event *event)
{
	return NULL;
}
EXPORT_SYMBOL_GPL(perf_aux_output_begin);

void perf_aux_output_end(struct perf_output_handle *handle, unsigned long size)
{
}
EXPORT_SYMBOL_GPL(perf_aux_output_end);

void perf_aux_output_flag(struct perf_output_handle *handle, u64 flags)
{
}
EXPORT_SYMBOL_GPL(perf_aux_output_flag);

int perf_aux_output_skip(struct perf_output_handle *handle, unsigned long size)
{
	return -ENOSPC;
}
EXPORT_SYMBOL_GPL(perf_aux_output_skip);

void *perf_get_aux(struct perf_output_handle *handle)
{
	return NULL;
}
EXPORT_SYMBOL_GPL(perf_get_aux);

void perf_aux_pause_resume(struct perf_event *event)
{
}

int perf_aux_sample_init(struct perf_event *event)
{
	return event->attr.aux_sample_size ? -EOPNOTSUPP : 0;
}

void perf_aux_sample_free(struct perf_event *event)
{
}

void perf_aux_sample_prepare(struct perf_sample_data *data,
			     struct perf_event *event)
{
}

void perf_aux_sample_output(struct perf_output_handle *handle,
			    struct perf_sample_data *data)
{
}

void perf_aux_sample_done(struct perf_sample_data *data)
{
}
