// SPDX-License-Identifier: GPL-2.0
/*
 * events.c - one JSON event object into a struct event and/or a struct
 * metric (see model.h).
 *
 * The encoding string: the event's code first ("event=", or "config=" or
 * "eventid=" with "type=" for the PMUs that number events that way), then
 * the x86 fields in a fixed order (any, ch_mask, cmask, edge, fc_mask, inv,
 * period, umask), then the MSR field the event programs (offcore_rsp, ldlat
 * or frontend, by MSRIndex), the AMD L3 and UMC filters, and last the
 * Filter text as it is.  A field whose value is zero is left out.  Code and
 * mask fields are written as numbers: below 10 in decimal, else as 0x hex;
 * the others keep the text of the file.
 *
 * Event descriptions lose one final full stop (or ". "), and gain the
 * notes the x86 files carry as fields: "Supports address when precise"
 * (Data_LA), "Spec update: ..." (Errata) and "(Precise event)" or "(Must
 * be precise)" (PEBS 1 or 2; on neither description if the brief one
 * already says "(Precise Event)" or "(Precise event)").  The notes go only
 * on descriptions the object writes itself, not on those it takes from its
 * ArchStdEvent.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "expr.h"
#include "json.h"
#include "jutil.h"
#include "model.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* How each known member is used. */
enum use {
	U_IGNORED,	/* describes the hardware, not the perf event */
	U_USED,
};

static const struct {
	const char *key;
	enum use use;
} known_keys[] = {
	{ "ArchStdEvent", U_USED }, { "EventName", U_USED },
	{ "EventCode", U_USED }, { "ConfigCode", U_USED },
	{ "EventidCode", U_USED }, { "NodeType", U_USED },
	{ "UMask", U_USED }, { "CounterMask", U_USED },
	{ "EdgeDetect", U_USED }, { "Invert", U_USED },
	{ "AnyThread", U_USED }, { "PortMask", U_USED },
	{ "FCMask", U_USED }, { "SampleAfterValue", U_USED },
	{ "MSRIndex", U_USED }, { "MSRValue", U_USED },
	{ "EnAllCores", U_USED }, { "EnAllSlices", U_USED },
	{ "SliceId", U_USED }, { "ThreadMask", U_USED },
	{ "RdWrMask", U_USED }, { "Filter", U_USED },
	{ "BriefDescription", U_USED }, { "PublicDescription", U_USED },
	{ "Unit", U_USED }, { "PerPkg", U_USED }, { "Deprecated", U_USED },
	{ "ScaleUnit", U_USED }, { "Compat", U_USED }, { "Errata", U_USED },
	{ "PEBS", U_USED }, { "Data_LA", U_USED },
	{ "MetricName", U_USED }, { "MetricExpr", U_USED },
	{ "MetricGroup", U_USED }, { "MetricThreshold", U_USED },
	{ "MetricgroupNoGroup", U_USED },
	{ "DefaultMetricgroupName", U_USED },
	{ "AggregationMode", U_USED }, { "MetricConstraint", U_USED },
	{ "Counter", U_IGNORED }, { "Experimental", U_IGNORED },
	{ "CountersNumFixed", U_IGNORED }, { "CountersNumGeneric", U_IGNORED },
	/*
	 * Misspellings present in the base's data files (ampereonex,
	 * amdzen4/5): known, and like any unknown description they add
	 * nothing to the event.
	 */
	{ "PublicDescrition", U_IGNORED }, { "BriefDescript6ion", U_IGNORED },
};

/* An event object with its ArchStdEvent resolved: a flat list of members. */
struct fields {
	const char *key[64];
	const char *val[64];
	bool overridden[64];	/* a standard member the object set again */
	int nr;
	int nr_std;		/* the first nr_std came from the ArchStdEvent */
};

/* Was @key written in the object itself, not taken from its ArchStdEvent? */
static bool own(const struct fields *f, const char *key)
{
	for (int i = f->nr_std; i < f->nr; i++)
		if (!strcmp(f->key[i], key))
			return true;
	for (int i = 0; i < f->nr_std; i++)
		if (!strcmp(f->key[i], key))
			return f->overridden[i];
	return false;
}

