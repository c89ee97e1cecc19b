/// A coordinate space, used only as a type tag so that a point in one space cannot be
/// passed where another is expected.
///
/// SeatKit uses three spaces:
/// - ``LayoutSpace``: the global plane in which outputs are placed (logical units).
/// - ``OutputSpace``: one output's logical space, origin at its top-left corner, after its
///   transform and scale.
/// - ``SurfaceSpace``: one surface's local space, origin at its top-left corner. A surface's
///   `frame` is in its parent's surface space; a root surface's space is its output's space.
public protocol CoordinateSpace {}

/// The global plane in which outputs are placed, in logical units.
public enum LayoutSpace: CoordinateSpace {}
/// One output's logical space: origin at its top-left corner, after transform and scale.
public enum OutputSpace: CoordinateSpace {}
/// One surface's local space: origin at its top-left corner.
public enum SurfaceSpace: CoordinateSpace {}

/// A point tagged with the coordinate space it is expressed in.
public struct Point<Space: CoordinateSpace>: Hashable, Sendable, CustomStringConvertible {
    /// Horizontal coordinate, growing rightwards, in `Space`'s logical units.
    public var x: Double
    /// Vertical coordinate, growing downwards, in `Space`'s logical units.
    public var y: Double

    /// The point at (`x`, `y`) in `Space`.
    @inlinable
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The origin of `Space`: for a surface or output space, its top-left corner.
    public static var zero: Point { Point(x: 0, y: 0) }

    /// The same point moved by `offset`, staying in the same space.
    @inlinable
    public func offset(by offset: Vector) -> Point {
        Point(x: x + offset.dx, y: y + offset.dy)
    }

    /// The vector from `other` to this point.
    @inlinable
    public func vector(from other: Point) -> Vector {
        Vector(dx: x - other.x, dy: y - other.y)
    }

    /// Reinterprets the numbers in another space. Only call this where the two spaces are
    /// known to share an origin (a root surface and its output).
    @inlinable
    func reinterpreted<Other>(as _: Other.Type = Other.self) -> Point<Other> {
        Point<Other>(x: x, y: y)
    }

    /// "(12, 34.5)": the coordinates, without the space.
    public var description: String { "(\(x.compactDescription), \(y.compactDescription))" }
}

/// A point in layout space, the plane the outputs are placed on: where the pointer is and
/// where touches land.
public typealias LayoutPoint = Point<LayoutSpace>
/// A point in one output's space (origin at its top-left corner, after transform and scale).
public typealias OutputPoint = Point<OutputSpace>
/// A point in one surface's space (origin at its top-left corner); say which surface.
public typealias SurfacePoint = Point<SurfaceSpace>

/// A displacement; it has no origin, so it is the same in every space of equal scale.
public struct Vector: Hashable, Sendable, CustomStringConvertible {
    /// Horizontal component, positive rightwards.
    public var dx: Double
    /// Vertical component, positive downwards.
    public var dy: Double

    /// The displacement (`dx`, `dy`).
    @inlinable
    public init(dx: Double, dy: Double) {
        self.dx = dx
        self.dy = dy
    }

    /// No displacement.
    public static var zero: Vector { Vector(dx: 0, dy: 0) }

    /// Euclidean length.
    @inlinable
    public var length: Double { (dx * dx + dy * dy).squareRoot() }

    /// "(3, -4)".
    public var description: String { "(\(dx.compactDescription), \(dy.compactDescription))" }
}

/// A width and a height, in the units of whatever space the owner says.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    /// Horizontal extent; not negative for a meaningful size.
    public var width: Double
    /// Vertical extent; not negative for a meaningful size.
    public var height: Double

    /// A size of `width` by `height`.
    @inlinable
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// Zero by zero.
    public static var zero: Size { Size(width: 0, height: 0) }

    /// "800x600".
    public var description: String { "\(width.compactDescription)x\(height.compactDescription)" }
}

/// An axis-aligned rectangle in one space. Containment is half-open: a point on the right
/// or bottom edge is outside, as with pixel rectangles in wlroots and pixman.
public struct Rect<Space: CoordinateSpace>: Hashable, Sendable, CustomStringConvertible {
    /// The top-left corner, in `Space`.
    public var origin: Point<Space>
    /// Width and height, in `Space`'s units.
    public var size: Size

    /// The rectangle at `origin` (top-left, in `Space`) of `size`.
    @inlinable
    public init(origin: Point<Space>, size: Size) {
        self.origin = origin
        self.size = size
    }

