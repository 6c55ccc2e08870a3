/* Graphviz sfdp harness of scripts/layout_peers.sh: lays out one edge list with sfdp through
 * Graphviz's library (libgvc, the same code the `sfdp` program runs), times only gvLayout(),
 * writes the positions as TSV and prints one JSON line.
 *
 *     sfdp_layout GRAPH OUT.tsv [--seed S]
 *
 * GRAPH: `u v` per line (non-negative integer ids, further columns ignored), `#` comments (the
 * SNAP format); self-loops are dropped (their vertices kept). The graph is built in memory as
 * the DOT file `graph G { start=S; <id>; ...; <u> -- <v>; ... }` would be (nodes named by their
 * file ids, in first-appearance order; no other attribute, so sfdp runs its defaults: labels of
 * the node names, multilevel spring-electrical model, Barnes-Hut, its default overlap
 * handling), with start=S (default 1) as its random seed.
 *
 * Why not `sfdp -Tplain`: Graphviz 2.43 prints positions to 5 significant digits (%.5g), and a
 * 100,000-vertex sfdp layout spans thousands of points with edges about 1 point long, so the
 * text output would round positions by a tenth of an edge; sfdp -v prints no layout time
 * either. Here positions are the doubles of ND_coord (points) and the time is the layout call
 * alone. scripts/layout_peers/sfdp_cli.py runs the program the classic way, for comparison.
 *
 * OUT.tsv: header `id\tx\ty`, one row per vertex with the file's own id.
 * stdout: {"tool":"sfdp","time_ms":...,...}.
 *
 * Build (scripts/layout_peers.sh does it; needs Debian's libgraphviz-dev):
 *     gcc -O2 sfdp_layout.c $(pkg-config --cflags --libs libgvc) -o sfdp_layout
 */
#include <errno.h>
#include <gvc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void die(const char *msg, const char *arg) {
	fprintf(stderr, "sfdp_layout: %s%s\n", arg ? arg : "", msg);
	exit(2);
}

static double now_ms(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* Ids seen so far: an open-addressing hash from file id to vertex index. */
typedef struct {
	uint64_t *keys;
	int *vals;
	size_t cap, len;
} IdMap;

static size_t slot(const IdMap *m, uint64_t id) {
	size_t h = (size_t)(id * 0x9E3779B97F4A7C15ull) & (m->cap - 1);
	while (m->vals[h] >= 0 && m->keys[h] != id) {
		h = (h + 1) & (m->cap - 1);
	}
	return h;
}

int main(int argc, char **argv) {
	if (argc < 3) {
		die("usage: sfdp_layout GRAPH OUT.tsv [--seed S]", NULL);
	}
	char *seed = "1";
	for (int i = 3; i < argc; i += 2) {
		if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
			seed = argv[i + 1];
		} else {
			die(": unknown option", argv[i]);
		}
	}
	FILE *f = fopen(argv[1], "r");
	if (!f) {
		die(": cannot open", argv[1]);
	}

	IdMap map = {0};
	map.cap = 1 << 16;
	map.keys = malloc(map.cap * sizeof *map.keys);
	map.vals = malloc(map.cap * sizeof *map.vals);
	memset(map.vals, -1, map.cap * sizeof *map.vals);
	uint64_t *ids = NULL;
	size_t ids_cap = 0;
	int *src = NULL, *dst = NULL;
	size_t edges = 0, edges_cap = 0;
	long self_loops = 0, line_no = 0;
	char line[4096];
	while (fgets(line, sizeof line, f)) {
		++line_no;
		char *p = line;
		while (*p == ' ' || *p == '\t' || *p == '\r') {
			++p;
		}
		if (*p == '#' || *p == '\n' || *p == '\0') {
			continue;
		}
		char *end;
		uint64_t uv[2];
		int vi[2];
		for (int k = 0; k < 2; ++k) {
			while (*p == ' ' || *p == '\t' || *p == ',') {
				++p;
			}
			if (*p < '0' || *p > '9') {
				fprintf(stderr, "sfdp_layout: %s:%ld: expected `u v`\n", argv[1], line_no);
				return 2;
			}
			uv[k] = strtoull(p, &end, 10);
			p = end;
			if (2 * (map.len + 1) > map.cap) { /* grow: rehash at half load */
				IdMap big = {0};
				big.cap = map.cap * 2;
				big.keys = malloc(big.cap * sizeof *big.keys);
				big.vals = malloc(big.cap * sizeof *big.vals);
				memset(big.vals, -1, big.cap * sizeof *big.vals);
				for (size_t s = 0; s < map.cap; ++s) {
					if (map.vals[s] >= 0) {
						size_t h = slot(&big, map.keys[s]);
						big.keys[h] = map.keys[s];
						big.vals[h] = map.vals[s];
					}
				}
				big.len = map.len;
				free(map.keys);
				free(map.vals);
				map = big;
			}
			size_t h = slot(&map, uv[k]);
			if (map.vals[h] < 0) {
				if (map.len == ids_cap) {
					ids_cap = ids_cap ? 2 * ids_cap : 1024;
					ids = realloc(ids, ids_cap * sizeof *ids);
				}
				ids[map.len] = uv[k];
				map.keys[h] = uv[k];
				map.vals[h] = (int)map.len++;
			}
			vi[k] = map.vals[h];
		}
		if (vi[0] == vi[1]) {
			++self_loops;
			continue;
		}
		if (edges == edges_cap) {
			edges_cap = edges_cap ? 2 * edges_cap : 1024;
			src = realloc(src, edges_cap * sizeof *src);
			dst = realloc(dst, edges_cap * sizeof *dst);
		}
		src[edges] = vi[0];
		dst[edges] = vi[1];
		++edges;
	}
	fclose(f);
	size_t n = map.len;

	GVC_t *gvc = gvContext();
	Agraph_t *g = agopen("G", Agundirected, NULL);
	agattr(g, AGRAPH, "start", seed);
	Agnode_t **nodes = malloc(n * sizeof *nodes);
	char name[32];
	for (size_t i = 0; i < n; ++i) {
		snprintf(name, sizeof name, "%llu", (unsigned long long)ids[i]);
		nodes[i] = agnode(g, name, 1);
	}
	for (size_t e = 0; e < edges; ++e) {
		agedge(g, nodes[src[e]], nodes[dst[e]], NULL, 1);
	}

	double t0 = now_ms();
	if (gvLayout(gvc, g, "sfdp") != 0) {
		die("gvLayout(sfdp) failed", NULL);
	}
	double ms = now_ms() - t0;

	FILE *out = fopen(argv[2], "w");
	if (!out) {
		die(": cannot write", argv[2]);
	}
	fputs("id\tx\ty\n", out);
	for (size_t i = 0; i < n; ++i) {
		fprintf(out, "%llu\t%.17g\t%.17g\n", (unsigned long long)ids[i], ND_coord(nodes[i]).x,
				ND_coord(nodes[i]).y);
	}
	if (fclose(out) != 0) {
		die(": write failed", argv[2]);
	}
	printf("{\"tool\":\"sfdp\",\"time_ms\":%.3f,\"time_is\":\"gvLayout\",\"vertices\":%zu,"
		   "\"edges\":%zu,\"self_loops\":%ld,\"seed\":%s,\"graphviz\":\"%s\"}\n",
			ms, n, edges, self_loops, seed, gvcVersion(gvc));
	return 0;
}
