import Testing
import SeatKit
import SeededRandom

/// The least-squares velocity tracker (Flutter's): a quadratic over the last 100 ms, a pause
/// over 40 ms starts afresh, at least three samples, and a confidence.
@Suite struct VelocityTrackerTests {
    /// The reference: the slope at t = 0 of the least-squares quadratic through (t, v), from
    /// the normal equations solved by Cramer's rule (another method than the tracker's QR).
    static func referenceSlope(_ samples: [(t: Double, v: Double)]) -> Double {
        var s = [Double](repeating: 0, count: 5)  // sums of t^0 ... t^4
        var b = [Double](repeating: 0, count: 3)  // sums of v t^0 ... v t^2
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

    /// The reference estimate of a track (times in µs, positions), as the tracker should
    /// window it: newest first, within 100 ms of the newest, no gap over 40 ms; per second.
    static func reference(_ track: [(time: Int64, x: Double, y: Double)]) -> Vector {
        let newest = track.last!.time
        var used: [(time: Int64, x: Double, y: Double)] = []
        var previous = newest
        for sample in track.reversed().prefix(20) {
            if newest - sample.time > 100_000 || previous - sample.time > 40_000 { break }
            used.append(sample)
            previous = sample.time
        }
        guard used.count >= 3 else { return .zero }
        let ts = used.map { Double($0.time - newest) / 1000 }
        return Vector(dx: referenceSlope(Array(zip(ts, used.map(\.x)))) * 1000,
                      dy: referenceSlope(Array(zip(ts, used.map(\.y)))) * 1000)
    }

    @Test func onAnUnevenAcceleratingTrackTheFitMatchesTheReferenceLeastSquares() {
        var random = SplitMix64(seed: 30)
        var tracker = VelocityTracker()
        var track: [(time: Int64, x: Double, y: Double)] = []
        var time: Int64 = 1_000_000
        for i in 0..<60 {
            time += Int64(4_000 + random.next() % 9_000)  // 4...13 ms apart, as real frames are
            let s = Double(time - 1_000_000) / 1_000_000
            let x = 100 + 800 * s + 2_000 * s * s + Double(random.next() % 100) / 50
            let y = 300 - 400 * s + Double(random.next() % 100) / 50
            track.append((time, x, y))
            tracker.add(x: x, y: y, time: Timestamp(microseconds: time))
            guard i >= 2 else { continue }
            let got = tracker.estimate()
            let want = Self.reference(track)
            #expect(abs(got.perSecond.dx - want.dx) < 1e-6 * max(1, abs(want.dx)), "sample \(i): \(got) against \(want)")
            #expect(abs(got.perSecond.dy - want.dy) < 1e-6 * max(1, abs(want.dy)), "sample \(i): \(got) against \(want)")
            #expect(got.confidence > 0.9 && got.confidence <= 1)
        }
    }

    @Test func aSteadyMotionGivesItsExactVelocityWithFullConfidence() {
        var tracker = VelocityTracker()
        for i in 0..<30 { tracker.add(x: Double(i) * 8, y: 5, time: .milliseconds(Int64(i) * 8)) }
        let estimate = tracker.estimate()
        #expect(abs(estimate.perSecond.dx - 1000) < 1e-6)
        #expect(abs(estimate.perSecond.dy) < 1e-6)
        #expect(abs(estimate.confidence - 1) < 1e-9)
        // 100 ms at 8 ms apart: 13 samples, from the oldest to the newest 96 ms.
        #expect(estimate.sampleCount == 13)
        #expect(estimate.duration == .milliseconds(96))
    }

    @Test func onlyTheLastHundredMillisecondsCount() {
        var tracker = VelocityTracker()
        var x = 0.0
        for i in 0..<30 {  // 1000 units/s for 150 ms, then 3000 units/s for 150 ms
            x += i < 15 ? 10 : 30
            tracker.add(x: x, y: 0, time: .milliseconds(Int64(i) * 10))
        }
        #expect(abs(tracker.estimate().perSecond.dx - 3000) < 1e-6)
    }

    @Test func aPauseOverFortyMillisecondsStartsAfresh() {
        var tracker = VelocityTracker()
        for i in 0..<10 { tracker.add(x: Double(i) * 10, y: 0, time: .milliseconds(Int64(i) * 10)) }
        // 50 ms of rest, then two samples of a new motion: too few to fit.
        tracker.add(x: 100, y: 0, time: .milliseconds(140))
        tracker.add(x: 110, y: 0, time: .milliseconds(150))
        let fresh = tracker.estimate()
        #expect(fresh.perSecond == .zero && fresh.sampleCount == 2 && fresh.confidence == 1)
        tracker.add(x: 120, y: 0, time: .milliseconds(160))
        #expect(abs(tracker.estimate().perSecond.dx - 1000) < 1e-6)
    }

    @Test func askedAfterTheMotionStoppedTheVelocityIsZero() {
        var tracker = VelocityTracker()
        for i in 0..<10 { tracker.add(x: Double(i) * 10, y: 0, time: .milliseconds(Int64(i) * 10)) }
        #expect(abs(tracker.estimate(at: .milliseconds(130)).perSecond.dx - 1000) < 1e-6)  // 40 ms: still moving
        #expect(tracker.estimate(at: .milliseconds(131)).perSecond == .zero)
    }

    @Test func fewerThanThreeSamplesOrNoneGiveZero() {
        var tracker = VelocityTracker()
        #expect(tracker.estimate() == .none)
        tracker.add(x: 0, y: 0, time: .milliseconds(0))
        tracker.add(x: 50, y: 0, time: .milliseconds(10))
        #expect(tracker.estimate().perSecond == .zero)
        tracker.reset()
        #expect(tracker.count == 0)
    }

    @Test func aSampleOlderThanTheNewestIsIgnoredAndOneAtTheSameTimeReplacesIt() {
        var tracker = VelocityTracker()
        tracker.add(x: 0, y: 0, time: .milliseconds(0))
        tracker.add(x: 10, y: 0, time: .milliseconds(10))
        tracker.add(x: 999, y: 0, time: .milliseconds(5))
        tracker.add(x: 15, y: 0, time: .milliseconds(10))
        tracker.add(x: 30, y: 0, time: .milliseconds(20))
        #expect(tracker.count == 3)
        let v = tracker.estimate().perSecond.dx
        #expect(v > 1000 && v < 2500, "\(v)")
    }
}

/// Every continuous recognizer reports the tracker's velocity, in layout units and in
/// millimetres per second, and the velocity its fingers lifted with.
@Suite struct RecognizerVelocityTests {
    @Test func aPanReportsItsVelocityInLayoutUnitsAndMillimetresWithConfidence() throws {
        let rig = GestureRig()  // 10 units per mm
        let pan = PanGestureRecognizer()
        rig.output.root.addGestureRecognizer(pan)
        var seen: [Double] = []
        pan.addTarget { r in seen.append((r as! PanGestureRecognizer).velocityInMillimetres.dx) }
        rig.down(1, 0, 100)
        for x in stride(from: 20.0, through: 200, by: 20) { rig.move(1, x, 100) }  // 2000 units/s
        #expect(abs(pan.velocity.dx - 2000) < 1e-6)
        #expect(abs(pan.velocityInMillimetres.dx - 200) < 1e-6)
        #expect(abs(pan.velocityEstimate.confidence - 1) < 1e-9)
        #expect(seen.allSatisfy { $0 > 0 } && !seen.isEmpty)
    }

