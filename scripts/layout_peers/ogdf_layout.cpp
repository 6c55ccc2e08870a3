// OGDF harness of scripts/layout_peers.sh: lays out one edge list with OGDF's FM^3 (FMMMLayout)
// or its fast multipole multilevel embedder (FastMultipoleMultilevelEmbedder), times only the
// layout's call(), writes the positions as TSV and prints one JSON line.
//
//     ogdf_layout fme|fmmm GRAPH OUT.tsv [--threads N] [--no-affinity] [--seed S]
//                 [--quality gorgeous|beautiful|fast]
//
// GRAPH: `u v` per line (non-negative integer ids, further columns ignored), `#` comments (the
// SNAP format). Ids are renumbered in first-appearance order; self-loops are dropped (counted in
// the JSON). OUT.tsv: header `id\tx\ty`, then one row per vertex with the file's own id.
// stdout: {"tool":"ogdf-fme","time_ms":...,...} with time_ms the steady_clock time of call().
//
// Settings (what "defaults" means here):
//   fme   FastMultipoleMultilevelEmbedder as constructed; its constructor sets maxNumThreads to 1,
//         so it runs one thread unless --threads N is given (mapped to maxNumThreads(N); each
//         level then runs min(N, cores, level nodes / 100) threads, rounded down to a power of 2).
//         --no-affinity: OGDF's FME threads pin themselves with sched_setaffinity to CPU
//         CPU_SET_ordered_dual_quad(i * cores / threads), a mapping made for the authors' 8-core
//         test machine (CPU i -> 0,2,4,6,1,3,5,7). On 2 cores with 2 threads, thread 0 (the main
//         thread) goes to CPU 0 and thread 1 asks for CPU 2, which does not exist: the call fails
//         and thread 1 keeps the mask it inherited from the main thread, CPU 0. Both threads then
//         share one core (measured: 100% CPU at most). This harness defines sched_setaffinity
//         itself (the executable's definition wins over libc's for libOGDF.so's calls), and
//         --no-affinity makes it a no-op so the threads go where the kernel puts them; without
//         the flag the call is passed on to libc unchanged.
//   fmmm  FMMMLayout with useHighLevelOptions(true) and its high-level defaults: unitEdgeLength
//         100, newInitialPlacement false, pageFormat Square, qualityVersusSpeed BeautifulAndFast
//         (OGDF's middle setting; --quality picks GorgeousAndEfficient or NiceAndIncredibleSpeed).
//         FMMM is single-threaded; --threads is ignored for it.
//   Both: node boxes of OGDF's default size (GraphAttributes' 20 x 20), ogdf::setSeed(S) before
//         the call (S = 1 unless --seed), and FMMM's own randSeed(S).
//
// Built by scripts/layout_peers.sh against the headers and libOGDF.so of PyPI's ogdf-wheel:
//     g++ -O2 -std=c++17 -I$P/include/ogdf-release -I$P/include ogdf_layout.cpp
//         -L$P/lib -Wl,-rpath,$P/lib -lOGDF -lCOIN -pthread -o ogdf_layout
// with P the Python prefix the wheel installed into (`python3 -c 'import sys; print(sys.prefix)'`).

#include <ogdf/basic/Graph.h>
#include <ogdf/basic/GraphAttributes.h>
#include <ogdf/basic/System.h>
#include <ogdf/energybased/FMMMLayout.h>
#include <ogdf/energybased/FastMultipoleEmbedder.h>

#include <dlfcn.h>
#include <sched.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

namespace {
bool g_ignoreAffinity = false;
}

// Called by OGDF's FME threads (see --no-affinity above).
extern "C" int sched_setaffinity(pid_t pid, size_t size, const cpu_set_t* mask) noexcept {
	if (g_ignoreAffinity) {
		return 0;
	}
	using Fn = int (*)(pid_t, size_t, const cpu_set_t*);
	static Fn real = reinterpret_cast<Fn>(dlsym(RTLD_NEXT, "sched_setaffinity"));
	if (!real) {
		errno = ENOSYS;
		return -1;
	}
	return real(pid, size, mask);
}

namespace {

[[noreturn]] void die(const std::string& msg) {
	std::fprintf(stderr, "ogdf_layout: %s\n", msg.c_str());
	std::exit(2);
}

struct EdgeList {
	std::vector<uint64_t> ids; // file id of each vertex, in first-appearance order
	std::vector<std::pair<int, int>> edges;
	long selfLoops = 0;
};

// Reads the whole file and parses it by hand (a million-edge file in well under a second).
EdgeList readEdgeList(const char* path) {
	FILE* f = std::fopen(path, "rb");
	if (!f) {
		die(std::string(path) + ": cannot open: " + std::strerror(errno));
	}
	std::string text;
	char buf[1 << 16];
	size_t got;
	while ((got = std::fread(buf, 1, sizeof buf, f)) > 0) {
		text.append(buf, got);
	}
	std::fclose(f);

	EdgeList list;
	std::unordered_map<uint64_t, int> index;
	auto vertex = [&](uint64_t id) {
		auto it = index.find(id);
		if (it != index.end()) {
			return it->second;
		}
		int v = static_cast<int>(list.ids.size());
		index.emplace(id, v);
		list.ids.push_back(id);
		return v;
	};
	const char* p = text.data();
	const char* end = p + text.size();
	long lineNo = 0;
	while (p < end) {
		const char* eol = static_cast<const char*>(std::memchr(p, '\n', end - p));
		if (!eol) {
			eol = end;
		}
		++lineNo;
		const char* q = p;
		auto skipSpace = [&] {
			while (q < eol && (*q == ' ' || *q == '\t' || *q == '\r' || *q == ',')) {
				++q;
			}
		};
		auto number = [&](uint64_t& out) {
			if (q >= eol || *q < '0' || *q > '9') {
				return false;
			}
			out = 0;
			while (q < eol && *q >= '0' && *q <= '9') {
				out = out * 10 + static_cast<uint64_t>(*q - '0');
				++q;
			}
			return true;
		};
		skipSpace();
		if (q < eol && *q != '#') {
			uint64_t u, v;
			bool ok = number(u);
			skipSpace();
			ok = ok && number(v);
			if (!ok) {
				die(std::string(path) + ":" + std::to_string(lineNo) + ": expected `u v`");
			}
			if (u == v) {
				++list.selfLoops;
				vertex(u); // the vertex itself still appears
			} else {
				int a = vertex(u);
				int b = vertex(v);
				list.edges.emplace_back(a, b);
			}
		}
		p = eol + 1;
	}
	return list;
}

} // namespace