    /// The rectangle with top-left corner (`x`, `y`) in `Space`, of `width` by `height`.
    @inlinable
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.origin = Point(x: x, y: y)
        self.size = Size(width: width, height: height)
    }

    /// Left edge (inside).
    @inlinable public var minX: Double { origin.x }
    /// Top edge (inside).
    @inlinable public var minY: Double { origin.y }
    /// Right edge (outside: containment is half-open).
    @inlinable public var maxX: Double { origin.x + size.width }
    /// Bottom edge (outside: containment is half-open).
    @inlinable public var maxY: Double { origin.y + size.height }
    /// True when the rectangle holds no point.
    @inlinable public var isEmpty: Bool { !(size.width > 0 && size.height > 0) }

    /// Whether `point` (in the same space) is inside: left and top edges in, right and bottom
    /// edges out.
    @inlinable
    public func contains(_ point: Point<Space>) -> Bool {
        point.x >= origin.x && point.y >= origin.y
            && point.x < origin.x + size.width && point.y < origin.y + size.height
    }

    /// The smallest rectangle holding both; an empty operand is ignored.
    @inlinable
    public func union(_ other: Rect) -> Rect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        let x0 = Swift.min(minX, other.minX), y0 = Swift.min(minY, other.minY)
        let x1 = Swift.max(maxX, other.maxX), y1 = Swift.max(maxY, other.maxY)
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The overlap of both, or an empty rectangle at the origin when they do not overlap.
    @inlinable
    public func intersection(_ other: Rect) -> Rect {
        let x0 = Swift.max(minX, other.minX), y0 = Swift.max(minY, other.minY)
        let x1 = Swift.min(maxX, other.maxX), y1 = Swift.min(maxY, other.maxY)
        guard x1 > x0, y1 > y0 else { return Rect(x: 0, y: 0, width: 0, height: 0) }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The same rectangle moved by `offset`.
    @inlinable
    public func offset(by offset: Vector) -> Rect {
        Rect(origin: origin.offset(by: offset), size: size)
    }

    /// Reinterprets the numbers in another space (see ``Point/reinterpreted(as:)``).
    @inlinable
    func reinterpreted<Other>(as _: Other.Type = Other.self) -> Rect<Other> {
        Rect<Other>(origin: origin.reinterpreted(), size: size)
    }

    /// "(0, 0) 800x600": origin, then size.
    public var description: String { "\(origin) \(size)" }
}

/// A rectangle in layout space: an output's area in the layout.
public typealias LayoutRect = Rect<LayoutSpace>
/// A rectangle in one output's space.
public typealias OutputRect = Rect<OutputSpace>
/// A rectangle in one surface's space. A surface's `frame` is a `SurfaceRect` in its
/// parent's space.
public typealias SurfaceRect = Rect<SurfaceSpace>

/// The eight `wl_output.transform` values: how an output's content is rotated (counter-
/// clockwise) and flipped (around the vertical axis, before rotating) relative to the panel's
/// native orientation. Raw values are the protocol's.
public enum OutputTransform: Int32, CaseIterable, Sendable {
    /// The panel's native orientation.
    case normal = 0
    /// Rotated 90° counter-clockwise; width and height swap.
    case rotated90 = 1
    /// Rotated 180°.
    case rotated180 = 2
    /// Rotated 270° counter-clockwise; width and height swap.
    case rotated270 = 3
    /// Flipped around the vertical axis.
    case flipped = 4
    /// Flipped, then rotated 90° counter-clockwise; width and height swap.
    case flipped90 = 5
    /// Flipped, then rotated 180°.
    case flipped180 = 6
    /// Flipped, then rotated 270° counter-clockwise; width and height swap.
    case flipped270 = 7

    /// True for the transforms that swap width and height.
    public var swapsAxes: Bool { rawValue & 1 == 1 }

    /// The size of the output's logical space for a panel of `nativeSize`.
    public func transformedSize(_ nativeSize: Size) -> Size {
        swapsAxes ? Size(width: nativeSize.height, height: nativeSize.width) : nativeSize
    }

    /// Maps a point given as fractions (0...1) of the panel in its native orientation (what a
    /// touchscreen or tablet reports) to fractions of the output's logical space.
    ///
    /// With `.rotated90` the compositor turns the content a quarter counter-clockwise onto
    /// the panel, so the panel's native top-left corner shows the logical top-right corner
    /// and its native bottom-left corner the logical top-left.
    public func mapNormalized(x u: Double, y v: Double) -> (x: Double, y: Double) {
        // Undo the flip (around the native vertical axis), then the rotation.
        let fu = rawValue >= 4 ? 1 - u : u
        switch rawValue & 3 {
        case 0: return (fu, v)
        case 1: return (1 - v, fu)
        case 2: return (1 - fu, 1 - v)
        default: return (v, 1 - fu)
        }
    }
}

extension Double {
    /// "12" for 12.0, "12.5" for 12.5: short numbers in traces and descriptions.
    var compactDescription: String {
        // A range check and an integer round trip, not rounded(): that needs libm, which a
        // binary linking only this module does not get.
        if abs(self) < 1e15, Double(Int64(self)) == self { return String(Int64(self)) }
        return String(self)
    }
}
