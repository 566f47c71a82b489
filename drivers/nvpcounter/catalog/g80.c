// SPDX-License-Identifier: GPL-2.0
/*
 * G80:GF100 chips (Tesla).
 *
 * Domains (envytools' pcounter/nv40.txt, counter sets): NV50:NV84 have the
 * NV40 set 0 host, 1 core [PGRAPH front], 2 geometry [PGRAPH back],
 * 3 shader, 4 memory. Other NV84+ add 5 misc (core clock), 6 video
 * decoding, 7 VM and memory interface (core clock). NV84+ IGPs (MCP77,
 * MCP79) have the NV40 sets without the memory one, then 4 misc, 5 video
 * decoding, 6 VM: 7 domains.
 *
 * Trailer bases and signal counts. The trailer ends at base+0x1f, the top
 * of the domain's range, so count = base + 0x20. In order of preference:
 *
 * 1. The chip's own "0xNN trailer base" line in envytools'
 *    pcounter/nv40.txt.
 * 2. The ids of nouveau's "trailer" signals (nouveau's PM signal names,
 *    pc01_trailer/pc02_trailer in nvkm/engine/pm/nv50.c, g84.c, gt200.c,
 *    gt215.c). These are not trailer bases: they are the first trailer
 *    signal of the domain, which is ZERO at base+0x0e on NV40:G84 and at
 *    base+0x0c on G84:GF100 (envytools' pcounter/intro.rst, Trailer
 *    signals). G80 "ee" is thus base 0xe0 - exactly what envytools'
 *    pcounter/nv40.txt gives for NV50 sets 1 and 2 - and G84 "ec"/"8c"
 *    are bases 0xe0/0x80, GT215 "cc" is 0xc0.
 * 3. The smallest multiple of 0x20 that keeps every named signal of the
 *    domain below its trailer (base+0x0c on G84:GF100), when only a signal
 *    list is known.
 * 4. The count of nouveau's PM domain tables (nvkm/engine/pm/) when
 *    nothing else is known; these are 0x20 for every unnamed domain and
 *    marked NVPC_DOMAIN_ASSUMED.
 *
 * nouveau's counts disagree with envytools' documents wherever the latter
 * say more, and lose (envytools' documents win for NV10:GF100): a 0xf0
 * graph domain cannot hold a trailer based at 0xe0 (it would end at 0xff),
 * and NV50 names host signals 0x27-0x2a, NV84 0x2c, beyond a 0x20 host
 * domain.
 *
 * Clock rates are sim defaults, not documented facts.
 */
#include "internal.h"

#define TESLA_HOST_HZ	100000000
#define TESLA_CORE_HZ	575000000
#define TESLA_SHADER_HZ	1350000000
#define TESLA_MEM_HZ	900000000
#define TESLA_VDEC_HZ	400000000

#define SRC_TXT		"envytools' pcounter/nv40.txt"
#define SRC_NVKM	"nouveau's PM signal names"
#define SRC_NV50	SRC_TXT ", NV50 signals"
#define SRC_NV84	SRC_TXT ", NV84 signals"
#define SRC_NV86	SRC_TXT ", NV86 signals"
#define SRC_NV98	SRC_TXT ", NV98 signals"
#define SRC_NVA0	SRC_TXT ", NVA0 signals"
#define SRC_NVA5	SRC_TXT ", NVA5 signals"
#define SRC_NVA8	SRC_TXT ", NVA8 signals"
#define SRC_NVAC	SRC_TXT ", NVAC signals"
#define SRC_NOUVEAU	"nouveau's PM domain tables (nvkm/engine/pm/*.c); count assumed"
#define SRC_DERIVED	"lowest trailer base above the named signals"

#define A	NVPC_DOMAIN_ASSUMED

/* The Tesla domains; _b is the trailer base. */
#define TESLA_HOST(_nr, _b, _f, _s)						\
	NVPC_DOM(0, "host", _nr, _b, "host", TESLA_HOST_HZ, _f, _s)
#define TESLA_GRAPH(_nr, _b, _f, _s)						\
	NVPC_DOM(1, "graph", _nr, _b, "core", TESLA_CORE_HZ, _f, _s)
#define TESLA_GRAPH_BACK(_nr, _b, _f, _s)					\
	NVPC_DOM(2, "graph_back", _nr, _b, "geometry", TESLA_CORE_HZ, _f, _s)
#define TESLA_MP(_nr, _b, _f, _s)						\
	NVPC_DOM(3, "mp", _nr, _b, "shader", TESLA_SHADER_HZ, _f, _s)
#define TESLA_MEM(_nr, _b, _f, _s)						\
	NVPC_DOM(4, "mem", _nr, _b, "memory", TESLA_MEM_HZ, _f, _s)
/* misc, vdec and vm are 5, 6, 7 on G84+, 4, 5, 6 on the IGPs */
#define TESLA_MISC(_i, _nr, _b, _f, _s)					\
	NVPC_DOM(_i, "misc", _nr, _b, "core", TESLA_CORE_HZ, _f, _s)
#define TESLA_VDEC(_i, _nr, _b, _f, _s)					\
	NVPC_DOM(_i, "vdec", _nr, _b, "vdec", TESLA_VDEC_HZ, _f, _s)
#define TESLA_VM(_i, _nr, _b, _f, _s)					\
	NVPC_DOM(_i, "vm", _nr, _b, "core", TESLA_CORE_HZ, _f, _s)

/*
 * G80 (NV50): all five trailer bases from the NV50 list; they agree with
 * nouveau's G80 trailer "ee" (= 0xe0 + 0x0e) for domains 1 and 2.
 */
