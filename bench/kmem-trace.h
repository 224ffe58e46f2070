/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmem-trace.h: the kernel memory a stretch of a guest program leaves
 * allocated, from the kernel's allocator tracepoints (tracefs at
 * /sys/kernel/tracing, mounted by the guest's /init), for perfbench's
 * mem_* figures.
 *
 * kmem_trace_start() clears the trace and turns on the allocation and
 * free events of slab (kmalloc, kmem_cache_alloc), percpu, vmalloc and the
 * page allocator; kmem_trace_stop() turns them off and walks the trace in
 * time order: an allocation is live until a later free names its address.
 * The live bytes are
 *
 *	slab and percpu objects, as allocated (bytes_alloc: the cache's
 *	object size, the kmalloc bucket, whole pages for a large kmalloc)
 *	+ vmalloc areas less their guard page
 *	+ pages from the page allocator that are not compound (__GFP_COMP
 *	  marks slab's own pages and large kmallocs, counted as objects),
 *	  page by page
 *
 * Every task's allocations count: the guest is idle but for the caller,
 * and a figure that must not hold the rest of the kernel's takes the
 * difference of two runs.  Exact where /proc/meminfo's Slab is coarse:
 * slab pages hold freed objects and the per-CPU page lists hold pages.
 * KMEM_TRACE_SHOW set in the environment prints each live allocation
 * ("# live <bytes> <event>: <call site>...").
 * Returns -1 if the trace lost events (a buffer filled), holds more live
 * allocations than the table's slots, or cannot be used.
 */
#ifndef BENCH_KMEM_TRACE_H
#define BENCH_KMEM_TRACE_H

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define KMEM_TRACE	"/sys/kernel/tracing/"

static const char *const kmem_trace_events[] = {
	"kmem/kmalloc", "kmem/kmem_cache_alloc", "kmem/kfree",
	"kmem/kmem_cache_free", "kmem/mm_page_alloc", "kmem/mm_page_free",
	"kmem/mm_page_free_batched", "percpu/percpu_alloc_percpu",
	"percpu/percpu_free_percpu", "vmalloc/alloc_vmap_area",
	"vmalloc/free_vmap_area_noflush",
};

#define KMEM_TRACE_NEVENTS \
	(sizeof(kmem_trace_events) / sizeof(kmem_trace_events[0]))

/* what an address names: allocations of one kind are freed by the same */
enum kmem_space { KMEM_OBJ, KMEM_PAGE, KMEM_VMAP };

struct kmem_live {
	uint64_t key;		/* 0: a free slot */
	long bytes;		/* 0: freed */
	enum kmem_space space;
	char what[56];		/* the event and its call site */
};

#define KMEM_SLOTS	(1 << 16)
static struct kmem_live kmem_live[KMEM_SLOTS];
static int kmem_full;		/* more live allocations than slots */

static int kmem_trace_write(const char *file, const char *s)
{
	char path[128];
	int fd, ret;

	snprintf(path, sizeof(path), KMEM_TRACE "%s", file);
	fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0)
		return -1;
	ret = write(fd, s, strlen(s)) == (ssize_t)strlen(s) ? 0 : -1;
	close(fd);
	return ret;
}

static int kmem_trace_events_on(const char *on)
{
	char file[96];

	for (unsigned int i = 0; i < KMEM_TRACE_NEVENTS; i++) {
		snprintf(file, sizeof(file), "events/%s/enable",
			 kmem_trace_events[i]);
		if (kmem_trace_write(file, on))
			return -1;
	}
	return 0;
}

static int kmem_trace_start(void)
{
	if (kmem_trace_write("tracing_on", "0") ||
	    kmem_trace_write("buffer_size_kb", "4096") ||
	    kmem_trace_write("trace", "") || kmem_trace_events_on("1"))
		return -1;
	return kmem_trace_write("tracing_on", "1");
}

/* @key's slot, or a free one for it; NULL when the table is full */
static struct kmem_live *kmem_slot(uint64_t key, enum kmem_space space)
{
	unsigned int i = (key * 0x9e3779b97f4a7c15ULL) >> 48;

