/// A touchscreen's or tablet's calibration: libinput's 2×3 affine matrix (the udev property
/// `LIBINPUT_CALIBRATION_MATRIX`, `a b c d e f`), applied to the device's normalized point
/// (0...1 of its area, in the panel's native orientation): `x' = a·x + b·y + c`,
/// `y' = d·x + e·y + f`. The identity is `1 0 0 0 1 0`; `0 1 0 -1 0 1` turns the panel's
/// axes a quarter clockwise.
public struct CalibrationMatrix: Hashable, Sendable {
    public var a, b, c, d, e, f: Double

    /// Leaves points where they are.
    public static let identity = CalibrationMatrix(a: 1, b: 0, c: 0, d: 0, e: 1, f: 0)

    public init(a: Double, b: Double, c: Double, d: Double, e: Double, f: Double) {
        (self.a, self.b, self.c, self.d, self.e, self.f) = (a, b, c, d, e, f)
    }

    /// The matrix of six finite numbers `a b c d e f`; nil for any other count or a
    /// number that is not finite.
    public init?(_ values: [Double]) {
        guard values.count == 6, values.allSatisfy(\.isFinite) else { return nil }
        self.init(a: values[0], b: values[1], c: values[2], d: values[3], e: values[4], f: values[5])
    }

    /// The six numbers of the text form (`LIBINPUT_CALIBRATION_MATRIX`'s): separated by
    /// spaces or commas; nil if there are not exactly six finite numbers.
    public init?(parsing text: String) {
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" })
        let values = fields.compactMap { Double($0) }
        guard values.count == fields.count else { return nil }
        self.init(values)
    }

    /// The calibrated point, normalized space to normalized space.
    @inline(__always)
    public func apply(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        (a * x + b * y + c, d * x + e * y + f)
    }
}

/// Where an absolute device's points go: the output it covers (by connector name) and its
/// calibration. Set per device name with ``Router/setDeviceMapping(_:forDevicesNamed:)``.
public struct DeviceMapping: Hashable, Sendable {
    /// The connector name of the output the device covers; nil: the device's own
    /// ``DeviceInfo/mappedOutput`` (udev's `WL_OUTPUT`, a backend's output), else the default.
    public var output: String?
    /// Applied to the device's normalized points before the output's transform; nil: none.
    public var calibration: CalibrationMatrix?
    /// A layout-space rectangle the device's area covers instead of an output (a tablet
    /// mapped to part of a screen, or across two); nil: the output. Points are clamped inside
    /// it, and hit-tested where they land.
    public var region: LayoutRect?
    /// The device's area turned clockwise (a tablet used rotated, or left-handed at 180),
    /// after ``calibration``.
    public var rotation: DeviceRotation

    public init(output: String? = nil, calibration: CalibrationMatrix? = nil, region: LayoutRect? = nil,
                rotation: DeviceRotation = .none) {
        self.output = output
        self.calibration = calibration
        self.region = region
        self.rotation = rotation
    }
}

/// A mapping rule: for the devices with this name (every device: nil).
struct DeviceMappingRule {
    var deviceName: String?
    var mapping: DeviceMapping
}

// Devices to outputs, in one place (issue 25 goal 3, issue 24 goal 4): every absolute point,
// from SeatKit's libinput, a replay or a C compositor's backend, is placed by
// `layoutPoint(fromNormalized:_:device:)` with the mapping resolved here; the touch hit-test
// (`touchTarget`) and `surface(at:device:)` read the same resolved output.
extension Router {
    /// Maps the devices named `deviceName` (the kernel's name, exactly; every device: nil) to
    /// `mapping`; nil removes the rule. A rule naming a device wins over the one for every
    /// device, and either wins over the device's own ``DeviceInfo/mappedOutput``. Devices
    /// present are mapped again at once (touches under way keep their surfaces); so are
    /// devices announced later. Applies to points placed by
    /// ``layoutPoint(fromNormalized:_:device:)``; points injected in layout space are not
    /// moved, but are hit-tested on the mapped output.
    public func setDeviceMapping(_ mapping: DeviceMapping?, forDevicesNamed deviceName: String?) {
        unchecked.deviceRules.removeAll { $0.deviceName == deviceName }
        if let mapping { unchecked.deviceRules.append(DeviceMappingRule(deviceName: deviceName, mapping: mapping)) }
        updateDeviceOutputs()
    }

    /// The mapping rules set, by device name (nil: the rule for every device).
    public var deviceMappings: [(deviceName: String?, mapping: DeviceMapping)] {
        unchecked.deviceRules.map { ($0.deviceName, $0.mapping) }
    }