static const struct nvpc_domain_desc g80_domains[] = {
	NVPC_DOM(0, "host", 0x40, 0x20, "host", TESLA_HOST_HZ, 0, SRC_NV50),
	NVPC_DOM(1, "graph", 0x100, 0xe0, "core", TESLA_CORE_HZ, 0, SRC_NV50),
	NVPC_DOM(2, "graph_back", 0x100, 0xe0, "geometry", TESLA_CORE_HZ, 0,
		 SRC_NV50),
	NVPC_DOM(3, "mp", 0x40, 0x20, "shader", TESLA_SHADER_HZ, 0, SRC_NV50),
	NVPC_DOM(4, "mem", 0x40, 0x20, "memory", TESLA_MEM_HZ, 0, SRC_NV50),
};

/*
 * G84: domain 0 holds PTIMER_TIME_B12 at 0x2c (NV84 list); with base 0x20
 * it would be the trailer's ZERO, so the base is 0x40. Domains 1 and 2 from
 * nouveau's G84 trailers "ec" and "8c". G86 takes the same layout: the NV84
 * and NV86 lists agree on every signal they share (0x2c, 0xc7-0xca).
 */
static const struct nvpc_domain_desc g84_domains[] = {
	TESLA_HOST(0x60, 0x40, 0, SRC_NV84 ", " SRC_DERIVED),
	TESLA_GRAPH(0x100, 0xe0, 0, SRC_NVKM ": G84 trailer ec"),
	TESLA_GRAPH_BACK(0xa0, 0x80, 0, SRC_NVKM ": G84 trailer 8c"),
	TESLA_MP(0x20, 0x00, A, SRC_NOUVEAU),
	TESLA_MEM(0x20, 0x00, A, SRC_NOUVEAU),
	TESLA_MISC(5, 0x20, 0x00, A, SRC_NOUVEAU),
	TESLA_VDEC(6, 0x20, 0x00, A, SRC_NOUVEAU),
	TESLA_VM(7, 0x20, 0x00, A, SRC_NOUVEAU),
};

/* G92, G94, G96: named by no document; G84's layout is assumed. */
#define SRC_AS_G84	"no document; G84 layout assumed"
static const struct nvpc_domain_desc g92_domains[] = {
	TESLA_HOST(0x60, 0x40, A, SRC_AS_G84),
	TESLA_GRAPH(0x100, 0xe0, A, SRC_AS_G84),
	TESLA_GRAPH_BACK(0xa0, 0x80, A, SRC_AS_G84),
	TESLA_MP(0x20, 0x00, A, SRC_AS_G84),
	TESLA_MEM(0x20, 0x00, A, SRC_AS_G84),
	TESLA_MISC(5, 0x20, 0x00, A, SRC_AS_G84),
	TESLA_VDEC(6, 0x20, 0x00, A, SRC_AS_G84),
	TESLA_VM(7, 0x20, 0x00, A, SRC_AS_G84),
};

/*
 * G98: every base from the NV98 list. Set 5 has two "trailer base" lines,
 * 0xe0 (between 0x37 and 0x38, out of order) and 0x60 (last, as in every
 * other set). 0x60 is taken: the last line is where the list puts the
 * base everywhere else, set 5's signals end at 0x4c below 0x60 + 0x0c,
 * and NVA5's set 5 has base 0x60 too.
 */
static const struct nvpc_domain_desc g98_domains[] = {
	TESLA_HOST(0x60, 0x40, 0, SRC_NV98),
	TESLA_GRAPH(0x100, 0xe0, 0, SRC_NV98),
	TESLA_GRAPH_BACK(0xe0, 0xc0, 0, SRC_NV98),
	TESLA_MP(0x40, 0x20, 0, SRC_NV98),
	TESLA_MEM(0x60, 0x40, 0, SRC_NV98),
	TESLA_MISC(5, 0x80, 0x60, 0, SRC_NV98),
	TESLA_VDEC(6, 0xc0, 0xa0, 0, SRC_NV98),
	TESLA_VM(7, 0xc0, 0xa0, 0, SRC_NV98),
};

/*
 * GT200 (NVA0): domains 1 and 2 from nouveau's GT200 trailers "ec"/"ec",
 * domain 6 from the NVA0 list.
 */
static const struct nvpc_domain_desc gt200_domains[] = {
	TESLA_HOST(0x20, 0x00, A, SRC_NOUVEAU),
	TESLA_GRAPH(0x100, 0xe0, 0, SRC_NVKM ": GT200 trailer ec"),
	TESLA_GRAPH_BACK(0x100, 0xe0, 0, SRC_NVKM ": GT200 trailer ec"),
	TESLA_MP(0x20, 0x00, A, SRC_NOUVEAU),
	TESLA_MEM(0x20, 0x00, A, SRC_NOUVEAU),
	TESLA_MISC(5, 0x20, 0x00, A, SRC_NOUVEAU),
	TESLA_VDEC(6, 0xc0, 0xa0, 0, SRC_NVA0),
	TESLA_VM(7, 0x20, 0x00, A, SRC_NOUVEAU),
};

/* MCP77 (NVAA): only its 7-domain structure is known. */
#define SRC_MCP7X	"envytools' pcounter/nv40.txt: NV84+ IGP 7 domains; count assumed"
static const struct nvpc_domain_desc mcp77_domains[] = {
	TESLA_HOST(0x20, 0x00, A, SRC_MCP7X),
	TESLA_GRAPH(0x20, 0x00, A, SRC_MCP7X),
	TESLA_GRAPH_BACK(0x20, 0x00, A, SRC_MCP7X),
	TESLA_MP(0x20, 0x00, A, SRC_MCP7X),
	TESLA_MISC(4, 0x20, 0x00, A, SRC_MCP7X),
	TESLA_VDEC(5, 0x20, 0x00, A, SRC_MCP7X),
	TESLA_VM(6, 0x20, 0x00, A, SRC_MCP7X),
};

/*
 * MCP79 (NVAC): the NVAC list gives no base; each one is the lowest that
 * keeps the named signals below the trailer: host 0x53 -> 0x60, graph
 * 0xd6 -> 0xe0, domain 2 0xd9 -> 0xe0, vdec 0xa1 -> 0xa0 (0xa1 < 0xac).
 */
