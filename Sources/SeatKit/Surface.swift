import Synchronization

/// Identifies a surface in traces; unique for the life of the process.
public struct SurfaceID: Hashable, Sendable, CustomStringConvertible {
    /// The number, counted up from 1 as surfaces are made.
    public let rawValue: UInt32
    /// "#12" for surface 12.
    public var description: String { "#\(rawValue)" }
}

/// A node of the surface tree: a rectangle that can receive input, with exactly one
/// responder.
///
/// A surface's `frame` is in its parent's surface space; its children are ordered back to
/// front and may extend beyond it (as Wayland subsurfaces do) unless `clipsChildren` is set.
/// Each surface keeps the bounding box of everything in its subtree that can be hit, updated
/// incrementally, so hit-testing skips a subtree that cannot hold the point.
///
/// Surfaces are compared by identity. The parent link does not own: the tree owns downward. A
/// surface belongs to at most one output's tree; it receives input only while attached.
///
/// The properties that hit-testing reads are stored unchecked (the rules are in
/// UnsafeFoundations.swift): the runtime exclusivity check cost about as much as the rest of a
/// hit-test in small trees.
public final class Surface {
    /// The last ID handed out. Atomic: surfaces may be made on any thread before they join a
    /// router, and two must never share an ID.
    private static let lastID = Atomic<UInt32>(0)

    /// This surface's identity: unique for the life of the process.
    public let id: SurfaceID
    /// A name for traces and descriptions.
    public var name: String
    /// The one responder that handles this surface's input. Replace it at any time, even
    /// from inside one of its own calls (it then lives until the router is done asking it);
    /// the surface holds it strongly.
    public var responder: any Responder {
        get { unchecked.responderSlot.responder }
        set { replaceResponder(with: newValue) }
    }
    /// The hot state, exempt from run-time exclusivity checks (the rules are in
    /// UnsafeFoundations.swift).
    struct HotState {
        /// Owns the responder. The router asks the responder through the slot without
        /// retaining it (a call through an existential loaded from a class retains and releases
        /// it, an atomic pair per event); one replaced meanwhile waits in the slot
        /// (``ResponderSlot``, as an output's).
        var responderSlot: ResponderSlot
        var _frame: SurfaceRect
        var _inputRegion: [SurfaceRect]?
        /// How many children are ``isBelowParent``: while any is, hit-testing through this
        /// surface takes the plain walk instead of the child index.
        var childrenBelowCount = 0
        /// `parent`, unretained (rule 1 of ``Unretained``: the parent clears it when it lets the
        /// child go and in its `deinit`). Not `weak`: a weakly referenced object moves its
        /// reference count to a side table, which made every retain of a parent surface on the
        /// hit-testing path several times slower. Walks up the tree read it without retaining
        /// every ancestor on the way.
        var parentLink: Unretained<Surface>?
        /// Backs `children`.
        var children: [Surface] = []
        /// Backs `gestureRecognizers`.
        var gestureRecognizers: [GestureRecognizer] = []
        /// `output`, unretained (rule 1 of ``Unretained``: the output's `deinit` and every detach
        /// clear it); also the output's identity for walks that must not touch an output that may
        /// have gone.
        var outputLink: Unretained<Output>?
        /// Backs `subtreeBounds`.
        var subtreeBounds: SurfaceRect?
        /// The children's boxes in flat arrays (and a grid when there are many), built at the
        /// first hit-test that needs it and marked stale by every change below.
        var childIndex: ChildHitIndex?
        /// Surfaces in this subtree, this one included.
        var subtreeSurfaceCount = 1
        /// Raised on every change in this subtree that can affect hit-testing (frames, order,
        /// input regions, hidden, input-disabled, clipping, children added or removed, at any
        /// depth): a flat table built at another count is stale.
        var subtreeEditCount: UInt64 = 0
        var flatTableRef: Unretained<FlatHitTable>?
        var hasRetiredFlatTables = false
        /// Backs `isAttached`.
        var isAttached = false
        /// Walks asking this surface's responder now without owning the surface (the pins of
        /// ``Router/walkChain(after:holder:target:kind:formerOutput:stopIf:_:)``,
        /// UnsafeFoundations.swift).
        /// The surface keeps itself alive (one retain it owns) until its last pin goes when its
        /// tree let it go while it was pinned (``WalkPins``).
        var walkPins = WalkPins()
        #if DEBUG
        /// How many times `layoutOrigin` walked up the tree from here: what an origin carried by
        /// the router saves (for tests; debug builds only).
        var layoutOriginWalks = 0
        #endif
    }