    /// The output `device`'s absolute points land on: its mapping's output if that output is
    /// in the layout, else, for a touchscreen or tablet (or a device never announced), the
    /// layout's first output; nil for a pointer with no mapping (it spans the whole layout,
    /// as `wlr_cursor` does) or with no outputs.
    public func output(for device: DeviceID) -> Output? {
        // Most seats map nothing: no lookup then.
        if !unchecked.deviceOutputs.isEmpty, let output = unchecked.deviceOutputs[device] { return output }
        if !unchecked.layoutWideDevices.isEmpty, unchecked.layoutWideDevices.scanContains(device) { return nil }
        return unchecked.layout.outputs.first
    }

    /// The layout-space point of a normalized device point (0...1 of the device's area, in
    /// the panel's native orientation, as libinput reports touch, tablet and absolute pointer
    /// positions): calibrated, placed on ``output(for:)`` through that output's transform
    /// (read now, so a rotated output is followed at once), and clamped once, as
    /// `wlr_cursor_map_input_to_output`: inside that output (1/256, one `wl_fixed_t` step, inside its
    /// right and bottom edges), or, for a pointer mapped to no output, inside the layout.
    /// With no outputs, the calibrated point itself. Not an event: nothing is routed, no
    /// filter or grab sees it.
    ///
    /// The device's placement is resolved once and kept (its output's frame, transform and
    /// clamp box, its calibration) for as long as no device, mapping rule or output changes:
    /// a point then costs the calibration, the transform's two multiply-adds and the clamp,
    /// the same arithmetic as resolving it each time (issue 25, fourteenth round). A device placed by a region, a pointer spanning the
    /// layout and a layout with no outputs are resolved each time.
    public func layoutPoint(fromNormalized x: Double, _ y: Double, device: DeviceID) -> LayoutPoint {
        if let point = directlyPlacedPoint(fromNormalized: x, y, device: device) { return point }
        if unchecked.placement.edits == unchecked.placementEdits && unchecked.placement.device == device {
            return placeKeptGenerally(x, y)
        }
        return placeResolving(x, y, device: device)
    }

    /// ``layoutPoint(fromNormalized:_:device:)`` by the kept placement when that is kept for
    /// `device` and places straight or swapped (an uncalibrated device on an output); nil
    /// otherwise. Inlined into ``layoutPoint(fromNormalized:_:device:)`` and into the router's
    /// entry that places a touch motion (`injectTouchMotion(at:device:id:normalizedX:y:)`),
    /// which goes out of line for any other placement.
    @inline(__always)
    func directlyPlacedPoint(fromNormalized x: Double, _ y: Double, device: DeviceID) -> LayoutPoint? {
        if unchecked.placement.edits == unchecked.placementEdits && unchecked.placement.device == device {
            // The kept placement's fields read in place: a call of one of its methods here
            // copied the whole placement to the stack first (a `memcpy` a point).
            // Each way compiled on its own: a select of the axes was 11 vector instructions.
            if unchecked.placement.way == DevicePlacement.straight { return unchecked.placement.placeDirectly(x, y) }
            if unchecked.placement.way == DevicePlacement.swapped { return unchecked.placement.placeDirectly(y, x) }
        }
        return nil
    }

    /// ``layoutPoint(fromNormalized:_:device:)`` with the kept placement of a calibrated device
    /// or a transform that subtracts twice (``DevicePlacement/placeGenerally(_:_:)``).
    @inline(never)
    private func placeKeptGenerally(_ x: Double, _ y: Double) -> LayoutPoint {
        unchecked.placement.placeGenerally(x, y)
    }

    /// ``layoutPoint(fromNormalized:_:device:)`` with the device's placement resolved again:
    /// kept for the next point when the device lands on one output.
    @inline(never)
    private func placeResolving(_ x: Double, _ y: Double, device: DeviceID) -> LayoutPoint {
        guard let placement = resolvedPlacement(of: device) else {
            return computedLayoutPoint(fromNormalized: x, y, device: device)
        }
        unchecked.placement = placement
        return placement.place(x, y)
    }

    /// The placement of `device`'s points as ``computedLayoutPoint(fromNormalized:_:device:)``
    /// resolves it now, when they land on one output; nil for a region, a pointer that spans
    /// the layout or no outputs.
    func resolvedPlacement(of device: DeviceID) -> DevicePlacement? {
        if !unchecked.deviceRegions.isEmpty, unchecked.deviceRegions[device] != nil { return nil }
        guard !unchecked.layout.outputs.isEmpty else { return nil }
        let output: Output
        if !unchecked.deviceOutputs.isEmpty, let mapped = unchecked.deviceOutputs[device] {
            output = mapped
        } else if !unchecked.layoutWideDevices.isEmpty, unchecked.layoutWideDevices.scanContains(device) {
            return nil
        } else {
            output = unchecked.layout.outputs[0]
        }
        let calibration = unchecked.deviceCalibrations.isEmpty ? nil : unchecked.deviceCalibrations[device]
        return DevicePlacement(device: device, edits: unchecked.placementEdits, calibration: calibration, output: output)
    }

