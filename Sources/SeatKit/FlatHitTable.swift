/// A whole small subtree laid out for hit-testing as one array of plain values, walked front
/// to back in a single loop that touches no `Surface` until it has a candidate.
///
/// The recursive hit-test (`Surface.hitTestBelowBounds`) retains objects on every level it
/// descends (the parent's child index, a lone child), and in trees of ten surfaces those
/// atomic updates cost more than the arithmetic. This table is what that
/// recursion would visit, in the order it would visit it, for the surface that owns it (the
/// one `hitTest(_:)` was called on; its space is level 0):
///
/// - an *enter* entry for a surface whose subtree has entries of its own: its frame origin
///   and its subtree box in its own space. The point one level down is the point at this
///   entry's level minus the origin; when the box does not hold it, the walk jumps past the
///   whole subtree (`next`).
/// - a *candidate* entry, either a surface's own area after its children's entries (origin
///   zero, box = its bounds), or a surface with nothing hittable below it (origin and subtree
///   box as for an enter entry). When the box holds the point, the surface is asked
///   `acceptsInput(at:)` with that point, exactly what the recursion asks it; if it refuses
///   (input region, `refineHitTest`), the walk goes on.
///
/// Children come top first, each subtree before its parent's own area; subtrees with nothing
/// hittable (hidden, input-disabled, empty) and own areas with an empty input region have no
/// entries, as the recursion never tests them. Every point is computed as the recursion
/// computes it, `point − child.frame.origin` one level at a time (the walk keeps one point
/// per level), and the boxes are the values the recursion compares against, so the answers
/// are identical to the bit.
///
/// The owner marks the table stale through its subtree's edit count, which every change
/// below it raises; it is rebuilt at the next hit-test in its own storage, so a warm tree
/// allocates nothing. A table being walked is never rebuilt: when a responder edits the tree
/// from inside `refineHitTest` and then hit-tests again, the owner starts a new table and
/// keeps the old one alive until its walk ends; the walk finishes on the tree as it was when
/// the walk began (only the candidate's own checks read the surface as it is now). The table
/// owns the surfaces it lists, so none of them can go away under a walk.
final class FlatHitTable {
    /// Subtrees of at most this many surfaces (the owner included) are hit-tested through a
    /// table; larger ones through the per-parent `ChildHitIndex`.
    static let surfaceLimit = 128
    /// A subtree in which some surface has this many children is left to the per-parent
    /// index too: from this many children that index keeps a grid, which beats scanning them.
    static let childLimit = ChildHitIndex.gridThreshold
    /// And one deeper than this many levels: a walk keeps one point per level on the stack
    /// in a buffer of this many (1 KiB, which `withUnsafeTemporaryAllocation` always puts on
    /// the stack; a fixed size saves the walk sizing it).
    static let levelLimit = 64

    struct Entry {
        /// The box the point must lie in, in the surface's own space: one level below
        /// `level` for an enter entry or a leaf, `level` itself for an own-area entry.
        var minX, minY, maxX, maxY: Double
        /// Subtracted from the point at `level` to get the point in the surface's space:
        /// the frame origin, or zero for an own-area entry.
        var originX, originY: Double
        var surface: Unretained<Surface>
        /// Where the walk goes when the box does not hold the point: past the subtree for an
        /// enter entry, the next entry for a candidate.
        var next: Int32
        /// Which level's point this entry reads (0: the owner's space).
        var level: Int16
        var isCandidate: Bool
        /// A group entry (`groupingThreshold`): no surface of its own (`surface` is the
        /// parent's, never asked); left out of `layoutForTesting`.
        var isGroup = false
    }

    /// The hot state, exempt from run-time exclusivity checks (the rules are in
    /// UnsafeFoundations.swift).
    struct HotState {
        /// The owner's subtree edit count when the table was built; stale when they differ.
        var builtAtEdit: UInt64 = .max
        /// False when the last build found the subtree too wide or too deep for a table (see
        /// `childLimit`, `levelLimit`): the per-parent index serves it until the next edit.
        var isUsable = false
        /// How many hit-tests are walking this table (more than one when a responder hit-tests
        /// from inside a hit-test).
        var walks = 0
        /// Every surface with an entry, as of the last build: keeps them alive for the walks.
        /// Emptied as soon as a surface leaves the owner's subtree (``letGoOfMembers()``), so
        /// a stale table owns no removed surface until the next hit-test.
        var members: [Surface] = []
        var entries = ChildHitIndex.Storage<Entry>()
    }

    @exclusivity(unchecked) var unchecked = HotState()

    deinit { unchecked.entries.free() }

    var isBeingWalked: Bool { unchecked.walks > 0 }

    /// Marks the start of a walk and hands out the entries to walk (`topmostHit`); every
    /// `beginWalk()` must be paired with an `endWalk()`.
    @inline(__always)
    func beginWalk() -> ChildHitIndex.Storage<Entry> {
        unchecked.walks &+= 1
        return unchecked.entries
    }

    @inline(__always)
    func endWalk() { unchecked.walks &-= 1 }