	for (unsigned int n = 0; n < KMEM_SLOTS; n++) {
		struct kmem_live *s = &kmem_live[(i + n) % KMEM_SLOTS];

		if (!s->key || (s->key == key && s->space == space))
			return s;
	}
	kmem_full = 1;
	return NULL;
}

/* the number after "@field=" in @line, in @base; 0 where it is missing */
static uint64_t kmem_field(const char *line, const char *field, int base)
{
	const char *p = strstr(line, field);

	return p ? strtoull(p + strlen(field), NULL, base) : 0;
}

static void kmem_alloc(uint64_t key, enum kmem_space space, long bytes,
		       const char *line)
{
	struct kmem_live *s = kmem_slot(key, space);
	const char *what = strstr(line, ": ");

	if (!s)
		return;
	s->key = key;
	s->space = space;
	s->bytes = bytes;
	snprintf(s->what, sizeof(s->what), "%s", what ? what + 2 : line);
}

static void kmem_free(uint64_t key, enum kmem_space space)
{
	struct kmem_live *s = kmem_slot(key, space);

	if (s && s->key)
		s->bytes = 0;
}

/*
 * Pages are counted one by one: a run allocated at once may be freed in
 * parts (alloc_pages_exact() frees its tail)
 */
static void kmem_pages(const char *l, long page_size, int alloc)
{
	uint64_t pfn = kmem_field(l, " pfn=", 16);
	uint64_t nr = 1ULL << kmem_field(l, " order=", 10);

	for (uint64_t i = 0; i < nr; i++) {
		if (alloc)
			kmem_alloc(pfn + i, KMEM_PAGE, page_size, l);
		else
			kmem_free(pfn + i, KMEM_PAGE);
	}
}

/* one line of the trace */
static void kmem_line(const char *l, long page_size)
{
	if (strstr(l, " kmalloc: ") || strstr(l, " kmem_cache_alloc: ") ||
	    strstr(l, " percpu_alloc_percpu: "))
		kmem_alloc(kmem_field(l, " ptr=", 16), KMEM_OBJ,
			   kmem_field(l, " bytes_alloc=", 10), l);
	else if (strstr(l, " kfree: ") || strstr(l, " kmem_cache_free: ") ||
		 strstr(l, " percpu_free_percpu: "))
		kmem_free(kmem_field(l, " ptr=", 16), KMEM_OBJ);
	else if (strstr(l, " mm_page_alloc: ") && !strstr(l, "__GFP_COMP"))
		kmem_pages(l, page_size, 1);
	else if (strstr(l, " mm_page_free: ") ||
		 strstr(l, " mm_page_free_batched: "))
		kmem_pages(l, page_size, 0);
	else if (strstr(l, " alloc_vmap_area: ") && !strstr(l, "failed=1"))
		kmem_alloc(kmem_field(l, "va_start: ", 10), KMEM_VMAP,
			   kmem_field(l, " size=", 10) - page_size, l);
	else if (strstr(l, " free_vmap_area_noflush: "))
		kmem_free(kmem_field(l, "va_start=", 16), KMEM_VMAP);
}

static long kmem_trace_stop(void)
{
	long page_size = sysconf(_SC_PAGESIZE), live = 0;
	unsigned long in_buffer = 0, written = 1;
	char line[512];
	FILE *f;

	kmem_trace_write("tracing_on", "0");
	kmem_trace_events_on("0");
	f = fopen(KMEM_TRACE "trace", "r");
	if (!f)
		return -1;
	memset(kmem_live, 0, sizeof(kmem_live));
	kmem_full = 0;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#') {
			sscanf(line, "# entries-in-buffer/entries-written: %lu/%lu",
			       &in_buffer, &written);
			continue;
		}
		kmem_line(line, page_size);
	}
	fclose(f);
	if (in_buffer != written || kmem_full)
		return -1;
	for (unsigned int i = 0; i < KMEM_SLOTS; i++) {
		live += kmem_live[i].bytes;
		if (kmem_live[i].bytes && getenv("KMEM_TRACE_SHOW"))
			printf("# live %ld %s\n", kmem_live[i].bytes,
			       kmem_live[i].what);
	}
	return live;
}

#endif /* BENCH_KMEM_TRACE_H */
