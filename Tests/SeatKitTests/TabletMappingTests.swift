import Testing
@testable import SeatKit

/// A tablet mapped to an output or to a region of the layout, and rotated (issue 27 goal 4):
/// the router's device mapping places a pen's normalized points, and the pen is routed where
/// they land.
@Suite("Tablet mapping")
struct TabletMappingTests {
    /// The pen harness (OUT-1, 1000x1000 at the origin) with B, 800x480, right of it, and a
    /// tablet announced as device 7.
    func tablet() -> (PenHarness, Output) {
        let h = PenHarness()
        let b = Output(name: "B", position: LayoutPoint(x: 1000, y: 0), modeSize: Size(width: 800, height: 480))
        h.router.addOutput(b)
        h.router.inject(InputEvent(time: .zero, device: DeviceID(7), .deviceAdded(DeviceInfo(name: "Wacom Pen", capabilities: .tabletTool))))
        return (h, b)
    }

    func place(_ h: PenHarness, _ x: Double, _ y: Double) -> LayoutPoint {
        h.router.layoutPoint(fromNormalized: x, y, device: DeviceID(7))
    }

    /// Mapped to B, the tablet's area is B's: the pen comes in over the surface on B, at the
    /// surface-local point under it.
    @Test func aTabletMappedToAnOutputPutsThePenOnThatOutput() {
        let (h, b) = tablet()
        h.surface("onA", 0, 0, 1000, 1000)
        let onB = Surface(name: "onB", frame: SurfaceRect(x: 0, y: 0, width: 800, height: 480),
                          responder: PenRecorder("onB", log: h.log, handles: ["penMove", "penDown", "penUp"]))
        b.root.addChild(onB)
        #expect(place(h, 0.5, 0.5) == LayoutPoint(x: 500, y: 500), "unmapped: the first output")
        h.router.setDeviceMapping(DeviceMapping(output: "B"), forDevicesNamed: "Wacom Pen")
        let p = place(h, 0.25, 0.5)
        #expect(p == LayoutPoint(x: 1200, y: 240))
        h.proximityIn(p.x, p.y)
        h.down(p.x, p.y)
        #expect(h.log.entries == ["onB.penEnter", "onB.penDown"])
        #expect((onB.responder as? PenRecorder)?.events.last?.surfaceLocation == SurfacePoint(x: 200, y: 240))
    }

    /// Mapped to a region, the tablet covers that rectangle of the layout (here across both
    /// outputs), its edges clamped inside it, and the pen is hit-tested where it lands.
    @Test func aTabletMappedToARegionCoversThatRectangleAcrossOutputs() {
        let (h, b) = tablet()
        h.surface("onA", 0, 0, 1000, 1000)
        let onB = Surface(name: "onB", frame: SurfaceRect(x: 0, y: 0, width: 800, height: 480),
                          responder: PenRecorder("onB", log: h.log, handles: ["penMove", "penDown", "penUp"]))
        b.root.addChild(onB)
        let region = LayoutRect(x: 800, y: 100, width: 400, height: 200)
        h.router.setDeviceMapping(DeviceMapping(region: region), forDevicesNamed: "Wacom Pen")
        #expect(place(h, 0, 0) == LayoutPoint(x: 800, y: 100))
        #expect(place(h, 0.5, 0.5) == LayoutPoint(x: 1000, y: 200))
        #expect(place(h, 1, 1) == LayoutPoint(x: 1200 - 1.0 / 256, y: 300 - 1.0 / 256), "inside the region's right and bottom edges")
        #expect(place(h, -1, 2) == LayoutPoint(x: 800, y: 300 - 1.0 / 256), "a point off the tablet: clamped into the region")
        let left = place(h, 0.25, 0.5), right = place(h, 0.75, 0.5)
        h.proximityIn(left.x, left.y)
        h.hover(right.x, right.y)
        #expect(h.log.entries == ["onA.penEnter", "onA.penLeave", "onB.penEnter", "onB.penMove"])
        #expect((onB.responder as? PenRecorder)?.events.last?.surfaceLocation == SurfacePoint(x: 100, y: 200))
        // Removing the rule: the first output again.
        h.router.setDeviceMapping(nil, forDevicesNamed: "Wacom Pen")
        #expect(place(h, 0.5, 0.5) == LayoutPoint(x: 500, y: 500))
    }

    /// Rotation turns the tablet's area clockwise, after its calibration, on an output as in
    /// a region.
    @Test func rotationTurnsTheTabletsAreaClockwiseAfterItsCalibration() throws {
        let (h, _) = tablet()
        let cases: [(DeviceRotation, LayoutPoint)] = [
            (.none, LayoutPoint(x: 100, y: 200)), (.quarterTurn, LayoutPoint(x: 800, y: 100)),
            (.halfTurn, LayoutPoint(x: 900, y: 800)), (.threeQuarterTurn, LayoutPoint(x: 200, y: 900)),
        ]
        for (rotation, expected) in cases {
            h.router.setDeviceMapping(DeviceMapping(output: "OUT-1", rotation: rotation), forDevicesNamed: "Wacom Pen")
            let p = place(h, 0.1, 0.2)
            #expect(abs(p.x - expected.x) < 1e-9 && abs(p.y - expected.y) < 1e-9, "\(rotation): \(p)")
        }
        // A calibration swapping the axes, then a half turn: (0.1, 0.2) → (0.2, 0.1) → (0.8, 0.9).
        let swap = try #require(CalibrationMatrix(parsing: "0 1 0 1 0 0"))
        h.router.setDeviceMapping(DeviceMapping(calibration: swap, rotation: .halfTurn), forDevicesNamed: "Wacom Pen")
        let p = place(h, 0.1, 0.2)
        #expect(abs(p.x - 800) < 1e-9 && abs(p.y - 900) < 1e-9, "\(p)")
        // In a region: a quarter turn of (0, 0) is the region's top-right corner.
        h.router.setDeviceMapping(DeviceMapping(region: LayoutRect(x: 100, y: 100, width: 200, height: 100), rotation: .quarterTurn),
                                  forDevicesNamed: "Wacom Pen")
        #expect(place(h, 0, 0) == LayoutPoint(x: 300 - 1.0 / 256, y: 100))
    }

    @Test func rotationsAreQuarterTurnsInDegrees() {
        #expect(DeviceRotation(degrees: 90) == .quarterTurn)
        #expect(DeviceRotation(degrees: -90) == .threeQuarterTurn)
        #expect(DeviceRotation(degrees: 540) == .halfTurn)
        #expect(DeviceRotation(degrees: 45) == nil)
        for r in DeviceRotation.allCases {
            // Four of the same turn come back to where they started.
            let m = r.matrix.followed(by: r.matrix).followed(by: r.matrix).followed(by: r.matrix)
            let q = m.apply(0.3, 0.7)
            #expect(abs(q.x - 0.3) < 1e-12 && abs(q.y - 0.7) < 1e-12, "\(r)")
        }
    }
}
