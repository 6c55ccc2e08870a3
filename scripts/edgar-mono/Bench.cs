// Bench.cs: timing harness for Edgar-DotNet's GraphBasedGeneratorGrid2D under Mono
// (built by scripts/edgar-mono/run.sh; see README.md there).
//
// For each line of INPUTS_FILE ("name roomCount a-b c-d ...") it builds a LevelDescriptionGrid2D:
//   * paper_* inputs: the paper's six room shapes (Edgar's thesis_basic.yml + thesis_advanced.yml),
//     door length 2, corner distance 1, all 4 rotations; timed once without corridors and once with
//     a 2x2 corridor room (thesis_corridors.yml) inserted on every connection;
//   * docs_* inputs: Edgar.Examples/Grid2D/BasicsExample.cs (6x10 rectangle + 8x8 square,
//     door length 1, corner distance 1), no corridors.
// Each run makes a new generator with the default configuration, EarlyStopIfTimeExceeded =
// perLayoutTimeoutSeconds, and InjectRandomGenerator(new Random(seed)), seeds 0,1,2,...;
// seeds 0 and 1 are JIT warm-up and are not counted. Runs stop after maxRuns counted runs or
// budgetSecondsPerInput seconds, whichever comes first. "gen" times GenerateLayout() only,
// "setup" times the generator constructor.
// Every layout is checked by Validate() below, independently of Edgar: no grid tile is covered by
// two rooms, and every connection has a door in both rooms lying on both rooms' walls. A layout
// that fails this check counts as a failure and in the "invalid" column (first 3 go to stderr).
// Output: one Markdown table row per (input, corridors) on stdout.
//
//   * random_* inputs: the blocks of Edgar's random-graph benchmark (RandomBenchRooms below),
//     no corridors (scripts/map_edgar_random.py --edgar writes such a file).
// Usage: mono Bench.exe INPUTS_FILE [maxRuns=100] [budgetSecondsPerInput=60] [perLayoutTimeoutSeconds=20] [filter|-] [warmup=2]
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using Edgar.Geometry;
using Edgar.GraphBasedGenerator.Common;
using Edgar.GraphBasedGenerator.Grid2D;

public static class Bench
{
    static List<TransformationGrid2D> AllRotations()
    {
        return new List<TransformationGrid2D>
        {
            TransformationGrid2D.Identity, TransformationGrid2D.Rotate90,
            TransformationGrid2D.Rotate180, TransformationGrid2D.Rotate270
        };
    }

    static PolygonGrid2D Poly(params int[] xy)
    {
        var pts = new List<Vector2Int>();
        for (int i = 0; i < xy.Length; i += 2) pts.Add(new Vector2Int(xy[i], xy[i + 1]));
        return new PolygonGrid2D(pts);
    }

    // Edgar's Resources/Rooms/thesis_basic.yml + thesis_advanced.yml (paper Fig. 1b): door length 2, corner distance 1, all rotations.
    static RoomDescriptionGrid2D PaperRooms()
    {
        var doors = new SimpleDoorModeGrid2D(doorLength: 2, cornerDistance: 1);
        var shapes = new List<Tuple<string, PolygonGrid2D>>
        {
            Tuple.Create("12-square", Poly(0,0, 0,12, 12,12, 12,0)),
            Tuple.Create("8-square", Poly(0,0, 0,8, 8,8, 8,0)),
            Tuple.Create("12-18-rectangle", Poly(0,0, 0,18, 12,18, 12,0)),
            Tuple.Create("small-l-shape", Poly(0,0, 0,12, 6,12, 6,6, 12,6, 12,0)),
            Tuple.Create("big-l-shape", Poly(0,0, 0,18, 6,18, 6,6, 12,6, 12,0)),
            Tuple.Create("regular-t-shape", Poly(0,0, 0,6, 6,6, 6,12, 12,12, 12,6, 18,6, 18,0)),
        };
        var templates = shapes.Select(s => new RoomTemplateGrid2D(s.Item2, doors, name: s.Item1, allowedTransformations: AllRotations())).ToList();
        return new RoomDescriptionGrid2D(isCorridor: false, roomTemplates: templates);
    }