    @Test func aFingerThatRestsFiftyMillisecondsBeforeLiftingHasNoFling() {
        let rig = GestureRig()
        let pan = PanGestureRecognizer()
        rig.output.root.addGestureRecognizer(pan)
        var fling: Vector?
        pan.addTarget { r in if r.state == .ended { fling = (r as! PanGestureRecognizer).velocity } }
        rig.down(1, 0, 100)
        for x in stride(from: 10.0, through: 100, by: 10) { rig.move(1, x, 100) }
        rig.wait(40)
        rig.up(1)  // 50 ms after the last motion
        #expect(fling == .zero)
    }

    @Test func aSecondFingerJoiningDoesNotDisturbThePansVelocity() {
        let rig = GestureRig()
        let pan = PanGestureRecognizer()
        rig.output.root.addGestureRecognizer(pan)
        rig.down(1, 0, 100)
        for x in stride(from: 10.0, through: 60, by: 10) { rig.move(1, x, 100) }
        rig.down(2, 500, 500)  // the centroid jumps; the translation does not
        for i in 1...5 {
            rig.frame([fingerMoved(1, 60 + Double(i) * 10, 100), fingerMoved(2, 500 + Double(i) * 10, 500)])
        }
        // The tracker follows the translation: finger 1 rested during the frame the second
        // finger joined, then both moved 10 units per 10 ms. The same samples, by hand:
        var expected = VelocityTracker()
        var time: Int64 = 10
        for (dx, dt) in [(0.0, 0), (10, 10), (20, 10), (30, 10), (40, 10), (50, 10), (60, 10), (70, 20), (80, 10), (90, 10), (100, 10), (110, 10)] {
            time += Int64(dt)
            expected.add(x: dx, y: 0, time: .milliseconds(time))
        }
        #expect(abs(pan.velocity.dx - expected.estimate().perSecond.dx) < 1e-9, "\(pan.velocityEstimate)")
        // Tracking the centroid instead would have seen it jump 220 units in 10 ms.
        #expect(pan.velocity.dx > 500 && pan.velocity.dx < 1500, "\(pan.velocityEstimate)")
    }