    @exclusivity(unchecked) var unchecked: HotState

    /// Children, back to front: the last one is on top.
    public var children: [Surface] { unchecked.children }

    /// The bounding box of the hittable parts of this subtree, in this surface's space;
    /// `nil` when nothing in it can be hit.
    public var subtreeBounds: SurfaceRect? { unchecked.subtreeBounds }

    /// True while the surface is in the tree of an output that is in a router's layout: only
    /// then can it receive input or become first responder. A stored flag, not derived:
    /// every delivery checks it, and a weak load costs more than the rest of the check.
    public var isAttached: Bool { unchecked.isAttached }

    #if DEBUG
    /// How many times `layoutOrigin` (and so `convert`) walked up the tree from this surface
    /// while it was attached (for tests; debug builds only).
    var layoutOriginWalksForTesting: Int { unchecked.layoutOriginWalks }
    #endif

    /// Position and size in the parent's surface space (for a root surface: output space).
    public var frame: SurfaceRect {
        get { unchecked._frame }
        set {
            let old = unchecked._frame
            unchecked._frame = newValue
            if newValue != old { frameDidChange() }
        }
    }

    /// Surface-local rectangles that accept input, clipped to the surface's bounds; `nil`
    /// means the whole surface (Wayland's infinite input region), `[]` means none.
    public var inputRegion: [SurfaceRect]? {
        get { unchecked._inputRegion }
        set {
            unchecked._inputRegion = newValue
            ownAreaDidChange()
        }
    }

    /// A hidden surface and its whole subtree are skipped by hit-testing.
    public var isHidden = false {
        didSet { if isHidden != oldValue { ownAreaDidChange() } }
    }

    /// An input-disabled surface and its whole subtree are skipped by hit-testing.
    public var isInputDisabled = false {
        didSet { if isInputDisabled != oldValue { ownAreaDidChange() } }
    }

    /// Stacks this surface (and its subtree) below its parent's own content, as a Wayland
    /// subsurface placed below its parent (`wl_subsurface.place_below` the parent): the
    /// parent's own area is hit-tested before it. Among themselves, such children keep their
    /// order in ``children`` (back to front). Off by default: children are above their parent.
    public var isBelowParent = false {
        didSet {
            guard isBelowParent != oldValue else { return }
            if let parent {
                parent.unchecked.childrenBelowCount += isBelowParent ? 1 : -1
                parent.unchecked.childIndex?.invalidate()
                parent.subtreeDidChange()
            }
        }
    }

    /// UIKit's rule: when set, parts of children outside this surface's bounds cannot be hit.
    /// Off by default, because Wayland subsurfaces may stick out of their parent.
    public var clipsChildren = false {
        didSet { if clipsChildren != oldValue { ownAreaDidChange() } }
    }

    /// The surface whose children include this one; `nil` for a root or detached surface.
    public var parent: Surface? { unchecked.parentLink?.object }
    /// The output whose tree holds this surface, while it is attached.
    public var output: Output? { unchecked.outputLink?.object }

    /// Recognizers that see the touches of this subtree (and touchpad gestures while the
    /// pointer focus is in it) before its responders, in the order added.
    /// Read from the hot state (as an output's): a stored property's read was a run-time
    /// exclusivity check, two per touch down in the recognizer walk (issue 25, twelfth round).
    public var gestureRecognizers: [GestureRecognizer] { unchecked.gestureRecognizers }

    /// Attaches `recognizer`, first detaching it from any surface or output.
    public func addGestureRecognizer(_ recognizer: GestureRecognizer) {
        recognizer.detachFromHost()
        unchecked.gestureRecognizers.append(recognizer)
        recognizer.surface = self
    }