#define SRC_NVAC_DER	SRC_NVAC ", " SRC_DERIVED
static const struct nvpc_domain_desc mcp79_domains[] = {
	TESLA_HOST(0x80, 0x60, 0, SRC_NVAC_DER),
	TESLA_GRAPH(0x100, 0xe0, 0, SRC_NVAC_DER),
	TESLA_GRAPH_BACK(0x100, 0xe0, 0, SRC_NVAC_DER),
	TESLA_MP(0x20, 0x00, A, SRC_MCP7X),
	TESLA_MISC(4, 0x20, 0x00, A, SRC_MCP7X),
	TESLA_VDEC(5, 0xc0, 0xa0, 0, SRC_NVAC_DER),
	TESLA_VM(6, 0x20, 0x00, A, SRC_MCP7X),
};

/* GT215 (NVA3): domains 1 and 2 from nouveau's GT215 trailers "ec"/"cc". */
static const struct nvpc_domain_desc gt215_domains[] = {
	TESLA_HOST(0x20, 0x00, A, SRC_NOUVEAU),
	TESLA_GRAPH(0x100, 0xe0, 0, SRC_NVKM ": GT215 trailer ec"),
	TESLA_GRAPH_BACK(0xe0, 0xc0, 0, SRC_NVKM ": GT215 trailer cc"),
	TESLA_MP(0x20, 0x00, A, SRC_NOUVEAU),
	TESLA_MEM(0x20, 0x00, A, SRC_NOUVEAU),
	TESLA_MISC(5, 0x20, 0x00, A, SRC_NOUVEAU),
	TESLA_VDEC(6, 0x20, 0x00, A, SRC_NOUVEAU),
	TESLA_VM(7, 0x20, 0x00, A, SRC_NOUVEAU),
};

/* GT216 (NVA5): every base from the NVA5 list. */
static const struct nvpc_domain_desc gt216_domains[] = {
	TESLA_HOST(0x100, 0xe0, 0, SRC_NVA5),
	TESLA_GRAPH(0x100, 0xe0, 0, SRC_NVA5),
	TESLA_GRAPH_BACK(0xe0, 0xc0, 0, SRC_NVA5),
	TESLA_MP(0x40, 0x20, 0, SRC_NVA5),
	TESLA_MEM(0x80, 0x60, 0, SRC_NVA5),
	TESLA_MISC(5, 0x80, 0x60, 0, SRC_NVA5),
	TESLA_VDEC(6, 0xe0, 0xc0, 0, SRC_NVA5),
	TESLA_VM(7, 0x100, 0xe0, 0, SRC_NVA5),
};

/*
 * GT218 (NVA8): the NVA8 list names only PGRAPH_IDLE 0xcb, as NVA5 and
 * GT215 do; the nearest documented sibling's (NVA5) layout is assumed.
 */
#define SRC_AS_NVA5	SRC_NVA8 "; NVA5 layout assumed"
static const struct nvpc_domain_desc gt218_domains[] = {
	TESLA_HOST(0x100, 0xe0, A, SRC_AS_NVA5),
	TESLA_GRAPH(0x100, 0xe0, 0, SRC_AS_NVA5),
	TESLA_GRAPH_BACK(0xe0, 0xc0, A, SRC_AS_NVA5),
	TESLA_MP(0x40, 0x20, A, SRC_AS_NVA5),
	TESLA_MEM(0x80, 0x60, A, SRC_AS_NVA5),
	TESLA_MISC(5, 0x80, 0x60, A, SRC_AS_NVA5),
	TESLA_VDEC(6, 0xe0, 0xc0, A, SRC_AS_NVA5),
	TESLA_VM(7, 0x100, 0xe0, A, SRC_AS_NVA5),
};

/*
 * Named signals. The per-chip lists of envytools' pcounter/nv40.txt come
 * first, then nouveau's PM signal names of the graph and domain 2 for
 * G80/G84/GT200/GT215 (nvkm/engine/pm/nv50.c, g84.c, gt200.c, gt215.c).
 * PGRAPH_IDLE (nv40.txt) and gr_idle (nouveau) are one signal,
 * graph_idle; PGRAPH_INTR_PENDING is graph_intr_pending.
 */

/* nouveau's PM signal names: numbered ranges (strmout_00, vfetch_00 ...) */
#define NVKM_SIGR(_dom, _first, _count, _name, _doc)			\
	NVPC_SIGR(_dom, _first, _count, _name, _doc, NVPC_SIGR_IDX2, 0,	\
		  SRC_NVKM)

#define X	NVPC_SIGR_SUFFIX
#define CTXCTL_FLAGS(_first, _src)					\
	NVPC_SIGR(1, _first, 4, "ctxctl_flag", "CTXCTL flag 0x1c-0x1f",	\
		  NVPC_SIGR_IDXHEX, 0x1c, _src)

/*
 * G80: the NV50 list and nouveau's G80 names (nvkm/engine/pm/nv50.c). Both
 * documents name 0x7c/0x7d (GSCHED / vattr_00, vattr_01), 0x80 (STRMOUT /
 * strmout_01), 0x3f (VFETCH.JOE / vfetch_25) and 0xc8 (PGRAPH_IDLE / graph
 * idle); the differently worded ones keep both names.
 */