    @Test func pinchRotationSwipeAndEdgePanReportVelocities() {
        let rig = GestureRig()
        rig.step = 10
        let pinch = PinchGestureRecognizer()
        let rotation = RotationGestureRecognizer()
        let delegate = SimultaneousDelegate()
        pinch.delegate = delegate
        rotation.delegate = delegate
        rig.output.root.addGestureRecognizer(pinch)
        rig.output.root.addGestureRecognizer(rotation)
        rig.frame([.touchDown(TouchID(1), LayoutPoint(x: 400, y: 500)), .touchDown(TouchID(2), LayoutPoint(x: 600, y: 500))])
        for i in 1...8 {  // the span grows 10 units per 10 ms on each side: 1000 units/s
            let d = 100 + Double(i) * 10
            rig.frame([fingerMoved(1, 500 - d, 500), fingerMoved(2, 500 + d, 500)])
        }
        #expect(abs(pinch.spanVelocity - 1000) < 1e-6)
        #expect(abs(pinch.spanVelocityInMillimetres - 100) < 1e-6)
        #expect(abs(pinch.velocity - 10) < 1e-9)  // the span from 100 to 180 in 80 ms: the scale grows 10 per second
        #expect(abs(rotation.velocity) < 1e-9)
        rig.frame([.touchUp(TouchID(1)), .touchUp(TouchID(2))])

        let swipe = SwipeGestureRecognizer(direction: .right, minimumDistance: 15)
        rig.output.root.addGestureRecognizer(swipe)
        var atRecognition: Vector?
        swipe.addTarget { r in if r.state == .recognized { atRecognition = (r as! SwipeGestureRecognizer).velocityInMillimetres } }
        rig.down(3, 100, 800)
        for i in 1...6 { rig.move(3, 100 + Double(i) * 30, 800) }  // 3000 units/s = 300 mm/s
        #expect(abs((atRecognition?.dx ?? 0) - 300) < 1e-6)
        rig.up(3)

        let edge = ScreenEdgePanGestureRecognizer(edges: .left)
        rig.output.addGestureRecognizer(edge)
        var edgeFling: Vector?
        edge.addTarget { r in if r.state == .ended { edgeFling = (r as! ScreenEdgePanGestureRecognizer).velocityInMillimetres } }
        rig.wait(500)
        rig.down(4, 10, 300)
        for i in 1...6 { rig.move(4, 10 + Double(i) * 15, 300) }
        rig.up(4)
        #expect(abs((edgeFling?.dx ?? 0) - 150) < 1e-6)
    }

    @Test func touchpadSwipeAndPinchReportVelocitiesAndTheirFlings() {
        let rig = GestureRig()
        rig.surface("browser", 0, 0, 1000, 1000)
        rig.send(.pointerMotionAbsolute(LayoutPoint(x: 500, y: 500)))
        let swipe = TouchpadSwipeGestureRecognizer(fingers: 3)
        rig.output.addGestureRecognizer(swipe)
        var fling: Vector?
        var flingMillimetres: Vector?
        swipe.addTarget { r in
            if r.state == .ended {
                fling = (r as! TouchpadSwipeGestureRecognizer).velocity
                flingMillimetres = (r as! TouchpadSwipeGestureRecognizer).velocityInMillimetres
            }
        }
        func send(_ kind: TouchpadGesture.Kind, _ phase: GesturePhase, _ fingers: Int, dx: Double = 0, scale: Double = 1, rotation: Double = 0) {
            rig.wait(10)
            rig.send(.touchpadGesture(TouchpadGesture(kind: kind, phase: phase, fingers: fingers, delta: Vector(dx: dx, dy: 0),
                                                      unacceleratedDelta: Vector(dx: dx / 2, dy: 0), scale: scale, rotation: rotation)))
        }
        send(.swipe, .begin, 3)
        for _ in 0..<6 { send(.swipe, .update, 3, dx: 20) }  // 2000 units/s; unaccelerated 1000/s = 25.4 mm/s
        send(.swipe, .end(cancelled: false), 3)
        #expect(abs((fling?.dx ?? 0) - 2000) < 1e-6)
        #expect(abs((flingMillimetres?.dx ?? 0) - 25.4) < 1e-6)

        let pinch = TouchpadPinchGestureRecognizer()
        rig.output.addGestureRecognizer(pinch)
        var rates: (Double, Double)?
        pinch.addTarget { r in
            if r.state == .ended { rates = ((r as! TouchpadPinchGestureRecognizer).velocity, (r as! TouchpadPinchGestureRecognizer).rotationVelocity) }
        }
        send(.pinch, .begin, 2)
        for i in 1...6 { send(.pinch, .update, 2, scale: 1 + Double(i) * 0.05, rotation: 1) }  // 5 per s, 100 degrees per s
        send(.pinch, .end(cancelled: false), 2)
        #expect(abs((rates?.0 ?? 0) - 5) < 1e-6 && abs((rates?.1 ?? 0) - 100) < 1e-6)
    }
}
