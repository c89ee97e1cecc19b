import Testing
import SeatKit
import SeatKitLibinput
import SeatKitReplay

/// Velocity on recorded tracks: tracks written by TouchScript (a libinput recording),
/// replayed through real libinput, their fling velocity compared with a reference least
/// squares computed here from the events the router got.
@Suite struct RecordedVelocityTests {
    /// Slope at t = 0 of the least-squares quadratic through (t, v): normal equations,
    /// Cramer's rule.
    static func slope(_ samples: [(t: Double, v: Double)]) -> Double {
        var s = [Double](repeating: 0, count: 5), b = [Double](repeating: 0, count: 3)
        for (t, v) in samples {
            var p = 1.0
            for k in 0..<5 {
                s[k] += p
                if k < 3 { b[k] += v * p }
                p *= t
            }
        }
        func det(_ m: [[Double]]) -> Double {
            m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
        }
        let a = [[s[0], s[1], s[2]], [s[1], s[2], s[3]], [s[2], s[3], s[4]]]
        var a1 = a
        for row in 0..<3 { a1[row][1] = b[row] }
        return det(a1) / det(a)
    }

    /// The reference fling: the finger's samples (down and motions, as routed) newest first
    /// within 100 ms and without a gap over 40 ms; zero when the lift came more than 40 ms
    /// after the last one or fewer than three remain. Per second.
    static func referenceFling(_ events: [InputEvent]) -> Vector {
        var samples: [(time: Int64, p: LayoutPoint)] = []
        var lift: Int64 = 0
        for event in events {
            switch event.kind {
            case .touchDown(_, let p), .touchMotion(_, let p): samples.append((event.time.microseconds, p))
            case .touchUp: lift = event.time.microseconds
            default: break
            }
        }
        guard let newest = samples.last?.time, lift - newest <= 40_000 else { return .zero }
        var used: [(time: Int64, p: LayoutPoint)] = []
        var previous = newest
        for sample in samples.reversed().prefix(20) {
            if newest - sample.time > 100_000 || previous - sample.time > 40_000 { break }
            used.append(sample)
            previous = sample.time
        }
        guard used.count >= 3 else { return .zero }
        let ts = used.map { Double($0.time - newest) / 1000 }
        return Vector(dx: slope(Array(zip(ts, used.map(\.p.x)))) * 1000, dy: slope(Array(zip(ts, used.map(\.p.y)))) * 1000)
    }

    func flingOf(_ points: [LayoutPoint], intervals: [Int64]) throws -> (got: Vector, millimetres: Vector, reference: Vector, unitsPerMillimetre: Double) {
        let layout = try SurfaceLayout.parse("output DSI-1 800x480\nsurface list 0,0,800x480 in DSI-1\n", source: "list")
        let harness = ReplayHarness(layout: layout)
        let pan = PanGestureRecognizer()
        try #require(harness.router.layout.outputs.first).addGestureRecognizer(pan)
        var fling: (Vector, Vector, Double)?
        pan.addTarget { r in
            if r.state == .ended {
                fling = ((r as! PanGestureRecognizer).velocity, (r as! PanGestureRecognizer).velocityInMillimetres, r.layoutUnitsPerMillimetre)
            }
        }
        var touch = TouchScript(layout: layout)
        touch.drag(through: points, intervals: intervals)
        let run = try harness.replay(touch.recording())
        let (got, millimetres, unitsPerMillimetre) = try #require(fling, "the pan did not end")
        return (got, millimetres, Self.referenceFling(run.inputEvents), unitsPerMillimetre)
    }

    @Test func aSlowingFlingOnUnevenFramesMatchesTheReferenceEstimate() throws {
        // x = 100 + 2000 t - 2500 t² (units, seconds) for 300 ms, down a little; frames 6 to 11 ms apart.
        let intervals: [Int64] = [7_000, 11_000, 6_000, 9_000, 8_000, 10_000]
        var points: [LayoutPoint] = []
        var t: Int64 = 0
        for i in 0..<36 {
            let s = Double(t) / 1_000_000
            points.append(LayoutPoint(x: 100 + 2000 * s - 2500 * s * s, y: 200 + 150 * s))
            t += intervals[i % intervals.count]
        }
        let (got, millimetres, reference, unitsPerMillimetre) = try flingOf(points, intervals: intervals)
        // The slope at the end is 2000 - 5000 t ≈ 550 units/s; libinput rounds to device steps.
        #expect(abs(got.dx - reference.dx) < 1e-6 * max(1, abs(reference.dx)), "\(got) against \(reference)")
        #expect(abs(got.dy - reference.dy) < 1e-6 * max(1, abs(reference.dy)), "\(got) against \(reference)")
        #expect(got.dx > 400 && got.dx < 700, "\(got)")
        // The synthetic touchscreen's physical size (its resolution) over the output's.
        #expect(unitsPerMillimetre > 1 && abs(millimetres.dx - got.dx / unitsPerMillimetre) < 1e-9, "\(unitsPerMillimetre)")
    }

    @Test func aFlingThatPausesBeforeLiftingIsNoFling() throws {
        // 20 points 8 ms apart, then the finger rests 60 ms before it lifts.
        let points = (0..<20).map { LayoutPoint(x: 100 + Double($0) * 12, y: 240) }
        let (got, _, reference, _) = try flingOf(points, intervals: Array(repeating: 8_000, count: 19) + [60_000])
        #expect(got == .zero && reference == .zero, "\(got) against \(reference)")
    }
}