static const struct nvpc_signal_range g80_signals[] = {
	NVPC_SIG1(0, 0x00, "pfifo_host_memory_write",
		  "PFIFO/host memory write", SRC_NV50),
	NVPC_SIG1X(0, 0x1a, "pfifo_host_memory_read",
		   "PFIFO/host memory read", SRC_NV50),
	NVPC_SIG1(0, 0x1c, "triple_mmio_read", "triple MMIO read???",
		  SRC_NV50),
	NVPC_SIG1(0, 0x1d, "mmio_read", "MMIO read [or any BAR?]", SRC_NV50),
	NVPC_SIG1(0, 0x27, "ptimer_time_b12", "PTIMER_TIME_B12", SRC_NV50),
	NVPC_SIG1(0, 0x29, "mmio_read_or_write",
		  "MMIO read or write [or any BAR?]", SRC_NV50),
	NVPC_SIG1(0, 0x2a, "mmio_write", "MMIO write [or any BAR?]",
		  SRC_NV50),
	NVPC_SIG1(1, 0x3f, "vfetch_joe", "VFETCH.JOE related", SRC_NV50),
	NVPC_SIG1(1, 0x6e, "zcull", "ZCULL", SRC_NV50),
	NVPC_SIG1(1, 0x73, "csched", "CSCHED", SRC_NV50),
	NVPC_SIGR(1, 0x77, 8, "gsched", "GSCHED", 0, 0, SRC_NV50),
	NVPC_SIGR(1, 0x80, 3, "strmout", "STRMOUT", 0, 0, SRC_NV50),
	NVPC_SIGR(1, 0x95, 5, "unk24xx", "UNK24xx", 0, 0, SRC_NV50),
	NVPC_SIG1(1, 0xa7, "eng2d", "ENG2D", SRC_NV50),
	NVPC_SIGR(1, 0xb8, 4, "unk14xx", "UNK14xx", 0, 0, SRC_NV50),
	NVPC_SIG1(1, 0xc8, "graph_idle", "PGRAPH_IDLE", SRC_NV50),
	NVPC_SIG1(1, 0xca, "graph_intr_pending", "PGRAPH_INTR_PENDING",
		  SRC_NV50),
	CTXCTL_FLAGS(0xd2, SRC_NV50),
	NVPC_SIGR(1, 0xe3, 4, "unk1cxx", "UNK1Cxx", 0, 0, SRC_NV50),
	NVPC_SIG1(2, 0x3a, "pvpe", "PVPE", SRC_NV50),
	NVPC_SIG1X(2, 0x5d, "memory_access", "memory access", SRC_NV50),
	NVPC_SIG1(2, 0x5e, "vga_window_read",
		  "happens when reading memory through VGA window?", SRC_NV50),
	NVPC_SIG1X(2, 0x64, "memory_read", "memory read [?]", SRC_NV50),
	NVPC_SIG1X(2, 0x68, "memory_read", "memory read [?]", SRC_NV50),
	NVPC_SIG1X(2, 0x80, "memory_access", "memory access", SRC_NV50),
	NVPC_SIGR(2, 0x89, 30, "pvpe", "PVPE", 0, 0, SRC_NV50),
	NVPC_SIG1(2, 0xac, "pfb_100c98", "PFB 100c98", SRC_NV50),
	NVPC_SIG1(2, 0xad, "pfifo_host_dmaobj_load",
		  "PFIFO host DMAobj load", SRC_NV50),
	NVPC_SIG1(2, 0xb8, "pfb_100e0c", "PFB 100e0c", SRC_NV50),
	NVPC_SIG1X(2, 0xc4, "pfifo_host_memory_read",
		   "PFIFO/host memory read", SRC_NV50),
	NVPC_SIG1(2, 0xea, "ccache", "CCACHE", SRC_NV50),
	NVPC_SIG1(4, 0x1a, "pfb_100008", "PFB 100008", SRC_NV50),
	NVKM_SIGR(1, 0x7f, 2, "strmout", "strmout_00 (+1 for _01)"),
	NVKM_SIGR(1, 0x7c, 2, "vattr", "vattr_00 (+1)"),
	NVKM_SIGR(1, 0x20, 6, "zcull", "zcull_00..05 (consecutive)"),
	NVKM_SIGR(1, 0x26, 26, "vfetch", "vfetch_00.. (26 consecutive)"),
	NVKM_SIGR(2, 0x00, 8, "prop", "prop_00..07"),
	NVKM_SIGR(2, 0x52, 4, "crop", "crop_00..03"),
	NVKM_SIGR(2, 0x6c, 4, "zrop", "zrop_00..03"),
	NVKM_SIGR(2, 0x70, 4, "tex", "tex_00..03"),
};

/* G84: the NV84 list and nouveau's G84 names (nvkm/engine/pm/g84.c). */
static const struct nvpc_signal_range g84_signals[] = {
	NVPC_SIG1(0, 0x2c, "ptimer_time_b12", "PTIMER_TIME_B12", SRC_NV84),
	CTXCTL_FLAGS(0xc7, SRC_NV84),
	NVPC_SIG1(1, 0xbd, "graph_idle", "graph idle (gr_idle)", SRC_NVKM),
	NVKM_SIGR(1, 0x5e, 2, "strmout", "strmout_00 (+1 for _01)"),
	NVKM_SIGR(1, 0x5c, 2, "vattr", "vattr_00 (+1)"),
	NVKM_SIGR(1, 0x07, 6, "zcull", "zcull_00..05 (consecutive)"),
	NVKM_SIGR(1, 0x66, 26, "vfetch", "vfetch_00.. (26 consecutive)"),
	NVKM_SIGR(2, 0x00, 8, "prop", "prop_00..07"),
	NVKM_SIGR(2, 0x30, 4, "crop", "crop_00..03"),
	NVKM_SIGR(2, 0x44, 4, "zrop", "zrop_00..03"),
	NVKM_SIGR(2, 0x48, 4, "tex", "tex_00..03"),
};

/* G86: the NV86 list. */
static const struct nvpc_signal_range g86_signals[] = {
	NVPC_SIG1(0, 0x2c, "ptimer_time_b12", "PTIMER_TIME_B12", SRC_NV86),
	NVPC_SIG1(1, 0xbd, "graph_idle", "PGRAPH_IDLE", SRC_NV86),
	NVPC_SIG1(1, 0xbf, "graph_intr_pending", "PGRAPH_INTR_PENDING",
		  SRC_NV86),
	CTXCTL_FLAGS(0xc7, SRC_NV86),
};