static const char *get(const struct fields *f, const char *key)
{
	for (int i = 0; i < f->nr; i++)
		if (!strcmp(f->key[i], key))
			return f->val[i];
	return NULL;
}

/* Set (or override) a member. */
static int put(struct fields *f, const char *key, const char *val)
{
	for (int i = 0; i < f->nr; i++) {
		if (!strcmp(f->key[i], key)) {
			f->val[i] = val;
			f->overridden[i] = true;
			return 0;
		}
	}
	if (f->nr == 64)
		return -1;
	f->key[f->nr] = key;
	f->val[f->nr] = val;
	f->nr++;
	return 0;
}

static int collect(struct fields *f, const struct json *obj, const char *file,
		   bool skip_std)
{
	for (size_t i = 0; i < obj->nr; i++) {
		const char *key = obj->members[i].key;
		const struct json *v = obj->members[i].value;
		size_t k;

		for (k = 0; k < ARRAY_SIZE(known_keys); k++)
			if (!strcmp(known_keys[k].key, key))
				break;
		if (k == ARRAY_SIZE(known_keys)) {
			jerror(file, v->line, "unknown field \"%s\"", key);
			return -1;
		}
		if (v->type != JSON_STRING && v->type != JSON_NUMBER) {
			jerror(file, v->line, "field \"%s\" is not a string",
			       key);
			return -1;
		}
		if (skip_std && !strcmp(key, "ArchStdEvent"))
			continue;
		if (known_keys[k].use == U_IGNORED)
			continue;
		if (put(f, key, v->str)) {
			jerror(file, v->line, "too many fields");
			return -1;
		}
	}
	return 0;
}

static const struct json *find_std(const struct std_events *std,
				   const char *name, const char **file)
{
	for (size_t i = 0; std && i < std->nr; i++) {
		const struct json *e = std->items[i];
		const struct json *n = json_get(e, "EventName");

		if (!n)
			n = json_get(e, "MetricName");
		if (n && n->type == JSON_STRING && !strcasecmp(n->str, name)) {
			*file = std->files[i];
			return e;
		}
	}
	return NULL;
}

/* --- values --- */

static bool parse_num(const char *s, unsigned long long *v)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	if (!*s)
		return false;
	*v = strtoull(s, &end, 0);
	while (isspace((unsigned char)*end))
		end++;
	return end != s && (*end == '\0' || *end == ',');
}

/*
 * A code or mask: the first of a comma-separated list.  Returns false if
 * it does not read as a number.
 */
static bool hex_term(struct strbuf *sb, const char *term, const char *val,
		     bool keep_zero)
{
	unsigned long long v;

	if (!parse_num(val, &v))
		return false;
	if (!v && !keep_zero)
		return true;
	if (sb->len)
		sb_addc(sb, ',');
	if (v < 10)
		sb_addf(sb, "%s=%llu", term, v);
	else
		sb_addf(sb, "%s=0x%llx", term, v);
	return true;
}

/* A field kept as written, left out when it reads as zero. */
static void raw_term(struct strbuf *sb, const char *term, const char *val)
{
	unsigned long long v;

	if (parse_num(val, &v) && !v)
		return;
	if (sb->len)
		sb_addc(sb, ',');
	sb_addf(sb, "%s=%s", term, val);
}

/*
 * x86 events on the fixed counters: whatever the file says, these names
 * always get the encoding of the general-purpose counter equivalent.
 */
static const struct {
	const char *name, *encoding;
} fixed_events[] = {
	{ "inst_retired.any", "event=0xc0,period=2000003" },
	{ "inst_retired.any_p", "event=0xc0,period=2000003" },
	{ "cpu_clk_unhalted.ref", "event=0x0,umask=0x03,period=2000003" },
	{ "cpu_clk_unhalted.thread", "event=0x3c,period=2000003" },
	{ "cpu_clk_unhalted.core", "event=0x3c,period=2000003" },
	{ "cpu_clk_unhalted.thread_any", "event=0x3c,any=1,period=2000003" },
};