    /// ``layoutPoint(fromNormalized:_:device:)`` resolved afresh, the kept placement neither
    /// read nor written: what the kept placement must always equal (the property tests
    /// compare them).
    func computedLayoutPoint(fromNormalized x: Double, _ y: Double, device: DeviceID) -> LayoutPoint {
        var u = x, v = y
        if !unchecked.deviceCalibrations.isEmpty, let m = unchecked.deviceCalibrations[device] { (u, v) = m.apply(x, y) }
        if !unchecked.deviceRegions.isEmpty, let r = unchecked.deviceRegions[device] { return Self.place(u, v, in: r, layout: unchecked.layout) }
        guard !unchecked.layout.outputs.isEmpty else { return LayoutPoint(x: u, y: v) }
        // The common case, a device mapped by nothing to the first output, reads that output
        // where the layout keeps it: `output(for:)` returned it retained, and a copy of the
        // layout retained its list, a retain and a release each per touch event (issue 24).
        // Nothing below calls out (rule 5 of ``Unretained``: the layout's list holds it).
        if unchecked.deviceOutputs.isEmpty && unchecked.layoutWideDevices.isEmpty {
            return unchecked.layout.outputs.unretainedElement(at: 0).with { $0.clampInside($0.layoutPoint(fromNormalized: u, v)) }
        }
        // Otherwise as `output(for:)`, which returned the output retained (a retain and a
        // release per touch event in the wlroots kiosk, whose pointer devices span the
        // layout), with the output read unretained: the mapped one (rule 2 of ``Unretained``:
        // `deviceOutputs` owns it), else, unless the device spans the layout, the first.
        if !unchecked.deviceOutputLinks.isEmpty, let link = unchecked.deviceOutputLinks[device] {
            return link.with { $0.clampInside($0.layoutPoint(fromNormalized: u, v)) }
        }
        if unchecked.layoutWideDevices.isEmpty || !unchecked.layoutWideDevices.scanContains(device) {
            return unchecked.layout.outputs.unretainedElement(at: 0).with { $0.clampInside($0.layoutPoint(fromNormalized: u, v)) }
        }
        let b = unchecked.layout.bounds
        return unchecked.layout.clamp(LayoutPoint(x: b.minX + u * b.size.width, y: b.minY + v * b.size.height))
    }

    /// The capabilities whose devices cover one output when nothing maps them.
    static var outputBoundDevices: DeviceCapabilities { [.touch, .tabletTool] }

    /// Resolves each device's output and calibration, after devices, outputs or rules changed.
    func updateDeviceOutputs() {
        unchecked.placementEdits &+= 1
        unchecked.deviceOutputs.removeAll(keepingCapacity: true)
        unchecked.deviceOutputLinks.removeAll(keepingCapacity: true)
        unchecked.deviceCalibrations.removeAll(keepingCapacity: true)
        unchecked.layoutWideDevices.removeAll(keepingCapacity: true)
        unchecked.deviceRegions.removeAll(keepingCapacity: true)
        let rules = unchecked.deviceRules
        for (device, info) in unchecked.devices {
            let named = rules.last { $0.deviceName == info.name }?.mapping
            let every = rules.last { $0.deviceName == nil }?.mapping
            let outputName = named?.output ?? every?.output ?? info.mappedOutput
            // Only named outputs are kept: an unmapped touchscreen's first output is found
            // by `output(for:)`, and its points hit-tested where they land.
            if let name = outputName, let output = unchecked.layout.output(named: name) {
                unchecked.deviceOutputs[device] = output
                unchecked.deviceOutputLinks[device] = Unretained(output)
            } else if info.capabilities.contains(.pointer), info.capabilities.isDisjoint(with: Self.outputBoundDevices) {
                unchecked.layoutWideDevices.append(device)
            }
            let rotation = named?.rotation ?? every?.rotation ?? .none
            let m = (named?.calibration ?? every?.calibration ?? .identity).followed(by: rotation.matrix)
            if m != .identity { unchecked.deviceCalibrations[device] = m }
            if let region = named?.region ?? every?.region { unchecked.deviceRegions[device] = region }
        }
    }
}