    // Edgar's Resources/Rooms/thesis_corridors.yml: 2x2 square, doors [[0,0],[2,0]] and [[0,2],[2,2]], all rotations.
    static RoomDescriptionGrid2D PaperCorridor()
    {
        var doors = new ManualDoorModeGrid2D(new List<DoorGrid2D>
        {
            new DoorGrid2D(new Vector2Int(0, 0), new Vector2Int(2, 0)),
            new DoorGrid2D(new Vector2Int(0, 2), new Vector2Int(2, 2)),
        });
        var t = new RoomTemplateGrid2D(Poly(0,0, 0,2, 2,2, 2,0), doors, name: "2-square corridor", allowedTransformations: AllRotations());
        return new RoomDescriptionGrid2D(isCorridor: true, roomTemplates: new List<RoomTemplateGrid2D> { t });
    }

    // Edgar's random-graph benchmark blocks (Legacy MapDescriptionUtils.GetBasicRoomTemplates,
    // scale 1): a 6x6 square, a 6x9 rectangle, two Ls and a T with 3-wide arms, door length 1,
    // corner distance 0, all 8 rotations and mirrors.
    static RoomDescriptionGrid2D RandomBenchRooms()
    {
        var doors = new SimpleDoorModeGrid2D(doorLength: 1, cornerDistance: 0);
        var shapes = new List<Tuple<string, PolygonGrid2D>>
        {
            Tuple.Create("square", Poly(0,0, 0,6, 6,6, 6,0)),
            Tuple.Create("rectangle", Poly(0,0, 0,9, 6,9, 6,0)),
            Tuple.Create("L-shape", Poly(0,0, 0,6, 3,6, 3,3, 6,3, 6,0)),
            Tuple.Create("L-shape long", Poly(0,0, 0,9, 3,9, 3,3, 6,3, 6,0)),
            Tuple.Create("T-shape", Poly(0,0, 0,3, 3,3, 3,6, 6,6, 6,3, 9,3, 9,0)),
        };
        var all = TransformationGrid2DHelper.GetAll();
        var templates = shapes.Select(s => new RoomTemplateGrid2D(s.Item2, doors, name: s.Item1, allowedTransformations: all)).ToList();
        return new RoomDescriptionGrid2D(isCorridor: false, roomTemplates: templates);
    }

    // Edgar.Examples/Grid2D/BasicsExample.cs
    static RoomDescriptionGrid2D BasicsRooms()
    {
        var rect = new RoomTemplateGrid2D(Poly(0,0, 0,10, 6,10, 6,0), new SimpleDoorModeGrid2D(1, 1),
            allowedTransformations: new List<TransformationGrid2D> { TransformationGrid2D.Identity, TransformationGrid2D.Rotate90 },
            name: "Rectangle 6x10");
        var square = new RoomTemplateGrid2D(PolygonGrid2D.GetSquare(8), new SimpleDoorModeGrid2D(1, 1), name: "Square 8x8");
        return new RoomDescriptionGrid2D(isCorridor: false, roomTemplates: new List<RoomTemplateGrid2D> { rect, square });
    }

    static LevelDescriptionGrid2D<int> Build(int rooms, List<int[]> edges, RoomDescriptionGrid2D roomDesc, RoomDescriptionGrid2D corridor)
    {
        var ld = new LevelDescriptionGrid2D<int>();
        for (int i = 0; i < rooms; i++) ld.AddRoom(i, roomDesc);
        int c = rooms;
        foreach (var e in edges)
        {
            if (corridor == null) ld.AddConnection(e[0], e[1]);
            else
            {
                ld.AddRoom(c, corridor);
                ld.AddConnection(e[0], c);
                ld.AddConnection(e[1], c);
                c++;
            }
        }
        return ld;
    }

