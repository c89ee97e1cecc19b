import Testing
import SeededRandom
@testable import SeatKit

/// The router keeps the last device's units per millimetre between touch downs (issue 25,
/// fifteenth round) and must forget them whenever anything they are read from changes:
/// devices announced or removed (their physical size), mapping rules, outputs added, removed,
/// moved, resized, rescaled or turned; and, for a device mapped to no output, the output
/// under the point. The fallback DPI is read live.
@Suite("Units per millimetre kept between downs")
struct KeptUnitsPerMillimetreTests {
    /// Announces a device with or without a physical size and an output of its own.
    static func announce(_ world: inout DevicePlacementTests.World) -> String {
        let device = UInt32(1 + world.random.below(5))
        let size: Size? = world.random.below(4) == 0 ? nil
            : Size(width: world.double(50...400), height: world.double(30...300))
        let output: String? = world.random.below(2) == 0 ? nil : world.pick(DevicePlacementTests.connectors + ["nowhere"])
        world.router.inject(InputEvent(time: Timestamp(microseconds: 0), device: DeviceID(device),
                                       .deviceAdded(DeviceInfo(name: world.pick(DevicePlacementTests.names), capabilities: .touch,
                                                               physicalSize: size, mappedOutput: output))))
        if !world.devices.contains(device) { world.devices.append(device) }
        return "announce device \(device) sized \(String(describing: size)) on \(output ?? "no output")"
    }

    /// Points on and between outputs for a few devices, each asked twice (resolving, then
    /// kept) and interleaved, against the answer looked up afresh.
    static func mismatches(_ world: inout DevicePlacementTests.World) -> [String] {
        var found: [String] = []
        for _ in 0..<8 {
            let device = DeviceID(UInt32(world.random.below(7)))
            let point = LayoutPoint(x: world.double(-600...4000), y: world.double(-600...3000))
            for _ in 0..<2 {
                let kept = world.router.unitsPerMillimetre(device: device, at: point)
                let fresh = world.router.computedUnitsPerMillimetre(device: device, at: point)
                if kept.bitPattern != fresh.bitPattern { found.append("device \(device.rawValue) at \(point): kept \(kept), fresh \(fresh)") }
            }
        }
        return found
    }

    /// Every edit is followed by the scale of several devices at points on and off the
    /// outputs: a kept answer that outlived an edit (a missed invalidation) or another output
    /// under the point gives the old output's scale.
    @Test func theKeptScaleEqualsTheLookedUpOneThroughRandomEdits() {
        var failing: [String] = []
        var editsThatMoved = 0
        for seed in UInt64(1)...150 {
            var world = DevicePlacementTests.World(seed: seed)
            var steps: [String] = []
            for _ in 0..<60 {
                let probe = LayoutPoint(x: 300, y: 200)
                let before = (0..<6).map { world.router.computedUnitsPerMillimetre(device: DeviceID(UInt32($0)), at: probe) }
                // Fill the kept answer before the edit, so the edit has one to invalidate.
                _ = world.router.unitsPerMillimetre(device: DeviceID(UInt32(world.random.below(6))), at: probe)
                switch world.random.below(10) {
                case 0, 1, 2: steps.append(Self.announce(&world))
                case 3:
                    world.router.fallbackDotsPerInch = world.pick([96, 120, 160, 254])
                    steps.append("fallback DPI \(world.router.fallbackDotsPerInch)")
                default: steps.append(world.edit())
                }
                let after = (0..<6).map { world.router.computedUnitsPerMillimetre(device: DeviceID(UInt32($0)), at: probe) }
                if before != after { editsThatMoved += 1 }
                let broken = Self.mismatches(&world)
                if !broken.isEmpty {
                    failing.append("seed \(seed) after \(steps.suffix(3)): \(broken[0])")
                    break
                }
            }
        }
        #expect(failing.isEmpty, "\(failing.prefix(5))")
        // The edits did move the scale (the check is not vacuous).
        #expect(editsThatMoved > 300, "\(editsThatMoved)")
    }