int main(int argc, char** argv) {
	if (argc < 4) {
		die("usage: ogdf_layout fme|fmmm GRAPH OUT.tsv [--threads N] [--no-affinity] [--seed S] "
			"[--quality gorgeous|beautiful|fast]");
	}
	std::string algo = argv[1];
	if (algo != "fme" && algo != "fmmm") {
		die("unknown algorithm " + algo + " (fme or fmmm)");
	}
	int threads = 0; // 0: the algorithm's own default
	int seed = 1;
	std::string quality = "beautiful";
	for (int i = 4; i < argc; ++i) {
		std::string a = argv[i];
		if (a == "--no-affinity") {
			g_ignoreAffinity = true;
			continue;
		}
		if (i + 1 >= argc) {
			die(a + ": missing value");
		}
		if (a == "--threads") {
			threads = std::atoi(argv[++i]);
			if (threads < 1) {
				die("--threads must be >= 1");
			}
		} else if (a == "--seed") {
			seed = std::atoi(argv[++i]);
		} else if (a == "--quality") {
			quality = argv[++i];
		} else {
			die("unknown option " + a);
		}
	}

	EdgeList list = readEdgeList(argv[2]);
	ogdf::Graph G;
	std::vector<ogdf::node> nodes(list.ids.size());
	for (auto& v : nodes) {
		v = G.newNode();
	}
	for (auto& e : list.edges) {
		G.newEdge(nodes[e.first], nodes[e.second]);
	}
	ogdf::GraphAttributes GA(G,
			ogdf::GraphAttributes::nodeGraphics | ogdf::GraphAttributes::edgeGraphics);
	ogdf::setSeed(seed);

	std::string tool;
	std::string settings;
	double ms = 0;
	if (algo == "fme") {
		tool = "ogdf-fme";
		ogdf::FastMultipoleMultilevelEmbedder fme;
		if (threads > 0) {
			fme.maxNumThreads(threads);
		}
		settings = "\"max_num_threads\":" + std::to_string(threads > 0 ? threads : 1) +
				",\"affinity\":" + (g_ignoreAffinity ? "\"ignored\"" : "\"ogdf\"");
		auto t0 = std::chrono::steady_clock::now();
		fme.call(GA);
		auto t1 = std::chrono::steady_clock::now();
		ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
	} else {
		tool = "ogdf-fmmm";
		ogdf::FMMMLayout fmmm;
		fmmm.useHighLevelOptions(true);
		ogdf::FMMMOptions::QualityVsSpeed q;
		if (quality == "gorgeous") {
			q = ogdf::FMMMOptions::QualityVsSpeed::GorgeousAndEfficient;
		} else if (quality == "beautiful") {
			q = ogdf::FMMMOptions::QualityVsSpeed::BeautifulAndFast;
		} else if (quality == "fast") {
			q = ogdf::FMMMOptions::QualityVsSpeed::NiceAndIncredibleSpeed;
		} else {
			die("--quality: gorgeous, beautiful or fast");
		}
		fmmm.qualityVersusSpeed(q);
		fmmm.randSeed(seed);
		settings = "\"quality\":\"" + quality + "\"";
		auto t0 = std::chrono::steady_clock::now();
		fmmm.call(GA);
		auto t1 = std::chrono::steady_clock::now();
		ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
	}

	FILE* out = std::fopen(argv[3], "w");
	if (!out) {
		die(std::string(argv[3]) + ": cannot write: " + std::strerror(errno));
	}
	std::fputs("id\tx\ty\n", out);
	for (size_t i = 0; i < nodes.size(); ++i) {
		std::fprintf(out, "%llu\t%.9g\t%.9g\n", static_cast<unsigned long long>(list.ids[i]),
				GA.x(nodes[i]), GA.y(nodes[i]));
	}
	if (std::fclose(out) != 0) {
		die(std::string(argv[3]) + ": write failed");
	}
	std::printf("{\"tool\":\"%s\",\"time_ms\":%.3f,\"vertices\":%zu,\"edges\":%zu,"
				"\"self_loops\":%ld,\"cores\":%d,\"seed\":%d,%s}\n",
			tool.c_str(), ms, list.ids.size(), list.edges.size(), list.selfLoops,
			ogdf::System::numberOfProcessors(), seed, settings.c_str());
	return 0;
}
