import Testing
import SeededRandom
@testable import SeatKit

/// The router keeps each device's placement (its output's frame, transform and clamp box, its
/// calibration) between points, and must forget it whenever anything it was read from changes
/// (issue 25, fourteenth round): outputs added, removed, moved, resized, rescaled or turned
/// (in the layout or out of it, then added again), devices announced or removed, mapping
/// rules set or removed. These drive all of that at random and check, after every edit, that
/// the point given with the kept placement equals the one resolved afresh, to the last bit.
@Suite("Device placement kept between points")
struct DevicePlacementTests {
    static let names = ["Panel Touch", "Pen", "Mouse", "Other Touch"]
    static let connectors = ["A", "B", "C", "D"]

    struct World {
        var random: SplitMix64
        let router = Router(clock: VirtualClock())
        var outputs: [Output] = []
        var devices: [UInt32] = []

        init(seed: UInt64) {
            random = SplitMix64(seed: seed)
            outputs.append(Output(name: "A", modeSize: Size(width: 1000, height: 600)))
            router.addOutput(outputs[0])
        }

        mutating func double(_ range: ClosedRange<Double>) -> Double {
            range.lowerBound + (range.upperBound - range.lowerBound) * Double(random.below(1 << 20)) / Double(1 << 20)
        }

        mutating func pick<T>(_ items: [T]) -> T { items[random.below(items.count)] }

        mutating func someOutput() -> Output {
            if outputs.count < DevicePlacementTests.connectors.count && random.below(4) == 0 {
                let name = DevicePlacementTests.connectors[outputs.count]
                outputs.append(Output(name: name, position: LayoutPoint(x: double(-500...3000), y: double(-500...2000)),
                                      modeSize: Size(width: double(100...4000), height: double(100...3000)),
                                      transform: pick(OutputTransform.allCases), scale: pick([1, 1.25, 1.5, 2, 3])))
            }
            return pick(outputs)
        }

        /// One edit of anything a placement is read from.
        mutating func edit() -> String {
            switch random.below(11) {
            case 0:
                let o = someOutput()
                router.addOutput(o)
                return "add output \(o.name)"
            case 1:
                let o = someOutput()
                router.removeOutput(o)
                return "remove output \(o.name)"
            case 2:
                let o = someOutput()
                o.position = LayoutPoint(x: double(-500...3000), y: double(-500...2000))
                return "move output \(o.name) (in layout: \(o.isInLayout))"
            case 3:
                let o = someOutput()
                o.transform = pick(OutputTransform.allCases)
                return "turn output \(o.name) to \(o.transform)"
            case 4:
                let o = someOutput()
                o.scale = pick([1, 1.25, 1.5, 2, 3])
                return "rescale output \(o.name)"
            case 5:
                let o = someOutput()
                o.modeSize = Size(width: double(100...4000), height: double(100...3000))
                return "resize output \(o.name)"
            case 6, 7:
                let device = UInt32(1 + random.below(5))
                let capabilities = pick([DeviceCapabilities.touch, .pointer, .tabletTool, [.pointer, .touch]])
                let announced: String? = random.below(2) == 0 ? nil : pick(DevicePlacementTests.connectors + ["nowhere"])
                router.inject(InputEvent(time: Timestamp(microseconds: 0), device: DeviceID(device),
                                         .deviceAdded(DeviceInfo(name: pick(DevicePlacementTests.names), capabilities: capabilities,
                                                                 mappedOutput: announced))))
                if !devices.contains(device) { devices.append(device) }
                return "announce device \(device)"
            case 8:
                guard !devices.isEmpty else { return "nothing" }
                let device = devices.remove(at: random.below(devices.count))
                router.inject(InputEvent(time: Timestamp(microseconds: 0), device: DeviceID(device), .deviceRemoved))
                return "remove device \(device)"
            case 9:
                let calibration: CalibrationMatrix? = random.below(2) == 0 ? nil
                    : CalibrationMatrix(a: double(-1...1), b: double(-1...1), c: double(0...1), d: double(-1...1), e: double(-1...1), f: double(0...1))
                let region: LayoutRect? = random.below(4) == 0
                    ? LayoutRect(x: double(0...1000), y: double(0...1000), width: double(10...1000), height: double(10...1000)) : nil
                let mapping = DeviceMapping(output: random.below(3) == 0 ? nil : pick(DevicePlacementTests.connectors),
                                            calibration: calibration, region: region,
                                            rotation: pick([DeviceRotation.none, .quarterTurn, .halfTurn, .threeQuarterTurn]))
                let name: String? = random.below(3) == 0 ? nil : pick(DevicePlacementTests.names)
                router.setDeviceMapping(mapping, forDevicesNamed: name)
                return "map \(name ?? "every device")"
            default:
                let name: String? = random.below(3) == 0 ? nil : pick(DevicePlacementTests.names)
                router.setDeviceMapping(nil as DeviceMapping?, forDevicesNamed: name)
                return "unmap \(name ?? "every device")"
            }
        }