    /// Detaches `recognizer`. One in progress is cancelled (a possible one fails) and reset;
    /// touches it had taken stay withdrawn from the responders until they end.
    public func removeGestureRecognizer(_ recognizer: GestureRecognizer) {
        guard let index = unchecked.gestureRecognizers.firstIndex(where: { $0 === recognizer }) else { return }
        let router = recognizer.router
        unchecked.gestureRecognizers.remove(at: index)
        recognizer.surface = nil
        router?.gestureRecognizerWasDetached(recognizer)
    }



    /// This subtree laid out for hit-testing, while it has at most
    /// `FlatHitTable.surfaceLimit` surfaces: built at the first hit-test through this surface
    /// that needs it. `flatTableRef` is the same object unretained, for the walk.
    private var flatTable: FlatHitTable?
    /// Tables replaced while a walk was on them (a responder edited the tree from inside it):
    /// kept until their walks end.
    private var retiredFlatTables: [FlatHitTable] = []

    /// Creates a detached surface.
    /// - Parameters:
    ///   - name: a name for traces and descriptions.
    ///   - frame: position and size in the future parent's surface space.
    ///   - responder: the responder for this surface's input; by default one that handles
    ///     nothing, so events walk on to the parent.
    public init(name: String = "", frame: SurfaceRect, responder: any Responder = PassThroughResponder()) {
        let id = Surface.lastID.wrappingAdd(1, ordering: .relaxed).newValue
        self.id = SurfaceID(rawValue: id)
        self.name = name.isEmpty ? "surface\(id)" : name
        unchecked = HotState(responderSlot: ResponderSlot(responder), _frame: frame)
        recomputeSubtreeBounds()
    }

    deinit {
        var i = 0
        while i < unchecked.children.count {
            // A child a walk is asking unretained outlives this reference (its last, maybe).
            unchecked.children[i].keepIfPinned()
            unchecked.children[i].unchecked.parentLink = nil
            unchecked.children[i].detachSubtree()
            i += 1
        }
        // Recognizers that outlive the surface (someone else holds them) are detached.
        for recognizer in gestureRecognizers { recognizer.surface = nil }
    }

    /// This surface's bounds in its own space: origin zero, size of the frame.
    public var bounds: SurfaceRect { SurfaceRect(origin: .zero, size: frame.size) }


    // MARK: Tree editing

    /// Adds `child` on top of the existing children. A child that already has a parent is
    /// *moved* (see ``insertChild(_:at:)``), not removed and added.
    public func addChild(_ child: Surface) {
        insertChild(child, at: unchecked.children.count)
    }

    /// Inserts `child` at `index` (0 is the back; past the end means on top).
    ///
    /// Moving is not removing: a child that is already in a tree of the same router (under
    /// another parent, on another output, or here at another index) keeps its touches, its
    /// pointer focus and implicit grab and its first-responder status; nothing of it is
    /// cancelled, left or re-entered. Its touches go on up its new chain, to the responders
    /// that saw them begin: the former ancestors (and former output) it leaves behind that
    /// saw one of its touches hear `touchesCancelled` for it now, since its end no longer
    /// walks through them; the new ones never hear of touches that began before the move.
    /// Only a subtree that leaves the router's layout this way (moved
    /// under a surface that is in no layout, or into another router's layout) is treated as
    /// removed, with every notification ``removeFromParent()`` sends. Pointer focus follows
    /// the new stacking before the next pointer event is routed.
    public func insertChild(_ child: Surface, at index: Int) {
        precondition(child !== self, "a surface cannot be its own child")
        precondition(!isDescendant(of: child), "adding an ancestor as a child would make a cycle")
        let formerRouter = child.unchecked.isAttached ? child.output?.router : nil
        let formerParent = child.parent
        if let formerParent { formerParent.unlink(child) }
        unchecked.children.insert(child, at: Swift.max(0, Swift.min(index, unchecked.children.count)))
        child.unchecked.parentLink = Unretained(self)
        if child.isBelowParent { unchecked.childrenBelowCount += 1 }
        if let output {
            child.attach(to: output)
        } else if child.output != nil {
            child.detachSubtree()
        }
        subtreeDidChange(surfacesAdded: child.unchecked.subtreeSurfaceCount)
        childAreaDidChange()
        if let formerRouter, let formerParent {
            if !(child.unchecked.isAttached && child.output?.router === formerRouter) {
                formerRouter.subtreeDidLeave(child, formerParent: formerParent)
            } else if formerParent !== self {
                formerRouter.subtreeDidMove(child, formerParent: formerParent)
                if !formerRouter.unchecked.pens.states.isEmpty { formerRouter.pensSubtreeDidMove(child) }
            }
        }
    }