    static double Pct(List<double> sorted, double p)
    {
        if (sorted.Count == 0) return double.NaN;
        // nearest-rank percentile
        int rank = (int)Math.Ceiling(p / 100.0 * sorted.Count);
        return sorted[Math.Max(0, Math.Min(sorted.Count - 1, rank - 1))];
    }

    static double Median(List<double> s)
    {
        if (s.Count == 0) return double.NaN;
        int n = s.Count;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2.0;
    }

    // Independent check of a layout: rooms' tiles do not overlap; every connection has a door
    // recorded in both rooms, lying on the boundary of both rooms.
    static bool OnBoundary(List<Vector2Int> poly, double x, double y)
    {
        for (int i = 0; i < poly.Count; i++)
        {
            var a = poly[i]; var b = poly[(i + 1) % poly.Count];
            if (a.X == b.X && Math.Abs(x - a.X) < 1e-9 && y >= Math.Min(a.Y, b.Y) - 1e-9 && y <= Math.Max(a.Y, b.Y) + 1e-9) return true;
            if (a.Y == b.Y && Math.Abs(y - a.Y) < 1e-9 && x >= Math.Min(a.X, b.X) - 1e-9 && x <= Math.Max(a.X, b.X) + 1e-9) return true;
        }
        return false;
    }
    static bool Inside(List<Vector2Int> poly, double x, double y)
    {
        bool inside = false;
        for (int i = 0, j = poly.Count - 1; i < poly.Count; j = i++)
        {
            var a = poly[i]; var b = poly[j];
            if ((a.Y > y) != (b.Y > y) && x < (double)(b.X - a.X) * (y - a.Y) / (b.Y - a.Y) + a.X) inside = !inside;
        }
        return inside;
    }
    public static string Validate(LayoutGrid2D<int> layout, LevelDescriptionGrid2D<int> ld)
    {
        var polys = new Dictionary<int, List<Vector2Int>>();
        var owner = new Dictionary<long, int>();
        foreach (var r in layout.Rooms)
        {
            var pts = (r.Outline + r.Position).GetPoints().ToList();
            polys[r.Room] = pts;
            int minX = pts.Min(p => p.X), maxX = pts.Max(p => p.X), minY = pts.Min(p => p.Y), maxY = pts.Max(p => p.Y);
            for (int x = minX; x < maxX; x++)
                for (int y = minY; y < maxY; y++)
                    if (Inside(pts, x + 0.5, y + 0.5))
                    {
                        long key = ((long)x << 32) ^ (uint)y;
                        int other;
                        if (owner.TryGetValue(key, out other)) return "overlap " + other + "/" + r.Room;
                        owner[key] = r.Room;
                    }
        }
        var byRoom = layout.Rooms.ToDictionary(r => r.Room);
        foreach (var e in ld.GetGraph().Edges)
        {
            if (!byRoom.ContainsKey(e.From) || !byRoom.ContainsKey(e.To)) return "missing room";
            var a = byRoom[e.From];
            var door = a.Doors == null ? null : a.Doors.FirstOrDefault(d => d.ToRoom == e.To);
            if (door == null) return "no door " + e.From + "-" + e.To;
            var b = byRoom[e.To];
            if (b.Doors == null || !b.Doors.Any(d => d.ToRoom == e.From)) return "no reverse door " + e.From + "-" + e.To;
            var f = door.DoorLine.From + a.Position; var t = door.DoorLine.To + a.Position;
            if (!OnBoundary(polys[e.From], f.X, f.Y) || !OnBoundary(polys[e.From], t.X, t.Y) ||
                !OnBoundary(polys[e.To], f.X, f.Y) || !OnBoundary(polys[e.To], t.X, t.Y)) return "door not on shared wall " + e.From + "-" + e.To;
        }
        return null;
    }