    /// A recognizer measures the scale at each first touch: the mapping, the output and the
    /// device changed between two downs give the second down the new scale.
    @Test func aRecognizerMeasuresTheNewScaleAfterTheMappingChangesBetweenDowns() {
        let rig = GestureRig()  // the panel: 100 mm on a 1000-unit output, 10 units per mm
        let pan = PanGestureRecognizer(), panOnB = PanGestureRecognizer()
        rig.output.root.addGestureRecognizer(pan)
        let b = Output(name: "B", position: LayoutPoint(x: 1000, y: 0), modeSize: Size(width: 500, height: 500))
        rig.router.addOutput(b)
        b.root.addGestureRecognizer(panOnB)
        func tap(_ x: Double = 100, _ recognizer: PanGestureRecognizer? = nil) -> Double? {
            rig.down(1, x, 100)
            let scale = (recognizer ?? pan).layoutUnitsPerMillimetre
            rig.up(1)
            return scale
        }
        #expect(tap() == 10)
        rig.router.setDeviceMapping(DeviceMapping(output: "B"), forDevicesNamed: "panel")
        #expect(tap(1100, panOnB) == 5, "mapped to another output")
        b.scale = 2.5
        #expect(tap(1100, panOnB) == 2, "its output rescaled")
        rig.router.setDeviceMapping(nil as DeviceMapping?, forDevicesNamed: "panel")
        #expect(tap() == 10, "the rule removed: the announced output again")
        rig.output.modeSize = Size(width: 2000, height: 2000)
        #expect(tap() == 20, "its output resized")
        rig.router.inject(InputEvent(time: .zero, device: DeviceID(1), .deviceRemoved))
        rig.router.inject(InputEvent(time: .zero, device: DeviceID(1), .deviceAdded(DeviceInfo(
            name: "panel", capabilities: .touch, physicalSize: Size(width: 400, height: 400), mappedOutput: "OUT"))))
        #expect(tap() == 5, "removed and announced again with another size")
        rig.router.inject(InputEvent(time: .zero, device: DeviceID(1), .deviceRemoved))
        rig.router.fallbackDotsPerInch = 254
        #expect(tap() == 10, "removed: the fallback DPI")
    }

    /// A device mapped to no output is measured on the output under the point: a down on
    /// another output than the last gets that output's scale.
    @Test func anUnmappedPanelIsMeasuredOnTheOutputUnderEachDown() {
        let router = Router(clock: VirtualClock())
        let a = Output(name: "A", modeSize: Size(width: 1000, height: 1000))
        let b = Output(name: "B", position: LayoutPoint(x: 1000, y: 0), modeSize: Size(width: 500, height: 500))
        router.addOutput(a)
        router.addOutput(b)
        router.inject(InputEvent(time: .zero, device: DeviceID(3), .deviceAdded(DeviceInfo(
            name: "panel", capabilities: .touch, physicalSize: Size(width: 100, height: 100)))))
        let device = DeviceID(3)
        #expect(router.unitsPerMillimetre(device: device, at: LayoutPoint(x: 10, y: 10)) == 10)
        #expect(router.unitsPerMillimetre(device: device, at: LayoutPoint(x: 20, y: 20)) == 10)
        #expect(router.unitsPerMillimetre(device: device, at: LayoutPoint(x: 1100, y: 10)) == 5)
        #expect(router.unitsPerMillimetre(device: device, at: LayoutPoint(x: 10, y: 10)) == 10)
        #expect(router.unitsPerMillimetre(device: device, at: LayoutPoint(x: 10, y: 2000)) == 96 / 25.4, "on no output")
        #expect(router.unitsPerMillimetre(device: device, at: LayoutPoint(x: 10, y: 10)) == 10)
    }
}