    /// Moves `child` to the top of its siblings: a move, not a removal.
    public func bringToFront(_ child: Surface) {
        guard let index = unchecked.children.firstIndex(where: { $0 === child }) else { return }
        unchecked.children.remove(at: index)
        unchecked.children.append(child)
        // The bounding box is unchanged; only the order matters to hit-testing.
        unchecked.childIndex?.invalidate()
        subtreeDidChange()
    }

    /// Removes this surface (and its subtree) from its parent. Removing tells: each responder
    /// of the subtree hears every end it is owed, in this order: `touchesCancelled` for the
    /// touches it saw (to every link that saw them), cancelled releases of held buttons and
    /// `pointerLeft` for the pointer focus, cancelled releases of held keys and
    /// `didResignFirstResponder` for the first responder. Keyboard focus then goes where the
    /// delegate's rule says
    /// (``CompositorDelegate/router(_:firstResponderAfterRemoving:formerParent:)``, asked
    /// first), by default back to the surface that had it before, if it still can take it
    /// (``Router/defaultFirstResponder(afterRemoving:formerParent:)``). Nothing else is
    /// delivered to a removed surface. Safe to call from inside any handler, the removed
    /// surface's own included.
    public func removeFromParent() {
        guard let parent else { return }
        let formerRouter = unchecked.isAttached ? output?.router : nil
        parent.unlink(self)
        if output != nil { detachSubtree() }
        formerRouter?.subtreeDidLeave(self, formerParent: parent)
    }

    /// Takes `child` out of `children` and updates counts and boxes; tells no router.
    private func unlink(_ child: Surface) {
        // A child a walk is asking unretained outlives the tree's reference to it.
        child.keepIfPinned()
        if let index = unchecked.children.firstIndex(where: { $0 === child }) { unchecked.children.remove(at: index) }
        if child.isBelowParent { unchecked.childrenBelowCount -= 1 }
        child.unchecked.parentLink = nil
        subtreeDidChange(surfacesAdded: -child.unchecked.subtreeSurfaceCount)
        childAreaDidChange()
        letGoOfHitTables()
    }

    /// A subtree just left this surface: the hit-test tables that own surfaces of it, built
    /// before (this surface's child index, its and its ancestors' flat tables), let them go
    /// now. Both are stale after the edit and rebuilt only at the next hit-test through
    /// them, which may never come (a touch-only seat that stops touching there), and until
    /// then they were the removed surfaces' last owners, keeping their responders and what
    /// those hold alive. A table or index a walk is on (a responder removed from inside
    /// `refineHitTest`) is handed to that walk, which lets it go when it ends.
    private func letGoOfHitTables() {
        if let index = unchecked.childIndex {
            if index.isBeingWalked {
                // The walk's own reference keeps it until it ends; the next hit-test makes a new one.
                unchecked.childIndex = nil
            } else {
                index.letGoOfMembers()
            }
        }
        var node: Surface? = self
        while let current = node {
            current.letGoOfFlatTableMembers()
            node = current.parent
        }
    }

    private func letGoOfFlatTableMembers() {
        guard let table = flatTable else { return }
        if table.isBeingWalked {
            // Retired: the walk ends on it and `releaseFinishedFlatTables` lets it go.
            retiredFlatTables.append(table)
            unchecked.hasRetiredFlatTables = true
            flatTable = nil
            unchecked.flatTableRef = nil
        } else {
            table.letGoOfMembers()
        }
    }