    /// The topmost, deepest surface of the owner's subtree that accepts input at `point` (in
    /// the owner's space) and the point in its space, or `nil`; unretained: the table's
    /// members hold it. A static walk
    /// over entries handed out by `beginWalk()`, so that it runs inline in the caller.
    @inline(__always)
    static func topmostHit(in entries: ChildHitIndex.Storage<Entry>, at point: SurfacePoint)
        -> (surface: Unretained<Surface>, location: SurfacePoint)? {
        let count = entries.count
        return withUnsafeTemporaryAllocation(of: SurfacePoint.self, capacity: Self.levelLimit) { points -> (surface: Unretained<Surface>, location: SurfacePoint)? in
            let point0 = points.baseAddress!
            point0.initialize(to: point)
            var i = 0
            while i < count {
                let entry = entries[i]
                let level = Int(entry.level)
                let p = point0[level]
                let local = SurfacePoint(x: p.x - entry.originX, y: p.y - entry.originY)
                if local.x >= entry.minX && local.y >= entry.minY && local.x < entry.maxX && local.y < entry.maxY {
                    if !entry.isCandidate {
                        (point0 + level + 1).initialize(to: local)
                    } else if entry.surface.with({ $0.acceptsInput(at: local) }) {
                        return (entry.surface, local)
                    }
                    i += 1
                } else {
                    i = Int(entry.next)
                }
            }
            return nil
        }
    }

    /// A surface left the owner's subtree: the table is stale and owns none of its surfaces
    /// any more (the next hit-test rebuilds it). Not while it is walked: the walk reads the
    /// entries `members` keeps alive.
    func letGoOfMembers() {
        precondition(!isBeingWalked, "a table lets go of its members only when no walk is on it")
        unchecked.members.removeAll(keepingCapacity: true)
        unchecked.entries.removeAll()
        unchecked.isUsable = false
        unchecked.builtAtEdit = .max
    }

    // MARK: Building

    /// Lays out `owner`'s subtree as it is now; `edit` is the owner's subtree edit count.
    func rebuild(for owner: Surface, atEdit edit: UInt64) {
        precondition(!isBeingWalked, "a table is not rebuilt while it is walked")
        unchecked.members.removeAll(keepingCapacity: true)
        unchecked.entries.removeAll()
        unchecked.isUsable = appendContents(of: owner, level: 0)
        if !unchecked.isUsable {
            unchecked.members.removeAll(keepingCapacity: true)
            unchecked.entries.removeAll()
        }
        unchecked.builtAtEdit = edit
    }

    /// The entries for `surface`'s children (top first) and its own area, reading the point
    /// at `level` (the surface's space). False, leaving a partial table, when a surface has
    /// `childLimit` children or a subtree is deeper than `levelLimit`.
    private func appendContents(of surface: Surface, level: Int) -> Bool {
        let children = surface.unchecked.children
        if children.count >= Self.childLimit { return false }
        // Children above the surface (top first), its own area, then children placed below it.
        // Many children: runs of `groupSize` behind a group entry each (see `appendGroup`).
        let grouped = children.count >= Self.groupingThreshold && level + 2 <= Self.levelLimit
        // Many more: runs of `groupSize` groups behind a supergroup entry each, while at
        // least two groups are left to fill one (`supergroupingThreshold`).
        let supergrouped = grouped && children.count >= Self.supergroupingThreshold
        var c = children.count
        var group = -1
        var inGroup = 0
        var groupBox = SurfaceRect(x: 0, y: 0, width: 0, height: 0)
        var supergroup = -1
        var inSupergroup = 0
        var supergroupBox = groupBox
        while c > 0 {
            c -= 1
            let child = children[c]
            if child.isBelowParent { continue }
            guard let box = child.unchecked.subtreeBounds else { continue }
            // The last child, when it would start a group: a group of one is one test more.
            let alone = grouped && inGroup == 0 && c == 0
            if grouped {
                let origin = child.frame.origin
                let inParent = SurfaceRect(x: box.minX + origin.x, y: box.minY + origin.y, width: box.size.width, height: box.size.height)
                if inGroup == 0 {
                    if supergroup >= 0 {
                        supergroupBox = supergroupBox.union(inParent)
                    } else if supergrouped && c + 1 >= 2 * Self.groupSize {
                        supergroup = unchecked.entries.count
                        appendGroupEntry(for: surface, level: level)
                        supergroupBox = inParent
                    }
                    if !alone {
                        group = unchecked.entries.count
                        appendGroupEntry(for: surface, level: level)
                        groupBox = inParent
                    }
                } else {
                    groupBox = groupBox.union(inParent)
                    if supergroup >= 0 { supergroupBox = supergroupBox.union(inParent) }
                }
            }
            if !appendSubtree(child, box: box, parentLevel: level) { return false }
            if grouped && !alone {
                inGroup += 1
                if inGroup == Self.groupSize {
                    closeGroup(at: group, box: groupBox)
                    inGroup = 0
                    if supergroup >= 0 {
                        inSupergroup += 1
                        if inSupergroup == Self.groupSize {
                            closeGroup(at: supergroup, box: supergroupBox)
                            supergroup = -1
                            inSupergroup = 0
                        }
                    }
                }
            }
        }
        if inGroup > 0 { closeGroup(at: group, box: groupBox) }
        if supergroup >= 0 { closeGroup(at: supergroup, box: supergroupBox) }
        if surface.inputRegion?.isEmpty != true {
            let size = surface.frame.size
            append(Entry(minX: 0, minY: 0, maxX: size.width, maxY: size.height, originX: 0, originY: 0,
                         surface: Unretained(surface), next: 0, level: Int16(level), isCandidate: true))
        }
        guard surface.unchecked.childrenBelowCount > 0 else { return true }
        c = children.count
        while c > 0 {
            c -= 1
            let child = children[c]
            if !child.isBelowParent { continue }
            if let box = child.unchecked.subtreeBounds, !appendSubtree(child, box: box, parentLevel: level) { return false }
        }
        return true
    }

