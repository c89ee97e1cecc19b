// A device's area turned a quarter at a time, and a device mapped to a layout region
// (issue 27 goal 4): both are resolved with the rest of a device's mapping in
// Router+DeviceMapping.swift, so every absolute point (libinput's, a replay's, a C backend's)
// is placed the same way.

/// How far a device's area is turned clockwise: a tablet or touchscreen used rotated (a
/// left-handed tablet upside down is ``halfTurn``). Applied to the device's normalized point
/// after its calibration, as libinput's rotation matrices are.
public enum DeviceRotation: Int, Sendable, Hashable, CaseIterable {
    /// Not turned.
    case none = 0
    /// Turned 90° clockwise: the device's top-left corner maps to the area's top-right.
    case quarterTurn = 90
    /// Turned 180°: the top-left corner maps to the bottom-right.
    case halfTurn = 180
    /// Turned 270° clockwise (90° counterclockwise): the top-left corner maps to the bottom-left.
    case threeQuarterTurn = 270

    /// The rotation of `degrees` clockwise (0, 90, 180, 270, or those plus or minus a
    /// multiple of 360); nil for any other angle.
    public init?(degrees: Int) {
        let d = ((degrees % 360) + 360) % 360
        self.init(rawValue: d)
    }

    /// The matrix that turns a normalized point (0...1 each way) about the area's center.
    public var matrix: CalibrationMatrix {
        switch self {
        case .none: .identity
        case .quarterTurn: CalibrationMatrix(a: 0, b: -1, c: 1, d: 1, e: 0, f: 0)
        case .halfTurn: CalibrationMatrix(a: -1, b: 0, c: 1, d: 0, e: -1, f: 1)
        case .threeQuarterTurn: CalibrationMatrix(a: 0, b: 1, c: 0, d: -1, e: 0, f: 1)
        }
    }
}

extension CalibrationMatrix {
    /// This matrix, then `next`: `next.apply(self.apply(p))` as one matrix.
    public func followed(by next: CalibrationMatrix) -> CalibrationMatrix {
        CalibrationMatrix(a: next.a * a + next.b * d, b: next.a * b + next.b * e, c: next.a * c + next.b * f + next.c,
                          d: next.d * a + next.e * d, e: next.d * b + next.e * e, f: next.d * c + next.e * f + next.f)
    }
}

extension Router {
    /// A normalized point placed in a layout-space region: clamped inside it (an edge step
    /// inside its right and bottom edges, as on an output) and inside the layout.
    @inline(__always)
    static func place(_ u: Double, _ v: Double, in r: LayoutRect, layout: Layout) -> LayoutPoint {
        let step = Layout.edgeMargin
        let x = min(max(r.minX + u * r.size.width, r.minX), max(r.minX, r.maxX - step))
        let y = min(max(r.minY + v * r.size.height, r.minY), max(r.minY, r.maxY - step))
        let p = LayoutPoint(x: x, y: y)
        return layout.outputs.isEmpty ? p : layout.clamp(p)
    }
}