/* G98: the NV98 list. */
static const struct nvpc_signal_range g98_signals[] = {
	NVPC_SIG1(0, 0x04, "pfifo_host_memory_write",
		  "PFIFO/host memory write", SRC_NV98),
	NVPC_SIG1(0, 0x28, "pfifo_write_or_pdisplay",
		  "happens once with PFIFO write or PDISPLAY access [not PFIFO read]",
		  SRC_NV98),
	NVPC_SIG1(0, 0x2a, "pfifo_host_memory_read",
		  "PFIFO/host memory read", SRC_NV98),
	NVPC_SIG1(0, 0x2d, "mmio_read", "MMIO read [or any BAR?]", SRC_NV98),
	NVPC_SIG1(0, 0x37, "ptimer_time_b12", "PTIMER_TIME_B12", SRC_NV98),
	NVPC_SIG1(0, 0x39, "mmio_read_or_write",
		  "MMIO read or write [or any BAR?]", SRC_NV98),
	NVPC_SIG1(0, 0x3a, "mmio_write", "MMIO write [or any BAR?]",
		  SRC_NV98),
	NVPC_SIG1(1, 0x31, "csched", "CSCHED", SRC_NV98),
	NVPC_SIG1X(1, 0x37, "unk24xx", "UNK24xx", SRC_NV98),
	NVPC_SIG1X(1, 0x4f, "zcull", "ZCULL", SRC_NV98),
	NVPC_SIGR(1, 0x57, 3, "gsched", "GSCHED", 0, 0, SRC_NV98),
	NVPC_SIG1(1, 0x5f, "strmout", "STRMOUT", SRC_NV98),
	NVPC_SIG1X(1, 0x8d, "unk24xx", "UNK24xx", SRC_NV98),
	NVPC_SIGR(1, 0x9b, 3, "eng2d", "ENG2D", X, 0, SRC_NV98),
	NVPC_SIGR(1, 0xae, 3, "unk14xx", "UNK14xx", 0, 0, SRC_NV98),
	NVPC_SIG1(1, 0xbd, "graph_idle", "PGRAPH_IDLE", SRC_NV98),
	NVPC_SIG1(1, 0xbf, "graph_intr_pending", "PGRAPH_INTR_PENDING",
		  SRC_NV98),
	CTXCTL_FLAGS(0xc7, SRC_NV98),
	NVPC_SIGR(1, 0xd9, 3, "unk1cxx", "UNK1Cxx", 0, 0, SRC_NV98),
	NVPC_SIGR(2, 0x36, 2, "eng2d", "ENG2D", X, 0, SRC_NV98),
	NVPC_SIG1X(2, 0x58, "zcull", "ZCULL", SRC_NV98),
	NVPC_SIG1X(2, 0x60, "eng2d", "ENG2D", SRC_NV98),
	NVPC_SIG1(5, 0x37, "pcrypt_pm_trigger_2nd", "PCRYPT PM_TRIGGER 2nd",
		  SRC_NV98),
	NVPC_SIG1(5, 0x38, "pcrypt_wrcache_flush_2nd",
		  "PCRYPT WRCACHE_FLUSH 2nd", SRC_NV98),
	NVPC_SIG1(5, 0x3b, "pcrypt_idle", "PCRYPT idle", SRC_NV98),
	NVPC_SIG1(5, 0x45, "pcrypt_pm_trigger", "PCRYPT PM_TRIGGER",
		  SRC_NV98),
	NVPC_SIG1(5, 0x46, "pcrypt_wrcache_flush", "PCRYPT WRCACHE_FLUSH",
		  SRC_NV98),
	NVPC_SIGR(5, 0x47, 6, "pcrypt_user", "PCRYPT USER", 0, 0, SRC_NV98),
	NVPC_SIG1(6, 0x12, "pbsp_idle", "PBSP idle", SRC_NV98),
	NVPC_SIG1(6, 0x15, "pbsp_ta", "PBSP $ta", SRC_NV98),
	NVPC_SIG1(6, 0x1c, "pbsp_pm_trigger", "PBSP PM_TRIGGER", SRC_NV98),
	NVPC_SIG1(6, 0x1d, "pbsp_wrcache_flush", "PBSP WRCACHE_FLUSH",
		  SRC_NV98),
	NVPC_SIGR(6, 0x1e, 6, "pbsp_user", "PBSP USER", 0, 0, SRC_NV98),
	NVPC_SIG1(6, 0x42, "pppp_idle", "PPPP idle", SRC_NV98),
	NVPC_SIG1(6, 0x45, "pppp_ta", "PPPP $ta", SRC_NV98),
	NVPC_SIG1(6, 0x4c, "pppp_pm_trigger", "PPPP PM_TRIGGER", SRC_NV98),
	NVPC_SIG1(6, 0x4d, "pppp_wrcache_flush", "PPPP WRCACHE_FLUSH",
		  SRC_NV98),
	NVPC_SIGR(6, 0x4e, 6, "pppp_user", "PPPP USER", 0, 0, SRC_NV98),
	NVPC_SIG1(6, 0x5d, "pvp_vuc_idle", "PVP VUC idle", SRC_NV98),
	NVPC_SIG1(6, 0x90, "pvp_idle", "PVP idle", SRC_NV98),
	NVPC_SIG1(6, 0x93, "pvp_ta", "PVP $ta", SRC_NV98),
	NVPC_SIG1(6, 0x9a, "pvp_pm_trigger", "PVP PM_TRIGGER", SRC_NV98),
	NVPC_SIG1(6, 0x9b, "pvp_wrcache_flush", "PVP WRCACHE_FLUSH",
		  SRC_NV98),
	NVPC_SIGR(6, 0x9c, 6, "pvp_user", "PVP USER", 0, 0, SRC_NV98),
	NVPC_SIG1(7, 0x07, "magic_flush_pfifo_read_related",
		  "something related to MAGIC_FLUSH + PFIFO memory read?",
		  SRC_NV98),
	NVPC_SIG1X(7, 0x22, "pfifo_host_dmaobj_load_x16",
		   "16 * PFIFO host DMAobj load", SRC_NV98),
	NVPC_SIG1X(7, 0x23, "pfifo_host_dmaobj_load_x16",
		   "16 * PFIFO host DMAobj load", SRC_NV98),
	NVPC_SIG1X(7, 0x24, "magic_flush_pfifo_memory_read",
		   "MAGIC_FLUSH + PFIFO memory read", SRC_NV98),
	NVPC_SIG1X(7, 0x2c, "magic_flush_memory_access",
		   "MAGIC_FLUSH + memory access", SRC_NV98),
	NVPC_SIG1X(7, 0x2e, "magic_flush_memory_access",
		   "MAGIC_FLUSH + memory access", SRC_NV98),
	NVPC_SIG1X(7, 0x30, "magic_flush_memory_read",
		   "MAGIC_FLUSH [misses 1 sometimes?] + memory read",
		   SRC_NV98),
	NVPC_SIG1X(7, 0x32, "magic_flush_memory_read",
		   "MAGIC_FLUSH [misses 1 sometimes?] + memory read",
		   SRC_NV98),
	NVPC_SIG1X(7, 0x4c, "magic_flush_pfifo_memory_read",
		   "MAGIC_FLUSH + PFIFO memory read", SRC_NV98),
	NVPC_SIG1(7, 0x4d, "magic_flush", "MAGIC_FLUSH", SRC_NV98),
	NVPC_SIG1(7, 0x65, "pbsp_pm_trigger_2nd", "PBSP PM_TRIGGER 2nd",
		  SRC_NV98),
	NVPC_SIG1(7, 0x66, "pbsp_wrcache_flush_2nd",
		  "PBSP WRCACHE_FLUSH 2nd", SRC_NV98),
	NVPC_SIG1(7, 0x71, "pppp_pm_trigger_2nd", "PPPP PM_TRIGGER 2nd",
		  SRC_NV98),
	NVPC_SIG1(7, 0x72, "pppp_wrcache_flush_2nd",
		  "PPPP WRCACHE_FLUSH 2nd", SRC_NV98),
	NVPC_SIG1(7, 0x8c, "pvp_pm_trigger_2nd", "PVP PM_TRIGGER 2nd",
		  SRC_NV98),
	NVPC_SIG1(7, 0x8d, "pvp_wrcache_flush_2nd", "PVP WRCACHE_FLUSH 2nd",
		  SRC_NV98),
};