    /// True if `ancestor` is this surface's parent, grandparent, ...
    public func isDescendant(of ancestor: Surface) -> Bool {
        var node = parent
        while let current = node {
            if current === ancestor { return true }
            node = current.parent
        }
        return false
    }

    /// Joins `output`'s tree; attached (routable) while that output is in a router's layout.
    func attach(to output: Output) {
        unchecked.outputLink = Unretained(output)
        unchecked.isAttached = output.isInLayout
        for child in unchecked.children { child.attach(to: output) }
    }

    func detachSubtree() {
        unchecked.outputLink = nil
        unchecked.isAttached = false
        for child in unchecked.children { child.detachSubtree() }
    }

    // MARK: Coordinates

    /// This surface's origin in layout space, or `nil` when detached.
    public var layoutOrigin: LayoutPoint? {
        guard let outputLink = unchecked.outputLink else { return nil }
        #if DEBUG
        unchecked.layoutOriginWalks += 1
        #endif
        // A walk up the tree that calls nothing: no ancestor can go away under it, so none is
        // retained (touch and pointer events ask for this on every event).
        var x = frame.origin.x, y = frame.origin.y
        var node = unchecked.parentLink
        while let current = node {
            current.with {
                x += $0.frame.origin.x
                y += $0.frame.origin.y
                node = $0.unchecked.parentLink
            }
        }
        let position = outputLink.with { $0.position }
        return LayoutPoint(x: position.x + x, y: position.y + y)
    }

    /// Converts a layout-space point into this surface's space; `nil` when detached.
    public func convert(_ point: LayoutPoint) -> SurfacePoint? {
        guard let origin = layoutOrigin else { return nil }
        return SurfacePoint(x: point.x - origin.x, y: point.y - origin.y)
    }

    /// Converts a point of this surface's space into layout space; `nil` when detached.
    public func convertToLayout(_ point: SurfacePoint) -> LayoutPoint? {
        guard let origin = layoutOrigin else { return nil }
        return LayoutPoint(x: point.x + origin.x, y: point.y + origin.y)
    }

    // MARK: Hit-testing

    /// True when the surface itself (not its children) accepts input at `point`, given in
    /// its own space: inside its bounds and its input region, and the responder agrees.
    public func acceptsInput(at point: SurfacePoint) -> Bool {
        guard bounds.contains(point) else { return false }
        if let region = inputRegion {
            if region.scanIndex(where: { $0.contains(point) }) == nil { return false }
        }
        // A responder known to keep the default accepts: read without entering the holder,
        // as nothing is called (``RefineHitTestProbe``).
        if unchecked.responderSlot.link.with({ $0.unchecked.refine == .followsDefault }) { return true }
        return refineHitTestAsking(at: point)
    }

    /// Asks the responder's ``Responder/refineHitTest(at:in:)`` (through the holder: no
    /// retain of the responder, see `withResponder`); its first call learns whether it is
    /// the protocol's default (``RefineHitTestProbe``).
    @inline(never)
    func refineHitTestAsking(at point: SurfacePoint) -> Bool {
        withResponderHolder { holder in
            switch holder.unchecked.refine {
            case .own, .followsDefault: return holder.responder.refineHitTest(at: point, in: self)
            case .unknown:
                let (accepts, kind) = RefineHitTestProbe.classify(holder.responder, at: point, in: self)
                holder.unchecked.refine = kind
                return accepts
            }
        }
    }

    /// The topmost, deepest surface of this subtree that accepts input at `point` (in this
    /// surface's space): children from the top down, each before its parent, as UIKit's
    /// `hitTest(_:with:)`. Hidden and input-disabled subtrees are skipped. Does not look at
    /// grabs or bound touches: the router does.
    ///
    /// A subtree of at most `FlatHitTable.surfaceLimit` surfaces (none with a grid's worth
    /// of children) is walked through its flat table, others level by level through each
    /// parent's `ChildHitIndex`; both give the same answers. A responder may edit the tree
    /// or hit-test again from inside `refineHitTest`: the walk under way finishes on the
    /// tree as it was when it began, and the next hit-test sees the edit.
    public func hitTest(_ point: SurfacePoint) -> Surface? {
        hitTestLocating(point)?.surface
    }