        /// The points of a few devices (announced or not, out of range too), each asked
        /// twice (resolving, then kept) and interleaved, against the placement resolved afresh.
        mutating func mismatches() -> [String] {
            var found: [String] = []
            for _ in 0..<6 {
                let device = DeviceID(UInt32(random.below(7)))
                let x = pick([0, 1, 0.5, -0.25, 1.25, double(0...1)]), y = pick([0, 1, 0.5, -0.25, 1.25, double(0...1)])
                for _ in 0..<2 {
                    let kept = router.layoutPoint(fromNormalized: x, y, device: device)
                    let fresh = router.computedLayoutPoint(fromNormalized: x, y, device: device)
                    if kept.x.bitPattern != fresh.x.bitPattern || kept.y.bitPattern != fresh.y.bitPattern {
                        found.append("device \(device.rawValue) at (\(x), \(y)): kept \(kept), fresh \(fresh)")
                    }
                }
                if let moved = movedTouch(device: device, x: x, y: y) { found.append(moved) }
            }
            return found
        }

        /// A touch of `device` moved through the router's entry for a normalized point
        /// (SeatKitLibinput's, `injectTouchMotion(at:device:id:normalizedX:y:)`), twice
        /// (resolving, then kept): where the touch is then, against the placement resolved
        /// afresh; nil when both agree.
        mutating func movedTouch(device: DeviceID, x: Double, y: Double) -> String? {
            let id = TouchID(7)
            let time = Timestamp(microseconds: 0)
            router.inject(InputEvent(time: time, device: device, .touchDown(id, LayoutPoint(x: 1, y: 1))))
            defer {
                router.inject(InputEvent(time: time, device: device, .touchUp(id)))
                router.inject(InputEvent(time: time, device: device, .touchFrame))
            }
            let fresh = router.computedLayoutPoint(fromNormalized: x, y, device: device)
            for _ in 0..<2 {
                router.injectTouchMotion(at: time, device: device, id: id, normalizedX: x, y: y)
                let index = router.unchecked.touches.records.firstIndex { $0.unchecked.id == id && $0.isDown }
                guard let index else { return "device \(device.rawValue): the touch went" }
                let location = router.unchecked.touches.records[index].unchecked.location
                if location.x.bitPattern != fresh.x.bitPattern || location.y.bitPattern != fresh.y.bitPattern {
                    return "device \(device.rawValue) moved to (\(x), \(y)): at \(location), fresh \(fresh)"
                }
            }
            return nil
        }
    }

    /// Every edit is followed by points of several devices: a kept placement that outlived an
    /// edit (a missed invalidation) gives the old output's point.
    @Test func theKeptPlacementEqualsTheResolvedOneThroughRandomEdits() {
        var failing: [String] = []
        var editsThatMoved = 0
        for seed in UInt64(1)...150 {
            var world = World(seed: seed)
            var steps: [String] = []
            for _ in 0..<60 {
                let before = (0..<4).map { world.router.computedLayoutPoint(fromNormalized: 0.3, 0.7, device: DeviceID(UInt32($0))) }
                // Fill the kept placement before the edit, so the edit has one to invalidate.
                _ = world.router.layoutPoint(fromNormalized: 0.3, 0.7, device: DeviceID(UInt32(world.random.below(4))))
                steps.append(world.edit())
                let after = (0..<4).map { world.router.computedLayoutPoint(fromNormalized: 0.3, 0.7, device: DeviceID(UInt32($0))) }
                if before != after { editsThatMoved += 1 }
                let broken = world.mismatches()
                if !broken.isEmpty {
                    failing.append("seed \(seed) after \(steps.suffix(3)): \(broken[0])")
                    break
                }
            }
        }
        #expect(failing.isEmpty, "\(failing.prefix(5))")
        // The edits did move points (the check is not vacuous).
        #expect(editsThatMoved > 300, "\(editsThatMoved)")
    }