/* GT200: the NVA0 list and nouveau's GT200 names (nvkm/engine/pm/gt200.c). */
static const struct nvpc_signal_range gt200_signals[] = {
	NVPC_SIGR(6, 0x00, 8, "pvp_user", "PVP_USER_0-7", 0, 0, SRC_NVA0),
	NVPC_SIG1(1, 0xc9, "graph_idle", "graph idle (gr_idle)", SRC_NVKM),
	NVKM_SIGR(1, 0x84, 2, "strmout", "strmout_00 (+1 for _01)"),
	NVKM_SIGR(1, 0x82, 2, "vattr", "vattr_00 (+1)"),
	NVKM_SIGR(1, 0x07, 6, "zcull", "zcull_00..05 (consecutive)"),
	NVKM_SIGR(1, 0x46, 26, "vfetch", "vfetch_00.. (26 consecutive)"),
	NVKM_SIGR(2, 0x00, 8, "prop", "prop_00..07"),
	NVKM_SIGR(2, 0x55, 4, "crop", "crop_00..03"),
	NVKM_SIGR(2, 0x74, 4, "zrop", "zrop_00..03"),
	NVKM_SIGR(2, 0x78, 4, "tex", "tex_00..03"),
};

/* MCP79: the NVAC list. */
static const struct nvpc_signal_range mcp79_signals[] = {
	NVPC_SIG1(0, 0x53, "ptimer_time_b12", "PTIMER_TIME_B12", SRC_NVAC),
	NVPC_SIG1(1, 0xc9, "graph_idle", "PGRAPH_IDLE", SRC_NVAC),
	NVPC_SIG1(1, 0xcb, "graph_intr_pending", "PGRAPH_INTR_PENDING",
		  SRC_NVAC),
	CTXCTL_FLAGS(0xd3, SRC_NVAC),
	NVPC_SIGR(2, 0xd4, 6, "pcrypt_user", "PCRYPT_USER_0-5", 0, 0,
		  SRC_NVAC),
	NVPC_SIGR(5, 0x1e, 6, "pbsp_user", "PBSP_USER_0-5", 0, 0, SRC_NVAC),
	NVPC_SIGR(5, 0x4e, 6, "pppp_user", "PPPP_USER_0-5", 0, 0, SRC_NVAC),
	NVPC_SIGR(5, 0x9c, 6, "pvp_user", "PVP_USER_0-5", 0, 0, SRC_NVAC),
};

/* GT215: nouveau's GT215 names (nvkm/engine/pm/gt215.c). */
static const struct nvpc_signal_range gt215_signals[] = {
	NVPC_SIG1(1, 0xcb, "graph_idle", "graph idle (gr_idle)", SRC_NVKM),
	NVKM_SIGR(1, 0x86, 2, "strmout", "strmout_00 (+1 for _01)"),
	NVKM_SIGR(1, 0x84, 2, "vattr", "vattr_00 (+1)"),
	NVKM_SIGR(1, 0x07, 6, "zcull", "zcull_00..05 (consecutive)"),
	NVKM_SIGR(1, 0x46, 26, "vfetch", "vfetch_00.. (26 consecutive)"),
	NVKM_SIGR(2, 0x00, 8, "prop", "prop_00..07"),
	NVKM_SIGR(2, 0x64, 4, "crop", "crop_00..03"),
	NVKM_SIGR(2, 0x7c, 4, "zrop", "zrop_00..03"),
	NVKM_SIGR(2, 0x80, 4, "tex", "tex_00..03"),
};