    public static int Main(string[] args)
    {
        string inputsFile = args[0];
        int maxRuns = args.Length > 1 ? int.Parse(args[1]) : 100;
        double budget = args.Length > 2 ? double.Parse(args[2]) : 60;
        double perLayoutTimeout = args.Length > 3 ? double.Parse(args[3]) : 20;
        string filter = args.Length > 4 && args[4] != "-" ? args[4] : null;
        int warmup = args.Length > 5 ? int.Parse(args[5]) : 2;

        var cases = new List<Tuple<string, int, List<int[]>, bool>>();
        foreach (var line in File.ReadAllLines(inputsFile))
        {
            var parts = line.Split(new[] { ' ' }, StringSplitOptions.RemoveEmptyEntries);
            if (parts.Length < 2) continue;
            var edges = parts.Skip(2).Select(p => p.Split('-').Select(int.Parse).ToArray()).ToList();
            cases.Add(Tuple.Create(parts[0], int.Parse(parts[1]), edges, false));
            if (!parts[0].StartsWith("docs_") && !parts[0].StartsWith("random_")) cases.Add(Tuple.Create(parts[0], int.Parse(parts[1]), edges, true));
        }

        Console.WriteLine("| input | corridors | runs | success | gen median ms | gen p90 ms | gen mean ms | gen max ms | setup median ms | iterations median | invalid |");
        Console.WriteLine("|---|---|---|---|---|---|---|---|---|---|---|");
        foreach (var cs in cases)
        {
            string name = cs.Item1; int rooms = cs.Item2; var edges = cs.Item3; bool corridors = cs.Item4;
            if (filter != null && !name.Contains(filter)) continue;
            RoomDescriptionGrid2D roomDesc = name.StartsWith("docs_basics") ? BasicsRooms()
                : name.StartsWith("random_") ? RandomBenchRooms() : PaperRooms();
            RoomDescriptionGrid2D corr = corridors ? PaperCorridor() : null;

            var genMs = new List<double>(); var setupMs = new List<double>(); var iters = new List<double>();
            int ok = 0, runs = 0, invalid = 0;
            var budgetSw = Stopwatch.StartNew();
            for (int seed = 0; runs < maxRuns && budgetSw.Elapsed.TotalSeconds < budget; seed++)
            {
                var ld = Build(rooms, edges, roomDesc, corr);
                var sw = Stopwatch.StartNew();
                var config = new GraphBasedGeneratorConfiguration<int>();
                config.EarlyStopIfTimeExceeded = TimeSpan.FromSeconds(perLayoutTimeout);
                var gen = new GraphBasedGeneratorGrid2D<int>(ld, config);
                gen.InjectRandomGenerator(new Random(seed));
                double tSetup = sw.Elapsed.TotalMilliseconds;
                var layout = gen.GenerateLayout();
                double tGen = sw.Elapsed.TotalMilliseconds - tSetup;
                bool success = layout != null && layout.Rooms.Count() == ld.GetGraph().VerticesCount;
                string why = success ? Validate(layout, ld) : "no layout";
                if (success && why != null) { invalid++; if (invalid <= 3) Console.Error.WriteLine(name + " seed " + seed + ": INVALID " + why); success = false; }
                if (seed < warmup) continue; // JIT warm-up, not counted
                runs++;
                if (success) { ok++; genMs.Add(tGen); }
                setupMs.Add(tSetup);
                iters.Add(gen.IterationsCount);
            }
            genMs.Sort(); setupMs.Sort(); iters.Sort();
            Console.WriteLine("| {0} | {1} | {2} | {3}/{2} | {4:F1} | {5:F1} | {6:F1} | {7:F1} | {8:F1} | {9:F0} | {10} |",
                name, corridors ? "2-tile" : "none", runs, ok, Median(genMs), Pct(genMs, 90),
                genMs.Count > 0 ? genMs.Average() : double.NaN, genMs.Count > 0 ? genMs.Max() : double.NaN,
                Median(setupMs), Median(iters), invalid);
        }
        return 0;
    }
}