extension Router {
    /// ``unitsPerMillimetre(device:at:)``: the last device's answer kept while `placementEdits`
    /// stays where it was (devices, mapping rules and outputs, whose edits raise it, are all it
    /// reads besides the point). Looked up afresh, it cost a `devices` lookup (hashing the
    /// device) and, for an unmapped device, the output under the point, at every recognizer
    /// joining a touch with no touch yet (issue 25, fifteenth round). A device with no
    /// physical size answers the fallback whatever the point; a mapped device, its output's
    /// whatever the point; an unmapped one, the output under the point's, kept with that
    /// output's index, checked against the point each time (the same scan `output(at:)` does).
    @inline(__always)
    func keptUnitsPerMillimetre(device: DeviceID, at point: LayoutPoint) -> Double {
        let kept = unchecked.millimetres
        if kept.edits == unchecked.placementEdits && kept.device == device {
            switch kept.output {
            case DeviceMillimetres.fallback: return fallbackDotsPerInch / 25.4
            case DeviceMillimetres.mapped: return kept.units
            default: if unchecked.layout.outputIndex(at: point) == kept.output { return kept.units }
            }
        }
        return resolveUnitsPerMillimetre(device: device, at: point)
    }

    /// ``keptUnitsPerMillimetre(device:at:)`` resolved now, and kept when it does not hang on
    /// the point lying on no output.
    @inline(never)
    private func resolveUnitsPerMillimetre(device: DeviceID, at point: LayoutPoint) -> Double {
        var kept = DeviceMillimetres(device: device, edits: unchecked.placementEdits)
        if let info = unchecked.devices[device], let physical = info.physicalSize, physical.width > 0, physical.height > 0 {
            if !unchecked.deviceOutputs.isEmpty, let output = unchecked.deviceOutputs[device] {
                kept.output = DeviceMillimetres.mapped
                kept.units = Self.unitsPerMillimetre(of: output, physical: physical)
            } else if let index = unchecked.layout.outputIndex(at: point) {
                kept.output = index
                kept.units = Self.unitsPerMillimetre(of: unchecked.layout.outputs[index], physical: physical)
            } else {
                return fallbackDotsPerInch / 25.4
            }
            unchecked.millimetres = kept
            return kept.units
        }
        unchecked.millimetres = kept
        return fallbackDotsPerInch / 25.4
    }

    /// The output's logical size over the panel's physical size, averaged over both axes.
    private static func unitsPerMillimetre(of output: Output, physical: Size) -> Double {
        // The panel's size is in its native orientation; so is the mode.
        let native = output.transform.transformedSize(output.logicalSize)
        return (native.width / physical.width + native.height / physical.height) / 2
    }

    /// ``unitsPerMillimetre(device:at:)`` resolved afresh, the kept answer neither read nor
    /// written: what the kept one must always equal (the tests compare them).
    func computedUnitsPerMillimetre(device: DeviceID, at point: LayoutPoint) -> Double {
        if let info = unchecked.devices[device], let physical = info.physicalSize, physical.width > 0, physical.height > 0 {
            if let output = unchecked.deviceOutputs[device] ?? unchecked.layout.output(at: point) {
                return Self.unitsPerMillimetre(of: output, physical: physical)
            }
        }
        return fallbackDotsPerInch / 25.4
    }
}

/// One device's ``Router/unitsPerMillimetre(device:at:)``, kept by the router while
/// `placementEdits` stays where it was.
struct DeviceMillimetres {
    /// `output`: the device has no physical size (the fallback, read live).
    static let fallback = -2
    /// `output`: the device is mapped to an output; `units` holds whatever the point.
    static let mapped = -1
    var device = DeviceID(0)
    /// `placementEdits` when resolved; 0 (never the router's) when not resolved yet.
    var edits: UInt64 = 0
    /// ``fallback``, ``mapped``, or the index in the layout's outputs of the output under
    /// the point `units` was resolved for.
    var output = DeviceMillimetres.fallback
    var units = 0.0

    init() {}

    init(device: DeviceID, edits: UInt64) {
        self.device = device
        self.edits = edits
    }
}