    /// From this many children, the children above a surface go into groups of `groupSize`,
    /// each behind a *group* entry: its box holds the boxes of the group's subtrees (in the
    /// surface's space, widened by a hair against rounding), so a point outside it skips the
    /// group in one test instead of one per child (a panel of 20 siblings beside a window:
    /// issue 25). A group entry is an enter entry at the surface's level with origin zero:
    /// the point below it is the point itself, which the group's children do not read (each
    /// enter entry writes the level below it). It changes which entries are looked at, never
    /// the answer: a point outside the group's box is outside every child's box.
    static let groupingThreshold = 8
    static let groupSize = 4
    /// From this many children, runs of `groupSize` groups go behind a *supergroup* entry
    /// each (the same kind of entry as a group's, its box holding its groups' boxes): a point
    /// outside it skips `groupSize` groups in one test (20 panels beside a window: a point in
    /// the window tested 5 group entries and a group of its own, now 1; issue 25, eleventh
    /// round). A supergroup is opened only while at least two groups' worth of children are
    /// left, and the last child is never a group of its own: either would be one test more.
    static let supergroupingThreshold = groupSize * groupSize

    /// A group or supergroup entry, its box and end set by `closeGroup(at:box:)`.
    private func appendGroupEntry(for surface: Surface, level: Int) {
        append(Entry(minX: 0, minY: 0, maxX: 0, maxY: 0, originX: 0, originY: 0, surface: Unretained(surface),
                     next: 0, level: Int16(level), isCandidate: false, isGroup: true))
    }

    /// Sets the box and the end of the group whose entry is at `index`.
    private func closeGroup(at index: Int, box: SurfaceRect) {
        // Two at a time: the variadic `max` allocates its arguments' array in a debug build.
        let extent = Swift.max(Swift.max(Swift.abs(box.minX), Swift.abs(box.minY)), Swift.max(Swift.abs(box.maxX), Swift.abs(box.maxY)))
        let margin = 1e-9 * (1 + extent)
        guard margin.isFinite else {
            // Boxes too large to widen: a group every point enters.
            unchecked.entries[index].minX = -.infinity
            unchecked.entries[index].minY = -.infinity
            unchecked.entries[index].maxX = .infinity
            unchecked.entries[index].maxY = .infinity
            unchecked.entries[index].next = Int32(unchecked.entries.count)
            return
        }
        unchecked.entries[index].minX = box.minX - margin
        unchecked.entries[index].minY = box.minY - margin
        unchecked.entries[index].maxX = box.maxX + margin
        unchecked.entries[index].maxY = box.maxY + margin
        unchecked.entries[index].next = Int32(unchecked.entries.count)
    }

    private func appendSubtree(_ surface: Surface, box: SurfaceRect, parentLevel: Int) -> Bool {
        unchecked.members.append(surface)
        let origin = surface.frame.origin
        let start = unchecked.entries.count
        let hasHittableChildren = surface.unchecked.children.scanIndex(where: { $0.unchecked.subtreeBounds != nil }) != nil
        append(Entry(minX: box.minX, minY: box.minY, maxX: box.maxX, maxY: box.maxY, originX: origin.x, originY: origin.y,
                     surface: Unretained(surface), next: 0, level: Int16(parentLevel),
                     isCandidate: !hasHittableChildren))
        if hasHittableChildren {
            if parentLevel + 2 > Self.levelLimit { return false }
            if !appendContents(of: surface, level: parentLevel + 1) { return false }
            unchecked.entries[start].next = Int32(unchecked.entries.count)
        }
        return true
    }

    private func append(_ entry: Entry) {
        var entry = entry
        if entry.isCandidate { entry.next = Int32(unchecked.entries.count + 1) }
        unchecked.entries.append(entry)
    }

    /// The entries as (surface, is candidate, level), in walk order: for tests.
    var layoutForTesting: [(surface: Surface, isCandidate: Bool, level: Int)] {
        (0..<unchecked.entries.count).filter { !unchecked.entries[$0].isGroup }.map { (unchecked.entries[$0].surface.object, unchecked.entries[$0].isCandidate, Int(unchecked.entries[$0].level)) }
    }
}