/* The event's code: the first of these the object has. */
static const struct {
	const char *key, *term;
} codes[] = {
	{ "EventCode", "event" },
	{ "ConfigCode", "config" },
	{ "EventidCode", "eventid" },
};

static const struct {
	const char *key, *term;
	bool hex;
} x86_terms[] = {
	{ "AnyThread", "any", false },
	{ "PortMask", "ch_mask", true },
	{ "CounterMask", "cmask", false },
	{ "EdgeDetect", "edge", false },
	{ "FCMask", "fc_mask", true },
	{ "Invert", "inv", false },
	{ "SampleAfterValue", "period", false },
	{ "UMask", "umask", true },
}, late_terms[] = {
	{ "EnAllCores", "enallcores", true },
	{ "EnAllSlices", "enallslices", true },
	{ "SliceId", "sliceid", true },
	{ "ThreadMask", "threadmask", true },
	{ "RdWrMask", "rdwrmask", true },
};

static const struct {
	unsigned long long index;
	const char *term;
} msrs[] = {
	{ 0x1a6, "offcore_rsp" }, { 0x1a7, "offcore_rsp" },
	{ 0x3f6, "ldlat" }, { 0x3f7, "frontend" },
};

static int bad_value(const char *file, int line, const char *key,
		     const char *val)
{
	jerror(file, line, "%s \"%s\" is not a number", key, val);
	return -1;
}

static char *encoding(const struct fields *f, const char *name,
		      const char *file, int line)
{
	struct strbuf sb = STRBUF_INIT;
	const char *v;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fixed_events); i++)
		if (!strcmp(name, fixed_events[i].name))
			return xstrdup(fixed_events[i].encoding);
	for (i = 0; i < ARRAY_SIZE(codes); i++) {
		v = get(f, codes[i].key);
		if (v)
			break;
	}
	if (!v)
		sb_add(&sb, "event=0");
	else if (!hex_term(&sb, codes[i].term, v, true))
		goto bad_code;
	v = get(f, "NodeType");
	if (v && !hex_term(&sb, "type", v, false)) {
		bad_value(file, line, "NodeType", v);
		goto fail;
	}
	for (i = 0; i < ARRAY_SIZE(x86_terms); i++) {
		v = get(f, x86_terms[i].key);
		if (!v)
			continue;
		if (!x86_terms[i].hex) {
			raw_term(&sb, x86_terms[i].term, v);
		} else if (!hex_term(&sb, x86_terms[i].term, v, false)) {
			bad_value(file, line, x86_terms[i].key, v);
			goto fail;
		}
	}
	v = get(f, "MSRIndex");
	if (v) {
		const char *val = get(f, "MSRValue");
		unsigned long long index;

		if (!parse_num(v, &index)) {
			bad_value(file, line, "MSRIndex", v);
			goto fail;
		}
		for (i = 0; index && i < ARRAY_SIZE(msrs); i++)
			if (msrs[i].index == index)
				break;
		if (index && i == ARRAY_SIZE(msrs)) {
			jerror(file, line, "unknown MSRIndex %s", v);
			goto fail;
		}
		/*
		 * An MSRIndex without MSRValue (two nehalem/westmere
		 * events) is written "<term>=None", as stock perf writes it:
		 * the string is what "perf list" shows and what the tool
		 * parses.
		 */
		if (index)
			raw_term(&sb, msrs[i].term, val ? val : "None");
	}
	for (i = 0; i < ARRAY_SIZE(late_terms); i++) {
		v = get(f, late_terms[i].key);
		if (v && !hex_term(&sb, late_terms[i].term, v, false)) {
			bad_value(file, line, late_terms[i].key, v);
			goto fail;
		}
	}
	v = get(f, "Filter");
	if (v && *v) {
		if (sb.len)
			sb_addc(&sb, ',');
		sb_add(&sb, v);
	}
	return sb_detach(&sb);
bad_code:
	bad_value(file, line, "event code", v);
fail:
	sb_release(&sb);
	return NULL;
}

/* --- descriptions --- */

