/// A display, placed in the layout, and the root of one surface tree.
///
/// The output's logical size is its mode (in pixels, in the panel's native orientation) after
/// its transform, divided by its scale. Its ``root`` surface covers exactly that logical
/// area; the output's ``responder`` comes after the root surface in every chain that starts
/// in its tree, and the compositor delegate after it.
public final class Output {
    /// The connector name (`HDMI-A-1`, `DSI-1`): how devices are mapped to it.
    public let name: String
    /// Top-left corner in layout space.
    public var position: LayoutPoint {
        get { unchecked._position }
        set {
            unchecked._position = newValue
            unchecked.layoutFrame.origin = newValue
            router?.outputGeometryDidChange()
        }
    }
    /// The hot state, exempt from run-time exclusivity checks (the rules are in
    /// UnsafeFoundations.swift).
    struct HotState {
        var _position: LayoutPoint
        /// Backs `layoutFrame`.
        var layoutFrame: LayoutRect
        var _modeSize: Size
        var _transform: OutputTransform
        var _scale: Double
        /// Owns the responder, as a surface's slot does (``ResponderSlot``): a walk asks it
        /// without retaining it, and one replaced while it asks waits in the slot. Its holder
        /// also says whether the responder keeps the default ``Responder/nextResponder(after:)``
        /// (``NextResponderProbe``); a new responder gets a new holder, unknown again.
        var responderSlot: ResponderSlot
        /// Backs `isInLayout`.
        var isInLayout = false
        /// Backs `gestureRecognizers`.
        var gestureRecognizers: [GestureRecognizer] = []
        /// `router`, unretained (rule 1 of ``Unretained``: the router owns the output through
        /// its layout and clears the link when it removes the output and in its `deinit`). Not
        /// `weak`: a weakly referenced router keeps its reference count in a side table, which
        /// made each retain and release of the router on the per-event path take the runtime's
        /// slow path (issue 25).
        var routerLink: Unretained<Router>?
        /// Walks asking this output's responder without owning the output (UnsafeFoundations.swift,
        /// "Asking an output without owning it").
        /// The output keeps itself alive (one retain it owns) until its last pin goes when the
        /// layout let it go while it was pinned (``WalkPins``).
        var walkPins = WalkPins()
    }

    @exclusivity(unchecked) var unchecked: HotState

    /// The output's area in layout space. Stored, updated when the geometry changes: every
    /// pointer clamp and output lookup reads it (computed, it cost about 600 instructions per
    /// pointer motion in the kiosk under callgrind, with dynamic exclusivity checks).
    public var layoutFrame: LayoutRect { unchecked.layoutFrame }

    /// Mode size in pixels, in the panel's native orientation.
    public var modeSize: Size {
        get { unchecked._modeSize }
        set {
            unchecked._modeSize = newValue
            geometryDidChange()
        }
    }
    /// How the content is rotated and flipped onto the panel (`wl_output.transform`).
    /// Changing it, ``modeSize`` or ``scale`` resizes ``root`` to the new logical size and
    /// has pointer focus checked again before the next pointer event.
    public var transform: OutputTransform {
        get { unchecked._transform }
        set {
            unchecked._transform = newValue
            geometryDidChange()
        }
    }
    /// Pixels per logical unit (wl_output.scale, or a fractional scale).
    public var scale: Double {
        get { unchecked._scale }
        set {
            unchecked._scale = newValue
            geometryDidChange()
        }
    }
    /// The root surface. Its frame always equals the output's logical area in output space.
    public let root: Surface
    /// The responder between the root surface and the compositor delegate.
    /// Replace it at any time, even from inside one of its own calls (it then lives until
    /// the router is done asking it); the output holds it strongly.
    public var responder: any Responder {
        get { unchecked.responderSlot.responder }
        set { replaceResponder(with: newValue) }
    }