/* GT216: the NVA5 list. */
static const struct nvpc_signal_range gt216_signals[] = {
	NVPC_SIG1(0, 0x1a, "pfifo_writes", "PFIFO writes", SRC_NVA5),
	NVPC_SIG1X(0, 0x74, "mmio_reads", "MMIO reads", SRC_NVA5),
	NVPC_SIG1(0, 0x96, "pfifo_reads", "PFIFO reads", SRC_NVA5),
	NVPC_SIG1X(0, 0x99, "mmio_reads", "MMIO reads", SRC_NVA5),
	NVPC_SIG1(0, 0xa3, "ptimer_time_b12", "PTIMER_TIME_B12", SRC_NVA5),
	NVPC_SIG1(0, 0xa5, "mmio_accesses", "MMIO accesses", SRC_NVA5),
	NVPC_SIG1(0, 0xa6, "mmio_writes", "MMIO writes", SRC_NVA5),
	NVPC_SIG1X(1, 0x2f, "ccache_unk4", "CCACHE_UNK4 ??? [flag 2]",
		   SRC_NVA5),
	NVPC_SIG1X(1, 0x30, "ccache_unk4", "CCACHE_UNK4 ??? [flag 2]",
		   SRC_NVA5),
	NVPC_SIG1X(1, 0x33, "ccache_unk5", "CCACHE_UNK5 ??? [flag 2]",
		   SRC_NVA5),
	NVPC_SIG1X(1, 0x34, "ccache_unk5", "CCACHE_UNK5 ??? [flag 2]",
		   SRC_NVA5),
	NVPC_SIG1(1, 0x37, "pgraph_24xx", "PGRAPH 24xx ??? [idle?]",
		  SRC_NVA5),
	NVPC_SIG1(1, 0x77, "zcull", "ZCULL ??? [idle?]", SRC_NVA5),
	NVPC_SIG1X(1, 0xa9, "eng2d", "ENG2D ??? [idle?]", SRC_NVA5),
	NVPC_SIG1X(1, 0xab, "eng2d", "ENG2D ??? [idle?]", SRC_NVA5),
	NVPC_SIG1X(1, 0xbc, "pgraph_14xx", "PGRAPH 14xx ??? [idle?]",
		   SRC_NVA5),
	NVPC_SIG1X(1, 0xbe, "pgraph_14xx", "PGRAPH 14xx ??? [idle?]",
		   SRC_NVA5),
	NVPC_SIG1(1, 0xca, "dispatch", "DISPATCH ???? [idle?]", SRC_NVA5),
	NVPC_SIG1(1, 0xcb, "graph_idle", "PGRAPH_IDLE", SRC_NVA5),
	NVPC_SIG1(1, 0xcd, "graph_intr_pending", "PGRAPH_INTR_PENDING",
		  SRC_NVA5),
	CTXCTL_FLAGS(0xd5, SRC_NVA5),
	NVPC_SIG1X(2, 0x2a, "ccache", "CCACHE ??? [idle?]", SRC_NVA5),
	NVPC_SIG1X(2, 0x2c, "ccache", "CCACHE ??? [idle?]", SRC_NVA5),
	NVPC_SIG1X(2, 0x49, "gsched", "GSCHED ??? [idle?]", SRC_NVA5),
	NVPC_SIG1X(2, 0x4b, "gsched", "GSCHED ??? [idle?]", SRC_NVA5),
	NVPC_SIG1X(2, 0x4e, "strmout", "STRMOUT ??? [idle?]", SRC_NVA5),
	NVPC_SIG1X(2, 0x50, "strmout", "STRMOUT ??? [idle?]", SRC_NVA5),
	NVPC_SIG1X(2, 0x6c, "unk14xx", "14xx ??? [idle?]", SRC_NVA5),
	NVPC_SIG1X(2, 0x6d, "unk14xx", "14xx ??? [idle?]", SRC_NVA5),
	NVPC_SIGR(5, 0x2d, 6, "pcopy_user", "PCOPY_USER_0-5", 0, 0, SRC_NVA5),
	NVPC_SIGR(5, 0x4e, 6, "pdaemon_user", "PDAEMON_USER_0-5", 0, 0,
		  SRC_NVA5),
	NVPC_SIG1(6, 0x17, "pbsp_fifo_idle", "PBSP FIFO idle", SRC_NVA5),
	NVPC_SIG1(6, 0x18, "pbsp_idle", "PBSP idle", SRC_NVA5),
	NVPC_SIGR(6, 0x19, 3, "pbsp_uc_exec", "PBSP uc execution", 0, 0,
		  SRC_NVA5),
	NVPC_SIG1(6, 0x22, "pbsp_pm_trigger", "PBSP PM_TRIGGER", SRC_NVA5),
	NVPC_SIG1(6, 0x23, "pbsp_wrcache_flush", "PBSP WRCACHE_FLUSH",
		  SRC_NVA5),
	NVPC_SIGR(6, 0x24, 6, "pbsp_user", "PBSP_USER_0-5", 0, 0, SRC_NVA5),
	NVPC_SIG1(6, 0x2b, "pppp", "PPPP", SRC_NVA5),
	NVPC_SIG1(6, 0x36, "pppp_pm_trigger", "PPPP PM_TRIGGER", SRC_NVA5),
	NVPC_SIG1(6, 0x37, "pppp_wrcache_flush", "PPPP WRCACHE_FLUSH",
		  SRC_NVA5),
	NVPC_SIGR(6, 0x38, 6, "pppp_user", "PPPP_USER_0-5", 0, 0, SRC_NVA5),
	NVPC_SIG1(6, 0x3f, "pvp", "PVP", SRC_NVA5),
	NVPC_SIG1(6, 0x4a, "pvp_pm_trigger", "PVP PM_TRIGGER", SRC_NVA5),
	NVPC_SIG1(6, 0x4b, "pvp_wrcache_flush", "PVP WRCACHE_FLUSH",
		  SRC_NVA5),
	NVPC_SIGR(6, 0x4c, 6, "pvp_user", "PVP_USER_0-5", 0, 0, SRC_NVA5),
	NVPC_SIGR(6, 0x54, 5, "pbsp", "PBSP", 0, 0, SRC_NVA5),
	NVPC_SIGR(6, 0x5f, 32, "pppp", "PPPP", 0, 0, SRC_NVA5),
	NVPC_SIGR(6, 0x88, 4, "pvp_vuc", "PVP [vuc?]", 0, 0, SRC_NVA5),
	NVPC_SIGR(6, 0xa0, 5, "pvp_xfrm", "PVP [xfrm? - 4c b3, b5]", 0, 0,
		  SRC_NVA5),
	NVPC_SIGR(6, 0xad, 3, "pvp_580", "PVP [580 - 4c b7]", 0, 0,
		  SRC_NVA5),
	NVPC_SIG1(6, 0xb6, "pvp_680", "PVP [680 - 4c b8]", SRC_NVA5),
	NVPC_SIGR(6, 0xc0, 6, "pbsp_crypt", "PBSP.CRYPT", 0, 0, SRC_NVA5),
};