/* Does the brief description already say that the event is precise? */
static bool precise_said(const char *brief)
{
	return brief && (strstr(brief, "(Precise Event)") ||
			 strstr(brief, "(Precise event)"));
}

/* @f is NULL for a metric: no notes. */
static char *describe(const char *text, const struct fields *f)
{
	struct strbuf sb = STRBUF_INIT;
	const char *errata = f ? get(f, "Errata") : NULL;
	const char *pebs = f ? get(f, "PEBS") : NULL;
	const char *data_la = f ? get(f, "Data_LA") : NULL;
	size_t len;
	bool sep = false;

	if (!text || !*text)
		return NULL;
	len = strlen(text);
	if (len && text[len - 1] == '.')
		len--;
	else if (len > 1 && text[len - 2] == '.' && text[len - 1] == ' ')
		len -= 2;
	sb_addn(&sb, text, len);
	if (data_la && strcmp(data_la, "0")) {
		sb_add(&sb, "  Supports address when precise");
		sep = true;
	}
	if (errata && strcmp(errata, "null")) {
		sb_add(&sb, sep ? ".  Spec update: " : "  Spec update: ");
		sb_add(&sb, errata);
	}
	if (pebs && !precise_said(get(f, "BriefDescription"))) {
		if (!strcmp(pebs, "1"))
			sb_add(&sb, " (Precise event)");
		else if (!strcmp(pebs, "2"))
			sb_add(&sb, " (Must be precise)");
	}
	return sb_detach(&sb);
}

/* --- PMU names --- */

static const struct {
	const char *unit, *pmu;
} unit_names[] = {
	{ "CBO", "uncore_cbox" },
	{ "CPU-M-CF", "cpum_cf" }, { "CPU-M-SF", "cpum_sf" },
	{ "PAI-CRYPTO", "pai_crypto" }, { "PAI-EXT", "pai_ext" },
	{ "DFPMC", "amd_df" }, { "L3PMC", "amd_l3" }, { "UMCPMC", "amd_umc" },
	{ "cpu_core", "cpu_core" }, { "cpu_atom", "cpu_atom" },
	{ "ali_drw", "ali_drw" }, { "arm_cmn", "arm_cmn" },
	{ "imx8_ddr", "imx8_ddr" }, { "imx9_ddr", "imx9_ddr" },
};

static char *pmu_name(const char *unit)
{
	char *s;

	if (!unit || !*unit)
		return xstrdup("default_core");
	for (size_t i = 0; i < ARRAY_SIZE(unit_names); i++)
		if (!strcmp(unit, unit_names[i].unit))
			return xstrdup(unit_names[i].pmu);
	if (!strncmp(unit, "hisi_", 5))
		return xstrdup(unit);
	s = xasprintf("uncore_%s", unit);
	for (char *p = s; *p; p++)
		*p = tolower((unsigned char)*p);
	return s;
}

static char *dup_or_null(const char *s)
{
	return s && *s ? xstrdup(s) : NULL;
}

/* --- the object --- */

static int add_event(struct table *t, const struct fields *f,
		     const char *file, int line, const char *topic)
{
	struct event *e;
	const char *v;
	char *name = xstrdup(get(f, "EventName"));

	for (char *p = name; *p; p++)
		*p = tolower((unsigned char)*p);
	t->events = xrealloc(t->events, (t->nr_events + 1) * sizeof(*e));
	e = &t->events[t->nr_events];
	memset(e, 0, sizeof(*e));
	e->name = name;
	e->file = file;
	e->line = line;
	e->event = encoding(f, name, file, line);
	if (!e->event) {
		free(name);
		return -1;
	}
	e->topic = xstrdup(topic);
	e->desc = describe(get(f, "BriefDescription"),
			   own(f, "BriefDescription") ? f : NULL);
	e->long_desc = describe(get(f, "PublicDescription"),
				own(f, "PublicDescription") ? f : NULL);
	e->pmu = pmu_name(get(f, "Unit"));
	e->unit = dup_or_null(get(f, "ScaleUnit"));
	e->compat = dup_or_null(get(f, "Compat"));
	v = get(f, "PerPkg");
	e->perpkg = v && strcmp(v, "0");
	v = get(f, "Deprecated");
	e->deprecated = v && strcmp(v, "0");
	t->nr_events++;
	return 0;
}