    /// The router whose layout holds this output.
    public internal(set) var router: Router? {
        get { unchecked.routerLink?.object }
        set { unchecked.routerLink = newValue.map(Unretained.init) }
    }
    /// True while the output is in a router's layout: its tree is attached (routable) only
    /// then.
    public internal(set) var isInLayout: Bool {
        get { unchecked.isInLayout }
        set { unchecked.isInLayout = newValue }
    }
    /// Global recognizers: they take part in every touch on this output (and in touchpad
    /// gestures while the pointer is on it), after the surfaces' recognizers. A kiosk's
    /// hidden admin gesture or a three-finger swipe belongs here.
    public var gestureRecognizers: [GestureRecognizer] { unchecked.gestureRecognizers }

    /// Attaches a global recognizer, first detaching it from any surface or output.
    public func addGestureRecognizer(_ recognizer: GestureRecognizer) {
        recognizer.detachFromHost()
        unchecked.gestureRecognizers.append(recognizer)
        recognizer.output = self
    }

    /// Detaches a global recognizer; one in progress is cancelled (a possible one fails).
    public func removeGestureRecognizer(_ recognizer: GestureRecognizer) {
        guard let index = unchecked.gestureRecognizers.firstIndex(where: { $0 === recognizer }) else { return }
        let router = recognizer.router
        unchecked.gestureRecognizers.remove(at: index)
        recognizer.output = nil
        router?.gestureRecognizerWasDetached(recognizer)
    }

    /// An output not yet in any layout (``Router/addOutput(_:)`` places it), with a root
    /// surface covering its logical area. `position` is its top-left corner in layout
    /// space; `modeSize` is in pixels, native orientation; `scale` must be positive (a
    /// precondition: zero or less stops the process).
    public init(name: String, position: LayoutPoint = .zero, modeSize: Size,
                transform: OutputTransform = .normal, scale: Double = 1,
                responder: any Responder = PassThroughResponder()) {
        precondition(scale > 0, "an output's scale must be positive")
        self.name = name
        let logical = Output.logicalSize(modeSize: modeSize, transform: transform, scale: scale)
        unchecked = HotState(_position: position, layoutFrame: LayoutRect(origin: position, size: logical),
                             _modeSize: modeSize, _transform: transform, _scale: scale,
                             responderSlot: ResponderSlot(responder))
        self.root = Surface(name: "\(name)/root", frame: SurfaceRect(origin: .zero, size: logical))
        root.attach(to: self)
    }

    deinit {
        // A root a walk is asking unretained outlives its output.
        root.keepIfPinned()
        // Surfaces that outlive their output are no longer attached to anything.
        root.detachSubtree()
        // Nor are global recognizers that outlive it.
        for recognizer in gestureRecognizers { recognizer.output = nil }
    }

    /// Size of the output in logical units.
    public var logicalSize: Size {
        Output.logicalSize(modeSize: modeSize, transform: transform, scale: scale)
    }


    /// Converts a layout-space point into this output's space.
    public func convert(_ point: LayoutPoint) -> OutputPoint {
        OutputPoint(x: point.x - position.x, y: point.y - position.y)
    }

    /// Converts a point of this output's space into layout space.
    public func convertToLayout(_ point: OutputPoint) -> LayoutPoint {
        LayoutPoint(x: point.x + position.x, y: point.y + position.y)
    }

    /// Maps a point given as fractions (0...1) of the panel in its native orientation (what
    /// an absolute device mapped to this output reports, after its calibration) into layout
    /// space, applying the output's transform.
    public func layoutPoint(fromNormalized x: Double, _ y: Double) -> LayoutPoint {
        let mapped = transform.mapNormalized(x: x, y: y)
        let frame = unchecked.layoutFrame
        return LayoutPoint(x: frame.minX + mapped.x * frame.size.width, y: frame.minY + mapped.y * frame.size.height)
    }

