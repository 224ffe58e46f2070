/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A ring-buffer reader for the sampling selftests, written from the
 * perf_event_open(2) manual page: map an event's buffer, walk the records
 * between data_tail and data_head (copying those that wrap the end of the
 * data area), and decode PERF_RECORD_SAMPLE by the event's sample_type.
 */
#ifndef PERF_SELFTEST_RECORDS_H
#define PERF_SELFTEST_RECORDS_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <linux/perf_event.h>

struct perf_map {
	struct perf_event_mmap_page *page;
	void *data;
	size_t data_size;
	size_t len;
	uint64_t tail;		/* our read position */
};

/* Map 1 + @data_pages pages of @fd; @prot PROT_READ alone for overwrite. */
static inline int perf_map_open(struct perf_map *m, int fd, int data_pages,
				int prot)
{
	size_t page = sysconf(_SC_PAGESIZE);

	memset(m, 0, sizeof(*m));
	m->len = (1 + data_pages) * page;
	m->page = mmap(NULL, m->len, prot, MAP_SHARED, fd, 0);
	if (m->page == MAP_FAILED)
		return -1;
	m->data = (char *)m->page + page;
	m->data_size = data_pages * page;
	return 0;
}

static inline void perf_map_close(struct perf_map *m)
{
	if (m->page && m->page != MAP_FAILED)
		munmap(m->page, m->len);
	m->page = NULL;
}

static inline uint64_t perf_map_head(struct perf_map *m)
{
	return __atomic_load_n(&m->page->data_head, __ATOMIC_ACQUIRE);
}

/* Tell the kernel everything before our read position is consumed. */
static inline void perf_map_consume(struct perf_map *m)
{
	__atomic_store_n(&m->page->data_tail, m->tail, __ATOMIC_RELEASE);
}

/*
 * The next record at our read position, copied into @buf (of @size
 * bytes); NULL at data_head.  Advances the read position, not data_tail.
 */
static inline struct perf_event_header *
perf_map_next(struct perf_map *m, void *buf, size_t size)
{
	uint64_t head = perf_map_head(m);
	struct perf_event_header *hdr;
	size_t off, len, first;

	if (m->tail >= head)
		return NULL;
	off = m->tail % m->data_size;
	hdr = (struct perf_event_header *)((char *)m->data + off);
	len = hdr->size;
	if (off + sizeof(*hdr) > m->data_size) {
		/* the header itself wraps: copy it in two pieces */
		struct perf_event_header h;

		first = m->data_size - off;
		memcpy(&h, (char *)m->data + off, first);
		memcpy((char *)&h + first, m->data, sizeof(h) - first);
		len = h.size;
	}
	if (!len || len > size)
		return NULL;
	first = len;
	if (off + len > m->data_size)
		first = m->data_size - off;
	memcpy(buf, (char *)m->data + off, first);
	memcpy((char *)buf + first, m->data, len - first);
	m->tail += len;
	return buf;
}

/* The decoded fixed part of a sample; present fields per sample_type. */
struct perf_sample {
	uint64_t identifier, ip, time, addr, id, stream_id, period;
	uint32_t pid, tid, cpu;
	const uint64_t *read;		/* PERF_SAMPLE_READ values */
	uint64_t callchain_nr;
	const uint64_t *callchain;
	uint32_t raw_size;
	const void *end;		/* first byte after what was decoded */
};

static inline int perf_read_words(uint64_t read_format, int nr_members)
{
	int entry = 1 + !!(read_format & PERF_FORMAT_ID) +
		    !!(read_format & PERF_FORMAT_LOST);
	int words = !!(read_format & PERF_FORMAT_TOTAL_TIME_ENABLED) +
		    !!(read_format & PERF_FORMAT_TOTAL_TIME_RUNNING);

	if (read_format & PERF_FORMAT_GROUP)
		return words + 1 + nr_members * entry;
	return words + entry;
}

/*
 * Decode a PERF_RECORD_SAMPLE of an event with @type and @read_format
 * (@nr_members in its group for PERF_FORMAT_GROUP), up to RAW.
 */
static inline void perf_sample_parse(const struct perf_event_header *hdr,
				     uint64_t type, uint64_t read_format,
				     int nr_members, struct perf_sample *s)
{
	const uint64_t *p = (const uint64_t *)(hdr + 1);

	memset(s, 0, sizeof(*s));
	if (type & PERF_SAMPLE_IDENTIFIER)
		s->identifier = *p++;
	if (type & PERF_SAMPLE_IP)
		s->ip = *p++;
	if (type & PERF_SAMPLE_TID) {
		s->pid = (uint32_t)*p;
		s->tid = (uint32_t)(*p++ >> 32);
	}
	if (type & PERF_SAMPLE_TIME)
		s->time = *p++;
	if (type & PERF_SAMPLE_ADDR)
		s->addr = *p++;
	if (type & PERF_SAMPLE_ID)
		s->id = *p++;
	if (type & PERF_SAMPLE_STREAM_ID)
		s->stream_id = *p++;
	if (type & PERF_SAMPLE_CPU)
		s->cpu = (uint32_t)*p++;
	if (type & PERF_SAMPLE_PERIOD)
		s->period = *p++;
	if (type & PERF_SAMPLE_READ) {
		s->read = p;
		p += perf_read_words(read_format, nr_members);
	}
	if (type & PERF_SAMPLE_CALLCHAIN) {
		s->callchain_nr = *p++;
		s->callchain = p;
		p += s->callchain_nr;
	}
	if (type & PERF_SAMPLE_RAW) {
		s->raw_size = *(const uint32_t *)p;
		p = (const uint64_t *)((const char *)p + sizeof(uint32_t) +
				       s->raw_size);
	}
	s->end = p;
}

/* Bytes of the sample_id trailer for @type (attr.sample_id_all). */
static inline int perf_sample_id_bytes(uint64_t type)
{
	return 8 * (!!(type & PERF_SAMPLE_TID) + !!(type & PERF_SAMPLE_TIME) +
		    !!(type & PERF_SAMPLE_ID) + !!(type & PERF_SAMPLE_STREAM_ID) +
		    !!(type & PERF_SAMPLE_CPU) +
		    !!(type & PERF_SAMPLE_IDENTIFIER));
}

#endif /* PERF_SELFTEST_RECORDS_H */