    /// ``hitTest(_:)`` that also returns where `point` (in this surface's space) is in the
    /// space of the surface hit, as the walk down computed it: callers carry it rather than
    /// walk up the tree again to find it (as tinywl's `desktop_view_at` returns sx, sy).
    public func hitTestLocating(_ point: SurfacePoint) -> SurfaceHit? {
        guard let box = unchecked.subtreeBounds, box.contains(point) else { return nil }
        guard unchecked.subtreeSurfaceCount <= FlatHitTable.surfaceLimit else { return hitTestBelowBounds(point) }
        let table = currentFlatTable()
        guard table.with({ $0.unchecked.isUsable }) else { return hitTestBelowBounds(point) }
        let entries = table.with { $0.beginWalk() }
        // Retained here, once: the walk itself touches only the candidates it asks.
        let hit = FlatHitTable.topmostHit(in: entries, at: point).map { SurfaceHit(surface: $0.surface.object, location: $0.location) }
        table.with { $0.endWalk() }
        if unchecked.hasRetiredFlatTables { releaseFinishedFlatTables() }
        return hit
    }

    /// ``hitTestLocating(_:)`` for the pointer's motion (``Router/pointerHit(at:device:)``):
    /// the surface found is handed out unretained, and tables replaced while the walk was on
    /// them are not let go yet (the caller calls ``releaseFinishedFlatTablesAfterHit()`` once
    /// it holds what it needs): the hit surface may be one of their members only.
    ///
    /// The surface is valid on the terms of rule 7 of ``Unretained``: while the router's
    /// edit count is what it was before the call and nothing was called out since, the
    /// surface is in the tree, which owns it; otherwise the caller takes an owning reference
    /// before it lets the tables go. `keeper` is an owning reference when the subtree is
    /// hit-tested level by level (large subtrees, rare), `nil` otherwise.
    @inline(__always)
    func hitTestLocatingUnretained(_ point: SurfacePoint) -> (surface: Unretained<Surface>, location: SurfacePoint, keeper: Surface?)? {
        guard let box = unchecked.subtreeBounds, box.contains(point) else { return nil }
        guard unchecked.subtreeSurfaceCount <= FlatHitTable.surfaceLimit else { return hitTestKeepingBelowBounds(point) }
        let table = currentFlatTable()
        guard table.with({ $0.unchecked.isUsable }) else { return hitTestKeepingBelowBounds(point) }
        let entries = table.with { $0.beginWalk() }
        let hit = FlatHitTable.topmostHit(in: entries, at: point)
        table.with { $0.endWalk() }
        guard let hit else { return nil }
        return (hit.surface, hit.location, nil)
    }

    /// The recursive hit-test's answer with an owning reference to it. Out of line: rare.
    @inline(never)
    private func hitTestKeepingBelowBounds(_ point: SurfacePoint) -> (surface: Unretained<Surface>, location: SurfacePoint, keeper: Surface?)? {
        guard let hit = hitTestBelowBounds(point) else { return nil }
        return (Unretained(hit.surface), hit.location, hit.surface)
    }

    /// Lets go of the tables a pointer hit-test walked after they were replaced
    /// (``hitTestLocatingUnretained(_:)``), once the caller holds the hit.
    @inline(__always)
    func releaseFinishedFlatTablesAfterHit() {
        if unchecked.hasRetiredFlatTables { releaseFinishedFlatTables() }
    }

    /// The flat table, rebuilt first if the subtree changed since it was built.
    @inline(__always)
    private func currentFlatTable() -> Unretained<FlatHitTable> {
        if let table = unchecked.flatTableRef, table.with({ $0.unchecked.builtAtEdit == unchecked.subtreeEditCount }) {
            return table
        }
        return rebuildFlatTable()
    }