    /// The kept placement resolves the output's transform to `s * k + o` per axis (issue 25,
    /// sixteenth round): under each of the eight transforms, on outputs placed at awkward
    /// positions (−0 included) and sizes, points that round differently (tiny, near 1, out of
    /// range, −0, infinite, NaN) give the output's own arithmetic's point to the last bit.
    @Test func theKeptPlacementGivesTheOutputsOwnPointUnderEveryTransform() {
        let values: [Double] = [0, -0.0, 1, 0.5, 0.1, 0.3, 0.7, 1e-20, 1 - 1e-16, 0.999_999_9, -0.25, 1.25, 3e-300,
                                .infinity, -.infinity, .nan]
        var mismatches: [String] = []
        var compared = 0
        for transform in OutputTransform.allCases {
            for (position, size) in [(LayoutPoint(x: 0, y: 0), Size(width: 1280, height: 720)),
                                     (LayoutPoint(x: -0.0, y: -0.0), Size(width: 1000, height: 600)),
                                     (LayoutPoint(x: 1234.567, y: -89.1), Size(width: 1919, height: 1077)),
                                     (LayoutPoint(x: 1e9, y: 3e-9), Size(width: 333.3, height: 0.7))] {
                let router = Router(clock: VirtualClock())
                let output = Output(name: "A", position: position, modeSize: size, transform: transform, scale: 1.5)
                router.addOutput(output)
                for x in values {
                    for y in values {
                        // Twice: resolving, then kept.
                        for _ in 0..<2 {
                            let kept = router.layoutPoint(fromNormalized: x, y, device: DeviceID(3))
                            let own = output.clampInside(output.layoutPoint(fromNormalized: x, y))
                            compared += 1
                            if kept.x.bitPattern != own.x.bitPattern || kept.y.bitPattern != own.y.bitPattern {
                                mismatches.append("\(transform) at \(position) \(size), (\(x), \(y)): kept \(kept), own \(own)")
                            }
                        }
                    }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
        #expect(compared == 8 * 4 * 16 * 16 * 2)
    }

    /// The cases one at a time: a point kept for a device, then the edit, then the point again.
    @Test func eachKindOfEditMovesTheNextPoint() throws {
        let h = Harness()
        h.send(.deviceAdded(DeviceInfo(name: "Panel Touch", capabilities: .touch)), device: 7)
        let device = DeviceID(7)
        func point() -> LayoutPoint { h.router.layoutPoint(fromNormalized: 0.25, 0.5, device: device) }
        #expect(point() == LayoutPoint(x: 250, y: 500))
        h.output.position = LayoutPoint(x: 100, y: 0)
        #expect(point() == LayoutPoint(x: 350, y: 500), "moved")
        h.output.transform = .rotated180
        #expect(point() == LayoutPoint(x: 850, y: 500), "turned")
        h.output.transform = .normal
        h.output.scale = 2
        #expect(point() == LayoutPoint(x: 225, y: 250), "rescaled")
        h.output.modeSize = Size(width: 400, height: 400)
        #expect(point() == LayoutPoint(x: 150, y: 100), "resized")
        let b = Output(name: "B", position: LayoutPoint(x: 2000, y: 0), modeSize: Size(width: 800, height: 480))
        h.router.addOutput(b)
        h.router.setDeviceMapping(DeviceMapping(output: "B"), forDevicesNamed: "Panel Touch")
        #expect(point() == LayoutPoint(x: 2200, y: 240), "mapped to another output")
        let swap = try #require(CalibrationMatrix(parsing: "0 1 0 1 0 0"))
        h.router.setDeviceMapping(DeviceMapping(output: "B", calibration: swap), forDevicesNamed: "Panel Touch")
        #expect(point() == LayoutPoint(x: 2400, y: 120), "calibrated")
        h.router.removeOutput(b)
        #expect(point() == LayoutPoint(x: 200, y: 50), "its output removed: the first, still calibrated")
        b.position = LayoutPoint(x: 3000, y: 0)
        h.router.addOutput(b)
        #expect(point() == LayoutPoint(x: 3400, y: 120), "moved while out of the layout, then added again")
        h.send(.deviceRemoved, device: 7)
        h.send(.deviceAdded(DeviceInfo(name: "Other Touch", capabilities: .touch)), device: 7)
        #expect(point() == LayoutPoint(x: 150, y: 100), "another device under the same number")
    }
}