    /// The nearest point to `point` (layout space) inside this output, kept
    /// ``Layout/edgeMargin`` inside its right and bottom edges (half-open: a client reading the
    /// rounded position must find it inside its surface).
    package func clampInside(_ point: LayoutPoint) -> LayoutPoint {
        let f = unchecked.layoutFrame, step = Layout.edgeMargin
        return LayoutPoint(x: Swift.min(Swift.max(point.x, f.minX), Swift.max(f.minX, f.maxX - step)),
                           y: Swift.min(Swift.max(point.y, f.minY), Swift.max(f.minY, f.maxY - step)))
    }

    private static func logicalSize(modeSize: Size, transform: OutputTransform, scale: Double) -> Size {
        let t = transform.transformedSize(modeSize)
        return Size(width: t.width / scale, height: t.height / scale)
    }

    private func geometryDidChange() {
        unchecked.layoutFrame = LayoutRect(origin: position, size: logicalSize)
        root.frame = SurfaceRect(origin: .zero, size: logicalSize)
        router?.outputGeometryDidChange()
    }
}

extension Output: CustomStringConvertible {
    /// The connector name.
    public var description: String { name }
}

/// The outputs of a router, placed in one layout plane.
public struct Layout {
    /// The outputs in the order they were added: later ones are on top where they overlap.
    public internal(set) var outputs: [Output] = []

    /// The topmost output holding `point` (the last added wins where outputs overlap).
    public func output(at point: LayoutPoint) -> Output? {
        outputIndex(at: point).map { outputs[$0] }
    }

    /// The index in ``outputs`` of ``output(at:)``: found without retaining any output.
    @inline(__always)
    func outputIndex(at point: LayoutPoint) -> Int? {
        var i = outputs.count
        while i > 0 {
            i -= 1
            if outputs[i].unchecked.layoutFrame.contains(point) { return i }
        }
        return nil
    }

    /// The output with this connector name.
    public func output(named name: String) -> Output? {
        outputs.scanIndex { $0.name == name }.map { outputs[$0] }
    }

    /// The smallest rectangle holding every output.
    public var bounds: LayoutRect {
        outputs.reduce(LayoutRect(x: 0, y: 0, width: 0, height: 0)) { $0.union($1.layoutFrame) }
    }

    /// The point of the layout nearest to `point`: inside some output, and at least 1/256 (one
    /// step of `wl_fixed_t`) inside a right or bottom edge that no other output continues, so
    /// the position a Wayland client reads after rounding is inside its surface too. Used to
    /// keep the pointer on screen.
    package func clamp(_ point: LayoutPoint) -> LayoutPoint {
        if outputs.isEmpty { return point }
        let step = Self.edgeMargin
        if let index = outputIndex(at: point) {
            // Inside: only the last step before an open right or bottom edge moves.
            let f = outputs[index].unchecked.layoutFrame
            var p = point
            if p.x > f.maxX - step, outputIndex(at: LayoutPoint(x: f.maxX, y: p.y)) == nil { p.x = Swift.max(f.minX, f.maxX - step) }
            if p.y > f.maxY - step, outputIndex(at: LayoutPoint(x: p.x, y: f.maxY)) == nil { p.y = Swift.max(f.minY, f.maxY - step) }
            return p
        }
        var best = point
        var bestDistance = Double.infinity
        for output in outputs {
            let inside = output.clampInside(point)
            let d = (inside.x - point.x) * (inside.x - point.x) + (inside.y - point.y) * (inside.y - point.y)
            if d < bestDistance {
                bestDistance = d
                best = inside
            }
        }
        return best
    }

    /// How far ``clamp(_:)`` keeps the pointer inside a right or bottom edge: 1/256, the step
    /// of `wl_fixed_t`, which rounds to nearest.
    package static let edgeMargin = 1.0 / 256
}

extension Output.HotState {
    /// Whether the responder keeps the default next link, as far as walks know (for tests).
    var responderChain: NextResponderKind { responderSlot.link.with { $0.unchecked.chain } }
}