    @inline(never)
    private func rebuildFlatTable() -> Unretained<FlatHitTable> {
        var table: FlatHitTable
        if let existing = flatTable, !existing.isBeingWalked {
            table = existing
        } else {
            // A responder changed the tree from inside a walk of the current table: that
            // walk keeps it, this hit-test gets a new one.
            if let existing = flatTable {
                retiredFlatTables.append(existing)
                unchecked.hasRetiredFlatTables = true
            }
            table = FlatHitTable()
            flatTable = table
            unchecked.flatTableRef = Unretained(table)
        }
        table.rebuild(for: self, atEdit: unchecked.subtreeEditCount)
        return Unretained(table)
    }

    private func releaseFinishedFlatTables() {
        retiredFlatTables.removeAll { !$0.isBeingWalked }
        unchecked.hasRetiredFlatTables = !retiredFlatTables.isEmpty
    }

    /// Hit-testing that reports every surface it checks, in order, to `visit`: for tests and
    /// for explaining a result. `visit` sees a surface when its own area is tested.
    public func hitTest(_ point: SurfacePoint, visiting visit: (Surface) -> Void) -> Surface? {
        guard !isHidden, !isInputDisabled else { return nil }
        if clipsChildren, !bounds.contains(point) { return nil }
        visit(self)
        for child in unchecked.children.reversed() where !child.isBelowParent {
            let local = SurfacePoint(x: point.x - child.frame.origin.x, y: point.y - child.frame.origin.y)
            if let hit = child.hitTest(local, visiting: visit) { return hit }
        }
        if acceptsInput(at: point) { return self }
        for child in unchecked.children.reversed() where child.isBelowParent {
            let local = SurfacePoint(x: point.x - child.frame.origin.x, y: point.y - child.frame.origin.y)
            if let hit = child.hitTest(local, visiting: visit) { return hit }
        }
        return nil
    }

    /// Hit-testing for a surface with children placed below it: the children above from the
    /// top down, its own area, then the children below from the top down.
    @inline(never)
    private func hitTestWithChildrenBelow(_ point: SurfacePoint) -> SurfaceHit? {
        if let hit = topmostChildHit(at: point, below: false) { return hit }
        if acceptsInput(at: point) { return SurfaceHit(surface: self, location: point) }
        return topmostChildHit(at: point, below: true)
    }

    private func topmostChildHit(at point: SurfacePoint, below: Bool) -> SurfaceHit? {
        let snapshot = unchecked.children
        var i = snapshot.count
        while i > 0 {
            i -= 1
            let child = snapshot[i]
            guard child.isBelowParent == below else { continue }
            let local = SurfacePoint(x: point.x - child.frame.origin.x, y: point.y - child.frame.origin.y)
            if let box = child.unchecked.subtreeBounds, box.contains(local), let hit = child.hitTestBelowBounds(local) { return hit }
        }
        return nil
    }

    /// Hit-testing once `point` is known to be inside `subtreeBounds`.
    func hitTestBelowBounds(_ point: SurfacePoint) -> SurfaceHit? {
        if unchecked.childrenBelowCount > 0 { return hitTestWithChildrenBelow(point) }
        let count = unchecked.children.count
        if count == 1 {
            let child = unchecked.children[0]
            let local = SurfacePoint(x: point.x - child.frame.origin.x, y: point.y - child.frame.origin.y)
            if let box = child.unchecked.subtreeBounds, box.contains(local), let hit = child.hitTestBelowBounds(local) {
                return hit
            }
        } else if count > 1 {
            var index: ChildHitIndex
            if let existing = unchecked.childIndex {
                index = existing
            } else {
                index = ChildHitIndex()
                unchecked.childIndex = index
            }
            if !index.unchecked.isCurrent {
                // A responder edited the tree from inside a walk of this very index: the walk
                // keeps the old one, this hit-test gets a new one.
                if index.isBeingWalked {
                    index = ChildHitIndex()
                    unchecked.childIndex = index
                }
                index.rebuild(from: unchecked.children)
            }
            if let hit = index.topmostHit(at: point) { return hit }
        }
        return acceptsInput(at: point) ? SurfaceHit(surface: self, location: point) : nil
    }