/// One device's placement on its output, resolved by ``Router/resolvedPlacement(of:)`` and kept
/// by the router while `placementEdits` stays where it was: the numbers
/// ``Router/computedLayoutPoint(fromNormalized:_:device:)`` reads from the output each time,
/// read once. ``place(_:_:)`` does the same arithmetic in the same order, so a kept placement
/// gives the same point to the last bit.
///
/// The output's transform is kept resolved as well (issue 25, sixteenth round): each layout
/// axis reads one device axis `s` (``swapped``: x from the device's y) as `s * k + o`, with
/// `k` ±1 and `o` −0 or 1, which is `s` or `1 - s` to the last bit (`-s + 1` is `1 - s`,
/// `s + -0` is `s`, a −0 included), so a point costs the two multiply-adds onto the frame and
/// the clamp, without the transform's switch. A calibrated device and the two flipped
/// transforms that subtract twice (`flipped180`, `flipped270`: `1 - (1 - u)` is not `u` to the
/// last bit) take the transform's own arithmetic (``placeGenerally(_:_:)``).
struct DevicePlacement {
    var device = DeviceID(0)
    /// `placementEdits` when resolved; 0 (never the router's) when not resolved yet.
    var edits: UInt64 = 0
    /// How a point is placed: ``straight`` or ``swapped`` (the resolved transform: no
    /// calibration, not `flipped180` or `flipped270`), else ``general``.
    var way = DevicePlacement.straight
    static let straight: UInt8 = 0, swapped: UInt8 = 1, general: UInt8 = 2
    var calibrated = false
    var calibration = CalibrationMatrix.identity
    var transform = OutputTransform.normal
    /// Per layout axis, `s * k + o` of the device axis it reads (the layout's x the device's
    /// y when ``swapped``). Side by side by axis, as the frame's numbers: loaded in pairs.
    var kx = 1.0, ky = 1.0, ox = -0.0, oy = -0.0
    /// The output's layout frame.
    var minX = 0.0, minY = 0.0, width = 0.0, height = 0.0
    /// The clamp's right and bottom limits (`Output.clampInside`'s: one `wl_fixed_t` step inside).
    var lastX = 0.0, lastY = 0.0

    init() {}

    init(device: DeviceID, edits: UInt64, calibration: CalibrationMatrix?, output: Output) {
        self.device = device
        self.edits = edits
        if let calibration {
            calibrated = true
            self.calibration = calibration
        }
        transform = output.unchecked._transform
        let f = output.unchecked.layoutFrame, step = Layout.edgeMargin
        (minX, minY, width, height) = (f.minX, f.minY, f.size.width, f.size.height)
        lastX = Swift.max(f.minX, f.maxX - step)
        lastY = Swift.max(f.minY, f.maxY - step)
        // `OutputTransform.mapNormalized`, resolved: fu = flipped ? 1 - u : u, then
        // (fu, v), (1 - v, fu), (1 - fu, 1 - v) or (v, 1 - fu).
        let raw = transform.rawValue, fu = raw >= 4 ? -1.0 : 1.0
        let swapsAxes: Bool
        switch raw & 3 {
        case 0: (swapsAxes, kx, ky) = (false, fu, 1)
        case 1: (swapsAxes, kx, ky) = (true, -1, fu)
        case 2: (swapsAxes, kx, ky) = (false, -fu, -1)
        default: (swapsAxes, kx, ky) = (true, 1, -fu)
        }
        ox = kx == 1 ? -0.0 : 1
        oy = ky == 1 ? -0.0 : 1
        way = calibrated || (raw >= 4 && raw & 3 >= 2) ? Self.general : swapsAxes ? Self.swapped : Self.straight
    }

    /// The layout-space point: calibrated, through the output's transform, onto its frame,
    /// clamped inside it (``Output/layoutPoint(fromNormalized:_:)`` then `clampInside`).
    @inline(__always)
    func place(_ x: Double, _ y: Double) -> LayoutPoint {
        switch way {
        case Self.straight: placeDirectly(x, y)
        case Self.swapped: placeDirectly(y, x)
        default: placeGenerally(x, y)
        }
    }

    /// ``place(_:_:)`` by the resolved transform, `s` the device axis the layout's x reads
    /// and `r` the one its y reads.
    @inline(__always)
    func placeDirectly(_ s: Double, _ r: Double) -> LayoutPoint {
        let px = minX + (s * kx + ox) * width, py = minY + (r * ky + oy) * height
        return LayoutPoint(x: Swift.min(Swift.max(px, minX), lastX), y: Swift.min(Swift.max(py, minY), lastY))
    }

    /// ``place(_:_:)`` for a calibrated device or a transform that subtracts twice: the
    /// calibration, then the transform's own arithmetic.
    func placeGenerally(_ x: Double, _ y: Double) -> LayoutPoint {
        var u = x, v = y
        if calibrated { (u, v) = calibration.apply(x, y) }
        let mapped = transform.mapNormalized(x: u, y: v)
        let px = minX + mapped.x * width, py = minY + mapped.y * height
        return LayoutPoint(x: Swift.min(Swift.max(px, minX), lastX), y: Swift.min(Swift.max(py, minY), lastY))
    }
}