/* GT218: the NVA8 list. */
static const struct nvpc_signal_range gt218_signals[] = {
	NVPC_SIG1(1, 0xcb, "graph_idle", "PGRAPH_IDLE", SRC_NVA8),
};

#undef X

const struct nvpc_chip_desc nvpc_catalog_g80_chips[] = {
	{ .chipset = 0x50, .name = "G80", .alt_name = "NV50",
	  .gen = NVPC_GEN_NV40,
	  .domains = g80_domains, .nr_domains = ARRAY_SIZE(g80_domains),
	  .ranges = g80_signals, .nr_ranges = ARRAY_SIZE(g80_signals) },
	{ .chipset = 0x84, .name = "G84", .alt_name = "NV84",
	  .gen = NVPC_GEN_G84,
	  .domains = g84_domains, .nr_domains = ARRAY_SIZE(g84_domains),
	  .ranges = g84_signals, .nr_ranges = ARRAY_SIZE(g84_signals) },
	{ .chipset = 0x86, .name = "G86", .alt_name = "NV86",
	  .gen = NVPC_GEN_G84,
	  .domains = g84_domains, .nr_domains = ARRAY_SIZE(g84_domains),
	  .ranges = g86_signals, .nr_ranges = ARRAY_SIZE(g86_signals) },
	{ .chipset = 0x92, .name = "G92", .alt_name = "NV92",
	  .gen = NVPC_GEN_G92,
	  .domains = g92_domains, .nr_domains = ARRAY_SIZE(g92_domains) },
	{ .chipset = 0x94, .name = "G94", .alt_name = "NV94",
	  .gen = NVPC_GEN_G92,
	  .domains = g92_domains, .nr_domains = ARRAY_SIZE(g92_domains) },
	{ .chipset = 0x96, .name = "G96", .alt_name = "NV96",
	  .gen = NVPC_GEN_G92,
	  .domains = g92_domains, .nr_domains = ARRAY_SIZE(g92_domains) },
	{ .chipset = 0x98, .name = "G98", .alt_name = "NV98",
	  .gen = NVPC_GEN_G92,
	  .domains = g98_domains, .nr_domains = ARRAY_SIZE(g98_domains),
	  .ranges = g98_signals, .nr_ranges = ARRAY_SIZE(g98_signals) },
	{ .chipset = 0xa0, .name = "GT200", .alt_name = "NVA0",
	  .gen = NVPC_GEN_G92,
	  .domains = gt200_domains, .nr_domains = ARRAY_SIZE(gt200_domains),
	  .ranges = gt200_signals, .nr_ranges = ARRAY_SIZE(gt200_signals) },
	{ .chipset = 0xaa, .name = "MCP77", .alt_name = "NVAA",
	  .gen = NVPC_GEN_G92,
	  .domains = mcp77_domains, .nr_domains = ARRAY_SIZE(mcp77_domains) },
	{ .chipset = 0xac, .name = "MCP79", .alt_name = "NVAC",
	  .gen = NVPC_GEN_G92,
	  .domains = mcp79_domains, .nr_domains = ARRAY_SIZE(mcp79_domains),
	  .ranges = mcp79_signals, .nr_ranges = ARRAY_SIZE(mcp79_signals) },
	{ .chipset = 0xa3, .name = "GT215", .alt_name = "NVA3",
	  .gen = NVPC_GEN_GT215,
	  .domains = gt215_domains, .nr_domains = ARRAY_SIZE(gt215_domains),
	  .ranges = gt215_signals, .nr_ranges = ARRAY_SIZE(gt215_signals) },
	{ .chipset = 0xa5, .name = "GT216", .alt_name = "NVA5",
	  .gen = NVPC_GEN_GT215,
	  .domains = gt216_domains, .nr_domains = ARRAY_SIZE(gt216_domains),
	  .ranges = gt216_signals, .nr_ranges = ARRAY_SIZE(gt216_signals) },
	{ .chipset = 0xa8, .name = "GT218", .alt_name = "NVA8",
	  .gen = NVPC_GEN_GT215,
	  .domains = gt218_domains, .nr_domains = ARRAY_SIZE(gt218_domains),
	  .ranges = gt218_signals, .nr_ranges = ARRAY_SIZE(gt218_signals) },
};

const unsigned int nvpc_catalog_g80_nr_chips =
	ARRAY_SIZE(nvpc_catalog_g80_chips);