static int add_metric(struct table *t, const struct fields *f,
		      const char *file, int line)
{
	struct metric *m;
	const char *v;

	if (!get(f, "MetricExpr")) {
		jerror(file, line, "metric \"%s\" has no MetricExpr",
		       get(f, "MetricName"));
		return -1;
	}
	t->metrics = xrealloc(t->metrics, (t->nr_metrics + 1) * sizeof(*m));
	m = &t->metrics[t->nr_metrics];
	memset(m, 0, sizeof(*m));
	m->file = file;
	m->line = line;
	m->seq = t->nr_metrics;
	m->metric_name = xstrdup(get(f, "MetricName"));
	m->metric_expr = expr_canonical(get(f, "MetricExpr"), file, line);
	if (!m->metric_expr)
		return -1;
	v = get(f, "MetricThreshold");
	if (v && *v) {
		m->metric_threshold = expr_canonical(v, file, line);
		if (!m->metric_threshold)
			return -1;
	}
	m->pmu = pmu_name(get(f, "Unit"));
	m->metric_group = dup_or_null(get(f, "MetricGroup"));
	m->unit = dup_or_null(get(f, "ScaleUnit"));
	m->compat = dup_or_null(get(f, "Compat"));
	m->desc = describe(get(f, "BriefDescription"), NULL);
	m->long_desc = describe(get(f, "PublicDescription"), NULL);
	m->metricgroup_no_group = dup_or_null(get(f, "MetricgroupNoGroup"));
	m->default_metricgroup_name =
		dup_or_null(get(f, "DefaultMetricgroupName"));
	v = get(f, "AggregationMode");
	if (v) {
		if (!strcmp(v, "PerChip")) {
			m->aggr_mode = 1;
		} else if (!strcmp(v, "PerCore")) {
			m->aggr_mode = 2;
		} else {
			jerror(file, line, "unknown AggregationMode \"%s\"", v);
			return -1;
		}
	}
	v = get(f, "MetricConstraint");
	if (v) {
		if (!strcmp(v, "NO_GROUP_EVENTS")) {
			m->event_grouping = 1;
		} else if (!strcmp(v, "NO_GROUP_EVENTS_NMI")) {
			m->event_grouping = 2;
		} else if (!strcmp(v, "NO_GROUP_EVENTS_SMT")) {
			m->event_grouping = 3;
		} else {
			jerror(file, line, "unknown MetricConstraint \"%s\"", v);
			return -1;
		}
	}
	t->nr_metrics++;
	return 0;
}

int add_json_object(struct table *t, const struct json *obj, const char *file,
		    const char *topic, const struct std_events *std)
{
	struct fields f = { .nr = 0 };
	const struct json *stdname;
	int line = obj->line;

	if (obj->type != JSON_OBJECT) {
		jerror(file, line, "expected an object");
		return -1;
	}
	stdname = json_get(obj, "ArchStdEvent");
	if (stdname && stdname->type == JSON_STRING) {
		const char *stdfile;
		const struct json *se = find_std(std, stdname->str, &stdfile);

		if (!se) {
			jerror(file, stdname->line,
			       "unknown ArchStdEvent \"%s\"", stdname->str);
			return -1;
		}
		if (collect(&f, se, stdfile, true))
			return -1;
		f.nr_std = f.nr;
	}
	if (collect(&f, obj, file, true))
		return -1;
	if (!get(&f, "EventName") && !get(&f, "MetricName")) {
		/* A counter layout (counter.json) describes no event. */
		if (json_get(obj, "CountersNumFixed") ||
		    json_get(obj, "CountersNumGeneric"))
			return 0;
		jerror(file, line, "missing required field %s",
		       "\"EventName\" or \"MetricName\"");
		return -1;
	}
	if (get(&f, "EventName") && add_event(t, &f, file, line, topic))
		return -1;
	if (get(&f, "MetricName") && add_metric(t, &f, file, line))
		return -1;
	return 0;
}
