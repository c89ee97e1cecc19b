import SceneGenerator
import SeatKit
import WlrootsScene

/// One hit-testing case, built twice from the same generated description: a SeatKit surface
/// tree and a wlroots 0.15 scene. The query points are shared.
public final class HitTestWorkload {
    public static let outputSize = (width: Int32(1920), height: Int32(1080))
    public static let sizes: [Int32] = [10, 100, 1_000, 10_000]
    public static let pointCount: Int32 = 1_024

    public enum Shape: String, CaseIterable, Sendable {
        case flat, nested
        var cValue: scene_shape { self == .flat ? SCENE_FLAT : SCENE_NESTED }
    }

    public enum Points: String, CaseIterable, Sendable {
        case hit, miss, random
        var cValue: point_kind {
            switch self {
            case .hit: POINTS_HIT
            case .miss: POINTS_MISS
            case .random: POINTS_RANDOM
            }
        }
    }

    public let count: Int32
    public let shape: Shape
    public let points: Points
    /// Root of the SeatKit tree: covers the output but accepts no input itself, like a
    /// wlr_scene_tree.
    public let root: Surface
    /// The SeatKit surface of each generated rectangle, by index.
    public let surfaces: [Surface]
    public let wlroots: OpaquePointer
    /// Query points in output space (surface space of `root`).
    public let queries: [SurfacePoint]
    /// The same points interleaved x, y, for the C side.
    public let interleaved: [Double]
    /// Miss points that had to come from beside the output because rectangles covered it.
    public let missesBesideOutput: Int32

    public var name: String { "\(count) \(shape.rawValue) \(points.rawValue)" }

    public init(count: Int32, shape: Shape, points: Points, seed: UInt64 = 7) {
        self.count = count
        self.shape = shape
        self.points = points
        var description = scene_generate(count, shape.cValue, seed, Self.outputSize.width, Self.outputSize.height)
        defer { scene_free(&description) }

        root = Surface(name: "root", frame: SurfaceRect(x: 0, y: 0, width: Double(Self.outputSize.width),
                                                        height: Double(Self.outputSize.height)))
        root.inputRegion = []
        var surfaces: [Surface] = []
        surfaces.reserveCapacity(Int(count))
        for i in 0..<Int(count) {
            let r = description.rects[i]
            let surface = Surface(name: "r\(i)", frame: SurfaceRect(x: Double(r.x), y: Double(r.y),
                                                                   width: Double(r.width), height: Double(r.height)))
            (r.parent < 0 ? root : surfaces[Int(r.parent)]).addChild(surface)
            surfaces.append(surface)
        }
        self.surfaces = surfaces
        wlroots = withUnsafePointer(to: &description) { wlroots_scene_build($0) }

        var xy = [Double](repeating: 0, count: Int(Self.pointCount) * 2)
        missesBesideOutput = withUnsafePointer(to: &description) { d in
            xy.withUnsafeMutableBufferPointer { scene_points(d, points.cValue, seed &+ 1, Self.pointCount, $0.baseAddress) }
        }
        interleaved = xy
        queries = (0..<Int(Self.pointCount)).map { SurfacePoint(x: xy[2 * $0], y: xy[2 * $0 + 1]) }
    }

    deinit { wlroots_scene_destroy(wlroots) }

    /// Index of the rectangle SeatKit hits at query `i`, or -1.
    public func seatKitHit(_ i: Int) -> Int32 {
        guard let hit = root.hitTest(queries[i]) else { return -1 }
        return indexByIdentity[ObjectIdentifier(hit)] ?? -2
    }

    /// Index of the rectangle wlroots hits at query `i`, or -1.
    public func wlrootsHit(_ i: Int) -> Int32 {
        wlroots_scene_hit(wlroots, interleaved[2 * i], interleaved[2 * i + 1])
    }

    /// Queries on which the two disagree (should be none: same tree, same semantics).
    public func disagreements() -> Int {
        (0..<queries.count).reduce(0) { $0 + (seatKitHit($1) == wlrootsHit($1) ? 0 : 1) }
    }

    private lazy var indexByIdentity: [ObjectIdentifier: Int32] = {
        var map: [ObjectIdentifier: Int32] = [:]
        for (i, s) in surfaces.enumerated() { map[ObjectIdentifier(s)] = Int32(i) }
        return map
    }()

    /// Runs SeatKit's hit-test over all query points `rounds` times; returns a checksum so
    /// the work is not optimized away. Index loops: no iterator overhead in the measurement.
    @inline(never)
    public func runSeatKit(rounds: Int) -> Int {
        var sum = 0
        var round = 0
        while round < rounds {
            var i = 0
            let n = queries.count
            while i < n {
                if root.hitTest(queries[i]) != nil { sum &+= i }
                i += 1
            }
            round += 1
        }
        return sum
    }

    /// The same for wlroots, looping in C.
    @inline(never)
    public func runWlroots(rounds: Int) -> Int {
        Int(interleaved.withUnsafeBufferPointer {
            wlroots_scene_hit_all(wlroots, $0.baseAddress, Int32(queries.count), Int32(rounds))
        })
    }
}
