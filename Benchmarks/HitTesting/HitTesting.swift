import Benchmark
import HitTestWorkloads
import SeatKit

// Hit-testing on identical trees: SeatKit's Surface.hitTest against wlroots 0.15's
// wlr_scene_node_at, for 10 … 10,000 rectangles, flat and nested, with points that hit,
// miss, or fall anywhere. One iteration is 1,000 queries; the times shown are per query.
// BenchmarkReport runs the same workloads interleaved and prints the ratios.

/// Trees are built once per process and shared by the SeatKit and wlroots benchmarks.
nonisolated(unsafe) var workloads: [String: HitTestWorkload] = [:]

func workload(_ count: Int32, _ shape: HitTestWorkload.Shape, _ points: HitTestWorkload.Points) -> HitTestWorkload {
    let key = "\(count) \(shape) \(points)"
    if let existing = workloads[key] { return existing }
    let made = HitTestWorkload(count: count, shape: shape, points: points)
    precondition(made.disagreements() == 0, "SeatKit and wlroots disagree on \(key)")
    workloads[key] = made
    return made
}

let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal],
        warmupIterations: 3,
        scalingFactor: .kilo,
        maxDuration: .milliseconds(600),
        maxIterations: 2_000
    )
    let mask = Int(HitTestWorkload.pointCount) - 1  // a power of two
    for count in HitTestWorkload.sizes {
        for shape in HitTestWorkload.Shape.allCases {
            for points in HitTestWorkload.Points.allCases {
                let name = "\(count) \(shape.rawValue) \(points.rawValue)"
                Benchmark("SeatKit \(name)", configuration: configuration) { benchmark in
                    let w = workload(count, shape, points)
                    let root = w.root, queries = w.queries
                    var found = 0
                    benchmark.startMeasurement()
                    for i in benchmark.scaledIterations {
                        if root.hitTest(queries[i & mask]) != nil { found &+= 1 }
                    }
                    benchmark.stopMeasurement()
                    blackHole(found)
                }
                Benchmark("wlroots \(name)", configuration: configuration) { benchmark in
                    let w = workload(count, shape, points)
                    var found = 0
                    benchmark.startMeasurement()
                    for i in benchmark.scaledIterations {
                        found &+= Int(w.wlrootsHit(i & mask))
                    }
                    benchmark.stopMeasurement()
                    blackHole(found)
                }
            }
        }
    }
}