    /// The index over the children as of the last hit-test through this surface: for tests.
    var childIndexForTesting: ChildHitIndex? { unchecked.childIndex }
    /// The flat table as of the last hit-test through this surface: for tests.
    var flatTableForTesting: FlatHitTable? { flatTable }
    /// Tables kept for walks that were under way when they were replaced: for tests.
    var retiredFlatTableCountForTesting: Int { retiredFlatTables.count }

    // MARK: Bounding boxes

    /// The part of this surface that may accept input, in its own space.
    private var ownInputArea: SurfaceRect {
        guard let region = inputRegion else { return bounds }
        var area = SurfaceRect(x: 0, y: 0, width: 0, height: 0)
        for rect in region { area = area.union(rect.intersection(bounds)) }
        return area
    }

    private func frameDidChange() {
        subtreeDidChange()
        recomputeSubtreeBounds()  // the size may have changed
        parent?.childAreaDidChange()
    }

    private func ownAreaDidChange() {
        subtreeDidChange()
        if recomputeSubtreeBounds() { parent?.childAreaDidChange() }
    }

    /// Raises the edit count of this subtree and every subtree holding it, so that their flat
    /// tables are stale, even when no bounding box changes (a move inside the parent's box,
    /// a new stacking order); adds `surfacesAdded` to their surface counts.
    private func subtreeDidChange(surfacesAdded: Int = 0) {
        var node: Surface? = self
        var root = self
        while let current = node {
            current.unchecked.subtreeEditCount &+= 1
            current.unchecked.subtreeSurfaceCount += surfacesAdded
            root = current
            node = current.parent
        }
        // An edit in a routed tree: pointer focus is re-checked before the next pointer event.
        if root.unchecked.isAttached { root.output?.router?.treeDidChange() }
    }

    private func childAreaDidChange() {
        unchecked.childIndex?.invalidate()
        if recomputeSubtreeBounds() { parent?.childAreaDidChange() }
    }

    /// Recomputes `subtreeBounds` from this surface and its children's boxes; returns
    /// whether it changed, so that only changed boxes travel up the tree.
    @discardableResult
    private func recomputeSubtreeBounds() -> Bool {
        let old = unchecked.subtreeBounds
        var box: SurfaceRect?
        if !isHidden && !isInputDisabled {
            var area = ownInputArea
            for child in unchecked.children {
                if let childBox = child.unchecked.subtreeBounds {
                    area = area.union(childBox.offset(by: Vector(dx: child.frame.origin.x, dy: child.frame.origin.y)))
                }
            }
            if clipsChildren { area = area.intersection(bounds) }
            box = area.isEmpty ? nil : area
        }
        unchecked.subtreeBounds = box
        return box != old
    }
}

/// What a hit-test found: the surface and the point in its own space.
public struct SurfaceHit {
    /// The topmost, deepest surface that accepts input at the point.
    public let surface: Surface
    /// The point in `surface`'s space (surface-local), computed on the way down the tree.
    public let location: SurfacePoint
}

/// A surface's or an output's responder in an object of its own, so the router can ask it
/// unretained (``ResponderSlot``).
final class ResponderHolder {
    let responder: any Responder
    /// Whether `responder` keeps the default ``Responder/nextResponder(after:)``: learnt at
    /// the first walk that asks it for its next link (``NextResponderProbe``), then read by
    /// every walk, which follows the parent surface itself rather than calling it.
    struct HotState {
        var chain = NextResponderKind.unknown
        /// Whether `responder` keeps the default ``Responder/refineHitTest(at:in:)`` (accepts
        /// every point): learnt at its first hit-test (``RefineHitTestProbe``), after which
        /// hit-tests accept for it without calling it.
        var refine = NextResponderKind.unknown
    }
    @exclusivity(unchecked) var unchecked = HotState()
    init(_ responder: any Responder) { self.responder = responder }
}

/// What a responder's ``Responder/nextResponder(after:)`` is, as far as a walk knows.
enum NextResponderKind: UInt8 {
    /// Not asked yet.
    case unknown
    /// The protocol's default: it returns the link it is given (``NextResponderProbe``).
    case followsDefault
    /// The responder's own: called at every step.
    case own
}

extension Surface: CustomStringConvertible {
    /// The surface's ``name``.
    public var description: String { name }
}
